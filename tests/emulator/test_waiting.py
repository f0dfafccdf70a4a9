"""Waiting on the emulator: a wait ends when it is cancelled, whenever the cancel comes."""

from __future__ import annotations

import asyncio

import pytest

from emulator import Emulator


@pytest.mark.parametrize("turns_between", range(4))
async def test_a_wait_cancelled_as_a_change_wakes_it_ends(emulator: Emulator, turns_between: int):
    # Python 3.11's asyncio.wait_for returns the inner result when a cancel comes just as the
    # inner wait finishes, swallowing the cancel: the sandbox's transcript then never stopped.
    waiting = asyncio.create_task(emulator.wait_until(lambda: None, 3600, lambda: "nothing"))
    for _ in range(3):
        await asyncio.sleep(0)  # it is waiting for a change
    emulator.notify()
    for _ in range(turns_between):
        await asyncio.sleep(0)
    waiting.cancel()
    done, _ = await asyncio.wait([waiting], timeout=1)
    assert done, "the wait went on after it was cancelled"
    assert waiting.cancelled()
