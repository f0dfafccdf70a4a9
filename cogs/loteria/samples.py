"""Lotería's sample pictures (``python -m bot.render --sample``): a card, a tabla plain, marked
and winning, the calls (one with its verse), two in Spanish and the end picture, from a fixed
seed, so they are the same on every run."""

from __future__ import annotations

from bot.render import Rendered
from bot.render.common import SAMPLE_GAME, SAMPLE_SEED
from bot.render.loteria import render_call, render_card, render_tabla
from bot.render.loteria import results as render_results
from cogs.loteria.verses import verse
from engine.fairness import draw_order
from engine.loteria import CLASSIC_DECK, DECK_SIZE, Pattern, check_claim, tabla_for_seat

SPANISH = "es-ES"


def sample_pictures() -> list[tuple[str, Rendered]]:
    """Every Lotería picture once, then a few as a Spanish server or player gets them (``-es``),
    then the end picture."""
    return [*_english(), *_spanish(), render_results.sample()]


def _english() -> list[tuple[str, Rendered]]:
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


def _spanish() -> list[tuple[str, Rendered]]:
    deck = CLASSIC_DECK
    tabla = tabla_for_seat(SAMPLE_SEED, 0)
    order = draw_order(SAMPLE_SEED, DECK_SIZE)
    called = list(order[:29])
    claim = check_claim(tabla, list(order), Pattern.CORNERS)
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
    ]
