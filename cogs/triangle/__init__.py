"""``/triangle``: the Tricky Triangle, a solo peg puzzle on 15 buttons in rows of 1 to 5.

Pick the hole to leave empty, then press a peg and the hole to jump it to; illegal jumps are
explained, the end gets the traditional remark. A Hint button asks the solver for the best
next jump, and ``/triangle solve`` answers with an animated GIF of a whole solution. The rules
and the solver live in ``engine.triangle``; the picked peg is kept in the game's options, so a
restart loses nothing.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

import cogs.triangle.words  # noqa: F401  (its words, registered on import)
from bot.attachments import attachment
from bot.components import GameButton
from bot.i18n import LocaleLike, is_spanish, message
from bot.permissions import require_posting
from bot.render.triangle import render_solution, render_triangle
from bot.replies import UserError, answer, check_range, defer_private, defer_public
from bot.storage import GameRow, GameStatus
from bot.table import SandboxPlan, SandboxPress, Shown, TableGameCog
from bot.table.options import TableOptions
from bot.throttle import HINT_RATE, SOLVE_RATE, Lane, member_cooldown
from cogs.triangle import samples
from engine.triangle import (
    COORDINATES,
    HOLES,
    Jump,
    TriangleGame,
    best_line,
    fewest_pegs,
    solvable_starts,
    start_board,
)

if TYPE_CHECKING:
    from bot.app import GameNightBot

IDLE_SECONDS = 1800  # an untouched puzzle is put away after this long
PICK_STATE = ""  # the stored state while the player picks the starting hole
REASON_KEYS = frozenset({"tri_given_up", "tri_left_idle"})  # why a puzzle was put away


def jump_text(jump: Jump, locale: LocaleLike = None) -> str:
    return message("tri_jump_text", locale, origin=jump.origin, over=jump.over, target=jump.target)


def remark(pegs_left: int, locale: LocaleLike = None) -> str:
    """The traditional remark on the pegs left (``engine.triangle.remark``'s, translated)."""
    key = f"tri_remark_{pegs_left}" if pegs_left <= 3 else "tri_remark_more"
    return message(key, locale)


def solution_text(empty_hole: int, jumps: Sequence[Jump], locale: LocaleLike = None) -> str:
    board = start_board(empty_hole)
    for jump in jumps:
        board = jump.apply(board)
    steps = " · ".join(
        f"{number}. {jump.origin}→{jump.target}" for number, jump in enumerate(jumps, start=1)
    )
    pegs = [hole for hole in range(HOLES) if (board >> hole) & 1]
    ending = (
        message("tri_one_left_in", locale, hole=pegs[0])
        if len(pegs) == 1
        else message("tri_left_at_best", locale, pegs=message("tri_pegs", locale, count=len(pegs)))
    )
    return message(
        "tri_solution",
        locale,
        hole=empty_hole,
        jumps=message("tri_jumps", locale, count=len(jumps)),
        ending=ending,
        steps=steps,
    )


@dataclass(frozen=True, kw_only=True)
class TriangleOptions(TableOptions):
    """A puzzle's options: the hints asked, the peg picked, and how it was put away."""

    hints: int = 0  # stored from the start, even at 0
    selected: int | None = None  # the hole of the peg picked, if one is
    end: str | None = None  # the English reason it was put away ("given up", "left idle")

    def written(self, key: str, value: Any) -> bool:
        """The hint count is stored from the start."""
        return key == "hints" or super().written(key, value)


class TriangleCog(TableGameCog, name="Tricky Triangle"):
    kind = "triangle"
    prefix = "tri"
    title = "Tricky Triangle"
    title_es = "Triángulo"
    idle_seconds: float = IDLE_SECONDS
    # A sandbox night: the host picks the starting hole on the board, asks for a hint, and
    # follows the solver's jumps to a single peg.
    sandbox_plan = SandboxPlan()

    group = app_commands.Group(
        name="triangle", description=_("The Tricky Triangle peg puzzle"), guild_only=True
    )

    # -- reading a game ------------------------------------------------------------------------

    @staticmethod
    def load(game: GameRow) -> TriangleGame | None:
        """The puzzle, or ``None`` while the starting hole is still to be picked."""
        return None if game.state == PICK_STATE else TriangleGame.from_state(game.state)

    @staticmethod
    def options(game: GameRow) -> TriangleOptions:
        """The puzzle's options, typed."""
        return TriangleOptions.from_stored(game.options)

    def selected(self, game: GameRow) -> int | None:
        """The hole of the peg picked, if one is."""
        return self.options(game).selected

    # -- the sandbox ---------------------------------------------------------------------------

    def sandbox_press(self, game: GameRow, rng: random.Random) -> SandboxPress | None:
        """The host picks a solvable starting hole, asks for one hint, then presses the peg and
        the hole of each of the solver's jumps (the hint's advice, each time)."""
        if not game.status.is_live:
            return None
        host = game.host_id
        puzzle = self.load(game)
        if puzzle is None:
            start = rng.choice(solvable_starts())
            return SandboxPress(host, self.button_id("hole", game.id, start), said=str(start))
        if self.options(game).hints == 0:
            said = message("tri_hint_button", self.channel_locale(game))
            return SandboxPress(host, self.button_id("hint", game.id), said=said)
        best = puzzle.hint()
        if best is None:
            return None
        hole = best.target if self.selected(game) == best.origin else best.origin
        return SandboxPress(host, self.button_id("hole", game.id, hole), said=str(hole))

    # -- the message ---------------------------------------------------------------------------

    def holes_view(self, game: GameRow, puzzle: TriangleGame | None) -> discord.ui.View:
        """The 15 holes in rows of 1 to 5; Hint and Give up beside the top hole."""
        over = not game.status.is_live
        picked = self.selected(game)
        locale = self.channel_locale(game)
        view = discord.ui.View(timeout=None)
        for hole, (row, _column) in enumerate(COORDINATES):
            peg = puzzle is None or puzzle.has_peg(hole)
            style = discord.ButtonStyle.primary if peg else discord.ButtonStyle.secondary
            if hole == picked:
                style = discord.ButtonStyle.success
            view.add_item(
                GameButton.make(
                    self.prefix,
                    "hole",
                    game.id,
                    arg=hole,
                    label=str(hole),
                    style=style,
                    disabled=over,
                    row=row,
                )
            )
            if hole == 0 and not over:
                view.add_item(
                    GameButton.make(
                        self.prefix,
                        "hint",
                        game.id,
                        label=message("tri_hint_button", locale),
                        emoji="💡",
                        row=0,
                    )
                )
                view.add_item(
                    GameButton.make(
                        self.prefix,
                        "quit",
                        game.id,
                        label=message("tri_give_up_button", locale),
                        style=discord.ButtonStyle.danger,
                        row=0,
                    )
                )
        return view

    def status_lines(self, game: GameRow, puzzle: TriangleGame | None) -> list[str]:
        locale = self.channel_locale(game)
        if puzzle is None:
            return [message("tri_pick_start", locale)]
        left = puzzle.pegs_left
        lines = [
            message(
                "tri_left",
                locale,
                pegs=message("tri_pegs", locale, count=left),
                count=left,
            )
        ]
        history = puzzle.history
        if history:
            lines[0] += message("tri_last_jump", locale, jump=jump_text(history[-1], locale))
        picked = self.selected(game)
        if picked is not None:
            targets = [str(jump.target) for jump in puzzle.jumps_from(picked)]
            if targets:
                either = message("tri_or", locale).join(targets)
                lines.append(message("tri_picked", locale, peg=picked, targets=either))
            else:
                lines.append(message("tri_picked_stuck", locale, peg=picked))
        else:
            lines.append(message("tri_how", locale))
        return lines

    async def message(self, game: GameRow, puzzle: TriangleGame | None) -> Shown:
        locale = self.channel_locale(game)
        title = self.title_es if is_spanish(locale) else self.title
        header = f"## {title} #{game.id} · <@{game.host_id}>"
        if game.status.is_live:
            lines = [header, *self.status_lines(game, puzzle)]
            return Shown("\n".join(lines), self.holes_view(game, puzzle))
        lines = [header, self.ending(game, puzzle)]
        files = None
        if puzzle is not None:
            caption = self.ending(game, puzzle, plain=True)
            picture = await asyncio.to_thread(
                render_triangle,
                puzzle.board,
                game_id=str(game.id),
                caption=caption,
                last_jump=puzzle.history[-1] if puzzle.history else None,
                locale=locale,
            )
            files = [attachment(picture)]
        return Shown("\n".join(lines), self.holes_view(game, puzzle), files)

    def ending(self, game: GameRow, puzzle: TriangleGame | None, *, plain: bool = False) -> str:
        """How the game ended: the remark for the pegs left, or why it was put away."""
        locale = self.channel_locale(game)
        if puzzle is None:
            return message("tri_put_away_early", locale)
        pegs = message("tri_pegs", locale, count=puzzle.pegs_left)
        hints = self.options(game).hints
        hint_note = message(
            "tri_with_hints", locale, hints=message("tri_hints", locale, count=hints)
        )
        if game.status is GameStatus.FINISHED:
            said = remark(puzzle.pegs_left, locale)
            if plain:
                return message("tri_final_caption", locale, pegs=pegs, remark=said)
            hint_note = hint_note if hints else ""
            return message("tri_final", locale, pegs=pegs, hints=hint_note, remark=said)
        # The stored reason is the English text; its key is that text in snake case.
        reason = self.options(game).end or "given up"
        reason_key = "tri_" + reason.replace(" ", "_")
        if reason_key in REASON_KEYS:
            reason = message(reason_key, locale)
        if plain:
            return message("tri_ended_caption", locale, pegs=pegs, reason=reason)
        return message("tri_ended", locale, pegs=pegs, reason=reason.capitalize())

    # -- commands ------------------------------------------------------------------------------

    @group.command(name="play", description=_("Play the Tricky Triangle peg puzzle"))
    @app_commands.describe(start=_("The hole to leave empty (0-14); leave out to pick it"))
    async def play(
        self,
        interaction: discord.Interaction[Any],
        start: app_commands.Range[int, 0, HOLES - 1] | None = None,
    ) -> None:
        if interaction.guild_id is None or interaction.channel_id is None:
            raise UserError("table_server_only")
        if start is not None:
            check_range("start", start, 0, HOLES - 1)
        settings = await self.host_settings(interaction)
        require_posting(interaction)
        user = interaction.user
        state = PICK_STATE if start is None else TriangleGame.new(start).to_state()
        # Already playing: refused at once, from memory; then acknowledged before the database
        # (privately if another puzzle of theirs came first and is not done).
        self.check_free_in_memory(user.id)
        async with self.seated_in_order(interaction) as place:
            await (defer_private if place.behind else defer_public)(interaction)
            async with place, self.seating:
                await self.check_free(user.id)
                game = await self.storage.create_game(
                    kind=self.kind,
                    guild_id=interaction.guild_id,
                    channel_id=interaction.channel_id,
                    host_id=user.id,
                    seed=None,
                    options=TriangleOptions(
                        deadline=self.deadline_after(self.idle_seconds),
                        guild_locale=settings.public_locale(interaction.guild_locale),
                    ).to_stored(),
                    state=state,
                    status=GameStatus.LOBBY if start is None else GameStatus.RUNNING,
                )
                self.remember(game)
                await self.storage.add_player(
                    game.id,
                    user.id,
                    display_name=user.display_name,
                    locale=str(interaction.locale),
                    boards=lambda _seat, _first: [],
                )
        message = await self.post(interaction, await self.message(game, self.load(game)))
        await self.store_game(game.id, lobby_message_id=message.id)
        self.arm_timer(game.id)

    @group.command(name="solve", description=_("Show a solution as an animation"))
    @app_commands.describe(start=_("The hole left empty at the start (0-14)"))
    @member_cooldown(SOLVE_RATE)
    async def solve(
        self, interaction: discord.Interaction[Any], start: app_commands.Range[int, 0, HOLES - 1]
    ) -> None:
        check_range("start", start, 0, HOLES - 1)
        # The solver and the animation are heavy work: in the server's line (bot.throttle).
        async with self.bot.heavy.turn(
            interaction.guild_id,
            Lane.OTHER,
            acknowledge=lambda: defer_public(interaction),
        ):
            jumps = await asyncio.to_thread(best_line, start_board(start))
            settings = await self.server_settings(interaction.guild_id)
            locale = settings.public_locale(interaction.guild_locale)  # a public answer
            animation = await asyncio.to_thread(render_solution, start, jumps, locale)
        text = solution_text(start, jumps, locale)
        await answer(interaction, text, ephemeral=False, files=[attachment(animation)])

    @group.command(name="quit", description=_("Give up your Tricky Triangle game"))
    async def quit_slash(self, interaction: discord.Interaction[Any]) -> None:
        # A private answer: acknowledged before the database is asked.
        await defer_private(interaction)
        games = await self.storage.live_games_of_player(interaction.user.id, self.kind)
        if not games:
            raise UserError("tri_no_game")
        await self.put_away(games[0], "given up")
        await answer(
            interaction,
            self.say("tri_gave_up", interaction.locale, game=games[0].id),
            ephemeral=True,
        )

    # -- components ----------------------------------------------------------------------------

    async def on_component(
        self,
        interaction: discord.Interaction[Any],
        action: str,
        game_id: int,
        arg: str,
        values: Sequence[str],
    ) -> None:
        if action not in {"hint", "hole", "quit"}:
            raise UserError("button_gone")
        # Refused at once when memory is sure (someone else's puzzle); then acknowledged before
        # the database is asked: privately for a hint (a private answer), silently otherwise
        # (the puzzle's message is edited; a refusal follows privately).
        known = self.remembered(game_id)
        if known is not None and interaction.user.id != known.host_id:
            raise UserError("tri_not_yours", host=known.host_id)
        if action == "hint":
            self.bot.cooldowns.hit("triangle hint", HINT_RATE, interaction)
            await defer_private(interaction)
        else:
            await interaction.response.defer()
        game = await self.game_by_id(game_id)
        if interaction.user.id != game.host_id:
            raise UserError("tri_not_yours", host=game.host_id)
        if not game.status.is_live:
            raise self.refusal("table_over", game=game.id)
        if action == "hint":
            await self.hint(interaction, game)
            return
        if action == "quit":
            await self.put_away(game, "given up", interaction)
            return
        async with self.live_game(game.id).lock:
            fresh = await self.storage.get_game(game.id)
            assert fresh is not None
            if not fresh.status.is_live:
                raise self.refusal("table_over", game=game.id)
            await self.press(interaction, fresh, int(arg))

    async def press(self, interaction: discord.Interaction[Any], game: GameRow, hole: int) -> None:
        """A hole pressed (under the game's lock): start, pick or drop a peg, or jump."""
        puzzle = self.load(game)
        options = self.options(game).but(deadline=self.deadline_after(self.idle_seconds))
        status = GameStatus.RUNNING
        if puzzle is None:
            puzzle = TriangleGame.new(hole)
        elif puzzle.has_peg(hole):
            options = options.but(selected=None if self.selected(game) == hole else hole)
        else:
            picked = self.selected(game)
            if picked is None:
                raise UserError("tri_hole_empty", hole=hole)
            # An illegal jump raises a TriangleError whose code explains it in the player's words.
            puzzle.jump(picked, hole)
            options = options.but(selected=None)
            if puzzle.is_over:
                status = GameStatus.FINISHED
                options = options.but(deadline=None)
        stored = await self.store_game(
            game.id,
            status=status,
            state=puzzle.to_state(),
            options=options.to_stored(),
            expect_state=game.state,
        )
        if not stored:
            raise UserError("table_changed")
        if status is GameStatus.FINISHED and puzzle.pegs_left == 1:
            await self.storage.record_win(
                game.id,
                prize="solved",
                user_id=game.host_id,
                board_id=None,
                step=len(puzzle.history),
            )
        after = await self.storage.get_game(game.id)
        assert after is not None
        self.live_game(game.id).wake.set()
        await self.show(after, await self.message(after, puzzle), interaction)

    async def hint(self, interaction: discord.Interaction[Any], game: GameRow) -> None:
        puzzle = self.load(game)
        locale = interaction.locale  # hints are private
        if puzzle is None:
            starts = solvable_starts()
            text = (
                message("tri_any_start", locale)
                if len(starts) == HOLES
                else message("tri_some_starts", locale, starts=", ".join(map(str, starts)))
            )
            await answer(interaction, text, ephemeral=True)
            return
        # The solver is heavy work (if cached once warm): in the server's line (bot.throttle).
        async with self.bot.heavy.turn(interaction.guild_id, Lane.OTHER):
            best = await asyncio.to_thread(puzzle.hint)
            if best is None:
                raise UserError("tri_no_jump_left")
            reachable = await asyncio.to_thread(fewest_pegs, best.apply(puzzle.board))
        async with self.live_game(game.id).lock:
            fresh = await self.storage.get_game(game.id)
            assert fresh is not None
            options = self.options(fresh)
            await self.store_game(game.id, options=options.but(hints=options.hints + 1).to_stored())
        await answer(
            interaction,
            message(
                "tri_hint_text",
                locale,
                origin=best.origin,
                target=best.target,
                over=best.over,
                pegs=message("tri_pegs", locale, count=reachable),
            ),
            ephemeral=True,
        )

    # -- the end -------------------------------------------------------------------------------

    async def put_away(
        self, game: GameRow, reason: str, interaction: discord.Interaction[Any] | None = None
    ) -> None:
        """End a puzzle without finishing it (given up, or left idle)."""
        async with self.live_game(game.id).lock:
            fresh = await self.storage.get_game(game.id)
            assert fresh is not None
            if not fresh.status.is_live:
                raise self.refusal("table_over", game=game.id)
            options = self.options(fresh).but(end=reason, selected=None, deadline=None)
            ended = await self.store_game(
                game.id,
                status=GameStatus.CANCELLED,
                options=options.to_stored(),
                expect_state=fresh.state,
            )
            if not ended:
                raise UserError("table_changed")
            after = await self.storage.get_game(game.id)
            assert after is not None
        self.live_game(game.id).wake.set()
        await self.show(after, await self.message(after, self.load(after)), interaction)

    async def on_deadline(self, game: GameRow) -> None:
        # Called under the game's lock, which put_away takes itself: do it without.
        options = self.options(game).but(end="left idle", selected=None, deadline=None)
        ended = await self.store_game(
            game.id,
            status=GameStatus.CANCELLED,
            options=options.to_stored(),
            expect_state=game.state,
        )
        if ended:
            after = await self.storage.get_game(game.id)
            assert after is not None
            await self.show(after, await self.message(after, self.load(after)))

    # -- /help ---------------------------------------------------------------------------------

    help_keys = ("help_triangle_summary", "help_triangle_rules")

    # -- its pictures as samples ---------------------------------------------------------------

    sample_pictures = staticmethod(samples.sample_pictures)


async def setup(bot: GameNightBot) -> None:
    await bot.add_cog(TriangleCog(bot))
