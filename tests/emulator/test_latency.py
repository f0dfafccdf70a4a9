"""Network latency: every REST request and answer and every gateway event takes a one-way delay
(uniform between two bounds, seeded), Discord's 3 s clock runs from the interaction's creation,
and a session's events keep their order however their delays fall."""

from __future__ import annotations

import discord
import pytest

from emulator import Emulator, run_bot
from emulator.latency import Latency, LatencySource
from tests.emulator.minimal_bot import MinimalBot


def test_latency_settings_and_seeded_draws():
    assert Latency.of(None) is None
    assert Latency.of(0.1) == Latency(0.1, 0.1)
    assert Latency.of((0.05, 0.15), seed=3) == Latency(0.05, 0.15, 3)
    with pytest.raises(ValueError, match="low <= high"):
        Latency(0.2, 0.1)
    first = LatencySource(Latency(0.05, 0.15, seed=3))
    second = LatencySource(Latency(0.05, 0.15, seed=3))
    draws = [first.draw() for _ in range(20)]
    assert draws == [second.draw() for _ in range(20)]  # a test's delays are reproducible
    assert all(0.05 <= d <= 0.15 for d in draws)
    assert len(set(draws)) > 1  # with jitter
    assert LatencySource(None).draw() == 0.0


async def test_an_instant_answer_can_miss_the_deadline_under_latency(tmp_path):
    # The clock starts when Discord creates the interaction: the event takes 0.2 s to reach the
    # bot and its answer 0.2 s to come back, so even an instant answer lands after 0.4 s.
    async with Emulator(latency=0.2, ack_timeout=0.3) as emu:
        guild = emu.add_guild("g")
        guild.add_channel("general")
        alice = guild.add_member("alice")
        bot = MinimalBot(tmp_path / "bot.sqlite3")
        async with run_bot(emu, bot):
            result = await alice.slash("ping")
            await emu.wait_until(lambda: bot.errors, 5, lambda: "the late answer's refusal")
        assert result.failure is not None
        refusal = bot.errors[0]
        assert isinstance(refusal, discord.app_commands.CommandInvokeError)
        assert isinstance(refusal.original, discord.NotFound)
        assert refusal.original.code == 10062  # Unknown interaction
        assert {f.kind for f in emu.take_failures()} == {"interaction_failed", "late_ack"}


async def test_the_same_answer_is_in_time_on_loopback_and_the_ack_waits_for_the_network(tmp_path):
    async with Emulator(latency=0.2) as emu:
        guild = emu.add_guild("g")
        guild.add_channel("general")
        alice = guild.add_member("alice")
        async with run_bot(emu, MinimalBot(tmp_path / "bot.sqlite3")):
            result = await alice.slash("ping")
            assert (await result.reply()).content == "pong"
        assert result.acknowledged_at is not None
        # One way to the bot, one way back: Discord sees the answer no sooner than that.
        assert result.acknowledged_at - result.created_at >= 0.4


async def test_a_sessions_events_keep_their_order_under_jitter(tmp_path):
    # Delays drawn from 0 to 0.3 s would reorder events sent 1 ms apart if each went alone.
    async with Emulator(latency=(0.0, 0.3), latency_seed=7) as emu:
        guild = emu.add_guild("g")
        general = guild.add_channel("general")
        alice = guild.add_member("alice")
        bot = MinimalBot(tmp_path / "bot.sqlite3")
        async with run_bot(emu, bot):
            said = [(await alice.say(general, f"message {n}")).id for n in range(25)]
            await emu.wait_until(
                lambda: len(bot.seen_messages) == len(said), 10, lambda: "every message"
            )
            assert [m.id for m in bot.seen_messages] == said
