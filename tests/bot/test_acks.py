"""The acknowledge-first gate: work waits until the interactions received are acknowledged."""

import asyncio

import pytest

from bot import acks
from bot.acks import PendingAcknowledgements


async def settles(pending: PendingAcknowledgements, most: float = 5.0) -> asyncio.Task[None]:
    task = asyncio.create_task(pending.settled(most))
    await asyncio.sleep(0.02)
    return task


async def test_work_waits_until_every_interaction_received_is_acknowledged():
    pending = PendingAcknowledgements()
    assert pending.waiting() == 0
    await asyncio.wait_for(pending.settled(), 1)  # nothing waiting: at once
    for interaction_id in (1, 2, 3):
        pending.arrived(interaction_id)
    waiter = await settles(pending)
    pending.answered(2)
    pending.answered(1)
    await asyncio.sleep(0.02)
    assert not waiter.done()
    assert pending.waiting() == 1
    pending.answered(3)
    await asyncio.wait_for(waiter, 1)
    assert pending.waiting() == 0


async def test_an_answer_for_an_unknown_or_repeated_interaction_changes_nothing():
    pending = PendingAcknowledgements()
    pending.arrived(7)
    pending.answered(8)
    pending.answered(8)
    assert pending.waiting() == 1
    pending.answered(7)
    pending.answered(7)
    assert pending.waiting() == 0


async def test_an_interaction_never_acknowledged_stops_holding_work_at_discords_deadline(
    monkeypatch: pytest.MonkeyPatch,
):
    monkeypatch.setattr(acks, "ACK_DEADLINE", 0.2)
    pending = PendingAcknowledgements()
    pending.arrived(1)
    waiter = await settles(pending)
    assert not waiter.done()
    await asyncio.wait_for(waiter, 1)  # failed on Discord's side: nobody waits for it
    assert pending.waiting() == 0


async def test_a_steady_stream_never_holds_work_longer_than_the_most():
    pending = PendingAcknowledgements()
    pending.arrived(1)
    loop = asyncio.get_running_loop()
    started = loop.time()
    await asyncio.wait_for(pending.settled(most=0.2), 2)
    assert 0.15 <= loop.time() - started < 1.5
    assert pending.waiting() == 1  # still not acknowledged; the work went ahead anyway


async def test_work_waits_while_a_rush_is_still_arriving(monkeypatch: pytest.MonkeyPatch):
    """Frames of a rush not yet read off the gateway count too: each interaction acknowledged as
    it comes holds the work until none has arrived for a moment."""
    monkeypatch.setattr(acks, "QUIET", 0.15)
    pending = PendingAcknowledgements()
    loop = asyncio.get_running_loop()
    started = loop.time()
    waiter = asyncio.create_task(pending.settled(most=5))
    for interaction_id in range(1, 6):  # one every 0.05 s, each answered at once
        pending.arrived(interaction_id)
        pending.answered(interaction_id)
        await asyncio.sleep(0.05)
        assert not waiter.done()
    last = loop.time()
    await asyncio.wait_for(waiter, 2)
    assert loop.time() - last >= 0.15 - 0.05 - 0.01  # the quiet moment after the last one
    assert loop.time() - started < 1.5


async def test_long_after_the_last_interaction_work_goes_ahead_at_once():
    pending = PendingAcknowledgements()
    pending.arrived(1)
    pending.answered(1)
    await asyncio.sleep(acks.QUIET + 0.02)
    loop = asyncio.get_running_loop()
    started = loop.time()
    await asyncio.wait_for(pending.settled(), 1)
    assert loop.time() - started < acks.QUIET


async def one_turn() -> None:
    """Let the event loop take one turn (the arrivals' turn is a call_soon callback)."""
    await asyncio.sleep(0)


async def test_a_servers_burst_is_handled_a_few_at_a_time_and_another_server_in_the_first_turn():
    arrivals = acks.ServerArrivals(per_turn=2)
    handled: list[str] = []
    for number in range(5):
        arrivals.arrived(1, lambda n=number: handled.append(f"flood{n}"))
    # Behind the whole burst, another server's interaction and a DM.
    arrivals.arrived(2, lambda: handled.append("elsewhere"))
    arrivals.arrived(None, lambda: handled.append("dm"))
    assert handled == []  # handled in turns, none while they are being read
    assert arrivals.waiting(1) == 5

    await one_turn()
    assert handled == ["flood0", "flood1", "elsewhere", "dm"]
    assert (arrivals.waiting(1), arrivals.waiting(2), arrivals.waiting(None)) == (3, 0, 0)
    arrivals.arrived(2, lambda: handled.append("elsewhere again"))
    await one_turn()
    assert handled[4:] == ["flood2", "flood3", "elsewhere again"]
    await one_turn()
    assert handled[7:] == ["flood4"]
    assert arrivals.waiting(1) == 0


async def test_a_handler_that_fails_does_not_stop_the_others(caplog: pytest.LogCaptureFixture):
    arrivals = acks.ServerArrivals(per_turn=3)
    handled: list[int] = []

    def fails() -> None:
        raise ValueError("a payload discord.py cannot read")

    arrivals.arrived(1, lambda: handled.append(1))
    arrivals.arrived(1, fails)
    arrivals.arrived(1, lambda: handled.append(3))
    await one_turn()
    assert handled == [1, 3]
    assert "could not handle an interaction of server 1" in caplog.text
