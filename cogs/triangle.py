"""``/triangle``: the Tricky Triangle, a solo peg puzzle on 15 buttons in rows of 1 to 5.

Pick the hole to leave empty, then press a peg and the hole to jump it to; illegal jumps are
explained, the end gets the traditional remark. A Hint button asks the solver for the best
next jump, and ``/triangle solve`` answers with an animated GIF of a whole solution. The rules
and the solver live in ``engine.triangle``; the picked peg is kept in the game's options, so a
restart loses nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.attachments import attachment
from bot.errors import UserError
from bot.render.triangle import render_solution, render_triangle
from bot.storage import GameRow, GameStatus
from bot.table import Shown, TableButton, TableGameCog
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


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' if count != 1 else ''}"


def jump_text(jump: Jump) -> str:
    return f"{jump.origin} over {jump.over} to {jump.target}"


def solution_text(empty_hole: int, jumps: Sequence[Jump]) -> str:
    board = start_board(empty_hole)
    for jump in jumps:
        board = jump.apply(board)
    steps = " · ".join(
        f"{number}. {jump.origin}→{jump.target}" for number, jump in enumerate(jumps, start=1)
    )
    pegs = [hole for hole in range(HOLES) if (board >> hole) & 1]
    ending = (
        f"one peg left, in hole {pegs[0]}"
        if len(pegs) == 1
        else f"{plural(len(pegs), 'peg')} left at best"
    )
    return (
        f"## Tricky Triangle solution, hole {empty_hole} empty\n"
        f"{plural(len(jumps), 'jump')}, {ending}:\n{steps}"
    )


class TriangleCog(TableGameCog, name="Tricky Triangle"):
    kind = "triangle"
    prefix = "tri"
    title = "Tricky Triangle"
    idle_seconds: float = IDLE_SECONDS

    group = app_commands.Group(
        name="triangle", description=_("The Tricky Triangle peg puzzle"), guild_only=True
    )

    def __init__(self, bot: GameNightBot) -> None:
        super().__init__(bot)

    # -- reading a game ------------------------------------------------------------------------

    @staticmethod
    def load(game: GameRow) -> TriangleGame | None:
        """The puzzle, or ``None`` while the starting hole is still to be picked."""
        return None if game.state == PICK_STATE else TriangleGame.from_state(game.state)

    @staticmethod
    def selected(game: GameRow) -> int | None:
        value = game.options.get("selected")
        return None if value is None else int(value)

    # -- the message ---------------------------------------------------------------------------

    def holes_view(self, game: GameRow, puzzle: TriangleGame | None) -> discord.ui.View:
        """The 15 holes in rows of 1 to 5; Hint and Give up beside the top hole."""
        over = not game.status.is_live
        picked = self.selected(game)
        view = discord.ui.View(timeout=None)
        for hole, (row, _column) in enumerate(COORDINATES):
            peg = puzzle is None or puzzle.has_peg(hole)
            style = discord.ButtonStyle.primary if peg else discord.ButtonStyle.secondary
            if hole == picked:
                style = discord.ButtonStyle.success
            view.add_item(
                TableButton.make(
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
                    TableButton.make(self.prefix, "hint", game.id, label="Hint", emoji="💡", row=0)
                )
                view.add_item(
                    TableButton.make(
                        self.prefix,
                        "quit",
                        game.id,
                        label="Give up",
                        style=discord.ButtonStyle.danger,
                        row=0,
                    )
                )
        return view

    def status_lines(self, game: GameRow, puzzle: TriangleGame | None) -> list[str]:
        if puzzle is None:
            return [
                "Every hole has a peg. **Press the hole to leave empty** to begin.",
            ]
        lines = [f"{plural(puzzle.pegs_left, 'peg')} left."]
        history = puzzle.history
        if history:
            lines[0] += f" Last jump: {jump_text(history[-1])}."
        picked = self.selected(game)
        if picked is not None:
            targets = [str(jump.target) for jump in puzzle.jumps_from(picked)]
            if targets:
                lines.append(f"Peg {picked} picked: it can jump to {' or '.join(targets)}.")
            else:
                lines.append(f"Peg {picked} picked, but it has no jump: pick another peg.")
        else:
            lines.append("Press a peg, then the empty hole to jump it to, over a neighbour.")
        return lines

    async def message(self, game: GameRow, puzzle: TriangleGame | None) -> Shown:
        header = f"## {self.title} #{game.id} · <@{game.host_id}>"
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
            )
            files = [attachment(picture)]
        return Shown("\n".join(lines), self.holes_view(game, puzzle), files)

    def ending(self, game: GameRow, puzzle: TriangleGame | None, *, plain: bool = False) -> str:
        """How the game ended: the remark for the pegs left, or why it was put away."""
        if puzzle is None:
            return "Put away before the first jump."
        pegs = plural(puzzle.pegs_left, "peg")
        hints = int(game.options.get("hints", 0))
        hint_note = f" (with {plural(hints, 'hint')})" if hints else ""
        if game.status is GameStatus.FINISHED:
            if plain:
                return f"{pegs} left: {puzzle.remark}"
            return f"Game over: **{pegs} left{hint_note}. {puzzle.remark}!**"
        reason = game.options.get("end", "given up")
        return f"{pegs} left: {reason}." if plain else f"{reason.capitalize()} with {pegs} left."

    # -- commands ------------------------------------------------------------------------------

    @group.command(name="play", description=_("Play the Tricky Triangle peg puzzle"))
    @app_commands.describe(start=_("The hole to leave empty (0-14); leave out to pick it"))
    async def play(
        self,
        interaction: discord.Interaction[Any],
        start: app_commands.Range[int, 0, HOLES - 1] | None = None,
    ) -> None:
        if interaction.guild_id is None or interaction.channel_id is None:
            raise UserError("Play in a server channel, not in DMs.")
        user = interaction.user
        state = PICK_STATE if start is None else TriangleGame.new(start).to_state()
        async with self.seating:
            await self.check_free(user.id)
            game = await self.storage.create_game(
                kind=self.kind,
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                host_id=user.id,
                seed=None,
                options={"deadline": self.deadline_after(self.idle_seconds), "hints": 0},
                state=state,
                status=GameStatus.LOBBY if start is None else GameStatus.RUNNING,
            )
            await self.storage.add_player(
                game.id,
                user.id,
                display_name=user.display_name,
                locale=str(interaction.locale),
                boards=lambda _seat, _first: [],
            )
        message = await self.post(interaction, await self.message(game, self.load(game)))
        await self.storage.update_game(game.id, lobby_message_id=message.id)
        self.arm_timer(game.id)

    @group.command(name="solve", description=_("Show a solution as an animation"))
    @app_commands.describe(start=_("The hole left empty at the start (0-14)"))
    async def solve(
        self, interaction: discord.Interaction[Any], start: app_commands.Range[int, 0, HOLES - 1]
    ) -> None:
        await interaction.response.defer(thinking=True)
        jumps = await asyncio.to_thread(best_line, start_board(start))
        animation = await asyncio.to_thread(render_solution, start, jumps)
        await interaction.followup.send(solution_text(start, jumps), file=attachment(animation))

    @group.command(name="quit", description=_("Give up your Tricky Triangle game"))
    async def quit_slash(self, interaction: discord.Interaction[Any]) -> None:
        games = await self.storage.live_games_of_player(interaction.user.id, self.kind)
        if not games:
            raise UserError("You have no Tricky Triangle game on.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.put_away(games[0], "given up")
        await interaction.followup.send(f"You gave up {self.title} #{games[0].id}.", ephemeral=True)

    # -- components ----------------------------------------------------------------------------

    async def on_component(
        self,
        interaction: discord.Interaction[Any],
        action: str,
        game_id: int,
        arg: str,
        values: Sequence[str],
    ) -> None:
        game = await self.game_by_id(game_id)
        if interaction.user.id != game.host_id:
            raise UserError(
                f"This is <@{game.host_id}>'s triangle. Start your own with `/triangle play`."
            )
        if not game.status.is_live:
            raise UserError(f"{self.title} #{game.id} is over.")
        if action == "hint":
            await self.hint(interaction, game)
            return
        if action not in {"hole", "quit"}:
            raise UserError("That button is not in use any more.")
        await interaction.response.defer()
        if action == "quit":
            await self.put_away(game, "given up", interaction)
            return
        async with self.live_game(game.id).lock:
            fresh = await self.storage.get_game(game.id)
            assert fresh is not None
            if not fresh.status.is_live:
                raise UserError(f"{self.title} #{game.id} is over.")
            await self.press(interaction, fresh, int(arg))

    async def press(self, interaction: discord.Interaction[Any], game: GameRow, hole: int) -> None:
        """A hole pressed (under the game's lock): start, pick or drop a peg, or jump."""
        puzzle = self.load(game)
        options = {**game.options, "deadline": self.deadline_after(self.idle_seconds)}
        status = GameStatus.RUNNING
        if puzzle is None:
            puzzle = TriangleGame.new(hole)
        elif puzzle.has_peg(hole):
            options["selected"] = None if self.selected(game) == hole else hole
        else:
            picked = self.selected(game)
            if picked is None:
                raise UserError(f"Hole {hole} is empty: press a peg first, then where it lands.")
            puzzle.jump(picked, hole)  # an illegal jump is explained to the player
            options["selected"] = None
            if puzzle.is_over:
                status = GameStatus.FINISHED
                options.pop("deadline")
        stored = await self.storage.update_game(
            game.id,
            status=status,
            state=puzzle.to_state(),
            options=options,
            expect_state=game.state,
        )
        if not stored:
            raise UserError("The board changed just then; look again.")
        if status is GameStatus.FINISHED and puzzle.pegs_left == 1:
            await self.storage.record_win(
                game.id,
                prize="solved",
                user_id=game.host_id,
                board_id=None,
                draw_seq=len(puzzle.history),
            )
        after = await self.storage.get_game(game.id)
        assert after is not None
        self.live_game(game.id).wake.set()
        await self.show(after, await self.message(after, puzzle), interaction)

    async def hint(self, interaction: discord.Interaction[Any], game: GameRow) -> None:
        puzzle = self.load(game)
        if puzzle is None:
            starts = solvable_starts()
            text = (
                "Any hole will do: every start can be solved down to one peg."
                if len(starts) == HOLES
                else f"These starts can be solved to one peg: {', '.join(map(str, starts))}."
            )
            await interaction.response.send_message(text, ephemeral=True)
            return
        best = await asyncio.to_thread(puzzle.hint)
        if best is None:
            raise UserError("No jump is left.")
        reachable = fewest_pegs(best.apply(puzzle.board))
        async with self.live_game(game.id).lock:
            fresh = await self.storage.get_game(game.id)
            assert fresh is not None
            hints = int(fresh.options.get("hints", 0)) + 1
            await self.storage.update_game(game.id, options={**fresh.options, "hints": hints})
        await interaction.response.send_message(
            f"💡 Jump **{best.origin} → {best.target}** (over {best.over}). From there the best "
            f"you can reach is {plural(reachable, 'peg')}.",
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
                raise UserError(f"{self.title} #{game.id} is over.")
            options = {**fresh.options, "end": reason, "selected": None}
            options.pop("deadline", None)
            ended = await self.storage.update_game(
                game.id,
                status=GameStatus.CANCELLED,
                options=options,
                expect_state=fresh.state,
            )
            if not ended:
                raise UserError("The board changed just then; look again.")
            after = await self.storage.get_game(game.id)
            assert after is not None
        self.live_game(game.id).wake.set()
        await self.show(after, await self.message(after, self.load(after)), interaction)

    async def on_deadline(self, game: GameRow) -> None:
        # Called under the game's lock, which put_away takes itself: do it without.
        options = {**game.options, "end": "left idle", "selected": None}
        options.pop("deadline", None)
        ended = await self.storage.update_game(
            game.id, status=GameStatus.CANCELLED, options=options, expect_state=game.state
        )
        if ended:
            after = await self.storage.get_game(game.id)
            assert after is not None
            await self.show(after, await self.message(after, self.load(after)))


async def setup(bot: GameNightBot) -> None:
    await bot.add_cog(TriangleCog(bot))
