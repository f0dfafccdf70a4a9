"""The emulated Discord world: users, guilds, channels, messages and attachments.

These objects are both the emulator's state and the test driver's vocabulary; the driver
actions (slash commands, clicks) live on :class:`emulator.driver.Member`.
"""

from __future__ import annotations

import datetime
import enum
import json
import mimetypes
import struct
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from emulator.driver import Guild
    from emulator.server import Emulator

DISCORD_EPOCH_MS = 1_420_070_400_000
MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024


class Permission(enum.IntFlag):
    """The permission bits the emulator models (Discord's values)."""

    ADMINISTRATOR = 1 << 3
    MANAGE_GUILD = 1 << 5
    ADD_REACTIONS = 1 << 6
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    USE_EXTERNAL_EMOJIS = 1 << 18
    USE_APPLICATION_COMMANDS = 1 << 31


EVERYONE_PERMISSIONS = (
    Permission.VIEW_CHANNEL
    | Permission.SEND_MESSAGES
    | Permission.READ_MESSAGE_HISTORY
    | Permission.ADD_REACTIONS
    | Permission.EMBED_LINKS
    | Permission.ATTACH_FILES
    | Permission.USE_EXTERNAL_EMOJIS
    | Permission.USE_APPLICATION_COMMANDS
)

# What a bot may do in a DM.
DM_PERMISSIONS = (
    Permission.VIEW_CHANNEL
    | Permission.SEND_MESSAGES
    | Permission.EMBED_LINKS
    | Permission.ATTACH_FILES
    | Permission.READ_MESSAGE_HISTORY
)


class MessageFlag(enum.IntFlag):
    EPHEMERAL = 1 << 6
    LOADING = 1 << 7
    IS_COMPONENTS_V2 = 1 << 15


class ChannelType(enum.IntEnum):
    GUILD_TEXT = 0
    DM = 1


class SnowflakeSource:
    """Discord-style ids: milliseconds since 2015 in the top bits, strictly increasing."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        candidate = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(candidate, self._last + 1)
        return self._last


def snowflake_time(snowflake: int) -> str:
    """ISO-8601 timestamp of a snowflake, as Discord formats ``timestamp`` fields."""
    moment = datetime.datetime.fromtimestamp(
        ((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000, tz=datetime.UTC
    )
    return moment.isoformat()


def now_iso() -> str:
    return datetime.datetime.now(tz=datetime.UTC).isoformat()


@dataclass(eq=False)
class User:
    """A Discord account: a person, or the bot itself."""

    id: int
    name: str
    bot: bool = False
    dms_open: bool = True
    locale: str = "en-US"  # the language of the person's Discord client

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "username": self.name,
            "global_name": None if self.bot else self.name,
            "discriminator": "0",
            "avatar": None,
            "public_flags": 0,
            "flags": 0,
            "primary_guild": None,
        }
        if self.bot:
            data["bot"] = True
        return data


def png_size(data: bytes) -> tuple[int, int] | None:
    """Width and height from a PNG's IHDR chunk, or None if ``data`` is not a PNG."""
    if len(data) >= 24 and data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        return int(width), int(height)
    return None


@dataclass(eq=False)
class Attachment:
    """A file uploaded with a message; ``data`` holds its bytes, ``description`` its alt text."""

    id: int
    filename: str
    data: bytes = field(repr=False)
    description: str | None
    url: str
    content_type: str

    @classmethod
    def create(
        cls,
        attachment_id: int,
        channel_id: int,
        filename: str,
        data: bytes,
        description: str | None,
        cdn_base: str,
    ) -> Attachment:
        guessed, _ = mimetypes.guess_type(filename)
        url = f"{cdn_base}/attachments/{channel_id}/{attachment_id}/{filename}"
        return cls(
            attachment_id,
            filename,
            data,
            description,
            url,
            guessed or "application/octet-stream",
        )

    @property
    def size(self) -> int:
        return len(self.data)

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.description is not None:
            data["description"] = self.description
        dimensions = png_size(self.data)
        if dimensions is not None:
            data["width"], data["height"] = dimensions
        return data


def iter_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component, depth first, through action rows, sections, containers and labels."""
    for component in components:
        yield component
        yield from iter_components(component.get("components") or [])
        accessory = component.get("accessory")
        if isinstance(accessory, dict):
            yield accessory
        inner = component.get("component")
        if isinstance(inner, dict):
            yield from iter_components([inner])


def number_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A copy in which every component has a numeric ``id``, as Discord assigns them (1, 2, ...
    depth first, skipping ids the bot chose)."""
    copied: list[dict[str, Any]] = json.loads(json.dumps(components))
    taken = {c["id"] for c in iter_components(copied) if isinstance(c.get("id"), int)}
    next_id = 1
    for component in iter_components(copied):
        if not isinstance(component.get("id"), int):
            while next_id in taken:
                next_id += 1
            component["id"] = next_id
            taken.add(next_id)
    return copied


@dataclass(eq=False)
class Message:
    """A message as Discord stores it; ``ephemeral_for`` is the only user who can see it."""

    id: int
    channel: Channel
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    edited_at: str | None = None
    deleted: bool = False
    ephemeral_for: int | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_metadata: dict[str, Any] | None = None
    reactions: dict[str, set[int]] = field(default_factory=dict)
    edits: int = 0
    nonce: int | str | None = None
    pinned: bool = False

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & MessageFlag.EPHEMERAL)

    @property
    def loading(self) -> bool:
        """True while this is a deferred response's "thinking..." placeholder."""
        return bool(self.flags & MessageFlag.LOADING)

    @property
    def guild(self) -> Guild | None:
        return self.channel.guild

    def visible_to(self, user: User) -> bool:
        return not self.deleted and (self.ephemeral_for is None or self.ephemeral_for == user.id)

    @property
    def all_components(self) -> list[dict[str, Any]]:
        """Every component of the message, nested ones included."""
        return list(iter_components(self.components))

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.all_components if c.get("custom_id")]

    def component(self, custom_id: str) -> dict[str, Any] | None:
        return next((c for c in self.all_components if c.get("custom_id") == custom_id), None)

    @property
    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in self.all_components if c.get("type") == 2]

    def button(self, label: str) -> dict[str, Any]:
        """The button with this label; raises LookupError naming the labels present."""
        for candidate in self.buttons:
            if candidate.get("label") == label:
                return candidate
        labels = [b.get("label") for b in self.buttons]
        raise LookupError(f"no button labelled {label!r} on message {self.id}; labels: {labels}")

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "type": self.type,
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": snowflake_time(self.id),
            "edited_timestamp": self.edited_at,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [attachment.payload() for attachment in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": self.pinned,
            "flags": self.flags,
            "reactions": [
                {
                    "emoji": {"id": None, "name": emoji},
                    "count": len(users),
                    "count_details": {"burst": 0, "normal": len(users)},
                    "me": self.author.id in users,
                    "me_burst": False,
                    "burst_colors": [],
                }
                for emoji, users in self.reactions.items()
                if users
            ],
        }
        if self.nonce is not None:
            data["nonce"] = self.nonce
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = self.interaction_metadata
        return data

    def __repr__(self) -> str:
        text = self.content if len(self.content) <= 40 else self.content[:37] + "..."
        return (
            f"<Message id={self.id} in #{self.channel.name} by {self.author.name}: {text!r}"
            f" attachments={len(self.attachments)} custom_ids={self.custom_ids}>"
        )


@dataclass(eq=False)
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }


class Channel:
    """A guild text channel or a DM channel between the bot and one person."""

    def __init__(
        self,
        emu: Emulator,
        channel_id: int,
        name: str,
        guild: Guild | None,
        kind: ChannelType = ChannelType.GUILD_TEXT,
        recipient: User | None = None,
        position: int = 0,
    ) -> None:
        self._emu = emu
        self.id = channel_id
        self.name = name
        self.guild = guild
        self.kind = kind
        self.recipient = recipient
        self.position = position
        self.all_messages: list[Message] = []
        # Permission bits a channel overwrite denies the bot here (Discord's member overwrite).
        self.bot_denied = 0
        self.deleted = False

    @property
    def bot_can_send(self) -> bool:
        """False when an overwrite denies the bot Send Messages here (posts fail 403 / 50013)."""
        return not self.bot_denied & Permission.SEND_MESSAGES

    @bot_can_send.setter
    def bot_can_send(self, allowed: bool) -> None:
        if allowed:
            self.bot_denied &= ~Permission.SEND_MESSAGES
        else:
            self.bot_denied |= Permission.SEND_MESSAGES

    def bot_permissions(self) -> int:
        """The bot's permissions in this channel, as Discord computes them: the server's, minus
        what the channel's overwrite denies (Administrator overrides every overwrite)."""
        if self.guild is None:
            return int(DM_PERMISSIONS)
        base = int(self.guild.bot_permissions())
        if base & Permission.ADMINISTRATOR:
            return base
        return base & ~self.bot_denied

    def __repr__(self) -> str:
        return f"<Channel #{self.name} id={self.id}>"

    @property
    def is_dm(self) -> bool:
        return self.kind is ChannelType.DM

    @property
    def messages(self) -> list[Message]:
        """Messages everyone in the channel can see (no ephemeral or deleted ones), oldest first."""
        return [m for m in self.all_messages if not m.deleted and m.ephemeral_for is None]

    @property
    def last_message(self) -> Message | None:
        visible = self.messages
        return visible[-1] if visible else None

    def messages_seen_by(self, user: User) -> list[Message]:
        """What ``user`` sees here, their ephemeral messages included."""
        return [m for m in self.all_messages if m.visible_to(user)]

    def get_message(self, message_id: int) -> Message | None:
        return next((m for m in self.all_messages if m.id == message_id), None)

    async def wait_for_message(
        self,
        predicate: Callable[[Message], bool] | None = None,
        *,
        timeout: float = 5.0,  # noqa: ASYNC109 - a deadline for the wait is the point
        include_ephemeral: bool = False,
    ) -> Message:
        """The first (oldest) message here that matches ``predicate``, waiting for new posts and
        edits until ``timeout`` seconds; raises ``TimeoutError`` listing what is here."""

        def check() -> Message | None:
            pool = [m for m in self.all_messages if not m.deleted]
            if not include_ephemeral:
                pool = [m for m in pool if m.ephemeral_for is None]
            return next(
                (m for m in pool if not m.loading and (predicate is None or predicate(m))), None
            )

        return await self._emu.wait_until(
            check, timeout, lambda: f"a matching message in {self!r}; messages: {self.messages}"
        )

    def payload(self) -> dict[str, Any]:
        last = self.all_messages[-1].id if self.all_messages else None
        if self.is_dm:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": int(self.kind),
                "last_message_id": None if last is None else str(last),
                "flags": 0,
                "recipients": [self.recipient.payload()],
            }
        assert self.guild is not None
        return {
            "id": str(self.id),
            "type": int(self.kind),
            "guild_id": str(self.guild.id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": (
                [
                    {
                        "id": str(self._emu.bot_user.id),
                        "type": 1,
                        "allow": "0",
                        "deny": str(int(self.bot_denied)),
                    }
                ]
                if self.bot_denied
                else []
            ),
            "parent_id": None,
            "topic": None,
            "nsfw": False,
            "last_message_id": None if last is None else str(last),
            "rate_limit_per_user": 0,
            "flags": 0,
        }
