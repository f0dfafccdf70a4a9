"""Bingo's sample pictures (``python -m bot.render --sample``): a card plain, daubed and winning,
the calls (the first plain, the others with their nicknames), the caller's board, the patterns of a lobby, two in Spanish and the end picture, from a
fixed seed, so they are the same on every run."""

from __future__ import annotations

from bot.call_names import nickname
from bot.render import Rendered
from bot.render.bingo import (
    render_call,
    render_caller_board,
    render_card,
    render_pattern,
    render_pattern_book,
)
from bot.render.bingo import results as render_results
from bot.render.bingo.help import render_bingo_patterns
from bot.render.common import SAMPLE_GAME, SAMPLE_SEED
from engine.bingo import HIGHEST_NUMBER, cards_at, check_claim, pattern_named
from engine.fairness import draw_order

SPANISH = "es-ES"


def sample_pictures() -> list[tuple[str, Rendered]]:
    """Every Bingo picture once, then a few as a Spanish server or player gets them (``-es``),
    then the end picture."""
    return [*_english(), *_spanish(), render_results.sample()]


def _english() -> list[tuple[str, Rendered]]:
    (card,) = cards_at(SAMPLE_SEED, 0)
    order = draw_order(SAMPLE_SEED, HIGHEST_NUMBER)
    line = pattern_named("line")
    # Call until this card completes a line, for a real winning claim.
    called: list[int] = []
    for number in order:
        called.append(number)
        claim = check_claim(card, called, line)
        if claim.valid:
            break
    midway = called[: max(1, len(called) // 2)]
    plan = [pattern_named(code) for code in ("line", "x", "blackout")]
    return [
        ("bingo-card.png", render_card(card, game_id=SAMPLE_GAME, card_number=1, pattern=line)),
        (
            "bingo-card-marked.png",
            render_card(card, game_id=SAMPLE_GAME, card_number=1, called=midway, pattern=line),
        ),
        (
            "bingo-card-winning.png",
            render_card(
                card,
                game_id=SAMPLE_GAME,
                card_number=1,
                called=called,
                winning=claim.cells,
                pattern=line,
            ),
        ),
        ("bingo-call-first.png", render_call(order[0], recent=[], call_number=1)),
        (
            "bingo-call.png",
            render_call(
                called[-1],
                recent=called[:-1],
                call_number=len(called),
                nickname=nickname(called[-1]),
            ),
        ),
        ("bingo-board.png", render_caller_board(order[:40])),
        ("bingo-pattern.png", render_pattern(pattern_named("x"))),
        ("bingo-lobby-patterns.png", render_pattern_book(plan)),
        ("bingo-help-patterns.png", render_bingo_patterns(None)),
    ]


def _spanish() -> list[tuple[str, Rendered]]:
    (card,) = cards_at(SAMPLE_SEED, 0)
    order = draw_order(SAMPLE_SEED, HIGHEST_NUMBER)
    corners = pattern_named("corners")
    claim = check_claim(card, order, corners)
    return [
        (
            "bingo-card-winning-es.png",
            render_card(
                card,
                game_id=SAMPLE_GAME,
                card_number=1,
                called=order,
                winning=claim.cells,
                pattern=corners,
                locale=SPANISH,
            ),
        ),
        (
            "bingo-call-es.png",
            render_call(
                order[29],
                recent=order[:29],
                call_number=30,
                nickname=nickname(order[29], SPANISH),
                locale=SPANISH,
            ),
        ),
    ]
