"""Many idle or slow TCP connections against a server, for the tests of the connection limits
(``bot.ops.connection_guard``): the endpoint's, the REST proxy's."""

from __future__ import annotations

import asyncio
import contextlib
import resource
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from emulator.driver import Member
from emulator.model import Channel
from tests.cogs.test_tictactoe import cell, game_id_of, marks

# The flood, its server side (in-process servers), the bot, the emulator and their files.
DESCRIPTORS_WANTED = 8192
# systemd's default soft limit on a service's open files.
SYSTEMD_SOFT_LIMIT = 1024


@pytest.fixture
def many_descriptors() -> Iterator[int]:
    """The soft ``RLIMIT_NOFILE`` of this process raised (up to the hard limit) for a flood of
    connections; yields it, then puts the old one back."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = DESCRIPTORS_WANTED if hard == resource.RLIM_INFINITY else min(hard, DESCRIPTORS_WANTED)
    if wanted < 4096:
        pytest.fail(f"these tests need 4,096 open files; the hard limit here is {hard}")
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    try:
        yield wanted
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def as_systemd_would() -> None:
    """For a child process (``preexec_fn``): systemd's default soft limit on open files."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (SYSTEMD_SOFT_LIMIT, hard))


@dataclass
class Connection:
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter


async def open_idle(
    port: int,
    count: int,
    *,
    partial: bytes = b"",
    host: str = "127.0.0.1",
    timeout: float = 10,  # noqa: ASYNC109 - a deadline for each connection is the point
) -> list[Connection]:
    """``count`` connections that send ``partial`` (nothing, or the start of a request) and
    then nothing more; those that could not connect within ``timeout`` are left out."""

    async def one() -> Connection | None:
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
        except (OSError, TimeoutError):
            return None
        if partial:
            writer.write(partial)
        return Connection(reader, writer)

    opened: list[Connection] = []
    for start in range(0, count, 200):  # in waves, as a client with a connection pool would
        wave = await asyncio.gather(*(one() for _ in range(min(200, count - start))))
        opened += [connection for connection in wave if connection is not None]
    return opened


async def closed_by_server(connection: Connection) -> None:
    """Returns once the server has closed ``connection`` (end of stream, or a reset)."""
    with contextlib.suppress(ConnectionError):
        while await connection.reader.read(65536):
            pass


async def wait_all_closed(
    connections: list[Connection],
    timeout: float,  # noqa: ASYNC109 - a deadline for the wait is the point
) -> None:
    """Every connection closed by the server within ``timeout`` seconds, or TimeoutError."""
    await asyncio.wait_for(asyncio.gather(*(closed_by_server(c) for c in connections)), timeout)


def close_all(connections: list[Connection]) -> None:
    for connection in connections:
        connection.writer.transport.abort()


async def raw_request(
    port: int,
    path: str,
    timeout: float = 10,  # noqa: ASYNC109 - a deadline for the answer is the point
) -> bytes:
    """``GET path`` on a new connection; the whole answer (the server closes after it)."""
    reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n".encode())
        return await asyncio.wait_for(reader.read(), timeout)
    finally:
        writer.transport.abort()


async def play_tictactoe(member: Member, channel: Channel) -> str:
    """``member`` plays a whole game of tic-tac-toe against the bot; the result's text."""
    board = await (await member.slash("tictactoe play", level="perfect")).reply(30)
    game = game_id_of(board)
    while not board.buttons[0].get("disabled"):
        free = [i for i in range(9) if marks(board, game)[i] == "."]
        await (await member.click(board, cell(game, free[-1]))).reply(30)
    result = await channel.wait_for_message(
        lambda m: m.content.startswith(f"🏁 Tic-tac-toe #{game}:"), timeout=30
    )
    return result.content


async def wait_healthy(
    port: int,
    timeout: float = 30,  # noqa: ASYNC109 - a deadline for the wait is the point
) -> None:
    """Until ``/healthz`` on ``port`` answers 200 (another process, starting up)."""
    async with asyncio.timeout(timeout):
        while True:
            if (await raw_request(port, "/healthz")).startswith(b"HTTP/1.1 200"):
                return
            await asyncio.sleep(0.1)
