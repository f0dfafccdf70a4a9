"""Every button and select the bot posts, and where their presses go.

A component's custom id says which cog it belongs to, by the prefix that cog registered when it
was loaded: ``gn:<prefix>:<action>:<subject>[:<arg>]`` for a button, ``gs:...`` for a select
(``gn:ttt:cell:12:4``, ``gs:dots:line:7:0``, ``gn:forget:yes:<member>:<until>``). There is one
button class (:class:`GameButton`) and one select class (:class:`GameSelect`), registered with
discord.py as dynamic items whose templates match any prefix, so a press reaches its cog after a
restart too, and a new game's buttons need nothing here: its cog calls :func:`route_presses`.

A press with a prefix no loaded cog registered (a game taken out, a crafted id) is refused
privately by message key, never "This interaction failed"; so is an id of the right prefix but
not of this shape.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.replies import UserError, after_answer, report_error

BUTTON_FAMILY = "gn"  # a button's custom id starts with it
SELECT_FAMILY = "gs"  # a select's

# What follows the prefix: the action (letters, maybe a number: ``claim2``), the subject (a
# game's id, or a member's for the forget-me answers) and an optional argument.
_TAIL = re.compile(r"(?P<action>[a-z]+[0-9]*):(?P<subject>\d+)(?::(?P<arg>[A-Za-z0-9]+))?")
# Any prefix: a press the bot cannot route is refused politely rather than ignored.
_ANY_PREFIX = r":(?P<prefix>[a-z]+):(?P<tail>.*)"


@dataclass(frozen=True, slots=True)
class Press:
    """A button press or a select's choice, as its custom id and the member's choice say."""

    prefix: str  # which cog's (``ttt``, ``loteria``, ``forget``...)
    action: str  # what to do (``cell``, ``join``, ``yes``...)
    subject: int  # what on: a game's id (or a member's, for the forget-me answers)
    arg: str = ""  # more about it (a cell, a page), or ""
    values: tuple[str, ...] = ()  # a select's chosen values (none for a button)


Handler = Callable[[discord.Interaction[Any], Press], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Route:
    """Where the presses of one prefix go, and how an error log names what was pressed."""

    handle: Handler
    context: Callable[[Press], str]


# Each client's routes, by prefix (weakly: a bot stopped in a test leaves nothing behind).
_routes: weakref.WeakKeyDictionary[discord.Client, dict[str, Route]] = weakref.WeakKeyDictionary()


def _game_context(press: Press) -> str:
    return f"{press.prefix} game {press.subject}"


def route_presses(
    client: discord.Client,
    prefix: str,
    handle: Handler,
    *,
    context: Callable[[Press], str] = _game_context,
) -> None:
    """Send the presses of ``client``'s components with ``prefix`` to ``handle`` (a cog calls it
    when it is loaded). ``context`` names what was pressed in the error log."""
    if not re.fullmatch(r"[a-z]+", prefix):
        raise ValueError(f"a component prefix is lowercase letters: {prefix!r}")
    client.add_dynamic_items(GameButton, GameSelect)  # the same two for every prefix
    _routes.setdefault(client, {})[prefix] = Route(handle, context)


def drop_route(client: discord.Client, prefix: str) -> None:
    """Stop routing ``prefix`` (its cog is unloaded); its presses are then refused politely."""
    _routes.get(client, {}).pop(prefix, None)


def custom_id(family: str, prefix: str, action: str, subject: int, arg: str | int = "") -> str:
    """A component's custom id: ``<family>:<prefix>:<action>:<subject>[:<arg>]``."""
    tail = f":{arg}" if arg != "" else ""
    return f"{family}:{prefix}:{action}:{subject}{tail}"


async def deliver(
    interaction: discord.Interaction[Any], prefix: str, tail: str, values: Sequence[str]
) -> None:
    """Hand a press to the cog that registered ``prefix``; every error becomes a private reply
    to the presser (never "This interaction failed"), and notices waiting for the member
    follow the answer."""
    route = _routes.get(interaction.client, {}).get(prefix)
    context = f"{prefix} component"
    try:
        if route is None:
            raise UserError("not_available")
        parts = _TAIL.fullmatch(tail)
        if parts is None:
            raise UserError("button_gone")
        press = Press(
            prefix, parts["action"], int(parts["subject"]), parts["arg"] or "", tuple(values)
        )
        context = route.context(press)
        await route.handle(interaction, press)
    except Exception as error:
        await report_error(interaction, error, context=context)
    await after_answer(interaction)


class GameButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_FAMILY + _ANY_PREFIX
):
    """Every button the bot posts; its custom id names the cog's prefix, the action, the
    subject and an argument, so a press is routed after a restart too."""

    def __init__(self, prefix: str, tail: str, button: discord.ui.Button[Any]) -> None:
        self.prefix, self.tail = prefix, tail
        button.custom_id = f"{BUTTON_FAMILY}:{prefix}:{tail}"
        super().__init__(button)

    @classmethod
    def make(
        cls,
        prefix: str,
        action: str,
        subject: int,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        *,
        arg: str | int = "",
        emoji: str | None = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> GameButton:
        """A button sending ``action`` on ``subject`` (and ``arg``) to the cog of ``prefix``."""
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label, style=style, emoji=emoji, disabled=disabled, row=row
        )
        tail = custom_id(BUTTON_FAMILY, prefix, action, subject, arg).split(":", 2)[2]
        return cls(prefix, tail, button)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GameButton:
        """The button again from its custom id, after a restart too."""
        assert isinstance(item, discord.ui.Button)
        return cls(match["prefix"], match["tail"], item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hands the press to the cog of its prefix."""
        await deliver(interaction, self.prefix, self.tail, ())


class GameSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_FAMILY + _ANY_PREFIX
):
    """Every string select the bot posts (Dots and Boxes' lines, in pages of 25), routed as
    :class:`GameButton` is, with the values chosen."""

    def __init__(self, prefix: str, tail: str, select: discord.ui.Select[Any]) -> None:
        self.prefix, self.tail = prefix, tail
        select.custom_id = f"{SELECT_FAMILY}:{prefix}:{tail}"
        super().__init__(select)

    @classmethod
    def make(
        cls,
        prefix: str,
        action: str,
        subject: int,
        *,
        options: Sequence[discord.SelectOption],
        placeholder: str,
        arg: str | int = "",
        row: int | None = None,
    ) -> GameSelect:
        """A select sending ``action`` on ``subject`` (and ``arg``) with the values chosen to the
        cog of ``prefix``."""
        select: discord.ui.Select[Any] = discord.ui.Select(
            options=list(options), placeholder=placeholder, row=row
        )
        tail = custom_id(SELECT_FAMILY, prefix, action, subject, arg).split(":", 2)[2]
        return cls(prefix, tail, select)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GameSelect:
        """The select again from its custom id, after a restart too."""
        assert isinstance(item, discord.ui.Select)
        return cls(match["prefix"], match["tail"], item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hands the chosen values to the cog of its prefix."""
        values = tuple(str(value) for value in self.item.values)
        await deliver(interaction, self.prefix, self.tail, values)
