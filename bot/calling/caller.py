"""A calling game's caller and its end: the host's controls (start, pause, resume, speed, stop),
the timer that stores each call before it announces it, and the one rule for every end."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections.abc import Sequence
from typing import Any

import discord

import bot.calling.live as tunables  # (read where tests may change them)
from bot.attachments import attachment
from bot.calling.auto import find_winners
from bot.calling.base import CallingBase
from bot.calling.live import (
    AUTO_WIN_NAMES,
    AUTO_WIN_PICTURES,
    CALL_REPOSTS,
    CLAIMS_BEFORE_THE_END,
    DEFAULT_INTERVAL,
    FIRST_CALL_DELAY,
    HOST_NOTICES,
    MAX_INTERVAL,
    MIN_INTERVAL,
    AutoWatch,
    CheckT,
    GameT,
    Verdict,
)
from bot.calling.options import CallingOptions
from bot.calling.spoken import SpokenCog
from bot.components import GameButton
from bot.games import UNKNOWN_MESSAGE, PostRefusal, post_refusal
from bot.i18n import message
from bot.permissions import require_posting
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
    GameRow,
    GameStatus,
    WinnerRow,
)
from bot.throttle import Lane
from bot.voice.phrase import Phrase

log = logging.getLogger(__name__)


class CallerCog(SpokenCog[GameT, CheckT]):
    """The caller of a calling game, its host controls and its end."""

    def start_running(self, game_id: int) -> None:
        """The game has started: its lobby shows it at once and its caller starts."""
        self.touch_lobby(game_id, urgent=True)
        self.ensure_timer(game_id)

    def ensure_timer(self, game_id: int) -> None:
        """Starts game ``game_id``'s caller unless it is running."""
        live = self.live_game(game_id)
        if live.task is None or live.task.done():
            live.task = asyncio.create_task(self._caller(game_id), name=f"{self.kind}-{game_id}")

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
        # Told privately on this press if the calls cannot be spoken (bot.calling.spoken).
        self.live_game(game.id).voice_starter = interaction
        self.touch_lobby(game.id, urgent=True)
        self.ensure_timer(game.id)

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

    async def pause_calls(self, interaction: discord.Interaction[Any]) -> None:
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
        self.hush(game.id)
        await answer(
            interaction,
            self.say(
                "paused", self.channel_locale(game), game=game.id, user=interaction.user.mention
            ),
            ephemeral=False,
        )

    async def resume_calls(self, interaction: discord.Interaction[Any]) -> None:
        """Resumes the calls of the game in this channel (host or Manage Server)."""
        require_posting(interaction)
        known = self.remembered_in_channel(interaction.channel_id)
        likely = known is not None and known.status is GameStatus.PAUSED
        game = await self.acknowledge_control(interaction, likely=likely)
        async with self.live_game(game.id).lock:
            fresh = await self.storage.get_game(game.id)
            options = CallingOptions.from_stored(fresh.options if fresh else {})
            resumed = await self.store_game(
                game.id,
                status=GameStatus.RUNNING,
                options=dataclasses.replace(options, stalled=None).to_stored(),
                expect_status=GameStatus.PAUSED,
            )
        if not resumed:
            raise self.refusal("not_paused", game=game.id)
        self.ensure_timer(game.id)
        self.live_game(game.id).wake.set()
        self.touch_lobby(game.id)
        await answer(
            interaction,
            self.say("resumed", self.channel_locale(game), game=game.id),
            ephemeral=False,
        )

    async def set_speed(self, interaction: discord.Interaction[Any], seconds: int) -> None:
        """Sets the seconds between calls of the game in this channel (host or Manage Server)."""
        if not MIN_INTERVAL <= seconds <= MAX_INTERVAL:
            raise UserError("bad_interval", low=MIN_INTERVAL, high=MAX_INTERVAL)
        game = await self.acknowledge_control(interaction, likely=True)
        async with self.live_game(game.id).lock:
            fresh = await self.storage.get_game(game.id)
            options = self.options_of(fresh or game)
            changed = dataclasses.replace(options, interval=seconds)
            await self.store_game(game.id, options=changed.to_stored())
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
                    "stopped",
                    self.channel_locale(game),
                    game=game.id,
                    user=interaction.user.mention,
                )
            )
            await self.finish(game.id, reason="reason_stopped")
        finally:
            live.stopping = False
        self.remember(await self.storage.get_game(game.id))  # over: verifiable, publicly

    async def _caller(self, game_id: int) -> None:
        """Draw one call per interval until the game ends; resumes cleanly after a restart.

        A failed announcement (Discord down, a 5xx) is retried before the next draw: the draw is
        already stored, and its nonce keeps a retry from posting twice. A refusal that retrying
        cannot mend (403: the bot may not post; 404: the channel is gone) stalls the game
        instead, and the host is told (see :meth:`GameCog.keep_running`).
        """
        live = self.live_game(game_id)

        async def next_call() -> bool:
            if live.drawn is None or (live.announced or 0) < live.drawn:
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
                    options=dataclasses.replace(
                        self.options_of(game), stalled=refusal.value
                    ).to_stored(),
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
        self.ensure_voice(game)  # (joined as the game starts, or after a restart)
        drawn_at = await self.storage.last_drawn_at(game_id)
        interval = float(self.options_of(game).interval or DEFAULT_INTERVAL)
        scale = self.bot.time_scale
        if drawn_at is not None:
            next_at = drawn_at + interval * scale
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
        grace = 0.0 if won_at is None else won_at + tunables.PRIZE_SHARING_GRACE - now
        if self.auto_claims(game):
            grace = 0.0  # the bot found every winner of the call at once: none is to come
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
            state = after.to_state()
            await self.storage.record_draw(game_id, seq, value, state)
            self.live_game(game_id).drawn = seq
        await self.announce_call(game_id, seq, value, game=dataclasses.replace(game, state=state))
        return True

    async def announce_unannounced(self, game_id: int, *, locked: bool = False) -> None:
        """Announce draws stored before a crash but never posted (the nonce prevents doubles);
        ``locked``: the caller holds the game's lock."""
        for draw in await self.storage.unannounced_draws(game_id):
            await self.announce_call(game_id, draw.seq, draw.value, locked=locked)

    async def announce_call(
        self,
        game_id: int,
        seq: int,
        value: int,
        *,
        locked: bool = False,
        game: GameRow | None = None,
    ) -> None:
        """Posts call ``seq`` (``value``) with its picture and Claim button (a riddle first, then
        the card, in riddle mode), then stores the message's id: the channel has seen it.
        ``locked``: the caller holds the game's lock (the end posting a call left behind);
        ``game``: the game as stored with this call (read again when not given)."""
        if game is None:
            game = await self.storage.get_game(game_id)
        assert game is not None
        seen = await self.announced_count(game_id)  # know what was seen before this one is
        content, images = await self.call_pictures(game, value, seq)
        # Spoken before it is posted, the first time it is (not by an end posting a call left
        # behind: that holds the game's lock).
        live = self.live_game(game_id)
        spoken: tuple[Sequence[Phrase], Sequence[Phrase]] = ([], [])
        if not locked and seen < seq and live.voice_said < seq:
            live.voice_said = seq  # (once: two posts of one call, after a wake, say it once)
            spoken = self.call_phrases(game, value, seq)
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
                message = await self._post_call(
                    game, value, seq, content, images, nonce, locked, spoken
                )
                break
            except discord.NotFound as error:
                if error.code != UNKNOWN_MESSAGE or repost == CALL_REPOSTS:
                    raise
                log.info("call %s of game %s was deleted before it was stored", seq, game_id)
                spoken = ([], [])
        if self.auto_claims(game):
            # The bot finds the winners of this call (stored, then announced) before the call
            # counts as announced: after a crash both are done again, and found and posted
            # once (what was stored is not found again; the nonces fold posts into one).
            if await self.find_auto_wins(game_id, seq, locked=locked):
                game = await self.storage.get_game(game_id) or game  # (with its prizes won)
            await self.announce_auto_wins(game, seq)
        live = self.live_game(game_id)
        first_post = (live.announced or 0) < seq  # (not the same call posted by a finish too)
        live.announced = max(live.announced or 0, seq)
        await self.storage.set_draw_message(game_id, seq, message.id)
        if first_post:
            self.bot.metrics.calls.labels(self.kind).inc()
            self.draw_ahead(game, seq)

    async def find_auto_wins(self, game_id: int, seq: int, *, locked: bool = False) -> bool:
        """Find and store every win on call ``seq`` of a game whose winners the bot finds
        (``bot.calling.auto``), under the game's lock (``locked``: held already), as claims
        naming the prize would be stored; whether it found any. Nothing once the game is over,
        as a claim then would be refused."""
        if locked:
            return await self._find_auto_wins_locked(game_id, seq)
        async with self.live_game(game_id).lock:
            return await self._find_auto_wins_locked(game_id, seq)

    async def _find_auto_wins_locked(self, game_id: int, seq: int) -> bool:
        game = await self.storage.get_game(game_id)
        if game is None or game.status not in {GameStatus.RUNNING, GameStatus.PAUSED}:
            return False
        live = self.live_game(game_id)
        if live.players is None or live.boards is None:
            await self.load_memory(game)
        players, held = live.players or {}, live.boards or {}
        boards = {
            user_id: list(boards)
            for user_id, boards in held.items()
            if user_id in players and not players[user_id].out
        }
        if live.auto_watch is None:
            live.auto_watch = AutoWatch()
        wins = await asyncio.to_thread(
            find_winners,
            self.state_of(game),
            boards,
            await self.storage.winners(game_id),
            seq,
            self.eligible_boards,
            live.auto_watch,
        )
        for win in wins:
            verdict = win.verdict
            await self.storage.record_win(
                game_id,
                prize=verdict.prize,
                user_id=win.user_id,
                board_id=verdict.board.id,
                step=seq,
                claim_reason=verdict.reason,
                state=win.state,
                request=verdict.prize,  # as a claim naming the prize on that call
            )
            winner = WinnerRow(verdict.prize, win.user_id, verdict.board.id, seq)
            self.won_in_memory(game, winner, win.state)
            self.bot.metrics.claims.labels(self.kind, "won").inc()
        return bool(wins)

    async def announce_auto_wins(self, game: GameRow, seq: int) -> None:
        """Post the wins the bot found (and stored) on call ``seq``: one message per prize, as a
        claimed win is announced, naming everyone who shares it, with the first winning boards'
        pictures. Each message has its nonce, so a post repeated after a crash is one post."""
        won: dict[str, list[WinnerRow]] = {}
        held = self.live_game(game.id).winners  # (kept current by the wins this bot stores)
        for winner in held if held is not None else await self.storage.winners(game.id):
            if winner.step == seq:
                won.setdefault(winner.prize, []).append(winner)
        if not won:
            return
        locale = self.channel_locale(game)
        called = self.called(game)[:seq]
        channel = self.bot.get_partial_messageable(game.channel_id)
        for number, (prize, winners) in enumerate(won.items()):
            self.speak_win(game, prize, [w.user_id for w in winners])
            text = self.auto_win_text(prize, seq, [w.user_id for w in winners], locale)
            pictured = []
            for winner in winners[:AUTO_WIN_PICTURES]:
                boards = await self.storage.boards(game.id, winner.user_id)
                pictured += [b for b in boards if b.id == winner.board_id]
            images = await self.bot.heavy.run(
                game.guild_id,
                Lane.CALL,
                self.auto_win_pictures,
                game,
                prize,
                pictured,
                called,
                locale,
                executor=self.bot.caller_executor,
            )
            files = [attachment(image) for image in images]
            for repost in range(CALL_REPOSTS + 1):
                nonce = f"g{game.id}c{seq}w{number}" + (f"r{repost}" if repost else "")
                try:
                    await channel.send(text, files=files, nonce=nonce)
                    break
                except discord.NotFound as error:  # (a deleted post's nonce: see announce_call)
                    if error.code != UNKNOWN_MESSAGE or repost == CALL_REPOSTS:
                        raise
                    files = [attachment(image) for image in images]

    def auto_win_text(self, prize: str, seq: int, users: Sequence[int], locale: str) -> str:
        """The announcement of ``prize`` found won on call ``seq`` by ``users``: everyone named
        while the message has room, then how many more."""
        names = ""
        for shown, user in enumerate(users):
            longer = f"{names}, <@{user}>" if names else f"<@{user}>"
            if len(longer) > AUTO_WIN_NAMES:
                names = self.say("winners_and_more", locale, users=names, count=len(users) - shown)
                break
            names = longer
        return self.say(
            "auto_win",
            locale,
            prize=self.prize_name(prize, locale),
            users=names,
            seq=seq,
            count=len(users),
        )

    def auto_win_pictures(
        self,
        game: GameRow,
        prize: str,
        boards: Sequence[BoardRow],
        called: Sequence[int],
        locale: str,
    ) -> list[Rendered]:
        """The winning ``boards`` of ``prize``, drawn as a claimed win's board is (the engine
        judges each again for its winning cells). Runs in a worker thread."""
        state = self.state_of(game)
        pictures = []
        for board in boards:
            check = state.judge(state.board_from_state(board.state), prize, called)
            if check.valid:
                pictures.append(self.render_win(game, Verdict(prize, board, check), called, locale))
        return pictures

    def drawing_of_call(self, game: GameRow, value: int, seq: int) -> asyncio.Task[Any]:
        """Call ``seq``'s text and pictures, drawn on the caller's own thread, first in the
        server's line (a burst of board views must not queue a call behind them)."""
        return asyncio.ensure_future(
            self.bot.heavy.run(
                game.guild_id,
                Lane.CALL,
                self.render_call,
                game,
                value,
                seq,
                executor=self.bot.caller_executor,
            )
        )

    def draw_ahead(self, game: GameRow, seq: int) -> None:
        """Once call ``seq`` of ``game`` (as stored with it) is posted, draw the next one's
        pictures in the interval's slack: the seed fixes what it will be, and the call then goes
        out when it is due instead of a drawing later (50 calls a second queue on the caller's
        threads). Not when the game is ending."""
        if self.is_closing() or self.end_reason(game) is not None:
            return
        after, value = self.state_of(game).next_call()
        upcoming = dataclasses.replace(game, state=after.to_state())
        live = self.live_game(game.id)
        if live.upcoming is not None:
            live.upcoming[1].cancel()
        drawing = self.drawing_of_call(upcoming, value, seq + 1)
        # (Its failure is met again when the call is drawn anew; no need to log it twice.)
        drawing.add_done_callback(lambda done: done.cancelled() or done.exception())
        live.upcoming = ((seq + 1, value, upcoming.state, sorted(game.options.items())), drawing)

    async def call_pictures(
        self, game: GameRow, value: int, seq: int
    ) -> tuple[str, Sequence[Rendered]]:
        """Call ``seq``'s text and pictures: those drawn ahead when they were drawn for this
        call of this game as it stands (its options too), else drawn now. The text is worded
        now when the game words it apart (:meth:`call_text`: Lotería's names the prize played
        for, which a win since may have changed)."""
        live = self.live_game(game.id)
        ahead, live.upcoming = live.upcoming, None
        key = (seq, value, game.state, sorted(game.options.items()))
        if ahead is not None and ahead[0] == key:
            with contextlib.suppress(Exception):  # (a failed drawing is drawn again below)
                content, images = await ahead[1]
                if type(self).call_text is not CallingBase.call_text:
                    content = self.call_text(game, value, seq)
                return content, images
        elif ahead is not None:
            ahead[1].cancel()
        result: tuple[str, Sequence[Rendered]] = await self.drawing_of_call(game, value, seq)
        return result

    async def _post_call(
        self,
        game: GameRow,
        value: int,
        seq: int,
        content: str,
        images: Sequence[Rendered],
        nonce: str,
        locked: bool,
        spoken: tuple[Sequence[Phrase], Sequence[Phrase]] = ((), ()),
    ) -> discord.Message:
        """One post of call ``seq`` with ``nonce`` (in riddle mode: the riddle, then the call
        revealed in the same message), each part once its ``spoken`` phrases are said (what
        comes before the post, and before the riddle's answer); the message the channel
        sees."""
        view = self.claim_view(game)
        channel = self.bot.get_partial_messageable(game.channel_id)
        files = [attachment(image) for image in images]
        riddle = self.riddle(game, value, seq)
        if riddle is None:
            await self.speak(game, [*spoken[0], *spoken[1]])
            if view is None:  # (the bot finds the winners: no Claim button)
                return await channel.send(content, files=files, nonce=nonce)
            return await channel.send(content, files=files, view=view, nonce=nonce)
        # The riddle first (the nonce keeps a retry after a crash to this one post), then the
        # call revealed in the same message: only then has the channel seen it.
        await self.speak(game, spoken[0])
        posted = await channel.send(riddle, nonce=nonce)
        await asyncio.sleep(self.riddle_pause(game))
        await self.speak(game, spoken[1])
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
        interval = float(self.options_of(game).interval or MIN_INTERVAL)
        return min(tunables.RIDDLE_PAUSE, interval / 2) * self.bot.time_scale

    def claim_view(self, game: GameRow) -> discord.ui.View | None:
        """The Claim button's view, the same for every call of ``game`` (a channel's language is
        its game's, set when the game opens); none when the bot finds the winners itself."""
        if self.auto_claims(game):
            return None
        live = self.live_game(game.id)
        if live.claim_view is None:
            live.claim_view = discord.ui.View(timeout=None)
            live.claim_view.add_item(self.claim_button(game))
        return live.claim_view

    def claim_button(self, game: GameRow) -> discord.ui.Item[Any]:
        """The Claim button of the game's call messages, in the channel's language."""
        label = message("button_claim", self.channel_locale(game))
        return GameButton.make(self.kind, "claim", game.id, label, discord.ButtonStyle.success)

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
        if live.upcoming is not None:
            live.upcoming[1].cancel()  # (a call that will not come)
            live.upcoming = None
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
            await self.post_summary(game, texts, winners, await self.replay_of(game))
            self.touch_lobby(game.id, urgent=True)
        self.leave_voice_later(game, farewell=not channel_gone)
        self.tell_near_misses_later(game)
        await self.game_ended(game)

    async def game_ended(self, game: GameRow) -> None:
        """What follows the end of ``game``, once its summary is posted: nothing here (a planned
        night completes its Discord event: ``GameNights``)."""
