"""The base of every table game: components routed by the game's prefix, one lock per game,
compare-and-set writes of the engine state, a deadline per live game watched by one timer task,
and the one-game-of-each-kind rule (:class:`TableGameCog`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord.utils import MISSING

from bot.acks import Place
from bot.components import BUTTON_FAMILY, SELECT_FAMILY, Press, custom_id, route_presses
from bot.games import GameCog
from bot.replies import answer
from bot.storage import GameRow
from bot.table.options import TableOptions

if TYPE_CHECKING:
    from bot.app import GameNightBot

log = logging.getLogger(__name__)

BOT_SEAT_ID = 0  # the user id stored for the bot's seat in a game's options
CHALLENGE_SECONDS = 300  # how long a challenged member has to accept
MIN_TURN_SECONDS, MAX_TURN_SECONDS = 15, 900
SHUTDOWN_GRACE = 3.0


@dataclass(frozen=True, slots=True)
class SandboxPlan:
    """How a sandbox night (``bot.sandbox``) plays a table game: the options its host gives
    ``/<kind> play``, and ``opponent``, the option naming the member the host challenges (a
    duel between two simulated members); None: the host plays alone, or against the bot."""

    start: Mapping[str, Any] = field(default_factory=dict)
    opponent: str | None = None

    @property
    def members(self) -> int:
        """How many simulated members the game seats."""
        return 1 if self.opponent is None else 2


@dataclass(frozen=True, slots=True)
class SandboxPress:
    """What a simulated member does next on a table game's message: ``user_id`` presses the
    button ``custom_id``, or picks ``values`` in the select ``custom_id``; ``said`` is the move
    in words, for the sandbox's transcript."""

    user_id: int
    custom_id: str
    values: tuple[str, ...] = ()
    said: str = ""


@dataclass
class LiveTable:
    """In-memory companions of a stored game: its lock and its deadline timer."""

    game_id: int
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    timer: asyncio.Task[None] | None = None

    def tasks(self) -> tuple[asyncio.Task[None] | None, ...]:
        """The deadline timer."""
        return (self.timer,)


@dataclass(frozen=True, slots=True)
class Shown:
    """What a game message shows: text, components and (optionally) new attachments."""

    content: str
    view: discord.ui.View
    files: list[discord.File] | None = None  # None: keep the message's attachments


class TableGameCog(GameCog[LiveTable]):
    """Components, locks, deadlines and the one-game-of-each-kind rule."""

    prefix: ClassVar[str]  # the custom-id prefix
    start_subcommand = "play"
    # How a sandbox night plays the game (bot.sandbox); None: it cannot.
    sandbox_plan: ClassVar[SandboxPlan | None] = None

    def __init__(self, bot: GameNightBot) -> None:
        super().__init__(bot)
        # Checking that a member is free and seating them must not interleave.
        self.seating = asyncio.Lock()

    def new_live(self, game_id: int) -> LiveTable:
        """A fresh companion for game ``game_id``."""
        return LiveTable(game_id)

    # -- hooks ---------------------------------------------------------------------------------

    async def on_component(
        self,
        interaction: discord.Interaction[Any],
        action: str,
        game_id: int,
        arg: str,
        values: Sequence[str],
    ) -> None:
        """A button or select of game ``game_id`` was used: ``action`` with ``arg`` and the chosen
        ``values``."""
        raise NotImplementedError

    async def on_deadline(self, game: GameRow) -> None:
        """The game's deadline passed (called under its lock); must end it or move the deadline."""
        raise NotImplementedError

    def sandbox_press(self, game: GameRow, rng: random.Random) -> SandboxPress | None:
        """What a sandbox's simulated member presses next in ``game`` (a game with a
        :attr:`sandbox_plan`), chosen with the engine and ``rng``; None while nobody is to move
        (the bot's turn, or the game is over)."""
        return None

    def button_id(self, action: str, game_id: int, arg: str | int = "") -> str:
        """The custom id of the game's button ``action`` (with ``arg``) on game ``game_id``."""
        return custom_id(BUTTON_FAMILY, self.prefix, action, game_id, arg)

    def select_id(self, action: str, game_id: int, arg: str | int = "") -> str:
        """The custom id of the game's select ``action`` (with ``arg``) on game ``game_id``."""
        return custom_id(SELECT_FAMILY, self.prefix, action, game_id, arg)

    # -- lifecycle -----------------------------------------------------------------------------

    @classmethod
    def button_prefix(cls) -> str:
        """The game's own short prefix (``ttt``), not its kind."""
        return cls.prefix

    async def on_press(self, interaction: discord.Interaction[Any], press: Press) -> None:
        """A press of one of the game's components, routed here by its prefix."""
        await self.on_component(interaction, press.action, press.subject, press.arg, press.values)

    async def cog_load(self) -> None:
        """Routes the game's components here, and brings back each live game and its deadline
        timer."""
        route_presses(self.bot, self.prefix, self.on_press)
        for game in await self.storage.live_games(self.kind):
            if not self.bot.runs_guild(game.guild_id):
                continue  # another shard's: another process runs it
            self.remember(game)
            await self.after_restart(game)
            self.arm_timer(game.id)

    async def after_restart(self, game: GameRow) -> None:
        """Bring a live game back after a restart, before its timer is armed."""

    # -- deadlines -----------------------------------------------------------------------------

    def deadline_after(self, seconds: float) -> float:
        """The wall-clock time ``seconds`` from now, on the bot's (test-scalable) clock."""
        return time.time() + seconds * self.bot.time_scale

    def arm_timer(self, game_id: int) -> None:
        """Watch the game's deadline (start the timer, or make it look again)."""
        if self.closing:
            return
        live = self.live_game(game_id)
        if live.timer is None or live.timer.done():
            live.timer = asyncio.create_task(self._timer(game_id), name=f"{self.kind}-{game_id}")
        else:
            live.wake.set()

    async def _timer(self, game_id: int) -> None:
        live = self.live_game(game_id)

        async def watch() -> bool:
            game = await self.storage.get_game(game_id)
            if game is None or not game.status.is_live:
                return False
            deadline = self.deadline_of(game)
            if deadline is None:
                return False
            delay = deadline - time.time()
            if delay > 0:
                live.wake.clear()
                if self.is_closing():
                    return False  # shutdown set the event just before it was cleared
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(live.wake.wait(), timeout=delay)
                return True  # woken by a move or shutdown, or the time is up: look again
            async with live.lock:
                fresh = await self.storage.get_game(game_id)
                if fresh is None or not fresh.status.is_live:
                    return False
                if (self.deadline_of(fresh) or 0) <= time.time():
                    await self.on_deadline(fresh)
            return True

        await self.keep_running(game_id, watch)

    # -- looking things up ---------------------------------------------------------------------

    async def game_by_id(self, game_id: int) -> GameRow:
        """Game ``game_id`` of this kind; refuses privately if there is none."""
        game = await self.storage.get_game(game_id)
        if game is None or game.kind != self.kind:
            raise self.refusal("table_no_such_game", game=game_id)
        return game

    def remembered_of_player(self, user_id: int) -> list[GameRow]:
        """The live games of this kind seating ``user_id``, from memory."""
        return sorted(
            (game for game in self.known.values() if user_id in self.seats_of(game)),
            key=lambda game: game.id,
        )

    def seats_of(self, game: GameRow) -> list[int]:
        """The members playing a game, as the players stored: its host (a duel adds the other
        member once a challenge is accepted)."""
        return [game.host_id]

    @staticmethod
    def deadline_of(game: GameRow) -> float | None:
        """When the game's timer acts (None: it waits for nothing)."""
        return TableOptions.from_stored(game.options).deadline

    @contextlib.asynccontextmanager
    async def seated_in_order(
        self, interaction: discord.Interaction[Any], *members: discord.abc.Snowflake | None
    ) -> AsyncIterator[Place]:
        """A place in the line of each member's games of this kind (``bot.acks.InOrder``),
        taken at once and given up at the end: their games open in the order asked."""
        keys = [(self.kind, interaction.user.id)]
        keys += [(self.kind, member.id) for member in members if member is not None]
        place = self.bot.in_order.place(*dict.fromkeys(keys))
        try:
            yield place
        finally:
            place.leave()

    def check_free_in_memory(self, user_id: int, *, member: str | None = None) -> None:
        """:meth:`check_free` from memory: before the acknowledgement, the refusal is private."""
        self.refuse_busy(self.remembered_of_player(user_id), member)

    async def check_free(self, user_id: int, *, member: str | None = None) -> None:
        """Refuse if ``user_id`` is already in a live game of this kind (call under seating);
        ``member`` names them when they are not the one asking."""
        self.refuse_busy(await self.storage.live_games_of_player(user_id, self.kind), member)

    def refuse_busy(self, games: Sequence[GameRow], member: str | None) -> None:
        """The refusal of a member already playing ``games`` (none: no refusal)."""
        if games:
            where = _jump_link(games[0])
            if member is None:
                raise self.refusal("table_you_busy", game=games[0].id, where=where)
            raise self.refusal("table_member_busy", member=member, game=games[0].id, where=where)

    # -- showing -------------------------------------------------------------------------------

    async def show(
        self,
        game: GameRow,
        shown: Shown,
        interaction: discord.Interaction[Any] | None = None,
    ) -> None:
        """Put ``shown`` on the game's message: through ``interaction`` when it was pressed
        there (it must be deferred), otherwise by editing the stored message."""
        attachments: Any = MISSING if shown.files is None else shown.files
        # (Pressed on the game's message: also before its id is stored, a press that came
        # while the database stored it.)
        if (
            interaction is not None
            and interaction.message is not None
            and game.lobby_message_id in {None, interaction.message.id}
        ):
            await interaction.edit_original_response(
                content=shown.content, view=shown.view, attachments=attachments
            )
            return
        if game.lobby_message_id is None:
            return
        channel = self.bot.get_partial_messageable(game.channel_id)
        try:
            await channel.get_partial_message(game.lobby_message_id).edit(
                content=shown.content, view=shown.view, attachments=attachments
            )
        except discord.HTTPException:
            log.warning("could not update the message of %s game %s", self.kind, game.id)

    async def post(self, interaction: discord.Interaction[Any], shown: Shown) -> discord.Message:
        """Answer ``interaction`` with a new public message and return it (after
        :func:`defer_public`, the message fills the placeholder; after a component's silent
        acknowledgement, it is a follow-up)."""
        posted = await answer(
            interaction, shown.content, ephemeral=False, files=shown.files or (), view=shown.view
        )
        return posted if posted is not None else await interaction.original_response()


def _jump_link(game: GameRow) -> str:
    if game.guild_id is None or game.lobby_message_id is None:
        return ""
    return (
        f" (https://discord.com/channels/{game.guild_id}/{game.channel_id}/{game.lobby_message_id})"
    )
