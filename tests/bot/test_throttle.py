"""The per-server line of heavy work (``bot.throttle.HeavyWork``), on its own: who runs, who
waits, who goes first when a slot frees, and who is refused. Jobs are held open by the test, so
every assertion is about order and counts, never about time."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Awaitable, Callable

import pytest

from bot.replies import UserError
from bot.throttle import HEAVY_IN_ALL, HEAVY_PER_SERVER, HeavyWork, Lane, heavy_work_executor

FLOODED, QUIET, THIRD = 1, 2, 3


class Jobs:
    """Jobs in a :class:`HeavyWork`, each running until the test lets it finish."""

    def __init__(self, heavy: HeavyWork) -> None:
        self.heavy = heavy
        self.started: list[str] = []
        self.finish: dict[str, asyncio.Event] = {}
        self.tasks: dict[str, asyncio.Task[None]] = {}

    def add(
        self,
        name: str,
        server: int,
        lane: Lane,
        acknowledge: Callable[[], Awaitable[object]] | None = None,
    ) -> asyncio.Task[None]:
        self.finish[name] = asyncio.Event()

        async def job() -> None:
            async with self.heavy.turn(server, lane, acknowledge=acknowledge):
                self.started.append(name)
                await self.finish[name].wait()

        self.tasks[name] = task = asyncio.create_task(job())
        return task

    async def settle(self) -> None:
        """Let every job that can move do so."""
        for _ in range(5):
            await asyncio.sleep(0)

    async def done(self, name: str) -> None:
        self.finish[name].set()
        await self.tasks[name]
        await self.settle()

    async def close(self) -> None:
        for event in self.finish.values():
            event.set()
        await asyncio.gather(*self.tasks.values(), return_exceptions=True)


async def test_a_flooding_server_runs_two_jobs_and_another_server_is_not_behind_them():
    heavy = HeavyWork()
    jobs = Jobs(heavy)
    for number in range(10):
        jobs.add(f"flood{number}", FLOODED, Lane.VIEW)
    await jobs.settle()
    assert jobs.started == ["flood0", "flood1"]
    assert heavy.running(FLOODED) == HEAVY_PER_SERVER == 2
    assert heavy.waiting(FLOODED) == 8

    jobs.add("quiet", QUIET, Lane.VIEW)  # after the whole flood, and still at once
    await jobs.settle()
    assert jobs.started[-1] == "quiet"
    assert heavy.running() == 3

    # The flood goes on, two at a time, in order.
    await jobs.done("flood0")
    assert jobs.started[-1] == "flood2"
    assert heavy.running(FLOODED) == 2
    await jobs.close()
    assert heavy.running() == 0
    assert heavy.waiting(FLOODED) == 0


async def test_calls_never_wait_and_views_go_before_the_rest():
    heavy = HeavyWork()
    jobs = Jobs(heavy)
    jobs.add("view0", FLOODED, Lane.VIEW)
    jobs.add("view1", FLOODED, Lane.VIEW)
    jobs.add("stats", FLOODED, Lane.OTHER)  # waits: the server's two slots are taken
    jobs.add("view2", FLOODED, Lane.VIEW)  # waits, but is served before the earlier /stats
    await jobs.settle()
    assert jobs.started == ["view0", "view1"]

    jobs.add("call", FLOODED, Lane.CALL)  # a call starts at once, beyond the two slots
    await jobs.settle()
    assert jobs.started == ["view0", "view1", "call"]
    assert heavy.running(FLOODED) == 3

    await jobs.done("view0")
    assert jobs.started[-1] == "call"  # three running still: the call holds a slot
    await jobs.done("call")
    assert jobs.started[-1] == "view2"
    await jobs.done("view1")
    assert jobs.started[-1] == "stats"
    await jobs.close()


async def test_a_freed_slot_goes_to_the_server_with_fewer_jobs_running():
    heavy = HeavyWork()
    jobs = Jobs(heavy)
    for number in range(4):
        jobs.add(f"a{number}", FLOODED, Lane.VIEW)
        jobs.add(f"c{number}", THIRD, Lane.VIEW)
    await jobs.settle()
    assert heavy.running() == HEAVY_IN_ALL == 4  # two each: every slot of the bot is busy

    jobs.add("quiet", QUIET, Lane.VIEW)  # waits for a slot, but takes the first one freed
    await jobs.settle()
    assert "quiet" not in jobs.started
    await jobs.done("a0")
    assert jobs.started[-1] == "quiet"
    assert heavy.waiting(FLOODED) == 2
    await jobs.close()


async def test_a_full_line_is_refused_before_any_work_and_a_place_given_up_is_freed():
    heavy = HeavyWork(waiting_limits={Lane.VIEW: 3, Lane.OTHER: 1})
    jobs = Jobs(heavy)
    for number in range(5):
        jobs.add(f"view{number}", FLOODED, Lane.VIEW)
    jobs.add("stats", FLOODED, Lane.OTHER)
    await jobs.settle()
    assert heavy.waiting(FLOODED, Lane.VIEW) == 3
    assert heavy.waiting(FLOODED, Lane.OTHER) == 1

    acknowledged: list[str] = []

    async def acknowledge() -> None:
        acknowledged.append("refused view")

    refused = jobs.add("refused", FLOODED, Lane.VIEW, acknowledge)
    more_stats = jobs.add("more stats", FLOODED, Lane.OTHER)
    await jobs.settle()
    for task in (refused, more_stats):
        with pytest.raises(UserError) as raised:
            await task
        assert raised.value.key == "server_busy"
    assert acknowledged == []  # refused before its acknowledgement: answered, not deferred
    assert heavy.refused == {Lane.VIEW: 1, Lane.OTHER: 1}
    assert "refused" not in jobs.started

    # Another server's line is its own.
    jobs.add("quiet", QUIET, Lane.VIEW)
    await jobs.settle()
    assert jobs.started[-1] == "quiet"

    # A member whose wait is cancelled (the bot stopping) gives their place up.
    jobs.tasks["view4"].cancel()
    await jobs.settle()
    assert heavy.waiting(FLOODED, Lane.VIEW) == 2
    jobs.add("view5", FLOODED, Lane.VIEW)
    await jobs.settle()
    assert heavy.waiting(FLOODED, Lane.VIEW) == 3
    assert heavy.refused[Lane.VIEW] == 1
    await jobs.close()
    assert heavy.running() == 0
    assert heavy.waiting(FLOODED) == 0


async def test_a_failed_acknowledgement_gives_the_place_back():
    heavy = HeavyWork(per_server=1)
    jobs = Jobs(heavy)
    jobs.add("first", FLOODED, Lane.VIEW)

    async def fails() -> None:
        raise ConnectionError("Discord went away")

    failing = jobs.add("second", FLOODED, Lane.VIEW, fails)
    await jobs.settle()
    with pytest.raises(ConnectionError):
        await failing
    assert heavy.waiting(FLOODED) == 0
    await jobs.done("first")
    assert heavy.running() == 0


async def test_run_does_the_work_in_a_thread_in_its_turn():
    heavy = HeavyWork()
    assert await heavy.run(QUIET, Lane.OTHER, sum, [1, 2, 3]) == 6
    assert heavy.running() == 0


def test_a_servers_line_holds_a_view_for_every_player_of_the_largest_game():
    # Every player of a full game asking for their board at once is a fair crowd: it waits its
    # turn, and none of it is refused as a flood.
    from bot.calling import MAX_PLAYERS_LIMIT
    from bot.throttle import VIEWS_WAITING_PER_SERVER

    assert VIEWS_WAITING_PER_SERVER >= MAX_PLAYERS_LIMIT


def test_heavy_work_runs_below_the_event_loops_priority():
    own = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    executor = heavy_work_executor(niceness=3)
    try:
        worker = executor.submit(
            lambda: os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        ).result()
    finally:
        executor.shutdown()
    assert worker == min(own + 3, 19)  # (19: the lowest a thread may go)
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == own  # this one unmoved
