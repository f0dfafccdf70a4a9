"""The emulated Discord world: users, guilds, channels, members, messages, attachments and
commands, held by a :class:`World` that tells the bot's sessions what happens in it.

The bottom layer of the emulator: it imports no other emulator module. These objects are both
the emulator's state and the test driver's vocabulary; what a member does (slash commands,
clicks) is added on top by :class:`emulator.driver.Member`, and the world's events reach the
bot through an :class:`EventSink` (the gateway).
"""

from __future__ import annotations

import asyncio
import base64
import datetime
import enum
import functools
import json
import logging
import mimetypes
import operator
import secrets
import struct
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

_log = logging.getLogger(__name__)
T = TypeVar("T")
_RECHECK_SECONDS = 0.02

DISCORD_EPOCH_MS = 1_420_070_400_000
MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024


class DriverError(Exception):
    """The test asked for something a person could not do in Discord (the message says why)."""


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
    CONNECT = 1 << 20
    SPEAK = 1 << 21
    USE_APPLICATION_COMMANDS = 1 << 31
    MANAGE_EVENTS = 1 << 33
    MANAGE_THREADS = 1 << 34
    SEND_MESSAGES_IN_THREADS = 1 << 38
    CREATE_EVENTS = 1 << 44


EVERYONE_PERMISSIONS = (
    Permission.VIEW_CHANNEL
    | Permission.SEND_MESSAGES
    | Permission.READ_MESSAGE_HISTORY
    | Permission.ADD_REACTIONS
    | Permission.EMBED_LINKS
    | Permission.ATTACH_FILES
    | Permission.USE_EXTERNAL_EMOJIS
    | Permission.USE_APPLICATION_COMMANDS
    | Permission.SEND_MESSAGES_IN_THREADS
    | Permission.CONNECT
    | Permission.SPEAK
)

# Every permission the emulator knows: the server owner's and an Administrator's.
ALL_PERMISSIONS = int(functools.reduce(operator.or_, Permission))

# What a bot may do in a DM.
DM_PERMISSIONS = (
    Permission.VIEW_CHANNEL
    | Permission.SEND_MESSAGES
    | Permission.EMBED_LINKS
    | Permission.ATTACH_FILES
    | Permission.READ_MESSAGE_HISTORY
)


class EventStatus(enum.IntEnum):
    """A guild scheduled event's status (Guild Scheduled Event Status)."""

    SCHEDULED = 1
    ACTIVE = 2
    COMPLETED = 3
    CANCELED = 4


# Guild Scheduled Event Entity Types: an event outside voice and stage channels (a game night in a
# text channel is one).
EXTERNAL_EVENT = 3
# "A guild can have a maximum of 100 events with SCHEDULED or ACTIVE status at any time."
MAX_UNCOMPLETED_EVENTS = 100


def event_time(value: object) -> datetime.datetime | None:
    """An event's ISO 8601 time as an aware datetime (None for none; naive read as UTC)."""
    if not value:
        return None
    moment = datetime.datetime.fromisoformat(str(value))
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=datetime.UTC)


class MessageFlag(enum.IntFlag):
    EPHEMERAL = 1 << 6
    LOADING = 1 << 7
    IS_COMPONENTS_V2 = 1 << 15


class ChannelType(enum.IntEnum):
    GUILD_TEXT = 0
    DM = 1
    GUILD_VOICE = 2
    PUBLIC_THREAD = 11


class Intent(enum.IntFlag):
    """The gateway intents whose events the emulator filters (Discord's values)."""

    GUILD_MEMBERS = 1 << 1
    GUILD_VOICE_STATES = 1 << 7
    GUILD_PRESENCES = 1 << 8
    GUILD_MESSAGES = 1 << 9
    DIRECT_MESSAGES = 1 << 12
    MESSAGE_CONTENT = 1 << 15


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that receives a guild's events: Discord's ``(guild_id >> 22) % num_shards``."""
    return (guild_id >> 22) % shard_count


class SnowflakeSource:
    """Discord-style ids: milliseconds since 2015 in the top bits, strictly increasing."""

    def __init__(self) -> None:
        self._last = 0

    @staticmethod
    def _now_ms() -> int:
        return int(time.time() * 1000) - DISCORD_EPOCH_MS

    def next(self) -> int:
        self._last = max(self._now_ms() << 22, self._last + 1)
        return self._last

    def next_millisecond(self, shard: tuple[int, int] | None = None) -> int:
        """An id in a millisecond no earlier id has, so that ids made one after another fall on
        different shards (``id >> 22`` differs), as guilds made at different times do on
        Discord; with ``shard=(shard_id, shard_count)``, the next such id on that shard."""
        milliseconds = max(self._now_ms(), (self._last >> 22) + 1)
        if shard is not None:
            shard_id, shard_count = shard
            if not 0 <= shard_id < shard_count:
                raise ValueError(f"shard {shard_id} is not one of {shard_count} shards")
            milliseconds += (shard_id - milliseconds) % shard_count
        self._last = milliseconds << 22
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
    # When Discord took it, on the event loop's clock (as voice frames' ``arrived``): what a
    # test orders a call's text against its audio by.
    created: float = field(default_factory=time.monotonic)

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
    """A guild text channel, a voice channel (``kind`` GUILD_VOICE), a DM channel between the bot
    and one person, or a public thread of a text channel (``parent``; ``archived`` and
    ``locked`` as Discord's thread metadata)."""

    def __init__(
        self,
        world: World,
        channel_id: int,
        name: str,
        guild: Guild | None,
        kind: ChannelType = ChannelType.GUILD_TEXT,
        recipient: User | None = None,
        position: int = 0,
        parent: Channel | None = None,
    ) -> None:
        self._world = world
        self.id = channel_id
        self.name = name
        self.guild = guild
        self.kind = kind
        self.recipient = recipient
        self.position = position
        self.parent = parent
        self.all_messages: list[Message] = []
        # Permission bits a channel overwrite denies the bot here (Discord's member overwrite).
        self.bot_denied = 0
        self.deleted = False
        # Thread metadata (threads only): Topics: Threads, "Active & Archived Threads".
        self.archived = False
        self.locked = False
        self.archive_timestamp = now_iso()
        self.owner_id: int | None = None

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
        what the channel's overwrite denies (Administrator overrides every overwrite); a thread
        has its parent channel's ("Threads generally inherit permissions from the parent")."""
        if self.parent is not None:
            return self.parent.bot_permissions()
        if self.guild is None:
            return int(DM_PERMISSIONS)
        base = int(self.guild.bot_permissions())
        if base & Permission.ADMINISTRATOR:
            return base  # the owner and Administrator: overwrites do not apply
        return base & ~self.bot_denied

    def __repr__(self) -> str:
        return f"<Channel #{self.name} id={self.id}>"

    @property
    def is_dm(self) -> bool:
        return self.kind is ChannelType.DM

    @property
    def is_thread(self) -> bool:
        return self.kind is ChannelType.PUBLIC_THREAD

    @property
    def is_voice(self) -> bool:
        return self.kind is ChannelType.GUILD_VOICE

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

        return await self._world.wait_until(
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
        if self.parent is not None:
            return self._thread_payload(self.guild, self.parent, last)
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": int(self.kind),
            "guild_id": str(self.guild.id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": (
                [
                    {
                        "id": str(self._world.bot_user.id),
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
        if self.is_voice:
            # A voice channel (Channel Object): no topic, a bitrate, no user limit, the region
            # chosen automatically.
            del data["topic"]
            data.update({"bitrate": 64000, "user_limit": 0, "rtc_region": None})
        return data

    def _thread_payload(self, guild: Guild, parent: Channel, last: int | None) -> dict[str, Any]:
        count = len([m for m in self.all_messages if not m.deleted])
        return {
            "id": str(self.id),
            "type": int(self.kind),
            "guild_id": str(guild.id),
            "parent_id": str(parent.id),
            "owner_id": str(self.owner_id or self._world.bot_user.id),
            "name": self.name,
            "last_message_id": None if last is None else str(last),
            "rate_limit_per_user": 0,
            "flags": 0,
            "message_count": count,
            "total_message_sent": len(self.all_messages),
            "member_count": 1,
            "thread_metadata": {
                "archived": self.archived,
                "auto_archive_duration": 1440,
                "archive_timestamp": self.archive_timestamp,
                "locked": self.locked,
            },
        }


# What an invited bot's own role holds: what its invite asks for (our bot asks for Create Events).
BOT_PERMISSIONS = int(EVERYONE_PERMISSIONS | Permission.CREATE_EVENTS)


class Guild:
    """A server: its channels, roles and members. Add channels and members with
    :meth:`add_channel` and :meth:`add_member`."""

    def __init__(self, world: World, guild_id: int, name: str, *, locale: str = "en-US") -> None:
        self._world = world
        self.id = guild_id
        self.name = name
        self.locale = locale
        self.channels: list[Channel] = []
        self.threads: list[Channel] = []
        self.members: list[Member] = []
        self.everyone_role = Role(guild_id, "@everyone", int(EVERYONE_PERMISSIONS))
        self.bot_role = Role(
            world.new_id(), world.bot_user.name, BOT_PERMISSIONS, position=2, managed=True
        )
        self.manager_role = Role(
            world.new_id(), "Server Managers", int(Permission.MANAGE_GUILD), position=1
        )
        self.roles = [self.everyone_role, self.manager_role, self.bot_role]
        self.joined_at = now_iso()
        # Guild scheduled events by id, as Discord answers them (GuildScheduledEvent objects),
        # and the status changes Discord made by itself (event id, new status), in order.
        self.scheduled_events: dict[int, dict[str, Any]] = {}
        self.event_moves_by_discord: list[tuple[int, EventStatus]] = []
        # Who is in which voice channel, by user id (the bot's own state included).
        self.voice_states: dict[int, VoiceState] = {}
        # The server's owner, who holds every permission (Discord: "if guild.is_owner(member):
        # return ALL"). None: the first member added, or before any, the application's owner
        # (a person, as on Discord); set it to the bot user for a server the bot owns.
        self.owner: User | None = None

    @property
    def owner_user(self) -> User:
        """Who owns the server now (see :attr:`owner`)."""
        if self.owner is not None:
            return self.owner
        return self.members[0].user if self.members else self._world.owner_user

    @property
    def bot_is_owner(self) -> bool:
        return self.owner_user is self._world.bot_user

    def __repr__(self) -> str:
        return f"<Guild {self.name!r} id={self.id}>"

    def add_channel(
        self, name: str, *, bot_can_send: bool | None = None, bot_denied: int = 0
    ) -> Channel:
        """A text channel; the first one added is where members' slash commands go by default.
        ``bot_denied`` is the bot's channel overwrite (the permission bits it denies);
        ``bot_can_send=False`` is a shorthand that adds Send Messages to it (posts fail with
        403 / 50013). Left out, ``bot_can_send`` follows ``bot_denied``; ``True`` with Send
        Messages denied contradicts itself and is refused."""
        denies_sending = bool(bot_denied & Permission.SEND_MESSAGES)
        if bot_can_send and denies_sending:
            msg = "bot_can_send=True contradicts bot_denied, which denies Send Messages"
            raise ValueError(msg)
        world = self._world
        channel = Channel(world, world.new_id(), name, self, position=len(self.channels))
        channel.bot_denied = bot_denied
        if bot_can_send is False:
            channel.bot_can_send = False
        self.channels.append(channel)
        world.register_channel(channel)
        world.dispatch_to_bot("CHANNEL_CREATE", channel.payload())
        return channel

    def add_voice_channel(self, name: str, *, bot_denied: int = 0) -> Channel:
        """A voice channel (CHANNEL_CREATE); ``bot_denied`` is the bot's overwrite there, e.g.
        ``Permission.CONNECT`` (the bot's requests to join go unanswered, as on Discord) or
        ``Permission.SPEAK`` (it may join, but the audio it sends is dropped)."""
        world = self._world
        channel = Channel(
            world, world.new_id(), name, self, ChannelType.GUILD_VOICE, position=len(self.channels)
        )
        channel.bot_denied = bot_denied
        self.channels.append(channel)
        world.register_channel(channel)
        world.dispatch_to_bot("CHANNEL_CREATE", channel.payload())
        return channel

    def voice_channel(self, name: str) -> Channel:
        channel = self.channel(name)
        if not channel.is_voice:
            raise LookupError(f"#{name} of {self.name} is not a voice channel")
        return channel

    def members_in_voice(self, channel: Channel) -> list[User]:
        """The users in ``channel`` now (the bot included when it is there), in order of joining."""
        return [state.user for state in self.voice_states.values() if state.channel is channel]

    def set_voice_state(
        self,
        user: User,
        channel: Channel | None,
        *,
        session_id: str,
        self_mute: bool = False,
        self_deaf: bool = False,
    ) -> VoiceState | None:
        """``user`` joins, moves to or (``channel=None``) leaves a voice channel of this guild;
        the bot hears VOICE_STATE_UPDATE (intent GUILD_VOICE_STATES). Returns the new state."""
        if channel is not None and (channel.guild is not self or not channel.is_voice):
            raise DriverError(f"{channel!r} is not a voice channel of {self.name}")
        if channel is None:
            state = self.voice_states.pop(user.id, None)
            if state is None:
                return None
            left = VoiceState(user, None, state.session_id, state.self_mute, state.self_deaf)
            self._world.dispatch_to_bot(
                "VOICE_STATE_UPDATE", left.payload(self), intent=Intent.GUILD_VOICE_STATES
            )
            return None
        state = VoiceState(user, channel, session_id, self_mute, self_deaf)
        self.voice_states[user.id] = state
        self._world.dispatch_to_bot(
            "VOICE_STATE_UPDATE", state.payload(self), intent=Intent.GUILD_VOICE_STATES
        )
        return state

    def add_thread(
        self,
        parent: Channel,
        name: str,
        *,
        owner: User | None = None,
        archived: bool = False,
        locked: bool = False,
    ) -> Channel:
        """A public thread of ``parent`` (THREAD_CREATE), started by ``owner`` (default: the
        bot). ``archived`` and ``locked`` as :meth:`set_thread_state`."""
        if parent.guild is not self or parent.is_thread or parent.is_dm:
            raise DriverError(f"a thread needs a text channel of {self.name}, not {parent!r}")
        world = self._world
        thread = Channel(
            world, world.new_id(), name, self, ChannelType.PUBLIC_THREAD, parent=parent
        )
        thread.owner_id = (owner or world.bot_user).id
        thread.archived, thread.locked = archived, locked
        self.threads.append(thread)
        world.register_channel(thread)
        world.dispatch_to_bot("THREAD_CREATE", {**thread.payload(), "newly_created": True})
        return thread

    def set_thread_state(
        self, thread: Channel, *, archived: bool | None = None, locked: bool | None = None
    ) -> None:
        """Archive or unarchive, lock or unlock ``thread`` as a moderator would (THREAD_UPDATE).
        In an archived thread the bot cannot edit messages or react; posting unarchives it,
        unless it is locked too (then 400 / 50083 without Manage Threads); in a locked thread
        it cannot post or edit without Manage Threads (403 / 50013)."""
        if thread not in self.threads:
            raise DriverError(f"{thread!r} is not a thread of {self.name}")
        if archived is not None and archived != thread.archived:
            thread.archived = archived
            thread.archive_timestamp = now_iso()
        if locked is not None:
            thread.locked = locked
        self._world.dispatch_to_bot("THREAD_UPDATE", thread.payload())

    def set_bot_denied(self, channel: Channel, denied: int) -> None:
        """Change the bot's overwrite in ``channel`` (as a moderator would), telling the bot."""
        channel.bot_denied = denied
        self._world.dispatch_to_bot("CHANNEL_UPDATE", channel.payload())

    def delete_channel(self, channel: Channel) -> None:
        """Delete ``channel``: requests to it answer 404 / 10003 Unknown Channel from now on."""
        channel.deleted = True
        self.channels.remove(channel)
        self._world.dispatch_to_bot("CHANNEL_DELETE", channel.payload())

    def remove_member(self, member: Member) -> None:
        """``member`` leaves the server (GUILD_MEMBER_REMOVE, which needs the privileged Server
        Members intent): from now on ``GET .../members/{user.id}`` answers 404 / 10007."""
        if member not in self.members:
            raise DriverError(f"{member.name} is not a member of {self.name}")
        self.members.remove(member)
        self._world.dispatch_to_bot(
            "GUILD_MEMBER_REMOVE",
            {"guild_id": str(self.id), "user": member.user.payload()},
            intent=Intent.GUILD_MEMBERS,
        )

    # Scheduled events

    def add_scheduled_event(
        self,
        name: str,
        *,
        creator: Member,
        start: datetime.datetime,
        end: datetime.datetime,
        location: str = "Somewhere",
    ) -> dict[str, Any]:
        """An external event made by ``creator`` in Discord's client (not by the bot): the bot
        may edit or delete it only with Manage Events."""
        event_id = self._world.new_id()
        event = self.new_event(
            event_id,
            creator.user,
            {
                "name": name,
                "scheduled_start_time": start.isoformat(),
                "scheduled_end_time": end.isoformat(),
                "entity_type": EXTERNAL_EVENT,
                "entity_metadata": {"location": location},
                "privacy_level": 2,
            },
        )
        self.scheduled_events[event_id] = event
        self._world.run_event_clock()
        return event

    def new_event(self, event_id: int, creator: User, payload: dict[str, Any]) -> dict[str, Any]:
        """The GuildScheduledEvent object Discord makes of a creation request's ``payload``."""
        external = payload["entity_type"] == EXTERNAL_EVENT
        return {
            "id": str(event_id),
            "guild_id": str(self.id),
            "name": payload["name"],
            "description": payload.get("description"),
            "channel_id": None if external else payload.get("channel_id"),
            "creator_id": str(creator.id),
            "creator": creator.payload(),
            "image": None,
            "scheduled_start_time": payload["scheduled_start_time"],
            "scheduled_end_time": payload.get("scheduled_end_time"),
            "status": int(EventStatus.SCHEDULED),
            "entity_type": payload["entity_type"],
            "entity_id": None,
            "recurrence_rule": payload.get("recurrence_rule"),
            "user_count": 0,
            "privacy_level": payload["privacy_level"],
            "guild_scheduled_event_exceptions": [],
            "entity_metadata": payload.get("entity_metadata"),
        }

    def uncompleted_events(self) -> int:
        """The events counted against Discord's limit: those scheduled or active."""
        return sum(
            1
            for event in self.scheduled_events.values()
            if event["status"] in (EventStatus.SCHEDULED, EventStatus.ACTIVE)
        )

    def automate_events(self, now: datetime.datetime) -> bool:
        """Discord's Status Update Automation, as of ``now``: "An event with 'entity_type':
        EXTERNAL at its scheduled_start_time will automatically have status set to ACTIVE",
        and at its ``scheduled_end_time`` to COMPLETED. Returns whether any event moved."""
        moved = False
        for event in self.scheduled_events.values():
            if event["entity_type"] != EXTERNAL_EVENT:
                continue
            start = event_time(event["scheduled_start_time"])
            end = event_time(event["scheduled_end_time"])
            if event["status"] == EventStatus.SCHEDULED and start is not None and start <= now:
                self._move_event(event, EventStatus.ACTIVE)
                moved = True
            if event["status"] == EventStatus.ACTIVE and end is not None and end <= now:
                self._move_event(event, EventStatus.COMPLETED)
                moved = True
        return moved

    def _move_event(self, event: dict[str, Any], status: EventStatus) -> None:
        event["status"] = int(status)
        self.event_moves_by_discord.append((int(event["id"]), status))

    def next_event_change(self) -> datetime.datetime | None:
        """When :meth:`automate_events` next has something to do (None: never)."""
        due: list[datetime.datetime] = []
        for event in self.scheduled_events.values():
            if event["entity_type"] != EXTERNAL_EVENT:
                continue
            if event["status"] == EventStatus.SCHEDULED:
                key = "scheduled_start_time"
            elif event["status"] == EventStatus.ACTIVE:
                key = "scheduled_end_time"
            else:
                continue
            moment = event_time(event[key])
            if moment is not None:
                due.append(moment)
        return min(due, default=None)

    def delete_message(self, message: Message) -> None:
        """A moderator deletes ``message`` of one of this server's channels (MESSAGE_DELETE):
        requests to it answer 404 / 10008 Unknown Message from now on, and so does a repeat of
        its enforced nonce."""
        if message.channel.guild is not self or message.deleted:
            raise DriverError(f"{message!r} is not a message of {self.name} to delete")
        self._world.message_deleted(message)

    def add_role(self, name: str, *, permissions: int = 0) -> Role:
        """A role of this server (give it with ``add_member(..., roles=[role])`` or
        :meth:`Member.give_role`); the bot is told, as Discord tells it (GUILD_ROLE_CREATE)."""
        role = Role(self._world.new_id(), name, permissions, position=len(self.roles))
        self.roles.append(role)
        self._world.dispatch_to_bot(
            "GUILD_ROLE_CREATE", {"guild_id": str(self.id), "role": role.payload()}
        )
        return role

    def delete_role(self, role: Role) -> None:
        """Delete ``role``: its members lose it and the bot is told (GUILD_ROLE_DELETE)."""
        if role is self.everyone_role or role.managed:
            raise DriverError(f"{role.name} cannot be deleted")
        self.roles.remove(role)
        for member in self.members:
            if role in member.roles:
                member.roles.remove(role)
        self._world.dispatch_to_bot(
            "GUILD_ROLE_DELETE", {"guild_id": str(self.id), "role_id": str(role.id)}
        )

    def add_member(
        self,
        who: str | User,
        *,
        manage_guild: bool = False,
        dms_open: bool = True,
        locale: str = "en-US",
        roles: Sequence[Role] = (),
    ) -> Member:
        """A person in this server: a new user named ``who``, or an existing :class:`User`
        (e.g. ``other_guild_member.user``). ``manage_guild`` grants Manage Server;
        ``dms_open=False`` makes DMs from the bot fail with 403 / 50007; ``locale`` is the
        language of their Discord client (sent with their interactions); ``roles`` are roles
        of this server (:meth:`add_role`) they hold."""
        user = (
            who
            if isinstance(who, User)
            else self._world.new_user(who, dms_open=dms_open, locale=locale)
        )
        if self.member_of(user) is not None:
            raise DriverError(f"{user.name} is already a member of {self.name}")
        member = self._new_member(user, manage_guild=manage_guild)
        for role in roles:
            member.give_role(role, tell_bot=False)
        self.members.append(member)
        self._world.dispatch_to_bot(
            "GUILD_MEMBER_ADD",
            {**member.payload(), "guild_id": str(self.id)},
            intent=Intent.GUILD_MEMBERS,
        )
        return member

    def _new_member(self, user: User, *, manage_guild: bool) -> Member:
        """The member object for ``user`` (the driver's guilds make members that can act)."""
        return Member(self._world, user, self, manage_guild=manage_guild)

    def member_of(self, user: User) -> Member | None:
        return next((m for m in self.members if m.user is user), None)

    def channel(self, name: str) -> Channel:
        for candidate in self.channels:
            if candidate.name == name:
                return candidate
        raise LookupError(
            f"{self.name} has no channel #{name}; it has {[c.name for c in self.channels]}"
        )

    @property
    def default_channel(self) -> Channel:
        if not self.channels:
            raise DriverError(f"{self.name} has no channel yet: call guild.add_channel(...) first")
        return self.channels[0]

    def bot_permissions(self) -> int:
        """The bot's server permissions, as Discord computes them: every one for the server's
        owner; else @everyone's and its role's (Administrator holding every one)."""
        if self.bot_is_owner:
            return ALL_PERMISSIONS
        granted = self.everyone_role.permissions | self.bot_role.permissions
        return ALL_PERMISSIONS if granted & Permission.ADMINISTRATOR else granted

    def bot_member_payload(self) -> dict[str, Any]:
        return {
            "user": self._world.bot_user.payload(),
            "roles": [str(self.bot_role.id)],
            "joined_at": self.joined_at,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
            "banner": None,
            "premium_since": None,
            "communication_disabled_until": None,
        }

    def payload(self) -> dict[str, Any]:
        """The GUILD_CREATE payload: channels, roles and all members (the bot included)."""
        members = [self.bot_member_payload(), *(m.payload() for m in self.members)]
        owner = self.owner_user
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(owner.id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.locale,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "vanity_url_code": None,
            "features": [],
            "roles": [role.payload() for role in self.roles],
            "emojis": [],
            "stickers": [],
            "channels": [channel.payload() for channel in self.channels],
            "threads": [t.payload() for t in self.threads if not t.archived and not t.deleted],
            "members": members,
            "member_count": len(members),
            "large": False,
            "unavailable": False,
            "joined_at": self.joined_at,
            "voice_states": [
                {k: v for k, v in state.payload(self).items() if k not in ("guild_id", "member")}
                for state in self.voice_states.values()
            ],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "application_id": None,
            "max_members": 500000,
            "premium_progress_bar_enabled": False,
            "nsfw": False,
        }


@dataclass(eq=False)
class VoiceState:
    """Someone's presence in a voice channel (Voice Resources: Voice State Object);
    ``channel`` None only in the event that says they left."""

    user: User
    channel: Channel | None
    session_id: str
    self_mute: bool = False
    self_deaf: bool = False

    def payload(self, guild: Guild) -> dict[str, Any]:
        member = guild.member_of(self.user)
        member_payload = guild.bot_member_payload() if member is None else member.payload()
        return {
            "guild_id": str(guild.id),
            "channel_id": None if self.channel is None else str(self.channel.id),
            "user_id": str(self.user.id),
            "member": member_payload,
            "session_id": self.session_id,
            "deaf": False,
            "mute": False,
            "self_deaf": self.self_deaf,
            "self_mute": self.self_mute,
            "self_stream": False,
            "self_video": False,
            "suppress": False,
            "request_to_speak_timestamp": None,
        }


class Member:
    """A person in a guild: their roles, and what the bot sent them."""

    def __init__(self, world: World, user: User, guild: Guild, *, manage_guild: bool) -> None:
        self._world = world
        self.user = user
        self.guild = guild
        self.roles: list[Role] = [guild.manager_role] if manage_guild else []
        self.joined_at = now_iso()

    def __repr__(self) -> str:
        return f"<Member {self.name} of {self.guild.name}>"

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.name

    @property
    def mention(self) -> str:
        return f"<@{self.user.id}>"

    @property
    def dms_open(self) -> bool:
        return self.user.dms_open

    @dms_open.setter
    def dms_open(self, value: bool) -> None:
        self.user.dms_open = value

    @property
    def manage_guild(self) -> bool:
        return bool(self.permissions & (Permission.MANAGE_GUILD | Permission.ADMINISTRATOR))

    def take_role(self, role: Role) -> None:
        """Take one of the member's roles away (GUILD_MEMBER_UPDATE, privileged as above)."""
        if role in self.roles:
            self.roles.remove(role)
        self._world.dispatch_to_bot(
            "GUILD_MEMBER_UPDATE",
            {**self.payload(), "guild_id": str(self.guild.id)},
            intent=Intent.GUILD_MEMBERS,
        )

    def give_role(self, role: Role, *, tell_bot: bool = True) -> None:
        """Give the member one of their server's roles (GUILD_MEMBER_UPDATE, which needs the
        privileged Server Members intent; interactions carry the member's roles anyway)."""
        if role not in self.guild.roles or role is self.guild.everyone_role or role.managed:
            raise DriverError(f"{role.name} is not a role {self.name} can be given")
        if role not in self.roles:
            self.roles.append(role)
        if tell_bot:
            self._world.dispatch_to_bot(
                "GUILD_MEMBER_UPDATE",
                {**self.payload(), "guild_id": str(self.guild.id)},
                intent=Intent.GUILD_MEMBERS,
            )

    @property
    def permissions(self) -> int:
        value = self.guild.everyone_role.permissions
        for role in self.roles:
            value |= role.permissions
        return value

    def payload(self, *, with_user: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "roles": [str(role.id) for role in self.roles],
            "joined_at": self.joined_at,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
            "premium_since": None,
            "communication_disabled_until": None,
            "banner": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        return data

    def join_voice(self, channel: Channel, *, self_mute: bool = False) -> None:
        """The person joins (or moves to) voice channel ``channel`` (VOICE_STATE_UPDATE)."""
        self.guild.set_voice_state(
            self.user, channel, session_id=secrets.token_hex(16), self_mute=self_mute
        )

    def leave_voice(self) -> None:
        """The person leaves the voice channel they are in (VOICE_STATE_UPDATE, no channel)."""
        if self.user.id not in self.guild.voice_states:
            raise DriverError(f"{self.name} is in no voice channel of {self.guild.name}")
        self.guild.set_voice_state(self.user, None, session_id="")

    @property
    def voice_channel(self) -> Channel | None:
        """The voice channel the person is in, if any."""
        state = self.guild.voice_states.get(self.user.id)
        return None if state is None else state.channel

    @property
    def dm_channel(self) -> Channel | None:
        """The DM channel the bot opened with this person, if any."""
        return self._world.dm_channel_of(self.user)

    @property
    def dms(self) -> list[Message]:
        """Messages the bot sent this person in DMs, oldest first."""
        channel = self.dm_channel
        return [] if channel is None else channel.messages

    def open_dm(self) -> Channel:
        """Open (or find) this person's DM channel with the bot, e.g. to use a command there."""
        return self._world.open_dm_channel(self.user)

    async def wait_for_dm(
        self,
        predicate: Callable[[Message], bool] | None = None,
        *,
        timeout: float = 5.0,  # noqa: ASYNC109 - a deadline for the wait is the point
    ) -> Message:
        """The first DM from the bot that matches ``predicate``, waiting up to ``timeout``."""

        def check() -> Message | None:
            return next((m for m in self.dms if predicate is None or predicate(m)), None)

        return await self._world.wait_until(
            check, timeout, lambda: f"a DM to {self.name} matching the predicate; DMs: {self.dms}"
        )


@dataclass(frozen=True)
class Failure:
    """A rule the bot broke, as Discord would have rejected or failed it.

    ``kind`` is one of: ``spec`` (request not allowed by Discord's OpenAPI spec), ``rule`` (a
    Discord limit such as 2000 characters), ``unauthorized``, ``double_ack``, ``late_ack``,
    ``interaction_failed`` (not acknowledged in time), ``bad_callback``, ``unknown_interaction``,
    ``unknown_webhook``, ``followup_before_ack``, ``followup_after_deleted_placeholder`` (a
    follow-up once a deferred response's placeholder was deleted unfilled: 404 / 10008),
    ``dm_closed`` (403 / 50007),
    ``missing_permissions`` (403 / 50013), ``unanswered`` (an interaction still not acknowledged
    when the emulator stopped), ``unsupported`` (a real route the emulator does not
    implement), ``invalid_shard`` (IDENTIFY closed with 4010), ``sharding_required`` (4011),
    ``session_start_limit`` (an IDENTIFY beyond the daily limit: sessions ended, token
    reset), ``thread_archived`` (400 / 50083), ``invalid_intents`` (4013),
    ``disallowed_intents`` (4014), ``heartbeat_timeout`` (4009), ``gateway_rate_limited``
    (4008), ``voice_protocol`` (the voice gateway or UDP used against Discord's rules) and
    ``voice_decrypt`` (an RTP packet that did not decrypt with the session's key).
    """

    kind: str
    message: str
    details: tuple[str, ...] = field(default=())

    def __str__(self) -> str:
        lines = [f"[{self.kind}] {self.message}", *(f"    {d}" for d in self.details)]
        return "\n".join(lines)


class EventSink(Protocol):
    """Where the world's events go: the gateway, which sends each to the bot sessions that
    should see it (by intent, and by shard)."""

    def dispatch(
        self,
        event: str,
        data: dict[str, Any],
        *,
        intent: int | None = None,
        guild_id: int | None = None,
        needs_message_content: bool = False,
    ) -> int:
        """Send ``event`` to every session that should see it; returns how many were live.
        ``needs_message_content``: a session without that intent gets the message emptied."""
        ...

    def connected(self) -> bool:
        """Whether a bot session is live."""
        ...

    def receives(self, guild_id: int | None) -> bool:
        """Whether a live bot session receives the events of ``guild_id`` (its shard's session;
        None: DMs, which go to shard 0)."""
        ...


class _Offline:
    """The event sink of a world no gateway serves: nobody hears anything."""

    def dispatch(
        self,
        event: str,
        data: dict[str, Any],
        *,
        intent: int | None = None,
        guild_id: int | None = None,
        needs_message_content: bool = False,
    ) -> int:
        return 0

    def connected(self) -> bool:
        return False

    def receives(self, guild_id: int | None) -> bool:
        return False


def bot_token(bot_id: int) -> str:
    """A new token for bot ``bot_id``, shaped as Discord's are (its documentation shows them
    only as examples): three dot-separated base64url parts, the first the bot's id in decimal
    (which tools read the client id from), then a timestamp and the secret part (random here)."""
    head = base64.urlsafe_b64encode(str(bot_id).encode("ascii")).decode("ascii").rstrip("=")
    stamp = base64.urlsafe_b64encode(int(time.time()).to_bytes(4, "big")).decode("ascii")
    return f"{head}.{stamp.rstrip('=')}.{secrets.token_urlsafe(28)}"


class World:
    """The emulated Discord's state: the bot's identity and token, users, guilds, channels,
    messages, attachments, synced commands and the failures recorded so far.

    Every change wakes :meth:`wait_until`; events the bot should hear go to :attr:`events`.
    """

    def __init__(self, *, token: str | None, bot_name: str) -> None:
        self._ids = SnowflakeSource()
        self.bot_user = User(self.new_id(), bot_name, bot=True)
        # None: a new token of Discord's shape, for this bot's id.
        self.token = bot_token(self.bot_user.id) if token is None else token
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
        self.events: EventSink = _Offline()
        self._changed = asyncio.Event()
        # Discord's calendar (scheduled events' times) runs this far ahead of the wall clock.
        self.clock_offset = 0.0
        self._event_timer: asyncio.TimerHandle | None = None

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
                # (asyncio.timeout, not wait_for: Python 3.11's wait_for swallows a cancel that
                # comes as the event is set, and the wait would go on.)
                async with asyncio.timeout(min(remaining, _RECHECK_SECONDS)):
                    await event.wait()
            except TimeoutError:
                continue

    async def wait_for_bot(self, timeout: float = 10.0) -> None:  # noqa: ASYNC109 - a deadline for the wait is the point
        """Wait until a bot has a live gateway session (after IDENTIFY or RESUME)."""
        await self.wait_until(self.events.connected, timeout, lambda: "a bot on the gateway")

    @property
    def bot_connected(self) -> bool:
        return self.events.connected()

    # Discord's calendar

    def now(self) -> datetime.datetime:
        """Discord's time for scheduled events: the wall clock, moved on by
        :meth:`advance_clock` (rate limits and the 3 s of interactions keep the real clock)."""
        return datetime.datetime.now(datetime.UTC) + datetime.timedelta(seconds=self.clock_offset)

    def advance_clock(self, seconds: float) -> None:
        """Let ``seconds`` pass at once for Discord's calendar: the external events whose start
        or end falls in them start or complete, as Discord moves them."""
        if seconds < 0:
            raise ValueError(f"time only moves on, not by {seconds}")
        self.clock_offset += seconds
        self.run_event_clock()

    def run_event_clock(self) -> None:
        """Make Discord's automatic status changes due by now, and wake up for the next one
        (as Discord does, whether or not anyone is looking)."""
        now = self.now()
        moved = [guild.automate_events(now) for guild in self.guilds]  # every guild, no short cut
        if any(moved):
            self.notify()
        self.stop_event_clock()
        due = min(
            (moment for guild in self.guilds if (moment := guild.next_event_change()) is not None),
            default=None,
        )
        if due is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop yet: the next request or clock move catches up
            return
        delay = max(0.0, (due - now).total_seconds())
        self._event_timer = loop.call_later(delay, self.run_event_clock)

    def stop_event_clock(self) -> None:
        if self._event_timer is not None:
            self._event_timer.cancel()
            self._event_timer = None

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

    # Users, guilds and channels

    def new_id(self) -> int:
        return self._ids.next()

    def new_guild_id(self, shard: tuple[int, int] | None = None) -> int:
        """A guild id on a shard other than the previous guild's (see
        :meth:`SnowflakeSource.next_millisecond`), or on ``shard=(shard_id, shard_count)``."""
        return self._ids.next_millisecond(shard)

    def new_user(self, name: str, *, dms_open: bool = True, locale: str = "en-US") -> User:
        user = User(self.new_id(), name, dms_open=dms_open, locale=locale)
        self.users[user.id] = user
        return user

    def get_user(self, user_id: int) -> User | None:
        return self.users.get(user_id)

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
        self.events.dispatch(
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
        # Without MESSAGE_CONTENT a bot sees other people's messages emptied, as on Discord.
        self.events.dispatch(
            event,
            self._gateway_message(message),
            intent=Intent.GUILD_MESSAGES if guild is not None else Intent.DIRECT_MESSAGES,
            guild_id=None if guild is None else guild.id,
            needs_message_content=(
                guild is not None
                and message.author is not self.bot_user
                and f"<@{self.bot_user.id}>" not in message.content
            ),
        )

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
            intent = Intent.DIRECT_MESSAGES
            if guild is not None:
                data["guild_id"] = str(guild.id)
                intent = Intent.GUILD_MESSAGES
            self.events.dispatch(
                "MESSAGE_DELETE", data, intent=intent, guild_id=None if guild is None else guild.id
            )
        self.notify()

    def post_user_message(self, user: User, channel: Channel, content: str) -> Message:
        message = Message(self.new_id(), channel, user, content=content)
        self.message_created(message)
        return message
