"""The bot object and its start-up, in the shape of discord.py's ``advanced_startup`` example."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import hashlib
import importlib.util
import json
import logging
import pkgutil
import signal
import threading
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

import aiohttp
import discord
import yarl
from discord.ext import commands

from bot import render
from bot.acks import InOrder, PendingAcknowledgements, ServerArrivals
from bot.config import ConfigError, Settings
from bot.fleet.gateway_sessions import (
    close_resumably,
    current_sessions,
    fetch_server,
    launch_resumed,
    unanswerable,
)
from bot.fleet.shards import shard_of
from bot.games import GameCog, GameKind
from bot.i18n import GameNightTranslator
from bot.ops.connection_guard import ConnectionLimits
from bot.ops.http_server import HttpEndpoint
from bot.ops.metrics import Metrics, rest_trace, watch_acknowledgements, watch_rest
from bot.plurals import counted
from bot.replies import PUBLIC_PLACEHOLDER, GameNightTree
from bot.storage import (
    NOTICE_PREFIX,
    ResumableSession,
    ServerSettings,
    Storage,
    hold_database,
)
from bot.throttle import HeavyWork, MemberCooldowns, worker_threads
from bot.voice.machinery import Voices
from engine.fairness import new_seed

log = logging.getLogger(__name__)


def discover_extensions(package: str = "cogs") -> tuple[str, ...]:
    """Every module and package of the ``cogs`` package, in name order (a game's package holds
    its cog in ``__init__.py``, its own files beside it): a new game is a new cog, and nothing
    else lists it (each cog registers its own persistent buttons when loaded). Found on disk
    without importing the package: the bot's modules never import the cogs."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(f"the {package!r} package of game cogs is missing")
    found = pkgutil.iter_modules(spec.submodule_search_locations)
    return tuple(sorted(f"{package}.{module.name}" for module in found))


EXTENSIONS: tuple[str, ...] = discover_extensions()


def import_cogs(extensions: Sequence[str] = EXTENSIONS) -> None:
    """Import every cog's module with no bot to load it into, which registers each game's words
    (its cog imports ``cogs/<game>/words.py``): for what words a game's messages while no bot
    runs, the tests and the message checks. Nothing is set up; a bot loads its cogs itself."""
    for name in extensions:
        importlib.import_module(name)


def game_cogs(extensions: Sequence[str] = EXTENSIONS) -> list[type[GameCog[Any]]]:
    """The game cogs of ``extensions``, imported (their words registered) but not loaded: what
    is asked of every game with no bot to load it into, or before any is loaded (the warm-up of
    its pictures, its sample pictures). In the order of ``extensions``."""
    found: list[type[GameCog[Any]]] = []
    for name in extensions:
        module = importlib.import_module(name)
        found += [
            value
            for value in vars(module).values()
            if isinstance(value, type)
            and issubclass(value, GameCog)
            and value.__module__ == module.__name__
        ]
    return found


def warm_up_pictures(
    extensions: Sequence[str] = EXTENSIONS, stop: threading.Event | None = None
) -> asyncio.Task[None]:
    """Build the pictures' palettes and kept pieces of every game of ``extensions`` in a worker
    thread (``bot.render.warm_up``), the games found before any is loaded: a task to await.
    Setting ``stop`` ends it after the game it is at."""
    warm_ups = [cog.warm_up_pictures for cog in game_cogs(extensions)]
    return asyncio.create_task(asyncio.to_thread(render.warm_up, warm_ups, stop))


# discord.py names the tasks that run slash commands and component callbacks so.
INTERACTION_TASK_NAMES = ("CommandTree-invoker", "discord-ui-")
INTERACTION_GRACE = 5.0
# systemd and container runtimes stop a service with SIGTERM; Ctrl-C sends SIGINT.
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
# Interactions are answered over connections of their own, this many at most (aiohttp's usual
# limit): a rush of a thousand clicks reuses warm connections instead of opening one per click,
# as discord.py's unlimited pool would (a TLS handshake each, on Discord), and its answers never
# queue behind uploads. bench_load.py --rushes, busy: the bot's CPU per rush fell by a fifth and
# the Join p99 by a fifth (64 and 128 connections measured alike).
ANSWER_CONNECTIONS = 100
# Discord allows a bot 1,000 gateway session starts (IDENTIFYs) a day, and past them resets its
# token (Gateway: Session Start Limit). A start that would leave fewer than this many spare, or
# that finds fewer than a tenth of the day's left, waits for the count to reset rather than
# spend the last ones (a crash loop would); if the reset is further away than the longest wait,
# the bot exits (code 2) and says when it may start again.
SESSION_STARTS_SPARE = 5
SESSION_STARTS_LOW_SHARE = 0.1
SESSION_STARTS_LONGEST_WAIT = 30 * 60.0
SESSION_STARTS_SLACK = 1.0  # seconds waited past the reset, for the clocks' difference


class SessionStartsExhaustedError(ConfigError):
    """Too few gateway session starts are left today, and their reset is further away than the
    bot waits: restarting would not help (exit code 2, its message the one line to show)."""

    def __init__(self, remaining: int, total: int, reset_after: float) -> None:
        reset_at = time.strftime("%H:%M UTC", time.gmtime(time.time() + reset_after))
        super().__init__(
            f"Discord allows only {remaining} more gateway session starts (of {total} a day) "
            f"until {reset_at}, in {duration(reset_after)}; not connecting, so that restarts "
            "do not spend the last ones (past them Discord resets the bot's token). Find in the "
            "log why the bot keeps restarting, then start it again after that time"
        )


def duration(seconds: float) -> str:
    """``seconds`` for a person: "42 s", "7 min", "13 h 5 min"."""
    whole = max(0, round(seconds))
    if whole < 60:
        return f"{whole} s"
    minutes = round(whole / 60)
    if minutes < 60:
        return f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min" if minutes else f"{hours} h"


def session_starts_low(total: int, remaining: int, needed: int) -> bool:
    """Whether ``remaining`` session starts (of ``total`` a day) are too few to spend ``needed``
    now: fewer than those plus ``SESSION_STARTS_SPARE``, or under a tenth of the day's."""
    return remaining < needed + SESSION_STARTS_SPARE or remaining < total * SESSION_STARTS_LOW_SHARE


class GameNightBot(commands.AutoShardedBot):
    """Holds the settings and the open database; cogs reach them through ``bot.storage``.

    Sharded as discord.py's ``AutoShardedBot``: by default every shard Discord recommends, in
    this process; in a fleet (``bot.fleet.process``), the ``shard_ids`` of ``shard_count`` this client
    holds the leases of, its games fenced by them (``storage`` is ``Storage.fenced``)."""

    def __init__(
        self,
        settings: Settings,
        storage: Storage,
        *,
        extensions: Sequence[str] = EXTENSIONS,
        time_scale: float = 1.0,
        seed_source: Callable[[], bytes] = new_seed,
        metrics: Metrics | None = None,
        identify_gate: Callable[[GameNightBot, int], Awaitable[None]] | None = None,
        resume_sessions: Mapping[int, ResumableSession] | None = None,
        hands_over_sessions: bool = False,
        endpoint_limits: ConnectionLimits | None = None,
        **options: Any,
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        # Who is in a voice channel (a game's speaker leaves an empty one) and the bot's own
        # voice state, which discord.py's voice client needs.
        intents.voice_states = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            tree_cls=GameNightTree,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            **options,
        )
        self.settings = settings
        self.storage = storage
        self.initial_extensions = tuple(extensions)
        # Game timers run this much faster or slower than announced (the sandbox speeds up).
        self.time_scale = time_scale
        # Where game seeds come from: the OS's CSPRNG, or a test's chosen seeds.
        self.new_seed = seed_source
        # The callers render their calls here, never queued behind board views or deals; below
        # the event loop's priority as heavy work is (a call is drawn well ahead of its turn).
        self.caller_executor = worker_threads(2, "caller")
        # Members with a notice waiting for their next interaction (their DMs were shut).
        self.notices_waiting: set[int] = set()
        # Every server's /gamenight settings, read at start-up and kept current by the bot's own
        # changes (a server's are changed only by its own shard's client): interactions are
        # answered without asking the database for them.
        self.known_settings: dict[int, ServerSettings] = {}
        # What must be done in the order it was asked though acknowledged first (a channel's
        # game opening, a server's night plans, a member's table game): bot.acks.InOrder.
        self.in_order = InOrder()
        # Seconds added to the wall clock the game nights are planned on (a test moves it on).
        self.clock_offset = 0.0
        # A fleet's processes share one set of figures between their clients.
        self.metrics = metrics if metrics is not None else Metrics()
        # Flood guards (bot.throttle): each member's cooldowns, each server's line of heavy work.
        self.cooldowns = MemberCooldowns(self.metrics)
        self.heavy = HeavyWork(self.metrics)
        # Interactions not yet acknowledged: the work they start waits until they are.
        self.pending_acks = PendingAcknowledgements()
        self.arrivals = ServerArrivals()
        # A fleet paces IDENTIFYs across its processes (Discord's max_concurrency).
        self.identify_gate = identify_gate
        self._shards_ready: dict[int, asyncio.Event] = {}  # READY and the servers in
        self._shards_connected: dict[int, asyncio.Event] = {}  # READY
        # A fleet's client RESUMEs the sessions its shards' previous holders handed over
        # (bot.fleet.gateway_sessions), and hands its own over when it stops.
        self._to_resume = dict(resume_sessions or {})
        self._resuming: set[int] = set()
        self.resumed_shards: set[int] = set()  # resumed: their servers are not in the cache
        self.hands_over_sessions = hands_over_sessions
        self._drop_unanswerable_interactions()
        watch_acknowledgements()
        self.http_endpoint: HttpEndpoint | None = None
        # The HTTP endpoint's connection limits (None: bot.ops.http_server's, read at start).
        self.endpoint_limits = endpoint_limits
        self.answer_session: aiohttp.ClientSession | None = None
        self._stopping = asyncio.Event()  # close() has begun: a wait before connecting ends
        self._warm_up_stop = threading.Event()  # close() has begun: the pictures' warm-up ends
        # The games' voice (bot.voice): on, or off with the reason said once now.
        self.voices = Voices.for_settings(self, settings)

    async def setup_hook(self) -> None:
        """Before connecting: read the waiting notices, load the games, sync the slash commands if
        they changed, and start the HTTP endpoint when one is configured."""
        # Freed picture buffers go back to the system; the palettes build in the background.
        render.limit_retained_memory()
        self.render_warm_up = warm_up_pictures(self.initial_extensions, self._warm_up_stop)
        self.notices_waiting = {
            int(key.removeprefix(NOTICE_PREFIX))
            for key in await self.storage.meta_with_prefix(NOTICE_PREFIX)
        }
        self.known_settings = {s.guild_id: s for s in await self.storage.all_server_settings()}
        await self.tree.set_translator(GameNightTranslator())
        for extension in self.initial_extensions:
            await self.load_extension(extension)
        await self.sync_commands_if_changed()
        # discord.py made its HTTP session at login, just before this hook.
        watch_rest(getattr(self.http, "_HTTPClient__session", None), self.metrics)
        self.answer_session = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=ANSWER_CONNECTIONS),
            cookie_jar=aiohttp.DummyCookieJar(),
            trace_configs=[rest_trace(self.metrics)],
        )
        if self.settings.metrics_port is not None:
            self.http_endpoint = HttpEndpoint(
                self, self.settings.metrics_host, self.settings.metrics_port, self.endpoint_limits
            )
            await start_endpoint(self.http_endpoint)

    def _drop_unanswerable_interactions(self) -> None:
        """Interactions are noted as they arrive (``pending_acks``) and handled in their server's
        turn (``arrivals``: one server's burst does not hold up another's); those past Discord's
        deadline are dropped, as they arrive or when their turn comes: no answer could reach
        their member, and a RESUME replays those a previous holder already had."""
        parsers = self._connection.parsers
        parse_interaction = parsers["INTERACTION_CREATE"]

        def too_late(data: dict[str, Any]) -> bool:
            if not unanswerable(data, time.time()):
                return False
            log.info("interaction %s arrived past Discord's deadline; not answered", data["id"])
            return True

        def parse_answerable(data: dict[str, Any]) -> None:
            if too_late(data):
                self.pending_acks.answered(int(data["id"]))
                return
            parse_interaction(data)

        def parse_in_turn(data: dict[str, Any]) -> None:
            if too_late(data):
                return
            self.pending_acks.arrived(int(data["id"]))
            guild = data.get("guild_id")
            self.arrivals.arrived(
                None if guild is None else int(guild), functools.partial(parse_answerable, data)
            )

        parsers["INTERACTION_CREATE"] = parse_in_turn

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        """discord.py's dispatch; an interaction answers over the bot's own pool (before its
        handler runs)."""
        if event_name == "interaction":
            interaction: discord.Interaction[Any] = args[0]
            if self.answer_session is not None:
                # (discord.py gave it the shared pool; its handlers have not run yet.)
                interaction._session = self.answer_session
        super().dispatch(event_name, *args, **kwargs)

    def settings_of(self, guild_id: int | None) -> ServerSettings:
        """Server ``guild_id``'s settings, from memory (the defaults outside a server, or for a
        server that never changed any)."""
        if guild_id is None:
            return ServerSettings(0)
        return self.known_settings.get(guild_id) or ServerSettings(guild_id)

    def now(self) -> float:
        """The time, in seconds since 1970 (UTC), by which planned game nights open and start."""
        return time.time() + self.clock_offset

    def gateway_connected(self) -> bool:
        """Whether the bot is logged in and the gateway connection of every shard it runs is
        open."""
        shards = self.shards
        return (
            self.is_ready()
            and not self.is_closed()
            and bool(shards)
            and not any(shard.is_closed() for shard in shards.values())
        )

    def health_details(self) -> dict[str, Any]:
        """More for ``/healthz``'s body: nothing for one process (a fleet's adds its shards)."""
        return {}

    async def live_counts(self) -> dict[str, int]:
        """Live games by kind (the ``gamenight_live_games`` gauge)."""
        return await self.storage.live_counts()

    def runs_guild(self, guild_id: int | None) -> bool:
        """Whether this client runs the games of server ``guild_id`` (of its shards; always,
        when it runs every shard)."""
        if self.shard_ids is None or self.shard_count is None:
            return True
        return shard_of(guild_id, self.shard_count) in self.shard_ids

    async def on_shard_connect(self, shard_id: int) -> None:
        """Shard ``shard_id``'s READY has arrived (its servers follow, then on_shard_ready):
        its server's interactions reach this client, so their games may go on."""
        self._shards_connected.setdefault(shard_id, asyncio.Event()).set()

    async def on_shard_ready(self, shard_id: int) -> None:
        """Shard ``shard_id`` is connected and has its servers: planned nights may go on."""
        self._shards_ready.setdefault(shard_id, asyncio.Event()).set()
        self._shards_connected.setdefault(shard_id, asyncio.Event()).set()

    async def launch_shards(self) -> None:
        """Connect the shards, as discord.py does, once Discord's session start limit allows it
        (:meth:`spare_session_starts`)."""
        await self.spare_session_starts()
        if not self._stopping.is_set():  # (a stop while waiting: nothing to connect)
            await super().launch_shards()

    def identifies_needed(self, recommended: int) -> int:
        """How many gateway sessions a start of this client begins (IDENTIFYs): one per shard
        it runs (``recommended`` of them when it runs every shard Discord recommends), but those
        whose sessions it resumes."""
        count: int | None = self.shard_count  # (None until discord.py reads it, if not given)
        if count is None:
            return recommended
        shards = self.shard_ids if self.shard_ids is not None else range(count)
        return sum(shard not in self._to_resume for shard in shards)

    async def spare_session_starts(self) -> None:
        """Before connecting: read Discord's session start limit (``GET /gateway/bot``), and
        when too few starts are left (:func:`session_starts_low`), say so and wait until the
        count resets, or raise ``SessionStartsExhaustedError`` when that is further away than
        ``SESSION_STARTS_LONGEST_WAIT``. A stop meanwhile ends the wait."""
        given: int | None = self.shard_count
        if given is not None and self.identifies_needed(0) == 0:
            return  # every session resumed: none started
        while not self._stopping.is_set():
            try:
                recommended, _, limits = await self.http.get_bot_gateway()
            except discord.GatewayNotFound as error:
                # discord.py asks again as it connects, and fails there with the reason.
                log.debug("could not read the session start limit: %s", error.__cause__)
                return
            total, remaining = int(limits["total"]), int(limits["remaining"])
            reset_after = int(limits["reset_after"]) / 1000
            self.metrics.session_starts_remaining.set(remaining)
            needed = self.identifies_needed(int(recommended))
            # Nothing spent yet (a tiny allowance): waiting for a reset would change nothing.
            if not session_starts_low(total, remaining, needed) or remaining >= total:
                return
            if reset_after > SESSION_STARTS_LONGEST_WAIT:
                raise SessionStartsExhaustedError(remaining, total, reset_after)
            log.warning(
                "Discord allows only %d more gateway session starts (of %d a day) and this start"
                " needs %d: waiting %s for the count to reset rather than spend the last ones"
                " (past them Discord resets the bot's token). A bot that keeps restarting spends"
                " one a shard at every start: the log says why it restarts",
                remaining,
                total,
                needed,
                duration(reset_after),
            )
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), reset_after + SESSION_STARTS_SLACK)

    async def launch_shard(
        self, gateway: yarl.URL, shard_id: int, *, initial: bool = False
    ) -> None:
        """Connect a shard: by RESUMing the session handed over for it, if any, else (and if
        that fails) by IDENTIFYing as discord.py does."""
        session = self._to_resume.pop(shard_id, None)
        if session is not None:
            self._resuming.add(shard_id)
            if await launch_resumed(self, shard_id, session):
                return
            self._resuming.discard(shard_id)
        await super().launch_shard(gateway, shard_id, initial=initial)

    async def on_shard_resumed(self, shard_id: int) -> None:
        """A shard's session is resumed: one handed over counts as connected and ready (a RESUME
        brings no READY and no servers; ``server`` reads those it needs)."""
        if shard_id not in self._resuming:
            return
        self._resuming.discard(shard_id)
        self.resumed_shards.add(shard_id)
        self._shards_connected.setdefault(shard_id, asyncio.Event()).set()
        self._shards_ready.setdefault(shard_id, asyncio.Event()).set()
        # discord.py's on_ready waits for a READY of every shard, which resumed ones never get.
        ready = {shard for shard, event in self._shards_ready.items() if event.is_set()}
        if not self.is_ready() and set(self.shard_ids or ()) <= ready:
            self._connection.call_handlers("ready")
            self.dispatch("ready")

    def gateway_sessions(self) -> dict[int, ResumableSession]:
        """The gateway session of each shard this client runs (or ran), to hand over."""
        return current_sessions(self)

    async def server(self, guild_id: int) -> discord.Guild | None:
        """Server ``guild_id`` from discord.py's cache, or read over REST if it is on a shard
        whose session was resumed (no GUILD_CREATE came); None when the bot is not in it."""
        guild = self.get_guild(guild_id)
        if guild is not None or self.shard_count is None:
            return guild
        if shard_of(guild_id, self.shard_count) not in self.resumed_shards:
            return None
        return await fetch_server(self, guild_id)

    async def wait_until_shard_ready(self, guild_id: int | None) -> None:
        """Until the shard of server ``guild_id`` is connected and has its servers (in the
        cache: ``get_guild``). A fleet's client waits for that shard only: one taking over
        several connects them seconds apart (Discord's IDENTIFY pacing)."""
        if self.shard_ids is None or self.shard_count is None:
            await self.wait_until_ready()
        else:
            await self._shards_ready.setdefault(
                shard_of(guild_id, self.shard_count), asyncio.Event()
            ).wait()

    async def wait_until_shard_connected(self, guild_id: int | None) -> None:
        """Until the shard of server ``guild_id`` has its session (its READY): from then on the
        server's interactions reach this client, so its games may call (claims can answer). A
        fleet's client does not wait for the servers' data as well (discord.py gives them 2 s
        after the last arrives): a game needs none of it. Every shard, for one process."""
        if self.shard_ids is None or self.shard_count is None:
            await self.wait_until_ready()
        else:
            await self._shards_connected.setdefault(
                shard_of(guild_id, self.shard_count), asyncio.Event()
            ).wait()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Paces IDENTIFYs: the fleet's gate when there is one (Discord's max_concurrency shared by
        the fleet's processes), discord.py's own otherwise."""
        if self.identify_gate is None or shard_id is None:
            await super().before_identify_hook(shard_id, initial=initial)
        else:
            await self.identify_gate(self, shard_id)

    def verify_page(self) -> str | None:
        """Where players open the verification page: the HTTP endpoint's public address, or
        None when they cannot (no ``GAMENIGHT_PUBLIC_URL``: a link to the page shipped with the
        bot would open on the bot's own machine only, so none is posted)."""
        if self.settings.public_url is None:
            return None
        return f"{self.settings.public_url}/verify/"

    async def sync_commands_if_changed(self) -> None:
        """Sync slash commands only when their definition changed since the last sync."""
        guild = (
            discord.Object(self.settings.dev_guild_id)
            if self.settings.dev_guild_id is not None
            else None
        )
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        payload = [command.to_dict(self.tree) for command in self.tree.get_commands(guild=guild)]
        digest = hashlib.sha256(
            json.dumps(payload, sort_keys=True, default=str).encode()
        ).hexdigest()
        target = f"commands:{self.application_id}:{guild.id if guild else 'global'}"
        if await self.storage.get_meta(target) == digest:
            log.info("slash commands unchanged; not syncing")
            return
        synced = await self.tree.sync(guild=guild)
        await self.storage.set_meta(target, digest)
        log.info(
            "synced %d slash commands to %s", len(synced), guild.id if guild else "all servers"
        )

    def games(self) -> list[GameKind]:
        """The kinds of game this bot hosts: one per loaded game cog, in loading order."""
        return [cog.game_kind() for cog in self.cogs.values() if isinstance(cog, GameCog)]

    def game_kind(self, kind: str) -> GameKind | None:
        """The loaded game of ``kind`` (``"loteria"``...), or None."""
        return next((game for game in self.games() if game.kind == kind), None)

    async def send_dm(
        self,
        user: discord.abc.Snowflake,
        content: str,
        *,
        files: Sequence[discord.File] = (),
    ) -> discord.Message:
        """DM a member through the DM channel the bot opened with them before (kept in the
        database): one request for a returning player instead of two. A channel Discord no
        longer knows is forgotten and a new one opened."""
        known = await self.storage.dm_channel(user.id)
        if known is not None:
            channel = self.get_partial_messageable(known, type=discord.ChannelType.private)
            try:
                return await channel.send(content, files=list(files))
            except discord.NotFound:
                await self.storage.forget_dm_channel(user.id)
                for file in files:
                    file.reset()
        opened = await self.create_dm(user)
        await self.storage.set_dm_channel(user.id, opened.id)
        return await opened.send(content, files=list(files))

    async def tell(self, user_id: int, text: str) -> None:
        """Tell a member something they must know (their game stalled): by DM, or else
        privately at their next interaction with the bot (kept across restarts)."""
        try:
            await self.send_dm(discord.Object(user_id), text)
            return
        except (discord.HTTPException, OSError):
            log.info("could not DM a notice to %s; it waits for their next interaction", user_id)
        key = f"{NOTICE_PREFIX}{user_id}"
        waiting = json.loads(await self.storage.get_meta(key) or "[]")
        await self.storage.set_meta(key, json.dumps([*waiting, text]))
        self.notices_waiting.add(user_id)

    async def on_app_command_completion(
        self, interaction: discord.Interaction[Any], command: object
    ) -> None:
        """After a slash command: follow it with the notices waiting for that member."""
        name = getattr(command, "qualified_name", command)
        log.debug(
            "/%s by %s in channel %s answered", name, interaction.user.id, interaction.channel_id
        )
        await self.deliver_notices(interaction)

    async def deliver_notices(self, interaction: discord.Interaction[Any]) -> None:
        """Once an interaction has been answered, follow it privately with the notices waiting
        for its member (called when its command, button or error handling has finished)."""
        user_id = interaction.user.id
        if user_id not in self.notices_waiting or not interaction.response.is_done():
            return
        if interaction.extras.get(PUBLIC_PLACEHOLDER):
            return  # a public placeholder would swallow a private follow-up: next time
        self.notices_waiting.discard(user_id)
        key = f"{NOTICE_PREFIX}{user_id}"
        waiting = json.loads(await self.storage.get_meta(key) or "[]")
        try:
            for text in waiting:
                await interaction.followup.send(text, ephemeral=True)
        except discord.HTTPException:
            self.notices_waiting.add(user_id)
            return
        await self.storage.delete_meta(key)

    async def close(self) -> None:
        """Let interactions already being answered finish before the connection (and then the
        database) goes, so nobody is left with "This interaction failed" by a restart."""
        self._stopping.set()
        self._warm_up_stop.set()
        if self.hands_over_sessions:
            # The gateway first: nothing more arrives here, and the sessions are free to hand
            # over while the answers under way (over REST) finish.
            await close_resumably(self)
        current = asyncio.current_task()
        answering = [
            task
            for task in asyncio.all_tasks()
            if task is not current and task.get_name().startswith(INTERACTION_TASK_NAMES)
        ]
        if answering:
            await asyncio.wait(answering, timeout=INTERACTION_GRACE)
        if self.http_endpoint is not None:
            await self.http_endpoint.stop()
            self.http_endpoint = None
        await self.voices.close()
        await super().close()
        if self.answer_session is not None:
            await self.answer_session.close()
        with contextlib.suppress(RuntimeError):
            self.caller_executor.shutdown(wait=False, cancel_futures=True)

    async def on_ready(self) -> None:
        """Logs who the bot is connected as, and to how many servers."""
        assert self.user is not None
        servers = counted(len(self.guilds), "server", "servers")
        log.info("connected as %s (%s) to %s", self.user, self.user.id, servers)


async def start_endpoint(endpoint: HttpEndpoint) -> None:
    """Start the HTTP endpoint; a port or address it cannot listen on is a bad setting
    (``ConfigError``, one line and exit code 2), not a crash to restart."""
    try:
        await endpoint.start()
    except OSError as error:  # the port is taken, the address is not this machine's...
        raise ConfigError(
            f"GAMENIGHT_METRICS_PORT: the HTTP endpoint cannot listen on {endpoint.host}:"
            f"{endpoint.port} ({error.strerror or error}); choose a free port, or fix "
            "GAMENIGHT_METRICS_HOST"
        ) from None


async def freeze_when_warm(bot: GameNightBot) -> None:
    """Once start-up has built what it keeps (modules, fonts, palettes, the solved Dots table),
    leave it out of every later garbage collection (``gc.freeze``): while 50 games drew, full
    collections over it paused the event loop for 100-200 ms, the slowest acknowledgements
    (bench/bench_load.py). Only for the bot's own process: tests run many bots in one."""
    await bot.wait_until_ready()
    await asyncio.wait([bot.render_warm_up])
    gc.collect()
    gc.freeze()
    log.debug("start-up heap frozen: %d objects", gc.get_freeze_count())


async def run_bot(settings: Settings, **bot_options: Any) -> None:
    """Lock and open the database, then run the bot until it is closed: by ``bot.close()``, or
    by SIGTERM or SIGINT, which close it the same way (answers under way finish first).

    Raises ``UnusableDatabaseError`` before connecting to Discord when the database is in use by
    another process or cannot be used."""
    loop = asyncio.get_running_loop()
    async with hold_database(settings.database):  # noqa: SIM117 - the lock outlives the rest
        async with (
            Storage.open(settings.database) as storage,
            GameNightBot(settings, storage, time_scale=settings.time_scale, **bot_options) as bot,
        ):
            closing: set[asyncio.Task[None]] = set()

            def close_on_signal() -> None:
                if closing:
                    log.info("already closing; answers under way get up to %gs", INTERACTION_GRACE)
                    return
                log.info("stop signal received; closing")
                closing.add(asyncio.create_task(bot.close()))

            for stop_signal in STOP_SIGNALS:
                loop.add_signal_handler(stop_signal, close_on_signal)
            freezing = asyncio.create_task(freeze_when_warm(bot))
            returning_memory = asyncio.create_task(render.keep_returning_free_memory())
            try:
                await bot.start(settings.token)
            except Exception:
                if not closing:
                    raise
                # Stopped while still logging in or connecting: the close cut that short.
                log.debug("start-up cut short by the stop", exc_info=True)
            finally:
                freezing.cancel()
                returning_memory.cancel()
                for stop_signal in STOP_SIGNALS:
                    loop.remove_signal_handler(stop_signal)
            await asyncio.gather(*closing)
