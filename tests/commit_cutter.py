"""A TCP proxy in front of the test server that can lose a ``COMMIT``'s answer: the server has
committed, and the client only sees its connection drop. A real fault on a real connection, for
the one moment a retry could apply a write twice."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path


class CommitCutter:
    """Forwards ``127.0.0.1:port`` to the server's Unix socket.

    While ``armed`` is above zero, the next answer ``COMMIT`` from the server is not passed on:
    both sides are closed instead (``armed`` goes down by one, ``cut`` up by one). While
    ``swallow`` is above zero, the next ``COMMIT`` the client sends never reaches the server:
    the client's side is closed and the server's is left open, idle in its transaction, as in a
    network cut the server has not noticed (``swallow`` down by one, ``swallowed`` up by one)."""

    def __init__(self, socket_path: Path) -> None:
        self.socket_path = socket_path
        self.armed = 0
        self.cut = 0
        self.swallow = 0
        self.swallowed = 0
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[bool]] = set()
        self._left_open: list[asyncio.StreamWriter] = []

    async def __aenter__(self) -> CommitCutter:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        assert self._server is not None
        self._server.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for writer in self._left_open:
            writer.close()
        await self._server.wait_closed()

    @property
    def port(self) -> int:
        assert self._server is not None
        return int(self._server.sockets[0].getsockname()[1])

    def url(self, database: str) -> str:
        # No SSL request: the stream is the plain protocol from its first byte.
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}?sslmode=disable"

    async def _serve(
        self, client_in: asyncio.StreamReader, client_out: asyncio.StreamWriter
    ) -> None:
        server_in, server_out = await asyncio.open_unix_connection(str(self.socket_path))
        upstream = asyncio.create_task(self._requests(client_in, server_out))
        downstream = asyncio.create_task(self._answers(server_in, client_out))
        self._tasks |= {upstream, downstream}
        writers = [client_out, server_out]
        try:
            await asyncio.wait({upstream, downstream}, return_when=asyncio.FIRST_COMPLETED)
            if upstream.done() and not upstream.cancelled() and upstream.result():
                writers.remove(server_out)
                self._left_open.append(server_out)
        finally:
            for task in (upstream, downstream):
                task.cancel()
                self._tasks.discard(task)
            for writer in writers:
                writer.close()
                with contextlib.suppress(OSError):
                    await writer.wait_closed()

    async def _requests(self, reader: asyncio.StreamReader, server: asyncio.StreamWriter) -> bool:
        """Client messages: the start-up message (a length, no type byte), then typed ones.
        True when a COMMIT was swallowed (the server's side is to be left open)."""
        try:
            head = await reader.readexactly(4)
            server.write(head + await reader.readexactly(int.from_bytes(head, "big") - 4))
            while True:
                head = await reader.readexactly(5)
                body = await reader.readexactly(int.from_bytes(head[1:5], "big") - 4)
                if self.swallow and head[:1] == b"Q" and body.upper().startswith(b"COMMIT"):
                    self.swallow -= 1
                    self.swallowed += 1
                    return True
                server.write(head + body)
                await server.drain()
        except asyncio.IncompleteReadError:
            return False

    async def _answers(
        self,
        reader: asyncio.StreamReader,
        client: asyncio.StreamWriter,
    ) -> bool:
        """Server messages, one by one: a type byte, a 4-byte length, the body."""
        while True:
            try:
                head = await reader.readexactly(5)
            except asyncio.IncompleteReadError:
                return False
            body = await reader.readexactly(int.from_bytes(head[1:5], "big") - 4)
            if self.armed and head[:1] == b"C" and body == b"COMMIT\x00":
                self.armed -= 1
                self.cut += 1
                return False  # the server committed; the client never hears of it
            client.write(head + body)
            await client.drain()
