"""Handing a shard's gateway session from one bot client to the next (``bot.fleet.process``).

A fleet's process that takes a shard over RESUMEs the session its previous holder saved in the
lease row (``bot.storage``'s ``ResumableSession``) instead of IDENTIFYing a new one: Discord
allows one IDENTIFY per 5 s per ``max_concurrency`` bucket for the whole bot, so ten shards
taken over one by one would be back after 50 s; RESUMEs are not paced, and Discord replays the
events after the saved sequence number. A client that lets its shards go closes their
connections with a code other than 1000/1001, which Discord documents as keeping the session
resumable.

A RESUME brings no READY and no GUILD_CREATE, so discord.py knows nothing of the servers of a
resumed shard: the games need nothing of it (they post by channel id), and what does need a
server (a planned night's event, its language) asks :func:`fetch_server`, which reads it over
REST once and puts it in discord.py's cache. discord.py has no public way to start a shard on a
session, so :func:`launch_resumed` does what ``AutoShardedClient.launch_shard`` does with the
session added; the range of discord.py versions in ``pyproject.toml`` is the one it was read in.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import discord
import yarl
from discord.gateway import DiscordWebSocket
from discord.shard import Shard

from bot.storage import ResumableSession

if TYPE_CHECKING:
    from discord.ext import commands

log = logging.getLogger(__name__)

# Discord documents 1000 and 1001 as ending the session; any other code keeps it resumable.
RESUMABLE_CLOSE = 4000
# Discord's deadline for an interaction's first answer is 3 s after it was made. One older than
# this (with half a second for the clocks of Discord and this host to disagree) cannot be
# answered: a RESUME replays those the previous holder already had.
UNANSWERABLE_AFTER = 3.5


def _shards(bot: commands.AutoShardedBot) -> dict[int, Shard]:
    shards: dict[int, Shard] = getattr(bot, "_AutoShardedClient__shards")  # noqa: B009
    return shards


def current_sessions(bot: commands.AutoShardedBot) -> dict[int, ResumableSession]:
    """The gateway session of each shard the client runs (or ran, once closed) that has one."""
    sessions = {}
    for shard_id, shard in _shards(bot).items():
        ws = shard.ws
        if ws.session_id is not None and ws.sequence is not None:
            sessions[shard_id] = ResumableSession(ws.session_id, str(ws.gateway), ws.sequence)
    return sessions


async def launch_resumed(
    bot: commands.AutoShardedBot, shard_id: int, session: ResumableSession
) -> bool:
    """Connect shard ``shard_id`` by RESUMing ``session``, as discord.py launches a shard by
    IDENTIFYing; False when it could not connect (the caller IDENTIFYs instead). A RESUME that
    Discord refuses (INVALID_SESSION) is followed by discord.py's own IDENTIFY."""
    try:
        ws = await asyncio.wait_for(
            DiscordWebSocket.from_client(
                bot,
                gateway=yarl.URL(session.resume_url),
                shard_id=shard_id,
                session=session.session_id,
                sequence=session.seq,
                resume=True,
            ),
            timeout=bot.shard_connect_timeout,
        )
    except Exception as error:  # any failure: identify as usual
        log.warning("shard %s: could not resume its session (%s); identifying", shard_id, error)
        return False
    queue_put = getattr(bot, "_AutoShardedClient__queue").put_nowait  # noqa: B009
    _shards(bot)[shard_id] = shard = Shard(ws, bot, queue_put)
    shard.launch()
    log.info("shard %s: resuming the session it was handed (from event %d)", shard_id, session.seq)
    return True


async def close_resumably(bot: commands.AutoShardedBot) -> None:
    """Close every shard's connection so that its session stays resumable by the next holder
    (discord.py's own close uses 1000, which ends the session), and connect none again: a
    client that lost its shards while paused must not take their sessions back from the
    process that now holds them (a RESUME from a new connection supersedes the old one)."""

    async def refuse(url: str, *, compress: int = 0) -> Any:
        raise ConnectionRefusedError("this client has handed its gateway sessions over")

    bot.http.ws_connect = refuse  # type: ignore[method-assign]
    closing = []
    for shard in _shards(bot).values():
        shard._cancel_task()  # its worker would reconnect
        closing.append(shard.ws.close(code=RESUMABLE_CLOSE))
    await asyncio.gather(*closing, return_exceptions=True)


def unanswerable(data: dict[str, Any], now: float) -> bool:
    """Whether an INTERACTION_CREATE's interaction is past Discord's deadline by its id's time
    (``now`` in seconds since 1970)."""
    created = discord.utils.snowflake_time(int(data["id"])).timestamp()
    return now - created > UNANSWERABLE_AFTER


async def fetch_server(bot: commands.AutoShardedBot, guild_id: int) -> discord.Guild | None:
    """Server ``guild_id`` read over REST (the server, its channels, the bot's member) and put in
    discord.py's cache as a GUILD_CREATE would; None when the bot is not in it (any more)."""
    assert bot.user is not None
    try:
        data: dict[str, Any] = dict(await bot.http.get_guild(guild_id, with_counts=False))
        data["channels"] = await bot.http.get_all_guild_channels(guild_id)
        data["members"] = [await bot.http.get_member(guild_id, bot.user.id)]
    except (discord.NotFound, discord.Forbidden):
        return None
    return bot._connection._add_guild_from_data(data)  # type: ignore[arg-type]
