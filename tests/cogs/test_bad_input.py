"""Bad input and other servers: long and odd text, stale command definitions, games of another
server, churn in a lobby, impatient hosts, typed prize names and codes. Every refusal is a short,
private answer that changes nothing."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from typing import Any

import pytest
from discord import AppCommandOptionType, app_commands
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from bot.i18n import message
from emulator.model import Permission
from engine.housie import decode_ticket_code
from tests.cogs.helpers import button_id, run_calls
from tests.conftest import SIGNING_KEY

# As long as Discord lets a string option be, with what people paste: emoji, markdown, mentions.
LONG = ("💥 **bold** `code` @everyone <@1> \n" * 300)[:6000]
QUOTE_ROOM = 60  # the most of the input a reply may repeat (the quote plus its marks)


def assert_short_private(reply, typed: str = LONG) -> None:
    assert reply.ephemeral, reply.content
    assert len(reply.content) <= 2000
    # At most a short piece of what was typed comes back.
    longest = max(
        (len(piece) for piece in typed.split("\n") if piece and piece in reply.content), default=0
    )
    assert longest <= QUOTE_ROOM, reply.content
    assert reply.content.count("💥") <= 3


async def test_long_and_odd_text_in_every_text_option(emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    bingo = guild.add_channel("bingo")
    host = guild.add_member("host")
    rival = guild.add_member("rival")
    bot = await start_bot()

    assert_short_private(await (await host.slash("loteria start", prizes=LONG)).reply())
    assert await bot.storage.live_games() == []
    assert_short_private(await (await host.slash("housie check", code=LONG)).reply())

    lobby = await (await host.slash("housie start", in_channel=bingo)).reply()
    await (await host.click(lobby, button_id(lobby, "join"))).reply()
    await (await host.click(lobby, button_id(lobby, "start"))).reply()
    reply = await (await host.slash("housie claim", in_channel=bingo, prize=LONG)).reply()
    assert_short_private(reply)
    (game,) = await bot.storage.live_games("housie")
    assert await bot.storage.claims(game.id) == []

    # /dots move used to stay "thinking" forever on a long line.
    await (await host.slash("dots play", opponent=rival)).reply()
    dots_lobby = guild.default_channel.messages[-1]
    await (
        await rival.click(dots_lobby, next(c for c in dots_lobby.custom_ids if ":accept:" in c))
    ).reply()
    moved = await host.slash("dots move", line=LONG)
    assert_short_private(await moved.reply())

    for command, option, extra in (
        ("loteria start", "prizes", {}),
        ("housie claim", "prize", {"in_channel": bingo}),
        ("dots move", "line", {}),
    ):
        choices = await host.autocomplete(command, option, LONG, **extra)
        assert len(choices) <= 25
        for choice in choices:
            assert len(choice["name"]) <= 100


async def test_stale_command_definitions_are_checked_again(emulator, start_bot):
    """Discord checks option ranges against the definitions it holds; an old definition (no
    maximum) lets a value through that the bot must still refuse."""
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    host = guild.add_member("host")
    bot = await start_bot()
    for command in ("loteria", "housie", "tictactoe", "dots"):
        for sub in emulator.command(command, guild)["options"]:
            for option in sub.get("options", []):
                option.pop("max_value", None)
                option.pop("min_value", None)
    cases = [
        ("loteria start", {"interval": 1000}, "`interval` must be 5 to 120"),
        ("loteria start", {"max_players": 5000}, "`max_players` must be 1 to 1000"),
        ("housie start", {"tickets": 9}, "`tickets` must be 1 to 6"),
        ("housie start", {"interval": 1}, "`interval` must be 5 to 120"),
        ("tictactoe play", {"turn_time": 1}, "`turn_time` must be 15 to 900"),
        ("dots play", {"rows": 40}, "`rows` must be"),
    ]
    for command, options, expected in cases:
        reply = await (await host.slash(command, **options)).reply()
        assert reply.ephemeral
        assert expected in reply.content, (command, reply.content)
    assert await bot.storage.live_games() == []


async def test_games_of_another_server_are_none_of_its_business(emulator, start_bot):
    home = emulator.add_guild("Home")
    home.add_channel("general")
    host = home.add_member("host")
    away = emulator.add_guild("Away")
    away.add_channel("general")
    visitor = away.add_member("visitor")
    bot = await start_bot(time_scale=100)
    lobby = await (await host.slash("housie start")).reply()
    await (await host.click(lobby, button_id(lobby, "join"))).reply()
    await (await host.click(lobby, button_id(lobby, "start"))).reply()
    (game,) = await bot.storage.live_games()
    code = (await bot.storage.boards(game.id, host.id))[0].code
    await (await host.slash("housie stop")).reply()
    await home.default_channel.wait_for_message(lambda m: "is over" in m.content)

    here = await (await host.slash("housie verify", game=game.id)).reply()
    assert "verified" in here.content
    there = await (await visitor.slash("housie verify", game=game.id)).reply()
    assert there.ephemeral
    assert f"There is no Housie game #{game.id}" in there.content
    assert game.seed.hex() not in there.content
    checked = await (await visitor.slash("housie check", code=code)).reply()
    assert checked.ephemeral
    assert "not a ticket code from a game in this server" in checked.content
    assert "Genuine" not in checked.content
    # A number that was never a game reads the same as another server's game.
    unknown = await (await visitor.slash("housie verify", game=game.id + 50)).reply()
    assert unknown.content.replace(str(game.id + 50), "N") == there.content.replace(
        str(game.id), "N"
    )


async def test_codes_are_read_as_crockford_reads_them(emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    host = guild.add_member("host")
    bot = await start_bot()
    lobby = await (await host.slash("housie start")).reply()
    await (await host.click(lobby, button_id(lobby, "join"))).reply()
    (game,) = await bot.storage.live_games()
    code = (await bot.storage.boards(game.id, host.id))[0].code
    typed = " " + "-".join(code[i : i + 4] for i in range(0, len(code), 4)).lower() + " "
    typed = typed.replace("0", "o").replace("1", "l")
    assert decode_ticket_code(typed, SIGNING_KEY) == decode_ticket_code(code, SIGNING_KEY)
    checked = await (await host.slash("housie check", code=typed)).reply()
    assert "Genuine" in checked.content


async def test_typed_prize_names_are_accepted(emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    players = [guild.add_member(f"p{i}") for i in range(3)]
    bot = await start_bot(time_scale=100)
    lobby = await (await players[0].slash("housie start")).reply()
    for player in players:
        await (await player.click(lobby, button_id(lobby, "join"))).reply()
    await (await players[0].click(lobby, button_id(lobby, "start"))).reply()
    (game,) = await bot.storage.live_games()
    await run_calls(bot.get_cog("Housie"), game.id, 1)
    # Judged (one number called: too early, so bogeys), not refused as unknown prizes.
    for player, typed, name in (
        (players[0], "full house", "Full House"),
        (players[1], "Cartón-Lleno", "Full House"),
        (players[2], "Early Five", "Early Five"),
    ):
        judged = await (await player.slash("housie claim", prize=typed)).reply()
        assert f"claimed {name} but" in judged.content, judged.content


async def test_seats_are_never_dealt_again_and_churn_has_an_end(emulator, start_bot):
    seed = bytes(range(32))
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    host = guild.add_member("host")
    leaver = guild.add_member("leaver")
    newcomer = guild.add_member("newcomer")
    bot = await start_bot(seed_source=lambda: seed)
    lobby = await (await host.slash("loteria start")).reply()
    await (await host.click(lobby, button_id(lobby, "join"))).reply()
    await (await leaver.click(lobby, button_id(lobby, "join"))).reply()
    (game,) = await bot.storage.live_games()
    left_with = (await bot.storage.boards(game.id, leaver.id))[0]
    await (await leaver.click(lobby, button_id(lobby, "leave"))).reply()
    await (await newcomer.click(lobby, button_id(lobby, "join"))).reply()
    dealt = (await bot.storage.boards(game.id, newcomer.id))[0]
    assert dealt.deal_index == 2
    assert dealt.state != left_with.state

    cog = bot.get_cog("Lotería")
    cog.deal_limit = 5  # as if thousands of joins and leaves had gone before
    for _ in range(2):
        await (await leaver.click(lobby, button_id(lobby, "join"))).reply()
        await (await leaver.click(lobby, button_id(lobby, "leave"))).reply()
    refused = await (await leaver.click(lobby, button_id(lobby, "join"))).reply()
    assert refused.ephemeral
    assert "dealt all 5 boards it can" in refused.content
    assert await bot.storage.get_player(game.id, leaver.id) is None


async def test_three_quick_stops_announce_once_and_finished_games_leave_memory(emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    host = guild.add_member("host")
    bot = await start_bot(time_scale=100)
    cog = bot.get_cog("Lotería")
    lobby = await (await host.slash("loteria start")).reply()
    await (await host.click(lobby, button_id(lobby, "join"))).reply()
    await (await host.click(lobby, button_id(lobby, "start"))).reply()
    (game,) = await bot.storage.live_games()
    await run_calls(cog, game.id, 2)
    stops = await asyncio.gather(*(host.slash("loteria stop") for _ in range(3)))
    replies = [await stop.reply() for stop in stops]
    public = [r for r in replies if not r.ephemeral]
    assert len(public) == 1
    assert "stopped by" in public[0].content
    assert all(
        "already being stopped" in r.content or "no Lotería game" in r.content
        for r in replies
        if r.ephemeral
    )
    await channel.wait_for_message(lambda m: "is over" in m.content)
    assert len([m for m in channel.messages if "is over" in m.content]) == 1
    await emulator.wait_until(
        lambda: game.id not in cog.live, 10, lambda: f"game {game.id} to leave memory"
    )

    # A table game too: played to the end, then forgotten.
    ttt = bot.get_cog("Tic-tac-toe") or next(
        c for c in bot.cogs.values() if getattr(c, "kind", "") == "tictactoe"
    )
    await (await host.slash("tictactoe play")).reply()
    (table,) = await bot.storage.live_games("tictactoe")
    await (await host.slash("tictactoe resign")).reply()
    await emulator.wait_until(
        lambda: table.id not in ttt.live, 10, lambda: f"game {table.id} to leave memory"
    )


async def test_lobby_buttons_work_only_where_their_game_is(emulator, start_bot):
    """A press that names a game of another channel (a crafted interaction: Discord only sends
    presses from the message's own channel) is refused like a stale button, changing nothing."""
    from emulator.interactions import InteractionType

    guild = emulator.add_guild("Game Night")
    general = guild.add_channel("general")
    other = guild.add_channel("other")
    host = guild.add_member("host")
    bot = await start_bot()
    lobby = await (await host.slash("loteria start")).reply()
    (game,) = await bot.storage.live_games()
    for action in ("join", "start", "cancel", "leave"):
        custom_id = button_id(lobby, action)
        crafted = await emulator.start_interaction(
            InteractionType.MESSAGE_COMPONENT,
            host.user,
            other,
            {"custom_id": custom_id, "component_type": 2},
            source_message=lobby,
            custom_id=custom_id,
        )
        reply = await crafted.reply()
        assert reply.ephemeral
        assert "another channel" in reply.content
    assert await bot.storage.players(game.id) == []
    assert (await bot.storage.get_game(game.id)).status.value == "lobby"
    assert general.messages == [lobby]


async def test_odd_time_zones_and_overflowing_times_are_refused_by_key(
    emulator, start_bot, caplog: pytest.LogCaptureFixture
):
    """The inputs that reached "something went wrong" with a traceback: a zone that is a folder
    of the time zone database, 300 characters of zone, and times past the calendar."""
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    manager = guild.add_member("manager", manage_guild=True)
    bot = await start_bot(time_scale=100)
    for zone in ("America", "a" * 300, "Europe/../../etc/passwd", "UTC\x00"):
        refused = await (await manager.slash("gamenight settings", time_zone=zone)).reply()
        assert refused.ephemeral
        assert "is not a time zone I know" in refused.content, refused.content
    assert (await bot.storage.server_settings(guild.id)).time_zone == "UTC"
    for when, words in (
        ("99999999999999999999", "more than a year away"),
        ("<t:99999999999999999999:F>", "more than a year away"),
        ("<t:-99999999999>", "already passed"),
        ("in 99999999999999999 days", "more than a year away"),
        ("9999-12-31 23:59-14:00", "more than a year away"),
    ):
        refused = await (await manager.slash("loteria schedule", when=when)).reply()
        assert refused.ephemeral
        assert words in refused.content, (when, refused.content)
    assert await bot.storage.pending_schedules("loteria") == []
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


# -- every option of every command, hostile ----------------------------------------------------

# What a member can type into a text option: nothing, control characters and NUL, marks that
# turn text around, emoji, SQL, format strings, mass mentions, numbers too big for anything,
# time zones that are folders or too long, times past the end of the calendar, and 4,000
# characters of it all.
HOSTILE_TEXTS = (
    "",
    " ",
    "\x00",
    "nul\x00inside",
    "\x01\x02\x07\x08\x1b[2J\x7f\x9b",
    "\t\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029",
    "\u202egnirts\u2067\u200f\u200e\u061c\u2066",
    "\u200b\u200c\u200d\ufeff\u2060",
    "💥🎲👨‍👩‍👧‍👦🏳️‍🌈🇲🇽",
    "'; DROP TABLE games; --",
    "\" OR 1=1 -- %' _",
    "{title} {0} {} %s %d %(x)s {{}}",
    "@everyone @here <@&1> <@1> <#1> <t:1>",
    "99999999999999999999",
    "-99999999999999999999",
    "1e309",
    "NaN",
    "-0",
    "²³",
    "١٢٣٤٥٦٧٨٩٠",
    "America",
    "a" * 300,
    "../../../../etc/passwd",
    "UTC\x00",
    "<t:99999999999999999999>",
    "<t:-99999999999>",
    "in 99999999999999999 days",
    "+99999999999999999999m",
    "9999-12-31T23:59:59",
    "9999-12-31 23:59-14:00",
    "0001-01-01 00:00+14:00",
    "friday 99:99",
    "x" * 4000,
    ("💥 **bold** @everyone <@1> \u202e \x00\n" * 300)[:4000],
)
HOSTILE_PIECES = ("\x00", "\u202e", "💥", "'", "%", "{", "@everyone", "9" * 30, "-", ":", "/", " ")
# Discord's INTEGER options carry "any integer between -2^53+1 and 2^53-1".
DISCORD_INTEGER_LIMIT = 2**53 - 1
HOSTILE_NUMBERS = (0, 1, -1, 2**31, -(2**31), 2**53 - 1, -(2**53 - 1), 10**15)
APOLOGIES = tuple(message("apology", locale) for locale in ("en-US", "es-ES"))


def fitted(text: str, low: int | None, high: int | None) -> str:
    """``text`` cut or padded to the length Discord lets the option have."""
    text = text[: high if high is not None else 6000]
    return text + "1" * max(0, (low or 0) - len(text))


def values_for(parameter: app_commands.Parameter, people: dict[str, Any]) -> st.SearchStrategy:
    """Hostile values of ``parameter`` that Discord would still deliver: inside its declared
    choices, range and length."""
    if parameter.choices:
        return st.sampled_from([choice.value for choice in parameter.choices])
    kind = parameter.type
    if kind is AppCommandOptionType.string:
        low, high = parameter.min_value, parameter.max_value
        texts = st.one_of(  # the list above most often, then pieces of it, then anything
            st.sampled_from(HOSTILE_TEXTS),
            st.sampled_from(HOSTILE_TEXTS),
            st.lists(st.sampled_from(HOSTILE_PIECES), max_size=12).map("".join),
            st.text(st.characters(exclude_categories=("Cs",)), max_size=40),
        )
        return texts.map(lambda text: fitted(text, low, high))
    if kind in (AppCommandOptionType.integer, AppCommandOptionType.number):
        low = -DISCORD_INTEGER_LIMIT if parameter.min_value is None else int(parameter.min_value)
        high = DISCORD_INTEGER_LIMIT if parameter.max_value is None else int(parameter.max_value)
        edges = [n for n in (*HOSTILE_NUMBERS, low, high) if low <= n <= high]
        return st.one_of(st.sampled_from(edges), st.integers(low, high))
    if kind is AppCommandOptionType.boolean:
        return st.booleans()
    if kind in (AppCommandOptionType.user, AppCommandOptionType.mentionable):
        return st.sampled_from(people["members"])
    if kind is AppCommandOptionType.channel:
        # Discord offers only the channel types the option declares (a voice channel for voice).
        allowed = {int(t.value) for t in parameter.channel_types}
        offered = [c for c in people["channels"] if not allowed or int(c.kind) in allowed]
        return st.sampled_from(offered)
    if kind is AppCommandOptionType.role:
        return st.sampled_from(people["roles"])
    raise AssertionError(f"no values for {parameter.name} ({kind})")


@dataclasses.dataclass
class HostileServer:
    emulator: Any
    bot: Any
    actors: list[Any]
    people: dict[str, Any]
    caplog: pytest.LogCaptureFixture

    def commands(self) -> list[app_commands.Command[Any, ..., Any]]:
        """Every slash command of the loaded bot, read from its tree (a new one is in)."""
        found = [c for c in self.bot.tree.walk_commands() if isinstance(c, app_commands.Command)]
        return sorted(found, key=lambda command: command.qualified_name)


@pytest.fixture
async def hostile_server(emulator, start_bot, caplog) -> HostileServer:
    guild = emulator.add_guild("Game Night")
    general = guild.add_channel("general")
    other = guild.add_channel("other")
    manager = guild.add_member("manager", manage_guild=True)
    member = guild.add_member("member")
    hosts = guild.add_role("hosts")
    stage = guild.add_voice_channel("stage")
    closed = guild.add_voice_channel("closed", bot_denied=Permission.CONNECT)
    bot = await start_bot(time_scale=100)
    people = {
        "members": [manager, member],
        "channels": [general, other, stage, closed],
        "roles": [hosts, guild.everyone_role, guild.bot_role],
    }
    return HostileServer(emulator, bot, [manager, member], people, caplog)


async def seen_by_member(result) -> list[str]:
    """Everything the member was shown in answer (nothing for a modal or choices)."""
    await result.acknowledgement(10)
    if result.modal is not None or result.choices is not None:
        return [str(choice.get("name", "")) for choice in result.choices or []]
    shown = await result.reply(10)
    return [shown.content, *(followup.content for followup in result.followups)]


# An example is some forty interactions: shrinking one would take minutes, and the failure
# already names the command and its options. On both databases: text reaches them both.
@pytest.mark.backends("sqlite", "postgres")
@settings(
    max_examples=10,
    deadline=None,
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
async def test_no_option_of_any_command_reaches_something_went_wrong(
    hostile_server: HostileServer, data: st.DataObject
):
    """Each example walks every slash command once, as the manager or a member, each option
    left out or given a hostile value Discord would deliver (autocomplete asked too): nobody is
    shown the apology, and nothing is logged as an error."""
    server = hostile_server
    logged_before = len(server.caplog.records)
    commands = server.commands()
    assert len(commands) >= 30  # the tree was read
    for command in commands:
        name = command.qualified_name
        manager, member = server.actors
        # Mostly the manager, who may do everything, so that values get past the permissions
        # (and always for a command Discord shows to managers only).
        restricted = (command.root_parent or command).default_permissions is not None
        who = [manager] if restricted else [manager, manager, manager, member]
        actor = data.draw(st.sampled_from(who), label="who")
        chosen: dict[str, Any] = {}
        for parameter in command.parameters:
            if parameter.required or data.draw(st.integers(0, 3), label="given") > 0:
                chosen[parameter.name] = data.draw(
                    values_for(parameter, server.people), label=f"/{name} {parameter.name}"
                )
        seen = await seen_by_member(await actor.slash(name, options=chosen))
        for parameter in command.parameters:
            typed = chosen.get(parameter.name)
            if parameter.autocomplete and isinstance(typed, str):
                others = {k: v for k, v in chosen.items() if k != parameter.name}
                offered = await actor.autocomplete(name, parameter.name, typed, **others)
                seen += [str(choice["name"]) for choice in offered]
        for text in seen:
            assert not any(apology in text for apology in APOLOGIES), (name, chosen)
        errors = [
            record.getMessage()
            for record in server.caplog.records[logged_before:]
            if record.levelno >= logging.ERROR
        ]
        assert errors == [], (name, chosen, errors)
