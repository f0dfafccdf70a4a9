"""Housie's sample pictures (``python -m bot.render --sample``): a ticket plain, marked and
winning, the calls, the caller's board, four in Spanish and the end picture, from a fixed seed,
so they are the same on every run."""

from __future__ import annotations

from bot.call_names import nickname
from bot.render import Rendered
from bot.render.common import SAMPLE_GAME, SAMPLE_SEED
from bot.render.housie import render_caller_board, render_housie_call, render_ticket
from bot.render.housie import results as render_results
from engine.fairness import draw_order
from engine.housie import Prize, Ticket

SPANISH = "es-ES"

# A ticket with three numbers in one column (the 80s) and both 1 and 90: the edge cases.
SAMPLE_TICKET = Ticket(
    (
        (1, 0, 23, 0, 45, 0, 61, 0, 80),
        (0, 12, 0, 37, 0, 52, 0, 74, 86),
        (4, 0, 28, 39, 0, 0, 66, 0, 90),
    )
)
SAMPLE_CODE = "5ZVY1BSRJD470ZZE0154E2EBZHW1A"  # codes are signed, 26 to 39 characters


def sample_pictures() -> list[tuple[str, Rendered]]:
    """Every Housie picture once, then a few as a Spanish server or player gets them (``-es``),
    then the end picture."""
    return [*_english(), *_spanish(), render_results.sample()]


def _english() -> list[tuple[str, Rendered]]:
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


def _spanish() -> list[tuple[str, Rendered]]:
    numbers = draw_order(SAMPLE_SEED, 90)
    ticket_calls = list(numbers[:15])
    return [
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
    ]
