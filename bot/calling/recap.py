"""The recap of a calling game at its end: the replay (an animated GIF of the calls on the
caller's board, each win as it came, posted with the end picture or behind a Replay button)
and each player's near miss, told privately (the closest a player who won nothing came to a
prize while it was played). Both come from what is stored (the seed's calls, the boards, the
winners), so they are the same whenever they are made, after a restart too."""

from __future__ import annotations

import asyncio
import bisect
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord
from PIL import Image

from bot.attachments import attachment
from bot.calling.live import CANNOT_MESSAGE_USER, CheckT, GameT
from bot.calling.summary import SummaryCog
from bot.games import SHUTDOWN_GRACE
from bot.i18n import LocaleLike, is_spanish
from bot.render import Rendered
from bot.render.replay import ReplayWin, render_replay
from bot.replies import answer
from bot.storage import BoardRow, GameRow, PlayerRow, WinnerRow
from bot.throttle import Lane
from engine.calling import CallingGame

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class NearMiss:
    """The closest one player came to a prize: ``missing`` calls short of ``prize`` (0: it was
    complete and not claimed), first that close on call ``seq``."""

    prize: str
    missing: int
    seq: int


def closest_on_board(
    state: CallingGame[Any, Any],
    board: Any,
    prize: str,
    called: Sequence[int],
    first: int,
    last: int,
) -> NearMiss:
    """How close ``board`` came to ``prize`` while it was played, calls ``first..last`` of
    ``called`` (numbered from 1): the fewest missing at any of those calls, and the first call
    it was that few. What is missing only shrinks as calls come, so the fewest is at ``last``,
    and the first call with that many is found by bisection."""
    fewest = state.missing(board, prize, called[:last])

    class _Missing(Sequence[int]):
        def __len__(self) -> int:
            return last - first + 1

        def __getitem__(self, index: Any) -> Any:
            # Negated: a rising sequence for bisect, from the first call of the window on.
            return -state.missing(board, prize, called[: first + index])

    at = bisect.bisect_left(_Missing(), -fewest)
    return NearMiss(prize, fewest, first + at)


def prize_windows(
    state: CallingGame[Any, Any],
    opens: Mapping[str, int | None],
    winners: Sequence[WinnerRow],
    calls: int,
) -> list[tuple[str, int, int]]:
    """Each prize of ``state`` that was played, with the first and the last call it was played
    on: from the call it opened on (``opens``; None: it never did) to the call it was won on,
    or to the last call (``calls``) if nobody won it."""
    won_at: dict[str, int] = {}
    for winner in winners:
        won_at.setdefault(winner.prize, winner.step)
    windows = []
    for prize in state.prize_codes:
        opened = opens.get(prize)
        if opened is None or calls == 0:
            continue
        first = max(1, opened)
        last = min(won_at.get(prize, calls), calls)
        if first <= last:
            windows.append((prize, first, last))
    return windows


def near_miss(
    state: CallingGame[Any, Any],
    boards: Sequence[Any],
    windows: Sequence[tuple[str, int, int]],
    called: Sequence[int],
) -> NearMiss | None:
    """The closest one player's ``boards`` came to any prize while it was played
    (``windows``, from :func:`prize_windows`): the fewest missing; of equals, the prize played
    later (the bigger one), then the earlier call. None without a board or a prize played."""
    best: NearMiss | None = None
    best_key: tuple[int, int, int] | None = None
    for order, (prize, first, last) in enumerate(windows):
        for board in boards:
            found = closest_on_board(state, board, prize, called, first, last)
            key = (found.missing, -order, found.seq)
            if best_key is None or key < best_key:
                best, best_key = found, key
    return best


class RecapCog(SummaryCog[GameT, CheckT]):
    """The replay and the near misses of a calling game's end."""

    def replay_frame(
        self, game: GameRow, called: Sequence[int], locale: LocaleLike
    ) -> Image.Image | None:
        """The caller's board after ``called`` (the first calls of ``game``), a "P" image on
        the game's fixed palette, not encoded: a frame of the replay; words in ``locale``. None:
        the game has no replay (the default). Runs in a worker thread."""
        return None

    def prize_opens(
        self, game: GameRow, prize: str, winners: Sequence[WinnerRow]
    ) -> int | None:
        """The call after which ``prize`` was played (0: from the first call; None: never), by
        the game's ``winners``. By default the prizes are played one after another, each from
        the call the one before it was won on (Lotería's and Bingo's)."""
        codes = self.state_of(game).prize_codes
        at = codes.index(prize)
        if at == 0:
            return 0
        before = codes[at - 1]
        return next((w.step for w in winners if w.prize == before), None)

    def draw_replay(
        self,
        game: GameRow,
        calls: int,
        winners: Sequence[WinnerRow],
        players: Sequence[PlayerRow],
    ) -> Rendered | None:
        """The replay of ``game``'s first ``calls`` calls with its ``winners`` (named from
        ``players``), in the channel's language; None when the game has no replay frames.
        Runs in a worker thread."""
        locale = self.channel_locale(game)
        called = self.called(game)[:calls]
        if self.replay_frame(game, called[:0], locale) is None:
            return None
        names = {player.user_id: player.display_name for player in players}
        wins: list[ReplayWin] = []
        by_win: dict[tuple[int, str], list[str]] = {}
        for winner in winners:
            if not 1 <= winner.step <= calls:
                continue
            key = (winner.step, winner.prize)
            if key not in by_win:
                by_win[key] = []
            name = names.get(winner.user_id) or self.say("result_player", locale)
            by_win[key].append(name)
        for (seq, prize), who in by_win.items():
            wins.append(ReplayWin(seq, self.prize_name(prize, locale), tuple(who)))
        wins.sort(key=lambda win: win.seq)

        def frame(count: int) -> Image.Image:
            image = self.replay_frame(game, called[:count], locale)
            assert image is not None
            return image

        title = self.title_es if is_spanish(locale) else self.title
        return render_replay(frame, calls, wins, title=title, game_id=game.id, locale=locale)

    async def replay_of(self, game: GameRow) -> Rendered | None:
        """``game``'s replay, drawn from what is stored, in a worker thread (the server's line
        of heavy work); None when it has none or it could not be drawn."""
        calls = await self.announced_count(game.id)
        winners = await self.storage.winners(game.id)
        players = await self.storage.players(game.id)
        try:
            return await self.bot.heavy.run(
                game.guild_id, Lane.CALL, self.draw_replay, game, calls, winners, players
            )
        except Exception:  # a bonus: the summary must not wait on it
            log.exception("could not draw the replay of game %s", game.id)
            return None

    async def send_replay(self, interaction: discord.Interaction[Any], game: GameRow) -> None:
        """The Replay button under a summary whose replay did not fit: the replay, privately
        (the press was acknowledged privately)."""
        if game.status.is_live:
            raise self.refusal("still_on", game=game.id)
        replay = await self.replay_of(game)
        locale = interaction.locale
        if replay is None:
            await answer(interaction, self.say("replay_none", locale, game=game.id), ephemeral=True)
            return
        await answer(
            interaction,
            self.say("replay_here", locale, game=game.id),
            ephemeral=True,
            files=[attachment(replay)],
        )

    # -- near misses ---------------------------------------------------------------------------

    def near_misses(
        self,
        game: GameRow,
        calls: int,
        winners: Sequence[WinnerRow],
        players: Sequence[PlayerRow],
        boards: Sequence[BoardRow],
    ) -> dict[int, NearMiss]:
        """Each player of ``game`` who won nothing (and is not out) and the closest they came
        to a prize while it was played, over its first ``calls`` calls. Runs in a worker
        thread."""
        state = self.state_of(game)
        called = self.called(game)[:calls]
        opens = {prize: self.prize_opens(game, prize, winners) for prize in state.prize_codes}
        windows = prize_windows(state, opens, winners, calls)
        won = {winner.user_id for winner in winners}
        held: dict[int, list[Any]] = {}
        for board in boards:
            if not board.out:
                held.setdefault(board.user_id, []).append(self.engine.board_from_state(board.state))
        found: dict[int, NearMiss] = {}
        for player in players:
            if player.user_id in won or player.out:
                continue
            closest = near_miss(state, held.get(player.user_id, []), windows, called)
            if closest is not None:
                found[player.user_id] = closest
        return found

    def near_miss_text(self, game: GameRow, miss: NearMiss, locale: LocaleLike) -> str:
        """The DM of a near miss, in the player's language."""
        key = "near_miss_complete" if miss.missing == 0 else "near_miss"
        return self.say(
            key,
            locale,
            game=game.id,
            prize=self.prize_name(miss.prize, locale),
            count=miss.missing,
            seq=miss.seq,
        )

    def near_misses_wanted(self, game: GameRow) -> bool:
        """Whether the server lets ``game``'s players be told their near misses (``/gamenight
        settings``: on unless turned off for the game)."""
        return self.bot.settings_of(game.guild_id).defaults(self.kind).near_misses is not False

    def tell_near_misses_later(self, game: GameRow) -> None:
        """Once ``game`` has ended, its near misses go out by DM in the background (the end
        does not wait for them)."""
        if not self.near_misses_wanted(game):
            return
        task = asyncio.create_task(self.tell_near_misses(game), name=f"near-misses-{game.id}")
        self.recap_tasks.add(task)
        task.add_done_callback(self.recap_tasks.discard)

    @property
    def recap_tasks(self) -> set[asyncio.Task[None]]:
        """The near misses being told (kept, so that no task is collected mid-way)."""
        tasks: set[asyncio.Task[None]] | None = getattr(self, "_recap_tasks", None)
        if tasks is None:
            tasks = set()
            self._recap_tasks = tasks
        return tasks

    async def stop_recaps(self) -> None:
        """At shutdown, before the database closes: the near misses being told get
        ``SHUTDOWN_GRACE`` to go out; those left are cancelled (not sent after a restart)."""
        if not self.recap_tasks:
            return
        _, pending = await asyncio.wait(list(self.recap_tasks), timeout=SHUTDOWN_GRACE)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)

    async def tell_near_misses(self, game: GameRow) -> None:
        """DM each player of ``game`` who won nothing the closest they came, in their own
        language: one short message each, through the boards' DM slots, never to a member
        whose DMs were found closed (a DM refused as closed is remembered)."""
        try:
            calls = await self.announced_count(game.id)
            winners = await self.storage.winners(game.id)
            players = await self.storage.players(game.id)
            boards = await self.storage.boards(game.id)
            misses = await self.bot.heavy.run(
                game.guild_id, Lane.OTHER, self.near_misses, game, calls, winners, players, boards
            )
            closed = await self.storage.closed_dms_in_game(game.id)
            locales = {player.user_id: player.locale for player in players}
            for user_id, miss in misses.items():
                if user_id in closed:
                    continue
                if self.is_closing():
                    return
                text = self.near_miss_text(game, miss, locales.get(user_id))
                await self._dm_near_miss(game, user_id, text)
        except Exception:
            log.exception("could not tell the near misses of game %s", game.id)

    async def _dm_near_miss(self, game: GameRow, user_id: int, text: str) -> None:
        async with self.dm_slots:
            try:
                await self.bot.send_dm(discord.Object(user_id), text)
            except discord.Forbidden as refused:
                if refused.code == CANNOT_MESSAGE_USER:
                    await self.storage.set_dms_closed(user_id, closed=True)
            except (discord.HTTPException, OSError) as error:
                log.info("could not DM a near miss of game %s to %s: %s", game.id, user_id, error)
