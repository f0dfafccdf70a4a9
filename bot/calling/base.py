"""The base of the calling games: the hooks a game implements over its engine, and what the
bot holds of each game in memory."""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import functools
import logging
import threading
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, cast

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.calling.live import (
    DM_CONCURRENCY,
    FALSE,
    WON,
    CheckT,
    GameT,
    LiveGame,
    Verdict,
    WonBoard,
    is_manager,
)
from bot.calling.options import (
    CLAIM_MODES,
    CLAIMS_AUTO,
    CLAIMS_MANUAL,
    VOICE_IN_GAME_LANGUAGE,
    VOICE_OFF,
    CallingOptions,
)
from bot.games import GameCog
from bot.i18n import LocaleLike, message
from bot.render import Rendered
from bot.replies import (
    UserError,
)
from bot.storage import (
    BoardRow,
    GameDefaults,
    GameRow,
    PlayerRow,
    WinnerRow,
)
from bot.verify_link import LinkRules
from engine.calling import Board, CallingGame, Dealer

if TYPE_CHECKING:
    from bot.app import GameNightBot

log = logging.getLogger(__name__)

OptionsT = TypeVar("OptionsT", bound=CallingOptions)


# Each call, claim and board view reads its game's state; a game's state is a frozen value
# (engine.calling), so one parse serves them all until the next call changes the text.
@functools.lru_cache(maxsize=4096)
def _parsed_state(engine: type[CallingGame[Any, Any]], text: str) -> CallingGame[Any, Any]:
    return engine.from_state(text)


# The options every calling game's start command has, beside its own: ``claims`` (``auto``: the
# bot finds the winners after each call) and ``voice`` (the voice channel its calls are spoken
# in). The base adds them to each game's command (``_add_start_options``); this command exists
# only to have discord.py build them, described and with their choices.
CLAIMS_OPTION = "claims"
VOICE_OPTION = "voice"
START_OPTIONS = (CLAIMS_OPTION, VOICE_OPTION)


CLAIMS_DESCRIPTION = _("Players claim their wins, or the bot finds them after each call")
CLAIMS_CHOICES = [
    app_commands.Choice(
        name=_("Manual: players claim (a win slept on is lost)"), value=CLAIMS_MANUAL
    ),
    app_commands.Choice(name=_("Automatic: the bot finds every winner"), value=CLAIMS_AUTO),
]
VOICE_DESCRIPTION = _("A voice channel where the bot speaks the calls too")
VOICE_LANGUAGE_CHOICES = [
    app_commands.Choice(name=_("The game's language"), value=VOICE_IN_GAME_LANGUAGE),
    app_commands.Choice(name=_("English"), value="en"),
    app_commands.Choice(name=_("Spanish"), value="es"),
    app_commands.Choice(name=_("English, then Spanish"), value="both"),
    app_commands.Choice(name=_("Off: no voice by default"), value=VOICE_OFF),
]


@app_commands.command(name="start", description="-")
@app_commands.describe(claims=CLAIMS_DESCRIPTION, voice=VOICE_DESCRIPTION)
@app_commands.choices(claims=CLAIMS_CHOICES)
async def _start_options(
    interaction: discord.Interaction[Any],
    claims: str | None = None,
    voice: discord.VoiceChannel | discord.StageChannel | None = None,
) -> None:
    """Never called: its options are what every calling game's start command gains."""


def _add_start_options(start: app_commands.Command[Any, ..., Any]) -> None:
    """Give a game's ``start`` command the options every calling game has (``START_OPTIONS``),
    with no word in its cog. discord.py reads a command's options from its method's signature
    when the class is made; these are added to that command beside them, and their values are
    handed to ``open_lobby`` in the interaction's ``extras`` (None: the host did not choose; a
    channel by its id)."""
    game_start = start._callback  # (discord.py has no public way to add an option)

    async def start_with_options(
        cog: Any, interaction: discord.Interaction[Any], /, *args: Any, **options: Any
    ) -> Any:
        for name in START_OPTIONS:
            value = options.pop(name, None)
            interaction.extras[name] = getattr(value, "id", value)
        return await game_start(cog, interaction, *args, **options)

    start._callback = start_with_options
    for name in START_OPTIONS:
        start._params[name] = copy.copy(_start_options._params[name])


class CallingBase(commands.GroupCog, GameCog[LiveGame], Generic[GameT, CheckT]):
    """The base of a calling game over its ``engine`` (an ``engine.calling.CallingGame``: deal,
    next call, prizes, judge, its stored state): the hooks a game implements (its words and
    pictures), what the bot holds of each game in memory, and the look-ups every part shares.
    ``bot.calling.CallingGameCog`` puts the parts together (lobby, summary, caller, nights,
    claims)."""

    calling = True
    start_subcommand = "start"
    engine: type[GameT]
    exhausted_reason: ClassVar[str]
    show_command: ClassVar[str]
    most_boards: ClassVar[int] = 1  # boards a player may hold
    link_fields: ClassVar[Mapping[str, tuple[str, ...]]] = {}  # the verify link's own fields
    # What the sandbox's simulated members need (bot.sandbox): the options of a sandbox night's
    # start command, and how many false claims a bluffer makes before they cost too much.
    sandbox_start: ClassVar[Mapping[str, Any]] = {}
    sandbox_bluffs: ClassVar[int] = 1
    sandbox_default: ClassVar[bool] = False  # the game a sandbox night plays unless told

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A game's class: its start command gains the options every calling game has."""
        super().__init_subclass__(**kwargs)
        for value in list(vars(cls).values()):
            if (
                isinstance(value, app_commands.Command)
                and value.name == cls.start_subcommand
                and CLAIMS_OPTION not in value._params
            ):
                _add_start_options(value)

    def __init__(self, bot: GameNightBot) -> None:
        super().__init__(bot)
        self.total_calls = self.engine.total_calls  # calls a game makes at most
        self.deal_limit = self.engine.deal_limit  # deal positions a game can hand out
        # Each lobby's dealer, so that a join deals its seats without replaying the earlier ones.
        self.dealers: dict[int, Dealer[Board]] = {}
        self.dealers_lock = threading.Lock()  # deal() runs in a worker thread
        self.dm_slots = asyncio.Semaphore(DM_CONCURRENCY)

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

    def state_of(self, game: GameRow) -> GameT:
        """The engine's game, read from the stored ``game``."""
        return cast("GameT", _parsed_state(self.engine, game.state))

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

    def lobby_pictures(self, game: GameRow) -> list[Rendered]:
        """The pictures the lobby message carries, in the channel's language (Bingo's patterns
        to be played); none by default. Posted with the lobby and kept by its edits. Runs in a
        worker thread."""
        return []

    def default_prizes(self, text: str, *, guild_id: int | None = None) -> str:
        """``text`` as a server's default prizes for ``start`` (``/gamenight settings``), checked
        as ``start`` checks its own, with the same refusals; returns the form stored.
        ``guild_id``, here and in the other hooks of a server's defaults (``describe_prizes``,
        ``prize_suggestions``, ``scheduled_game``): the server whose defaults they are, for a
        game whose prizes may be the server's own (Bingo's custom patterns)."""
        raise NotImplementedError

    def describe_prizes(
        self, stored: str | None, locale: LocaleLike, *, guild_id: int | None = None
    ) -> str:
        """Default prizes as stored by :meth:`default_prizes` (None: ``start``'s own)."""
        raise NotImplementedError

    def prize_suggestions(
        self, typed: str, locale: LocaleLike, *, guild_id: int | None = None
    ) -> list[tuple[str, str]]:
        """``(name, value)`` default prizes to offer while ``typed`` is being typed."""
        return []

    def board_word(self, count: int, locale: LocaleLike = None) -> str:
        """What a board is called ("tabla", "tickets", "cartón"), in the player's language."""
        return message(f"{self.kind}_board", locale, count=count)

    def board_phrase(self, count: int, locale: LocaleLike = None) -> str:
        """ "your tabla", "your 3 tickets", "tus 3 cartones"..."""
        return message("boards_phrase", locale, count=count, board=self.board_word(count, locale))

    def verify_values(self, game: GameRow) -> dict[str, str]:
        """The game's own fields of its verification link (``link_fields``), as ``game`` is
        played (Lotería's ``deck``); none by default."""
        return {}

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
        if (
            game is None
            or game.kind != self.kind
            or (guild_id is not None and game.guild_id != guild_id)
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

    def options_of(self, game: GameRow) -> CallingOptions:
        """The options ``game`` was stored with, typed (a game reads its own class of them)."""
        return CallingOptions.from_stored(game.options)

    def auto_claims(self, game: GameRow) -> bool:
        """Whether the bot finds ``game``'s winners itself (``claims: auto``)."""
        return self.options_of(game).auto_claims

    @classmethod
    def with_chosen(
        cls, options: OptionsT, chosen: Mapping[str, Any], defaults: GameDefaults
    ) -> OptionsT:
        """``options`` with what the options every start command has (``START_OPTIONS``) chose:
        ``chosen`` by the host (the interaction's ``extras``) or as a night was planned (its
        stored options), else the server's ``defaults``."""
        claims, voice = chosen.get(CLAIMS_OPTION), chosen.get(VOICE_OPTION)
        options = cls.with_claims(options, None if claims is None else str(claims), defaults)
        return cls.with_voice(options, None if voice is None else int(voice), defaults)

    @staticmethod
    def with_claims(options: OptionsT, chosen: str | None, defaults: GameDefaults) -> OptionsT:
        """``options`` saying how the game's wins are found: as ``chosen`` (by the host, or for
        a planned night), else as the game's ``options`` say, else the server's ``defaults``,
        else by the players' claims. With automatic claims the slept rule is off: nobody
        claims, so nobody can sleep on a win. Refuses (privately) a mode it does not know."""
        claims = chosen or options.claims or defaults.claims or CLAIMS_MANUAL
        if claims not in CLAIM_MODES:
            raise UserError("claims_bad_mode", modes=", ".join(CLAIM_MODES))
        if claims == CLAIMS_AUTO:
            return dataclasses.replace(options, claims=claims, require_last=False)
        return dataclasses.replace(options, claims=claims)

    @staticmethod
    def with_voice(options: OptionsT, chosen: int | None, defaults: GameDefaults) -> OptionsT:
        """``options`` saying where the game's calls are spoken: in the voice channel
        ``chosen`` (by the host, or for a planned night), else the one the game's ``options``
        name, else the server's default for the game (none: text only); and in the server's
        language for it (``voice_language``)."""
        return dataclasses.replace(
            options,
            voice=chosen or options.voice or defaults.voice,
            voice_language=options.voice_language or defaults.voice_language,
        )

    def scheduled_game(
        self, seed: bytes, defaults: GameDefaults, *, guild_id: int | None = None
    ) -> tuple[str, CallingOptions]:
        """The first state and the options of a game a planned night opens: the start
        command's with no options given, the server's ``defaults`` for this game applied. A
        ``UserError`` when they can no longer be played (a prize of the server's own deleted
        since): the night is missed, its host told why."""
        raise NotImplementedError

    @classmethod
    def link_rules(cls) -> LinkRules:
        """What the game's verification link may carry (``bot.verify_link``)."""
        return LinkRules(
            kind=cls.kind,
            prize_codes=frozenset(cls.engine.every_prize_code),
            most_boards=cls.most_boards,
            total_calls=cls.engine.total_calls,
            deal_limit=cls.engine.deal_limit,
            fields=cls.link_fields,
        )

    @classmethod
    def claim_options(cls, prize: str, board_number: int) -> dict[str, Any]:
        """The options of ``/<kind> claim`` that claim ``prize`` on the player's board
        ``board_number`` (what the sandbox's members type); none by default."""
        return {}

    @classmethod
    def prize_pick(cls, prize: str) -> str | None:
        """The action of the button that picks ``prize`` when the claim button offers a choice
        (None: the claim button claims at once, the default)."""
        return None
