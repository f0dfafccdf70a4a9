"""A calling game's claims: answered from memory when the bot is sure, judged once under the
game's lock against the calls the player had seen, stored, then worded."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

import discord

from bot.attachments import attachment
from bot.calling.live import (
    FALSE,
    FALSE_CLAIM_LIMIT,
    PENDING,
    WON,
    CheckT,
    ClaimAnswer,
    ClaimRequest,
    GameT,
    LiveGame,
    Verdict,
)
from bot.calling.nights import GameNights
from bot.i18n import LocaleLike
from bot.reasons import reason_text
from bot.render import Rendered
from bot.replies import (
    UserError,
    answer,
    defer_private,
    defer_public,
)
from bot.storage import (
    BoardRow,
    GameRow,
    GameStatus,
    WinnerRow,
)

log = logging.getLogger(__name__)


class ClaimsCog(GameNights[GameT, CheckT]):
    """The claims of a calling game."""

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
        known = self.known_here(interaction) if game_id is None else self.remembered(game_id)
        if known is not None and game_id is not None:
            self.check_pressed_where_played(interaction, known)
        if known is not None and self.auto_claims(known):
            raise self.refusal("claims_auto")  # the bot finds the winners after each call
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
        reply: ClaimAnswer | None = None
        try:
            async with live.lock:
                reply = await self._judge_locked(
                    interaction.user,
                    game.id,
                    request,
                    only_wins=previous == WON and request.prize is None,
                )
        finally:
            self._claim_done(live, request, previous, reply)
        await answer(interaction, reply.text, ephemeral=False, files=reply.files)

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
        if self.auto_claims(game):
            raise self.refusal("claims_auto")
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
        reply: ClaimAnswer | None,
    ) -> None:
        """A claim was judged (``reply``) or refused (None): what its key holds now, and
        the end that waits for the claims in flight may come."""
        judged = live.judged
        if judged is not None:
            if reply is not None:
                judged[request.key] = WON if reply.won else FALSE
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
        return [w.prize for w in await self.storage.winners(game.id) if w.step == seen]

    async def _judge_locked(
        self, user: discord.abc.User, game_id: int, request: ClaimRequest, *, only_wins: bool
    ) -> ClaimAnswer:
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
        require_last = bool(self.options_of(game).require_last)
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
        won_this_call = [w.prize for w in winners if w.step == seq]
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
    ) -> ClaimAnswer:
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
                step=seq,
                valid=False,
                reason=verdict.reason,
                request=ask,
            )
            self.bot.metrics.claims.labels(self.kind, "false").inc()
            return ClaimAnswer(await self.false_claim(game, user, verdict), won=False)
        sharing = any(w.prize == verdict.prize and w.step == seq for w in winners)
        board_id = verdict.board.id
        state = None if sharing else self.state_of(game).award_prize(verdict.prize).to_state()
        await self.storage.record_win(
            game.id,
            prize=verdict.prize,
            user_id=user.id,
            board_id=board_id,
            step=seq,
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
        self.speak_win(game, verdict.prize, [user.id])
        self.bot.metrics.claims.labels(self.kind, "won").inc()
        return ClaimAnswer(text, won=True, files=files)

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
