"""The ``/stats`` picture: each game's best players in a server, with their wins and the games
they played, over a period, labelled in the server's language.

One card per game, two to a row; players' names are drawn in any script (``bot.render.text``)
and cut with an ellipsis when long, never their numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.i18n import LocaleLike, message
from bot.render.common import (
    ALT_TEXT_LIMIT,
    RGB,
    FontFace,
    Palette,
    Rendered,
    downsample,
    encode_png,
    limit_alt_text,
    safe_filename,
    tint,
)
from bot.render.text import Label, Span, fit_line

MAX_GAMES = 12  # cards on the picture (the bot hosts five games)
MAX_PLAYERS = 10  # rows on a card

OUTER = 28
BAND = 84
CARD_WIDTH = 520
CARD_GAP = 24
CARD_TITLE = 54
COLUMN_HEADS = 30
ROW = 46
CARD_PAD = 14
CARDS_PER_ROW = 2
MEDAL = 32

# Gold, silver and bronze for the first three places; the rest on a plain disc.
MEDALS: tuple[RGB, ...] = (Palette.GOLD, (196, 200, 206), (205, 127, 50))


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's line: ``wins`` (games won) out of ``played`` finished games."""

    name: str
    wins: int
    played: int


@dataclass(frozen=True, slots=True)
class GameStandings:
    """One game's card: its ``title`` in the server's language, its players best first."""

    title: str
    standings: tuple[Standing, ...]


def _card_height(rows: int) -> int:
    return CARD_TITLE + COLUMN_HEADS + rows * ROW + CARD_PAD


def _medal(place: int) -> Image.Image:
    """A disc with the place on it (RGB on white, to be pasted through its own mask)."""
    s = 3
    size = MEDAL * s
    disc = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(disc)
    colour = MEDALS[place - 1] if place <= len(MEDALS) else Palette.FAINT
    draw.ellipse(
        (0, 0, size - 1, size - 1),
        fill=colour,
        outline=tint(colour, 0.35, Palette.INK),
        width=2 * s,
    )
    number = fit_line(str(place), FontFace.SANS_BOLD, 17 * s, 10 * s, size * 0.8)
    Label(number, (size / 2, size / 2 + s), "mm", Palette.INK).draw(draw)
    return downsample(disc, (MEDAL, MEDAL))


def _draw_card(
    image: Image.Image,
    game: GameStandings,
    origin: tuple[int, int],
    accent: RGB,
    heads: tuple[str, str],
) -> None:
    left, top = origin
    draw = ImageDraw.Draw(image)
    rows = game.standings[:MAX_PLAYERS]
    bottom = top + _card_height(len(rows)) - 1
    right = left + CARD_WIDTH - 1
    draw.rounded_rectangle(
        (left, top, right, bottom), radius=16, fill=Palette.CREAM, outline=accent, width=3
    )
    draw.rounded_rectangle((left, top, right, top + CARD_TITLE), radius=16, fill=accent)
    draw.rectangle((left, top + CARD_TITLE - 16, right, top + CARD_TITLE), fill=accent)
    title = fit_line(game.title, FontFace.SLAB, 30, 18, CARD_WIDTH - 2 * CARD_PAD)
    Label(title, (left + CARD_PAD + 4, top + CARD_TITLE / 2 + 2), "lm", Palette.PAPER).draw(draw)

    # Two number columns on the right: wins, then games played.
    played_x = right - CARD_PAD - 6
    wins_x = played_x - 96
    heads_y = top + CARD_TITLE + COLUMN_HEADS / 2 + 2
    wins_head = fit_line(heads[0], FontFace.SANS_BOLD, 16, 11, 90)
    played_head = fit_line(heads[1], FontFace.SANS_BOLD, 16, 11, 90)
    Label(wins_head, (wins_x, heads_y), "rm", Palette.MUTED).draw(draw)
    Label(played_head, (played_x, heads_y), "rm", Palette.MUTED).draw(draw)

    name_left = left + CARD_PAD + MEDAL + 12
    name_room = wins_x - 64 - name_left  # clear of a three-digit count of wins
    for index, standing in enumerate(rows):
        row_top = top + CARD_TITLE + COLUMN_HEADS + index * ROW
        middle = row_top + ROW / 2
        if index % 2 == 0:
            draw.rectangle(
                (left + 3, row_top, right - 3, row_top + ROW - 1), fill=tint(Palette.CREAM, 0.5)
            )
        medal = _medal(index + 1)
        image.paste(medal, (left + CARD_PAD, round(middle - MEDAL / 2)), medal)
        name = fit_line((Span(standing.name, name=True),), FontFace.SANS_BOLD, 24, 18, name_room)
        Label(name, (name_left, middle + 1), "lm", Palette.INK).draw(draw)
        wins = fit_line(str(standing.wins), FontFace.SANS_BOLD, 26, 14, 80)
        Label(wins, (wins_x, middle + 1), "rm", accent).draw(draw)
        played = fit_line(str(standing.played), FontFace.SANS, 22, 12, 80)
        Label(played, (played_x, middle + 1), "rm", Palette.MUTED).draw(draw)


def leaderboard_image(
    games: Sequence[GameStandings], *, period: str, server: str, locale: LocaleLike = None
) -> Image.Image:
    """The leaderboard as an RGB image (``render_leaderboard`` encodes it)."""
    shown = [game for game in games if game.standings][:MAX_GAMES]
    if not shown:
        raise ValueError("a leaderboard needs at least one game with a player")
    columns = min(CARDS_PER_ROW, len(shown))
    row_count = -(-len(shown) // columns)
    heights = [
        max(
            _card_height(len(game.standings[:MAX_PLAYERS]))
            for game in shown[row * columns : (row + 1) * columns]
        )
        for row in range(row_count)
    ]
    width = 2 * OUTER + columns * CARD_WIDTH + (columns - 1) * CARD_GAP
    height = BAND + OUTER + sum(heights) + (row_count - 1) * CARD_GAP + OUTER
    image = Image.new("RGB", (width, height), Palette.PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width - 1, BAND - 1), fill=Palette.BOARD)
    draw.rectangle((0, 0, width - 1, height - 1), outline=Palette.BOARD, width=6)
    title = fit_line(
        message("stats_picture_title", locale), FontFace.SLAB, 40, 24, width / 2 - OUTER
    )
    Label(title, (OUTER, BAND / 2 + 2), "lm", Palette.GOLD).draw(draw)
    room = width - 2 * OUTER - title.width - 28
    right = width - OUTER
    server_line = fit_line((Span(server, name=True),), FontFace.SANS_BOLD, 26, 15, room)
    Label(server_line, (right, BAND / 2 - 12), "rm", Palette.CREAM).draw(draw)
    period_line = fit_line(period[:1].upper() + period[1:], FontFace.SANS, 21, 13, room)
    Label(period_line, (right, BAND / 2 + 18), "rm", Palette.GOLD_LIGHT).draw(draw)

    heads = (message("stats_picture_wins", locale), message("stats_picture_played", locale))
    top = BAND + OUTER
    for row in range(row_count):
        in_row = shown[row * columns : (row + 1) * columns]
        # A short last row is centred under the others.
        indent = (columns - len(in_row)) * (CARD_WIDTH + CARD_GAP) // 2
        for column, game in enumerate(in_row):
            index = row * columns + column
            accent = Palette.FRAMES[index % len(Palette.FRAMES)]
            left = OUTER + indent + column * (CARD_WIDTH + CARD_GAP)
            _draw_card(image, game, (left, top), accent, heads)
        top += heights[row] + CARD_GAP
    return image


def leaderboard_alt_text(
    games: Sequence[GameStandings], *, period: str, server: str, locale: LocaleLike = None
) -> str:
    """Every card in words: in full, or shorter when the full text passes Discord's limit."""
    shown = [game for game in games if game.standings][:MAX_GAMES]
    texts = []
    for short in (False, True):
        parts = [
            message(
                "stats_alt_head_short" if short else "stats_alt_head",
                locale,
                server=server,
                period=period,
            )
        ]
        for game in shown:
            lines = [
                message(
                    "stats_alt_line_short",
                    locale,
                    place=place,
                    name=s.name,
                    wins=s.wins,
                    played=s.played,
                )
                if short
                else message(
                    "stats_alt_line",
                    locale,
                    place=place,
                    name=s.name,
                    wins=message("stats_wins", locale, count=s.wins),
                    games=message("stats_games", locale, count=s.played),
                )
                for place, s in enumerate(game.standings[:MAX_PLAYERS], start=1)
            ]
            parts.append(f"{game.title}: " + "; ".join(lines) + ".")
        texts.append(" ".join(parts))
    return limit_alt_text(texts[0] if len(texts[0]) <= ALT_TEXT_LIMIT else texts[1])


def render_leaderboard(
    games: Sequence[GameStandings], *, period: str, server: str, locale: LocaleLike = None
) -> Rendered:
    """The leaderboard of ``server`` over ``period`` (both as the players read them): a card per
    game with players (in the order given), each player's place, name, wins and games played."""
    image = leaderboard_image(games, period=period, server=server, locale=locale)
    alt = leaderboard_alt_text(games, period=period, server=server, locale=locale)
    return Rendered(encode_png(image), alt, safe_filename("leaderboard"))


def samples(titles: Sequence[str]) -> list[tuple[str, Rendered]]:
    """A server's leaderboard of the last 7 days, a card for each game of ``titles`` (the
    games found, as ``/stats`` lists them), names in several scripts."""
    names = ("Alice", "محمد عبد الله", "李小龍", "Maximiliano Alessandro Fernández", "Zoë ✨")
    games = [
        GameStandings(
            title,
            tuple(
                Standing(
                    names[(index + place) % len(names)], 10 - 2 * place - index % 3, 12 - place
                )
                for place in range(5 - index % 3)
            ),
        )
        for index, title in enumerate(titles)
    ]
    period = message("stats_period_week", None)
    return [("leaderboard.png", render_leaderboard(games, period=period, server="Game Night"))]
