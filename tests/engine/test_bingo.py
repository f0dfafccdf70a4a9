"""75-ball Bingo's engine: cards, the deal, the pattern book against brute force, claims, the game."""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest

from engine.bingo import (
    CARD_ARRANGEMENTS,
    MAX_CARDS,
    PATTERN_BOOK,
    BingoGame,
    Card,
    CardDealer,
    ClaimReason,
    Pattern,
    call_name,
    cards_at,
    check_claim,
    deal_cards,
    missing,
    pattern_named,
)
from engine.errors import GameError
from engine.fairness import draw_order

SEED = bytes(range(32))
OTHER_SEED = bytes(range(1, 33))
CENTRE = (2, 2)

# ------------------------------------------------------------------ the test's own pattern book
# Each built-in as literal 5x5 drawings, with how its placements are made; placements are sets of
# (row, column) computed here, independently of the engine's masks.

Cells = frozenset[tuple[int, int]]


def drawn(*rows: str) -> Cells:
    assert len(rows) == 5
    assert all(len(row) == 5 for row in rows)
    return frozenset(
        (r, c) for r, row in enumerate(rows) for c, mark in enumerate(row) if mark == "X"
    )


def turned(cells: Cells) -> Cells:
    """A quarter turn clockwise: the top row becomes the right column."""
    return frozenset((c, 4 - r) for r, c in cells)


def moved_anywhere(cells: Cells) -> set[Cells]:
    found = set()
    for dr in range(-4, 5):
        for dc in range(-4, 5):
            shifted = frozenset((r + dr, c + dc) for r, c in cells)
            if all(0 <= r < 5 and 0 <= c < 5 for r, c in shifted):
                found.add(shifted)
    return found


def every_turn(cells: Cells) -> set[Cells]:
    turns = [cells]
    for _ in range(3):
        turns.append(turned(turns[-1]))
    return set(turns)


ROWS = [frozenset((r, c) for c in range(5)) for r in range(5)]
COLUMNS = [frozenset((r, c) for r in range(5)) for c in range(5)]
DIAGONALS = [frozenset((i, i) for i in range(5)), frozenset((i, 4 - i) for i in range(5))]
STAMP = drawn("XX...", "XX...", ".....", ".....", ".....")
T = drawn("XXXXX", "..X..", "..X..", "..X..", "..X..")
L = drawn("X....", "X....", "X....", "X....", "XXXXX")
H = drawn("X...X", "X...X", "XXXXX", "X...X", "X...X")

EXPECTED: dict[str, set[Cells]] = {
    "line": set(ROWS + COLUMNS + DIAGONALS),
    "corners": {drawn("X...X", ".....", ".....", ".....", "X...X")},
    "x": {drawn("X...X", ".X.X.", "..X..", ".X.X.", "X...X")},
    "plus": {drawn("..X..", "..X..", "XXXXX", "..X..", "..X..")},
    "stamp": {
        STAMP,
        drawn("...XX", "...XX", ".....", ".....", "....."),
        drawn(".....", ".....", ".....", "XX...", "XX..."),
        drawn(".....", ".....", ".....", "...XX", "...XX"),
    },
    "any_stamp": moved_anywhere(STAMP),
    "small_diamond": {drawn(".....", "..X..", ".XXX.", "..X..", ".....")},
    "large_diamond": {drawn("..X..", ".X.X.", "X...X", ".X.X.", "..X..")},
    "frame": {drawn("XXXXX", "X...X", "X...X", "X...X", "XXXXX")},
    "inner_frame": {drawn(".....", ".XXX.", ".X.X.", ".XXX.", ".....")},
    "letter_t": {T},
    "any_t": every_turn(T),
    "letter_l": {L},
    "any_l": every_turn(L),
    "letter_h": {H},
    "any_h": every_turn(H),
    "blackout": {frozenset((r, c) for r in range(5) for c in range(5))},
}


def cells_of(mask: int) -> Cells:
    return frozenset(divmod(cell, 5) for cell in range(25) if mask >> cell & 1)


def test_the_book_is_exactly_the_expected_patterns():
    assert set(PATTERN_BOOK) == set(EXPECTED)
    assert BingoGame.every_prize_code == tuple(PATTERN_BOOK)


@pytest.mark.parametrize("code", sorted(EXPECTED))
def test_each_pattern_has_exactly_its_placements_without_repeats(code: str):
    pattern = pattern_named(code)
    assert pattern.code == code
    assert pattern.name
    assert len(pattern.masks) == len(set(pattern.masks))
    assert {cells_of(mask) for mask in pattern.masks} == EXPECTED[code]


def test_placement_counts_are_the_usual_ones():
    counts = {code: len(pattern.masks) for code, pattern in PATTERN_BOOK.items()}
    assert counts["line"] == 12
    assert counts["stamp"] == 4
    assert counts["any_stamp"] == 16
    assert counts["any_t"] == 4
    assert counts["any_h"] == 2  # H turned twice is H again
    assert counts["blackout"] == 1


def test_rotations_and_translations_of_a_custom_drawing_match_the_test_side():
    drawing = drawn("X....", "XX...", ".....", ".....", ".....")  # a small L
    cells = [r * 5 + c for r, c in drawing]
    assert {cells_of(m) for m in Pattern.from_cells("a", "A", cells).masks} == {drawing}
    turns = Pattern.from_cells("a", "A", cells, rotations=True)
    assert {cells_of(m) for m in turns.masks} == every_turn(drawing)
    assert len(turns.masks) == 4
    anywhere = Pattern.from_cells("a", "A", cells, anywhere=True)
    assert {cells_of(m) for m in anywhere.masks} == moved_anywhere(drawing)
    both = Pattern.from_cells("a", "A", cells, rotations=True, anywhere=True)
    expected = set().union(*(moved_anywhere(t) for t in every_turn(drawing)))
    assert {cells_of(m) for m in both.masks} == expected
    assert len(both.masks) == len(expected) == 64
    assert list(both.masks) == sorted(set(both.masks))


# ------------------------------------------------------------------------ claims, brute force


def brute_force(card: Card, code: str, called: list[int]) -> tuple[set[Cells], set[Cells], int]:
    """(complete placements, those using the last call, fewest numbers missing) by sets."""
    where = {card.numbers[r * 5 + c]: (r, c) for r in range(5) for c in range(5)}
    marked = {CENTRE} | {where[n] for n in called if n in where}
    complete = {p for p in EXPECTED[code] if p <= marked}
    last = where.get(called[-1]) if called else None
    with_last = {p for p in complete if last in p}
    fewest = min(len(p - marked) for p in EXPECTED[code])
    return complete, with_last, fewest


@pytest.mark.parametrize("code", sorted(EXPECTED))
def test_check_claim_and_missing_agree_with_brute_force(code: str):
    pattern = pattern_named(code)
    rng = random.Random(f"bingo-{code}")
    cards = cards_at(SEED, 0, 40)
    wins = slept = 0
    for card in cards:
        order = list(range(1, 76))
        rng.shuffle(order)
        for length in sorted(rng.sample(range(76), 6)):
            called = order[:length]
            complete, with_last, fewest = brute_force(card, code, called)
            result = check_claim(card, called, pattern)
            assert result.valid == bool(complete)
            assert missing(card, pattern, called) == fewest
            assert (fewest == 0) == bool(complete)
            strict = check_claim(card, called, pattern, require_last=True)
            assert strict.valid == bool(with_last)
            if result.valid:
                wins += 1
                assert cells_of(result.cells) in complete
                assert result.reason == pattern.name
                assert result.code == ""
                if with_last:
                    assert cells_of(result.cells) in with_last
                    assert cells_of(strict.cells) in with_last
                else:
                    slept += 1
                    assert strict.code == ClaimReason.SLEPT
                    assert strict.values == {"call": call_name(called[-1]), "number": called[-1]}
                    assert call_name(called[-1]) in strict.reason
            elif called:
                assert result.code == ClaimReason.NOT_COMPLETE
                assert result.values == {"pattern": code, "name": pattern.name}
                assert result.cells == 0
            else:
                assert result.code == ClaimReason.NOTHING_CALLED
    assert wins > 0  # the sample reaches complete cards for every pattern


def test_marks_set_the_free_centre_and_the_called_cells():
    card = cards_at(SEED, 0)[0]
    assert card.marks([]) == 1 << 12
    picked = [card.numbers[0], card.numbers[24]]
    assert card.marks(picked) == (1 << 12) | 1 | (1 << 24)
    off_card = next(n for n in range(1, 76) if n not in card)
    assert card.marks([off_card]) == 1 << 12


def test_called_numbers_repeated_or_out_of_range_are_refused_by_name():
    card = cards_at(SEED, 0)[0]
    with pytest.raises(GameError, match=r"\[76\]"):
        check_claim(card, [1, 76], pattern_named("line"))
    with pytest.raises(GameError, match=r"\[0\]"):
        card.marks([0])
    with pytest.raises(GameError, match=r"\[5\] appear more than once"):
        missing(card, pattern_named("line"), [5, 6, 5])


def test_call_names_follow_the_columns():
    assert [call_name(n) for n in (1, 15, 16, 30, 31, 45, 46, 60, 61, 75)] == [
        "B-1", "B-15", "I-16", "I-30", "N-31", "N-45", "G-46", "G-60", "O-61", "O-75",
    ]  # fmt: skip
    for bad in (0, 76, "7"):
        with pytest.raises(GameError):
            call_name(bad)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------- cards, dealing


def assert_valid_card(card: Card) -> None:
    assert card.numbers[12] == 0
    for column in range(5):
        numbers = [card.numbers[r * 5 + column] for r in range(5) if (r, column) != CENTRE]
        assert all(15 * column < n <= 15 * column + 15 for n in numbers), card
        assert len(set(numbers)) == len(numbers) == (4 if column == 2 else 5)


def test_ten_thousand_cards_are_valid_and_pairwise_distinct():
    cards = cards_at(SEED, 0, MAX_CARDS)
    assert len(cards) == MAX_CARDS
    for card in cards:
        assert_valid_card(card)
    assert len({frozenset(card.numbers) for card in cards}) == MAX_CARDS
    # Every number of every column turns up, in every row it may fill.
    seen = {(cell, card.numbers[cell]) for card in cards for cell in range(25) if cell != 12}
    assert len(seen) == 24 * 15


def test_the_dealer_equals_the_reference_at_once_one_by_one_and_resumed():
    reference = cards_at(SEED, 0, 60)
    assert CardDealer(SEED).deal(60) == reference
    one_by_one = CardDealer(SEED)
    assert [one_by_one.deal(1)[0] for _ in range(60)] == reference
    assert one_by_one.position == 60
    for position in (0, 1, 7, 33, 59):
        dealer = CardDealer.resume(SEED, position)
        assert dealer.position == position
        assert dealer.deal(60 - position) == reference[position:]
        assert cards_at(SEED, position, 60 - position) == reference[position:]
    assert BingoGame.dealer(SEED, 5).deal(3) == BingoGame.boards_at(SEED, 5, 3) == reference[5:8]
    assert cards_at(OTHER_SEED, 0, 3) != reference[:3]


def test_deal_limits_are_refused():
    with pytest.raises(GameError, match="positions stop"):
        cards_at(SEED, MAX_CARDS - 1, 2)
    with pytest.raises(GameError, match="outside"):
        CardDealer.resume(SEED, MAX_CARDS + 1)
    with pytest.raises(GameError, match="negative"):
        cards_at(SEED, -1, 1)
    dealer = CardDealer.resume(SEED, MAX_CARDS)
    with pytest.raises(GameError):
        dealer.deal(1)


def test_the_documented_deal_algorithm_recomputes_the_first_card():
    """The module docstring's recipe, followed by hand from the seed."""
    from engine.fairness import DEAL_LABEL, SeededRandom

    r = SeededRandom(SEED, DEAL_LABEL).randbelow(
        (15 * 14 * 13 * 12 * 11) ** 4 * (15 * 14 * 13 * 12)
    )
    assert CARD_ARRANGEMENTS == (15 * 14 * 13 * 12 * 11) ** 4 * (15 * 14 * 13 * 12)
    columns = []
    for column in range(5):
        pool = list(range(15 * column + 1, 15 * column + 16))
        for i in range(4 if column == 2 else 5):
            r, j = divmod(r, 15 - i)
            pool[i], pool[i + j] = pool[i + j], pool[i]
        columns.append(pool[: 4 if column == 2 else 5])
    columns[2].insert(2, "*")
    text = ".".join(str(n) for column in columns for n in column)
    assert cards_at(SEED, 0)[0].to_state() == text


# ------------------------------------------------------------------------------- state texts


def test_card_state_round_trips_and_reads_by_column():
    card = cards_at(SEED, 0)[0]
    text = card.to_state()
    parts = text.split(".")
    assert parts[12] == "*"
    assert [int(p) for p in parts[:5]] == [card.numbers[r * 5] for r in range(5)]  # column B
    assert Card.from_state(text) == card
    assert BingoGame.board_from_state(text) == card


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "1.2.3",
        "3.12.6.1.10.25.24.29.30.19.39.44.0.38.37.52.58.54.48.55.64.68.61.66.71",  # centre 0
        "03.12.6.1.10.25.24.29.30.19.39.44.*.38.37.52.58.54.48.55.64.68.61.66.71",  # zero
        "3.12.6.1.10.25.24.29.30.19.39.44.*.38.37.52.58.54.48.55.64.68.61.66.71.",
        "3.3.6.1.10.25.24.29.30.19.39.44.*.38.37.52.58.54.48.55.64.68.61.66.71",  # repeat
        "16.12.6.1.10.25.24.29.30.19.39.44.*.38.37.52.58.54.48.55.64.68.61.66.71",  # column
        "3.12.6.1.10.25.24.29.30.19.39.44.*.38.*.52.58.54.48.55.64.68.61.66.71",  # two free
        " 3.12.6.1.10.25.24.29.30.19.39.44.*.38.37.52.58.54.48.55.64.68.61.66.71",
    ],
)
def test_non_canonical_card_texts_are_refused(bad: str):
    with pytest.raises(GameError):
        Card.from_state(bad)


def test_pattern_texts_round_trip_builtins_by_code_customs_whole():
    for code, pattern in PATTERN_BOOK.items():
        assert pattern.to_text() == code
        assert Pattern.from_text(code) is pattern
    custom = Pattern.from_cells("my-v", "My V", [0, 6, 12, 8, 4], rotations=True)
    text = custom.to_text()
    assert text.startswith("my-v=My V=")
    assert Pattern.from_text(text) == custom
    again = Pattern.custom("my-v", "My V", sum(1 << c for c in (0, 6, 12, 8, 4)), rotations=True)
    assert again == custom


@pytest.mark.parametrize(
    "bad",
    [
        "nope",
        "LINE",
        "a=A=0000007+0000007",  # a repeat
        "a=A=000000e+0000007",  # out of order
        "a=A=000007",  # six digits
        "a=A=000000E",  # upper case
        "a=A=2000000",  # past 25 bits
        "a=A=0001000",  # only the free centre
        "a=A=",
        "a= A=0000007",
        "A=A=0000007",
        "a=A",
        "line=Any line=0000007",  # a built-in's code
        "line=Any line=" + "+".join(f"{m:07x}" for m in PATTERN_BOOK["line"].masks),
    ],
)
def test_non_canonical_pattern_texts_are_refused(bad: str):
    with pytest.raises(GameError):
        Pattern.from_text(bad)


@pytest.mark.parametrize("name", ["a/b", "a,b", "a=b", "a+b", "", " a", "x" * 41, "a\nb"])
def test_custom_names_that_would_break_a_state_are_refused(name: str):
    with pytest.raises(GameError, match="pattern name"):
        Pattern.custom("mine", name, 7)


def test_game_state_round_trips_with_a_custom_pattern():
    custom = Pattern.from_cells("zig", "Zig zag", [0, 6, 2, 8, 4], anywhere=True)
    game = BingoGame.new(SEED, [pattern_named("line"), custom, pattern_named("blackout")])
    for _ in range(9):
        game, _number = game.next_call()
    game = game.award_prize("line")
    text = game.to_state()
    assert text.startswith(SEED.hex() + "/line,zig=Zig zag=")
    assert text.endswith(",blackout/9/1")
    again = BingoGame.from_state(text)
    assert again == game
    assert again.current_prize == custom
    for bad in (
        text.upper(),
        text.replace("/9/1", "/09/1"),
        text.replace("/9/1", "/9"),
        text.replace("/9/1", "/76/1"),
        text.replace("/9/1", "/9/4"),
        text.replace("line,", "line,zig=Zag=0000007,"),  # two patterns with one code
        f"{SEED.hex()}//0/0",
    ):
        with pytest.raises(GameError):
            BingoGame.from_state(bad)


# -------------------------------------------------------------------------------------- play


def test_calls_follow_draw_order_and_the_game_is_exhausted_after_75():
    game = BingoGame.new(SEED, [pattern_named("blackout")])
    calls = []
    while not game.is_exhausted:
        game, number = game.next_call()
        calls.append(number)
        assert game.last_called == number
    assert tuple(calls) == draw_order(SEED, 75) == game.called
    assert len(calls) == 75
    with pytest.raises(GameError, match="all 75"):
        game.next_call()


def test_prizes_are_played_in_sequence_with_award_judge_slept_and_missing():
    game = BingoGame.new(SEED, [pattern_named("corners"), pattern_named("x")])
    assert game.commitment == hashlib.sha256(SEED).hexdigest()
    assert game.current_prize == pattern_named("corners")
    assert game.claimable_codes == ("corners",)
    card = cards_at(SEED, 0)[0]
    corners_numbers = {card.numbers[cell] for cell in (0, 4, 20, 24)}
    # Call until the four corners are complete.
    while not corners_numbers <= set(game.called):
        assert not game.judge(card, "corners", game.called).valid
        assert game.missing(card, "corners", game.called) == len(corners_numbers - set(game.called))
        game, _number = game.next_call()
    assert game.missing(card, "corners", game.called) == 0
    won = game.judge(card, "corners", game.called, require_last=True)
    assert won.valid
    assert won.reason == "Four corners"
    assert won.cells == 1 | 16 | 1 << 20 | 1 << 24
    later, number = game.next_call()
    slept = later.judge(card, "corners", later.called, require_last=True)
    assert not slept.valid
    assert slept.code == ClaimReason.SLEPT
    assert slept.values == {"call": call_name(number), "number": number}
    assert later.judge(card, "corners", later.called).valid  # without the rule, still a win
    with pytest.raises(GameError, match="not the one being played"):
        later.award_prize("x")
    after = later.award_prize("corners")
    assert after.open_prize_codes == after.claimable_codes == ("x",)
    assert after.current_prize == pattern_named("x")
    finished = after.award_prize("x")
    assert finished.is_over
    assert finished.current_prize is None
    assert finished.open_prize_codes == ()
    with pytest.raises(GameError, match="over"):
        finished.next_call()
    with pytest.raises(GameError, match="no pattern 'line'"):
        game.judge(card, "line", game.called)


def test_a_game_refuses_a_bad_seed_or_no_patterns():
    with pytest.raises(GameError, match="32 bytes"):
        BingoGame.new(b"short", [pattern_named("line")])
    with pytest.raises(GameError, match="at least one"):
        BingoGame.new(SEED, [])
    with pytest.raises(GameError, match="built-in"):
        Pattern("line", "My line", (7,))


# ------------------------------------------- the calling contract (tests/engine/test_calling.py)


def test_its_calls_and_deal_positions():
    assert BingoGame.total_calls == 75
    assert BingoGame.deal_limit == MAX_CARDS


# ------------------------------------------------------------------------------- test vectors
# Computed once by this implementation and pasted: they pin the algorithm the docs publish.

VECTOR_SEED = bytes(range(32))  # 000102...1f
VECTOR_CARDS = [
    "3.12.6.1.10.25.24.29.30.19.39.44.*.38.37.52.58.54.48.55.64.68.61.66.71",
    "8.6.1.13.15.16.18.19.22.25.39.41.*.37.33.53.57.51.52.58.64.71.65.73.72",
    "12.8.10.7.11.22.24.19.28.25.39.32.*.40.33.55.46.47.54.53.73.74.67.62.72",
]
VECTOR_CALLS = ["I-19", "G-59", "O-69", "I-17", "G-51", "O-73", "B-9", "I-27", "B-1", "G-54"]


def test_vectors():
    assert [card.to_state() for card in cards_at(VECTOR_SEED, 0, 3)] == VECTOR_CARDS
    game = BingoGame.new(VECTOR_SEED, [pattern_named("line")])
    calls = []
    for _ in range(10):
        game, number = game.next_call()
        calls.append(call_name(number))
    assert calls == VECTOR_CALLS


class Scripted(random.Random):
    """A source that returns the given integers in turn: repeats on purpose."""

    def __init__(self, values: list[int]) -> None:
        super().__init__(0)
        self.values = values

    def randrange(self, *args: Any, **kwargs: Any) -> int:
        return self.values.pop(0)


def test_a_card_alike_to_one_dealt_is_drawn_again_and_a_stuck_source_is_refused():
    first, second = deal_cards(2, Scripted([5, 5, 5, 9]))
    assert first.to_state() == deal_cards(1, Scripted([5]))[0].to_state()
    assert second.to_state() == deal_cards(1, Scripted([9]))[0].to_state()
    assert first != second
    # Same numbers in another order (the first two of column B swapped) is alike too.
    swapped = deal_cards(1, Scripted([1]))[0]
    assert frozenset(swapped.numbers) == frozenset(deal_cards(1, Scripted([0]))[0].numbers)
    assert swapped != deal_cards(1, Scripted([0]))[0]
    assert deal_cards(2, Scripted([0, 1, 5]))[1] == deal_cards(1, Scripted([5]))[0]
    with pytest.raises(GameError, match="not random"):
        deal_cards(2, Scripted([7] * 100))
