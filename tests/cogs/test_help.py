"""``/help`` end to end: the overview and each game's help, in English and Spanish, with their
pictures, within Discord's limits; every command of every game named, as the asker sees it.

The games and their commands are read from the running bot and from what it synced, so a new
game or command that /help leaves out fails here.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import Any

import discord
import pytest
from PIL import Image

from bot.app import EXTENSIONS
from bot.games import GameKind
from bot.i18n import MESSAGES
from bot.render.housie.help import render_housie_prizes
from bot.render.loteria.help import render_loteria_patterns
from cogs.help import described, paginate, whole_lines
from cogs.housie import SPANISH_PRIZE_NAMES
from emulator import Emulator
from emulator.model import Message
from emulator.rules import message_rule_errors
from engine.housie import Prize

SPANISH = "es-ES"
SUBCOMMAND_TYPES = {1, 2}


def text_of(message: Message) -> str:
    """Everything a message says: content, embed titles, descriptions and fields."""
    parts = [message.content]
    for embed in message.embeds:
        parts += [embed.get("title") or "", embed.get("description") or ""]
        for embed_field in embed.get("fields") or []:
            parts += [embed_field["name"], embed_field["value"]]
    return "\n".join(parts)


def within_discord_limits(message: Message) -> None:
    payload = {"content": message.content, "embeds": message.embeds}
    assert message_rule_errors(payload) == []
    for embed in message.embeds:
        assert len(embed.get("description") or "") <= 4096
        assert len(embed.get("title") or "") <= 256
        assert len(embed.get("fields") or []) <= 25
        for embed_field in embed.get("fields") or []:
            assert len(embed_field["name"]) <= 256
            assert len(embed_field["value"]) <= 1024


def name_in(item: dict[str, Any], locale: str | None) -> str:
    if locale is None:
        return str(item["name"])
    return str((item.get("name_localizations") or {}).get(locale, item["name"]))


def commands_of(root: dict[str, Any], locale: str | None) -> Iterator[tuple[str, list[str]]]:
    """``("/loteria start", [its options' names])`` for every command under a synced one."""

    def walk(item: dict[str, Any], path: list[str]) -> Iterator[tuple[str, list[str]]]:
        path = [*path, name_in(item, locale)]
        options = item.get("options") or []
        nested = [o for o in options if o["type"] in SUBCOMMAND_TYPES]
        if not nested:
            yield "/" + " ".join(path), [name_in(o, locale) for o in options]
        for child in nested:
            yield from walk(child, path)

    yield from walk(root, [])


def synced_root(emulator: Emulator, game: GameKind) -> dict[str, Any]:
    name = game.start.split()[0].removeprefix("/")
    return next(command for command in emulator.synced_commands if command["name"] == name)


async def ask(member: Any, **options: Any) -> Message:
    result = await member.slash("help", **options)
    reply = await result.reply()
    assert result.ephemeral  # only the asker sees it
    assert reply.ephemeral_for == member.user.id
    assert all(followup is reply for followup in result.followups)  # one message answers
    within_discord_limits(reply)
    return reply


@pytest.fixture
async def server(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    english = guild.add_member("ann", locale="en-US")
    spanish = guild.add_member("beto", locale=SPANISH)
    bot = await start_bot()
    return bot, english, spanish


async def test_help_alone_gives_every_game_in_a_few_words(emulator: Emulator, server):
    bot, english, _ = server
    reply = await ask(english)
    (embed,) = reply.embeds
    assert embed["title"] == "Game Night: how to play"
    assert "`/help game:` with a game's name" in embed["description"]
    games = bot.games()
    assert len(games) == 6
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    for game in games:
        value = fields[game.title]
        assert f"Start: `{game.start}`" in value
        assert f"Rules: `/help game:{game.title}`" in value
    # The calling games first: the bot's heart.
    assert [f["name"] for f in embed["fields"]][:3] == ["Bingo", "Housie", "Lotería"]
    assert fields["Lotería"].startswith(MESSAGES["help_loteria_summary"][0])
    # Commands that belong to no game are listed too, from the synced commands.
    others = [
        command
        for command in emulator.synced_commands
        if command["name"] not in {synced_root(emulator, game)["name"] for game in games}
    ]
    assert {command["name"] for command in others} == {"gamenight", "help", "stats"}
    for command in others:
        for typed, _ in commands_of(command, None):
            assert f"`{typed}" in fields["More commands"]
    assert not reply.attachments


async def test_help_alone_in_spanish(emulator: Emulator, server):
    bot, _, spanish = server
    reply = await ask(spanish)
    (embed,) = reply.embeds
    assert embed["title"] == "Noche de juegos: cómo se juega"
    assert "`/ayuda partida:` con el nombre" in embed["description"]
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert set(fields) == {game.title_es for game in bot.games()} | {"Más comandos"}
    assert "Empieza: `/tombola empezar`" in fields["Tómbola"]
    assert "Reglas: `/ayuda partida:Tómbola`" in fields["Tómbola"]
    assert "`/estadísticas [periodo]`" in fields["Más comandos"]


@pytest.mark.parametrize("locale", [None, SPANISH], ids=["english", "spanish"])
async def test_each_game_names_every_command_and_option_as_the_asker_sees_it(
    emulator: Emulator, server, locale
):
    bot, english, spanish = server
    member = spanish if locale else english
    for game in bot.games():
        reply = await ask(member, game=game.kind)
        text = text_of(reply)
        title = reply.embeds[0]["title"]
        assert title == (
            f"{game.title_es}: cómo se juega" if locale else f"{game.title}: how to play"
        )
        listed = list(commands_of(synced_root(emulator, game), locale))
        assert len(listed) >= 2
        for typed, options in listed:
            line = next((line for line in text.splitlines() if line.startswith(f"`{typed}")), None)
            assert line is not None, f"{typed} missing from the help of {game.kind}"
            for option in options:
                assert f"[{option}]" in line or f"<{option}>" in line, (typed, option)
        # The game's start command comes first in its list.
        commands_section = reply.embeds[-1]["description"]
        first_command = next(line for line in commands_section.splitlines() if line[:2] == "`/")
        english_paths = [typed for typed, _ in commands_of(synced_root(emulator, game), None)]
        start = listed[english_paths.index(game.start)][0]
        assert first_command.startswith(f"`{start}")


@pytest.mark.parametrize("locale", [None, SPANISH], ids=["english", "spanish"])
async def test_commands_and_options_named_in_the_rules_exist(emulator: Emulator, server, locale):
    """What the prose says to type (`/loteria claim`, `slept_rule`) is a real command or option
    in the asker's language: a renamed command cannot leave the help behind."""
    bot, english, spanish = server
    member = spanish if locale else english
    # Every synced command: a game's rules may send a player to another (/gamenight settings).
    listed = {
        typed: options
        for root in emulator.synced_commands
        for typed, options in commands_of(root, locale)
    }
    options = {option for names in listed.values() for option in names}
    for game in bot.games():
        reply = await ask(member, game=game.kind)
        rules = "\n".join(embed.get("description") or "" for embed in reply.embeds[:-1])
        quoted = re.findall(r"`([^`]+)`", rules)
        assert quoted, game.kind
        for typed in quoted:
            if typed.startswith("/"):
                assert typed in listed, f"{typed!r} in the help of {game.kind}"
            else:
                assert typed in options, f"{typed!r} in the help of {game.kind}"


@pytest.mark.parametrize("locale", ["en-US", SPANISH])
async def test_the_calling_games_explain_their_prizes_with_pictures(
    emulator: Emulator, server, locale
):
    bot, english, spanish = server
    member = spanish if locale == SPANISH else english
    names = SPANISH_PRIZE_NAMES if locale == SPANISH else {p: p.display_name for p in Prize}
    expected = {
        "loteria": render_loteria_patterns(locale),
        "housie": render_housie_prizes(locale, names),
    }
    for kind, picture in expected.items():
        reply = await ask(member, game=kind)
        (attached,) = reply.attachments
        assert attached.filename == picture.filename
        assert attached.description == picture.alt_text  # the alt text, in the asker's language
        assert attached.data == picture.png
        with Image.open(io.BytesIO(attached.data)) as image:
            assert image.format == "PNG"
        shown = [embed for embed in reply.embeds if embed.get("image")]
        assert [embed["image"]["url"] for embed in shown] == [f"attachment://{picture.filename}"]
        # The picture sits under the prizes, before the commands.
        assert "(see the picture)" in text_of(reply) or "(mira la imagen)" in text_of(reply)
    for game in bot.games():
        if not game.calling:
            reply = await ask(member, game=game.kind)
            assert not reply.attachments


async def test_the_loteria_help_says_what_the_family_deck_changes_and_why(server):
    _, english, spanish = server
    english_help = text_of(await ask(english, game="loteria"))
    assert "**Classic or family deck**" in english_help
    for card in ("El Borracho", "El Negrito", "El Apache", "La Piñata", "El Elote", "La Mariposa"):
        assert card in english_help
    assert "caricature" in english_help  # why
    assert "Nothing else changes" in english_help  # what it does not change
    assert "`/gamenight settings`" in english_help  # and how a server makes it its default
    spanish_help = text_of(await ask(spanish, game="loteria"))
    assert "**Baraja clásica o familiar**" in spanish_help
    assert "`/gamenight ajustes` y `baraja`" in spanish_help


async def test_a_game_is_found_by_either_name_and_offered_by_autocomplete(server):
    _, english, spanish = server
    by_name = await ask(spanish, game="Tómbola")
    assert by_name.embeds[0]["title"] == "Tómbola: cómo se juega"
    by_plain_name = await ask(english, game="LOTERIA")
    assert by_plain_name.embeds[0]["title"] == "Lotería: how to play"
    with_spaces = await ask(english, game="Dots and Boxes")
    assert with_spaces.embeds[0]["title"] == "Dots and Boxes: how to play"

    choices = await english.autocomplete("help", "game", "")
    assert [c["value"] for c in choices] == [
        "bingo",
        "housie",
        "loteria",
        "dots",
        "tictactoe",
        "triangle",
    ]
    assert await english.autocomplete("help", "game", "lot") == [
        {"name": "Lotería", "value": "loteria"}
    ]
    assert await spanish.autocomplete("help", "game", "tomb") == [
        {"name": "Tómbola", "value": "housie"}
    ]
    assert await spanish.autocomplete("help", "game", "gato") == []


async def test_an_unknown_game_gets_a_private_list_of_the_games(server):
    _, english, spanish = server
    refused = await (await english.slash("help", game="chess")).reply()
    assert refused.ephemeral
    assert "There is no game called 'chess'" in refused.content
    assert "Lotería" in refused.content
    assert "Tricky Triangle" in refused.content
    refused_es = await (await spanish.slash("help", game="ajedrez")).reply()
    assert "No hay ningún juego llamado 'ajedrez'" in refused_es.content
    assert "Tómbola" in refused_es.content


async def test_help_works_in_a_dm_with_the_bot(server):
    _, english, _ = server
    result = await english.slash("help", game="housie", in_channel=english.open_dm())
    reply = await result.reply()
    assert reply.embeds[0]["title"] == "Housie: how to play"
    assert reply.attachments


async def test_a_new_game_shows_up_without_touching_the_help(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    member = guild.add_member("ann")
    bot = await start_bot(extensions=(*EXTENSIONS, "tests.cogs.toy_game"))
    assert "toy" in {game.kind for game in bot.games()}

    overview = await ask(member)
    fields = {f["name"]: f["value"] for f in overview.embeds[0]["fields"]}
    # No help texts of its own: its command's description stands in for the summary.
    assert fields["Toy"] == ("A toy game for the tests\nStart: `/toy go` · Rules: `/help game:Toy`")
    assert "/toy" not in fields["More commands"]

    reply = await ask(member, game="toy")
    assert reply.embeds[0]["title"] == "Toy: how to play"
    assert reply.embeds[0]["description"] == "A toy game for the tests"
    commands = reply.embeds[-1]["description"].splitlines()
    assert commands[1:] == [
        "`/toy go`: Start a toy game",
        "`/toy again <rounds>`: Play the toy again",
    ]
    assert not reply.attachments


def test_long_answers_are_split_within_discords_limits():
    """No game's help needs it yet: embeds over 4,096 characters of description, 6,000 in a
    message or ten to a message go on, each picture in the message of the embed showing it."""
    paragraphs = [f"{index} " + "x" * 1500 for index in range(7)]
    embeds = described("Title", paragraphs)
    assert [embed.title for embed in embeds] == ["Title", None, None, None]
    assert all(len(embed.description or "") <= 4096 for embed in embeds)
    assert "\n\n".join(embed.description or "" for embed in embeds).count("x") == 7 * 1500

    picture = render_loteria_patterns("en-US")
    pictured = discord.Embed(description="y" * 3000).set_image(url="attachment://p.png")
    many = [(embed, None) for embed in embeds] + [(pictured, picture)]
    many += [(discord.Embed(description="z"), None) for _ in range(12)]
    pages = paginate(many)
    assert sum(len(page.embeds) for page in pages) == len(many)
    for page in pages:
        assert len(page.embeds) <= 10
        assert sum(len(embed) for embed in page.embeds) <= 6000
    (holding,) = [page for page in pages if pictured in page.embeds]
    assert holding.pictures == [picture]
    assert sum(len(page.pictures) for page in pages) == 1

    lines = [f"line {index}" for index in range(400)]
    kept = whole_lines(lines, 1024)
    assert len(kept) <= 1024
    assert kept.splitlines() == lines[: len(kept.splitlines())]
