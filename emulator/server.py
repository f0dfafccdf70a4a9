"""The emulator: an aiohttp server on loopback that the unmodified discord.py client talks to,
holding the emulated world and the record of every rule the bot broke."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

from aiohttp import web

from emulator.driver import Guild
from emulator.faults import Fault, FaultInjector
from emulator.gateway import (
    INTENT_DIRECT_MESSAGES,
    INTENT_GUILD_MESSAGES,
    INTENT_MESSAGE_CONTENT,
    Gateway,
)
from emulator.interactions import (
    DriverError,
    InteractionFailedError,
    InteractionResult,
    InteractionType,
)
from emulator.model import (
    DM_PERMISSIONS,
    MAX_ATTACHMENT_BYTES,
    Attachment,
    Channel,
    ChannelType,
    Message,
    SnowflakeSource,
    User,
)
from emulator.ratelimit import RateLimiter, RateLimits
from emulator.rest import API_PREFIX, RequestRecord, RestApi
from emulator.spec import OpenApiSpec, load_spec

_log = logging.getLogger(__name__)
T = TypeVar("T")

_RECHECK_SECONDS = 0.02
DEFAULT_TOKEN = "emulator.bot.token"  # noqa: S105 - a fixed fake token for a local fake Discord


@dataclass(frozen=True)
class Failure:
    """A rule the bot broke, as Discord would have rejected or failed it.

    ``kind`` is one of: ``spec`` (request not allowed by Discord's OpenAPI spec), ``rule`` (a
    Discord limit such as 2000 characters), ``unauthorized``, ``double_ack``, ``late_ack``,
    ``interaction_failed`` (not acknowledged in time), ``bad_callback``, ``unknown_interaction``,
    ``unknown_webhook``, ``followup_before_ack``, ``dm_closed`` (403 / 50007),
    ``missing_permissions`` (403 / 50013), ``unanswered`` (an interaction still not acknowledged
    when the emulator stopped) and ``unsupported`` (a real route the emulator does not
    implement).
    """

    kind: str
    message: str
    details: tuple[str, ...] = field(default=())

    def __str__(self) -> str:
        lines = [f"[{self.kind}] {self.message}", *(f"    {d}" for d in self.details)]
        return "\n".join(lines)


class EmulatorFailureError(AssertionError):
    """Raised by :meth:`Emulator.assert_clean` when the bot broke Discord's rules."""


class Emulator:
    """A local Discord. Use as ``async with Emulator() as emu:``; add guilds, point a bot at
    ``emu.api_base_url`` / ``emu.gateway_url`` with ``emu.token``, then act as members.

    ``rate_limits``: False (default, fast tests), True (Discord's limits) or a
    :class:`RateLimits`. ``faults``: :class:`~emulator.faults.Fault` rules answering chosen
    requests with a 429 or a 5xx (more with :meth:`inject_fault`; ``fault_seed`` seeds which
    requests a fractional fault hits). ``ack_timeout``: seconds a bot has to acknowledge an interaction (3 on
    Discord). ``strict``: leaving the ``async with`` block raises if failures were recorded and
    not taken with :meth:`take_failures`. ``spec_path``: Discord's OpenAPI spec (default: see
    :func:`emulator.spec.default_spec_path`); without it requests are not validated.
    """

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        bot_name: str = "Game Night",
        rate_limits: bool | RateLimits = False,
        faults: Sequence[Fault] = (),
        fault_seed: int = 0,
        ack_timeout: float = 3.0,
        strict: bool = True,
        spec_path: Path | None = None,
        validate: bool = True,
        heartbeat_interval: float = 41.25,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        self.token = token
        self.ack_timeout = ack_timeout
        self.strict = strict
        self.heartbeat_interval = heartbeat_interval
        self._host = host
        self._port = port
        self._ids = SnowflakeSource()
        self.spec: OpenApiSpec | None = load_spec(spec_path) if validate else None
        if isinstance(rate_limits, RateLimits):
            self.rate_limiter: RateLimiter | None = RateLimiter(rate_limits)
        else:
            self.rate_limiter = RateLimiter(RateLimits()) if rate_limits else None
        self.rate_limited = 0
        self.faults = FaultInjector(tuple(faults), seed=fault_seed)

        self.bot_user = User(self.new_id(), bot_name, bot=True)
        self.owner_user = User(self.new_id(), "app-owner")
        self.application_id = self.bot_user.id
        self.guilds: list[Guild] = []
        self.users: dict[int, User] = {
            self.bot_user.id: self.bot_user,
            self.owner_user.id: self.owner_user,
        }
        self.channels: dict[int, Channel] = {}
        self._dm_channels: dict[int, Channel] = {}
        self.attachments: dict[int, Attachment] = {}
        self._commands: dict[int | None, list[dict[str, Any]]] = {}

        self.failures: list[Failure] = []
        self.requests: list[RequestRecord] = []
        self.interactions: list[InteractionResult] = []
        self.interactions_by_id: dict[int, InteractionResult] = {}
        self.interactions_by_token: dict[str, InteractionResult] = {}

        self.gateway = Gateway(self)
        self.rest = RestApi(self)
        self._changed = asyncio.Event()
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
        if self.spec is None:
            _log.warning(
                "Discord emulator at %s: request validation is OFF (no OpenAPI spec)",
                self._base_http,
            )

    async def stop(self) -> None:
        for result in self.interactions:
            if result.timer is not None:
                result.timer.cancel()
                result.timer = None
                if result.response_type is None and result.failure is None:
                    # A test that ends first must not hide an interaction the bot ignored.
                    result.failure = "never acknowledged (the emulator stopped first)"
                    self.record_failure("unanswered", f"{result.describe()}: {result.failure}")
        await self.gateway.close()
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
    def cdn_base_url(self) -> str:
        return self._base_http

    @property
    def validation_enabled(self) -> bool:
        return self.spec is not None

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

    # Waiting

    def notify(self) -> None:
        """Wake everything waiting in :meth:`wait_until` to re-check its condition."""
        event, self._changed = self._changed, asyncio.Event()
        event.set()

    async def wait_until(
        self,
        check: Callable[[], T | None],
        timeout: float,  # noqa: ASYNC109 - a deadline for the wait is the point
        describe: Callable[[], str],
    ) -> T:
        """Re-run ``check`` on every change until it returns something truthy; return that."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            outcome = check()
            if outcome:
                return outcome
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"timed out after {timeout:g} s waiting for {describe()}")
            event = self._changed
            try:
                # Re-check now and then too: conditions may look at the bot's own state.
                await asyncio.wait_for(event.wait(), min(remaining, _RECHECK_SECONDS))
            except TimeoutError:
                continue

    async def wait_for_bot(self, timeout: float = 10.0) -> None:  # noqa: ASYNC109 - a deadline for the wait is the point
        """Wait until a bot has a live gateway session (after IDENTIFY or RESUME)."""
        await self.wait_until(
            lambda: bool(self.gateway.live_sessions()), timeout, lambda: "a bot on the gateway"
        )

    @property
    def bot_connected(self) -> bool:
        return bool(self.gateway.live_sessions())

    # Faults

    async def disconnect_bot(self, code: int = 4000) -> None:
        """Drop the bot's websocket(s), as a network failure would; the bot should RESUME."""
        await self.gateway.disconnect(code)

    def request_reconnect(self) -> None:
        """Send op 7 RECONNECT; the bot should reconnect and RESUME."""
        self.gateway.request_reconnect()

    def invalidate_session(self, *, resumable: bool = False) -> None:
        """Send op 9 INVALID_SESSION; with ``resumable=False`` the bot must IDENTIFY afresh."""
        self.gateway.invalidate_sessions(resumable=resumable)

    def inject_fault(self, fault: Fault) -> Fault:
        """Start answering the requests ``fault`` matches with its status; returns it, for
        ``emu.faults.remove(fault)`` or ``emu.faults.hits(fault)``."""
        return self.faults.add(fault)

    # Failures

    def record_failure(self, kind: str, message: str, details: Iterable[str] = ()) -> None:
        failure = Failure(kind, message, tuple(details))
        _log.warning("Discord emulator: %s", failure)
        self.failures.append(failure)
        self.notify()

    def take_failures(self, *kinds: str) -> list[Failure]:
        """Remove and return the recorded failures of these kinds (all if none given), for
        tests that provoke them on purpose."""
        taken = [f for f in self.failures if not kinds or f.kind in kinds]
        self.failures = [f for f in self.failures if f not in taken]
        return taken

    def assert_clean(self) -> None:
        """Raise :class:`EmulatorFailureError` listing every rule the bot broke."""
        if self.failures:
            listing = "\n".join(str(f) for f in self.failures)
            raise EmulatorFailureError(f"the bot broke Discord's rules:\n{listing}")

    # The world

    def new_id(self) -> int:
        return self._ids.next()

    def new_user(self, name: str, *, dms_open: bool = True, locale: str = "en-US") -> User:
        user = User(self.new_id(), name, dms_open=dms_open, locale=locale)
        self.users[user.id] = user
        return user

    def get_user(self, user_id: int) -> User | None:
        return self.users.get(user_id)

    def add_guild(self, name: str, *, locale: str = "en-US") -> Guild:
        """A server the bot is in (a connected bot gets GUILD_CREATE); ``locale`` is the
        server's preferred language."""
        guild = Guild(self, self.new_id(), name, locale=locale)
        self.guilds.append(guild)
        self.gateway.dispatch("GUILD_CREATE", guild.payload(), guild_id=guild.id)
        return guild

    def get_guild(self, guild_id: int) -> Guild | None:
        return next((g for g in self.guilds if g.id == guild_id), None)

    def register_channel(self, channel: Channel) -> None:
        self.channels[channel.id] = channel

    def dm_channel_of(self, user: User) -> Channel | None:
        return self._dm_channels.get(user.id)

    def open_dm_channel(self, user: User) -> Channel:
        channel = self._dm_channels.get(user.id)
        if channel is None:
            channel = Channel(self, self.new_id(), f"dm-{user.name}", None, ChannelType.DM, user)
            self._dm_channels[user.id] = channel
            self.register_channel(channel)
        return channel

    def dispatch_to_bot(
        self, event: str, data: dict[str, Any], *, intent: int | None = None
    ) -> None:
        guild_id = data.get("guild_id") or (data.get("id") if event == "GUILD_CREATE" else None)
        self.gateway.dispatch(
            event, data, intent=intent, guild_id=None if guild_id is None else int(guild_id)
        )

    # Commands

    @property
    def synced_commands(self) -> list[dict[str, Any]]:
        """Every synced command payload, global ones first (guild ones carry ``guild_id``)."""
        commands = list(self._commands.get(None, []))
        for scope, listed in self._commands.items():
            if scope is not None:
                commands.extend(listed)
        return commands

    def command(self, name: str, guild: Guild | None = None) -> dict[str, Any]:
        """The synced command ``name`` (guild commands of ``guild`` first, then global ones)."""
        for candidate in self.commands_visible_in(guild):
            if candidate["name"] == name:
                return candidate
        raise LookupError(
            f"no synced command {name!r}; synced: {[c['name'] for c in self.synced_commands]}"
        )

    def commands_in_scope(self, scope: int | None) -> list[dict[str, Any]]:
        return list(self._commands.get(scope, []))

    def commands_visible_in(self, guild: Guild | None) -> list[dict[str, Any]]:
        visible = self.commands_in_scope(guild.id) if guild is not None else []
        names = {c["name"] for c in visible}
        for command in self.commands_in_scope(None):
            if command["name"] in names:
                continue
            contexts = command.get("contexts")
            if guild is None and (
                command.get("dm_permission") is False
                or (contexts is not None and 1 not in contexts)
            ):
                continue
            if guild is not None and contexts is not None and 0 not in contexts:
                continue
            visible.append(command)
        return visible

    def _stored_command(
        self, scope: int | None, body: dict[str, Any], old: dict[str, Any] | None
    ) -> dict[str, Any]:
        permissions = body.get("default_member_permissions")
        stored: dict[str, Any] = {
            "id": old["id"] if old else str(self.new_id()),
            "application_id": str(self.application_id),
            "version": str(self.new_id()),
            "type": int(body.get("type", 1)),
            "name": body["name"],
            "description": body.get("description", ""),
            "options": list(body.get("options") or []),
            "default_member_permissions": (
                None if permissions is None else str(permissions)  # Discord answers a string
            ),
            "nsfw": bool(body.get("nsfw", False)),
            "name_localizations": body.get("name_localizations"),
            "description_localizations": body.get("description_localizations"),
            "contexts": body.get("contexts"),
            "integration_types": body.get("integration_types") or [0],
        }
        if scope is None:
            stored["dm_permission"] = body.get("dm_permission", True)
        else:
            stored["guild_id"] = str(scope)
        return stored

    def replace_commands(
        self, scope: int | None, bodies: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        old = {(c["type"], c["name"]): c for c in self._commands.get(scope, [])}
        stored = [
            self._stored_command(scope, body, old.get((int(body.get("type", 1)), body["name"])))
            for body in bodies
        ]
        self._commands[scope] = stored
        self.notify()
        return stored

    def upsert_command(self, scope: int | None, body: dict[str, Any]) -> dict[str, Any]:
        current = self._commands.setdefault(scope, [])
        key = (int(body.get("type", 1)), body["name"])
        old = next((c for c in current if (c["type"], c["name"]) == key), None)
        stored = self._stored_command(scope, body, old)
        if old is not None:
            current[current.index(old)] = stored
        else:
            current.append(stored)
        self.notify()
        return stored

    def delete_command(self, scope: int | None, command_id: str) -> None:
        self._commands[scope] = [c for c in self._commands.get(scope, []) if c["id"] != command_id]
        self.notify()

    # Messages

    def message_payload(self, message: Message) -> dict[str, Any]:
        data = message.payload()
        guild = message.channel.guild
        if guild is not None:
            data["guild_id"] = str(guild.id)
        return data

    def _gateway_message(self, message: Message) -> dict[str, Any]:
        data = self.message_payload(message)
        guild = message.channel.guild
        if guild is not None:
            if message.author is self.bot_user:
                member = guild.bot_member_payload()
                member.pop("user", None)
                data["member"] = member
            else:
                found = guild.member_of(message.author)
                if found is not None:
                    data["member"] = found.payload(with_user=False)
        return data

    def _dispatch_message(self, event: str, message: Message) -> None:
        if message.ephemeral_for is not None:
            return  # ephemeral messages are never dispatched
        guild = message.channel.guild
        intent = INTENT_GUILD_MESSAGES if guild is not None else INTENT_DIRECT_MESSAGES
        data = self._gateway_message(message)
        guild_id = None if guild is None else guild.id
        needs_content_intent = (
            guild is not None
            and message.author is not self.bot_user
            and f"<@{self.bot_user.id}>" not in message.content
        )
        if not needs_content_intent:
            self.gateway.dispatch(event, data, intent=intent, guild_id=guild_id)
            return
        # Without MESSAGE_CONTENT a bot sees other people's messages emptied, as on Discord.
        redacted = {**data, "content": "", "embeds": [], "attachments": [], "components": []}
        for session in self.gateway.sessions.values():
            if session.invalidated or not session.intents & intent or not session.wants(guild_id):
                continue
            chosen = data if session.intents & INTENT_MESSAGE_CONTENT else redacted
            self.gateway.dispatch_one(session, event, chosen)

    def message_created(self, message: Message) -> None:
        message.channel.all_messages.append(message)
        self._dispatch_message("MESSAGE_CREATE", message)
        self.notify()

    def message_updated(self, message: Message) -> None:
        self._dispatch_message("MESSAGE_UPDATE", message)
        self.notify()

    def message_deleted(self, message: Message) -> None:
        message.deleted = True
        if message.ephemeral_for is None:
            data: dict[str, Any] = {"id": str(message.id), "channel_id": str(message.channel.id)}
            guild = message.channel.guild
            intent = INTENT_DIRECT_MESSAGES
            if guild is not None:
                data["guild_id"] = str(guild.id)
                intent = INTENT_GUILD_MESSAGES
            self.gateway.dispatch(
                "MESSAGE_DELETE", data, intent=intent, guild_id=None if guild is None else guild.id
            )
        self.notify()

    def post_user_message(self, user: User, channel: Channel, content: str) -> Message:
        message = Message(self.new_id(), channel, user, content=content)
        self.message_created(message)
        return message

    # Interactions

    def interaction_metadata(self, result: InteractionResult) -> dict[str, Any]:
        guild = result.channel.guild
        owners = {"0": str(guild.id)} if guild is not None else {"1": str(result.user.id)}
        data: dict[str, Any] = {
            "id": str(result.id),
            "type": int(result.type),
            "user": result.user.payload(),
            "authorizing_integration_owners": owners,
        }
        if result.type == InteractionType.APPLICATION_COMMAND and result.command_name:
            data["name"] = result.command_name
            data["command_type"] = 1
        if result.source_message is not None and result.type == InteractionType.MESSAGE_COMPONENT:
            data["interacted_message_id"] = str(result.source_message.id)
        if result.parent is not None and result.type == InteractionType.MODAL_SUBMIT:
            data["triggering_interaction_metadata"] = self.interaction_metadata(result.parent)
        return data

    async def start_interaction(
        self,
        kind: InteractionType,
        user: User,
        channel: Channel,
        data: dict[str, Any],
        *,
        source_message: Message | None = None,
        command_name: str | None = None,
        custom_id: str | None = None,
        parent: InteractionResult | None = None,
        connect_timeout: float = 10.0,
    ) -> InteractionResult:
        """Send INTERACTION_CREATE to the bot and start Discord's acknowledgement clock."""
        if not self.bot_connected:
            try:
                await self.wait_for_bot(connect_timeout)
            except TimeoutError as error:
                raise InteractionFailedError(
                    f"no bot is connected to receive {kind.name.lower()} from {user.name}"
                ) from error
        interaction_id = self.new_id()
        token = "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48)
        guild = channel.guild
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": int(kind),
            "data": data,
            "token": token,
            "version": 1,
            "channel_id": str(channel.id),
            "locale": user.locale,
            "entitlements": [],
            "attachment_size_limit": MAX_ATTACHMENT_BYTES,
            "authorizing_integration_owners": (
                {"0": str(guild.id)} if guild is not None else {"1": str(user.id)}
            ),
            "context": 0 if guild is not None else 1,
        }
        channel_data = channel.payload()
        if guild is not None:
            member = guild.member_of(user)
            if member is None:
                raise DriverError(f"{user.name} is not a member of {guild.name}")
            channel_data["permissions"] = str(member.permissions)
            payload.update(
                {
                    "guild_id": str(guild.id),
                    "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
                    "guild_locale": guild.locale,
                    "member": {**member.payload(), "permissions": str(member.permissions)},
                    "app_permissions": str(channel.bot_permissions()),
                }
            )
        else:
            payload["user"] = user.payload()
            payload["app_permissions"] = str(int(DM_PERMISSIONS))
        payload["channel"] = channel_data
        if source_message is not None:
            payload["message"] = self.message_payload(source_message)
        loop = asyncio.get_running_loop()
        result = InteractionResult(
            self,
            interaction_id,
            token,
            kind,
            user,
            channel,
            payload,
            source_message=source_message,
            command_name=command_name,
            custom_id=custom_id,
            parent=parent,
            created_at=loop.time(),
        )
        self.interactions.append(result)
        self.interactions_by_id[interaction_id] = result
        self.interactions_by_token[token] = result
        result.timer = loop.call_later(self.ack_timeout, self._acknowledgement_overdue, result)
        self.gateway.dispatch(
            "INTERACTION_CREATE", payload, guild_id=None if guild is None else guild.id
        )
        return result

    def _acknowledgement_overdue(self, result: InteractionResult) -> None:
        result.timer = None
        if result.response_type is not None:
            return
        result.failure = f"This interaction failed: not acknowledged within {self.ack_timeout:g} s"
        self.record_failure("interaction_failed", f"{result.describe()}: {result.failure}")

    def acknowledge(self, result: InteractionResult, kind: int, message: Message | None) -> None:
        result.response_type = kind
        result.acknowledged_at = asyncio.get_running_loop().time()
        result.message = message
        if message is not None:
            result.edits_at_ack = message.edits
        if result.timer is not None:
            result.timer.cancel()
            result.timer = None
        self.notify()
