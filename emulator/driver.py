"""The test driver in a Discord user's vocabulary: guilds whose members act (slash commands,
clicks, selects, modals, autocomplete, messages). Above the model and the interactions; the
server builds its guilds from :class:`Guild`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from emulator import model
from emulator.interactions import (
    DriverError,
    InteractionResult,
    InteractionType,
    InteractionWorld,
    build_command_data,
    find_command,
)
from emulator.model import Channel, Message, Permission, Role, User, iter_components

_LINK_BUTTON_STYLES = (5, 6)  # link and premium buttons open something, they send nothing
_SELECT_TYPES = (3, 5, 6, 7, 8)


class Guild(model.Guild):
    """A server whose members can act: :meth:`add_member` returns a :class:`Member`."""

    def __init__(
        self, world: InteractionWorld, guild_id: int, name: str, *, locale: str = "en-US"
    ) -> None:
        super().__init__(world, guild_id, name, locale=locale)
        self._interactions = world

    def _new_member(self, user: User, *, manage_guild: bool) -> Member:
        return Member(self._interactions, user, self, manage_guild=manage_guild)

    def add_member(
        self,
        who: str | User,
        *,
        manage_guild: bool = False,
        dms_open: bool = True,
        locale: str = "en-US",
        roles: Sequence[Role] = (),
    ) -> Member:
        """A person in this server (see :meth:`emulator.model.Guild.add_member`)."""
        member = super().add_member(
            who, manage_guild=manage_guild, dms_open=dms_open, locale=locale, roles=roles
        )
        assert isinstance(member, Member)  # made by _new_member
        return member

    def member_of(self, user: User) -> Member | None:
        member = super().member_of(user)
        assert member is None or isinstance(member, Member)  # made by _new_member
        return member


class Member(model.Member):
    """A person in a guild, and the things they do in Discord."""

    def __init__(
        self, world: InteractionWorld, user: User, guild: Guild, *, manage_guild: bool
    ) -> None:
        super().__init__(world, user, guild, manage_guild=manage_guild)
        self._interactions = world
        self.guild: Guild = guild

    # Acting.

    def _resolve_command(self, command: str, channel: Channel) -> tuple[dict[str, Any], list[str]]:
        words = command.strip().lstrip("/").split()
        if not words:
            raise DriverError("empty command name")
        guild = channel.guild
        pool = self._interactions.commands_visible_in(guild)
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
        if channel.is_thread and channel.archived:
            # Topics: Threads: "Users cannot ... use application commands ... in archived threads".
            raise DriverError(f"{channel!r} is an archived thread: no one can use commands there")
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
        return await self._interactions.start_interaction(
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
        result = await self._interactions.start_interaction(
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
        return await self._interactions.start_interaction(
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
                if isinstance(value, model.Member | User):
                    user = value.user if isinstance(value, model.Member) else value
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
        return await self._interactions.start_interaction(
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
        return await self._interactions.start_interaction(
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
        return self._interactions.post_user_message(self.user, channel, content)
