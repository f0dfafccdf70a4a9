import pytest
from PIL import ImageChops

from bot.call_names import nickname
from bot.render import housie
from bot.render.common import (
    FixedPalette,
    FontFace,
    Palette,
    missing_glyphs,
    palette_of,
    text_width,
)
from bot.render.housie import (
    BALL,
    BALL_GAP,
    BOARD_COLUMNS,
    BOARD_HEADER,
    BOARD_MARGIN,
    CELL,
    render_caller_board,
    render_housie_call,
    render_ticket,
    ticket_image,
)
from engine.housie import Prize, Ticket, check_prize, encode_ticket_code, ticket_for_seat
from tests.bot.render.conftest import open_checked

# Three numbers in the last column (80, 86, 90), and 1 and 90 both present.
EDGE_TICKET = Ticket(
    (
        (1, 0, 23, 0, 45, 0, 61, 0, 80),
        (0, 12, 0, 37, 0, 52, 0, 74, 86),
        (4, 0, 28, 39, 0, 0, 66, 0, 90),
    )
)
LONGEST_CODE = encode_ticket_code(EDGE_TICKET, 2**63, bytes(32))
EVERY_NUMBER = list(range(1, 91))


def near(actual: tuple[int, int, int], expected: tuple[int, int, int]) -> bool:
    """Within the few steps that 256-colour quantisation moves a flat colour."""
    return all(abs(a - b) <= 8 for a, b in zip(actual, expected, strict=True))


def cell_box(row: int, column: int) -> tuple[int, int, int, int]:
    left = housie.MARGIN + column * CELL
    top = housie.BAND + row * CELL
    return (left + 4, top + 4, left + CELL - 4, top + CELL - 4)


def cell_centre(row: int, column: int) -> tuple[int, int]:
    left, top, right, bottom = cell_box(row, column)
    return ((left + right) // 2, (top + bottom) // 2)


def test_plain_ticket_reads_its_rows_in_alt_text():
    rendered = render_ticket(EDGE_TICKET, game_id="H9", code="ABC")
    image = open_checked(rendered)
    assert image.size == (housie.TICKET_WIDTH, housie.TICKET_HEIGHT)
    assert rendered.alt_text == (
        "Housie ticket (code ABC), game H9. Row 1: 1, 23, 45, 61, 80; row 2: 12, 37, 52, 74, 86; "
        "row 3: 4, 28, 39, 66, 90."
    )
    assert rendered.filename == "ticket-H9-ABC.png"


def test_called_numbers_are_dabbed_and_only_those():
    called = [1, 86, 90, 50]  # 50 is not on the ticket
    plain = ticket_image(EDGE_TICKET, game_id="H", code="C")
    marked = ticket_image(EDGE_TICKET, game_id="H", code="C", called=called)
    dabbed = {(0, 0), (1, 8), (2, 8)}
    for row in range(3):
        for column in range(9):
            same = (
                ImageChops.difference(
                    plain.crop(cell_box(row, column)), marked.crop(cell_box(row, column))
                ).getbbox()
                is None
            )
            assert same == ((row, column) not in dabbed), (row, column)
    rendered = render_ticket(EDGE_TICKET, game_id="H", code="C", called=called)
    open_checked(rendered)
    assert rendered.alt_text.endswith("Marked 3 of 15: 1, 86, 90.")


def test_a_winning_prize_is_on_gold():
    called = [1, 23, 45, 61, 80, 12]
    check = check_prize(EDGE_TICKET, called, Prize.TOP_LINE)
    assert check.valid
    image = ticket_image(
        EDGE_TICKET,
        game_id="H",
        code="C",
        called=called,
        winning=check.numbers,
        prize=Prize.TOP_LINE,
    )
    corner = (cell_box(0, 0)[0] + 10, cell_box(0, 0)[1] + 10)
    assert near(image.getpixel(corner), Palette.GOLD_LIGHT)
    twelve = cell_box(1, 1)
    assert near(image.getpixel((twelve[0] + 10, twelve[1] + 10)), Palette.PAPER)
    rendered = render_ticket(
        EDGE_TICKET,
        game_id="H",
        code="C",
        called=called,
        winning=check.numbers,
        prize=Prize.TOP_LINE,
    )
    open_checked(rendered)
    assert rendered.alt_text.endswith("Winning Top Line: 1, 23, 45, 61, 80.")


def test_full_house_with_every_number_called_and_the_longest_code():
    rendered = render_ticket(
        EDGE_TICKET,
        game_id="9" * 20,
        code=LONGEST_CODE,
        called=EVERY_NUMBER,
        winning=EDGE_TICKET.numbers,
        prize=Prize.THIRD_HOUSE,
    )
    image = open_checked(rendered)
    assert image.size == (housie.TICKET_WIDTH, housie.TICKET_HEIGHT)
    assert LONGEST_CODE in rendered.alt_text


def test_ticket_output_is_deterministic():
    ticket = ticket_for_seat(bytes(32), 5)
    first = render_ticket(ticket, game_id="H", code="C", called=[3, 33, 63])
    assert render_ticket(ticket, game_id="H", code="C", called=(3, 33, 63)) == first
    # Building the palette again gives the same palette, so another process gives the same bytes.
    rebuilt = FixedPalette(palette_of(housie._ticket_samples()))
    assert rebuilt.colours == housie.ticket_palette().colours


def ball_centre(number: int) -> tuple[int, int]:
    row, column = divmod(number - 1, BOARD_COLUMNS)
    left = BOARD_MARGIN + column * (BALL + BALL_GAP)
    top = BOARD_HEADER + row * (BALL + BALL_GAP)
    return (left + BALL // 2, top + 6)  # inside the disc, above the digits


@pytest.mark.parametrize("called", [[], [90], [5, 17, 90, 1], EVERY_NUMBER])
def test_caller_board_lights_called_numbers_and_the_latest_in_gold(called):
    rendered = render_caller_board(called)
    image = open_checked(rendered)
    latest = called[-1] if called else None
    for number in range(1, 91):
        expected = (
            Palette.GOLD
            if number == latest
            else Palette.TEAL
            if number in called
            else Palette.PAPER
        )
        assert near(image.getpixel(ball_centre(number)), expected), number


def test_caller_board_alt_text_stays_short():
    assert render_caller_board([]).alt_text == "Housie caller's board: no numbers called yet."
    assert render_caller_board([7, 3]).alt_text == (
        "Housie caller's board: 2 of 90 called, latest 3. Called: 3, 7."
    )
    late = render_caller_board([n for n in EVERY_NUMBER if n != 42])
    assert late.alt_text.endswith("Not yet called: 42.")
    assert render_caller_board(EVERY_NUMBER).alt_text.endswith("Every number has been called.")


def test_caller_board_rejects_bad_calls():
    with pytest.raises(ValueError, match=r"outside 1\.\.90"):
        render_caller_board([0])
    with pytest.raises(ValueError, match="twice"):
        render_caller_board([5, 5])


def test_caller_board_is_deterministic():
    assert render_caller_board([4, 8, 15, 16, 23, 42]) == render_caller_board(
        (4, 8, 15, 16, 23, 42)
    )


# ------------------------------------------------------------------------------ call picture


def call_ball_centre() -> tuple[int, int]:
    top = housie.CALL_BAND + 20
    return (housie.CALL_MARGIN + housie.CALL_BALL // 2, top + housie.CALL_BALL - 30)


def earlier_ball_centre(slot: int) -> tuple[int, int]:
    top = housie.CALL_BAND + 20 + housie.CALL_BALL - BALL
    return (housie.CALL_COLUMN + slot * (BALL + BALL_GAP) + BALL // 2, top + 6)


def test_a_call_shows_the_ball_its_nickname_and_the_five_calls_before_it():
    recent = [5, 17, 90, 1, 33, 61]
    rendered = render_housie_call(22, recent=recent, call_number=7, nickname="Two little ducks")
    image = open_checked(rendered)
    assert image.size == (housie.CALL_WIDTH, housie.CALL_HEIGHT)
    assert near(image.getpixel(call_ball_centre()), Palette.GOLD)
    for slot in range(housie.RECENT_SHOWN):
        assert near(image.getpixel(earlier_ball_centre(slot)), Palette.TEAL), slot
    assert rendered.alt_text == (
        "Housie call 7 of 90: number 22, “Two little ducks”. Before it: 61, 33, 1, 90, 17."
    )
    assert rendered.filename == "housie-call-7-22.png"
    assert len(rendered.png) < 30 * 1024  # a small picture, like the Lotería call


def test_the_first_call_has_empty_slots_and_no_nickname_leaves_the_column_plain():
    rendered = render_housie_call(90, recent=[], call_number=1)
    image = open_checked(rendered)
    assert rendered.alt_text == "Housie call 1 of 90: number 90."
    named = housie.housie_call_image(90, recent=[], call_number=1, nickname="Top of the pile")
    assert ImageChops.difference(image, named.convert("RGB")).getbbox() is not None
    # Without a nickname the row is centred beside the ball: its slots are empty rings.
    top = housie.CALL_BAND + 20 + (housie.CALL_BALL - BALL) // 2 + 14
    for slot in range(housie.RECENT_SHOWN):
        centre = (housie.CALL_COLUMN + slot * (BALL + BALL_GAP) + BALL // 2, top + BALL // 2)
        assert near(image.getpixel(centre), Palette.PAPER), slot


def test_the_current_number_in_recent_is_ignored_as_on_the_loteria_call():
    with_current = render_housie_call(8, recent=[3, 4, 8], call_number=3, nickname="x")
    without = render_housie_call(8, recent=[3, 4], call_number=3, nickname="x")
    assert with_current == without
    assert with_current.alt_text.endswith("Before it: 4, 3.")


@pytest.mark.parametrize(
    ("number", "recent", "call_number", "error"),
    [
        (0, [], 1, r"outside 1\.\.90"),
        (91, [], 1, r"outside 1\.\.90"),
        (5, [7, 7], 3, "twice"),
        (5, [1, 2, 3], 3, r"call number 3 is outside 4\.\.90"),
        (5, [], 91, "call number 91"),
    ],
)
def test_a_call_rejects_impossible_values(number, recent, call_number, error):
    with pytest.raises(ValueError, match=error):
        render_housie_call(number, recent=recent, call_number=call_number)


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
def test_every_nickname_fits_its_column_uncut(locale):
    for number in EVERY_NUMBER:
        text = nickname(number, locale)
        lines, face = housie._nickname_lines(text)
        assert 1 <= len(lines) <= housie.NICKNAME_LINES, text
        assert " ".join(lines) == text  # nothing cut away
        assert face.size >= housie.NICKNAME_SMALLEST + 6, text
        assert all(text_width(line, face) <= housie.CALL_COLUMN_WIDTH for line in lines)
        assert missing_glyphs(FontFace.SLAB, text) == [], text


def test_a_long_nickname_goes_on_two_balanced_lines_and_an_endless_one_is_cut():
    lines, face = housie._nickname_lines("Cincuenta y siete, ¡ramillete!")
    assert lines == ("Cincuenta y siete,", "¡ramillete!")
    assert face.size == housie.NICKNAME_TWO_LINES
    endless, face = housie._nickname_lines(" ".join(["bingo"] * 40))
    assert len(endless) == 2
    assert endless[-1].endswith("…")
    assert face.size == housie.NICKNAME_SMALLEST
    open_checked(render_housie_call(1, recent=[], call_number=1, nickname="bingo " * 300))


def test_the_call_picture_is_deterministic():
    def render():
        return render_housie_call(45, recent=[1, 2, 3], call_number=4, nickname="Halfway home")

    first = render()
    housie._CALL_BALLS.clear()  # the ball drawn afresh gives the same bytes
    assert render() == first
