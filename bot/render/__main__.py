"""``python -m bot.render --sample DIR``: write one example of every picture into DIR.

The examples come from a fixed seed, so they are the same on every run; ``alt-text.txt`` beside
them lists each file's alt text.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.plurals import counted
from bot.render import leaderboard
from bot.render.common import Rendered
from bot.render.dots import render_dots
from bot.render.housie import render_caller_board, render_housie_call, render_ticket
from bot.render.housie import results as housie_results
from bot.render.loteria import render_call, render_card, render_tabla
from bot.render.loteria import results as loteria_results
from bot.render.tictactoe import render_tictactoe
from bot.render.triangle import render_solution, render_triangle
from cogs.housie.call_names import nickname
from cogs.loteria.verses import verse
from engine.dots import DotsGame
from engine.fairness import draw_order
from engine.housie import Prize, Ticket
from engine.loteria import CLASSIC_DECK, DECK_SIZE, Pattern, check_claim, tabla_for_seat
from engine.tictactoe import TicTacToe
from engine.triangle import TriangleGame, best_line, start_board

SAMPLE_SEED = bytes(range(32))
SAMPLE_GAME = "L7Q2"

# A ticket with three numbers in one column (the 80s) and both 1 and 90: the edge cases.
SAMPLE_TICKET = Ticket(
    (
        (1, 0, 23, 0, 45, 0, 61, 0, 80),
        (0, 12, 0, 37, 0, 52, 0, 74, 86),
        (4, 0, 28, 39, 0, 0, 66, 0, 90),
    )
)
SAMPLE_CODE = "5ZVY1BSRJD470ZZE0154E2EBZHW1A"  # codes are signed, 26 to 39 characters


def loteria_samples() -> list[tuple[str, Rendered]]:
    """Every Lotería picture once: a card, a tabla plain, marked and winning, and the calls."""
    deck = CLASSIC_DECK
    tabla = tabla_for_seat(SAMPLE_SEED, 0)
    order = draw_order(SAMPLE_SEED, DECK_SIZE)
    # Call until this tabla completes a line, for a real winning claim.
    called: list[int] = []
    claim = check_claim(tabla, called, Pattern.LINE)
    for card in order:
        called.append(card)
        claim = check_claim(tabla, called, Pattern.LINE)
        if claim.valid:
            break
    midway = called[: max(1, len(called) // 2)]
    return [
        ("loteria-card.png", render_card(deck.card(order[0]))),
        ("loteria-tabla.png", render_tabla(tabla, deck, game_id=SAMPLE_GAME, tabla_number=1)),
        (
            "loteria-tabla-marked.png",
            render_tabla(tabla, deck, game_id=SAMPLE_GAME, tabla_number=1, called=midway),
        ),
        (
            "loteria-tabla-winning.png",
            render_tabla(
                tabla,
                deck,
                game_id=SAMPLE_GAME,
                tabla_number=1,
                called=called,
                winning_cells=claim.cells,
                pattern=Pattern.LINE,
            ),
        ),
        (
            "loteria-call-first.png",
            render_call(deck.card(order[0]), deck, recent=[], call_number=1, total=DECK_SIZE),
        ),
        (
            "loteria-call.png",
            render_call(
                deck.card(called[-1]),
                deck,
                recent=called[:-1],
                call_number=len(called),
                total=DECK_SIZE,
            ),
        ),
        (
            "loteria-call-verse.png",
            render_call(
                deck.card(called[-1]),
                deck,
                recent=called[:-1],
                call_number=len(called),
                total=DECK_SIZE,
                verse=verse(called[-1], deck.name, "es-ES"),
            ),
        ),
    ]


def housie_samples() -> list[tuple[str, Rendered]]:
    """Every Housie picture once: a ticket plain, marked and winning, the board, the calls."""
    ticket = SAMPLE_TICKET
    order = draw_order(SAMPLE_SEED, 90)
    top_line = [number for number in ticket.rows[0] if number]
    # Calls that mark some numbers, then the same calls plus the rest of the top line.
    called = list(order[:15])
    winning_calls = called + [number for number in top_line if number not in called]
    return [
        ("housie-ticket.png", render_ticket(ticket, game_id=SAMPLE_GAME, code=SAMPLE_CODE)),
        (
            "housie-ticket-marked.png",
            render_ticket(ticket, game_id=SAMPLE_GAME, code=SAMPLE_CODE, called=called),
        ),
        (
            "housie-ticket-winning.png",
            render_ticket(
                ticket,
                game_id=SAMPLE_GAME,
                code=SAMPLE_CODE,
                called=winning_calls,
                winning=frozenset(top_line),
                prize=Prize.TOP_LINE,
            ),
        ),
        (
            "housie-call.png",
            render_housie_call(
                order[29], recent=order[:29], call_number=30, nickname=nickname(order[29])
            ),
        ),
        (
            "housie-call-first.png",
            render_housie_call(
                order[0], recent=[], call_number=1, nickname=nickname(order[0], "es-ES")
            ),
        ),
        ("housie-board.png", render_caller_board(order[:30])),
        ("housie-board-full.png", render_caller_board(order)),
    ]


def table_game_samples() -> list[tuple[str, Rendered]]:
    """The table games' pictures: tic-tac-toe won, drawn and 5x5, Dots and Boxes, the triangle."""
    won = TicTacToe.from_state("3/3/XOXOX.O.X")
    drawn = TicTacToe.from_state("3/3/XOXXOOOXX")
    big = TicTacToe.from_state("5/4/XOOO..X.....X.....X......")  # X's diagonal of four
    dots = DotsGame(3, 3)
    for line in ("A1-B1", "C3-D3", "A1-A2", "B2-C2", "B1-B2", "D1-D2", "A2-B2", "B3-B4"):
        dots.play(line)  # the red player closes box A1 with A2-B2 and draws again
    finished = DotsGame.from_state("2x2:0123456789ab")
    puzzle = TriangleGame.new(4)
    for jump in best_line(puzzle.board)[:5]:
        puzzle.play(jump)
    solved = TriangleGame.new(4)
    for jump in solved.solution():
        solved.play(jump)
    return [
        (
            "tictactoe-won.png",
            render_tictactoe(won, game_id=SAMPLE_GAME, x_name="Alice", o_name="Bob"),
        ),
        (
            "tictactoe-draw.png",
            render_tictactoe(drawn, game_id=SAMPLE_GAME, x_name="Alice", o_name="GameNight"),
        ),
        (
            "tictactoe-5x5.png",
            render_tictactoe(big, game_id=SAMPLE_GAME, x_name="Alice", o_name="Bob"),
        ),
        ("dots.png", render_dots(dots, game_id=SAMPLE_GAME, names=("Alice", "Bob"))),
        (
            "dots-finished.png",
            render_dots(finished, game_id=SAMPLE_GAME, names=("Alice", "GameNight")),
        ),
        (  # names in other scripts, with emoji, one too long for its place
            "dots-names.png",
            render_dots(
                dots, game_id=SAMPLE_GAME, names=("王小明 👍🏽", "محمد عبد الله الهاشمي القرشي")
            ),
        ),
        (
            "tictactoe-names.png",
            render_tictactoe(
                won,
                game_id=SAMPLE_GAME,
                x_name="Maximiliano Alessandro Fernández",
                o_name="अर्जुन शर्मा 🇮🇳",
                forfeit="अर्जुन शर्मा 🇮🇳 ran out of time: Maximiliano Alessandro Fernández wins",
            ),
        ),
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
    ]


SPANISH = "es-ES"


def spanish_samples() -> list[tuple[str, Rendered]]:
    """A few of the pictures above as a Spanish server or player gets them (``-es``)."""
    deck = CLASSIC_DECK
    tabla = tabla_for_seat(SAMPLE_SEED, 0)
    order = draw_order(SAMPLE_SEED, DECK_SIZE)
    called = list(order[:29])
    claim = check_claim(tabla, list(order), Pattern.CORNERS)
    numbers = draw_order(SAMPLE_SEED, 90)
    ticket_calls = list(numbers[:15])
    dots = DotsGame(3, 3)
    for line in ("A1-B1", "C3-D3", "A1-A2", "B2-C2", "B1-B2", "D1-D2", "A2-B2", "B3-B4"):
        dots.play(line)
    puzzle = TriangleGame.new(4)
    for jump in best_line(puzzle.board)[:5]:
        puzzle.play(jump)
    return [
        (
            "loteria-tabla-winning-es.png",
            render_tabla(
                tabla,
                deck,
                game_id=SAMPLE_GAME,
                tabla_number=1,
                called=order,
                winning_cells=claim.cells,
                pattern=Pattern.CORNERS,
                locale=SPANISH,
            ),
        ),
        (
            "loteria-call-es.png",
            render_call(
                deck.card(called[-1]),
                deck,
                recent=called[:-1],
                call_number=len(called),
                total=DECK_SIZE,
                verse=verse(called[-1], deck.name, SPANISH),
                locale=SPANISH,
            ),
        ),
        (
            "housie-ticket-es.png",
            render_ticket(
                SAMPLE_TICKET,
                game_id=SAMPLE_GAME,
                code=SAMPLE_CODE,
                called=ticket_calls,
                ticket_number=6,
                locale=SPANISH,
            ),
        ),
        (
            "housie-ticket-winning-es.png",
            render_ticket(
                SAMPLE_TICKET,
                game_id=SAMPLE_GAME,
                code=SAMPLE_CODE,
                called=list(range(1, 91)),
                winning=frozenset(SAMPLE_TICKET.numbers),
                prize=Prize.SECOND_HOUSE,
                ticket_number=6,
                locale=SPANISH,
            ),
        ),
        (
            "housie-call-es.png",
            render_housie_call(
                numbers[29],
                recent=numbers[:29],
                call_number=30,
                nickname=nickname(numbers[29], SPANISH),
                locale=SPANISH,
            ),
        ),
        ("housie-board-es.png", render_caller_board(numbers[:30], locale=SPANISH)),
        (
            "tictactoe-es.png",
            render_tictactoe(
                TicTacToe.from_state("3/3/XOXOX.O.X"),
                game_id=SAMPLE_GAME,
                x_name="Alicia",
                o_name="Beto",
                locale=SPANISH,
            ),
        ),
        (
            "dots-es.png",
            render_dots(dots, game_id=SAMPLE_GAME, names=("Alicia", "Beto"), locale=SPANISH),
        ),
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


def write_samples(directory: Path) -> list[Path]:
    """Render every sample into ``directory`` (created if needed); returns the files written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    lines = []
    every = loteria_samples() + housie_samples() + table_game_samples() + spanish_samples()
    for name, rendered in [
        *every,
        loteria_results.sample(),
        housie_results.sample(),
        *leaderboard.samples(),
    ]:
        path = directory / name
        path.write_bytes(rendered.png)
        written.append(path)
        lines.append(f"{name}: {rendered.alt_text}")
    (directory / "alt-text.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bot.render --sample DIR``: writes every sample picture and their alt text."""
    parser = argparse.ArgumentParser(
        prog="python -m bot.render", description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "--sample", metavar="DIR", type=Path, required=True, help="folder to write into"
    )
    args = parser.parse_args(argv)
    for path in write_samples(args.sample):
        sys.stdout.write(f"{path} ({path.stat().st_size // 1024} KB)\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
