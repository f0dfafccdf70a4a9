"""The limits on an aiohttp server's connections (``bot.ops.connection_guard``), on a real server
over loopback: timeouts for idle connections and slow headers, the cap, the log."""

from __future__ import annotations

import asyncio
import resource
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

import pytest
from aiohttp import web

from bot.fleet import rest_proxy
from bot.ops import http_server
from bot.ops.connection_guard import REFUSAL, ConnectionGuard, ConnectionLimits, track_requests
from tests.bot.flood import (
    close_all,
    closed_by_server,
    open_idle,
    raw_request,
    wait_all_closed,
)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


async def hello(request: web.Request) -> web.Response:
    return web.Response(text="hello")


@asynccontextmanager
async def guarded(
    limits: ConnectionLimits, handler: Handler = hello
) -> AsyncIterator[tuple[ConnectionGuard, int]]:
    app = web.Application(middlewares=[track_requests])
    app.router.add_get("/", handler)
    runner = web.AppRunner(app, access_log=None, handle_signals=False)
    await runner.setup()
    guard = ConnectionGuard("test server", limits)
    port = await guard.serve(runner, "127.0.0.1", 0)
    try:
        yield guard, port
    finally:
        await guard.close()
        await runner.cleanup()


def guard_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "bot.ops.connection_guard"]


async def test_idle_connections_and_slow_headers_are_closed(caplog: pytest.LogCaptureFixture):
    """Silent connections, connections trickling a request's headers, and a connection kept
    alive after its answer are all closed by the server; a prompt request is answered."""
    limits = ConnectionLimits(max_connections=100, header_timeout=0.4, idle_timeout=0.8)
    async with guarded(limits) as (guard, port):
        silent = await open_idle(port, 10)
        slow = await open_idle(port, 5, partial=b"GET / HTTP/1.1\r\nHost: test\r\n")
        kept = (await open_idle(port, 1, partial=b"GET / HTTP/1.1\r\nHost: test\r\n\r\n"))[0]
        assert (await kept.reader.readuntil(b"hello")).startswith(b"HTTP/1.1 200")

        async def trickle() -> None:  # a header byte now and then, never the end
            while not slow[0].reader.at_eof():
                slow[0].writer.write(b"X")
                await asyncio.sleep(0.05)

        trickling = asyncio.create_task(trickle())
        await wait_all_closed([*silent, *slow, kept], timeout=30)
        trickling.cancel()
        assert b"200" in await raw_request(port, "/")
        close_all([*silent, *slow, kept])

    assert guard.stats.closed["idle_timeout"] == 11  # the silent ones and the kept one
    assert guard.stats.closed["header_timeout"] == 5
    assert guard.stats.closed["evicted"] == guard.stats.closed["refused"] == 0
    assert guard.open == 0
    # Slow headers are worth a line (one at most per sweep: at once, then at the stop);
    # idle connections closing are normal, and never logged.
    lines = guard_lines(caplog)
    assert 1 <= len(lines) <= 2
    assert "closed for not sending a request's headers within 0.4 s" in lines[0]


async def test_at_the_cap_the_longest_idle_connection_makes_room(caplog: pytest.LogCaptureFixture):
    limits = ConnectionLimits(max_connections=8, header_timeout=60, idle_timeout=60)
    async with guarded(limits) as (guard, port):
        first = await open_idle(port, 12)
        last = [(await open_idle(port, 1))[0] for _ in range(8)]  # accepted in this order
        # The server accepted every one but keeps only the 8 newest.
        await wait_all_closed(first, timeout=30)
        assert guard.open == 8
        assert guard.stats.peak == 8
        answer = await raw_request(port, "/")
        assert answer.startswith(b"HTTP/1.1 200")
        # Room was made for that request by closing the oldest of the last 8.
        await wait_all_closed(last[:1], timeout=30)
        assert not any(c.reader.at_eof() for c in last[1:])
        close_all([*first, *last])

    assert guard.stats.closed["evicted"] == 13
    lines = guard_lines(caplog)
    assert len(lines) <= 2  # the first eviction at once; the rest summed up at the stop
    assert "closed to make room" in lines[0]


async def test_a_flood_of_new_connections_leaves_a_clients_pooled_one_alone():
    """Connections that never sent a request make room first: a client's keep-alive
    connection, idle between its requests, outlives a flood of them."""
    limits = ConnectionLimits(max_connections=8, header_timeout=60, idle_timeout=60)
    request = b"GET / HTTP/1.1\r\nHost: test\r\n\r\n"
    async with guarded(limits) as (guard, port):
        (pooled,) = await open_idle(port, 1, partial=request)
        await pooled.reader.readuntil(b"hello")
        flood = await open_idle(port, 50)
        await wait_until(lambda: guard.stats.closed["evicted"] == 43)
        pooled.writer.write(request)
        assert (await pooled.reader.readuntil(b"hello")).startswith(b"HTTP/1.1 200")
        close_all([pooled, *flood])


async def test_when_every_connection_is_busy_a_new_one_is_refused(
    caplog: pytest.LogCaptureFixture,
):
    release = asyncio.Event()

    async def slow(request: web.Request) -> web.Response:
        await release.wait()
        return web.Response(text="hello")

    limits = ConnectionLimits(max_connections=4, header_timeout=60, idle_timeout=60)
    async with guarded(limits, slow) as (guard, port):
        busy = await open_idle(port, 4, partial=b"GET / HTTP/1.1\r\nHost: test\r\n\r\n")
        await wait_until(lambda: guard.requests_under_way == 4)
        refusals = [await refused_request(port) for _ in range(30)]
        # A 503, or a reset when the request reached the closed socket before it was read.
        assert all(r in {REFUSAL, b"reset"} for r in refusals)
        assert REFUSAL in refusals
        release.set()
        answers = [await c.reader.readuntil(b"hello") for c in busy]
        assert all(a.startswith(b"HTTP/1.1 200") for a in answers)
        assert (await raw_request(port, "/")).startswith(b"HTTP/1.1 200")  # room again
        close_all(busy)

    assert guard.stats.closed["refused"] == 30
    lines = guard_lines(caplog)
    assert 1 <= len(lines) <= 2  # the first refusal at once, the rest summed up at the stop
    assert "4 connections open (at most 4)" in lines[0]
    assert "1 refused with 503 (every connection busy)" in lines[0]


async def refused_request(port: int) -> bytes:
    try:
        return await raw_request(port, "/")
    except ConnectionResetError:
        return b"reset"


async def test_a_connection_answering_is_not_closed_for_idleness():
    """A request under way longer than the idle timeout keeps its connection."""
    release = asyncio.Event()

    async def slow(request: web.Request) -> web.Response:
        await release.wait()
        return web.Response(text="hello")

    limits = ConnectionLimits(max_connections=4, header_timeout=0.2, idle_timeout=0.2)
    async with guarded(limits, slow) as (guard, port):
        (waiting,) = await open_idle(port, 1, partial=b"GET / HTTP/1.1\r\nHost: test\r\n\r\n")
        (idle,) = await open_idle(port, 1)
        await closed_by_server(idle)  # the idle one went; the one waiting stays
        assert not waiting.reader.at_eof()
        assert guard.open == 1
        release.set()
        assert (await waiting.reader.readuntil(b"hello")).startswith(b"HTTP/1.1 200")
        await closed_by_server(waiting)  # then idle itself
        close_all([waiting, idle])


def test_the_caps_are_a_share_of_the_descriptor_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (1024, hard))  # systemd's default
        assert http_server.default_limits().max_connections == 256
        assert rest_proxy.default_limits().max_connections == 341
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))
        if min(hard, 65536) >= 4 * 1024:
            assert http_server.default_limits().max_connections == 1024  # the ceiling
        resource.setrlimit(resource.RLIMIT_NOFILE, (40, hard))
        assert ConnectionLimits.within_descriptors(0.25, 1024).max_connections == 16
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_limits_are_checked():
    with pytest.raises(ValueError, match="max_connections"):
        ConnectionLimits(max_connections=0)
    with pytest.raises(ValueError, match="timeouts"):
        ConnectionLimits(max_connections=10, idle_timeout=0)


async def wait_until(
    condition: Callable[[], bool],
    timeout: float = 30,  # noqa: ASYNC109 - a deadline for the wait is the point
) -> None:
    """Polls ``condition`` (the server's own state, which signals nothing) until true."""
    async with asyncio.timeout(timeout):
        while not condition():  # noqa: ASYNC110 - nothing to wait on but the state itself
            await asyncio.sleep(0.01)
