"""What Lotería and Housie nights share: lobby, dealing by DM, the caller's timer, claims,
host controls, the end summary and verification. The two cogs plug their rules in.

Every change is written to SQLite before it is announced. A draw is announced with a nonce
derived from (game, draw number), so a re-announcement after a crash cannot post twice.
The end's summary fits Discord's 2,000 characters: a crowded game's winners are condensed per
prize in it, and named in full in the messages that follow.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import re
import sys
import threading
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.attachments import attachment
from bot.games import UNKNOWN_MESSAGE, GameCog, PostRefusal, dispatch_component, post_refusal
from bot.i18n import LocaleLike, is_spanish, message
from bot.nights import GameNights
from bot.permissions import require_posting
from bot.reasons import reason_text
from bot.render import Rendered
from bot.replies import (
    UserError,
    answer,
    defer_private,
    defer_public,
    send_ephemeral,
)
from bot.storage import (
    BoardRow,
    ChannelBusyError,
    DealExhaustedError,
    DealMovedError,
    Delivery,
    GameRow,
    GameStatus,
    LeaseLostError,
    PlayerRow,
    ScheduleRow,
    ServerSettings,
    WinnerRow,
)
from bot.throttle import VERIFY_RATE, Lane, member_cooldown
from bot.verify_link import verify_fragment, verify_url
from engine.calling import Board, CallingGame, ClaimCheck, Dealer
from engine.fairness import commitment, draw_order

if sys.version_info >= (3, 13):
    from typing import TypeVar
else:  # (a type variable's default)
    from typing_extensions import TypeVar

if TYPE_CHECKING:
    from bot.app import GameNightBot

log = logging.getLogger(__name__)

LOBBY_EDIT_INTERVAL = 2.0
# Lobby edits of all games together: they share the bot's 50 requests/s with the DMs that deal
# boards, so with many lobbies each is edited less often (bench/bench_load.py measured dealing
# 1,000 members in 50 lobbies at 1.7x the rate-limit floor when every lobby edited every 2 s).
LOBBY_EDITS_PER_SECOND = 2.0
DM_CONCURRENCY = 8
CANNOT_MESSAGE_USER = 50007  # Discord's 403 code for a member whose DMs refuse the bot
FALSE_CLAIM_LIMIT = 2
MIN_INTERVAL, MAX_INTERVAL = 5, 120
DEFAULT_INTERVAL = 10  # seconds between calls when neither the host nor the server chose
MAX_PLAYERS_LIMIT = 1000
DEFAULT_MAX_PLAYERS = 100  # players a lobby takes when the host does not say
FIRST_CALL_DELAY = 2.0
PRIZE_SHARING_GRACE = 3.0  # real seconds a game stays open after its latest win
# Real seconds an end that is due waits at most for claims still being judged (see end_hold).
CLAIMS_BEFORE_THE_END = 10.0
RIDDLE_PAUSE = 4.0  # seconds between the cantor's riddle and the card it hides
VERIFY_LINK_LIMIT = 1500  # a longer link (a crowded game) would not fit a message: name the page
MESSAGE_LIMIT = 2000  # characters in a message's content (Discord's limit)
WINNER_MESSAGES = 10  # further messages naming a crowded game's winners, at most
SHOWN_PER_PRIZE = 3  # winners of a prize named in a condensed summary, at most
CALL_REPOSTS = 3  # posts of a call again after a moderator deleted it before its id was stored

# What the host is told, and what the lobby says, when the channel refuses the game for good.
HOST_NOTICES = {
    PostRefusal.GONE: "host_channel_gone",
    PostRefusal.PERMISSIONS: "host_cannot_post",
    PostRefusal.THREAD: "host_thread_closed",
    PostRefusal.AUTOMOD: "host_automod",
    PostRefusal.REFUSED: "host_post_refused",
}
STALLED_STATUS = {
    PostRefusal.PERMISSIONS.value: "status_stalled",
    PostRefusal.THREAD.value: "status_stalled_thread",
    PostRefusal.AUTOMOD.value: "status_stalled_automod",
    PostRefusal.REFUSED.value: "status_stalled_refused",
}


# The engine a calling game cog plays (engine.calling.CallingGame), and its claim checks; a
# cog of any calling game is a plain ``CallingGameCog``.
GameT = TypeVar("GameT", bound=CallingGame[Any, Any], default=CallingGame[Any, Any])
CheckT = TypeVar("CheckT", bound=ClaimCheck, default=ClaimCheck)


@dataclass(frozen=True, slots=True)
class Verdict(Generic[CheckT]):
    """The outcome of one claim on one board: the engine's ``check`` (its ``reason`` in English
    is stored; its ``code`` and ``values`` word it for the players, ``bot.reasons``)."""

    prize: str
    board: BoardRow
    check: CheckT

    @property
    def valid(self) -> bool:
        """Whether the board wins the prize."""
        return self.check.valid

    @property
    def reason(self) -> str:
        """Why (not), in English: the stored form."""
        return self.check.reason

    @property
    def code(self) -> str:
        """The reason's code, for the players' words."""
        return self.check.code

    @property
    def values(self) -> Mapping[str, object]:
        """The values the reason's words name."""
        return self.check.values


@dataclass(frozen=True, slots=True)
class ClaimRequest:
    """What a player asked, and what they had seen when they asked.

    ``prize`` is None for "the prize being played now" (the ¡Lotería! button, or a claim with no
    pattern); ``seen`` is how many calls had been announced in the channel at that moment: the
    claim is judged against exactly those calls, never one drawn but not yet shown.
    """

    user_id: int
    prize: str | None
    board_number: int | None
    seen: int

    @property
    def key(self) -> tuple[int, int, str]:
        """Identical claims (same player, same call, same ask) share a key: judged once."""
        ticket = "" if self.board_number is None else f"#{self.board_number}"
        return (self.user_id, self.seen, f"{self.prize or '*'}{ticket}")


@dataclass(frozen=True, slots=True)
class Judgement:
    """The public answer to a judged (and stored) claim."""

    text: str
    won: bool
    files: list[discord.File] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class WonBoard:
    """A prize won, with the board it was won on, as the end-of-game picture shows it: the
    winner's ``name`` (a stand-in once they are forgotten) and whether others ``shared`` it."""

    winner: WinnerRow
    board: BoardRow
    name: str
    shared: bool


# What became of a claim key (ClaimRequest.key) in a game.
PENDING, WON, FALSE = "pending", "won", "false"


@dataclass
class LiveGame:
    """In-memory companions of a stored game: its lock, timer task and lobby throttle, how many
    of its calls the channel has seen, and the claims already judged."""

    game_id: int
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None
    lobby_dirty: bool = False
    lobby_task: asyncio.Task[None] | None = None
    lobby_urgent: asyncio.Event = field(default_factory=asyncio.Event)
    announced: int | None = None  # None until read from the database
    claims_in_flight: int = 0  # claims made and not judged (or refused) yet
    end_held_since: float | None = None  # when an end that was due began to wait for claims
    # ClaimRequest keys -> PENDING, WON or FALSE; None until loaded from the stored claims.
    judged: dict[tuple[int, int, str], str] | None = None
    stopping: bool = False
    delivering: set[int] = field(default_factory=set)  # members whose boards are being sent
    redeal_task: asyncio.Task[None] | None = None
    # What a claim is first answered from, before the database is asked (None: not loaded):
    # the players and their boards, and the prizes won, kept current by the bot's own writes.
    players: dict[int, PlayerRow] | None = None
    boards: dict[int, list[BoardRow]] | None = None
    winners: list[WinnerRow] | None = None

    def tasks(self) -> tuple[asyncio.Task[None] | None, ...]:
        """The caller, the lobby refresher and the re-delivery task."""
        return (self.task, self.lobby_task, self.redeal_task)


def lobby_edit_interval(lobbies_refreshing: int) -> float:
    """Seconds between edits of one lobby while ``lobbies_refreshing`` lobbies are being kept up
    to date: LOBBY_EDIT_INTERVAL, longer when together they would exceed LOBBY_EDITS_PER_SECOND."""
    return max(LOBBY_EDIT_INTERVAL, lobbies_refreshing / LOBBY_EDITS_PER_SECOND)


def is_manager(member: discord.abc.User | discord.Member) -> bool:
    """Whether ``member`` has Manage Server (a host's powers over any game of the server)."""
    permissions = getattr(member, "guild_permissions", None)
    return bool(permissions and permissions.manage_guild)


class CallingButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"gn:(?P<kind>loteria|housie):(?P<action>[a-z]+[0-9]*):(?P<game>\d+)",
):
    """Every button of a calling game; the custom id carries the game, so it survives restarts."""

    def __init__(
        self, kind: str, action: str, game_id: int, button: discord.ui.Button[Any]
    ) -> None:
        self.kind = kind
        self.action = action
        self.game_id = game_id
        button.custom_id = f"gn:{kind}:{action}:{game_id}"
        super().__init__(button)

    @classmethod
    def make(
        cls,
        kind: str,
        action: str,
        game_id: int,
        label: str,
        style: discord.ButtonStyle,
    ) -> CallingButton:
        """A button of game ``game_id``'s lobby or call messages, e.g. ``make("loteria", "join", 7,
        ...)``."""
        return cls(kind, action, game_id, discord.ui.Button(label=label, style=style))

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> CallingButton:
        """The button again from its custom id (``gn:<kind>:<action>:<game>``), after a restart
        too."""
        assert isinstance(item, discord.ui.Button)
        return cls(match["kind"], match["action"], int(match["game"]), item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hands the click to the game's cog; private answers are acknowledged before any work."""
        async def handle(cog: CallingGameCog) -> None:
            if cog.answers_privately(self.action):
                # Acknowledge before touching the database: in a rush of Join clicks the
                # database queue, not the bot, decides how long an answer takes. Then let the
                # rest of the rush be acknowledged before dealing (bot.acks).
                await interaction.response.defer(ephemeral=True, thinking=True)
                await cog.bot.pending_acks.settled()
            await cog.on_button(interaction, self.action, self.game_id)

        await dispatch_component(
            interaction,
            CallingGameCog,
            lambda cog: cog.kind == self.kind,
            handle,
            context=f"game {self.game_id}",
        )


class CallingGameCog(commands.GroupCog, GameCog[LiveGame], GameNights, Generic[GameT, CheckT]):
    """Shared machinery over the game's ``engine`` (an ``engine.calling.CallingGame``: deal, next
    call, prizes, judge, its stored state); subclasses supply the texts and images of their game.

    Each game is a command group (``/loteria``, ``/housie``); the host controls and ``verify``
    below are the same in both and are inherited by each group.
    """

    calling = True
    start_subcommand = "start"
    engine: type[GameT]
    exhausted_reason: ClassVar[str]
    show_command: ClassVar[str]

    def __init__(self, bot: GameNightBot) -> None:
        super().__init__(bot)
        self.total_calls = self.engine.total_calls  # calls a game makes at most
        self.deal_limit = self.engine.deal_limit  # deal positions a game can hand out
        # Each lobby's dealer, so that a join deals its seats without replaying the earlier ones.
        self.dealers: dict[int, Dealer[Board]] = {}
        self.dealers_lock = threading.Lock()  # deal() runs in a worker thread
        self.dm_slots = asyncio.Semaphore(DM_CONCURRENCY)
        self.nights_wake = asyncio.Event()
        self.nights_task: asyncio.Task[None] | None = None
        # This game's nights still to come in this client's servers, as the nights' loop last
        # read them (plus those planned since): what a plan is first answered from.
        self.nights_held: dict[int, ScheduleRow] = {}
        self.nights_reserved: list[tuple[int, int]] = []

    def new_live(self, game_id: int) -> LiveGame:
        """A fresh companion for game ``game_id``."""
        return LiveGame(game_id)

    def may_release(self, live: LiveGame) -> bool:
        """Whether the game's companion may go: no lobby edit left to make and no claim being
        judged."""
        return not live.lobby_dirty and not live.lock.locked() and not live.claims_in_flight

    def waits_at_shutdown(self, live: LiveGame, task: asyncio.Task[None]) -> bool:
        """Whether shutdown waits for ``task``: only the caller, which finishes the call it is
        making (stored and announced); lobby edits and re-deliveries simply stop (they run again
        at the next start)."""
        return task is live.task

    # -- the game's engine -----------------------------------------------------------------------

    def state_of(self, game: GameRow) -> GameT:
        """The engine's game, read from the stored ``game``."""
        return self.engine.from_state(game.state)

    def deal(self, game: GameRow, first_deal_index: int, count: int) -> list[tuple[str, str]]:
        """Boards ``(state, code)`` at deal positions ``first_deal_index, ...``, from the
        lobby's dealer (rebuilt by replay for the lobby's first join, or after a restart)."""
        assert game.seed is not None
        # The dealer is this call's alone until it is put back.
        with self.dealers_lock:
            dealer = self.dealers.pop(game.id, None)
        if dealer is None or dealer.position != first_deal_index:
            dealer = self.engine.dealer(game.seed, first_deal_index)
        boards = dealer.deal(count)
        with self.dealers_lock:
            self.dealers[game.id] = dealer
        return [(board.to_state(), self.board_code(game, board)) for board in boards]

    def board_code(self, game: GameRow, board: Any) -> str:
        """The code printed under a dealt ``board`` (none by default; Housie signs its
        tickets)."""
        return ""

    def forget_dealer(self, game_id: int) -> None:
        """The game has left the lobby: drop its dealer."""
        # Never while this game deals: both happen under the game's lock.
        with self.dealers_lock:
            self.dealers.pop(game_id, None)

    def called(self, game: GameRow) -> tuple[int, ...]:
        """Everything called so far, in order."""
        return tuple(self.state_of(game).called)

    def open_prizes(self, game: GameRow) -> list[str]:
        """Prizes still to be won, in the order they are played."""
        return list(self.state_of(game).open_prize_codes)

    # -- words and pictures supplied by each game ----------------------------------------------

    def prize_name(self, prize: str, locale: LocaleLike = None) -> str:
        """How a prize is shown to players."""
        raise NotImplementedError

    def render_boards(
        self,
        game: GameRow,
        boards: Sequence[BoardRow],
        called: Sequence[int],
        locale: LocaleLike = None,
    ) -> list[Rendered]:
        """The player's boards as images, ``called`` (the calls the channel has seen) marked,
        worded in ``locale`` (the player's own language, as the message they come with)."""
        raise NotImplementedError

    def render_call(self, game: GameRow, value: int, seq: int) -> tuple[str, list[Rendered]]:
        """The channel announcement for call number ``seq`` (text and pictures), in the
        channel's language (``channel_locale``)."""
        raise NotImplementedError

    def call_text(self, game: GameRow, value: int, seq: int) -> str:
        """The text alone of call number ``seq``, worded for ``game`` as it stands: what a riddle
        reveals once its pause is over. By default :meth:`render_call`'s (a game with riddles
        words it without drawing the pictures again)."""
        return self.render_call(game, value, seq)[0]

    def render_result(
        self,
        game: GameRow,
        winners: Sequence[WinnerRow],
        boards: Sequence[BoardRow],
        players: Sequence[PlayerRow],
    ) -> list[Rendered]:
        """The pictures the end-of-game summary carries (``bot.render.results``): each of
        ``winners``' board (found among the game's ``boards``) with the winning cells, their name
        (from ``players``), the prize and the call it was won on, in the server's language.
        One picture unless there are very many winners; none when nobody won (the default).
        Runs in a worker thread."""
        return []

    @staticmethod
    def won_boards(
        winners: Sequence[WinnerRow],
        boards: Sequence[BoardRow],
        players: Sequence[PlayerRow],
        locale: LocaleLike,
    ) -> list[WonBoard]:
        """Each of ``winners`` with its board among ``boards``, in order (a win whose board is
        gone is left out), named from ``players`` in ``locale``: what ``render_result`` draws."""
        by_id = {board.id: board for board in boards}
        names = {player.user_id: player.display_name for player in players}
        sharing = Counter(winner.prize for winner in winners)
        won = []
        for winner in winners:
            board = by_id.get(winner.board_id) if winner.board_id is not None else None
            if board is not None:
                name = names.get(winner.user_id) or message("result_player", locale)
                won.append(WonBoard(winner, board, name, sharing[winner.prize] > 1))
        return won

    def riddle(self, game: GameRow, value: int, seq: int) -> str | None:
        """What to post before the call itself is revealed (None: nothing; the default)."""
        return None

    def eligible_boards(
        self, boards: list[BoardRow], winners: Sequence[WinnerRow], prize: str
    ) -> list[BoardRow]:
        """The boards that may win ``prize`` (Housie: a ticket wins one full house at most)."""
        return boards

    def render_win(
        self, game: GameRow, verdict: Verdict[CheckT], called: Sequence[int], locale: LocaleLike
    ) -> Rendered:
        """The winning board of a valid ``verdict``, its winning cells marked, worded in
        ``locale`` (the channel's: it goes with the win's announcement). Runs in a worker
        thread."""
        raise NotImplementedError

    def board_number(self, board: BoardRow) -> int:
        """The number a board is shown with (its place among the player's boards)."""
        return board.board_index + 1

    def verify_boards(self, game: GameRow, boards: Sequence[BoardRow]) -> list[str]:
        """Problems found re-deriving every board from the seed (empty when all match)."""
        assert game.seed is not None
        if not boards:
            return []
        # One pass over the deal stream for every position, not a replay per board.
        dealt = self.engine.boards_at(game.seed, 0, max(board.deal_index for board in boards) + 1)
        word = self.board_word(1)
        return [
            f"{word} {self.board_number(board)} of <@{board.user_id}> does not match the seed"
            for board in boards
            if dealt[board.deal_index].to_state() != board.state
        ]

    def describe_options(self, game: GameRow) -> str:
        """One line describing the game's settings for the lobby."""
        raise NotImplementedError

    def default_prizes(self, text: str) -> str:
        """``text`` as a server's default prizes for ``start`` (``/gamenight settings``), checked
        as ``start`` checks its own, with the same refusals; returns the form stored."""
        raise NotImplementedError

    def describe_prizes(self, stored: str | None, locale: LocaleLike) -> str:
        """Default prizes as stored by :meth:`default_prizes` (None: ``start``'s own)."""
        raise NotImplementedError

    def prize_suggestions(self, typed: str, locale: LocaleLike) -> list[tuple[str, str]]:
        """``(name, value)`` default prizes to offer while ``typed`` is being typed."""
        return []

    def board_word(self, count: int, locale: LocaleLike = None) -> str:
        """What a board is called ("tabla", "tickets", "cartón"), in the player's language."""
        return message(f"{self.kind}_board", locale, count=count)

    def board_phrase(self, count: int, locale: LocaleLike = None) -> str:
        """ "your tabla", "your 3 tickets", "tus 3 cartones"..."""
        return message("boards_phrase", locale, count=count, board=self.board_word(count, locale))

    # -- lifecycle -----------------------------------------------------------------------------

    async def cog_load(self) -> None:
        """Restarts the timers of running games, re-sends boards never delivered, and plans the
        nights."""
        self.bot.add_dynamic_items(CallingButton)
        for game in await self.storage.live_games(self.kind):
            if not self.bot.runs_guild(game.guild_id):
                continue  # another shard's: another process runs it
            await self.load_memory(game)
            if game.status is GameStatus.RUNNING:
                self.ensure_timer(game.id)
            # Boards stored but never sent (the bot stopped while dealing) go out again.
            self.redeliver_later(game.id)
        self.start_nights()

    async def cog_unload(self) -> None:
        """Stops the nights, then lets each game's caller finish its call."""
        self.stop_nights()
        await super().cog_unload()

    async def load_memory(self, game: GameRow) -> None:
        """Hold live ``game`` in memory: its row, players, boards, winners, the calls the
        channel has seen and the claims judged (before this client answers anything of it)."""
        self.remember(game)
        live = self.live_game(game.id)
        players = await self.storage.players(game.id)
        boards: dict[int, list[BoardRow]] = {}
        for board in await self.storage.boards(game.id):
            boards.setdefault(board.user_id, []).append(board)
        live.players = {player.user_id: player for player in players}
        live.boards = boards
        live.winners = await self.storage.winners(game.id)
        await self.announced_count(game.id)
        await self.judged_claims(game.id)

    def new_in_memory(self, game: GameRow) -> None:
        """A game this client just opened: in memory, with nobody in it yet."""
        self.remember(game)
        live = self.live_game(game.id)
        live.players, live.boards, live.winners = {}, {}, []
        live.announced, live.judged = 0, {}

    async def post_lobby(self, game: GameRow, note: str) -> int:
        """Posts the lobby of ``game`` with ``note`` under it; returns the message's id."""
        self.new_in_memory(game)
        channel = self.bot.get_partial_messageable(game.channel_id)
        posted = await channel.send(
            f"{await self.lobby_text(game)}\n{note}", view=self.lobby_view(game)
        )
        return posted.id

    def start_running(self, game_id: int) -> None:
        """The game has started: its lobby shows it at once and its caller starts."""
        self.touch_lobby(game_id, urgent=True)
        self.ensure_timer(game_id)

    def ensure_timer(self, game_id: int) -> None:
        """Starts game ``game_id``'s caller unless it is running."""
        live = self.live_game(game_id)
        if live.task is None or live.task.done():
            live.task = asyncio.create_task(self._caller(game_id), name=f"{self.kind}-{game_id}")

    # -- looking things up ---------------------------------------------------------------------

    async def game_here(self, interaction: discord.Interaction[Any]) -> GameRow:
        """The live game of this kind in the interaction's channel; refuses privately if there is
        none."""
        if interaction.channel_id is None:
            raise UserError("server_only")
        game = await self.storage.live_game_in_channel(interaction.channel_id, [self.kind])
        if game is None:
            raise self.refusal("no_game_here")
        return game

    def known_here(self, interaction: discord.Interaction[Any]) -> GameRow:
        """The live game of this kind in the interaction's channel, from memory (every live game
        of this client is held there); refuses privately if there is none. What an interaction
        is first answered from; the database decides after the acknowledgement."""
        if interaction.channel_id is None:
            raise UserError("server_only")
        game = self.remembered_in_channel(interaction.channel_id)
        if game is None:
            raise self.refusal("no_game_here")
        return game

    async def game_by_id(self, game_id: int, guild_id: int | None = None) -> GameRow:
        """Game ``game_id`` of this kind; with ``guild_id``, only if it was played in that
        server (another server's games, seeds and codes are none of this one's business)."""
        game = await self.storage.get_game(game_id)
        if game is None or game.kind != self.kind or (
            guild_id is not None and game.guild_id != guild_id
        ):
            raise self.refusal("no_such_game", game=game_id)
        return game

    async def require_controller(
        self, interaction: discord.Interaction[Any], game: GameRow
    ) -> None:
        """Refuses anyone but the game's host or a member with Manage Server."""
        if interaction.user.id != game.host_id and not is_manager(interaction.user):
            raise UserError("host_only", host=game.host_id)

    async def announced_count(self, game_id: int) -> int:
        """How many calls the channel has seen: those whose message was posted, in order."""
        live = self.live_game(game_id)
        if live.announced is None:
            count = 0
            for draw in await self.storage.draws(game_id):
                if draw.message_id is None:
                    break
                count = draw.seq
            if live.announced is None:  # nobody set it while the draws were read
                live.announced = count
        return live.announced

    async def seen_calls(self, game: GameRow) -> tuple[int, ...]:
        """The calls announced in the channel so far: what players may be judged and shown on.
        A call is stored before it is posted, so the stored state can be one call ahead."""
        return self.called(game)[: await self.announced_count(game.id)]

    async def judged_claims(self, game_id: int) -> dict[tuple[int, int, str], str]:
        """Each claim request already judged (player, call, prize) and its answer, so a button
        pressed twice is answered the same without judging again."""
        live = self.live_game(game_id)
        if live.judged is None:
            judged: dict[tuple[int, int, str], str] = {}
            for key, valid in await self.storage.claim_requests(game_id):
                # One win among a key's claims (a button pressed again after a win) is enough.
                if judged.get(key) != WON:
                    judged[key] = WON if valid else FALSE
            if live.judged is None:
                live.judged = judged
        return live.judged

    # -- lobby ---------------------------------------------------------------------------------

    async def open_lobby(
        self,
        interaction: discord.Interaction[Any],
        *,
        seed: bytes,
        state: str,
        options: dict[str, Any],
        settings: ServerSettings,
    ) -> GameRow:
        """Open the lobby; ``settings`` (from :meth:`host_settings`) give its language."""
        if interaction.guild_id is None or interaction.channel_id is None:
            raise UserError("no_dm_games")
        require_posting(interaction)
        options = {**options, "guild_locale": settings.public_locale(interaction.guild_locale)}
        # The lobby is the answer, and the database may be slow: acknowledge first. Publicly,
        # unless the channel seems to have its game already (or another start came first and
        # is not done): then privately, and the database says (a refusal stays private).
        # Starts in one channel reach the database in the order they came.
        place = self.bot.in_order.place(("channel", interaction.channel_id))
        try:
            if place.behind or self.channel_busy_in_memory(interaction.channel_id):
                await defer_private(interaction)
            else:
                await defer_public(interaction)
            async with place:
                try:
                    game = await self.storage.create_game(
                        kind=self.kind,
                        guild_id=interaction.guild_id,
                        channel_id=interaction.channel_id,
                        host_id=interaction.user.id,
                        seed=seed,
                        options=options,
                        state=state,
                        # One calling game per channel.
                        alone_among=tuple(k.kind for k in self.bot.games() if k.calling),
                    )
                except ChannelBusyError as busy:
                    other = self.bot.game_kind(busy.existing.kind)
                    title = other.title if other else busy.existing.kind
                    raise UserError("channel_busy", other=title, game=busy.existing.id) from None
                self.new_in_memory(game)
        finally:
            place.leave()
        message = await answer(
            interaction, await self.lobby_text(game), ephemeral=False, view=self.lobby_view(game)
        )
        assert message is not None
        await self.store_game(game.id, lobby_message_id=message.id)
        return game

    def channel_busy_in_memory(self, channel_id: int) -> bool:
        """Whether the bot holds a live calling game (of any kind) in the channel."""
        return any(
            cog.remembered_in_channel(channel_id) is not None
            for cog in self.bot.cogs.values()
            if isinstance(cog, CallingGameCog)
        )

    def lobby_view(self, game: GameRow) -> discord.ui.View:
        """The lobby's buttons in the channel's language: Join, Leave, Start and Cancel while it is
        open; none once the game has started or ended."""
        view = discord.ui.View(timeout=None)
        if game.status is GameStatus.LOBBY:
            locale = self.channel_locale(game)
            for action, style in (
                ("join", discord.ButtonStyle.success),
                ("leave", discord.ButtonStyle.secondary),
                ("start", discord.ButtonStyle.primary),
                ("cancel", discord.ButtonStyle.danger),
            ):
                label = message(f"button_{action}", locale)
                view.add_item(CallingButton.make(self.kind, action, game.id, label, style))
        return view

    async def lobby_text(self, game: GameRow) -> str:
        """The lobby message: host, options, the players and how many boards are dealt."""
        players = await self.storage.players(game.id)
        delivered = sum(player.delivered for player in players)
        waiting = sum(player.delivery is Delivery.UNDELIVERED for player in players)
        locale = self.channel_locale(game)
        count = len(players)
        players_line = self.say("players_line", locale, count=count)
        if players:
            players_line += self.say("dealt_progress", locale, dealt=delivered, count=count)
        if waiting:
            players_line += self.say(
                "undelivered_progress", locale, count=waiting, show=self.show_command
            )
        lines = [
            self.say("lobby_header", locale, game=game.id, host=game.host_id),
            self.describe_options(game),
            self.say(f"status_{game.status.value}", locale, board=self.board_word(1, locale)),
            players_line,
            self.say("commitment_line", locale, commitment=_commitment(game)),
        ]
        stalled = game.options.get("stalled")
        if game.status is GameStatus.PAUSED and stalled:
            key = STALLED_STATUS.get(str(stalled), "status_stalled_refused")
            lines.insert(3, self.say(key, locale, channel=game.channel_id))
        if game.options.get("nobody_came"):
            lines.insert(3, self.say("night_nobody_came", locale))
        return "\n".join(lines)

    def touch_lobby(self, game_id: int, *, urgent: bool = False) -> None:
        """Ask for a lobby refresh; edits happen at most every LOBBY_EDIT_INTERVAL seconds, less
        often when many lobbies are busy (see lobby_edit_interval) unless ``urgent`` (the game
        started, was cancelled or ended: its buttons must go)."""
        live = self.live_game(game_id)
        live.lobby_dirty = True
        if urgent:
            live.lobby_urgent.set()
        if self.closing:
            return
        if live.lobby_task is None or live.lobby_task.done():
            live.lobby_task = asyncio.create_task(self._lobby_refresher(live))

    def lobbies_refreshing(self) -> int:
        """Lobbies of this game with a refresher running (edited lately or about to be)."""
        return sum(
            1 for live in self.live.values() if live.lobby_task and not live.lobby_task.done()
        )

    async def _lobby_refresher(self, live: LiveGame) -> None:
        while live.lobby_dirty:
            live.lobby_dirty = False
            live.lobby_urgent.clear()
            try:
                await self.refresh_lobby(live.game_id)
            except discord.HTTPException:
                log.warning("could not edit the lobby of game %s", live.game_id, exc_info=True)
            await asyncio.sleep(LOBBY_EDIT_INTERVAL)
            refreshing = sum(
                cog.lobbies_refreshing()
                for cog in self.bot.cogs.values()
                if isinstance(cog, CallingGameCog)
            )
            longer = lobby_edit_interval(refreshing) - LOBBY_EDIT_INTERVAL
            if longer > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(live.lobby_urgent.wait(), longer)
        await self.release_if_over(live.game_id)

    async def refresh_lobby(self, game_id: int) -> None:
        """Edits the lobby message to the game as stored now."""
        game = await self.storage.get_game(game_id)
        self.remember(game)  # a change made elsewhere (an end, a stall) reaches the memory too
        if game is None or game.lobby_message_id is None:
            return
        channel = self.bot.get_partial_messageable(game.channel_id)
        await channel.get_partial_message(game.lobby_message_id).edit(
            content=await self.lobby_text(game), view=self.lobby_view(game)
        )

    # -- buttons -------------------------------------------------------------------------------

    def answers_privately(self, action: str) -> bool:
        """Whether every answer to button ``action`` is private (so it can be deferred at once)."""
        return action in {"join", "leave", "start", "cancel"}

    async def on_button(
        self, interaction: discord.Interaction[Any], action: str, game_id: int
    ) -> None:
        """Answers a lobby or claim button of game ``game_id``. A private answer was
        acknowledged already (``answers_privately``); a claim acknowledges itself."""
        if action == "claim":
            await self.claim(interaction, game_id, None, None)
            return
        if not self.answers_privately(action):
            raise UserError("button_gone")
        game = await self.button_game(interaction, game_id)
        if action == "join":
            await self.join(interaction, game, tickets=1)
        elif action == "leave":
            await self.leave(interaction, game)
        elif action == "start":
            await self.start_game(interaction, game)
        elif action == "cancel":
            await self.cancel_game(interaction, game)
        else:
            raise UserError("button_gone")

    async def button_game(self, interaction: discord.Interaction[Any], game_id: int) -> GameRow:
        """The game a button belongs to, pressed where that game is played."""
        game = await self.game_by_id(game_id)
        self.check_pressed_where_played(interaction, game)
        return game

    @staticmethod
    def check_pressed_where_played(interaction: discord.Interaction[Any], game: GameRow) -> None:
        """Refuse a button of ``game`` pressed anywhere but in the game's channel."""
        if interaction.guild_id != game.guild_id or interaction.channel_id != game.channel_id:
            raise UserError("button_elsewhere")

    # -- joining and dealing -------------------------------------------------------------------

    async def join(
        self, interaction: discord.Interaction[Any], game: GameRow, *, tickets: int
    ) -> None:
        """Seats the member (their boards dealt and stored first) and deals them by DM, or shows
        them the boards privately when their DMs are closed."""
        if game.status is not GameStatus.LOBBY:
            raise self.refusal("joins_closed", game=game.id)
        max_players = int(game.options.get("max_players", MAX_PLAYERS_LIMIT))
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        live = self.live_game(game.id)
        user_id = interaction.user.id
        if user_id in live.delivering:
            raise self.refusal("being_dealt", board=self.board_word(1, interaction.locale))
        async with live.lock:
            fresh = await self.storage.get_game(game.id)
            self.remember(fresh)
            if fresh is None or fresh.status is not GameStatus.LOBBY:
                raise self.refusal("joins_closed", game=game.id)
            player = await self.seat(interaction, fresh, tickets, max_players)
        if player is None:
            existing = await self.storage.get_player(game.id, user_id)
            if existing is None:
                raise UserError("game_full", count=max_players)
            if existing.delivered or user_id in live.delivering:
                key = "already_joined" if existing.delivery is Delivery.DM else "already_shown"
                raise self.refusal(
                    key, board=self.board_word(1, interaction.locale), show=self.show_command
                )
            player = existing  # stored but never delivered: deliver it now
        self.touch_lobby(game.id)
        await self.deliver_boards(interaction, fresh, player)

    async def seat(
        self, interaction: discord.Interaction[Any], game: GameRow, tickets: int, most: int
    ) -> PlayerRow | None:
        """Seat the member and store their boards (under the game's lock); None if they are
        seated already or the game is full.

        The boards are dealt in a worker thread before the write, from the game's dealer (no
        replay of earlier seats): the event loop and the database's transaction never wait for
        the deal, whatever the seat.
        """
        user_id = interaction.user.id
        if await self.storage.get_player(game.id, user_id) is not None:
            return None
        if await self.storage.count_players(game.id) >= most:
            return None
        for _attempt in range(2):  # again only if the deal moved under us (it should not)
            first = game.next_deal
            if first + tickets > self.deal_limit:
                raise self.refusal("deal_exhausted", count=self.deal_limit)
            dealt = await asyncio.to_thread(self.deal, game, first, tickets)
            try:
                seated = await self.storage.add_player(
                    game.id,
                    user_id,
                    display_name=interaction.user.display_name,
                    locale=str(interaction.locale),
                    boards=dealt,
                    dealt_from=first,
                    max_players=most,
                    board_count=tickets,
                    deal_limit=self.deal_limit,
                )
                if seated is not None:
                    self.player_in_memory(seated)
                return seated
            except DealExhaustedError as exhausted:
                raise self.refusal("deal_exhausted", count=exhausted.limit) from None
            except DealMovedError:
                refreshed = await self.storage.get_game(game.id)
                assert refreshed is not None
                game = refreshed
        raise RuntimeError(f"the deal of game {game.id} keeps moving")

    async def deliver_boards(
        self, interaction: discord.Interaction[Any], game: GameRow, player: PlayerRow
    ) -> None:
        """DM the player's boards; if their DMs are closed or the DM fails, show them here."""
        live = self.live_game(game.id)
        live.delivering.add(player.user_id)
        try:
            boards = await self.storage.boards(game.id, player.user_id)
            if live.boards is not None:
                live.boards[player.user_id] = boards
            locale = interaction.locale
            images = await asyncio.to_thread(self.render_boards, game, boards, (), locale)
            phrase = self.board_phrase(len(images), locale)
            outcome = await self.send_boards_by_dm(game, interaction.user, locale, images)
            if outcome is Delivery.DM:
                await self.storage.set_delivery(game.id, player.user_id, Delivery.DM)
                self.touch_lobby(game.id)
                await interaction.followup.send(
                    self.say("joined_dm", locale, game=game.id, boards=phrase), ephemeral=True
                )
                return
            key = "joined_no_dm" if outcome is Delivery.UNDELIVERED else "joined_dm_failed"
            self.bot.metrics.dm_fallbacks.labels(self.kind).inc()
            delivery = Delivery.UNDELIVERED
            try:
                await interaction.followup.send(
                    self.say(key, locale, game=game.id, boards=phrase, show=self.show_command),
                    files=[attachment(image) for image in images],
                    ephemeral=True,
                )
                delivery = Delivery.REPLY
            finally:
                await self.storage.set_delivery(game.id, player.user_id, delivery)
                self.touch_lobby(game.id)
        finally:
            live.delivering.discard(player.user_id)

    async def send_boards_by_dm(
        self,
        game: GameRow,
        user: discord.abc.Snowflake,
        locale: LocaleLike,
        images: Sequence[Rendered],
    ) -> Delivery:
        """DM ``images``: ``Delivery.DM`` when sent, ``UNDELIVERED`` when the member's DMs are
        closed, ``PENDING`` when Discord failed (after discord.py's own retries).

        DMs found closed (50007) are remembered (``Storage.set_dms_closed``), so that no restart
        DMs the member again unasked (``_redeliver_boards``); a DM that works forgets it."""
        text = self.say(
            "dm_boards",
            locale,
            count=len(images),
            boards=self.board_phrase(len(images), locale),
            game=game.id,
            channel=game.channel_id,
        )
        refused: discord.Forbidden | None = None
        async with self.dm_slots:
            try:
                await self.bot.send_dm(user, text, files=[attachment(i) for i in images])
            except discord.Forbidden as forbidden:
                refused = forbidden
            except (discord.HTTPException, OSError) as error:
                log.warning("could not DM the boards of game %s to %s: %s", game.id, user.id, error)
                return Delivery.PENDING
        if refused is None:
            if await self.storage.dms_closed(user.id):
                await self.storage.set_dms_closed(user.id, closed=False)
            return Delivery.DM
        if refused.code == CANNOT_MESSAGE_USER:
            await self.storage.set_dms_closed(user.id, closed=True)
        return Delivery.UNDELIVERED

    def redeliver_later(self, game_id: int) -> None:
        """Re-sends, once the bot is ready, the boards of game ``game_id`` that never reached their
        players."""
        live = self.live_game(game_id)
        if live.redeal_task is None or live.redeal_task.done():
            live.redeal_task = asyncio.create_task(self._redeliver(game_id))

    async def _redeliver(self, game_id: int) -> None:
        """After a restart: DM the boards that were stored but never reached their players."""
        try:
            await self._redeliver_boards(game_id)
        except LeaseLostError:
            log.info(
                "%s game %s: its shard moved to another process mid-delivery", self.kind, game_id
            )

    async def _redeliver_boards(self, game_id: int) -> None:
        game = await self.storage.get_game(game_id)
        if game is not None:
            await self.bot.wait_until_shard_connected(game.guild_id)
            game = await self.storage.get_game(game_id)
        if game is None or not game.status.is_live:
            return
        live = self.live_game(game_id)
        resent = False
        # DMs found closed are not tried again unasked: each refusal counts toward Discord's
        # invalid-request limit. Such a member gets their board at their next interaction
        # (Join again, or the show command), which may try a DM again.
        closed = await self.storage.closed_dms_in_game(game_id)
        for player in await self.storage.undelivered_players(game_id):
            if self.is_closing():
                return
            if player.user_id in live.delivering:
                continue
            if player.user_id in closed:
                if player.delivery is Delivery.PENDING:
                    await self.storage.set_delivery(game_id, player.user_id, Delivery.UNDELIVERED)
                    resent = True
                continue
            boards = await self.storage.boards(game_id, player.user_id)
            if not boards:
                continue
            images = await asyncio.to_thread(
                self.render_boards, game, boards, (), player.locale
            )
            await self.storage.check_fence(game_id)  # (another process may deliver them now)
            outcome = await self.send_boards_by_dm(
                game, discord.Object(player.user_id), player.locale, images
            )
            # A player whose DMs stay shut is shown their board at their next interaction.
            delivery = Delivery.DM if outcome is Delivery.DM else Delivery.UNDELIVERED
            await self.storage.set_delivery(game_id, player.user_id, delivery)
            resent = True
        if resent:
            self.touch_lobby(game_id)

    async def leave(self, interaction: discord.Interaction[Any], game: GameRow) -> None:
        """Takes the member out of the lobby, their boards with them."""
        if game.status is not GameStatus.LOBBY:
            raise UserError("cant_leave_started")
        live = self.live_game(game.id)
        async with live.lock:
            removed = await self.storage.remove_player(game.id, interaction.user.id)
            for held in (live.players, live.boards):
                if held is not None:
                    held.pop(interaction.user.id, None)
        if not removed:
            raise UserError("not_in_game")
        self.touch_lobby(game.id)
        await send_ephemeral(interaction, self.say("left", interaction.locale, game=game.id))

    async def show_boards(self, interaction: discord.Interaction[Any]) -> None:
        """Shows the member their boards privately, marked with the calls the channel has seen.

        A crowd of views is answered a few at a time in the server's line of heavy work
        (``bot.throttle``): with all of them in flight at once, every turn of the event loop would
        run hundreds of their steps and the caller's timer would wait behind them
        (bench/bench_call_pace.py), and another server's views behind them too
        (bench/bench_flood.py)."""
        # Acknowledge first, every answer here being private: under load (many games calling,
        # a restart resuming them all) the database and the render can each take their turn
        # for longer than Discord's 3 s (bench/bench_load.py).
        async with self.bot.heavy.turn(
            interaction.guild_id,
            Lane.VIEW,
            acknowledge=lambda: interaction.response.defer(ephemeral=True, thinking=True),
        ):
            game = await self.game_here(interaction)
            player = await self.storage.get_player(game.id, interaction.user.id)
            boards = await self.storage.boards(game.id, interaction.user.id)
            if player is None or not boards:
                raise self.refusal("not_playing", game=game.id)
            seen = await self.seen_calls(game)
            locale = interaction.locale
            images = await asyncio.to_thread(self.render_boards, game, boards, seen, locale)
        await interaction.followup.send(
            self.say(
                "your_boards",
                locale,
                boards=self.board_phrase(len(images), locale),
                game=game.id,
                calls=len(seen),
            ),
            files=[attachment(image) for image in images],
            ephemeral=True,
        )
        if not player.delivered:
            await self.storage.set_delivery(game.id, player.user_id, Delivery.REPLY)
            self.touch_lobby(game.id)

    # -- host controls -------------------------------------------------------------------------

    async def start_game(self, interaction: discord.Interaction[Any], game: GameRow) -> None:
        """Starts the game (host or Manage Server): stored first, then the lobby shows it and the
        caller starts."""
        await self.require_controller(interaction, game)
        if game.status is not GameStatus.LOBBY:
            raise self.refusal("not_in_lobby", game=game.id)
        require_posting(interaction)
        async with self.live_game(game.id).lock:
            if await self.storage.count_players(game.id) == 0:
                raise UserError("nobody_joined")
            started = await self.store_game(
                game.id, status=GameStatus.RUNNING, expect_status=GameStatus.LOBBY
            )
            self.forget_dealer(game.id)
        if not started:
            raise self.refusal("already_started", game=game.id)
        await send_ephemeral(interaction, self.say("starting", interaction.locale, game=game.id))
        self.touch_lobby(game.id, urgent=True)
        self.ensure_timer(game.id)

    async def cancel_game(self, interaction: discord.Interaction[Any], game: GameRow) -> None:
        """Calls the lobby off (host or Manage Server) before the game starts."""
        await self.require_controller(interaction, game)
        async with self.live_game(game.id).lock:
            cancelled = await self.store_game(
                game.id, status=GameStatus.CANCELLED, expect_status=GameStatus.LOBBY
            )
            self.forget_dealer(game.id)
        if not cancelled:
            raise UserError("only_lobby_cancel")
        await send_ephemeral(interaction, self.say("cancelled", interaction.locale, game=game.id))
        self.touch_lobby(game.id, urgent=True)

    async def acknowledge_control(
        self, interaction: discord.Interaction[Any], *, likely: bool
    ) -> GameRow:
        """A host control (pause, resume, speed) of the channel's game: refused at once from
        memory when the bot is sure (no game here, not the host), then acknowledged before the
        database is asked: publicly when it will ``likely`` be done (the announcement fills the
        placeholder), privately when memory says the game's status refuses it (the database
        says; an announcement then goes to the channel as a follow-up). Returns the game as
        stored."""
        known = self.known_here(interaction)
        await self.require_controller(interaction, known)
        await (defer_public if likely else defer_private)(interaction)
        return await self.game_by_id(known.id)

    async def pause(self, interaction: discord.Interaction[Any]) -> None:
        """Pauses the calls of the game in this channel (host or Manage Server)."""
        known = self.remembered_in_channel(interaction.channel_id)
        likely = known is not None and known.status is GameStatus.RUNNING
        game = await self.acknowledge_control(interaction, likely=likely)
        async with self.live_game(game.id).lock:
            paused = await self.store_game(
                game.id, status=GameStatus.PAUSED, expect_status=GameStatus.RUNNING
            )
        if not paused:
            raise self.refusal("not_running", game=game.id)
        self.live_game(game.id).wake.set()
        await answer(
            interaction,
            self.say(
                "paused", self.channel_locale(game), game=game.id, user=interaction.user.mention
            ),
            ephemeral=False,
        )

    async def resume(self, interaction: discord.Interaction[Any]) -> None:
        """Resumes the calls of the game in this channel (host or Manage Server)."""
        require_posting(interaction)
        known = self.remembered_in_channel(interaction.channel_id)
        likely = known is not None and known.status is GameStatus.PAUSED
        game = await self.acknowledge_control(interaction, likely=likely)
        async with self.live_game(game.id).lock:
            fresh = await self.storage.get_game(game.id)
            options = dict(fresh.options) if fresh else {}
            options.pop("stalled", None)
            resumed = await self.store_game(
                game.id,
                status=GameStatus.RUNNING,
                options=options,
                expect_status=GameStatus.PAUSED,
            )
        if not resumed:
            raise self.refusal("not_paused", game=game.id)
        self.ensure_timer(game.id)
        self.live_game(game.id).wake.set()
        self.touch_lobby(game.id)
        await answer(
            interaction, self.say("resumed", self.channel_locale(game), game=game.id), ephemeral=False
        )

    async def set_speed(self, interaction: discord.Interaction[Any], seconds: int) -> None:
        """Sets the seconds between calls of the game in this channel (host or Manage Server)."""
        if not MIN_INTERVAL <= seconds <= MAX_INTERVAL:
            raise UserError("bad_interval", low=MIN_INTERVAL, high=MAX_INTERVAL)
        game = await self.acknowledge_control(interaction, likely=True)
        async with self.live_game(game.id).lock:
            fresh = await self.storage.get_game(game.id)
            options = dict(fresh.options) if fresh else dict(game.options)
            await self.store_game(game.id, options={**options, "interval": seconds})
        self.live_game(game.id).wake.set()
        await answer(
            interaction,
            self.say("speed", self.channel_locale(game), seconds=seconds),
            ephemeral=False,
        )

    async def stop(self, interaction: discord.Interaction[Any]) -> None:
        """Ends the game in this channel now (host or Manage Server), with its summary. Answered
        at once from memory; the end is stored, then announced."""
        game = self.known_here(interaction)
        await self.require_controller(interaction, game)
        live = self.live_game(game.id)
        # Checked and set with no await between: of three quick stops, one is announced.
        if live.stopping:
            raise self.refusal("already_stopping", game=game.id)
        live.stopping = True
        try:
            await interaction.response.send_message(
                self.say(
                    "stopped", self.channel_locale(game), game=game.id, user=interaction.user.mention
                )
            )
            await self.finish(game.id, reason="reason_stopped")
        finally:
            live.stopping = False
        self.remember(await self.storage.get_game(game.id))  # over: verifiable, publicly

    # -- the caller ----------------------------------------------------------------------------

    async def _caller(self, game_id: int) -> None:
        """Draw one call per interval until the game ends; resumes cleanly after a restart.

        A failed announcement (Discord down, a 5xx) is retried before the next draw: the draw is
        already stored, and its nonce keeps a retry from posting twice. A refusal that retrying
        cannot mend (403: the bot may not post; 404: the channel is gone) stalls the game
        instead, and the host is told (see :meth:`GameCog.keep_running`).
        """
        live = self.live_game(game_id)

        async def next_call() -> bool:
            await self.announce_unannounced(game_id)
            # Cleared before the look, so that a wake-up during it (a win, the last claim an end
            # waits for) is not lost.
            live.wake.clear()
            delay = await self.seconds_to_next_call(game_id)
            if delay is None:
                return False
            if self.is_closing():
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(live.wake.wait(), timeout=delay)
                return True  # woken by pause, resume, speed, a win or shutdown: look again
            return await self.call_next(game_id)

        await self.keep_running(game_id, next_call)

    async def cannot_post(self, game_id: int, error: discord.HTTPException) -> None:
        """The channel refused a call for good: pause the game (or end it, if the channel is
        gone) and tell the host why, by DM or else at their next interaction."""
        async with self.live_game(game_id).lock:
            game = await self.storage.get_game(game_id)
            if game is None or not game.status.is_live:
                return
            refusal = self.refusal_in(game.channel_id, error)
            log.warning(
                "%s game %s cannot post its calls (%s): %s", self.kind, game_id, refusal, error
            )
            gone = refusal is PostRefusal.GONE
            if gone:
                await self._finish_locked(game, reason="reason_channel_gone", channel_gone=True)
            else:
                await self.store_game(
                    game.id,
                    status=GameStatus.PAUSED,
                    options={**game.options, "stalled": refusal.value},
                    expect_status=GameStatus.RUNNING,
                )
        if not gone:
            self.touch_lobby(game_id, urgent=True)  # (a deleted channel has no lobby to edit)
        await self.tell_host_refused(game, HOST_NOTICES[refusal], error)

    async def seconds_to_next_call(self, game_id: int) -> float | None:
        """How long until the next call (or the end) is due; None when the game is not
        running."""
        game = await self.storage.get_game(game_id)
        if game is None or game.status is not GameStatus.RUNNING:
            return None
        draws = await self.storage.draws(game_id)
        interval = float(game.options.get("interval", 10))
        scale = self.bot.time_scale
        if draws:
            next_at = draws[-1].drawn_at + interval * scale
        else:
            next_at = (game.started_at or time.time()) + FIRST_CALL_DELAY * scale
        reason = self.end_reason(game)
        if reason is None:
            return max(0.0, next_at - time.time())
        hold = await self.end_hold(game)
        if reason == "reason_all_won":
            return hold
        # The calls ran out with prizes left: the end comes when the next call would have.
        return max(hold, next_at - time.time())

    def end_reason(self, game: GameRow) -> str | None:
        """Why ``game`` ends instead of making another call (a message key): every prize is
        won, or every call is made; None while it plays on. Such an end waits for
        :meth:`end_hold`."""
        if not self.open_prizes(game):
            return "reason_all_won"
        if len(self.called(game)) >= self.total_calls:
            return self.exhausted_reason
        return None

    async def end_hold(self, game: GameRow) -> float:
        """Seconds the end of ``game`` for want of prizes or calls must still wait (0: it may
        end now); the one rule every such end follows, checked under the game's lock when it
        ends.

        A game ends no sooner than PRIZE_SHARING_GRACE seconds (real ones, not scaled) after
        its latest win, so that claims on that call can still share the prize; nor while
        claims already made are being judged (they are judged on the calls they saw, and share
        what they hold), though it waits for those at most CLAIMS_BEFORE_THE_END seconds.
        """
        live = self.live_game(game.id)
        now = time.time()
        won_at = await self.storage.last_win_at(game.id)
        grace = 0.0 if won_at is None else won_at + PRIZE_SHARING_GRACE - now
        if grace > 0:
            return grace
        if not live.claims_in_flight:
            live.end_held_since = None
            return 0.0
        if live.end_held_since is None:
            live.end_held_since = now  # the last of them to be judged wakes the caller
        return max(0.0, live.end_held_since + CLAIMS_BEFORE_THE_END - now)

    async def call_next(self, game_id: int) -> bool:
        """Make the next call now: store it, then announce it; or end the game if nothing is
        left to play and :meth:`end_hold` lets it. False once the game has ended."""
        async with self.live_game(game_id).lock:
            game = await self.storage.get_game(game_id)
            if game is None or game.status is not GameStatus.RUNNING:
                return False
            reason = self.end_reason(game)
            if reason is not None:
                # Checked here, under the lock, and not only when the tick was planned: a claim
                # judged while this tick waited for the lock may have won the last prize.
                if await self.end_hold(game) > 0:
                    return True  # the caller looks again (seconds_to_next_call)
                await self._finish_locked(game, reason=reason)
                return False
            seq = len(self.called(game)) + 1
            after, value = self.state_of(game).next_call()
            await self.storage.record_draw(game_id, seq, value, after.to_state())
        await self.announce_call(game_id, seq, value)
        return True

    async def announce_unannounced(self, game_id: int, *, locked: bool = False) -> None:
        """Announce draws stored before a crash but never posted (the nonce prevents doubles);
        ``locked``: the caller holds the game's lock."""
        for draw in await self.storage.draws(game_id):
            if draw.message_id is None:
                await self.announce_call(game_id, draw.seq, draw.value, locked=locked)

    async def announce_call(
        self, game_id: int, seq: int, value: int, *, locked: bool = False
    ) -> None:
        """Posts call ``seq`` (``value``) with its picture and Claim button (a riddle first, then
        the card, in riddle mode), then stores the message's id: the channel has seen it.
        ``locked``: the caller holds the game's lock (the end posting a call left behind)."""
        game = await self.storage.get_game(game_id)
        assert game is not None
        await self.announced_count(game_id)  # know what was seen before this one is
        # The caller's own thread, first in the server's line: a burst of board views must not
        # queue the call behind them.
        content, images = await self.bot.heavy.run(
            game.guild_id,
            Lane.CALL,
            self.render_call,
            game,
            value,
            seq,
            executor=self.bot.caller_executor,
        )
        # A client that lost the game's shard to another process posts no more of its calls
        # (the new owner posts this one, and the nonce would fold two posts into one anyway).
        await self.storage.check_fence(game_id)
        for repost in range(CALL_REPOSTS + 1):
            # The nonce of a message deleted since is answered Unknown Message, not with the
            # message (discord-api-docs#6647): the call was posted and removed before its id was
            # stored, so it goes out again, under the next nonce of its own series (a retry of
            # that one still folds into one post).
            nonce = f"g{game_id}c{seq}" + (f"r{repost}" if repost else "")
            try:
                message = await self._post_call(game, value, seq, content, images, nonce, locked)
                break
            except discord.NotFound as error:
                if error.code != UNKNOWN_MESSAGE or repost == CALL_REPOSTS:
                    raise
                log.info("call %s of game %s was deleted before it was stored", seq, game_id)
        live = self.live_game(game_id)
        first_post = (live.announced or 0) < seq  # (not the same call posted by a finish too)
        live.announced = max(live.announced or 0, seq)
        await self.storage.set_draw_message(game_id, seq, message.id)
        if first_post:
            self.bot.metrics.calls.labels(self.kind).inc()

    async def _post_call(
        self,
        game: GameRow,
        value: int,
        seq: int,
        content: str,
        images: Sequence[Rendered],
        nonce: str,
        locked: bool,
    ) -> discord.Message:
        """One post of call ``seq`` with ``nonce`` (in riddle mode: the riddle, then the call
        revealed in the same message); the message the channel sees."""
        view = discord.ui.View(timeout=None)
        view.add_item(self.claim_button(game))
        channel = self.bot.get_partial_messageable(game.channel_id)
        files = [attachment(image) for image in images]
        riddle = self.riddle(game, value, seq)
        if riddle is None:
            return await channel.send(content, files=files, view=view, nonce=nonce)
        # The riddle first (the nonce keeps a retry after a crash to this one post), then the
        # call revealed in the same message: only then has the channel seen it.
        posted = await channel.send(riddle, nonce=nonce)
        await asyncio.sleep(self.riddle_pause(game))
        # Worded as the game stands at the reveal: a prize won during the riddle has moved it
        # on. Read under the lock, so that a claim being judged has its say first.
        if locked:
            revealed = await self.storage.get_game(game.id)
        else:
            async with self.live_game(game.id).lock:
                revealed = await self.storage.get_game(game.id)
        assert revealed is not None
        content = await self.bot.heavy.run(
            game.guild_id,
            Lane.CALL,
            self.call_text,
            revealed,
            value,
            seq,
            executor=self.bot.caller_executor,
        )
        return await posted.edit(content=content, attachments=files, view=view)

    def riddle_pause(self, game: GameRow) -> float:
        """Seconds between a riddle and its answer: a few, and well within the interval."""
        interval = float(game.options.get("interval", MIN_INTERVAL))
        return min(RIDDLE_PAUSE, interval / 2) * self.bot.time_scale

    def claim_button(self, game: GameRow) -> CallingButton:
        """The Claim button of the game's call messages, in the channel's language."""
        label = message("button_claim", self.channel_locale(game))
        return CallingButton.make(self.kind, "claim", game.id, label, discord.ButtonStyle.success)

    # -- claims --------------------------------------------------------------------------------

    async def claim(
        self,
        interaction: discord.Interaction[Any],
        game_id: int | None,
        prize: str | None,
        board_number: int | None,
    ) -> None:
        """A claim by slash command (``game_id`` None: the channel's game; ``prize`` named) or by
        a call's button (``game_id``; ``prize`` None for "the prize being played now").

        Judged against the calls announced when it was made; identical claims (a double click)
        are judged once. Only a judged claim is public; every refusal is private. The button
        pressed again on the call where it won may win the prize played next, never a false
        claim: the player claimed nothing wrong.

        Nothing is asked of the database before the acknowledgement. What the bot holds in
        memory refuses at once, privately, what it is sure of; a claim it is sure will be judged
        is acknowledged publicly (the verdict fills the placeholder); one it is not sure of is
        acknowledged silently (a button) or privately (a command), and the database decides.
        """
        if interaction.channel_id is None:
            raise UserError("server_only")
        known = (
            self.known_here(interaction) if game_id is None else self.remembered(game_id)
        )
        if known is not None and game_id is not None:
            self.check_pressed_where_played(interaction, known)
        # The calls seen at the press: the claim is judged on those, however long it waits.
        seen = self.live[known.id].announced if known and known.id in self.live else None
        sure = self.claim_in_memory(interaction, known, prize, board_number) if known else None
        if sure is not None:
            game, request = known, sure
            assert game is not None
            live = self.live_game(game.id)
            live.claims_in_flight += 1  # counted until judged: an end that is due waits for it
            previous = None
            try:
                await defer_public(interaction)
            except BaseException:
                self._claim_done(live, request, previous, None)
                raise
        else:
            if interaction.type is discord.InteractionType.component:
                await interaction.response.defer()  # silent: the answer may be public or private
            else:
                await defer_private(interaction)
            if game_id is None:
                game = await self.game_here(interaction)
            else:
                game = await self.button_game(interaction, game_id)
            seen_then = seen if known is not None and known.id == game.id else None
            request, previous = await self._claim_from_database(
                interaction, game, prize, board_number, seen_then
            )
            live = self.live_game(game.id)
            live.claims_in_flight += 1
        judgement: Judgement | None = None
        try:
            async with live.lock:
                judgement = await self._judge_locked(
                    interaction.user,
                    game.id,
                    request,
                    only_wins=previous == WON and request.prize is None,
                )
        finally:
            self._claim_done(live, request, previous, judgement)
        await answer(interaction, judgement.text, ephemeral=False, files=judgement.files)

    def claim_in_memory(
        self,
        interaction: discord.Interaction[Any],
        game: GameRow,
        prize: str | None,
        board_number: int | None,
    ) -> ClaimRequest | None:
        """A claim checked against what the bot holds in memory, before any acknowledgement:
        raises the refusal it is sure of; returns the request, marked as being judged, when it
        is sure the claim will be judged; None when memory cannot say (the database will)."""
        if interaction.channel_id != game.channel_id:
            raise UserError("claim_elsewhere")
        live = self.live.get(game.id)
        if live is None or game.status is GameStatus.LOBBY:
            return None  # (a lobby may have just started: the database says)
        players, held, winners, judged = live.players, live.boards, live.winners, live.judged
        if players is None or held is None or winners is None or judged is None:
            return None
        if live.announced is None:
            return None
        user_id = interaction.user.id
        player = players.get(user_id)
        if player is None:
            raise self.refusal("not_playing", game=game.id)
        if player.out:
            raise UserError("player_out")
        boards = held.get(user_id)
        if boards is None:
            return None  # being dealt
        if board_number is not None:
            self.check_board_in(boards, board_number)
        request = ClaimRequest(user_id, prize, board_number, live.announced)
        previous = judged.get(request.key)
        if previous is not None and not (previous == WON and prize is None):
            raise UserError("claim_judged", seq=request.seen)
        if previous is not None:
            return None  # pressed again after a win: the database says what more it may win
        playing = [b for b in boards if not b.out]
        if board_number is not None:
            playing = [b for b in playing if b.board_index + 1 == board_number]
        if not playing:
            raise UserError("no_boards_left")
        candidates = self.claim_candidates(game, user_id, request, winners)
        if not any(self.eligible_boards(playing, winners, c) for c in candidates):
            raise self.refusal("no_board_can_win", prize=self.prize_name(candidates[0]))
        # Checked and marked with no await between, so a double click is judged once.
        judged[request.key] = PENDING
        return request

    async def _claim_from_database(
        self,
        interaction: discord.Interaction[Any],
        game: GameRow,
        prize: str | None,
        board_number: int | None,
        seen: int | None,
    ) -> tuple[ClaimRequest, str | None]:
        """The checks of :meth:`claim_in_memory`, asked of the database (after the
        acknowledgement); returns the request, marked as being judged, and what its key had
        been judged before (None, or a win: the button pressed again)."""
        if interaction.channel_id != game.channel_id:
            raise UserError("claim_elsewhere")
        if not game.status.is_live:
            raise self.refusal("game_over", game=game.id)
        if game.status is GameStatus.LOBBY:
            raise self.refusal("not_started", game=game.id)
        if seen is None:
            seen = await self.announced_count(game.id)
        player = await self.storage.get_player(game.id, interaction.user.id)
        if player is None:
            raise self.refusal("not_playing", game=game.id)
        if player.out:
            raise UserError("player_out")
        if board_number is not None:
            self.check_board_in(
                await self.storage.boards(game.id, interaction.user.id), board_number
            )
        request = ClaimRequest(interaction.user.id, prize, board_number, seen)
        judged = await self.judged_claims(game.id)
        # Checked and marked with no await between, so a double click is judged once.
        previous = judged.get(request.key)
        if previous is not None and not (previous == WON and request.prize is None):
            raise UserError("claim_judged", seq=request.seen)
        judged[request.key] = PENDING
        return request, previous

    def _claim_done(
        self,
        live: LiveGame,
        request: ClaimRequest,
        previous: str | None,
        judgement: Judgement | None,
    ) -> None:
        """A claim was judged (``judgement``) or refused (None): what its key holds now, and
        the end that waits for the claims in flight may come."""
        judged = live.judged
        if judged is not None:
            if judgement is not None:
                judged[request.key] = WON if judgement.won else FALSE
            elif previous is None:
                judged.pop(request.key, None)  # refused, not judged: the player may ask again
            else:
                judged[request.key] = previous
        live.claims_in_flight -= 1
        if not live.claims_in_flight and live.end_held_since is not None:
            live.wake.set()  # the end waiting for the claims may come now

    async def shareable_prizes(self, game: GameRow) -> list[str]:
        """Prizes won on the latest call the channel has seen: a valid claim on that call still
        shares them, until the game ends."""
        seen = await self.announced_count(game.id)
        return [w.prize for w in await self.storage.winners(game.id) if w.draw_seq == seen]

    def check_board_in(self, boards: Sequence[BoardRow], board_number: int) -> None:
        """Refuse (privately) a claim naming a board the player does not hold among ``boards``
        (theirs), or one that is out."""
        named = next((b for b in boards if b.board_index + 1 == board_number), None)
        if named is None:
            raise self.refusal(
                "no_such_board",
                number=board_number,
                count=len(boards),
                boards=self.board_word(len(boards)),
            )
        if named.out:
            raise self.refusal("board_out", number=board_number, board=self.board_word(1))

    async def _judge_locked(
        self, user: discord.abc.User, game_id: int, request: ClaimRequest, *, only_wins: bool
    ) -> Judgement:
        game = await self.storage.get_game(game_id)
        assert game is not None
        if game.status not in {GameStatus.RUNNING, GameStatus.PAUSED}:
            raise self.refusal("game_over", game=game.id)
        called = self.called(game)[: request.seen]
        winners = await self.storage.winners(game.id)
        candidates = self.claim_candidates(game, user.id, request, winners)
        boards = [
            board
            for board in await self.storage.boards(game.id, user.id)
            if not board.out
            and (request.board_number is None or board.board_index + 1 == request.board_number)
        ]
        if not boards:
            raise UserError("no_boards_left")
        verdict: Verdict[CheckT] | None = None
        for candidate in candidates:
            eligible = self.eligible_boards(boards, winners, candidate)
            if not eligible:
                continue
            verdict = await asyncio.to_thread(self.judge, game, eligible, candidate, called)
            if verdict.valid:
                break
        if verdict is None:
            raise self.refusal("no_board_can_win", prize=self.prize_name(candidates[0]))
        if only_wins and not verdict.valid:
            raise UserError("nothing_more_now", seq=request.seen)
        image = None
        if verdict.valid:
            locale = self.channel_locale(game)
            image = await asyncio.to_thread(self.render_win, game, verdict, called, locale)
        return await self.record_verdict(game, user, verdict, winners, request, image)

    def judge(
        self, game: GameRow, boards: Sequence[BoardRow], prize: str, called: Sequence[int]
    ) -> Verdict[CheckT]:
        """A claim of ``prize`` on the player's live ``boards`` (those the claim names) against
        ``called``, the calls announced when it was made: it wins if any board wins. A false
        claim's verdict names the one board that pays for it: the one that came closest to the
        prize (fewest calls missing), the lowest number among equals."""
        state = self.state_of(game)
        require_last = bool(game.options.get("require_last", False))
        failures = []
        for board in boards:
            dealt = state.board_from_state(board.state)
            check: CheckT = state.judge(dealt, prize, called, require_last=require_last)
            if check.valid:
                return Verdict(prize, board, check)
            missing = state.missing(dealt, prize, called) if len(boards) > 1 else 0
            failures.append((missing, board.board_index, board, check))
        _, _, closest, check = min(failures, key=lambda failure: failure[:2])
        return Verdict(prize, closest, check)

    def claim_candidates(
        self,
        game: GameRow,
        user_id: int,
        request: ClaimRequest,
        winners: Sequence[WinnerRow],
    ) -> list[str]:
        """The prizes a claim can win, in the order to try them; refuses (privately) a claim
        that cannot win anything now.

        A claim naming no prize is for "the prize being played now": one won on this very call
        (valid claims on the same call share it), then the current prize, leaving out those the
        player has already won (so a line winner whose tabla also holds the corners played next
        on that call can claim them with the same button).
        """
        locale: LocaleLike = None  # refusals are shown in the claimer's language
        seq = request.seen
        won_this_call = [w.prize for w in winners if w.draw_seq == seq]
        mine = {w.prize for w in winners if w.user_id == user_id}
        claimable = self.state_of(game).claimable_codes
        if request.prize is None:
            playing = list(dict.fromkeys([*won_this_call, *claimable[:1]]))
            if not playing:
                raise UserError("all_won")
            candidates = [prize for prize in playing if prize not in mine]
            if not candidates:
                raise UserError("you_already_won", prize=self.prize_name(playing[-1], locale))
            return candidates
        prize = request.prize
        if prize in mine:
            raise UserError("you_already_won", prize=self.prize_name(prize, locale))
        if prize not in claimable and prize not in won_this_call:
            if any(w.prize == prize for w in winners):
                raise UserError("prize_already_won", prize=self.prize_name(prize, locale))
            now = ", ".join(self.prize_name(p, locale) for p in claimable)
            raise UserError(
                "prize_not_now_hint" if now else "prize_not_now",
                prize=self.prize_name(prize, locale),
                now=now,
            )
        return [prize]

    async def record_verdict(
        self,
        game: GameRow,
        user: discord.abc.User,
        verdict: Verdict[CheckT],
        winners: Sequence[WinnerRow],
        request: ClaimRequest,
        image: Rendered | None,
    ) -> Judgement:
        """Store the verdict (a win, or a false claim and its cost), then word it (a win with
        ``image``, its board)."""
        seq = request.seen
        ask = request.key[2]
        if not verdict.valid:
            await self.storage.record_claim(
                game.id,
                user.id,
                board_id=verdict.board.id,
                prize=verdict.prize,
                draw_seq=seq,
                valid=False,
                reason=verdict.reason,
                request=ask,
            )
            self.bot.metrics.claims.labels(self.kind, "false").inc()
            return Judgement(await self.false_claim(game, user, verdict), won=False)
        sharing = any(w.prize == verdict.prize and w.draw_seq == seq for w in winners)
        board_id = verdict.board.id
        state = None if sharing else self.state_of(game).award_prize(verdict.prize).to_state()
        await self.storage.record_win(
            game.id,
            prize=verdict.prize,
            user_id=user.id,
            board_id=board_id,
            draw_seq=seq,
            claim_reason=verdict.reason,
            state=state,
            request=ask,
        )
        self.won_in_memory(game, WinnerRow(verdict.prize, user.id, board_id, seq), state)
        if not sharing:
            # The caller ends the game after a short grace period once no prize is left,
            # so that simultaneous claims on this call can still share the last prize.
            self.live_game(game.id).wake.set()
        locale = self.channel_locale(game)
        text = self.say(
            "win_shared" if sharing else "win",
            locale,
            prize=self.prize_name(verdict.prize, locale),
            user=user.mention,
            seq=seq,
        )
        files = [attachment(image)] if image else []
        self.bot.metrics.claims.labels(self.kind, "won").inc()
        return Judgement(text, won=True, files=files)

    def won_in_memory(self, game: GameRow, winner: WinnerRow, state: str | None) -> None:
        """A win was stored: the game in memory has its winner, and its new ``state``."""
        live = self.live.get(game.id)
        if live is not None and live.winners is not None:
            live.winners.append(winner)
        known = self.remembered(game.id)
        if state is not None and known is not None:
            self.remember(dataclasses.replace(known, state=state))

    def player_in_memory(self, player: PlayerRow) -> None:
        """A player's row was stored (seated, or out after false claims): memory has it."""
        live = self.live.get(player.game_id)
        if live is not None and live.players is not None:
            live.players[player.user_id] = player

    def board_out_in_memory(self, board: BoardRow) -> None:
        """A board was put out of the game (a Housie bogey): memory has it out."""
        live = self.live.get(board.game_id)
        if live is None or live.boards is None or board.user_id not in live.boards:
            return
        live.boards[board.user_id] = [
            dataclasses.replace(b, out=True) if b.id == board.id else b
            for b in live.boards[board.user_id]
        ]

    async def false_claim(
        self, game: GameRow, user: discord.abc.User, verdict: Verdict[CheckT]
    ) -> str:
        """Lotería: a second false claim takes the player out. Housie overrides (bogey)."""
        player = await self.storage.record_false_claim(game.id, user.id, limit=FALSE_CLAIM_LIMIT)
        self.player_in_memory(player)
        locale = self.channel_locale(game)
        consequence = self.say("false_out" if player.out else "false_warn", locale)
        reason = reason_text(verdict.reason, verdict.code, verdict.values, locale)
        return self.say(
            "false_claim", locale, user=user.mention, reason=reason, consequence=consequence
        )

    # -- the end -------------------------------------------------------------------------------

    async def finish(self, game_id: int, *, reason: str) -> None:
        """Ends game ``game_id`` for ``reason`` (once, under its lock): stored, then announced."""
        async with self.live_game(game_id).lock:
            game = await self.storage.get_game(game_id)
            if game is None or not game.status.is_live:
                return
            await self._finish_locked(game, reason=reason)

    async def _finish_locked(
        self, game: GameRow, *, reason: str, channel_gone: bool = False
    ) -> None:
        """End ``game`` (its lock held) and post its summary; ``channel_gone``: Discord said the
        channel was deleted (10003), so nothing more is posted there."""
        ended = await self.store_game(game.id, status=GameStatus.FINISHED)
        self.forget_dealer(game.id)
        if not ended:
            return
        live = self.live_game(game.id)
        live.wake.set()
        if not channel_gone:
            # A call stored just before the end is posted before the summary, which counts it
            # (its nonce keeps the caller, mid-post, from posting it twice).
            try:
                await self.announce_unannounced(game.id, locked=True)
            except (discord.HTTPException, OSError) as error:
                log.warning("game %s ended with a call that could not be posted", game.id)
                channel_gone = post_refusal(error) is PostRefusal.GONE
        if not channel_gone:
            winners = await self.storage.winners(game.id)
            announced = await self.announced_count(game.id)
            locale = self.channel_locale(game)
            link = await self.verify_line(game, announced, locale)
            texts = self.summary_texts(game, reason, announced, winners, link)
            await self.post_summary(game, texts, winners)
            self.touch_lobby(game.id, urgent=True)
        if game.options.get("night") is not None:
            await self.night_ended(game)

    def summary_texts(
        self,
        game: GameRow,
        reason: str,
        announced: int,
        winners: Sequence[WinnerRow],
        link: str | None,
    ) -> list[str]:
        """The end-of-game summary as messages within Discord's 2,000 characters: the first
        always holds the header, the calls, the winners (each named, or per prize the first
        few and how many more when that would not fit), the seed and the verification hint;
        when the winners were condensed, the next ones name them all (at most
        ``WINNER_MESSAGES`` of them)."""
        locale = self.channel_locale(game)
        assert game.seed is not None
        head = [
            self.say("over_header", locale, game=game.id, reason=self.say(reason, locale)),
            self.say("calls_count", locale, count=announced),
        ]
        seed = self.say("seed_reveal", locale, seed=game.seed.hex(), game=game.id)
        tail = [seed] if link is None else [seed, link]
        if not winners:
            return ["\n".join([*head, self.say("no_winners", locale), *tail])]
        every_one = [
            self.say(
                "winner_line",
                locale,
                prize=self.prize_name(w.prize, locale),
                user=w.user_id,
                seq=w.draw_seq,
            )
            for w in winners
        ]
        whole = "\n".join([*head, self.say("winners", locale), *every_one, *tail])
        if len(whole) <= MESSAGE_LIMIT:
            return [whole]
        groups: dict[tuple[str, int], list[int]] = {}
        for w in winners:
            groups.setdefault((w.prize, w.draw_seq), []).append(w.user_id)
        pages, left_out = self._winner_pages(game, groups)
        if left_out:
            intro = self.say("winners_most_below", locale, count=len(winners), left=left_out)
        else:
            intro = self.say("winners_below", locale, count=len(winners))
        first = self._condensed_summary(game, [*head, intro], tail, groups)
        if first is None and link is not None:
            # A crowded game's verification link leaves no room: the page's address only.
            page = self.bot.verify_page()
            short = [seed, self.say("verify_page_only", locale, page=page)] if page else [seed]
            first = self._condensed_summary(game, [*head, intro], short, groups)
        if first is None:  # (cannot happen with Discord's limits and these words)
            first = "\n".join([*head, *tail])[:MESSAGE_LIMIT]
        return [first, *pages]

    def _condensed_summary(
        self,
        game: GameRow,
        head: list[str],
        tail: list[str],
        groups: Mapping[tuple[str, int], Sequence[int]],
    ) -> str | None:
        """``head``, each prize's first few winners (fewer until it fits, none at the last) and
        ``tail``, as one message; None if even that is too long."""
        for shown in range(SHOWN_PER_PRIZE, -1, -1):
            lines = [
                self._group_line(game, prize, seq, users[:shown], len(users) - shown)
                for (prize, seq), users in groups.items()
            ]
            text = "\n".join([*head, *lines, *tail])
            if len(text) <= MESSAGE_LIMIT:
                return text
        text = "\n".join([*head, *tail])
        return text if len(text) <= MESSAGE_LIMIT else None

    def _group_line(
        self, game: GameRow, prize: str, seq: int, users: Sequence[int], more: int
    ) -> str:
        """One prize's winners on one line: those of ``users`` named, and ``more`` counted."""
        locale = self.channel_locale(game)
        named = ", ".join(f"<@{user}>" for user in users)
        if not named:
            named = self.say("winners_n", locale, count=more)
        elif more > 0:
            named = self.say("winners_and_more", locale, users=named, count=more)
        prize_name = self.prize_name(prize, locale)
        return self.say("winners_group", locale, prize=prize_name, seq=seq, users=named)

    def _winner_pages(
        self, game: GameRow, groups: Mapping[tuple[str, int], Sequence[int]]
    ) -> tuple[list[str], int]:
        """Every winner, prize by prize, over as many messages as they need, and how many were
        left out: at most ``WINNER_MESSAGES`` are posted (the last says how many more won)."""
        locale = self.channel_locale(game)
        room = MESSAGE_LIMIT - 200  # each page's heading and the count of those left out
        pages: list[list[str]] = [[]]
        named: list[int] = [0]  # winners named on each page
        used = 0  # characters on the last page so far
        for (prize, seq), users in groups.items():
            prefix = self.say(
                "winners_group", locale, prize=self.prize_name(prize, locale), seq=seq, users=""
            )
            line = ""
            for user in users:
                longer = f"{line}, <@{user}>" if line else f"{prefix}<@{user}>"
                if used + len(longer) > room:  # the page is full: on to the next one
                    if line:
                        pages[-1].append(line)
                    pages.append([])
                    named.append(0)
                    used = 0
                    longer = f"{prefix}<@{user}>"
                line = longer
                named[-1] += 1
            pages[-1].append(line)
            used += len(line) + 1
        left_out = sum(named[WINNER_MESSAGES:])
        listed = pages[:WINNER_MESSAGES]
        texts = []
        for number, lines in enumerate(listed, start=1):
            heading = self.say("winners_page", locale, game=game.id, page=number, pages=len(listed))
            last = [self.say("winners_left_out", locale, count=left_out)] if left_out else []
            texts.append("\n".join([heading, *lines, *(last if number == len(listed) else [])]))
        return texts, left_out

    async def post_summary(
        self, game: GameRow, texts: Sequence[str], winners: Sequence[WinnerRow]
    ) -> None:
        """Post the end-of-game summary (``texts``, from :meth:`summary_texts`), the winners'
        picture with its first message; that message alone if the picture cannot be drawn or
        is refused (the summary reveals the seed: it must go out)."""
        pictures: list[Rendered] = []
        if winners:
            boards = await self.storage.boards(game.id)
            players = await self.storage.players(game.id)
            try:
                pictures = await self.bot.heavy.run(
                    game.guild_id, Lane.CALL, self.render_result, game, winners, boards, players
                )
            except Exception:  # the picture is a bonus; the summary must not wait on it
                log.exception("could not draw the winners of game %s", game.id)
        channel = self.bot.get_partial_messageable(game.channel_id)
        first, *rest = texts
        attempts = [[attachment(p) for p in pictures], []] if pictures else [[]]
        refused: discord.HTTPException | None = None
        for files in attempts:
            try:
                await channel.send(first, files=files)
                refused = None
                break
            except discord.HTTPException as error:
                log.warning("could not post the summary of game %s", game.id, exc_info=True)
                refused = error
                if post_refusal(error) is PostRefusal.GONE:
                    return
        if refused is not None:
            if post_refusal(refused) is not None:  # refused for good (AutoMod, a permission...)
                await self.tell_host_refused(game, "host_summary_refused", refused)
            return
        for text in rest:
            try:
                await channel.send(text)
            except discord.HTTPException:
                log.warning("could not post the winners of game %s", game.id, exc_info=True)
                return

    async def tell_host_refused(
        self, game: GameRow, key: str, error: discord.HTTPException
    ) -> None:
        """Discord refused a post of ``game`` for good (a call, its summary): its host hears
        ``key``, with Discord's code and words, by DM or else at their next interaction."""
        await self.bot.tell(
            game.host_id,
            self.say(
                key,
                self.channel_locale(game),
                game=game.id,
                channel=game.channel_id,
                code=error.code,
                error=_short(error.text),
            ),
        )

    async def verify(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """Checks finished game ``game_id`` of this server against its seed, in public.

        Another server's game the bot holds live is refused at once; one it saw end here is
        acknowledged publicly; any other privately (the database says whether it is this server's, and a
        refusal stays private; the verification then goes to the channel as a follow-up)."""
        known = self.remembered(game_id)
        if known is not None and known.guild_id != interaction.guild_id:
            raise self.refusal("no_such_game", game=game_id)
        # (A game held live may have just ended: the database says.)
        likely = game_id in self.ended and self.ended[game_id] == interaction.guild_id
        locale = interaction.locale
        # Re-dealing a big game is heavy work: in the server's line.
        async with self.bot.heavy.turn(
            interaction.guild_id,
            Lane.OTHER,
            acknowledge=lambda: (defer_public if likely else defer_private)(interaction),
        ):
            game = await self.game_by_id(game_id, interaction.guild_id)
            if game.status.is_live:
                raise self.refusal("still_on", game=game.id)
            assert game.seed is not None
            problems = await self.verify_game(game)
            if problems:
                text = self.say("verify_failed", locale) + "\n"
                text += "\n".join(f"- {problem}" for problem in problems[:10])
            else:
                draws = await self.storage.draws(game.id)
                boards = await self.storage.board_count(game.id)
                text = self.say(
                    "verified",
                    locale,
                    game=game.id,
                    calls=self.say("n_calls", locale, count=len(draws)),
                    boards=self.say("n_boards", locale, count=boards),
                )
            commitment_line = self.say(
                "seed_commitment", locale, seed=game.seed.hex(), commitment=_commitment(game)
            )
            calls = len(await self.storage.draws(game.id))
            link = await self.verify_line(game, calls, locale)
        lines = [text, commitment_line] if link is None else [text, commitment_line, link]
        await answer(interaction, "\n".join(lines), ephemeral=False)

    async def verify_line(self, game: GameRow, calls: int, locale: LocaleLike) -> str | None:
        """A link to the verification page with the game filled in (in the link's fragment,
        which browsers keep to themselves), or where to find the page when the link would be
        too long for a message; None when players cannot open the page (no public address:
        the seed and ``/<game> verify`` are what they have)."""
        assert game.seed is not None
        page = self.bot.verify_page()
        if page is None:
            return None
        boards = await self.storage.boards(game.id)
        fragment = verify_fragment(
            kind=self.kind,
            seed=game.seed,
            boards=[(board.user_id, board.deal_index) for board in boards],
            calls=calls,
            game_id=game.id,
            language="es" if is_spanish(locale) else "en",
            prizes=list(self.state_of(game).prize_codes),
            **self.verify_values(game),
        )
        url = verify_url(page, fragment)
        if len(url) > VERIFY_LINK_LIMIT:
            return self.say("verify_page_only", locale, page=page)
        return self.say("verify_link", locale, url=url)

    def verify_values(self, game: GameRow) -> dict[str, Any]:
        """What the verification page needs beyond the deal and the prizes (Lotería's
        ``deck``); nothing by default."""
        return {}

    async def verify_game(self, game: GameRow) -> list[str]:
        """What does not match the game's seed, calls and boards re-dealt from it (empty: it
        verifies)."""
        assert game.seed is not None
        problems: list[str] = []
        order = draw_order(game.seed, self.total_calls)
        for draw in await self.storage.draws(game.id):
            expected = order[draw.seq - 1]
            if draw.value != expected:
                problems.append(f"call {draw.seq} was {draw.value}, the seed gives {expected}")
        boards = await self.storage.boards(game.id)
        # Re-dealing a big game is CPU work: off the event loop.
        problems += await asyncio.to_thread(self.verify_boards, game, boards)
        return problems

    # -- commands every calling game has -------------------------------------------------------

    @app_commands.command(name="pause", description=_("Pause the calls (host or Manage Server)"))
    async def pause_command(self, interaction: discord.Interaction[Any]) -> None:
        """``/<game> pause``."""
        await self.pause(interaction)

    @app_commands.command(name="resume", description=_("Resume the calls (host or Manage Server)"))
    async def resume_command(self, interaction: discord.Interaction[Any]) -> None:
        """``/<game> resume``."""
        await self.resume(interaction)

    @app_commands.command(name="stop", description=_("End the game now (host or Manage Server)"))
    async def stop_command(self, interaction: discord.Interaction[Any]) -> None:
        """``/<game> stop``."""
        await self.stop(interaction)

    @app_commands.command(name="speed", description=_("Change the seconds between calls"))
    @app_commands.describe(seconds=_("Seconds between calls (5-120)"))
    async def speed_command(
        self,
        interaction: discord.Interaction[Any],
        seconds: app_commands.Range[int, MIN_INTERVAL, MAX_INTERVAL],
    ) -> None:
        """``/<game> speed seconds``."""
        await self.set_speed(interaction, seconds)

    @app_commands.command(name="verify", description=_("Check a finished game against its seed"))
    @app_commands.describe(game=_("The game number"))
    @member_cooldown(VERIFY_RATE)
    async def verify_command(
        self, interaction: discord.Interaction[Any], game: app_commands.Range[int, 1]
    ) -> None:
        """``/<game> verify game``."""
        await self.verify(interaction, game)


def _short(text: str) -> str:
    """Discord's words for an error, on one line and short enough to quote to a host."""
    return " ".join(text.split())[:200] or "-"


def _commitment(game: GameRow) -> str:
    return commitment(game.seed) if game.seed else "none"
