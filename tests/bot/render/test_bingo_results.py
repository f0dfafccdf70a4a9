"""Bingo's end picture (``bot/render/bingo/results.py``): each winner's card as it stood at the
winning call, in the grid every calling game's end picture shares, with its alt text."""

from __future__ import annotations

import pytest
from PIL import ImageChops

from bot.i18n import message
from bot.render import bingo as render
from bot.render.bingo.results import BingoWin, bingo_board, render_bingo_result, sample
from bot.render.common import FontFace, missing_glyphs
from engine.bingo import (
    CELLS,
    FREE_CELL,
    HIGHEST_NUMBER,
    SIDE,
    call_name,
    cards_at,
    check_claim,
    pattern_named,
)
from engine.fairness import draw_order
from tests.bot.render.test_results import NAMES, checked, difference

SEED = bytes(range(32))
ORDER = draw_order(SEED, HIGHEST_NUMBER)


def bingo_win(position: int, code: str = "line", **extra) -> BingoWin:
    (card,) = cards_at(SEED, position, 1)
    pattern = pattern_named(code)
    for seq in range(1, HIGHEST_NUMBER + 1):
        claim = check_claim(card, ORDER[:seq], pattern)
        if claim.valid:
            break
    values = {
        "name": NAMES[position % len(NAMES)],
        "prize": render.pattern_name(pattern),
        "pattern": pattern,
        "seq": seq,
        "card": card,
        "card_number": position + 1,
        "cells": claim.cells,
        **extra,
    }
    return BingoWin(**values)


def test_a_bingo_board_is_the_card_at_the_winning_call_without_its_band_and_footer():
    win = bingo_win(3, "x")
    board = bingo_board(win, ORDER)
    card = render.card_image(
        win.card,
        game_id="",
        card_number=win.card_number,
        called=ORDER[: win.seq],
        winning=win.cells,
        pattern=win.pattern,
        mapped=True,
    )
    left, top = render.MARGIN - 3, render.HEADER_TOP - 2
    assert board.size == (SIDE * render.CELL + 6, SIDE * render.CELL + render.HEADER + 5)
    below = card.crop((left, top, left + board.width, top + board.height))
    assert ImageChops.difference(board, below).getbbox() is None
    # Nothing of the band (its colour) is left at the top.
    assert board.getpixel((board.width // 2, 0)) != card.getpixel((card.width // 2, 2))


def test_the_free_centre_is_worded_in_the_servers_language():
    win = bingo_win(0, "blackout")
    english, spanish = bingo_board(win, ORDER), bingo_board(win, ORDER, "es-ES")
    x, y = render.cell_origin(FREE_CELL)
    x, y = x - (render.MARGIN - 3), y - (render.HEADER_TOP - 2)  # on the board
    box = (x, y, x + render.CELL, y + render.CELL)
    assert difference(english.crop(box), spanish.crop(box)) > 1
    # Elsewhere the two are the same card.
    corner = (0, 0, render.CELL * 2, render.CELL * 2)
    assert ImageChops.difference(english.crop(corner), spanish.crop(corner)).getbbox() is None


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        (None, ("Bingo game 9, the winners.", "card", "on call", ", shared", "with", "free")),
        (
            "es-ES",
            (
                "Bingo, partida 9: los ganadores.",
                "cartón",
                "en la cantada",
                ", compartido",
                "con",
                "libre",
            ),
        ),
    ],
)
def test_alt_text_names_each_winner_card_call_and_numbers_by_column(locale, words):
    head, card_word, on_call, shared_word, with_word, free = words
    line = bingo_win(0)
    shared = bingo_win(1, "line", shared=True)
    blackout = bingo_win(2, "blackout")
    wins = [line, shared, blackout]
    (rendered,) = render_bingo_result(wins, game_id="9", called=ORDER, locale=locale)
    checked(rendered)
    alt = rendered.alt_text
    assert alt.startswith(head)
    for win in wins:
        name = call_name(ORDER[win.seq - 1])
        expected = (
            f"{win.prize}{shared_word if win.shared else ''}: {win.name}, "
            f"{card_word} {win.card_number}, {on_call} {win.seq} ({name})"
        )
        assert expected in alt
    # The winning cells read column by column, B first, the free centre by its word.
    by_column = [cell for column in range(SIDE) for cell in range(column, CELLS, SIDE)]
    numbers = [
        free if cell == FREE_CELL else str(blackout.card.numbers[cell])
        for cell in by_column
        if blackout.cells >> cell & 1
    ]
    assert f"{with_word} {', '.join(numbers)}." in alt
    assert alt.count(shared_word) == 1
    assert rendered.filename == "results-9.png"


def test_every_label_has_its_glyphs():
    labels = []
    for locale in (None, "es-ES"):
        labels += [
            message("result_bingo_title", locale),
            message("result_bingo_call", locale, card=9999, seq=75, call="O-75"),
        ]
    for label in labels:
        for face in (FontFace.SLAB, FontFace.SANS, FontFace.SANS_BOLD):
            assert missing_glyphs(face, label) == [], (label, face)


def test_no_winner_no_picture_and_a_win_the_calls_cannot_explain_is_refused():
    assert render_bingo_result([], game_id="1", called=ORDER) == []
    win = bingo_win(0)
    with pytest.raises(ValueError, match="calls were made"):
        render_bingo_result([win], game_id="1", called=ORDER[: win.seq - 1])
    nothing = bingo_win(0, cells=0)
    with pytest.raises(ValueError, match="cell mask"):
        render_bingo_result([nothing], game_id="1", called=ORDER)


def test_the_sample_is_a_whole_night():
    name, rendered = sample()
    assert name == "results-bingo.png"
    checked(rendered)
    for pattern in ("Any line", "X", "Blackout"):
        assert f"{pattern}" in rendered.alt_text
