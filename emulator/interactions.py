"""Interactions a person starts (slash commands, clicks, selects, modals, autocomplete) and what
the bot answered: Discord's acknowledgement clock (:class:`InteractionWorld`), the record of
each interaction (:class:`InteractionResult`) and the conversion of driver arguments into
Discord's command payloads. Above :mod:`emulator.model` only."""

from __future__ import annotations

import asyncio
import enum
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from emulator.model import (
    DM_PERMISSIONS,
    MAX_ATTACHMENT_BYTES,
    Attachment,
    Channel,
    DriverError,
    Guild,
    Message,
    Role,
    User,
    World,
)

__all__ = [
    "ALLOWED_CALLBACKS",
    "INTEGER_OPTION_LIMIT",
    "NUMBER_OPTION_LIMIT",
    "CallbackType",
    "DriverError",
    "InteractionFailedError",
    "InteractionResult",
    "InteractionType",
    "InteractionWorld",
    "OptionType",
    "build_command_data",
    "find_command",
]

# The values Discord delivers for INTEGER and NUMBER options, whatever a command declares
# (Application Commands: Application Command Option Type).
INTEGER_OPTION_LIMIT = 2**53 - 1
NUMBER_OPTION_LIMIT = 2**53


class InteractionFailedError(AssertionError):
    """Discord would show "This interaction failed" (the message says why)."""


class InteractionType(enum.IntEnum):
    PING = 1
    APPLICATION_COMMAND = 2
    MESSAGE_COMPONENT = 3
    APPLICATION_COMMAND_AUTOCOMPLETE = 4
    MODAL_SUBMIT = 5


class CallbackType(enum.IntEnum):
    PONG = 1
    CHANNEL_MESSAGE_WITH_SOURCE = 4
    DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE = 5
    DEFERRED_UPDATE_MESSAGE = 6
    UPDATE_MESSAGE = 7
    APPLICATION_COMMAND_AUTOCOMPLETE_RESULT = 8
    MODAL = 9


# Which callbacks Discord accepts for which interaction.
ALLOWED_CALLBACKS: dict[InteractionType, frozenset[int]] = {
    InteractionType.APPLICATION_COMMAND: frozenset({4, 5, 9}),
    InteractionType.MESSAGE_COMPONENT: frozenset({4, 5, 6, 7, 9}),
    InteractionType.APPLICATION_COMMAND_AUTOCOMPLETE: frozenset({8}),
    InteractionType.MODAL_SUBMIT: frozenset({4, 5, 6, 7}),
}


class OptionType(enum.IntEnum):
    SUB_COMMAND = 1
    SUB_COMMAND_GROUP = 2
    STRING = 3
    INTEGER = 4
    BOOLEAN = 5
    USER = 6
    CHANNEL = 7
    ROLE = 8
    MENTIONABLE = 9
    NUMBER = 10
    ATTACHMENT = 11


@dataclass(eq=False)
class InteractionResult:
    """One interaction and everything the bot did in answer to it.

    ``response_type`` is the callback type the bot acknowledged with (None until then);
    ``message`` is the response message (the reply, the deferred placeholder once edited, or the
    component's message for updates); ``followups`` are follow-up messages in order.
    """

    emu: World = field(repr=False)
    id: int
    token: str = field(repr=False)
    type: InteractionType
    user: User
    channel: Channel
    payload: dict[str, Any] = field(repr=False)
    source_message: Message | None = None
    command_name: str | None = None
    custom_id: str | None = None
    parent: InteractionResult | None = field(default=None, repr=False)
    response_type: int | None = None
    message: Message | None = None
    followups: list[Message] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    choices: list[dict[str, Any]] | None = None
    failure: str | None = None
    created_at: float = 0.0
    acknowledged_at: float | None = None
    edits_at_ack: int = field(default=0, repr=False)
    timer: asyncio.TimerHandle | None = field(default=None, repr=False)

    @property
    def acknowledged(self) -> bool:
        return self.response_type is not None

    @property
    def deferred(self) -> bool:
        return self.response_type in (
            CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
            CallbackType.DEFERRED_UPDATE_MESSAGE,
        )

    @property
    def ephemeral(self) -> bool:
        """Whether the answer the person sees is private (see :meth:`reply`): after a silent
        acknowledgement of a component (the message not edited since), its first follow-up."""
        shown = self.message
        if shown is not None and shown.deleted and self.followups:
            shown = self.followups[0]
        silent = self.response_type == CallbackType.DEFERRED_UPDATE_MESSAGE
        if silent and shown is not None and shown.edits <= self.edits_at_ack and self.followups:
            shown = self.followups[0]
        return shown is not None and shown.ephemeral

    @property
    def placeholder_deleted_unfilled(self) -> bool:
        """Whether the "thinking..." placeholder of a deferred response was deleted before
        anything filled it. Discord documents that the first follow-up after a deferred
        response edits that placeholder (Interactions: Receiving and Responding, Create
        Followup Message), and not what a follow-up does once it is gone: it answered 10008
        Unknown Message until a change in 2021."""
        placeholder = self.message
        return (
            self.response_type == CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
            and placeholder is not None
            and placeholder.deleted
            and placeholder.loading
        )

    # Shortcuts to the response message, for terse assertions.
    @property
    def content(self) -> str:
        return "" if self.message is None else self.message.content

    @property
    def attachments(self) -> list[Attachment]:
        return [] if self.message is None else list(self.message.attachments)

    @property
    def components(self) -> list[dict[str, Any]]:
        return [] if self.message is None else self.message.components

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return [] if self.message is None else self.message.embeds

    def _raise_if_failed(self) -> None:
        if self.failure is not None:
            raise InteractionFailedError(f"interaction {self.describe()} failed: {self.failure}")

    def describe(self) -> str:
        what = self.command_name or self.custom_id or self.type.name.lower()
        return f"{self.type.name.lower()} {what!r} by {self.user.name}"

    async def acknowledgement(self, timeout: float = 5.0) -> int:  # noqa: ASYNC109 - a deadline for the wait is the point
        """Wait for the bot's acknowledgement; returns the callback type."""

        def check() -> int | None:
            self._raise_if_failed()
            return self.response_type

        return await self.emu.wait_until(check, timeout, lambda: f"an answer to {self.describe()}")

    async def reply(self, timeout: float = 5.0) -> Message:  # noqa: ASYNC109 - a deadline for the wait is the point
        """Wait until the person sees an answer and return it: the reply, the edited deferred
        placeholder, the updated component message, or (after a silent defer) the first
        follow-up or edit."""

        def check() -> Message | None:
            self._raise_if_failed()
            kind = self.response_type
            if kind in (CallbackType.MODAL, CallbackType.APPLICATION_COMMAND_AUTOCOMPLETE_RESULT):
                raise DriverError(
                    f"{self.describe()} was answered with callback {kind} (a modal or choices), "
                    "not a message: use modal_shown() or the choices"
                )
            if kind is None or self.message is None:
                if self.followups and kind is not None:
                    return self.followups[0]
                return None
            if kind == CallbackType.DEFERRED_UPDATE_MESSAGE:
                if self.message.edits > self.edits_at_ack:
                    return self.message
                return self.followups[0] if self.followups else None
            if self.message.deleted:
                # The placeholder was deleted (to answer privately instead): the follow-up.
                return self.followups[0] if self.followups else None
            if self.message.loading:
                return None
            return self.message

        return await self.emu.wait_until(check, timeout, lambda: f"a reply to {self.describe()}")

    async def followup(self, index: int = 0, timeout: float = 5.0) -> Message:  # noqa: ASYNC109 - a deadline for the wait is the point
        """Wait for the ``index``-th follow-up message (0 = first)."""

        def check() -> Message | None:
            self._raise_if_failed()
            return self.followups[index] if len(self.followups) > index else None

        return await self.emu.wait_until(
            check, timeout, lambda: f"follow-up #{index} to {self.describe()}"
        )

    async def modal_shown(self, timeout: float = 5.0) -> dict[str, Any]:  # noqa: ASYNC109 - a deadline for the wait is the point
        """Wait for the bot to answer with a modal; returns its payload (title, custom_id, ...)."""

        def check() -> dict[str, Any] | None:
            self._raise_if_failed()
            if self.response_type is not None and self.modal is None:
                raise DriverError(
                    f"{self.describe()} was answered with callback {self.response_type}, not a modal"
                )
            return self.modal

        return await self.emu.wait_until(check, timeout, lambda: f"a modal for {self.describe()}")


def find_command(commands: list[dict[str, Any]], name: str) -> dict[str, Any] | None:
    return next((c for c in commands if c.get("name") == name and c.get("type", 1) == 1), None)


def _option_names(options: list[dict[str, Any]]) -> list[str]:
    return [str(option["name"]) for option in options]


def build_command_data(
    command: dict[str, Any],
    words: list[str],
    values: Mapping[str, Any],
    guild: Guild | None,
    focused: str | None = None,
) -> dict[str, Any]:
    """The ``data`` of an APPLICATION_COMMAND (or autocomplete) interaction.

    ``words`` are the subcommand group / subcommand names after the command name; ``values``
    maps option names to Python values (members, channels and roles for those option types).
    """
    path = [str(command["name"])]
    declared: list[dict[str, Any]] = list(command.get("options") or [])
    data: dict[str, Any] = {
        "id": str(command["id"]),
        "name": command["name"],
        "type": 1,
    }
    if command.get("guild_id"):
        data["guild_id"] = str(command["guild_id"])
    container: list[dict[str, Any]] = []
    data["options"] = container
    for word in words:
        sub = next(
            (
                o
                for o in declared
                if o["name"] == word
                and o["type"] in (OptionType.SUB_COMMAND, OptionType.SUB_COMMAND_GROUP)
            ),
            None,
        )
        if sub is None:
            raise DriverError(
                f"/{' '.join(path)} has no subcommand {word!r}; it has: {_option_names(declared)}"
            )
        path.append(word)
        nested: list[dict[str, Any]] = []
        container.append({"name": word, "type": int(sub["type"]), "options": nested})
        container = nested
        declared = list(sub.get("options") or [])
    if any(o["type"] in (OptionType.SUB_COMMAND, OptionType.SUB_COMMAND_GROUP) for o in declared):
        raise DriverError(f"/{' '.join(path)} needs a subcommand: {_option_names(declared)}")

    resolved: dict[str, dict[str, Any]] = {}
    by_name = {str(o["name"]): o for o in declared}
    for name, value in values.items():
        option = by_name.get(name)
        if option is None:
            raise DriverError(f"/{' '.join(path)} has no option {name!r}; it has: {list(by_name)}")
        if name == focused:
            if not option.get("autocomplete"):
                raise DriverError(f"option {name!r} of /{' '.join(path)} has no autocomplete")
            container.append(
                {"name": name, "type": int(option["type"]), "value": str(value), "focused": True}
            )
            continue
        container.append(
            {
                "name": name,
                "type": int(option["type"]),
                "value": _option_value(path, option, value, guild, resolved),
            }
        )
    if focused is not None and focused not in values:
        raise DriverError(f"the focused option {focused!r} needs a value (what was typed so far)")
    if focused is None:
        missing = [
            str(o["name"]) for o in declared if o.get("required") and o["name"] not in values
        ]
        if missing:
            raise DriverError(f"/{' '.join(path)} requires option(s) {missing}")
    if resolved:
        data["resolved"] = resolved
    if not data["options"]:
        del data["options"]
    return data


def _option_value(
    path: list[str],
    option: dict[str, Any],
    value: Any,
    guild: Guild | None,
    resolved: dict[str, dict[str, Any]],
) -> Any:
    kind = OptionType(int(option["type"]))
    where = f"option {option['name']!r} of /{' '.join(path)}"
    converted: Any
    if kind is OptionType.STRING:
        if not isinstance(value, str):
            raise DriverError(f"{where} takes text, got {value!r}")
        if (
            not int(option.get("min_length", 0))
            <= len(value)
            <= int(option.get("max_length", 6000))
        ):
            raise DriverError(f"{where}: length {len(value)} is outside Discord's limits for it")
        converted = value
    elif kind in (OptionType.INTEGER, OptionType.NUMBER):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise DriverError(f"{where} takes a number, got {value!r}")
        if kind is OptionType.INTEGER and not isinstance(value, int):
            raise DriverError(f"{where} takes a whole number, got {value!r}")
        low, high = option.get("min_value"), option.get("max_value")
        if (low is not None and value < low) or (high is not None and value > high):
            raise DriverError(f"{where}: {value} is outside [{low}, {high}]")
        # Discord's own range, whatever the command declares: "any integer between -2^53+1 and
        # 2^53-1" for INTEGER, "any double between -2^53 and 2^53" for NUMBER.
        widest = INTEGER_OPTION_LIMIT if kind is OptionType.INTEGER else NUMBER_OPTION_LIMIT
        if not -widest <= value <= widest:
            raise DriverError(f"{where}: {value} is outside what Discord sends (±{widest})")
        converted = value
    elif kind is OptionType.BOOLEAN:
        if not isinstance(value, bool):
            raise DriverError(f"{where} takes True or False, got {value!r}")
        converted = value
    elif kind in (OptionType.USER, OptionType.MENTIONABLE) and _is_person(value):
        user: User = value.user if hasattr(value, "user") else value
        resolved.setdefault("users", {})[str(user.id)] = user.payload()
        if guild is not None:
            member = guild.member_of(user)
            if member is not None:
                resolved.setdefault("members", {})[str(user.id)] = member.payload(with_user=False)
        converted = str(user.id)
    elif kind is OptionType.CHANNEL and isinstance(value, Channel):
        # Discord's picker offers only the channel types the option declares.
        allowed = option.get("channel_types")
        if allowed and int(value.kind) not in allowed:
            raise DriverError(f"{where} takes channels of types {allowed}, not #{value.name}")
        channel_data = value.payload()
        channel_data["permissions"] = str(int(value.guild.bot_permissions()) if value.guild else 0)
        resolved.setdefault("channels", {})[str(value.id)] = channel_data
        converted = str(value.id)
    elif kind in (OptionType.ROLE, OptionType.MENTIONABLE) and isinstance(value, Role):
        resolved.setdefault("roles", {})[str(value.id)] = value.payload()
        converted = str(value.id)
    else:
        raise DriverError(f"{where} ({kind.name}) cannot take {value!r}")
    choices = option.get("choices")
    if choices and converted not in [choice["value"] for choice in choices]:
        raise DriverError(
            f"{where} only offers choices {[c['value'] for c in choices]}, got {converted!r}"
        )
    return converted


def _is_person(value: Any) -> bool:
    return isinstance(value, User) or isinstance(getattr(value, "user", None), User)


class InteractionWorld(World):
    """The world plus Discord's side of interactions: it sends INTERACTION_CREATE, starts the
    acknowledgement clock (``ack_timeout`` seconds, 3 on Discord) and keeps every
    :class:`InteractionResult` by id and by token for the REST API's callbacks."""

    def __init__(self, *, token: str | None, bot_name: str, ack_timeout: float = 3.0) -> None:
        super().__init__(token=token, bot_name=bot_name)
        self.ack_timeout = ack_timeout
        self.interactions: list[InteractionResult] = []
        self.interactions_by_id: dict[int, InteractionResult] = {}
        self.interactions_by_token: dict[str, InteractionResult] = {}

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
        guild = channel.guild
        guild_id = None if guild is None else guild.id
        if not self.events.receives(guild_id):
            try:
                await self.wait_until(
                    lambda: self.events.receives(guild_id),
                    connect_timeout,
                    lambda: f"a bot session for {channel!r}",
                )
            except TimeoutError as error:
                raise InteractionFailedError(
                    f"no bot session is connected to receive {kind.name.lower()} from "
                    f"{user.name} in {channel!r} (the shard of its guild, or shard 0 for DMs)"
                ) from error
        interaction_id = self.new_id()
        token = "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48)
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
        self.events.dispatch("INTERACTION_CREATE", payload, guild_id=guild_id)
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

    def stop_clocks(self) -> None:
        """Stop every acknowledgement clock; an interaction still unanswered is a failure (a
        test that ends first must not hide an interaction the bot ignored)."""
        for result in self.interactions:
            if result.timer is not None:
                result.timer.cancel()
                result.timer = None
                if result.response_type is None and result.failure is None:
                    result.failure = "never acknowledged (the emulator stopped first)"
                    self.record_failure("unanswered", f"{result.describe()}: {result.failure}")
