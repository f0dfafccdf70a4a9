"""The two-player life cycle of a table game (:class:`DuelCog`): a challenge (accept / decline)
or a game against the bot, turns, the bot's replies, resignation, forfeit on time, the result
(a win recorded for ``/stats``) and a rematch with sides swapped."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar

import discord

from bot.components import GameButton
from bot.games import post_refusal
from bot.i18n import MESSAGES, LocaleLike, is_spanish, message
from bot.permissions import require_posting
from bot.replies import (
    UserError,
    answer,
    check_range,
    defer_private,
    defer_public,
)
from bot.storage import GameRow, GameStatus
from bot.table.base import (
    BOT_SEAT_ID,
    CHALLENGE_SECONDS,
    MAX_TURN_SECONDS,
    MIN_TURN_SECONDS,
    SandboxPress,
    Shown,
    TableGameCog,
)
from bot.table.options import DuelOptions
from engine.errors import quoted
from engine.fairness import SeededRandom

log = logging.getLogger(__name__)

EngineT = TypeVar("EngineT")
OptionsT = TypeVar("OptionsT", bound=DuelOptions)


class DuelCog(TableGameCog, Generic[EngineT, OptionsT]):
    """Two players (two members, or a member and the bot) taking turns on one engine state.

    Seats are stored in the options (:class:`bot.table.options.DuelOptions`, or the game's own
    subclass with its settings: ``options_type``) as ``seats`` ([first, second], ``0`` for the
    bot) with display ``names``; seat 0 moves first. The game's message shows the challenge,
    then the board; a result message with a Rematch button follows the end.
    """

    options_type: type[OptionsT]  # the game's options, read from and written to its row
    levels: ClassVar[tuple[str, ...]]
    default_level: ClassVar[str]
    mark_names: ClassVar[tuple[str, str]]  # "X"/"O", "red"/"blue"
    mark_names_es: ClassVar[tuple[str, str]]

    # -- engine hooks --------------------------------------------------------------------------

    def load(self, game: GameRow) -> EngineT:
        """The engine of ``game``, from its stored state."""
        raise NotImplementedError

    def first_state(self, options: OptionsT) -> str:
        """The stored state a new game starts from, given its ``options``."""
        raise NotImplementedError

    def turn_seat(self, engine: EngineT) -> int:
        """The seat (0 or 1) whose turn it is."""
        raise NotImplementedError

    def is_over(self, engine: EngineT) -> bool:
        """Whether the game has ended on the board."""
        raise NotImplementedError

    def winner_seat(self, engine: EngineT) -> int | None:
        """The seat that won a finished game, ``None`` for a draw."""
        raise NotImplementedError

    def move_count(self, engine: EngineT) -> int:
        """How many moves have been played."""
        raise NotImplementedError

    def state_of(self, engine: EngineT) -> str:
        """The engine's state as stored (its ``to_state()``)."""
        raise NotImplementedError

    def apply(self, engine: EngineT, move: str, seat: int, locale: LocaleLike = None) -> str:
        """Play ``move`` (the component's or command's text) for ``seat``; returns what it did
        (in ``locale``)."""
        raise NotImplementedError

    def bot_move(
        self, engine: EngineT, level: str, rng: random.Random, locale: LocaleLike = None
    ) -> str:
        """Play the bot's move for the side to move; returns what it did (in ``locale``)."""
        raise NotImplementedError

    async def board(self, game: GameRow, engine: EngineT) -> Shown:
        """The game's message while it is played (and once over: board disabled)."""
        raise NotImplementedError

    async def result(self, game: GameRow, engine: EngineT) -> Shown:
        """The message announcing the end; includes the rematch button."""
        raise NotImplementedError

    def describe_options(self, options: OptionsT, locale: LocaleLike = None) -> str:
        """The settings in a few words (board size...)."""
        raise NotImplementedError

    def sandbox_move(
        self, game: GameRow, engine: EngineT, user_id: int, rng: random.Random
    ) -> SandboxPress:
        """The move a sandbox's simulated member ``user_id``, on turn, makes (``bot.sandbox``)."""
        raise NotImplementedError

    # -- the sandbox ---------------------------------------------------------------------------

    def sandbox_press(self, game: GameRow, rng: random.Random) -> SandboxPress | None:
        """A challenged member accepts; a member on turn moves (:meth:`sandbox_move`); nobody
        while the bot is on turn or the game is over."""
        if game.status is GameStatus.LOBBY:
            challenged = self.seats(game)[self.challenged_seat(game)]
            said = message("table_accept", self.channel_locale(game))
            return SandboxPress(challenged, self.button_id("accept", game.id), said=said)
        engine = self.load(game)
        if not game.status.is_live or self.is_over(engine):
            return None
        user_id = self.seats(game)[self.turn_seat(engine)]
        if user_id == BOT_SEAT_ID:
            return None
        return self.sandbox_move(game, engine, user_id, rng)

    # -- options and seats -----------------------------------------------------------------------

    def options(self, game: GameRow) -> OptionsT:
        """The game's options, typed."""
        return self.options_type.from_stored(game.options)

    def seats(self, game: GameRow) -> list[int]:
        """The members in the two seats (``0`` for the bot), first mover first."""
        return [int(user) for user in self.options(game).seats]

    def seats_of(self, game: GameRow) -> list[int]:
        """The members playing: the host, and once the challenge is accepted the other member
        (never the bot)."""
        if game.status is GameStatus.LOBBY:
            return [game.host_id]
        return [user for user in self.seats(game) if user != BOT_SEAT_ID]

    def seat_of(self, game: GameRow, user_id: int) -> int | None:
        """The seat of member ``user_id`` in ``game``, or None if they are not playing."""
        seats = self.seats(game)
        return seats.index(user_id) if user_id in seats else None

    def who(self, game: GameRow, seat: int) -> str:
        """A mention of the player in ``seat``."""
        user = self.seats(game)[seat]
        if user == BOT_SEAT_ID:
            return self.bot.user.mention if self.bot.user else "the bot"
        return f"<@{user}>"

    def names(self, game: GameRow) -> list[str]:
        """The players' display names, by seat."""
        return [str(name) for name in self.options(game).names]

    def mark_name(self, seat: int, locale: LocaleLike) -> str:
        """What seat ``seat`` plays with ("X", "red"...) in ``locale``'s language."""
        return (self.mark_names_es if is_spanish(locale) else self.mark_names)[seat]

    def level_name(self, game: GameRow, locale: LocaleLike) -> str:
        """The bot's level in ``locale``'s language ("hard", "difícil"...)."""
        level = self.options(game).level or ""
        key = f"table_level_{level}"
        return message(key, locale) if key in MESSAGES else level

    def players_line(self, game: GameRow, locale: LocaleLike = None) -> str:
        """Who plays whom, with their marks and the bot's level."""
        level = self.level_name(game, locale)
        sides = [
            message(
                "table_bot_player" if self.seats(game)[seat] == BOT_SEAT_ID else "table_player",
                locale,
                who=self.who(game, seat),
                mark=self.mark_name(seat, locale),
                level=level,
            )
            for seat in range(2)
        ]
        return message("table_versus", locale).join(sides)

    # -- starting ------------------------------------------------------------------------------

    async def start(
        self,
        interaction: discord.Interaction[Any],
        *,
        opponent: discord.Member | discord.User | None,
        level: str,
        turn_time: int,
        settings: Mapping[str, Any],
    ) -> None:
        """``/<game> play``: challenge ``opponent``, or play the bot when there is none;
        ``settings`` are the game's own options (``options_type``'s), as stored."""
        if interaction.guild_id is None or interaction.channel_id is None:
            raise UserError("table_server_only")
        server = await self.host_settings(interaction)
        if level not in self.levels:
            raise UserError("table_bad_level", levels=", ".join(self.levels), level=quoted(level))
        me = self.bot.user
        against_bot = opponent is None or (me is not None and opponent.id == me.id)
        if opponent is not None and not against_bot:
            if opponent.id == interaction.user.id:
                raise UserError("table_not_yourself")
            if opponent.bot:
                raise UserError("table_not_bots")
        check_range("turn_time", turn_time, MIN_TURN_SECONDS, MAX_TURN_SECONDS)
        require_posting(interaction)
        user = interaction.user
        bot_name = me.display_name if me is not None else "GameNight"
        if against_bot:
            other = (BOT_SEAT_ID, bot_name)
        else:
            assert opponent is not None
            other = (opponent.id, opponent.display_name)
        # The game's settings read with the rest: one missing is a TypeError here.
        options = self.options_type.from_stored(
            {
                **settings,
                "seats": [user.id, other[0]],
                "names": [user.display_name, other[1]],
                "turn_time": turn_time,
                "guild_locale": server.public_locale(interaction.guild_locale),
                "level": level if against_bot else None,
            }
        )
        # Already playing: refused at once, from memory. The challenge is the answer, and the
        # database may be slow: acknowledge first; publicly, unless another game of one of
        # the players came first and is not done (then privately, and the database says).
        self.check_free_in_memory(user.id)
        if not against_bot:
            assert opponent is not None
            self.check_free_in_memory(opponent.id, member=opponent.mention)
        async with self.seated_in_order(interaction, opponent) as place:
            await (defer_private if place.behind else defer_public)(interaction)
            async with place, self.seating:
                await self.check_free(user.id)
                if not against_bot:
                    assert opponent is not None
                    await self.check_free(opponent.id, member=opponent.mention)
                game = await self.open_game(
                    interaction, host_id=user.id, options=options, against_bot=against_bot
                )
        await self.publish(interaction, game)

    async def open_game(
        self,
        interaction: discord.Interaction[Any],
        *,
        host_id: int,
        options: OptionsT,
        against_bot: bool,
    ) -> GameRow:
        """Store a new game (a challenge, or running against the bot) and seat its host.

        Against the bot, the bot's opening moves are played at once when it moves first.
        """
        assert interaction.guild_id is not None
        assert interaction.channel_id is not None
        seed = self.bot.new_seed()
        state = self.first_state(options)
        seconds = options.turn_time if against_bot else CHALLENGE_SECONDS
        options = options.but(deadline=self.deadline_after(seconds))
        game = await self.storage.create_game(
            kind=self.kind,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            host_id=host_id,
            seed=seed,
            options=options.to_stored(),
            state=state,
            status=GameStatus.RUNNING if against_bot else GameStatus.LOBBY,
        )
        self.remember(game)
        for seat, user_id in enumerate(self.seats(game)):
            if user_id == host_id:
                await self.storage.add_player(
                    game.id,
                    user_id,
                    display_name=self.names(game)[seat],
                    locale=str(interaction.locale),
                    boards=lambda _seat, _first: [],
                )
        if against_bot:
            engine = self.load(game)
            if self.seats(game)[self.turn_seat(engine)] == BOT_SEAT_ID:
                said = await self.bot_replies(game, engine, self.channel_locale(game))
                new_options = self.options(game).but(last=tuple(said))
                await self.store_game(
                    game.id, state=self.state_of(engine), options=new_options.to_stored()
                )
                fresh = await self.storage.get_game(game.id)
                assert fresh is not None
                game = fresh
        return game

    async def publish(self, interaction: discord.Interaction[Any], game: GameRow) -> None:
        """Answer ``interaction`` with the game's message and remember it."""
        try:
            shown = (
                await self.challenge(game)
                if game.status is GameStatus.LOBBY
                else await self.board(game, self.load(game))
            )
            message = await self.post(interaction, shown)
        except BaseException:
            # Nobody saw the game: call it off, so its players are not held in it.
            await self.store_game(game.id, status=GameStatus.CANCELLED)
            raise
        await self.store_game(game.id, lobby_message_id=message.id)
        self.arm_timer(game.id)

    async def after_restart(self, game: GameRow) -> None:
        """A move's time that ran out while the bot was down starts again: the player on turn
        could not have moved."""
        options = self.options(game)
        if game.status is not GameStatus.RUNNING or (options.deadline or 0) > time.time():
            return
        options = options.but(deadline=self.deadline_after(options.turn_time))
        if await self.store_game(game.id, options=options.to_stored(), expect_state=game.state):
            fresh = await self.storage.get_game(game.id)
            assert fresh is not None
            await self.show(fresh, await self.board(fresh, self.load(fresh)))

    async def challenge(self, game: GameRow) -> Shown:
        """The challenge message: who challenges whom, with Accept and Decline."""
        locale = self.channel_locale(game)
        challenged = self.challenged_seat(game)
        view = discord.ui.View(timeout=None)
        view.add_item(
            GameButton.make(
                self.prefix,
                "accept",
                game.id,
                label=message("table_accept", locale),
                style=discord.ButtonStyle.success,
            )
        )
        view.add_item(
            GameButton.make(
                self.prefix,
                "decline",
                game.id,
                label=message("table_decline", locale),
                style=discord.ButtonStyle.danger,
            )
        )
        content = self.say(
            "table_challenge",
            locale,
            game=game.id,
            host=game.host_id,
            challenged=self.who(game, challenged),
            settings=self.describe_options(self.options(game), locale),
            players=self.players_line(game, locale),
            first=self.mark_name(0, locale),
            deadline=int(self.options(game).deadline or 0),
        )
        return Shown(content, view)

    def challenged_seat(self, game: GameRow) -> int:
        """The seat of the member challenged (the one who is not the host)."""
        return 1 if self.seats(game)[0] == game.host_id else 0

    # -- components ----------------------------------------------------------------------------

    async def on_component(
        self,
        interaction: discord.Interaction[Any],
        action: str,
        game_id: int,
        arg: str,
        values: Sequence[str],
    ) -> None:
        """Dispatches the game's buttons and selects: accept, decline, resign, rematch, moves.

        Each is acknowledged before the database is asked: silently (the game's message is
        edited, a rematch is posted anew, a refusal follows privately), or with a private
        "thinking..." for a resignation, whose answer is private."""
        if action not in {"accept", "decline", "resign", "rematch", "cell", "line"}:
            raise UserError("button_gone")
        if action == "resign":
            await defer_private(interaction)
        else:
            await interaction.response.defer()
        game = await self.game_by_id(game_id)
        if action == "accept":
            await self.accept(interaction, game)
        elif action == "decline":
            await self.decline(interaction, game)
        elif action == "resign":
            await self.resign(interaction, game)
        elif action == "rematch":
            await self.rematch(interaction, game)
        elif action in {"cell", "line"}:
            move = values[0] if values else arg
            await self.move(interaction, game, move)
        else:
            raise UserError("button_gone")

    async def accept(self, interaction: discord.Interaction[Any], game: GameRow) -> None:
        """The challenged member accepts: seated (if free), and the game starts."""
        challenged = self.challenged_seat(game)
        if game.status is not GameStatus.LOBBY:
            raise self.refusal("table_not_waiting", game=game.id)
        if interaction.user.id != self.seats(game)[challenged]:
            raise self.refusal("table_only_challenged", who=self.who(game, challenged))
        live = self.live_game(game.id)
        gone = self.refusal("table_not_waiting", game=game.id)
        if not interaction.response.is_done():
            await interaction.response.defer()
        async with self.seating, live.lock:
            current = await self.storage.get_game(game.id)
            if current is None or current.status is not GameStatus.LOBBY:
                raise gone  # a second press, or the challenge just expired
            await self.check_free(interaction.user.id)
            await self.storage.add_player(
                game.id,
                interaction.user.id,
                display_name=interaction.user.display_name,
                locale=str(interaction.locale),
                boards=lambda _seat, _first: [],
            )
            options = self.options(current)
            options = options.but(deadline=self.deadline_after(options.turn_time))
            started = await self.store_game(
                game.id,
                status=GameStatus.RUNNING,
                options=options.to_stored(),
                expect_status=GameStatus.LOBBY,
            )
            if not started:
                raise gone
            fresh = await self.storage.get_game(game.id)
            assert fresh is not None
        await self.show(fresh, await self.board(fresh, self.load(fresh)), interaction)
        self.arm_timer(game.id)

    async def decline(self, interaction: discord.Interaction[Any], game: GameRow) -> None:
        """A player turns the challenge down (or the challenger withdraws it)."""
        if game.status is not GameStatus.LOBBY:
            raise self.refusal("table_not_waiting", game=game.id)
        seat = self.seat_of(game, interaction.user.id)
        if seat is None:
            raise UserError("table_not_your_challenge")
        withdrawn = interaction.user.id == game.host_id
        if not interaction.response.is_done():
            await interaction.response.defer()
        async with self.live_game(game.id).lock:
            ended = await self.store_game(
                game.id, status=GameStatus.CANCELLED, expect_status=GameStatus.LOBBY
            )
        if not ended:
            raise self.refusal("table_not_waiting", game=game.id)
        content = self.say(
            "table_withdrew" if withdrawn else "table_declined",
            self.channel_locale(game),
            game=game.id,
            user=interaction.user.mention,
        )
        await interaction.edit_original_response(content=content, view=None)
        self.live_game(game.id).wake.set()

    # -- moves ---------------------------------------------------------------------------------

    def check_turn(self, game: GameRow, user_id: int) -> int:
        """The seat of ``user_id`` if they may move now; otherwise a short refusal."""
        if game.status is GameStatus.LOBBY:
            raise self.refusal(
                "table_starts_on_accept",
                game=game.id,
                who=self.who(game, self.challenged_seat(game)),
            )
        if not game.status.is_live:
            raise self.refusal("table_over", game=game.id)
        seat = self.seat_of(game, user_id)
        if seat is None:
            raise self.refusal(
                "table_not_your_game", first=self.who(game, 0), second=self.who(game, 1)
            )
        turn = self.turn_seat(self.load(game))
        if turn != seat:
            raise UserError("table_not_your_turn", who=self.who(game, turn))
        return seat

    async def move(self, interaction: discord.Interaction[Any], game: GameRow, move: str) -> None:
        """A move by button, select or command: checked, played, answered, shown."""
        self.check_turn(game, interaction.user.id)
        is_component = interaction.type is discord.InteractionType.component
        if interaction.response.is_done():
            pass
        elif is_component:
            await interaction.response.defer()
        else:
            await defer_private(interaction)
        live = self.live_game(game.id)
        async with live.lock:
            fresh = await self.storage.get_game(game.id)
            assert fresh is not None
            seat = self.check_turn(fresh, interaction.user.id)
            engine = self.load(fresh)
            # What was played is shown on the board, which the whole channel reads.
            locale = self.channel_locale(fresh)
            said = [self.apply(engine, move, seat, locale)]
            said += await self.bot_replies(fresh, engine, locale)
            options = self.options(fresh).but(last=tuple(said))
            if not self.is_over(engine):
                options = options.but(deadline=self.deadline_after(options.turn_time))
                stored = await self.store_game(
                    fresh.id,
                    state=self.state_of(engine),
                    options=options.to_stored(),
                    expect_state=fresh.state,
                )
                if not stored:
                    raise UserError("table_changed_retry")
                after = await self.storage.get_game(fresh.id)
                assert after is not None
                await self.show(after, await self.board(after, engine), interaction)
                live.wake.set()
            else:
                await self.finish(
                    fresh, engine, options, winner=self.winner_seat(engine), interaction=interaction
                )
        if not is_component:
            await answer(
                interaction,
                message("table_played", interaction.locale, move=said[0]),
                ephemeral=True,
            )

    async def bot_replies(
        self, game: GameRow, engine: EngineT, locale: LocaleLike = None
    ) -> list[str]:
        """The bot's moves while it is on turn (several in Dots and Boxes after a box)."""
        seats = self.seats(game)
        level = self.options(game).level or self.default_level
        said: list[str] = []
        while not self.is_over(engine) and seats[self.turn_seat(engine)] == BOT_SEAT_ID:
            assert game.seed is not None
            # The game's seed and the move number: a replay of the same game gives the same moves.
            rng = SeededRandom(game.seed, f"bot:{self.move_count(engine)}".encode())
            said.append(await asyncio.to_thread(self.bot_move, engine, level, rng, locale))
        return said

    # -- the end -------------------------------------------------------------------------------

    async def resign(self, interaction: discord.Interaction[Any], game: GameRow) -> None:
        """The player resigns; the other wins."""
        if game.status is not GameStatus.RUNNING:
            raise self.refusal("table_not_played", game=game.id)
        seat = self.seat_of(game, interaction.user.id)
        if seat is None:
            raise UserError("table_players_resign")
        if not interaction.response.is_done():
            await defer_private(interaction)
        async with self.live_game(game.id).lock:
            fresh = await self.storage.get_game(game.id)
            assert fresh is not None
            if fresh.status is not GameStatus.RUNNING:
                raise self.refusal("table_over", game=game.id)
            engine = self.load(fresh)
            await self.finish(fresh, engine, self.options(fresh), winner=1 - seat, end="resign")
        await answer(
            interaction,
            self.say("table_resigned", interaction.locale, game=game.id),
            ephemeral=True,
        )

    async def resign_command(self, interaction: discord.Interaction[Any]) -> None:
        """``/<game> resign``: resign the member's current game of this kind (a private answer:
        acknowledged before the database is asked)."""
        await defer_private(interaction)
        games = await self.storage.live_games_of_player(interaction.user.id, self.kind)
        if not games:
            raise self.refusal("table_not_in_game")
        game = games[0]
        if game.status is GameStatus.LOBBY:
            await self._withdraw(interaction, game)
            return
        await self.resign(interaction, game)

    async def _withdraw(self, interaction: discord.Interaction[Any], game: GameRow) -> None:
        if not interaction.response.is_done():
            await defer_private(interaction)
        async with self.live_game(game.id).lock:
            ended = await self.store_game(
                game.id, status=GameStatus.CANCELLED, expect_status=GameStatus.LOBBY
            )
        if not ended:
            raise self.refusal("table_not_waiting", game=game.id)
        withdrawn = self.say(
            "table_withdrew", self.channel_locale(game), game=game.id, user=f"<@{game.host_id}>"
        )
        await self.show(game, Shown(withdrawn, discord.ui.View(timeout=None)))
        self.live_game(game.id).wake.set()
        await answer(
            interaction,
            message("table_you_withdrew", interaction.locale, game=game.id),
            ephemeral=True,
        )

    async def on_deadline(self, game: GameRow) -> None:
        """An unanswered challenge expires; a player out of time loses."""
        if game.status is GameStatus.LOBBY:
            ended = await self.store_game(
                game.id, status=GameStatus.CANCELLED, expect_status=GameStatus.LOBBY
            )
            if ended:
                expired = self.say(
                    "table_expired",
                    self.channel_locale(game),
                    game=game.id,
                    who=self.who(game, self.challenged_seat(game)),
                )
                await self.show(game, Shown(expired, discord.ui.View(timeout=None)))
            return
        engine = self.load(game)
        late = self.turn_seat(engine)
        await self.finish(game, engine, self.options(game), winner=1 - late, end="time")

    async def finish(
        self,
        game: GameRow,
        engine: EngineT,
        options: OptionsT,
        *,
        winner: int | None,
        end: str = "",
        interaction: discord.Interaction[Any] | None = None,
    ) -> None:
        """End the game (under its lock): store it, record the win, show the board, announce.

        ``end`` says how a game ended early: ``"resign"`` or ``"time"`` (the loser's).
        """
        await self.store_end(game, engine, options, winner=winner, end=end)
        await self.record_win(game, engine, winner)
        finished = await self.storage.get_game(game.id)
        assert finished is not None
        self.live_game(game.id).wake.set()
        await self.show(finished, await self.board(finished, engine), interaction)
        await self.announce_end(finished, engine)

    async def store_end(
        self, game: GameRow, engine: EngineT, options: OptionsT, *, winner: int | None, end: str
    ) -> None:
        """Store the game finished, with its winner and how it ended, unless it changed since
        ``game`` was read (then the player is told to look again)."""
        options = options.but(winner=winner, end=end, deadline=None)
        ended = await self.store_game(
            game.id,
            status=GameStatus.FINISHED,
            state=self.state_of(engine),
            options=options.to_stored(),
            expect_state=game.state,
        )
        if not ended:
            raise UserError("table_changed")

    async def record_win(self, game: GameRow, engine: EngineT, winner: int | None) -> None:
        """Record a member's win for ``/stats`` (a draw, or the bot's win, records none)."""
        if winner is not None and self.seats(game)[winner] != BOT_SEAT_ID:
            await self.storage.record_win(
                game.id,
                prize="win",
                user_id=self.seats(game)[winner],
                board_id=None,
                step=self.move_count(engine),
            )

    async def announce_end(self, game: GameRow, engine: EngineT) -> None:
        """Post the result in the game's channel; if the channel refuses the bot for good, the
        players hear it by DM (:meth:`tell_players`)."""
        shown = await self.result(game, engine)
        channel = self.bot.get_partial_messageable(game.channel_id)
        try:
            if shown.files:
                await channel.send(shown.content, view=shown.view, files=shown.files)
            else:
                await channel.send(shown.content, view=shown.view)
        except discord.HTTPException as error:
            if post_refusal(error) is None:  # Discord's bad moment, past discord.py's retries
                log.warning("could not announce the end of %s game %s", self.kind, game.id)
                return
            # The channel refused the bot for good (a permission taken, the channel deleted, a
            # thread closed, AutoMod...): the players still hear how their game ended.
            log.warning(
                "cannot post the end of %s game %s (%s); telling its players",
                self.kind,
                game.id,
                error,
            )
            await self.tell_players(game, shown.content)

    async def tell_players(self, game: GameRow, result: str) -> None:
        """DM the game's members (not the bot) that its channel refused its ``result``."""
        notice = self.say(
            "table_cannot_post", self.channel_locale(game), game=game.id, channel=game.channel_id
        )
        for user_id in self.seats(game):
            if user_id != BOT_SEAT_ID:
                await self.bot.tell(user_id, f"{notice}\n{result}")

    def verdict(self, game: GameRow, *, plain: bool = False, locale: LocaleLike = None) -> str:
        """How a finished game ended, with mentions (or ``plain`` names, for pictures)."""

        def name(seat: int) -> str:
            return self.names(game)[seat] if plain else self.who(game, seat)

        options = self.options(game)
        winner, end = options.winner, options.end or ""
        if winner is None:
            return message("table_draw", locale)
        key = {"resign": "table_resign_win", "time": "table_time_win"}.get(end, "table_wins")
        return message(key, locale, loser=name(1 - winner), winner=name(winner))

    def rematch_button(self, game: GameRow) -> GameButton:
        """The Rematch button under a finished game, in the channel's language."""
        return GameButton.make(
            self.prefix,
            "rematch",
            game.id,
            label=message("table_rematch_button", self.channel_locale(game)),
            emoji="🔁",
            style=discord.ButtonStyle.primary,
        )

    async def rematch(self, interaction: discord.Interaction[Any], game: GameRow) -> None:
        """The same players again with the sides swapped: at once against the bot, else a new
        challenge from whoever pressed to the other."""
        seat = self.seat_of(game, interaction.user.id)
        if seat is None:
            raise UserError("table_rematch_players", game=game.id)
        if game.status.is_live:
            raise self.refusal("table_still_on", game=game.id)
        if any(user < BOT_SEAT_ID for user in self.seats(game)):
            raise self.refusal("table_rematch_forgotten", game=game.id)
        server = await self.host_settings(interaction)
        require_posting(interaction)
        if not interaction.response.is_done():
            await defer_public(interaction)
        seats, names = self.seats(game), self.names(game)
        against_bot = BOT_SEAT_ID in seats
        options = self.options(game).but(
            deadline=None,
            winner=None,
            end=None,
            last=None,
            rematch=None,
            seats=(seats[1], seats[0]),
            names=(names[1], names[0]),
            guild_locale=server.public_locale(interaction.guild_locale),
        )
        async with self.seating, self.live_game(game.id).lock:
            again = await self.storage.get_game(game.id)
            assert again is not None
            already = self.options(again).rematch
            if already is not None:
                raise UserError("table_rematch_on", game=already)
            await self.check_free(interaction.user.id)
            other = seats[1 - seat]
            if other != BOT_SEAT_ID:
                await self.check_free(other, member=f"<@{other}>")
            new_game = await self.open_game(
                interaction, host_id=interaction.user.id, options=options, against_bot=against_bot
            )
            await self.store_game(
                game.id, options=self.options(again).but(rematch=new_game.id).to_stored()
            )
        await self.publish(interaction, new_game)
