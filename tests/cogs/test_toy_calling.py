"""The proof that a calling game is its own files: a toy game that exists only under tests/
(tests/cogs/toy_calling: a few lines of engine, a tiny renderer, a cog and its words) is loaded
by the real bot against the emulator and plays end to end through ``bot.calling``: its commands
sync, its Join button routes, cards are dealt and called, claims are judged (a win and a false
claim), the game ends with its summary and verifies, ``/stats`` ranks it, ``/help`` lists it,
and its messages pass the message-key checks."""

from __future__ import annotations

import ast
from pathlib import Path

from bot.app import EXTENSIONS
from bot.i18n import MESSAGES, message
from emulator import Emulator
from engine.fairness import draw_order
from tests.bot.test_i18n import fields
from tests.cogs.helpers import button_id, grace_over, run_calls
from tests.cogs.test_stats import section
from tests.cogs.toy_calling import WORDS
from tests.cogs.toy_calling.engine import NUMBERS, card_at

TOY = Path(__file__).parent / "toy_calling"


def hits(seed: bytes, position: int, calls: int) -> int:
    return len(set(card_at(seed, position).numbers) & set(draw_order(seed, NUMBERS)[:calls]))


def seed_with_one_winner() -> tuple[bytes, int]:
    """A seed whose first card completes "two" before the second, and the call that does it."""
    for counter in range(1000):
        seed = counter.to_bytes(32, "big")
        calls = next(
            n for n in range(1, NUMBERS + 1) if max(hits(seed, 0, n), hits(seed, 1, n)) >= 2
        )
        if hits(seed, 0, calls) >= 2 and hits(seed, 1, calls) < 2:
            return seed, calls
    raise AssertionError("no such seed")


async def test_a_toy_calling_game_plays_end_to_end(emulator: Emulator, start_bot, monkeypatch):
    grace_over(monkeypatch)
    seed, calls = seed_with_one_winner()
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    host, ann = guild.add_member("host"), guild.add_member("ann")
    bot = await start_bot(
        extensions=(*EXTENSIONS, "tests.cogs.toy_calling"), time_scale=100, seed_source=lambda: seed
    )
    assert "toycall" in {game.kind for game in bot.games()}
    synced = emulator.command("toycall", guild)
    assert {"start", "card", "claim", "pause", "verify", "schedule"} <= {
        option["name"] for option in synced["options"]
    }
    cog = bot.get_cog("Toy calling")

    lobby = await (await host.slash("toycall start")).reply()
    assert "Two numbers → All three" in lobby.content
    for member in (host, ann):  # the Join button routes to the toy's cog
        joined = await (await member.click(lobby, button_id(lobby, "join"))).reply()
        assert joined.ephemeral
        assert "Check your DMs" in joined.content
        (dm,) = member.dms
        assert dm.attachments[0].data.startswith(b"\x89PNG")  # drawn by Pillow
    (game,) = await bot.storage.live_games("toycall")
    dealt = [(await bot.storage.boards(game.id, m.id))[0].state for m in (host, ann)]
    assert dealt == [card_at(seed, 0).to_state(), card_at(seed, 1).to_state()]

    await (await host.click(lobby, button_id(lobby, "start"))).reply()
    await run_calls(cog, game.id, calls)
    assert len([m for m in channel.messages if m.content.startswith("Toy call ")]) == calls

    won = await (await host.slash("toycall claim")).reply()
    assert not won.ephemeral
    assert host.mention in won.content
    assert "Two numbers" in won.content
    assert won.attachments[0].data.startswith(b"\x89PNG")  # the winning card, drawn once judged
    false = await (await ann.slash("toycall claim")).reply()
    assert not false.ephemeral
    assert "not enough of its numbers were called" in false.content
    (winner,) = await bot.storage.winners(game.id)
    assert (winner.user_id, winner.prize, winner.step) == (host.id, "two", calls)

    await (await host.slash("toycall stop")).reply()
    summary = await channel.wait_for_message(lambda m: seed.hex() in m.content)
    assert "is over" in summary.content
    verified = await (await ann.slash("toycall verify", game=game.id)).reply()
    assert message("verify_failed", "en-US") not in verified.content
    assert f"#{game.id}" in verified.content

    stats = await (await ann.slash("stats")).reply()
    assert section(stats.content, "Toy calling")[0] == f"1. <@{host.id}>: 1 win in 1 game"
    overview = await (await ann.slash("help")).reply()
    assert "Toy calling" in {field["name"] for field in overview.embeds[0]["fields"]}


def test_the_toy_words_pass_the_message_checks():
    """Every key its files use exists, in English and Spanish with the same placeholders."""
    used = set()
    for path in TOY.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in {"say", "refusal"}
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                used.add(node.args[0].value)
    assert used
    assert used <= set(MESSAGES)
    for key, (english, spanish) in WORDS.items():
        assert MESSAGES[key] == (english, spanish)
        assert fields(english) == fields(spanish), key
        for locale in ("en-US", "es-ES"):
            assert message(key, locale, hits=1, prizes="x", interval=5, seq=1, value=2, count=2)
