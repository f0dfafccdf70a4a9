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


async def test_a_servers_burst_is_handled_a_few_at_a_time_and_another_server_at_once():
    arrivals = acks.ServerArrivals(per_server=2)
    handled: list[str] = []
    for number in range(5):
        arrivals.arrived(1, 100 + number, lambda n=number: handled.append(f"flood{n}"))
    assert handled == ["flood0", "flood1"]
    assert (arrivals.answering(1), arrivals.waiting(1)) == (2, 3)

    # Behind the whole burst, another server's interaction and a DM are handled at once.
    arrivals.arrived(2, 200, lambda: handled.append("elsewhere"))
    arrivals.arrived(None, 300, lambda: handled.append("dm"))
    assert handled[-2:] == ["elsewhere", "dm"]

    # Each acknowledgement lets the next of the burst go, in arrival order.
    arrivals.answered(101)
    assert handled[-1] == "flood2"
    arrivals.answered(101)  # twice: nothing more
    arrivals.answered(999)  # unknown: nothing
    assert handled[-1] == "flood2"
    for interaction_id in (100, 102, 103, 104):
        arrivals.answered(interaction_id)
    assert handled[-2:] == ["flood3", "flood4"]
    assert (arrivals.answering(1), arrivals.waiting(1)) == (0, 0)


async def test_an_interaction_never_acknowledged_gives_its_place_back_at_the_deadline(
    monkeypatch: pytest.MonkeyPatch,
):
    monkeypatch.setattr(acks, "ACK_DEADLINE", 0.05)
    arrivals = acks.ServerArrivals(per_server=1)
    handled: list[int] = []
    second = asyncio.Event()
    arrivals.arrived(1, 100, lambda: handled.append(100))  # its handler never answers
    arrivals.arrived(1, 101, second.set)
    assert handled == [100]
    assert not second.is_set()
    await asyncio.wait_for(second.wait(), 5)
    assert arrivals.answering(1) == 1
