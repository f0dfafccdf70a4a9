"""The HTTP API under ``/api/v10``: every request is checked (auth, rate limits, Discord's OpenAPI
spec) before a handler emulates it; rule violations are recorded as failures on the emulator."""

from __future__ import annotations

import asyncio
import json
import re
import time
import urllib.parse
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import BodyPartReader, web

from emulator.faults import AUTOMOD_BLOCKED, AutoModBlock, FaultInjector
from emulator.gateway import Gateway
from emulator.interactions import (
    ALLOWED_CALLBACKS,
    CallbackType,
    InteractionResult,
    InteractionType,
    InteractionWorld,
)
from emulator.latency import LatencySource
from emulator.model import (
    EXTERNAL_EVENT,
    MAX_ATTACHMENT_BYTES,
    MAX_UNCOMPLETED_EVENTS,
    Attachment,
    Channel,
    EventStatus,
    Guild,
    Message,
    MessageFlag,
    Permission,
    event_time,
    now_iso,
    number_components,
)
from emulator.ratelimit import InvalidRequests, RateLimiter, bucket_of
from emulator.rules import (
    MAX_ATTACHMENTS,
    MAX_COMMANDS_PER_TYPE,
    command_rule_errors,
    message_rule_errors,
    trim_embeds,
)
from emulator.spec import OpenApiSpec, RouteTable

API_PREFIX = "/api/v10"
# The status changes Discord allows ("Valid Guild Scheduled Event Status Transitions"); once
# COMPLETED or CANCELED, "the status can no longer be updated".
_EVENT_MOVES = {
    EventStatus.SCHEDULED: (EventStatus.ACTIVE, EventStatus.CANCELED),
    EventStatus.ACTIVE: (EventStatus.COMPLETED,),
}
_FINISHED_EVENT = (EventStatus.COMPLETED, EventStatus.CANCELED)
NONCE_WINDOW = 300.0  # seconds Discord remembers an enforced nonce
COMMAND_CREATES_PER_DAY = 200  # "application command creates per day, per guild"
_DAY = 24 * 60 * 60.0
# A Cloudflare ban: Discord's proxy answers 429 with its own page (no Via, not JSON).
CLOUDFLARE_BAN_BODY = "error code: 1015"
_JSON = "application/json"
_OCTETS = "application/octet-stream"  # what a body without a Content-Type is
_FORM = "application/x-www-form-urlencoded"
_FILE_FIELD = re.compile(r"^files\[(\d+)\]$")
_THREAD_ARCHIVED = 50083  # "Tried to perform an operation on an archived thread"
# Flags a bot may set on a message it sends; the rest are Discord's to set.
_SETTABLE_FLAGS = (1 << 2) | (1 << 12) | int(MessageFlag.IS_COMPONENTS_V2)
_NO_AUTH_PREFIXES = ("/interactions/", "/webhooks/{webhook_id}/{webhook_token}")


@dataclass(frozen=True)
class UploadedFile:
    index: int
    filename: str
    data: bytes = field(repr=False)


@dataclass
class ApiRequest:
    method: str
    path: str
    template: str
    params: dict[str, str]
    query: dict[str, list[str]]
    body: Any
    media_type: str | None
    files: list[UploadedFile]

    def flag(self, name: str) -> bool:
        values = self.query.get(name) or [""]
        return values[-1].lower() in ("true", "1")


@dataclass(frozen=True)
class RequestRecord:
    """One REST request the bot made, for tests to inspect."""

    method: str
    path: str
    route: str | None
    body: Any
    status: int
    files: tuple[str, ...] = ()
    response: Any = None
    at: float = field(default_factory=time.monotonic)  # when it was answered
    injected: bool = False  # answered by an injected fault (see emulator.faults)
    client_port: int | None = None  # the bot's end of the connection it came over


class ApiError(Exception):
    """An error answer in Discord's format; ``failure`` names the rule broken, if the request
    broke one (then it is recorded on the emulator and fails the test)."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        *,
        failure: str | None = None,
        details: list[str] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.failure = failure
        self.details = details or []
        self.headers = headers or {}

    def body(self) -> dict[str, Any]:
        data: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.details:
            data["errors"] = {
                "request": {"_errors": [{"code": "INVALID", "message": d} for d in self.details]}
            }
        return data


def json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """JSON with exactly ``Content-Type: application/json`` (discord.py rejects a charset)."""
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={**(headers or {}), "Content-Type": _JSON},
    )


def _decoded(response: web.StreamResponse) -> Any:
    if not isinstance(response, web.Response) or response.content_type != _JSON:
        return None
    raw = response.body
    return json.loads(raw) if isinstance(raw, bytes) and raw else None


Handler = Callable[[ApiRequest], Awaitable[tuple[int, Any]]]


def _trim_message_embeds(body: Any) -> Any:
    """The body with its embeds' text trimmed as Discord trims it before its length checks: a
    message body's own embeds, or those of an interaction response's ``data``."""
    if isinstance(body, dict) and isinstance(body.get("data"), dict):
        data = trim_embeds(body["data"])
        return body if data is body["data"] else {**body, "data": data}
    return trim_embeds(body)


class RestApi:
    """Discord's HTTP API over the world: checks each request, then emulates it; keeps the
    record of every request (:attr:`requests`) and counts the 429s it answered."""

    def __init__(
        self,
        world: InteractionWorld,
        gateway: Gateway,
        *,
        spec: OpenApiSpec | None = None,
        rate_limiter: RateLimiter | None = None,
        faults: FaultInjector | None = None,
        latency: LatencySource | None = None,
        invalid_requests: InvalidRequests | None = None,
        command_rules: bool = False,
        command_creates_per_day: int = COMMAND_CREATES_PER_DAY,
    ) -> None:
        self._world = world
        self._gateway = gateway
        self.spec = spec
        self.rate_limiter = rate_limiter
        self.faults = FaultInjector() if faults is None else faults
        self.latency = LatencySource(None) if latency is None else latency
        self.invalid_requests = InvalidRequests() if invalid_requests is None else invalid_requests
        self.command_rules = command_rules
        self.command_creates_per_day = command_creates_per_day
        # Command creates per scope (a guild id, or None for global ones) in the last 24 h.
        self._command_creates: dict[int | None, deque[float]] = {}
        self.automod_blocks: list[AutoModBlock] = []
        self.automod_blocked = 0  # messages refused by an AutoMod block
        self.events_limit_refused = 0  # scheduled events refused: the server had 100 (30038)
        self.cdn_base_url = ""  # where attachments are served (set by the server)
        self.requests: list[RequestRecord] = []
        self.rate_limited = 0  # requests answered 429 by the rate limits
        self._recent_nonces: dict[tuple[int, str], tuple[Message, float]] = {}
        self.handlers: dict[tuple[str, str], Handler] = {
            ("GET", "/users/@me"): self.get_me,
            ("GET", "/users/{user_id}"): self.get_user,
            ("GET", "/oauth2/applications/@me"): self.get_application,
            ("GET", "/applications/@me"): self.get_application,
            ("GET", "/gateway"): self.get_gateway,
            ("GET", "/gateway/bot"): self.get_gateway_bot,
            ("GET", "/applications/{application_id}/commands"): self.list_commands,
            ("PUT", "/applications/{application_id}/commands"): self.put_commands,
            ("POST", "/applications/{application_id}/commands"): self.post_command,
            ("GET", "/applications/{application_id}/commands/{command_id}"): self.get_command,
            ("PATCH", "/applications/{application_id}/commands/{command_id}"): self.patch_command,
            ("DELETE", "/applications/{application_id}/commands/{command_id}"): self.delete_command,
            (
                "GET",
                "/applications/{application_id}/guilds/{guild_id}/commands",
            ): self.list_commands,
            ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands"): self.put_commands,
            (
                "POST",
                "/applications/{application_id}/guilds/{guild_id}/commands",
            ): self.post_command,
            (
                "GET",
                "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}",
            ): self.get_command,
            (
                "PATCH",
                "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}",
            ): self.patch_command,
            (
                "DELETE",
                "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}",
            ): self.delete_command,
            ("POST", "/users/@me/channels"): self.open_dm,
            ("GET", "/channels/{channel_id}"): self.get_channel,
            ("GET", "/channels/{channel_id}/messages"): self.list_messages,
            ("POST", "/channels/{channel_id}/messages"): self.create_message,
            ("GET", "/channels/{channel_id}/messages/{message_id}"): self.get_message,
            ("PATCH", "/channels/{channel_id}/messages/{message_id}"): self.edit_message,
            ("DELETE", "/channels/{channel_id}/messages/{message_id}"): self.delete_message,
            (
                "PUT",
                "/channels/{channel_id}/messages/{message_id}/reactions/{emoji_name}/@me",
            ): self.add_reaction,
            (
                "DELETE",
                "/channels/{channel_id}/messages/{message_id}/reactions/{emoji_name}/@me",
            ): self.remove_reaction,
            (
                "POST",
                "/interactions/{interaction_id}/{interaction_token}/callback",
            ): self.interaction_callback,
            ("POST", "/channels/{channel_id}/typing"): self.typing,
            ("PUT", "/channels/{channel_id}/messages/pins/{message_id}"): self.pin,
            ("DELETE", "/channels/{channel_id}/messages/pins/{message_id}"): self.unpin,
            ("PUT", "/channels/{channel_id}/pins/{message_id}"): self.pin,
            ("DELETE", "/channels/{channel_id}/pins/{message_id}"): self.unpin,
            ("GET", "/users/@me/guilds"): self.my_guilds,
            ("POST", "/webhooks/{webhook_id}/{webhook_token}"): self.execute_webhook,
            (
                "GET",
                "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
            ): self.get_webhook_message,
            (
                "PATCH",
                "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
            ): self.edit_webhook_message,
            (
                "DELETE",
                "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
            ): self.delete_webhook_message,
            (
                "GET",
                "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
            ): self.get_webhook_message,
            (
                "PATCH",
                "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
            ): self.edit_webhook_message,
            (
                "DELETE",
                "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
            ): self.delete_webhook_message,
            ("GET", "/guilds/{guild_id}"): self.get_guild,
            ("GET", "/guilds/{guild_id}/channels"): self.get_guild_channels,
            ("GET", "/guilds/{guild_id}/roles"): self.get_guild_roles,
            ("GET", "/guilds/{guild_id}/members/{user_id}"): self.get_member,
            ("GET", "/guilds/{guild_id}/scheduled-events"): self.list_events,
            ("POST", "/guilds/{guild_id}/scheduled-events"): self.create_event,
            (
                "GET",
                "/guilds/{guild_id}/scheduled-events/{guild_scheduled_event_id}",
            ): self.get_event,
            (
                "PATCH",
                "/guilds/{guild_id}/scheduled-events/{guild_scheduled_event_id}",
            ): self.edit_event,
            (
                "DELETE",
                "/guilds/{guild_id}/scheduled-events/{guild_scheduled_event_id}",
            ): self.delete_event,
        }
        self._own_routes = RouteTable(sorted({template for _, template in self.handlers}))

    # The request pipeline

    async def handle(self, request: web.Request) -> web.StreamResponse:
        method = request.method.upper()
        path = "/" + request.match_info["tail"]
        query: dict[str, list[str]] = {}
        for key, value in request.query.items():
            query.setdefault(key, []).append(value)
        record_body: Any = None
        files: list[UploadedFile] = []
        latency = self.latency
        if latency.enabled:  # the request's way to Discord: it takes effect when it arrives
            await asyncio.sleep(latency.draw())
        try:
            body, media_type, files = await self._read_body(request)
            record_body = body
            if self.invalid_requests.banned:
                response: web.StreamResponse = web.Response(
                    text=CLOUDFLARE_BAN_BODY, status=429, content_type="text/html"
                )
                injected = False
            else:
                response, injected = await self._process(
                    request, method, path, query, body, media_type, files
                )
                self.invalid_requests.record(response.status, response.headers)
        except ApiError as error:
            if error.failure is not None:
                self._world.record_failure(
                    error.failure, f"{method} {path}: {error.message}", error.details
                )
            response = json_response(error.body(), error.status, error.headers)
            injected = False
            self.invalid_requests.record(response.status, response.headers)
        peer = request.transport.get_extra_info("peername") if request.transport else None
        self.requests.append(
            RequestRecord(
                method,
                path,
                self.route_of(path),
                record_body,
                response.status,
                tuple(f.filename for f in files),
                _decoded(response),
                injected=injected,
                client_port=peer[1] if isinstance(peer, tuple) else None,
            )
        )
        if latency.enabled:  # the answer's way back
            await asyncio.sleep(latency.draw())
        return response

    def route_of(self, path: str) -> str | None:
        spec = self.spec
        found = spec.match(path) if spec is not None else self._own_routes.match(path)
        return None if found is None else found.template

    async def _read_body(self, request: web.Request) -> tuple[Any, str | None, list[UploadedFile]]:
        if not request.body_exists:
            return None, None, []
        # (aiohttp's content_type parses the header with the email package: a tenth of the
        # emulator's CPU in a rush of clicks.)
        media_type = request.headers.get("Content-Type", _OCTETS).partition(";")[0].strip().lower()
        if media_type == "multipart/form-data":
            return await self._read_multipart(request)
        raw = await request.read()
        if not raw:
            return None, None, []
        if media_type == _FORM:
            # Form params, as Discord's spec accepts for some routes ("JSON/Form Params").
            try:
                pairs = urllib.parse.parse_qsl(raw.decode("utf-8"), keep_blank_values=True)
            except UnicodeDecodeError as error:
                raise ApiError(400, 50035, "the form is not UTF-8", failure="spec") from error
            return {name: self._form_value(request, name, text) for name, text in pairs}, _FORM, []
        if media_type != _JSON:
            raise ApiError(
                415,
                0,
                f"unsupported Content-Type {media_type!r}: send application/json, "
                "multipart/form-data or (where the spec allows it) a form",
                failure="spec",
            )
        try:
            return json.loads(raw), _JSON, []
        except ValueError as error:
            raise ApiError(
                400, 50109, "The request body contains invalid JSON.", failure="spec"
            ) from error

    async def _read_multipart(
        self, request: web.Request
    ) -> tuple[Any, str | None, list[UploadedFile]]:
        """A multipart body as Discord reads it (Reference: Uploading Files): ``payload_json``
        (optional), files in parts named ``files[n]`` (any n, each name once, at most 10 files)
        and any other part as a form field of the same name (``content``, ``tts``...), its text
        read as the value the spec gives that field (payload_json wins where both set one)."""
        reader = await request.multipart()
        payload: Any = None
        fields: dict[str, str] = {}
        files: list[UploadedFile] = []
        seen_files: set[str] = set()
        while True:
            part = await reader.next()
            if part is None:
                break
            if not isinstance(part, BodyPartReader):
                raise ApiError(400, 50035, "nested multipart is not supported", failure="spec")
            name = part.name or ""
            data = await part.read()
            matched = _FILE_FIELD.match(name)
            if name == "payload_json":
                try:
                    payload = json.loads(data)
                except ValueError as error:
                    raise ApiError(
                        400, 50109, "payload_json is not valid JSON", failure="spec"
                    ) from error
            elif matched:
                if name in seen_files:
                    raise ApiError(
                        400, 50035, f"{name}: each files[n] part must be named once", failure="spec"
                    )
                seen_files.add(name)
                index = int(matched.group(1))
                files.append(UploadedFile(index, part.filename or f"file{index}", bytes(data)))
            else:
                try:
                    fields[name] = bytes(data).decode("utf-8")
                except UnicodeDecodeError as error:
                    raise ApiError(
                        400, 50035, f"form field {name!r} is not UTF-8 text", failure="spec"
                    ) from error
        if len(files) > MAX_ATTACHMENTS:
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                failure="rule",
                details=[f"at most {MAX_ATTACHMENTS} files in a message (got {len(files)})"],
            )
        if fields:
            if payload is not None and not isinstance(payload, dict):
                raise ApiError(400, 50035, "payload_json must be an object", failure="spec")
            form_values = {
                name: self._form_value(request, name, text) for name, text in fields.items()
            }
            payload = {**form_values, **(payload or {})}
        return payload, "multipart/form-data", files

    def _form_value(self, request: web.Request, name: str, text: str) -> Any:
        """A form field's text as the value its route's spec expects (``"true"`` for a boolean,
        digits for an integer, JSON for an object or array); the text itself otherwise."""
        if self.spec is None:
            return text
        path = "/" + request.match_info["tail"]
        return self.spec.form_field_value(request.method.upper(), path, name, text)

    async def _process(
        self,
        request: web.Request,
        method: str,
        path: str,
        query: dict[str, list[str]],
        body: Any,
        media_type: str | None,
        files: list[UploadedFile],
    ) -> tuple[web.StreamResponse, bool]:
        """The answer, and whether it is an injected fault rather than the real one."""
        body = _trim_message_embeds(body)
        spec = self.spec
        if spec is not None:
            route, errors = spec.validate_request(method, path, query, body, media_type)
        else:
            route, errors = self._own_routes.match(path), []
        if route is None:
            raise ApiError(404, 0, "404: Not Found", failure="spec", details=errors)
        template = route.template
        needs_auth = not template.startswith(_NO_AUTH_PREFIXES)
        if needs_auth and request.headers.get("Authorization") != f"Bot {self._world.token}":
            raise ApiError(
                401,
                0,
                "401: Unauthorized (send Authorization: Bot <token>)",
                failure="unauthorized",
            )

        headers: dict[str, str] = {}
        limiter = self.rate_limiter
        if limiter is not None:
            found = bucket_of(method, template, route.path_params)
            kind = "" if found is None else found[0]
            bucket = None if found is None else f"{found[0]}:{found[1]}"
            verdict = limiter.check(bucket, counts_globally=needs_auth, kind=kind)
            headers = verdict.headers
            if not verdict.allowed:
                self.rate_limited += 1
                body_429 = {
                    "message": "You are being rate limited.",
                    "retry_after": round(verdict.retry_after, 3),
                    "global": verdict.is_global,
                    "code": 0,
                }
                # discord.py only retries a 429 that came through Discord's proxy (Via header).
                return json_response(body_429, 429, {**headers, "Via": "1.1 google"}), False

        if errors:
            raise ApiError(
                400,
                50035,
                "Invalid Form Body (rejected by Discord's OpenAPI spec)",
                failure="spec",
                details=errors,
            )
        handler = self.handlers.get((method, template))
        if handler is None:
            raise ApiError(
                404,
                0,
                f"the emulator does not implement {method} {template}",
                failure="unsupported",
            )
        fault = self.faults.pick(method, path, template)
        if fault is not None and not fault.after_handling:
            return json_response(fault.answer(), fault.status, fault.headers()), True
        api_request = ApiRequest(
            method, path, template, route.path_params, query, body, media_type, files
        )
        status, data = await handler(api_request)
        if fault is not None:  # it took effect, but the bot never hears so
            return json_response(fault.answer(), fault.status, fault.headers()), True
        if status == 204:
            return web.Response(status=204, headers=headers), False
        return json_response(data, status, headers), False

    # Users, application, gateway

    async def get_me(self, request: ApiRequest) -> tuple[int, Any]:
        me = self._world.bot_user.payload()
        me.update({"verified": True, "mfa_enabled": False, "locale": "en-US", "premium_type": 0})
        return 200, me

    async def get_user(self, request: ApiRequest) -> tuple[int, Any]:
        user = self._world.get_user(int(request.params["user_id"]))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return 200, user.payload()

    async def get_application(self, request: ApiRequest) -> tuple[int, Any]:
        emu = self._world
        return 200, {
            "id": str(emu.application_id),
            "name": emu.bot_user.name,
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "owner": emu.owner_user.payload(),
            "team": None,
            "flags": 0,
            "bot": emu.bot_user.payload(),
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "role_connections_verification_url": None,
            "approximate_guild_count": len(emu.guilds),
            "approximate_user_install_count": 0,
            "approximate_user_authorization_count": 0,
            "explicit_content_filter": 0,
            "flags_new": "0",
            "eligible_oauth2_scopes": ["bot", "applications.commands"],
        }

    async def get_gateway(self, request: ApiRequest) -> tuple[int, Any]:
        return 200, {"url": self._gateway.url}

    async def get_gateway_bot(self, request: ApiRequest) -> tuple[int, Any]:
        return 200, self._gateway.bot_gateway()

    # Application commands

    def _command_scope(self, request: ApiRequest) -> int | None:
        if int(request.params["application_id"]) != self._world.application_id:
            raise ApiError(
                403, 50001, "Missing Access (application id is not this bot's)", failure="rule"
            )
        guild_text = request.params.get("guild_id")
        if guild_text is None:
            return None
        guild_id = int(guild_text)
        if self._world.get_guild(guild_id) is None:
            raise ApiError(
                403, 50001, "Missing Access (the bot is not in that guild)", failure="rule"
            )
        return guild_id

    async def list_commands(self, request: ApiRequest) -> tuple[int, Any]:
        return 200, self._world.commands_in_scope(self._command_scope(request))

    async def put_commands(self, request: ApiRequest) -> tuple[int, Any]:
        scope = self._command_scope(request)
        body = request.body or []
        names = [(c.get("type", 1), c.get("name")) for c in body]
        duplicates = {n for n in names if names.count(n) > 1}
        if duplicates:
            raise ApiError(
                400,
                50035,
                f"duplicate command names {sorted(str(d[1]) for d in duplicates)}",
                failure="rule",
            )
        for command in body:
            self._check_command(command)
        if self.command_rules:
            self._check_command_counts(body)
            existing = {(c["type"], c["name"]) for c in self._world.commands_in_scope(scope)}
            # "Commands that do not already exist will count toward daily application command
            # create limits" (Bulk Overwrite Global Application Commands).
            self._take_command_creates(
                scope, sum(1 for key in names if (int(key[0] or 1), key[1]) not in existing)
            )
        return 200, self._world.replace_commands(scope, body)

    async def post_command(self, request: ApiRequest) -> tuple[int, Any]:
        scope = self._command_scope(request)
        self._check_command(request.body)
        body = request.body or {}
        key = (int(body.get("type") or 1), body.get("name"))
        exists = any((c["type"], c["name"]) == key for c in self._world.commands_in_scope(scope))
        if self.command_rules and not exists:
            self._check_command_counts([*self._world.commands_in_scope(scope), body])
            self._take_command_creates(scope, 1)
        # 201 for a new command, 200 when one of that name was overwritten.
        return (200 if exists else 201), self._world.upsert_command(scope, body)

    def _check_command_counts(self, commands: list[dict[str, Any]]) -> None:
        """At most 100 slash, 15 user and 15 message commands in a scope (30032)."""
        for kind, most in MAX_COMMANDS_PER_TYPE.items():
            count = sum(1 for c in commands if int(c.get("type") or 1) == kind)
            if count > most:
                raise ApiError(
                    400,
                    30032,
                    "Maximum number of application commands reached",
                    failure="rule",
                    details=[f"{count} commands of type {kind}; at most {most} in one scope"],
                )

    def _take_command_creates(self, scope: int | None, creates: int) -> None:
        """Count ``creates`` new commands against the scope's 200 a day, or refuse (30034)."""
        if creates <= 0:
            return
        now = time.monotonic()
        made = self._command_creates.setdefault(scope, deque())
        while made and now - made[0] >= _DAY:
            made.popleft()
        if len(made) + creates > self.command_creates_per_day:
            raise ApiError(
                400,
                30034,
                f"Max number of daily application command creates has been reached "
                f"({self.command_creates_per_day})",
                failure="rule",
                details=[
                    f"{len(made)} created in the last 24 h in scope {scope or 'global'}, "
                    f"{creates} more asked"
                ],
            )
        made.extend([now] * creates)

    def _command_or_404(self, request: ApiRequest) -> tuple[int | None, dict[str, Any]]:
        scope = self._command_scope(request)
        wanted = request.params["command_id"]
        for command in self._world.commands_in_scope(scope):
            if command["id"] == wanted:
                return scope, command
        raise ApiError(404, 10063, "Unknown application command")

    async def get_command(self, request: ApiRequest) -> tuple[int, Any]:
        return 200, self._command_or_404(request)[1]

    async def patch_command(self, request: ApiRequest) -> tuple[int, Any]:
        scope, command = self._command_or_404(request)
        merged = {**command, **(request.body or {})}
        self._check_command(merged)
        return 200, self._world.upsert_command(scope, merged)

    async def delete_command(self, request: ApiRequest) -> tuple[int, Any]:
        scope, command = self._command_or_404(request)
        self._world.delete_command(scope, command["id"])
        return 204, None

    def _check_command(self, command: dict[str, Any]) -> None:
        """Discord's checks beyond the spec: required options come before optional ones; with
        ``command_rules``, the rules of :func:`emulator.rules.command_rule_errors` too."""
        if self.command_rules:
            problems = command_rule_errors(command)
            if problems:
                raise ApiError(400, 50035, "Invalid Form Body", failure="rule", details=problems)

        def check(options: list[dict[str, Any]], where: str) -> None:
            seen_optional = False
            for option in options:
                if option.get("type") in (1, 2):
                    check(option.get("options") or [], f"{where} {option.get('name')}")
                    continue
                if option.get("required"):
                    if seen_optional:
                        raise ApiError(
                            400,
                            50035,
                            f"/{where}: required option {option.get('name')!r} after an optional one",
                            failure="rule",
                        )
                else:
                    seen_optional = True

        check(command.get("options") or [], str(command.get("name")))

    # Channels and messages

    async def open_dm(self, request: ApiRequest) -> tuple[int, Any]:
        user = self._world.get_user(int(request.body["recipient_id"]))
        if user is None or user.bot:
            raise ApiError(400, 50033, "Invalid Recipient(s)")
        return 200, self._world.open_dm_channel(user).payload()

    def _channel(self, request: ApiRequest) -> Channel:
        channel = self._world.channels.get(int(request.params["channel_id"]))
        if channel is None or channel.deleted:
            raise ApiError(404, 10003, "Unknown Channel")
        return channel

    @staticmethod
    def _require(channel: Channel, needed: int, doing: str) -> None:
        """403 / 50013 unless the bot holds every bit of ``needed`` in ``channel``."""
        lacking = Permission(needed & ~channel.bot_permissions())
        if lacking:
            raise ApiError(
                403,
                50013,
                "Missing Permissions",
                failure="missing_permissions",
                details=[f"the bot lacks {lacking!r} in {channel!r} to {doing}"],
            )

    def _message(self, request: ApiRequest) -> tuple[Channel, Message]:
        channel = self._channel(request)
        message = channel.get_message(int(request.params["message_id"]))
        if message is None or message.deleted or message.ephemeral_for is not None:
            raise ApiError(404, 10008, "Unknown Message")
        return channel, message

    async def get_channel(self, request: ApiRequest) -> tuple[int, Any]:
        return 200, self._channel(request).payload()

    async def list_messages(self, request: ApiRequest) -> tuple[int, Any]:
        channel = self._channel(request)
        messages = list(reversed(channel.messages))  # newest first, as Discord returns them
        if "before" in request.query:
            before = int(request.query["before"][-1])
            messages = [m for m in messages if m.id < before]
        if "after" in request.query:
            after = int(request.query["after"][-1])
            messages = [m for m in messages if m.id > after]
        limit = int(request.query.get("limit", ["50"])[-1])
        return 200, [self._world.message_payload(m) for m in messages[:limit]]

    async def create_message(self, request: ApiRequest) -> tuple[int, Any]:
        channel = self._channel(request)
        if channel.is_dm and channel.recipient is not None and not channel.recipient.dms_open:
            raise ApiError(
                403,
                50007,
                "Cannot send messages to this user",
                failure="dm_closed",
                details=[f"{channel.recipient.name} does not accept DMs from the bot"],
            )
        payload = request.body or {}
        if not channel.is_dm:
            # "The SEND_MESSAGES permission has no effect in threads" (Topics: Threads).
            needed = Permission.VIEW_CHANNEL | (
                Permission.SEND_MESSAGES_IN_THREADS
                if channel.is_thread
                else Permission.SEND_MESSAGES
            )
            if request.files or payload.get("attachments"):
                needed |= Permission.ATTACH_FILES
            self._require(channel, needed, "send this message")
        self._thread_allows(channel, "post")
        self._automod(channel, payload)
        nonce = payload.get("nonce") if payload.get("enforce_nonce") else None
        if nonce is not None:
            # Discord: with enforce_nonce, a message with the same nonce by the same author in
            # the last few minutes is returned instead of creating another.
            earlier = self._recent_nonces.get((channel.id, str(nonce)))
            if earlier is not None and time.monotonic() - earlier[1] < NONCE_WINDOW:
                if earlier[0].deleted:
                    # The first message was deleted since: Discord does not create it again
                    # but answers Unknown Message (discord-api-docs#6647, discord.py#10116).
                    raise ApiError(404, 10008, "Unknown Message")
                return 200, self._world.message_payload(earlier[0])
        message = Message(
            self._world.new_id(), channel, self._world.bot_user, nonce=payload.get("nonce")
        )
        self.apply_message_payload(message, payload, request.files, creating=True)
        if nonce is not None:
            self._recent_nonces[(channel.id, str(nonce))] = (message, time.monotonic())
        self._world.message_created(message)
        return 200, self._world.message_payload(message)

    async def get_message(self, request: ApiRequest) -> tuple[int, Any]:
        return 200, self._world.message_payload(self._message(request)[1])

    async def edit_message(self, request: ApiRequest) -> tuple[int, Any]:
        channel, message = self._message(request)
        if message.author is not self._world.bot_user:
            raise ApiError(
                403, 50005, "Cannot edit a message authored by another user", failure="rule"
            )
        if not channel.is_dm:
            # Editing one's own message needs no Send Messages, but the channel must be visible
            # (and new files need Attach Files).
            needed = Permission.VIEW_CHANNEL
            if request.files:
                needed |= Permission.ATTACH_FILES
            self._require(channel, needed, "edit this message")
        self._thread_allows(channel, "edit")
        self._automod(channel, request.body or {})
        self.apply_message_payload(message, request.body or {}, request.files, creating=False)
        self._world.message_updated(message)
        return 200, self._world.message_payload(message)

    async def delete_message(self, request: ApiRequest) -> tuple[int, Any]:
        _, message = self._message(request)
        if message.author is not self._world.bot_user and not message.channel.is_dm:
            raise ApiError(403, 50013, "Missing Permissions (Manage Messages)", failure="rule")
        self._thread_allows(message.channel, "delete")
        self._world.message_deleted(message)
        return 204, None

    async def add_reaction(self, request: ApiRequest) -> tuple[int, Any]:
        channel, message = self._message(request)
        self._thread_allows(channel, "react")
        reacted = message.reactions.setdefault(request.params["emoji_name"], set())
        reacted.add(self._world.bot_user.id)
        self._world.notify()
        return 204, None

    async def remove_reaction(self, request: ApiRequest) -> tuple[int, Any]:
        channel, message = self._message(request)
        self._thread_allows(channel, "react")
        message.reactions.get(request.params["emoji_name"], set()).discard(self._world.bot_user.id)
        self._world.notify()
        return 204, None

    def _thread_allows(self, channel: Channel, action: str) -> None:
        """Discord's rules for archived and locked threads (Topics: Threads), for ``action``
        ``post``, ``edit``, ``react`` or ``delete`` by the bot in ``channel``, or
        ``interaction`` (a follow-up or an edit through an interaction's webhook). Posting in an
        archived thread unarchives it, unless it is also locked."""
        if not channel.is_thread:
            return
        manages = bool(
            channel.bot_permissions() & (Permission.MANAGE_THREADS | Permission.ADMINISTRATOR)
        )
        archived_error = ApiError(
            400,
            _THREAD_ARCHIVED,
            "Thread is archived",
            failure="thread_archived",
            details=[f"{channel!r} is archived{' and locked' if channel.locked else ''}"],
        )
        locked_error = ApiError(
            403,
            50013,
            "Missing Permissions",
            failure="missing_permissions",
            details=[f"{channel!r} is locked and the bot lacks Manage Threads to {action} there"],
        )
        if action == "post":
            if channel.locked and not manages:
                raise archived_error if channel.archived else locked_error
            if channel.archived and channel.guild is not None:
                # "Sending a message will automatically unarchive the thread".
                channel.guild.set_thread_state(channel, archived=False)
        elif action in ("edit", "react"):
            if channel.archived:
                raise archived_error
            if action == "edit" and channel.locked and not manages:
                raise locked_error
        elif action == "delete" and channel.archived and channel.locked and not manages:
            raise archived_error
        elif action == "interaction" and (channel.archived or (channel.locked and not manages)):
            # A response after a moderator locked the thread: 50083 (discord-api-docs#6884).
            raise archived_error

    def _automod(self, channel: Channel, payload: dict[str, Any]) -> None:
        """400 / 200000 when an AutoMod block (a fault a test turns on) matches the content.
        AutoMod rules are a server's: DMs are never blocked."""
        if channel.is_dm:
            return
        content = str(payload.get("content") or "")
        for block in self.automod_blocks:
            if block.blocks(channel.id, content):
                self.automod_blocked += 1
                raise ApiError(400, AUTOMOD_BLOCKED, "Message was blocked by automatic moderation")

    async def typing(self, request: ApiRequest) -> tuple[int, Any]:
        self._channel(request)
        return 204, None

    async def pin(self, request: ApiRequest) -> tuple[int, Any]:
        _, message = self._message(request)
        message.pinned = True
        self._world.message_updated(message)
        return 204, None

    async def unpin(self, request: ApiRequest) -> tuple[int, Any]:
        _, message = self._message(request)
        message.pinned = False
        self._world.message_updated(message)
        return 204, None

    async def my_guilds(self, request: ApiRequest) -> tuple[int, Any]:
        return 200, [
            {
                "id": str(g.id),
                "name": g.name,
                "icon": None,
                "owner": g.bot_is_owner,
                "permissions": str(g.bot_permissions()),
                "features": [],
                "banner": None,
            }
            for g in self._world.guilds
        ]

    def apply_message_payload(
        self,
        message: Message,
        payload: dict[str, Any],
        files: list[UploadedFile],
        *,
        creating: bool,
    ) -> None:
        """Check ``payload`` against Discord's limits, then write it into ``message``."""
        flags = int(payload.get("flags") or 0)
        errors = message_rule_errors(payload, message.flags)
        if (flags | message.flags) & MessageFlag.IS_COMPONENTS_V2 and (
            payload.get("content") or payload.get("embeds")
        ):
            errors.append("content and embeds cannot be used with the IS_COMPONENTS_V2 flag")
        if errors:
            raise ApiError(400, 50035, "Invalid Form Body", failure="rule", details=errors)
        for upload in files:
            if len(upload.data) > MAX_ATTACHMENT_BYTES:
                raise ApiError(
                    413,
                    40005,
                    "Request entity too large",
                    failure="rule",
                    details=[
                        f"{upload.filename} is {len(upload.data)} bytes; the limit is {MAX_ATTACHMENT_BYTES}"
                    ],
                )
        attachments = self._attachments(message, payload, files, creating=creating)
        if creating and not (
            payload.get("content")
            or payload.get("embeds")
            or payload.get("components")
            or payload.get("sticker_ids")
            or payload.get("poll")
            or attachments
        ):
            raise ApiError(400, 50006, "Cannot send an empty message", failure="rule")

        if "content" in payload:
            message.content = payload["content"] or ""
        if "embeds" in payload:
            message.embeds = list(payload["embeds"] or [])
        if "components" in payload:
            message.components = number_components(payload["components"] or [])
        if "flags" in payload or creating:
            kept = message.flags & ~_SETTABLE_FLAGS
            if message.flags & MessageFlag.IS_COMPONENTS_V2:  # cannot be removed once set
                kept |= MessageFlag.IS_COMPONENTS_V2
            message.flags = kept | (flags & _SETTABLE_FLAGS)
        message.attachments = attachments
        if not creating:
            message.edited_at = now_iso()
            message.edits += 1

    def _attachments(
        self,
        message: Message,
        payload: dict[str, Any],
        files: list[UploadedFile],
        *,
        creating: bool,
    ) -> list[Attachment]:
        by_index = {upload.index: upload for upload in files}
        used: set[int] = set()
        entries = payload.get("attachments")
        result: list[Attachment] = []
        existing = {str(a.id): a for a in message.attachments}
        if entries is None:
            result = [] if creating else list(message.attachments)
        else:
            for position, entry in enumerate(entries):
                key = str(entry.get("id"))
                if not creating and key in existing:
                    result.append(existing[key])
                    continue
                index = int(key) if key.isdigit() else -1
                upload = by_index.get(index)
                if upload is None:
                    raise ApiError(
                        400,
                        50035,
                        "Invalid Form Body",
                        failure="rule",
                        details=[
                            f"attachments/{position}: id {key} is neither a files[n] part nor an existing attachment"
                        ],
                    )
                used.add(index)
                result.append(
                    self._store(message, upload, entry.get("filename"), entry.get("description"))
                )
        for upload in files:
            if upload.index not in used:
                result.append(self._store(message, upload, None, None))
        return result

    def _store(
        self, message: Message, upload: UploadedFile, filename: str | None, description: str | None
    ) -> Attachment:
        attachment = Attachment.create(
            self._world.new_id(),
            message.channel.id,
            filename or upload.filename,
            upload.data,
            description,
            self.cdn_base_url,
        )
        self._world.attachments[attachment.id] = attachment
        return attachment

    # Interactions

    async def interaction_callback(self, request: ApiRequest) -> tuple[int, Any]:
        emu = self._world
        result = emu.interactions_by_id.get(int(request.params["interaction_id"]))
        if result is None or result.token != request.params["interaction_token"]:
            raise ApiError(404, 10062, "Unknown interaction", failure="unknown_interaction")
        body = request.body or {}
        kind = int(body.get("type", 0))
        if result.response_type is not None:
            raise ApiError(
                400,
                40060,
                "Interaction has already been acknowledged.",
                failure="double_ack",
                details=[
                    f"{result.describe()}: already answered with callback {result.response_type}, then {kind}"
                ],
            )
        if result.failure is not None:
            raise ApiError(
                404,
                10062,
                "Unknown interaction",
                failure="late_ack",
                details=[
                    f"{result.describe()}: acknowledged after {emu.ack_timeout:g} s ({result.failure})"
                ],
            )
        if kind not in ALLOWED_CALLBACKS.get(result.type, frozenset()):
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                failure="bad_callback",
                details=[f"callback type {kind} is not valid for a {result.type.name} interaction"],
            )
        data = body.get("data") or {}
        message: Message | None = None
        if kind == CallbackType.CHANNEL_MESSAGE_WITH_SOURCE:
            message = self._response_message(result, data)
            self.apply_message_payload(message, data, request.files, creating=True)
            message.flags |= int(data.get("flags") or 0) & MessageFlag.EPHEMERAL
            self._mark_ephemeral(message, result)
            emu.acknowledge(result, kind, message)
            emu.message_created(message)
        elif kind == CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE:
            message = self._response_message(result, {})
            message.flags = MessageFlag.LOADING | (
                int(data.get("flags") or 0) & MessageFlag.EPHEMERAL
            )
            self._mark_ephemeral(message, result)
            emu.acknowledge(result, kind, message)
            emu.message_created(message)
        elif kind in (CallbackType.DEFERRED_UPDATE_MESSAGE, CallbackType.UPDATE_MESSAGE):
            message = result.source_message
            if message is None:
                raise ApiError(
                    400,
                    50035,
                    "Invalid Form Body",
                    failure="bad_callback",
                    details=[f"callback {kind} needs a message, and {result.describe()} has none"],
                )
            if kind == CallbackType.UPDATE_MESSAGE:
                self.apply_message_payload(message, data, request.files, creating=False)
            emu.acknowledge(result, kind, message)
            if kind == CallbackType.UPDATE_MESSAGE:
                emu.message_updated(message)
        elif kind == CallbackType.APPLICATION_COMMAND_AUTOCOMPLETE_RESULT:
            result.choices = list(data.get("choices") or [])
            emu.acknowledge(result, kind, None)
        elif kind == CallbackType.MODAL:
            result.modal = dict(data)
            emu.acknowledge(result, kind, None)
        if not request.flag("with_response"):
            return 204, None
        loading = kind == CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
        interaction: dict[str, Any] = {
            "id": str(result.id),
            "type": int(result.type),
            "response_message_loading": loading,
            "response_message_ephemeral": message is not None and message.ephemeral,
            "channel_id": str(result.channel.id),
        }
        if result.channel.guild is not None:
            interaction["guild_id"] = str(result.channel.guild.id)
        response: dict[str, Any] = {"interaction": interaction}
        if message is not None:
            interaction["response_message_id"] = str(message.id)
        if message is not None and kind in (4, 7):  # Discord returns the message for these only
            response["resource"] = {"type": kind, "message": emu.message_payload(message)}
        return 200, response

    def _response_message(self, result: InteractionResult, data: dict[str, Any]) -> Message:
        emu = self._world
        return Message(
            emu.new_id(),
            result.channel,
            emu.bot_user,
            type=20 if result.type == InteractionType.APPLICATION_COMMAND else 0,
            webhook_id=emu.application_id,
            application_id=emu.application_id,
            interaction_metadata=emu.interaction_metadata(result),
        )

    @staticmethod
    def _mark_ephemeral(message: Message, result: InteractionResult) -> None:
        if message.flags & MessageFlag.EPHEMERAL:
            message.ephemeral_for = result.user.id

    def _webhook_interaction(self, request: ApiRequest) -> InteractionResult:
        result = self._world.interactions_by_token.get(request.params["webhook_token"])
        if result is None or int(request.params["webhook_id"]) != self._world.application_id:
            raise ApiError(404, 10015, "Unknown Webhook", failure="unknown_webhook")
        if result.response_type is None:
            raise ApiError(
                404,
                10015,
                "Unknown Webhook",
                failure="followup_before_ack",
                details=[
                    f"{result.describe()}: use the interaction response before follow-ups or edits"
                ],
            )
        return result

    def _webhook_message(self, request: ApiRequest) -> tuple[InteractionResult, Message]:
        result = self._webhook_interaction(request)
        wanted = request.params.get("message_id")
        if wanted is None:  # @original
            message = result.message
        else:
            candidates = [m for m in (result.message, *result.followups) if m is not None]
            message = next((m for m in candidates if m.id == int(wanted)), None)
        if message is None or message.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        return result, message

    async def execute_webhook(self, request: ApiRequest) -> tuple[int, Any]:
        emu = self._world
        result = self._webhook_interaction(request)
        payload = request.body or {}
        original = result.message
        self._thread_allows(result.channel, "interaction")
        if result.placeholder_deleted_unfilled:
            # Undocumented: refused as Discord once did, and recorded.
            raise ApiError(
                404,
                10008,
                "Unknown Message",
                failure="followup_after_deleted_placeholder",
                details=[
                    f"{result.describe()}: a follow-up after its deferred response was deleted "
                    "unfilled; answer privately at first, or edit the placeholder"
                ],
            )
        if (
            result.response_type == CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
            and original is not None
            and original.loading
            and not original.deleted
        ):
            # Discord fills the "thinking..." placeholder with the first follow-up (keeping the
            # placeholder's visibility); once the placeholder is deleted, a follow-up is new.
            self.apply_message_payload(original, payload, request.files, creating=False)
            original.flags &= ~MessageFlag.LOADING
            original.edited_at = None
            emu.message_updated(original)
            message = original
        else:
            message = Message(
                emu.new_id(),
                result.channel,
                emu.bot_user,
                webhook_id=emu.application_id,
                application_id=emu.application_id,
                interaction_metadata=emu.interaction_metadata(result),
            )
            self.apply_message_payload(message, payload, request.files, creating=True)
            message.flags |= int(payload.get("flags") or 0) & MessageFlag.EPHEMERAL
            self._mark_ephemeral(message, result)
            result.followups.append(message)
            emu.message_created(message)
        if not request.flag("wait"):
            return 204, None
        return 200, emu.message_payload(message)

    async def get_webhook_message(self, request: ApiRequest) -> tuple[int, Any]:
        return 200, self._world.message_payload(self._webhook_message(request)[1])

    async def edit_webhook_message(self, request: ApiRequest) -> tuple[int, Any]:
        _, message = self._webhook_message(request)
        self._thread_allows(message.channel, "interaction")
        self.apply_message_payload(message, request.body or {}, request.files, creating=False)
        message.flags &= ~MessageFlag.LOADING
        self._world.message_updated(message)
        return 200, self._world.message_payload(message)

    async def delete_webhook_message(self, request: ApiRequest) -> tuple[int, Any]:
        _, message = self._webhook_message(request)
        self._world.message_deleted(message)
        return 204, None

    # Guilds

    def _guild(self, request: ApiRequest) -> Guild:
        guild = self._world.get_guild(int(request.params["guild_id"]))
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        return guild

    async def get_guild(self, request: ApiRequest) -> tuple[int, Any]:
        data = dict(self._guild(request).payload())
        for key in ("channels", "members", "threads", "voice_states", "presences", "joined_at"):
            data.pop(key, None)
        return 200, data

    async def get_guild_channels(self, request: ApiRequest) -> tuple[int, Any]:
        return 200, [c.payload() for c in self._guild(request).channels]

    # Guild scheduled events (external ones: the bot's game nights take place in a text channel)

    def _events_guild(self, request: ApiRequest) -> Guild:
        """The request's guild, its events moved first as Discord's clock says they are now."""
        guild = self._guild(request)
        self._world.run_event_clock()
        return guild

    def _event(self, request: ApiRequest) -> tuple[Guild, dict[str, Any]]:
        guild = self._events_guild(request)
        event = guild.scheduled_events.get(int(request.params["guild_scheduled_event_id"]))
        if event is None:
            raise ApiError(404, 10070, "Unknown Guild Scheduled Event")
        return guild, event

    def _require_event_permission(self, guild: Guild, event: dict[str, Any] | None) -> None:
        """Permissions Requirements for EXTERNAL events, at the guild level: creating needs
        CREATE_EVENTS; modifying or deleting "If the event was created by the current user,
        either CREATE_EVENTS or MANAGE_EVENTS. Otherwise, MANAGE_EVENTS" (Administrator holds
        every permission)."""
        granted = guild.bot_permissions()
        if granted & Permission.ADMINISTRATOR:
            return
        if event is None:
            needed, what = int(Permission.CREATE_EVENTS), "creating an event needs Create Events"
        elif event.get("creator_id") == str(self._world.bot_user.id):
            needed = int(Permission.CREATE_EVENTS | Permission.MANAGE_EVENTS)
            what = "changing the bot's own event needs Create Events or Manage Events"
        else:
            needed = int(Permission.MANAGE_EVENTS)
            what = "changing an event someone else made needs Manage Events"
        if not granted & needed:
            raise ApiError(
                403, 50013, "Missing Permissions", failure="missing_permissions", details=[what]
            )

    def _check_event_times(self, start: str | None, end: str | None, external: bool) -> list[str]:
        """Discord's rules the spec cannot state: the start in the future (Discord's clock), an
        end after it, and an end for every external event."""
        problems: list[str] = []
        try:
            begins, ends = event_time(start), event_time(end)
        except ValueError:
            return ["scheduled_start_time and scheduled_end_time must be ISO 8601 times"]
        if begins is not None and begins <= self._world.now():
            problems.append("scheduled_start_time must be in the future")
        if external and ends is None:
            problems.append("an external event needs a scheduled_end_time")
        if begins is not None and ends is not None and ends <= begins:
            problems.append("scheduled_end_time must be after scheduled_start_time")
        return problems

    async def list_events(self, request: ApiRequest) -> tuple[int, Any]:
        guild = self._events_guild(request)
        return 200, list(guild.scheduled_events.values())

    async def create_event(self, request: ApiRequest) -> tuple[int, Any]:
        guild = self._events_guild(request)
        self._require_event_permission(guild, None)
        payload = request.body or {}
        external = payload.get("entity_type") == EXTERNAL_EVENT
        problems = self._check_event_times(
            payload.get("scheduled_start_time"), payload.get("scheduled_end_time"), external
        )
        if external and not str((payload.get("entity_metadata") or {}).get("location") or ""):
            problems.append("an external event needs entity_metadata.location")
        if problems:
            raise ApiError(400, 50035, "Invalid Form Body", failure="rule", details=problems)
        if guild.uncompleted_events() >= MAX_UNCOMPLETED_EVENTS:
            # The server's state, not a broken rule: members' events count too.
            self.events_limit_refused += 1
            raise ApiError(
                400,
                30038,
                "Maximum number of uncompleted guild scheduled events reached "
                f"({MAX_UNCOMPLETED_EVENTS})",
            )
        event_id = self._world.new_id()
        event = guild.new_event(event_id, self._world.bot_user, payload)
        guild.scheduled_events[event_id] = event
        self._world.run_event_clock()
        return 200, event

    async def get_event(self, request: ApiRequest) -> tuple[int, Any]:
        return 200, self._event(request)[1]

    async def edit_event(self, request: ApiRequest) -> tuple[int, Any]:
        guild, event = self._event(request)
        self._require_event_permission(guild, event)
        payload = dict(request.body or {})
        if event["status"] in _FINISHED_EVENT:
            # Opcodes and Status Codes: 180000 "Cannot update a finished event" (the HTTP status
            # is not documented; 400 as for Discord's other refusals of a request's content).
            raise ApiError(
                400,
                180000,
                "Cannot update a finished event",
                failure="rule",
                details=[f"event {event['id']} is {EventStatus(event['status']).name}: final"],
            )
        status = payload.get("status")
        if status is not None and status not in _EVENT_MOVES.get(event["status"], ()):
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                failure="rule",
                details=[f"an event cannot go from status {event['status']} to {status}"],
            )
        start = payload.get("scheduled_start_time")
        if start is not None or "scheduled_end_time" in payload:
            problems = self._check_event_times(
                start or event["scheduled_start_time"],
                payload.get("scheduled_end_time", event["scheduled_end_time"]),
                event["entity_type"] == EXTERNAL_EVENT,
            )
            if start is None:  # an event under way keeps its start; only the end is checked
                problems = [p for p in problems if "future" not in p]
            if problems:
                raise ApiError(400, 50035, "Invalid Form Body", failure="rule", details=problems)
        event.update({key: value for key, value in payload.items() if key in event})
        self._world.run_event_clock()
        return 200, event

    async def delete_event(self, request: ApiRequest) -> tuple[int, Any]:
        guild, event = self._event(request)
        self._require_event_permission(guild, event)
        del guild.scheduled_events[int(event["id"])]
        self._world.run_event_clock()
        return 204, None

    async def get_guild_roles(self, request: ApiRequest) -> tuple[int, Any]:
        return 200, [r.payload() for r in self._guild(request).roles]

    async def get_member(self, request: ApiRequest) -> tuple[int, Any]:
        guild = self._guild(request)
        user_id = int(request.params["user_id"])
        if user_id == self._world.bot_user.id:
            return 200, guild.bot_member_payload()
        user = self._world.get_user(user_id)
        member = None if user is None else guild.member_of(user)
        if member is None:
            raise ApiError(404, 10007, "Unknown Member")
        return 200, member.payload()
