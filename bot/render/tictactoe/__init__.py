"""Tic-tac-toe picture: the final board, small, for the result message.

Red crosses and blue noughts on paper, the winner's completed line(s) on gold, and a caption
naming the players and the result, in the channel's language. Drawn at three times the size and
shrunk, for smooth strokes.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

import bot.render.tictactoe.words  # noqa: F401  (its words, registered on import)
from bot.i18n import LocaleLike, message
from bot.render.common import (
    RGB,
    FontFace,
    Palette,
    Rendered,
    downsample,
    draw_text,
    encode_png,
    fit_font,
    font,
    limit_alt_text,
    safe_filename,
    sentence,
    shorten,
    text_width,
    tint,
)
from bot.render.text import Label, Span, fit_line, name_spans
from engine.tictactoe import Player, Status, TicTacToe

SUPERSAMPLE = 3
BOARD_SIDE = 300  # the grid, whatever the number of cells
MARGIN = 24
BAND = 52  # the title band
FOOTER = 64  # the players and the result
WIDTH = 2 * MARGIN + BOARD_SIDE
HEIGHT = BAND + MARGIN + BOARD_SIDE + FOOTER

CROSS: RGB = Palette.FRAMES[0]  # red
NOUGHT: RGB = Palette.FRAMES[2]  # blue
MARK_COLOURS: dict[Player, RGB] = {Player.X: CROSS, Player.O: NOUGHT}


def _draw_mark(draw: ImageDraw.ImageDraw, player: Player, box: tuple[float, ...]) -> None:
    left, top, right, bottom = box
    side = right - left
    inset = side * 0.22
    width = max(3, round(side * 0.11))
    colour = MARK_COLOURS[player]
    if player is Player.X:
        draw.line((left + inset, top + inset, right - inset, bottom - inset), colour, width)
        draw.line((left + inset, bottom - inset, right - inset, top + inset), colour, width)
        # Round caps: ImageDraw lines end square, which looks harsh on a thick cross.
        radius = width / 2
        for x, y in (
            (left + inset, top + inset),
            (right - inset, bottom - inset),
            (left + inset, bottom - inset),
            (right - inset, top + inset),
        ):
            draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=colour)
    else:
        draw.ellipse(
            (left + inset, top + inset, right - inset, bottom - inset), outline=colour, width=width
        )


def result_text(game: TicTacToe, x_name: str, o_name: str, locale: LocaleLike = None) -> str:
    """The caption's verdict: who won, a draw, or whose move it is (in ``locale``'s language)."""
    outcome = game.outcome
    names = {Player.X: x_name, Player.O: o_name}
    if outcome.winner is not None:
        return message("table_wins", locale, winner=names[outcome.winner])
    if outcome.status is Status.DRAW:
        return message("table_draw", locale)
    return message("pic_to_move", locale, who=names[game.turn])


def tictactoe_image(
    game: TicTacToe,
    *,
    game_id: str,
    x_name: str,
    o_name: str,
    forfeit: str = "",
    locale: LocaleLike = None,
) -> Image.Image:
    """The board as an RGB image (``render_tictactoe`` encodes it)."""
    s = SUPERSAMPLE
    image = Image.new("RGB", (WIDTH * s, HEIGHT * s), Palette.PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH * s, BAND * s - 1), fill=Palette.BOARD)
    game_line = message("pic_game", locale, game=shorten(game_id, 10))
    subtitle = f"{game.size}x{game.size} · {game_line}"
    subtitle_font = font(FontFace.SANS, 17 * s)
    # The title shrinks to leave room for the subtitle, so the two never overlap.
    room = (WIDTH - 2 * MARGIN) * s - text_width(subtitle, subtitle_font) - 12 * s
    title = message("pic_tictactoe_title", locale)
    draw_text(
        draw,
        (MARGIN * s, BAND * s / 2 + s),
        title,
        fit_font(title, FontFace.SLAB, 26 * s, 14 * s, room),
        Palette.PAPER,
        "lm",
    )
    draw_text(
        draw,
        ((WIDTH - MARGIN) * s, BAND * s / 2 + s),
        subtitle,
        subtitle_font,
        Palette.GOLD_LIGHT,
        "rm",
    )

    size = game.size
    cell = BOARD_SIDE * s / size
    left, top = MARGIN * s, (BAND + MARGIN) * s
    winning = set(game.outcome.line)
    for index, mark in enumerate(game.cells):
        row, column = divmod(index, size)
        box = (
            left + column * cell,
            top + row * cell,
            left + (column + 1) * cell,
            top + (row + 1) * cell,
        )
        if index in winning:
            pad = 3 * s
            draw.rounded_rectangle(
                (box[0] + pad, box[1] + pad, box[2] - pad, box[3] - pad),
                radius=8 * s,
                fill=Palette.GOLD_LIGHT,
                outline=Palette.GOLD,
                width=3 * s,
            )
        if mark is not None:
            _draw_mark(draw, mark, box)
    grid = tint(Palette.INK, 0.15)
    for line in range(1, size):
        offset = line * cell
        draw.line((left + offset, top, left + offset, top + size * cell), grid, 4 * s)
        draw.line((left, top + offset, left + size * cell, top + offset), grid, 4 * s)

    labels = footer_labels(game, x_name=x_name, o_name=o_name, forfeit=forfeit, locale=locale)
    for label in labels:
        label.draw(draw)
    return downsample(image, (WIDTH, HEIGHT))


def footer_labels(
    game: TicTacToe, *, x_name: str, o_name: str, forfeit: str = "", locale: LocaleLike = None
) -> tuple[Label, Label]:
    """The players line and the verdict, in supersampled pixels. Names too long for the width
    are cut with an ellipsis; the verdict's other words always show whole."""
    s = SUPERSAMPLE
    footer_top = (BAND + MARGIN + BOARD_SIDE) * s
    room = (WIDTH - 2 * MARGIN) * s
    versus = message("table_versus", locale)
    players = (
        Span(x_name, name=True),
        Span(f" (X){versus}"),
        Span(o_name, name=True),
        Span(" (O)"),
    )
    players_line = fit_line(players, FontFace.SANS, 18 * s, 12 * s, room)
    verdict = forfeit or result_text(game, x_name, o_name, locale)
    colour = MARK_COLOURS[game.outcome.winner] if game.outcome.winner else Palette.INK
    verdict_line = fit_line(
        name_spans(verdict, (x_name, o_name)), FontFace.SANS_BOLD, 22 * s, 14 * s, room
    )
    return (
        Label(players_line, (WIDTH * s / 2, footer_top + 18 * s), "mm", Palette.MUTED),
        Label(verdict_line, (WIDTH * s / 2, footer_top + 44 * s), "mm", colour),
    )


def _cell_name(index: int, size: int, locale: LocaleLike) -> str:
    row, column = divmod(index, size)
    return message("alt_tictactoe_cell", locale, row=row + 1, column=column + 1)


def tictactoe_alt_text(
    game: TicTacToe,
    *,
    game_id: str,
    x_name: str,
    o_name: str,
    forfeit: str = "",
    locale: LocaleLike = None,
) -> str:
    """The alt text of a tic-tac-toe picture: the players, each row's marks, the outcome and the
    winning cells, in ``locale``'s language."""
    size = game.size
    marks = {Player.X: "X", Player.O: "O", None: message("alt_tictactoe_empty", locale)}
    rows = [
        message(
            "alt_row",
            locale,
            row=row + 1,
            items=", ".join(marks[game.cells[row * size + column]] for column in range(size)),
        )
        for row in range(size)
    ]
    text = message("alt_tictactoe", locale, game=game_id, size=size, k=game.k, x=x_name, o=o_name)
    text += " " + sentence("; ".join(rows)) + ". "
    text += (forfeit or result_text(game, x_name, o_name, locale)) + "."
    if game.outcome.line:
        cells = ", ".join(_cell_name(i, size, locale) for i in game.outcome.line)
        text += message("alt_tictactoe_winning", locale, cells=cells)
    return limit_alt_text(text)


def render_tictactoe(
    game: TicTacToe,
    *,
    game_id: str,
    x_name: str,
    o_name: str,
    forfeit: str = "",
    locale: LocaleLike = None,
) -> Rendered:
    """The board with the winning line on gold; ``forfeit`` replaces the verdict when a player
    ran out of time or resigned (the board alone cannot tell). Words and alt text in
    ``locale``'s language (None: English)."""
    names = {"game_id": game_id, "x_name": x_name, "o_name": o_name, "forfeit": forfeit}
    return Rendered(
        encode_png(tictactoe_image(game, **names, locale=locale)),
        tictactoe_alt_text(game, **names, locale=locale),
        safe_filename("tictactoe", game_id),
    )
