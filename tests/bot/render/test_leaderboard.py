"""The /stats picture: a card per game with each player's place, name, wins and games played,
labelled and described in English and Spanish."""

import pytest

from bot.i18n import message
from bot.render.common import FontFace, Palette, missing_glyphs
from bot.render.leaderboard import (
    BAND,
    CARD_GAP,
    CARD_PAD,
    CARD_TITLE,
    CARD_WIDTH,
    COLUMN_HEADS,
    MAX_PLAYERS,
    MEDAL,
    MEDALS,
    OUTER,
    ROW,
    GameStandings,
    Standing,
    leaderboard_alt_text,
    render_leaderboard,
)
from tests.bot.render.conftest import open_checked

NAMES = (
    "Alice",
    "محمد عبد الله",
    "李小龍",
    "Zoë the Extraordinarily Long Display Name",
    "𝓐𝓵𝓲𝓬𝓮 ✨🎉",
    "नमस्ते दोस्त",
    "שלום",
    "Ωmega",
    "Bob",
    "Carmen",
)


def game(title: str, players: int, first: int = 0) -> GameStandings:
    return GameStandings(
        title,
        tuple(
            Standing(NAMES[(first + i) % len(NAMES)], wins=players - i + 1, played=2 * players - i)
            for i in range(players)
        ),
    )


def near(actual: tuple[int, int, int], expected: tuple[int, int, int], step: int = 12) -> bool:
    return all(abs(a - b) <= step for a, b in zip(actual, expected, strict=True))


@pytest.mark.parametrize(
    ("locale", "head", "line"),
    [
        (
            None,
            "Leaderboard of Game Night, the last 7 days: wins and games played.",
            "{place}. {name}, {wins} wins in {played} games",
        ),
        (
            "es-ES",
            "Clasificación de Game Night, los últimos 7 días: victorias y partidas jugadas.",
            "{place}. {name}, {wins} victorias en {played} partidas",
        ),
    ],
)
def test_alt_text_reads_every_card_in_the_servers_language(locale, head, line):
    period = message("stats_period_week", locale)
    games = [game("Lotería", 3), game("Housie", 2, first=5)]
    rendered = render_leaderboard(games, period=period, server="Game Night", locale=locale)
    open_checked(rendered)
    alt = rendered.alt_text
    assert alt.startswith(head)
    for card in games:
        lines = [
            line.format(place=place, name=s.name, wins=s.wins, played=s.played)
            for place, s in enumerate(card.standings, start=1)
        ]
        assert f"{card.title}: " + "; ".join(lines) + "." in alt
    assert rendered.filename == "leaderboard.png"


def test_one_win_in_one_game_is_singular():
    card = GameStandings("Dots and Boxes", (Standing("Ann", 1, 1), Standing("Bo", 0, 1)))
    alt = leaderboard_alt_text([card], period="all time", server="S")
    assert "1. Ann, 1 win in 1 game; 2. Bo, 0 wins in 1 game." in alt
    spanish = leaderboard_alt_text([card], period="todos los tiempos", server="S", locale="es")
    assert "1. Ann, 1 victoria en 1 partida; 2. Bo, 0 victorias en 1 partida." in spanish


def test_a_crowded_board_keeps_every_name_in_a_shorter_alt_text():
    games = [game(f"Game {index}", MAX_PLAYERS, first=index) for index in range(5)]
    rendered = render_leaderboard(games, period="all time", server="A server", locale=None)
    image = open_checked(rendered)
    assert image.width == 2 * OUTER + 2 * CARD_WIDTH + CARD_GAP  # two cards to a row
    assert "wins out of games played" in rendered.alt_text
    assert f"1. {NAMES[0]} {MAX_PLAYERS + 1} of {2 * MAX_PLAYERS}" in rendered.alt_text


def test_the_medals_are_gold_silver_bronze_then_plain():
    rendered = render_leaderboard([game("Lotería", 5)], period="all time", server="S")
    image = open_checked(rendered)
    assert image.width == 2 * OUTER + CARD_WIDTH  # one game: one card
    for index in range(5):
        middle = BAND + OUTER + CARD_TITLE + COLUMN_HEADS + index * ROW + ROW // 2
        # Just inside the disc's left edge, clear of the number.
        pixel = image.getpixel((OUTER + CARD_PAD + MEDAL // 4, middle))
        expected = MEDALS[index] if index < len(MEDALS) else Palette.FAINT
        assert near(pixel, expected), (index, pixel)


def test_the_same_leaderboard_gives_the_same_bytes():
    games = [game("Lotería", 4), game("Tic-tac-toe", 2)]
    first = render_leaderboard(games, period="all time", server="S", locale="es")
    assert first == render_leaderboard(games, period="all time", server="S", locale="es")


def test_a_leaderboard_needs_a_player():
    with pytest.raises(ValueError, match="at least one"):
        render_leaderboard([GameStandings("Lotería", ())], period="all time", server="S")


def test_every_label_has_its_glyphs():
    for locale in (None, "es-ES"):
        for key, face in (
            ("stats_picture_title", FontFace.SLAB),
            ("stats_picture_wins", FontFace.SANS_BOLD),
            ("stats_picture_played", FontFace.SANS_BOLD),
            ("stats_period_month", FontFace.SANS),
        ):
            assert missing_glyphs(face, message(key, locale)) == [], (key, locale)
