import pytest
from PIL import ImageChops

from bot.render.common import Palette, tint
from bot.render.dots import (
    FOOTER,
    PLAYER_COLOURS,
    SUPERSAMPLE,
    dot_centre,
    footer_labels,
    image_size,
    render_dots,
)
from bot.render.text import Span
from engine.dots import DotsGame, Player
from tests.bot.render.conftest import open_checked
from tests.bot.render.test_text import SAMPLE_NAMES, ZALGO


def near(actual, expected, tolerance=12) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(actual, expected, strict=True))


def midpoint(game: DotsGame, line) -> tuple[int, int]:
    (a, b) = line.dots
    (x0, y0), (x1, y1) = (
        dot_centre(game.rows, game.columns, *a),
        dot_centre(game.rows, game.columns, *b),
    )
    return round((x0 + x1) / 2), round((y0 + y1) / 2)


def test_lines_take_their_players_colour_and_boxes_their_owners():
    game = DotsGame(2, 2)
    # First draws the four sides of box A1 while second draws elsewhere; first closes the box
    # with A2-B2 and is to move again.
    for text in ("A1-B1", "C1-C2", "A1-A2", "C2-C3", "B1-B2", "A3-B3", "A2-B2"):
        game.play(text)
    assert game.box_owner(0, 0) is Player.FIRST
    rendered = render_dots(game, game_id="5", names=("Ann", "Bob"))
    image = open_checked(rendered)
    assert image.size == image_size(2, 2)
    for line, owner in game.drawn_lines():
        colour = image.getpixel(midpoint(game, line))
        if line == game.last_line:
            continue  # drawn over its gold halo: checked below
        assert near(colour, PLAYER_COLOURS[owner]), line.id
    last = game.last_line
    assert near(image.getpixel(midpoint(game, last)), PLAYER_COLOURS[Player.FIRST])
    for line in game.free_lines():
        assert not any(
            near(image.getpixel(midpoint(game, line)), colour) for colour in PLAYER_COLOURS.values()
        ), line.id
    # The owned box is tinted in the owner's colour, away from its initial; the others not.
    (x0, y0), (x1, y1) = dot_centre(2, 2, 0, 0), dot_centre(2, 2, 1, 1)
    inside = (round(x0 + (x1 - x0) * 0.2), round(y0 + (y1 - y0) * 0.2))
    assert near(image.getpixel(inside), tint(PLAYER_COLOURS[Player.FIRST], 0.72))
    (x0, y0) = dot_centre(2, 2, 1, 1)
    assert near(image.getpixel((round(x0 + 17), round(y0 + 17))), Palette.PAPER)
    assert rendered.alt_text.startswith(
        "Dots and Boxes game 5, 2x2 boxes, dots A1 to C3. Ann (red) 1, Bob (blue) 0. Ann to move."
    )
    assert "Last line: A2-B2 by Ann. Ann's boxes: box A1." in rendered.alt_text
    assert f"Free lines ({len(game.free_lines())})" in rendered.alt_text
    assert rendered.filename == "dots-5-7.png"


@pytest.mark.parametrize(("rows", "columns"), [(2, 2), (2, 5), (5, 2), (3, 3), (5, 5)])
def test_every_board_size_fits_and_finishes(rows, columns):
    game = DotsGame(rows, columns)
    while not game.is_over:
        game.play(game.free_lines()[-1])
    rendered = render_dots(game, game_id="9", names=("Ann", "Anna"))
    image = open_checked(rendered)
    assert image.size == image_size(rows, columns)
    first, second = game.scores[Player.FIRST], game.scores[Player.SECOND]
    verdict = "A draw" if first == second else ("Ann wins" if first > second else "Anna wins")
    assert f"Ann (red) {first}, Anna (blue) {second}. {verdict}." in rendered.alt_text
    assert "Free lines" not in rendered.alt_text
    assert len(rendered.alt_text) <= 1024


def test_a_verdict_replaces_the_status_and_lines_sit_where_their_names_say():
    game = DotsGame(3, 3)
    game.play("D3-D4")  # the right edge of the bottom-right box
    rendered = render_dots(game, game_id="1", names=("Ann", "Bob"), verdict="Bob resigned")
    image = open_checked(rendered)
    assert "Bob resigned." in rendered.alt_text
    assert "to move" not in rendered.alt_text
    (x, top), (_, bottom) = dot_centre(3, 3, 2, 3), dot_centre(3, 3, 3, 3)
    assert near(image.getpixel((round(x), round((top + bottom) / 2))), PLAYER_COLOURS[Player.FIRST])
    (x, top), (_, bottom) = dot_centre(3, 3, 2, 0), dot_centre(3, 3, 3, 0)  # A3-A4: free
    assert not near(
        image.getpixel((round(x), round((top + bottom) / 2))), PLAYER_COLOURS[Player.FIRST]
    )
    assert render_dots(game, game_id="1", names=("Ann", "Bob"), verdict="Bob resigned") == rendered


LONG_NAMES = ("Maximiliano Alessandro Fernández", "Wolfgang Amadeus Mozart-Salzburg")  # 32 each


def footer_of(rendered, game: DotsGame):
    image = open_checked(rendered)
    _, height = image_size(game.rows, game.columns)
    return image.crop((0, height - FOOTER, image.width, height))


def changed_box(before, after):
    """Where two pictures differ by more than their palettes' rounding (each PNG has its own)."""
    difference = ImageChops.difference(before, after).convert("L")
    return difference.point(lambda value: 255 if value > 48 else 0).getbbox()


def scored_game() -> DotsGame:
    """Red has closed box A1 and is to move again: 1-0, the same turn as at the start."""
    game = DotsGame(2, 2)
    for text in ("A1-B1", "C1-C2", "A1-A2", "C2-C3", "B1-B2", "A3-B3", "A2-B2"):
        game.play(text)
    return game


@pytest.mark.parametrize(
    "names",
    [
        LONG_NAMES,
        ("王小明 たなか ゆうき 김민준 이서연 박지훈", "محمد بن عبد الرحمن بن عبد العزيز القرشي"),
    ],
)
def test_a_long_name_never_hides_the_score(names):
    start, scored = DotsGame(2, 2), scored_game()
    assert start.turn == scored.turn
    before = footer_of(render_dots(start, game_id="1", names=names), start)
    after = footer_of(render_dots(scored, game_id="1", names=names), scored)
    changed = changed_box(before, after)
    assert changed is not None  # the score is drawn, so 0 -> 1 shows
    assert changed[2] <= before.width / 2  # and only red's label changed


def test_the_words_after_names_in_a_verdict_are_drawn():
    game = DotsGame(2, 2)
    loser, winner = LONG_NAMES
    whole = render_dots(
        game, game_id="1", names=LONG_NAMES, verdict=f"{loser} resigned: {winner} wins"
    )
    cut = render_dots(game, game_id="1", names=LONG_NAMES, verdict=f"{loser} resigned: {winner}")
    assert changed_box(footer_of(whole, game), footer_of(cut, game)) is not None


@pytest.mark.parametrize("names", [LONG_NAMES, *SAMPLE_NAMES.values(), (LONG_NAMES[0], ZALGO)])
def test_names_scores_and_status_stay_inside_the_picture_apart(names):
    game = scored_game()
    width, height = image_size(game.rows, game.columns)
    s = SUPERSAMPLE
    loser, winner = names
    for verdict in ("", f"{loser} ran out of time: {winner} wins"):
        first, second, status = footer_labels(game, names, verdict, width, height)
        for label in (first, second):
            name_box, score_box = label.box(span=0), label.box(span=2)
            assert name_box is not None
            assert score_box is not None
            assert name_box[2] <= score_box[0]  # the score is right of the name, apart
            assert name_box[0] >= 0
            assert score_box[2] <= width * s
            assert label.line.spans[2].text.isdigit()  # never cut
        assert first.box()[2] < second.box()[0]  # the two players' labels do not meet
        box = status.box()
        assert box[0] >= 0
        assert box[2] <= width * s
        assert box[3] <= height * s
        assert first.box()[3] <= box[1] + 6 * s  # the status line sits below the scores
        if verdict:
            assert status.line.spans[-1] == Span(" wins")
            assert status.line.spans[1] == Span(" ran out of time: ")


@pytest.mark.parametrize(
    "pair",
    [("王小明", "李小龍"), ("👍🏽 thumbs", "🐉 dragon"), ("محمد", "أحمد"), ("Ωμέγα", "Σοφία")],
)
def test_initials_are_drawn_in_any_script(pair):
    """Each box shows its owner's first letter (missing glyphs would all be the same box)."""
    game = scored_game()
    (x0, y0), (x1, y1) = dot_centre(2, 2, 0, 0), dot_centre(2, 2, 1, 1)
    box = (round(x0) + 8, round(y0) + 8, round(x1) - 8, round(y1) - 8)
    first, second = (
        open_checked(render_dots(game, game_id="1", names=(name, "Bob"))).crop(box) for name in pair
    )
    assert changed_box(first, second) is not None
