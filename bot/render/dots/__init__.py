"""Dots and Boxes picture: the board with labelled dots, lines coloured by who drew them, boxes
filled in their owner's colour, and the score line.

Columns are lettered across the top and rows numbered down the side, so the dot labels read
exactly as the engine's line names (``A1-B1``). Free lines are drawn faint, as a guide; the
latest line has a gold halo so a player sees what just happened.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

import bot.render.dots.words  # noqa: F401  (its words, registered on import)
from bot.i18n import LocaleLike, message
from bot.render.common import (
    RGB,
    FontFace,
    Palette,
    Rendered,
    downsample,
    draw_text,
    encode_png,
    font,
    limit_alt_text,
    safe_filename,
    shorten,
    tint,
)
from bot.render.text import Label, Span, draw_line, fit_line, initial, layout, name_spans
from engine.dots import DotsGame, Line, Player, dot_name

SUPERSAMPLE = 3
SPACING = 84  # between neighbouring dots
MARGIN = 24
BAND = 52  # the title band
LABELS = 34  # room for the column letters above and the row numbers on the left
FOOTER = 66  # the score line and whose turn it is
MIN_WIDTH = 420

PLAYER_COLOURS: dict[Player, RGB] = {
    Player.FIRST: Palette.FRAMES[0],  # red
    Player.SECOND: Palette.FRAMES[2],  # blue
}
COLOUR_KEYS: dict[Player, str] = {Player.FIRST: "dots_red", Player.SECOND: "dots_blue"}


def image_size(rows: int, columns: int) -> tuple[int, int]:
    """The picture's size for a board of ``rows`` x ``columns`` boxes, band and footer included."""
    board_width = LABELS + columns * SPACING
    width = max(MIN_WIDTH, 2 * MARGIN + board_width + LABELS // 2)
    height = BAND + MARGIN + LABELS + rows * SPACING + MARGIN + FOOTER
    return width, height


def dot_centre(rows: int, columns: int, row: int, column: int) -> tuple[float, float]:
    """Where dot (``row``, ``column``) is drawn, in final (not supersampled) pixels."""
    width, _ = image_size(rows, columns)
    board_left = (width - columns * SPACING) / 2 + LABELS / 4
    top = BAND + MARGIN + LABELS
    return board_left + column * SPACING, top + row * SPACING


def status_text(game: DotsGame, names: Sequence[str], locale: LocaleLike = None) -> str:
    """Who has won, or whose move it is (in ``locale``'s language)."""
    if game.is_over:
        winner = game.winner
        if winner is None:
            return message("table_draw", locale)
        return message("table_wins", locale, winner=names[_seat(winner)])
    return message("pic_to_move", locale, who=names[_seat(game.turn)])


def _seat(player: Player) -> int:
    return 0 if player is Player.FIRST else 1


def dots_image(
    game: DotsGame,
    *,
    game_id: str,
    names: Sequence[str],
    verdict: str = "",
    locale: LocaleLike = None,
) -> Image.Image:
    """The board as an RGB image (``render_dots`` encodes it)."""
    s = SUPERSAMPLE
    rows, columns = game.rows, game.columns
    width, height = image_size(rows, columns)
    image = Image.new("RGB", (width * s, height * s), Palette.PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width * s, BAND * s - 1), fill=Palette.TEAL)
    draw_text(
        draw,
        (MARGIN * s, BAND * s / 2 + s),
        message("pic_dots_title", locale),
        font(FontFace.SLAB, 24 * s),
        Palette.PAPER,
        "lm",
    )
    draw_text(
        draw,
        ((width - MARGIN) * s, BAND * s / 2 + s),
        f"{rows}x{columns} · {message('pic_game', locale, game=shorten(game_id, 10))}",
        font(FontFace.SANS, 17 * s),
        tint(Palette.TEAL, 0.75),
        "rm",
    )

    def at(row: int, column: int) -> tuple[float, float]:
        x, y = dot_centre(rows, columns, row, column)
        return x * s, y * s

    # Boxes first, so lines and dots sit on top of the fill.
    initials = [layout(letter, FontFace.SLAB, 34 * s) for letter in _initials(names)]
    for row, owners in enumerate(game.box_owners()):
        for column, owner in enumerate(owners):
            if owner is None:
                continue
            (left, top), (right, bottom) = at(row, column), at(row + 1, column + 1)
            draw.rectangle((left, top, right, bottom), fill=tint(PLAYER_COLOURS[owner], 0.72))
            draw_line(
                draw,
                ((left + right) / 2, (top + bottom) / 2 + s),
                initials[_seat(owner)],
                tint(PLAYER_COLOURS[owner], 0.2, Palette.INK),
                "mm",
            )

    last = game.last_line
    for line in game.all_lines:
        start, end = (at(*dot) for dot in line.dots)
        owner = game.line_owner(line)
        if owner is None:
            _dashed(draw, start, end, Palette.FAINT, 2 * s, 7 * s)
            continue
        if line == last:
            draw.line((*start, *end), fill=Palette.GOLD, width=15 * s)
        draw.line((*start, *end), fill=PLAYER_COLOURS[owner], width=7 * s)

    dot_radius = 7 * s
    label_font = font(FontFace.SANS_BOLD, 19 * s)
    for row in range(rows + 1):
        x, y = at(row, 0)
        draw_text(draw, (x - 26 * s, y), str(row + 1), label_font, Palette.MUTED, "rm")
        for column in range(columns + 1):
            x, y = at(row, column)
            draw.ellipse(
                (x - dot_radius, y - dot_radius, x + dot_radius, y + dot_radius),
                fill=Palette.INK,
            )
    for column in range(columns + 1):
        x, y = at(0, column)
        letter = dot_name(0, column)[0]
        draw_text(draw, (x, y - 26 * s), letter, label_font, Palette.MUTED, "ms")

    _score_line(draw, game, names, verdict, width, height, locale)
    return downsample(image, (width, height))


def _initials(names: Sequence[str]) -> tuple[str, str]:
    """The letters written in each player's boxes: initials, or 1 and 2 if those are alike."""
    first, second = (initial(name) for name in names[:2])
    return (first, second) if first != second else ("1", "2")


def _dashed(
    draw: ImageDraw.ImageDraw,
    start: tuple[float, float],
    end: tuple[float, float],
    colour: RGB,
    width: int,
    dash: float,
) -> None:
    (x0, y0), (x1, y1) = start, end
    length = max(abs(x1 - x0), abs(y1 - y0))
    steps = max(1, int(length // (2 * dash)))
    for step in range(steps):
        a = (2 * step + 0.5) / (2 * steps)
        b = (2 * step + 1.5) / (2 * steps)
        draw.line(
            (x0 + (x1 - x0) * a, y0 + (y1 - y0) * a, x0 + (x1 - x0) * b, y0 + (y1 - y0) * b),
            fill=colour,
            width=width,
        )


def _score_line(
    draw: ImageDraw.ImageDraw,
    game: DotsGame,
    names: Sequence[str],
    verdict: str,
    width: int,
    height: int,
    locale: LocaleLike,
) -> None:
    s = SUPERSAMPLE
    middle = (height - FOOTER + 20) * s
    half = (width - 2 * MARGIN) / 2
    for seat, player in enumerate((Player.FIRST, Player.SECOND)):
        left = (MARGIN + seat * half) * s
        swatch = 18 * s
        draw.rounded_rectangle(
            (left, middle - swatch / 2, left + swatch, middle + swatch / 2),
            radius=4 * s,
            fill=PLAYER_COLOURS[player],
        )
    for label in footer_labels(game, names, verdict, width, height, locale):
        label.draw(draw)


def footer_labels(
    game: DotsGame,
    names: Sequence[str],
    verdict: str,
    width: int,
    height: int,
    locale: LocaleLike = None,
) -> tuple[Label, Label, Label]:
    """The two players' "name score" labels and the status line, in supersampled pixels.

    A name too long for its half of the footer is cut with an ellipsis, never the score; names
    inside the status line (or ``verdict``) are cut the same way, never its other words.
    """
    s = SUPERSAMPLE
    scores = game.scores
    middle = (height - FOOTER + 20) * s
    half = (width - 2 * MARGIN) / 2
    labels = []
    for seat, player in enumerate((Player.FIRST, Player.SECOND)):
        left = (MARGIN + seat * half) * s
        spans = (Span(names[seat], name=True), Span(" "), Span(str(scores[player])))
        line = fit_line(spans, FontFace.SANS_BOLD, 20 * s, 12 * s, (half - 34) * s)
        labels.append(Label(line, (left + 26 * s, middle), "lm", Palette.INK))
    text = verdict or status_text(game, names, locale)
    colour = Palette.INK
    if game.is_over and game.winner is not None and not verdict:
        colour = PLAYER_COLOURS[game.winner]
    elif not game.is_over and not verdict:
        colour = PLAYER_COLOURS[game.turn]
    line = fit_line(
        name_spans(text, names[:2]), FontFace.SANS_BOLD, 20 * s, 12 * s, (width - 2 * MARGIN) * s
    )
    labels.append(Label(line, (width * s / 2, middle + 30 * s), "mm", colour))
    first, second, status = labels
    return first, second, status


def _box_name(row: int, column: int, locale: LocaleLike) -> str:
    """A box is named by its top-left dot."""
    return message("alt_dots_box", locale, dot=dot_name(row, column))


def dots_alt_text(
    game: DotsGame,
    *,
    game_id: str,
    names: Sequence[str],
    verdict: str = "",
    locale: LocaleLike = None,
) -> str:
    """The alt text of a Dots and Boxes picture: the board's size, the scores, the last line and
    each player's boxes, in ``locale``'s language."""
    rows, columns = game.rows, game.columns
    scores = game.scores
    text = message(
        "alt_dots",
        locale,
        game=game_id,
        rows=rows,
        columns=columns,
        first=dot_name(0, 0),
        last=dot_name(rows, columns),
    )
    score = ", ".join(
        f"{names[seat]} ({message(COLOUR_KEYS[player], locale)}) {scores[player]}"
        for seat, player in enumerate((Player.FIRST, Player.SECOND))
    )
    text += f" {score}. {verdict or status_text(game, names, locale)}."
    last = game.last_line
    if last is not None:
        owner = game.line_owner(last)
        assert owner is not None
        text += message("alt_dots_last", locale, line=last.id, who=names[_seat(owner)])
    for player in (Player.FIRST, Player.SECOND):
        boxes = [
            _box_name(row, column, locale)
            for row, owners in enumerate(game.box_owners())
            for column, owner in enumerate(owners)
            if owner is player
        ]
        if boxes:
            who = names[_seat(player)]
            text += message("alt_dots_boxes", locale, who=who, boxes=", ".join(boxes))
    free: list[Line] = list(game.free_lines())
    if free:
        lines = ", ".join(line.id for line in free)
        text += message("alt_dots_free", locale, count=len(free), lines=lines)
    return limit_alt_text(text)


def render_dots(
    game: DotsGame,
    *,
    game_id: str,
    names: Sequence[str],
    verdict: str = "",
    locale: LocaleLike = None,
) -> Rendered:
    """The board; ``names`` are the first and second player's; ``verdict`` replaces the turn or
    result line (a forfeit or a resignation, which the board cannot show). Words and alt text
    in ``locale``'s language (None: English)."""
    image = dots_image(game, game_id=game_id, names=names, verdict=verdict, locale=locale)
    return Rendered(
        encode_png(image, compress_level=1),
        dots_alt_text(game, game_id=game_id, names=names, verdict=verdict, locale=locale),
        safe_filename("dots", game_id, len(game.drawn_lines())),
    )
