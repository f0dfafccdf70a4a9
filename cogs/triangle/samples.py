"""The Tricky Triangle's sample pictures (``python -m bot.render --sample``): a puzzle under
way, one solved, a solution's animation, and two in Spanish."""

from __future__ import annotations

from bot.plurals import counted
from bot.render import Rendered
from bot.render.common import SAMPLE_GAME
from bot.render.triangle import render_solution, render_triangle
from engine.triangle import TriangleGame, best_line, start_board

SPANISH = "es-ES"


def sample_pictures() -> list[tuple[str, Rendered]]:
    """Each picture once, then two as a Spanish server or player gets them (``-es``)."""
    puzzle = TriangleGame.new(4)
    for jump in best_line(puzzle.board)[:5]:
        puzzle.play(jump)
    solved = TriangleGame.new(4)
    for jump in solved.solution():
        solved.play(jump)
    return [
        (
            "triangle.png",
            render_triangle(
                puzzle.board,
                game_id=SAMPLE_GAME,
                caption=f"{counted(puzzle.pegs_left, 'peg', 'pegs')} left",
                selected=best_line(puzzle.board)[0].origin,
                last_jump=puzzle.history[-1],
            ),
        ),
        (
            "triangle-solved.png",
            render_triangle(
                solved.board,
                game_id=SAMPLE_GAME,
                caption=f"1 peg left: {solved.remark}",
                last_jump=solved.history[-1],
            ),
        ),
        ("triangle-solution.gif", render_solution(4, best_line(start_board(4)))),
        (
            "triangle-es.png",
            render_triangle(
                puzzle.board,
                game_id=SAMPLE_GAME,
                caption="Quedan 9 clavijas",
                selected=best_line(puzzle.board)[0].origin,
                last_jump=puzzle.history[-1],
                locale=SPANISH,
            ),
        ),
        (
            "triangle-solution-es.gif",
            render_solution(4, best_line(start_board(4)), locale=SPANISH),
        ),
    ]
