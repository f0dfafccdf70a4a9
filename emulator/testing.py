"""Helpers to run a discord.py client against an :class:`~emulator.server.Emulator` in tests
(no test-framework imports here: the package must not depend on test-only packages)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import TypeVar

import discord

from emulator.endpoints import endpoints
from emulator.server import Emulator

ClientT = TypeVar("ClientT", bound=discord.Client)


@contextlib.asynccontextmanager
async def run_bot(
    emu: Emulator,
    client: ClientT,
    *,
    wait_ready: bool = True,
    timeout: float = 10.0,  # noqa: ASYNC109 - a deadline for the wait is the point
    token: str | None = None,
) -> AsyncIterator[ClientT]:
    """Point discord.py at ``emu``, start ``client`` with the emulator's token and wait until
    it is connected (and, with ``wait_ready``, until ``on_ready``); close it on exit.

    discord.py waits ``guild_ready_timeout`` seconds (default 2) after the last GUILD_CREATE
    before ``on_ready``: build test clients with e.g. ``guild_ready_timeout=0.05``.
    ``token`` overrides the emulator's token (to test a wrong one).
    """
    with endpoints(emu.api_base_url, emu.gateway_url):
        runner = asyncio.create_task(
            client.start(emu.token if token is None else token), name="emulated-bot"
        )
        try:
            await _wait_started(emu, client, runner, wait_ready, timeout)
            yield client
        finally:
            await client.close()
            with contextlib.suppress(asyncio.CancelledError, discord.DiscordException, OSError):
                await asyncio.wait_for(runner, timeout)


async def _wait_started(
    emu: Emulator,
    client: discord.Client,
    runner: asyncio.Task[None],
    wait_ready: bool,
    timeout: float,  # noqa: ASYNC109 - a deadline for the wait is the point
) -> None:
    async def started() -> None:
        await emu.wait_for_bot(timeout)
        if wait_ready:
            await client.wait_until_ready()

    waiter = asyncio.create_task(started())
    done, _ = await asyncio.wait(
        {waiter, runner}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
    )
    if runner in done:
        waiter.cancel()
        runner.result()  # raises the bot's start-up error
        raise RuntimeError("the bot stopped before it was ready")
    if waiter not in done:
        waiter.cancel()
        raise TimeoutError(f"the bot was not ready within {timeout:g} s")
    waiter.result()
