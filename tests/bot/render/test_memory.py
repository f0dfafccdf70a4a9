"""The bot hands the memory its allocator keeps free back to the system as it runs."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

# In a process of its own: the allocator's settings and heaps are the whole process's.
_HOLES_RETURNED = textwrap.dedent(
    """
    import asyncio, contextlib, os
    from bot import render

    def rss() -> int:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

    render.limit_retained_memory()
    # 160 MiB of pictures' worth in 100 KiB pieces; one in eight stays, so the freed ones are
    # holes between pieces in use (no heap's top to give back), as pictures leave them.
    pieces = [bytes(100 * 1024) for _ in range(1600)]
    kept = pieces[::8]
    del pieces
    before = rss()

    async def one_round() -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(render.keep_returning_free_memory(every=0.05), 1.0)

    asyncio.run(one_round())
    print(before, rss(), len(kept))
    """
)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim")
def test_free_memory_between_pictures_goes_back_to_the_system():
    out = subprocess.run(
        [sys.executable, "-c", _HOLES_RETURNED], capture_output=True, text=True, check=True
    ).stdout
    before, after, kept = (int(word) for word in out.split())
    assert kept == 200
    # 140 MiB were freed between kept pieces: most of it is handed back (pages that a kept
    # piece touches stay).
    assert before - after > 80 * 2**20, (before, after)
