"""The test driver in a Discord user's vocabulary: guilds with channels and members, and what a
member does (slash commands, clicks, selects, modals, autocomplete, messages, reading DMs)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from emulator.interactions import (
    DriverError,
    InteractionResult,
    InteractionType,
    build_command_data,
    find_command,
)
from emulator.model import (
    EVERYONE_PERMISSIONS,
    Channel,
    Message,
    Permission,
    Role,
    User,
    iter_components,
    now_iso,
)

if TYPE_CHECKING:
    from emulator.server import Emulator

BOT_PERMISSIONS = int(EVERYONE_PERMISSIONS)
_LINK_BUTTON_STYLES = (5, 6)  # link and premium buttons open something, they send nothing
_SELECT_TYPES = (3, 5, 6, 7, 8)


class Guild:
    """A server. Add channels and members with :meth:`add_channel` and :meth:`add_member`."""

    def __init__(self, emu: Emulator, guild_id: int, name: str, *, locale: str = "en-US") -> None:
        self._emu = emu
        self.id = guild_id
        self.name = name
        self.locale = locale
        self.channels: list[Channel] = []
        self.members: list[Member] = []
        self.everyone_role = Role(guild_id, "@everyone", int(EVERYONE_PERMISSIONS))
        self.bot_role = Role(
            emu.new_id(), emu.bot_user.name, BOT_PERMISSIONS, position=2, managed=True
        )
        self.manager_role = Role(
            emu.new_id(), "Server Managers", int(Permission.MANAGE_GUILD), position=1
        )
        self.roles = [self.everyone_role, self.manager_role, self.bot_role]
        self.joined_at = now_iso()

    def __repr__(self) -> str:
        return f"<Guild {self.name!r} id={self.id}>"

    def add_channel(
        self, name: str, *, bot_can_send: bool = True, bot_denied: int = 0
    ) -> Channel:
        """A text channel; the first one added is where members' slash commands go by default.
        ``bot_can_send=False`` denies the bot Send Messages there (posts fail with 403 / 50013);
        ``bot_denied`` denies it any other permission bits (a channel overwrite)."""
        channel = Channel(self._emu, self._emu.new_id(), name, self, position=len(self.channels))
        channel.bot_denied = bot_denied
        channel.bot_can_send = bot_can_send
        self.channels.append(channel)
        self._emu.register_channel(channel)
        self._emu.dispatch_to_bot("CHANNEL_CREATE", channel.payload())
        return channel

    def set_bot_denied(self, channel: Channel, denied: int) -> None:
        """Change the bot's overwrite in ``channel`` (as a moderator would), telling the bot."""
        channel.bot_denied = denied
        self._emu.dispatch_to_bot("CHANNEL_UPDATE", channel.payload())

    def delete_channel(self, channel: Channel) -> None:
        """Delete ``channel``: requests to it answer 404 / 10003 Unknown Channel from now on."""
        channel.deleted = True
        self.channels.remove(channel)
        self._emu.dispatch_to_bot("CHANNEL_DELETE", channel.payload())

    def add_member(
        self,
        who: str | User,
        *,
        manage_guild: bool = False,
        dms_open: bool = True,
        locale: str = "en-US",
    ) -> Member:
        """A person in this server: a new user named ``who``, or an existing :class:`User`
        (e.g. ``other_guild_member.user``). ``manage_guild`` grants Manage Server;
        ``dms_open=False`` makes DMs from the bot fail with 403 / 50007; ``locale`` is the
        language of their Discord client (sent with their interactions)."""
        user = (
            who
            if isinstance(who, User)
            else self._emu.new_user(who, dms_open=dms_open, locale=locale)
        )
        if self.member_of(user) is not None:
            raise DriverError(f"{user.name} is already a member of {self.name}")
        member = Member(self._emu, user, self, manage_guild=manage_guild)
        self.members.append(member)
        self._emu.dispatch_to_bot(
            "GUILD_MEMBER_ADD", {**member.payload(), "guild_id": str(self.id)}, intent=1 << 1
        )
        return member

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
        return self.everyone_role.permissions | self.bot_role.permissions

    def bot_member_payload(self) -> dict[str, Any]:
        return {
            "user": self._emu.bot_user.payload(),
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
        owner = self.members[0].user if self.members else self._emu.bot_user
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
            "threads": [],
            "members": members,
            "member_count": len(members),
            "large": False,
            "unavailable": False,
            "joined_at": self.joined_at,
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "application_id": None,
            "max_members": 500000,
            "premium_progress_bar_enabled": False,
            "nsfw": False,
        }


class Member:
    """A person in a guild, and the things they do in Discord."""

    def __init__(self, emu: Emulator, user: User, guild: Guild, *, manage_guild: bool) -> None:
        self._emu = emu
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

    # Reading what the bot sent.

    @property
    def dm_channel(self) -> Channel | None:
        """The DM channel the bot opened with this person, if any."""
        return self._emu.dm_channel_of(self.user)

    @property
    def dms(self) -> list[Message]:
        """Messages the bot sent this person in DMs, oldest first."""
        channel = self.dm_channel
        return [] if channel is None else channel.messages

    def open_dm(self) -> Channel:
        """Open (or find) this person's DM channel with the bot, e.g. to use a command there."""
        return self._emu.open_dm_channel(self.user)

    async def wait_for_dm(
        self,
        predicate: Callable[[Message], bool] | None = None,
        *,
        timeout: float = 5.0,  # noqa: ASYNC109 - a deadline for the wait is the point
    ) -> Message:
        """The first DM from the bot that matches ``predicate``, waiting up to ``timeout``."""

        def check() -> Message | None:
            return next((m for m in self.dms if predicate is None or predicate(m)), None)

        return await self._emu.wait_until(
            check, timeout, lambda: f"a DM to {self.name} matching the predicate; DMs: {self.dms}"
        )

    # Acting.

    def _resolve_command(self, command: str, channel: Channel) -> tuple[dict[str, Any], list[str]]:
        words = command.strip().lstrip("/").split()
        if not words:
            raise DriverError("empty command name")
        guild = channel.guild
        pool = self._emu.commands_visible_in(guild)
        found = find_command(pool, words[0])
        if found is None:
            names = sorted({str(c["name"]) for c in pool})
            raise DriverError(
                f"/{words[0]} is not a synced command where {self.name} is ({channel!r}); "
                f"synced there: {names}"
            )
        required = found.get("default_member_permissions")
        if guild is not None and required is not None:
            needed = int(required)
            has = self.permissions
            if not has & Permission.ADMINISTRATOR and (needed == 0 or has & needed != needed):
                raise DriverError(
                    f"{self.name} cannot see /{words[0]}: it needs permissions {needed:#x} "
                    "(default_member_permissions)"
                )
        return found, words[1:]

    def _channel_for(self, in_channel: Channel | None) -> Channel:
        channel = self.guild.default_channel if in_channel is None else in_channel
        if channel.guild is not None and channel.guild is not self.guild:
            raise DriverError(f"{self.name} is not in {channel.guild.name}")
        if channel.is_dm and channel.recipient is not self.user:
            raise DriverError(f"{channel!r} is not {self.name}'s DM with the bot")
        return channel

    async def slash(
        self,
        command: str,
        /,
        *,
        in_channel: Channel | None = None,
        options: Mapping[str, Any] | None = None,
        **values: Any,
    ) -> InteractionResult:
        """Run ``/command`` (subcommands separated by spaces, e.g. ``"loteria claim"``) with
        options as keyword arguments (or ``options=`` for names that clash), in
        ``in_channel`` (default: the guild's first channel). Returns once Discord has sent the
        interaction to the bot; await the result's ``reply()`` for the answer."""
        channel = self._channel_for(in_channel)
        found, words = self._resolve_command(command, channel)
        merged = {**(options or {}), **values}
        data = build_command_data(found, words, merged, channel.guild)
        return await self._emu.start_interaction(
            InteractionType.APPLICATION_COMMAND,
            self.user,
            channel,
            data,
            command_name=" ".join([found["name"], *words]),
        )

    async def autocomplete(
        self,
        command: str,
        option: str,
        typed: str,
        /,
        *,
        in_channel: Channel | None = None,
        timeout: float = 5.0,  # noqa: ASYNC109 - a deadline for the wait is the point
        **values: Any,
    ) -> list[dict[str, Any]]:
        """Type ``typed`` into ``option`` of ``/command`` and return the bot's choices
        (dicts with ``name`` and ``value``); other already-filled options as keywords."""
        channel = self._channel_for(in_channel)
        found, words = self._resolve_command(command, channel)
        data = build_command_data(
            found, words, {**values, option: typed}, channel.guild, focused=option
        )
        result = await self._emu.start_interaction(
            InteractionType.APPLICATION_COMMAND_AUTOCOMPLETE,
            self.user,
            channel,
            data,
            command_name=" ".join([found["name"], *words]),
        )
        await result.acknowledgement(timeout)
        return list(result.choices or [])

    def _component(self, message: Message, custom_id: str) -> dict[str, Any]:
        if not message.visible_to(self.user):
            raise DriverError(f"{self.name} cannot see message {message.id}")
        if message.channel.guild is not None and message.channel.guild is not self.guild:
            raise DriverError(f"{self.name} is not in {message.channel.guild.name}")
        component = message.component(custom_id)
        if component is None:
            raise DriverError(
                f"message {message.id} has no component {custom_id!r}; it has {message.custom_ids}"
            )
        if component.get("disabled"):
            raise DriverError(f"component {custom_id!r} on message {message.id} is disabled")
        return component

    async def click(self, message: Message, custom_id: str) -> InteractionResult:
        """Click the button ``custom_id`` on ``message``."""
        component = self._component(message, custom_id)
        if component.get("type") != 2 or component.get("style") in _LINK_BUTTON_STYLES:
            raise DriverError(f"{custom_id!r} on message {message.id} is not a clickable button")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        if "id" in component:
            data["id"] = component["id"]
        return await self._emu.start_interaction(
            InteractionType.MESSAGE_COMPONENT,
            self.user,
            message.channel,
            data,
            source_message=message,
            custom_id=custom_id,
        )

    async def select(
        self, message: Message, custom_id: str, values: Sequence[Any]
    ) -> InteractionResult:
        """Pick ``values`` in the select menu ``custom_id``: option values for a string select,
        members / channels / roles for the other select kinds."""
        component = self._component(message, custom_id)
        kind = component.get("type")
        if kind not in _SELECT_TYPES:
            raise DriverError(f"{custom_id!r} on message {message.id} is not a select menu")
        low, high = int(component.get("min_values", 1)), int(component.get("max_values", 1))
        if not low <= len(values) <= high:
            raise DriverError(
                f"select {custom_id!r} takes {low} to {high} values, got {len(values)}"
            )
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
        if kind == 3:
            offered = [str(option["value"]) for option in component.get("options", [])]
            picked = [str(value) for value in values]
            unknown = [value for value in picked if value not in offered]
            if unknown:
                raise DriverError(f"select {custom_id!r} offers {offered}, not {unknown}")
            data["values"] = picked
        else:
            resolved: dict[str, dict[str, Any]] = {}
            ids = []
            for value in values:
                if isinstance(value, Member | User):
                    user = value.user if isinstance(value, Member) else value
                    resolved.setdefault("users", {})[str(user.id)] = user.payload()
                    member = self.guild.member_of(user)
                    if member is not None:
                        resolved.setdefault("members", {})[str(user.id)] = member.payload(
                            with_user=False
                        )
                    ids.append(str(user.id))
                elif isinstance(value, Channel):
                    channel_data = value.payload()
                    channel_data["permissions"] = str(self.guild.bot_permissions())
                    resolved.setdefault("channels", {})[str(value.id)] = channel_data
                    ids.append(str(value.id))
                elif isinstance(value, Role):
                    resolved.setdefault("roles", {})[str(value.id)] = value.payload()
                    ids.append(str(value.id))
                else:
                    raise DriverError(f"select {custom_id!r} cannot take {value!r}")
            data["values"] = ids
            data["resolved"] = resolved
        return await self._emu.start_interaction(
            InteractionType.MESSAGE_COMPONENT,
            self.user,
            message.channel,
            data,
            source_message=message,
            custom_id=custom_id,
        )

    async def submit_modal(
        self, shown_by: InteractionResult, values: Mapping[str, str | Sequence[str]]
    ) -> InteractionResult:
        """Fill in and submit the modal the bot showed in answer to ``shown_by``; ``values``
        maps each text input's (or select's) custom_id to what is entered."""
        modal = shown_by.modal
        if modal is None:
            raise DriverError(f"the bot showed no modal in answer to {shown_by.describe()}")
        if shown_by.user is not self.user:
            raise DriverError(f"that modal was shown to {shown_by.user.name}, not {self.name}")
        remaining = dict(values)
        submitted = [self._fill(component, remaining) for component in modal.get("components", [])]
        if remaining:
            known = [c.get("custom_id") for c in iter_components(modal.get("components", []))]
            raise DriverError(f"the modal has no inputs {sorted(remaining)}; it has {known}")
        data = {"custom_id": modal["custom_id"], "components": submitted}
        return await self._emu.start_interaction(
            InteractionType.MODAL_SUBMIT,
            self.user,
            shown_by.channel,
            data,
            source_message=shown_by.source_message,
            custom_id=str(modal["custom_id"]),
            parent=shown_by,
        )

    def _fill(self, component: dict[str, Any], remaining: dict[str, Any]) -> dict[str, Any]:
        kind = component.get("type")
        out: dict[str, Any] = {"type": kind}
        if "id" in component:
            out["id"] = component["id"]
        if kind == 1:
            out["components"] = [self._fill(c, remaining) for c in component.get("components", [])]
        elif kind == 18:
            out["component"] = self._fill(component["component"], remaining)
        elif kind == 4:
            custom_id = str(component["custom_id"])
            text = remaining.pop(custom_id, "")
            if not isinstance(text, str):
                raise DriverError(f"text input {custom_id!r} takes text, got {text!r}")
            if component.get("required", True) and not text:
                raise DriverError(f"text input {custom_id!r} is required")
            low, high = int(component.get("min_length", 0)), int(component.get("max_length", 4000))
            if text and not low <= len(text) <= high:
                raise DriverError(f"text input {custom_id!r} takes {low} to {high} characters")
            out["custom_id"] = custom_id
            out["value"] = text
        elif kind in _SELECT_TYPES:
            custom_id = str(component["custom_id"])
            picked = remaining.pop(custom_id, [])
            out["custom_id"] = custom_id
            out["values"] = [picked] if isinstance(picked, str) else list(picked)
        return out

    async def say(self, channel: Channel, content: str) -> Message:
        """Post ``content`` in ``channel`` as this person (the bot gets MESSAGE_CREATE)."""
        self._channel_for(channel)
        return self._emu.post_user_message(self.user, channel, content)
