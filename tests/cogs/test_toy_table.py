"""The proof that a table game is its own files: Race to ten (``tests/cogs/toy_table/``: a few
lines of engine, a picture drawn with Pillow, its words, its cog) exists only under tests/, and
the real bot, loading it as one more extension against the emulator, plays it end to end: its
commands sync, a challenge is accepted and played out on its buttons (routed through the one
button class by the prefix it registered), the end is announced with its picture, ``/stats``
ranks the winner and ``/help`` explains it, in words that pass the message-key checks."""

from __future__ import annotations

import ast
import io
import re
import string
from pathlib import Path

from PIL import Image

from bot.app import EXTENSIONS
from bot.i18n import MESSAGES, Plural
from emulator import Emulator
from tests.cogs.test_stats import section
from tests.cogs.toy_table.words import WORDS

TOY = Path(__file__).parent / "toy_table"
KEYED_CALLS = {"UserError", "message", "say", "refusal"}


def game_id_of(message) -> int:
    match = re.search(r"#(\d+)", message.content)
    assert match, message.content
    return int(match[1])


async def test_a_table_game_that_lives_under_tests_plays_end_to_end(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    alice, bob = guild.add_member("alice"), guild.add_member("bob")
    bot = await start_bot(extensions=(*EXTENSIONS, "tests.cogs.toy_table"))
    assert "race" in {game.kind for game in bot.games()}
    race = emulator.command("race", guild)  # synced, with its Spanish
    assert [option["name"] for option in race["options"]] == ["play", "resign"]
    assert race["name_localizations"]["es-ES"] == "carrera"

    challenge = await (await alice.slash("race play", opponent=bob)).reply()
    game = game_id_of(challenge)
    assert challenge.custom_ids == [f"gn:race:accept:{game}", f"gn:race:decline:{game}"]
    await (await bob.click(challenge, f"gn:race:accept:{game}")).reply()
    board = challenge
    # Alice lands on 1, 4, 7 and 10: the win is hers on the seventh move.
    for player, step in ((alice, 1), (bob, 1), (alice, 2), (bob, 1), (alice, 2), (bob, 1)):
        await (await player.click(board, f"gn:race:cell:{game}:{step}")).reply()
    assert "Total **8**" in board.content
    await (await alice.click(board, f"gn:race:cell:{game}:2")).reply()

    result = await channel.wait_for_message(lambda m: m.content.startswith("🏁 Race to ten"))
    assert f"{alice.mention} wins" in result.content
    assert result.custom_ids == [f"gn:race:rematch:{game}"]
    (picture,) = result.attachments
    assert Image.open(io.BytesIO(picture.data)).size == (240, 24)
    assert picture.description == f"Race to ten #{game}: 10 of 10 after 7 moves"
    assert [(w.user_id, w.step) for w in await bot.storage.winners(game)] == [(alice.id, 7)]

    stats = await (await bob.slash("stats")).reply()
    assert section(stats.content, "Race to ten")[0].startswith(f"1. {alice.mention}")

    overview = await (await bob.slash("help")).reply()
    fields = {f["name"]: f["value"] for f in overview.embeds[0]["fields"]}
    assert fields["Race to ten"].startswith("Add 1 or 2 in turn; whoever reaches ten wins.")
    rules = await (await bob.slash("help", game="race")).reply()
    assert rules.embeds[0]["title"] == "Race to ten: how to play"
    assert "Land on 1, 4 or 7" in " ".join(e.get("description") or "" for e in rules.embeds)


def keys_used_by_the_toy() -> set[str]:
    used = set()
    for path in TOY.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and node.args:
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                first = node.args[0]
                if name in KEYED_CALLS and isinstance(first, ast.Constant):
                    used.add(first.value)
    return used


def placeholders(text: str | Plural) -> set[str]:
    forms = [text.one, text.other] if isinstance(text, Plural) else [text]
    return {
        {"titulo": "title"}.get(name, name)
        for form in forms
        for _, name, _, _ in string.Formatter().parse(form)
        if name is not None
    }


def test_the_toys_words_pass_the_message_key_checks():
    import tests.cogs.toy_table  # noqa: F401 - registers its words, as loading the cog does

    used = keys_used_by_the_toy()
    assert {"race_said", "race_to_move", "race_result", "race_not_a_step"} <= used
    assert sorted(used - set(MESSAGES)) == []
    assert set(WORDS) <= set(MESSAGES)
    for key in WORDS:
        english, spanish = MESSAGES[key]
        assert placeholders(english) == placeholders(spanish), key
