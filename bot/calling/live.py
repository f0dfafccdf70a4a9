"""What a calling game holds and measures, shared by the modules of ``bot.calling``: its limits
and pacing, a claim's request and verdict, the public answer, and ``LiveGame``, the in-memory
companion of a stored game."""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic

import discord

from bot.games import PostRefusal
from bot.render import Rendered
from bot.storage import (
    BoardRow,
    GameRow,
    PlayerRow,
    WinnerRow,
)
from engine.calling import Board, CallingGame, ClaimCheck
from engine.fairness import commitment

if TYPE_CHECKING:
    from bot.voice.speaker import Speaker

if sys.version_info >= (3, 13):
    from typing import TypeVar
else:  # (a type variable's default)
    from typing_extensions import TypeVar

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
AUTO_WIN_PICTURES = 4  # winning boards drawn under a win the bot found (a crowd's: the first)
AUTO_WIN_NAMES = 1700  # characters of winners' mentions in that announcement, at most
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
    """The ruling on one claim on one board, before anything is stored or said: the engine's
    ``check`` (its ``reason`` in English is stored; its ``code`` and ``values`` word it for the
    players, ``bot.reasons``). What the channel is told is a :class:`ClaimAnswer`."""

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
class ClaimAnswer:
    """What the channel is told of a judged (and stored) claim: the words, whether it won, and
    the winning board's picture. It is worded from the claim's :class:`Verdict`."""

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


@dataclass
class AutoWatch:
    """What the finder keeps of one game between its calls: each board read once from its
    stored text, and for each (board, prize) the first call at which it could be complete."""

    parsed: dict[int, Board] = field(default_factory=dict)
    due: dict[tuple[int, str], int] = field(default_factory=dict)
    looks: int = 0  # (board, prize) pairs looked at so far (what the bench counts)

    def board(self, state: CallingGame[Any, Any], row: BoardRow) -> Board:
        """``row``'s board, read from its stored text once."""
        board = self.parsed.get(row.id)
        if board is None:
            board = self.parsed[row.id] = state.board_from_state(row.state)
        return board


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
    # The last call this process stored (None: none since it started): while every one of them
    # is announced, the caller need not look for draws a crash left unannounced.
    drawn: int | None = None
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
    # The Claim button under every call, built once (a View costs more than the post's JSON).
    claim_view: discord.ui.View | None = None
    # The next call's text and pictures, drawn in the interval's slack once a call is posted
    # (the order is the seed's): what they were drawn for, and the drawing.
    upcoming: tuple[Hashable, asyncio.Task[tuple[str, list[Rendered]]]] | None = None
    # With automatic claims, what the bot keeps between calls to find the winners
    # (bot.calling.auto; None until the first call this process judges).
    auto_watch: AutoWatch | None = None
    # Its voice (bot.calling.spoken), when it has a voice channel: the join (None: not tried
    # since this process started), the speaker once joined (None again once it left), its
    # phrases being made ahead, what it is saying without being waited for (wins, the
    # farewell), and the Start press to tell privately if it cannot speak.
    voice_task: asyncio.Task[Any] | None = None
    speaker: Speaker | None = None
    voice_ready: asyncio.Task[int] | None = None
    voice_sayings: set[asyncio.Task[Any]] = field(default_factory=set)
    voice_starter: discord.Interaction[Any] | None = None
    voice_said: int = 0  # the last call said aloud (each is said once)

    def tasks(self) -> tuple[asyncio.Task[Any] | None, ...]:
        """The caller, the lobby refresher, the re-delivery task, the next call's drawing, and
        the voice's join and phrases made ahead."""
        upcoming = self.upcoming[1] if self.upcoming is not None else None
        return (
            self.task,
            self.lobby_task,
            self.redeal_task,
            upcoming,
            self.voice_task,
            self.voice_ready,
        )


def lobby_edit_interval(lobbies_refreshing: int) -> float:
    """Seconds between edits of one lobby while ``lobbies_refreshing`` lobbies are being kept up
    to date: LOBBY_EDIT_INTERVAL, longer when together they would exceed LOBBY_EDITS_PER_SECOND."""
    return max(LOBBY_EDIT_INTERVAL, lobbies_refreshing / LOBBY_EDITS_PER_SECOND)


def is_manager(member: discord.abc.User | discord.Member) -> bool:
    """Whether ``member`` has Manage Server (a host's powers over any game of the server)."""
    permissions = getattr(member, "guild_permissions", None)
    return bool(permissions and permissions.manage_guild)


def short_error(text: str) -> str:
    """Discord's words for an error, on one line and short enough to quote to a host."""
    return " ".join(text.split())[:200] or "-"


def commitment_text(game: GameRow) -> str:
    """The commitment to ``game``'s seed as the lobby posts it (``none`` without a seed)."""
    return commitment(game.seed) if game.seed else "none"
