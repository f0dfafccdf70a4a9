"""The emulator: an aiohttp server on loopback that the unmodified discord.py client talks to,
holding the emulated world and the record of every rule the bot broke. The top layer: it
assembles the world, the gateway, the REST API and the driver's guilds."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, ClassVar

from aiohttp import web

from emulator.driver import Guild
from emulator.faults import AutoModBlock, Fault, FaultInjector
from emulator.gateway import (
    MAX_GUILDS_PER_SHARD,
    PRIVILEGED_INTENTS,
    SESSION_START_LIMIT,
    Gateway,
    GatewayLimits,
)
from emulator.interactions import InteractionWorld
from emulator.latency import Latency, LatencySetting, LatencySource
from emulator.model import Channel, Failure
from emulator.model import Guild as ModelGuild
from emulator.ratelimit import InvalidRequestLimit, InvalidRequests, RateLimiter, RateLimits
from emulator.rest import API_PREFIX, COMMAND_CREATES_PER_DAY, RequestRecord, RestApi
from emulator.spec import OpenApiSpec, load_spec
from emulator.voice import HEARTBEAT_INTERVAL_MS, VoiceCall, VoiceRefusal, VoiceServer

__all__ = ["Emulator", "EmulatorFailureError", "Failure"]

_log = logging.getLogger(__name__)


class EmulatorFailureError(AssertionError):
    """Raised by :meth:`Emulator.assert_clean` when the bot broke Discord's rules."""


class Emulator(InteractionWorld):
    """A local Discord. Use as ``async with Emulator() as emu:``; add guilds, point a bot at
    ``emu.api_base_url`` / ``emu.gateway_url`` with ``emu.token``, then act as members.

    ``token``: the bot's token (None: a new one of Discord's shape, the bot's id first).
    ``rate_limits``: False (default, fast tests), True (Discord's limits) or a
    :class:`RateLimits`. ``faults``: :class:`~emulator.faults.Fault` rules answering chosen
    requests with a 429 or a 5xx (more with :meth:`inject_fault`; ``fault_seed`` seeds which
    requests a fractional fault hits). ``ack_timeout``: seconds a bot has to acknowledge an interaction (3 on
    Discord). ``strict``: leaving the ``async with`` block raises if failures were recorded and
    not taken with :meth:`take_failures`. ``spec_path``: Discord's OpenAPI spec (default: see
    :func:`emulator.spec.default_spec_path`); without it requests are not validated.

    Sharding (see :class:`~emulator.gateway.Gateway`): ``shards`` is the count ``GET
    /gateway/bot`` recommends (None: one per 1,000 guilds); ``max_concurrency`` the IDENTIFYs
    per 5 s (enforced with rate limits on); ``session_start_limit`` the IDENTIFYs per 24 hours;
    ``max_guilds_per_shard`` the guilds a session may hold before IDENTIFY is closed with 4011.

    Discord's stricter rules, each off by default (see emulator/README.md, "As strict as
    Discord"): ``latency`` (seconds, or ``(low, high)`` drawn uniformly from an RNG seeded by
    ``latency_seed``) delays every REST request, every REST answer and every gateway event
    one way; ``invalid_request_limit`` (True: Discord's 10,000 per 10 minutes, or an
    :class:`~emulator.ratelimit.InvalidRequestLimit`) bans the bot from the API once it is
    reached (invalid requests are counted either way: :attr:`invalid_requests`);
    ``gateway_limits`` (True or a :class:`~emulator.gateway.GatewayLimits`) enforces invalid
    intents (4013), heartbeats (4009) and 120 sends a minute (4008); the voice gateway always
    closes a connection with 4009 when it sends no heartbeat for ``voice_heartbeat_interval``
    (what its Hello asks for; Discord's 13.75 s) and a quarter more; ``privileged_intents``
    are those enabled for the app (4014 for others; all three by default);
    ``command_rules`` enforces the naming, size and count rules of application commands and
    ``command_creates_per_day`` new commands a day per scope.
    """

    # Discord's stricter rules that every test and the sandbox meet (``as_strict_as_discord``);
    # latency is not among them: it is for the tests of joins, starts and claims.
    DISCORDS_RULES: ClassVar[dict[str, bool]] = {
        "rate_limits": True,
        "invalid_request_limit": True,
        "gateway_limits": True,
        "command_rules": True,
    }

    @classmethod
    def as_strict_as_discord(cls, **options: Any) -> Emulator:
        """An emulator with :attr:`DISCORDS_RULES` on; ``options`` add others or change
        these (``rate_limits=RateLimits().faster(5)``)."""
        return cls(**(cls.DISCORDS_RULES | options))

    def __init__(
        self,
        *,
        token: str | None = None,
        bot_name: str = "Game Night",
        rate_limits: bool | RateLimits = False,
        faults: Sequence[Fault] = (),
        fault_seed: int = 0,
        ack_timeout: float = 3.0,
        strict: bool = True,
        spec_path: Path | None = None,
        validate: bool = True,
        heartbeat_interval: float = 41.25,
        voice_heartbeat_interval: float = HEARTBEAT_INTERVAL_MS / 1000,
        shards: int | None = None,
        max_concurrency: int = 1,
        session_start_limit: int = SESSION_START_LIMIT,
        max_guilds_per_shard: int = MAX_GUILDS_PER_SHARD,
        host: str = "127.0.0.1",
        port: int = 0,
        latency: LatencySetting = None,
        latency_seed: int = 0,
        invalid_request_limit: bool | InvalidRequestLimit = False,
        gateway_limits: bool | GatewayLimits = False,
        privileged_intents: int = PRIVILEGED_INTENTS,
        command_rules: bool = False,
        command_creates_per_day: int = COMMAND_CREATES_PER_DAY,
    ) -> None:
        super().__init__(token=token, bot_name=bot_name, ack_timeout=ack_timeout)
        self.strict = strict
        self._host = host
        self._port = port
        self.spec: OpenApiSpec | None = load_spec(spec_path) if validate else None
        if isinstance(rate_limits, RateLimits):
            self.rate_limiter: RateLimiter | None = RateLimiter(rate_limits)
        else:
            self.rate_limiter = RateLimiter(RateLimits()) if rate_limits else None
        self.faults = FaultInjector(tuple(faults), seed=fault_seed)
        self.latency: Latency | None = Latency.of(latency, latency_seed)
        if isinstance(invalid_request_limit, InvalidRequestLimit):
            banning: InvalidRequestLimit | None = invalid_request_limit
        else:
            banning = InvalidRequestLimit() if invalid_request_limit else None
        if isinstance(gateway_limits, GatewayLimits):
            gateway_rules: GatewayLimits | None = gateway_limits
        else:
            gateway_rules = GatewayLimits() if gateway_limits else None
        self.gateway = Gateway(
            self,
            heartbeat_interval=heartbeat_interval,
            shards=shards,
            max_concurrency=max_concurrency,
            identify_window=(
                None if self.rate_limiter is None else self.rate_limiter.limits.identify_window
            ),
            session_start_limit=session_start_limit,
            max_guilds_per_shard=max_guilds_per_shard,
            # Separate draws, so REST and gateway traffic do not shift each other's delays.
            latency=LatencySource(self.latency),
            limits=gateway_rules,
            privileged_intents=privileged_intents,
        )
        self.events = self.gateway
        rest_latency = (
            None
            if self.latency is None
            else Latency(self.latency.low, self.latency.high, self.latency.seed + 1)
        )
        self.rest = RestApi(
            self,
            self.gateway,
            spec=self.spec,
            rate_limiter=self.rate_limiter,
            faults=self.faults,
            latency=LatencySource(rest_latency),
            invalid_requests=InvalidRequests(banning),
            command_rules=command_rules,
            command_creates_per_day=command_creates_per_day,
        )
        self.voice_server = VoiceServer(
            self, self.gateway, heartbeat_interval=voice_heartbeat_interval
        )
        self._runner: web.AppRunner | None = None
        self._base_http = ""
        self._base_ws = ""

    # Lifecycle

    async def __aenter__(self) -> Emulator:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.stop()
        if exc_type is None and self.strict:
            self.assert_clean()

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self.rest.handle)
        app.router.add_get("/gateway", self.gateway.handle)
        # discord.py opens wss://{endpoint}/?v=8: the voice endpoint carries this path.
        app.router.add_get("/voice/", self.voice_server.handle)
        app.router.add_get("/voice", self.voice_server.handle)
        app.router.add_get(
            "/attachments/{channel_id}/{attachment_id}/{filename}", self._serve_attachment
        )
        app.router.add_get("/", self._index)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self._host, self._port)
        await site.start()
        port = int(self._runner.addresses[0][1])  # the port chosen when port=0
        self._base_http = f"http://{self._host}:{port}"
        self._base_ws = f"ws://{self._host}:{port}"
        self.gateway.url = self.gateway_url
        await self.voice_server.start(self._host, f"{self._host}:{port}/voice")
        self.rest.cdn_base_url = self.cdn_base_url
        if self.spec is None:
            _log.warning(
                "Discord emulator at %s: request validation is OFF (no OpenAPI spec)",
                self._base_http,
            )

    async def stop(self) -> None:
        self.stop_clocks()
        self.stop_event_clock()
        await self.gateway.close()
        await self.voice_server.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def api_base_url(self) -> str:
        """What ``discord.http.Route.BASE`` (``DISCORD_API_BASE_URL``) should be."""
        return self._base_http + API_PREFIX

    @property
    def gateway_url(self) -> str:
        """What ``DiscordWebSocket.DEFAULT_GATEWAY`` (``DISCORD_GATEWAY_URL``) should be."""
        return self._base_ws + "/gateway"

    @property
    def voice_endpoint(self) -> str:
        """The endpoint VOICE_SERVER_UPDATE gives (``host:port/voice``): discord.py connects to
        ``wss://{endpoint}/?v=8``, which :func:`emulator.endpoints.use_endpoints` makes plain
        ``ws://`` for loopback hosts."""
        return self.voice_server.endpoint

    @property
    def cdn_base_url(self) -> str:
        return self._base_http

    @property
    def validation_enabled(self) -> bool:
        return self.spec is not None

    @property
    def requests(self) -> list[RequestRecord]:
        """Every REST request the bot made, oldest first."""
        return self.rest.requests

    @property
    def rate_limited(self) -> int:
        """How many requests were answered 429 by the rate limits (injected faults aside)."""
        return self.rest.rate_limited

    @property
    def invalid_requests(self) -> int:
        """How many of the bot's requests were invalid as Discord counts them for its
        Cloudflare bans: answered 401, 403, or 429 other than a shared-resource 429."""
        return self.rest.invalid_requests.total

    @property
    def banned(self) -> bool:
        """Whether the bot is banned from the API for too many invalid requests (every request
        is then answered 429 by "Cloudflare", without Discord's headers)."""
        return self.rest.invalid_requests.banned

    async def _serve_attachment(self, request: web.Request) -> web.StreamResponse:
        attachment = self.attachments.get(int(request.match_info["attachment_id"]))
        if attachment is None or attachment.filename != request.match_info["filename"]:
            return web.Response(status=404, text="404: Not Found")
        return web.Response(body=attachment.data, headers={"Content-Type": attachment.content_type})

    async def _index(self, request: web.Request) -> web.StreamResponse:
        text = (
            "Local Discord emulator\n"
            f"DISCORD_API_BASE_URL={self.api_base_url}\nDISCORD_GATEWAY_URL={self.gateway_url}\n"
        )
        return web.Response(text=text)

    # Faults

    async def disconnect_bot(self, code: int = 4000) -> None:
        """Drop the bot's websocket(s), as a network failure would; the bot should RESUME."""
        await self.gateway.disconnect(code)

    async def drop_voice(self, guild: ModelGuild | int, *, code: int | None = None) -> None:
        """Drop the bot's voice websocket in ``guild``: cut as by a network failure (``code``
        None: the client reconnects and identifies again), or closed with ``code`` (e.g. 4015,
        "voice server crashed": the client may resume)."""
        await self.voice_server.drop(guild if isinstance(guild, int) else guild.id, code)

    def voice(self, guild: ModelGuild | int) -> VoiceCall:
        """What the bot did in ``guild``'s voice: its channel, the Opus frames it sent
        (``.frames``, ``.spans()``, ``.pcm()``), its Speaking events, its connections."""
        return self.voice_server.call(guild if isinstance(guild, int) else guild.id)

    @property
    def voice_refusals(self) -> list[VoiceRefusal]:
        """The bot's requests to join a voice channel that Discord left unanswered, and why."""
        return self.voice_server.refusals

    def request_reconnect(self) -> None:
        """Send op 7 RECONNECT; the bot should reconnect and RESUME."""
        self.gateway.request_reconnect()

    def invalidate_session(self, *, resumable: bool = False) -> None:
        """Send op 9 INVALID_SESSION; with ``resumable=False`` the bot must IDENTIFY afresh."""
        self.gateway.invalidate_sessions(resumable=resumable)

    def block_messages(self, *keywords: str, channel: Channel | None = None) -> AutoModBlock:
        """Turn on an AutoMod rule that blocks the bot's messages containing any of
        ``keywords`` (every message if none), in ``channel`` or everywhere: posts and edits are
        answered 400 / 200000 "Message was blocked by automatic moderation". Returns the rule,
        for ``emu.unblock_messages(rule)``; ``emu.rest.automod_blocked`` counts the refusals."""
        block = AutoModBlock(tuple(keywords) or None, None if channel is None else channel.id)
        self.rest.automod_blocks.append(block)
        return block

    def unblock_messages(self, block: AutoModBlock) -> None:
        self.rest.automod_blocks = [b for b in self.rest.automod_blocks if b is not block]

    def inject_fault(self, fault: Fault) -> Fault:
        """Start answering the requests ``fault`` matches with its status; returns it, for
        ``emu.faults.remove(fault)`` or ``emu.faults.hits(fault)``."""
        return self.faults.add(fault)

    # Failures

    def assert_clean(self) -> None:
        """Raise :class:`EmulatorFailureError` listing every rule the bot broke."""
        if self.failures:
            listing = "\n".join(str(f) for f in self.failures)
            raise EmulatorFailureError(f"the bot broke Discord's rules:\n{listing}")

    # The world

    def add_guild(
        self, name: str, *, locale: str = "en-US", shard: tuple[int, int] | None = None
    ) -> Guild:
        """A server the bot is in (a connected bot gets GUILD_CREATE on the guild's shard);
        ``locale`` is the server's preferred language. Guild ids fall on different shards one
        after another, as on Discord; ``shard=(shard_id, shard_count)`` picks an id whose events
        go to that shard of ``shard_count``."""
        guild_id = self.new_guild_id(shard)
        guild = Guild(self, guild_id, name, locale=locale)
        self.guilds.append(guild)
        self.events.dispatch("GUILD_CREATE", guild.payload(), guild_id=guild.id)
        return guild
