import itertools
import math
import random
from collections import Counter
from fractions import Fraction
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import housie
from engine.errors import GameError
from engine.fairness import DEAL_LABEL, SeededRandom, commitment, draw_order
from engine.housie import (
    CODE_ALPHABET,
    DEFAULT_PRIZES,
    MAX_TICKETS,
    Calls,
    CodeReason,
    HousieGame,
    Prize,
    PrizeReason,
    Ticket,
    TicketCodeError,
    TicketDealer,
    TicketError,
    TicketRule,
    check_prize,
    deal_strips,
    decode_ticket_code,
    encode_ticket_code,
    generate_strip,
    generate_ticket,
    layout_count,
    prize_numbers,
    sampling,
    strip_count,
    strip_ticket_type_odds,
    ticket_count,
    ticket_for_seat,
    ticket_from_rank,
    ticket_rank,
    ticket_type_odds,
    tickets_at,
)

SEED = bytes(range(32))
KEY = b"k" * 32
SLOW = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])

# A valid ticket: column counts 2,1,2,1,2,1,2,2,2 (no full column).
GOOD_ROWS = (
    (3, 0, 21, 0, 45, 0, 62, 0, 81),
    (0, 14, 0, 33, 0, 57, 0, 71, 85),
    (8, 0, 27, 0, 49, 0, 66, 77, 0),
)
# Every row's numbers, for reading rows off a ticket.
ROW_NUMBERS = [[n for n in row if n] for row in GOOD_ROWS]


def with_cell(rows, r, c, value):
    return tuple(
        tuple(value if (i, j) == (r, c) else cell for j, cell in enumerate(row))
        for i, row in enumerate(rows)
    )


def assert_valid_strip(strip):
    assert len(strip) == 6
    for ticket in strip:
        assert Ticket(ticket.rows) == ticket  # the validating constructor accepts it
    assert sorted(n for ticket in strip for n in ticket.numbers) == list(range(1, 91))


# ------------------------------------------------------------------------------------- tickets


def test_a_good_ticket_is_accepted_and_knows_its_numbers():
    ticket = Ticket(GOOD_ROWS)
    assert len(ticket.numbers) == 15
    assert ticket.numbers == frozenset(n for row in ROW_NUMBERS for n in row)
    assert ticket.mask == sum(1 << n for n in ticket.numbers)
    assert ticket.columns[0] == (3, 8)
    assert ticket.full_columns == 0
    assert 45 in ticket
    assert 46 not in ticket
    assert 0 not in ticket
    assert ticket.position_of(57) == (1, 5)
    assert ticket.position_of(58) is None


@pytest.mark.parametrize(
    ("rows", "rule", "where"),
    [
        (GOOD_ROWS[:2], TicketRule.SHAPE, "tuple of 3 tuples"),
        ((*GOOD_ROWS[:2], GOOD_ROWS[2][:8]), TicketRule.SHAPE, "tuple of 3 tuples"),
        (list(GOOD_ROWS), TicketRule.SHAPE, "tuple of 3 tuples"),
        (with_cell(GOOD_ROWS, 0, 0, 3.0), TicketRule.SHAPE, "row 1 column 1"),
        (with_cell(GOOD_ROWS, 0, 0, True), TicketRule.SHAPE, "row 1 column 1"),
        (with_cell(GOOD_ROWS, 0, 0, 13), TicketRule.COLUMN_RANGE, "row 1 column 1 holds 13"),
        (with_cell(GOOD_ROWS, 1, 8, 91), TicketRule.COLUMN_RANGE, "column 9 takes 80-90"),
        (with_cell(GOOD_ROWS, 2, 4, -41), TicketRule.COLUMN_RANGE, "row 3 column 5"),
        (with_cell(GOOD_ROWS, 0, 1, 11), TicketRule.ROW_COUNT, "row 1 has 6 numbers"),
        (with_cell(GOOD_ROWS, 2, 7, 0), TicketRule.ROW_COUNT, "row 3 has 4 numbers"),
        (with_cell(GOOD_ROWS, 2, 4, 41), TicketRule.COLUMN_ORDER, "45 (row 1) sits above 41"),
        (with_cell(GOOD_ROWS, 2, 4, 45), TicketRule.COLUMN_ORDER, "column 5"),
    ],
)
def test_each_broken_rule_is_named(rows, rule, where):
    with pytest.raises(TicketError) as caught:
        Ticket(rows)
    assert caught.value.rule is rule
    assert where in str(caught.value)
    assert rule.value in str(caught.value)
    assert isinstance(caught.value, GameError)


def test_an_empty_column_is_named():
    # Move column 2's only number (14) to column 3 of the same row: rows keep 5 numbers each.
    rows = with_cell(with_cell(GOOD_ROWS, 1, 1, 0), 1, 2, 24)
    with pytest.raises(TicketError) as caught:
        Ticket(rows)
    assert caught.value.rule is TicketRule.COLUMN_COUNT
    assert "column 2 (10-19) is empty" in str(caught.value)


def test_ticket_state_is_short_and_round_trips():
    ticket = Ticket(GOOD_ROWS)
    assert ticket.to_state() == "0321456281/1433577185/0827496677"
    assert Ticket.from_state(ticket.to_state()) == ticket


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("", "3 groups of 10 digits"),
        ("0321456281/1433577185", "3 groups of 10 digits"),
        ("0321456281/1433577185/0827496677/", "3 groups of 10 digits"),
        (" 0321456281/1433577185/0827496677", "3 groups of 10 digits"),
        ("032145628/1433577185/08274966770", "3 groups of 10 digits"),
        ("03214562８1/1433577185/0827496677", "3 groups of 10 digits"),
        ("0021456281/1433577185/0827496677", "lists 00"),
        ("0321456291/1433577185/0827496677", "lists 91"),
        ("2103456281/1433577185/0827496677", "lists 3 after 21"),
        ("0321456281/1433577185/0827496666", "lists 66 after 66"),
        ("0321456281/1433577185/0827496669", "puts 66 and 69 both in column 7"),
    ],
)
def test_bad_ticket_state_is_rejected(text, where):
    with pytest.raises(TicketError) as caught:
        Ticket.from_state(text)
    assert caught.value.rule is TicketRule.STATE_TEXT
    assert where in str(caught.value)


def test_state_of_a_rule_breaking_ticket_is_rejected_by_the_rule():
    # Well-formed text, but 45 above 41 in column 5.
    with pytest.raises(TicketError) as caught:
        Ticket.from_state("0321456281/1433577185/0827416677")
    assert caught.value.rule is TicketRule.COLUMN_ORDER


# ------------------------------------------------------------------------------------- counting


def test_layout_counts_match_brute_force():
    # For a few column-count vectors of each type, try every per-column choice of rows.
    choices = {3: (7,), 2: (3, 5, 6), 1: (1, 2, 4)}
    rng = random.Random(7)
    vectors = [v for v in itertools.product((1, 2, 3), repeat=9) if sum(v) == 15]
    for a in range(4):
        sample = rng.sample([v for v in vectors if v.count(3) == a], 3)
        for vector in sample:
            brute = sum(
                1
                for masks in itertools.product(*(choices[k] for k in vector))
                if all(sum(m >> r & 1 for m in masks) == 5 for r in range(3))
            )
            assert brute == layout_count(a)
    assert [layout_count(a) for a in range(4)] == [1710, 639, 240, 90]
    with pytest.raises(GameError):
        layout_count(4)


def test_all_layouts_counted_two_ways():
    # All 3x9 layouts with 5 per row and no empty column, by rows: for each pair of top rows the
    # bottom row must cover the empty columns and has 5 cells.
    rows = [sum(1 << c for c in combo) for combo in itertools.combinations(range(9), 5)]
    by_rows = 0
    for top, middle in itertools.product(rows, rows):
        uncovered = 9 - (top | middle).bit_count()
        if uncovered <= 5:
            by_rows += math.comb(9 - uncovered, 5 - uncovered)
    vectors = [v for v in itertools.product((1, 2, 3), repeat=9) if sum(v) == 15]
    assert by_rows == sum(layout_count(v.count(3)) for v in vectors)


def independent_ticket_counts():
    """Tickets by type, column by column: state = numbers per row so far, full columns so far."""
    sizes = [9] + [10] * 7 + [11]
    states = Counter({(0, 0, 0, 0): 1})
    for size in sizes:
        following = Counter()
        for (r0, r1, r2, full), ways in states.items():
            for mask in range(1, 8):
                k = mask.bit_count()
                key = (r0 + (mask & 1), r1 + (mask >> 1 & 1), r2 + (mask >> 2), full + (k == 3))
                if max(key[:3]) <= 5:
                    following[key] += ways * math.comb(size, k)
        states = following
    return {a: states[(5, 5, 5, a)] for a in range(4)}


def test_ticket_count_and_type_odds_match_an_independent_count():
    by_type = independent_ticket_counts()
    assert ticket_count() == sum(by_type.values()) == 3_669_688_706_217_187_500
    odds = ticket_type_odds()
    assert odds == {a: Fraction(n, ticket_count()) for a, n in by_type.items()}


@cache
def independent_strip_weights():
    """The weighted count of strip count matrices (entries K - 1 in 0..2), written differently
    from the engine: whole row vectors, states sorted, memoised; also by the first row's type."""
    weights = {0: 2565, 1: 639, 2: 160, 3: 40}  # 96 * layouts(a) / (6^a * 2^(6 - 2a))
    vectors = [v for v in itertools.product(range(3), repeat=9) if sum(v) == 6]

    @cache
    def completions(rows_left, sums):
        if rows_left == 0:
            return 1
        total = 0
        for v in vectors:
            rest = [s - x for s, x in zip(sums, v, strict=True)]
            if min(rest) >= 0 and max(rest) <= 2 * (rows_left - 1):
                total += weights[v.count(2)] * completions(rows_left - 1, tuple(sorted(rest)))
        return total

    start = (3, 4, 4, 4, 4, 4, 4, 4, 5)
    by_first = Counter()
    for v in vectors:
        rest = [s - x for s, x in zip(start, v, strict=True)]
        if min(rest) >= 0:
            by_first[v.count(2)] += weights[v.count(2)] * completions(5, tuple(sorted(rest)))
    return by_first


def test_strip_count_and_type_odds_match_an_independent_count():
    by_first = independent_strip_weights()
    total = sum(by_first.values())
    assert sampling._strip_tables().sampler.total == total
    numerator = math.factorial(9) * math.factorial(10) ** 7 * math.factorial(11) * total
    assert numerator % 96**6 == 0
    assert strip_count() == numerator // 96**6
    assert strip_ticket_type_odds() == {a: Fraction(w, total) for a, w in by_first.items()}


def brute_force_matrices(column_sums, rows, row_total):
    vectors = [
        v for v in itertools.product(range(3), repeat=len(column_sums)) if sum(v) == row_total
    ]
    return [
        matrix
        for matrix in itertools.product(vectors, repeat=rows)
        if all(sum(col) == s for col, s in zip(zip(*matrix, strict=True), column_sums, strict=True))
    ]


@pytest.mark.parametrize(
    ("column_sums", "rows", "row_total", "weights"),
    [
        ((3, 1, 1, 1), 3, 2, (1, 2)),
        ((2, 3, 1, 2, 0), 2, 4, (3, 1, 2)),
        ((4, 2, 3, 2, 1), 3, 4, (1, 2, 5)),
    ],
)
def test_count_matrix_sampler_is_exact_on_small_instances(column_sums, rows, row_total, weights):
    # Every index maps to a valid matrix, and each matrix gets exactly prod(weights[type]) of
    # them: the sampler is exactly proportional to the weights (uniform up to them).
    sampler = sampling._CountMatrixSampler(column_sums, rows, row_total, weights)
    hits = Counter()
    for index in range(sampler.total):
        matrix = []
        for row_type, slots in sampler.sample(index):
            row = [0] * len(column_sums)
            for position, column in enumerate(slots):
                ones_end = row_total - row_type  # row_type 2s, then row_total - 2 * row_type 1s
                row[column] = 2 if position < row_type else (1 if position < ones_end else 0)
            assert row.count(2) == row_type
            matrix.append(tuple(row))
        hits[tuple(matrix)] += 1
    expected = {
        matrix: math.prod(weights[row.count(2)] for row in matrix)
        for matrix in brute_force_matrices(column_sums, rows, row_total)
    }
    assert dict(hits) == expected


# ------------------------------------------------------------------------------- uniformity


def chi_square(observed, probabilities, samples):
    return sum(
        (observed[a] - samples * float(p)) ** 2 / (samples * float(p))
        for a, p in probabilities.items()
    )


CHI2_DF3_P001 = 16.27  # chi-square, 3 degrees of freedom, p = 0.001


def test_ticket_types_follow_the_exact_odds():
    rng = random.Random(20240601)
    samples = 20_000
    observed = Counter(generate_ticket(rng).full_columns for _ in range(samples))
    assert chi_square(observed, ticket_type_odds(), samples) < CHI2_DF3_P001


def test_strip_ticket_types_follow_the_exact_odds():
    # The first ticket (first sampler step) and the last (forced by what is left), each checked.
    rng = random.Random(1000)
    samples = 3_000
    strips = [generate_strip(rng) for _ in range(samples)]
    for position in (0, 5):
        observed = Counter(strip[position].full_columns for strip in strips)
        assert chi_square(observed, strip_ticket_type_odds(), samples) < CHI2_DF3_P001


def test_the_chi_square_check_catches_the_usual_bias():
    # Count matrices drawn evenly (weights all 1), as simple generators do: far off the odds.
    biased = sampling._CountMatrixSampler((3, 4, 4, 4, 4, 4, 4, 4, 5), 6, 6, (1, 1, 1, 1))
    rng = random.Random(5)
    samples = 4_000
    observed = Counter(biased.sample(rng.randrange(biased.total))[0][0] for _ in range(samples))
    assert chi_square(observed, strip_ticket_type_odds(), samples) > 10 * CHI2_DF3_P001


def test_strip_odds_differ_from_single_ticket_odds():
    # A strip must spread 90 numbers: it holds fewer full columns than a lone ticket.
    assert strip_ticket_type_odds()[3] < ticket_type_odds()[3]
    assert sum(strip_ticket_type_odds().values()) == 1 == sum(ticket_type_odds().values())


# ---------------------------------------------------------------------------- strips, ranks


@settings(SLOW, max_examples=200)
@given(st.integers(0, 2**64))
def test_thousands_of_strips_are_valid(seed):
    rng = random.Random(seed)
    for _ in range(10):
        assert_valid_strip(generate_strip(rng))


@settings(SLOW, max_examples=150)
@given(st.data())
def test_every_strip_index_gives_a_valid_strip(data):
    tables = sampling._strip_tables()
    matrix_index = data.draw(st.integers(0, tables.sampler.total - 1))
    plan = tables.sampler.sample(matrix_index)
    fill_limit = tables.completions[tuple(a for a, _ in plan)]
    fill_index = data.draw(st.integers(0, fill_limit - 1))
    strip = sampling._strip_from_indexes(matrix_index, fill_index)
    assert_valid_strip(strip)
    assert [t.full_columns for t in strip] == [a for a, _ in plan]


def test_distinct_fill_indexes_give_distinct_strips():
    plan = sampling._strip_tables().sampler.sample(12345)
    strips = {sampling._fill_strip(plan, index) for index in range(300)}
    assert len(strips) == 300


@SLOW
@given(st.integers(0, ticket_count() - 1))
def test_ticket_rank_round_trips(rank):
    ticket = ticket_from_rank(rank)
    assert Ticket(ticket.rows) == ticket
    assert ticket_rank(ticket) == rank


def test_ticket_rank_ends_and_bounds():
    assert ticket_rank(ticket_from_rank(0)) == 0
    assert ticket_rank(ticket_from_rank(ticket_count() - 1)) == ticket_count() - 1
    for bad in (-1, ticket_count(), 1.0):
        with pytest.raises(GameError):
            ticket_from_rank(bad)


@SLOW
@given(st.randoms(use_true_random=False))
def test_generated_tickets_are_valid_and_round_trip(rng):
    ticket = generate_ticket(rng)
    assert Ticket(ticket.rows) == ticket
    assert Ticket.from_state(ticket.to_state()) == ticket
    assert len(ticket.to_state()) == 32


def test_strips_work_with_any_random_source():
    assert_valid_strip(generate_strip(random.SystemRandom()))
    assert_valid_strip(generate_strip(SeededRandom(SEED, DEAL_LABEL)))


# ---------------------------------------------------------------------------------- prizes


def reference_check(ticket, called, prize, require_last):
    """The prize rules written plainly with sets: (valid, numbers)."""
    if not called:
        return False, frozenset()
    rows = [[n for n in row if n] for row in ticket.rows]
    last = called[-1]
    if prize is Prize.EARLY_FIVE:
        hits = [n for n in called if n in ticket.numbers]
        if len(hits) < 5 or (require_last and last not in hits[:5]):
            return False, frozenset()
        return True, frozenset(hits[:5])
    needed = {
        Prize.TOP_LINE: rows[0],
        Prize.MIDDLE_LINE: rows[1],
        Prize.BOTTOM_LINE: rows[2],
        Prize.FOUR_CORNERS: [rows[0][0], rows[0][-1], rows[2][0], rows[2][-1]],
    }.get(prize, [n for row in rows for n in row])
    if not set(needed) <= set(called) or (require_last and last not in needed):
        return False, frozenset()
    return True, frozenset(needed)


@st.composite
def claims(draw):
    """A ticket, a prize and calls that often complete it (sometimes with the last call)."""
    ticket = ticket_from_rank(draw(st.integers(0, ticket_count() - 1)))
    prize = draw(st.sampled_from(list(Prize)))
    rng = random.Random(draw(st.integers(0, 2**32)))
    numbers = sorted(ticket.numbers)
    if prize is Prize.EARLY_FIVE:
        target = rng.sample(numbers, 5)
    else:
        target = sorted(prize_numbers(ticket, prize))
    # All of the prize's numbers, all but one, or a random handful of the ticket's.
    how = draw(st.sampled_from(["all", "all but one", "some"]))
    if how == "some":
        target = rng.sample(numbers, rng.randrange(len(numbers) + 1))
    elif how == "all but one":
        target = target[1:]
    rest = [n for n in numbers if n not in target]
    extra = rng.sample(rest, rng.randrange(len(rest) + 1)) if draw(st.booleans()) else []
    off_ticket = rng.sample(sorted(set(range(1, 91)) - ticket.numbers), rng.randrange(21))
    called = target + extra + off_ticket
    rng.shuffle(called)
    if target and draw(st.booleans()):  # end on one of the target numbers
        called.remove(target[0])
        called.append(target[0])
    return ticket, called, prize, draw(st.booleans())


@settings(SLOW, max_examples=400)
@given(claims())
def test_prize_checks_match_the_brute_force_reference(claim):
    ticket, called, prize, require_last = claim
    expected = reference_check(ticket, called, prize, require_last)
    for calls in (called, Calls(called)):
        verdict = check_prize(ticket, calls, prize, require_last=require_last)
        assert (verdict.valid, verdict.numbers) == expected
        assert verdict.reason


def test_four_corners_are_the_end_numbers_not_the_corner_cells():
    ticket = Ticket(GOOD_ROWS)  # top row 3 .. 81, bottom row 8 .. 77; cell (2, 8) is blank
    assert prize_numbers(ticket, Prize.FOUR_CORNERS) == {3, 81, 8, 77}
    verdict = check_prize(ticket, [3, 81, 8, 77], Prize.FOUR_CORNERS)
    assert verdict.valid
    assert verdict.numbers == {3, 81, 8, 77}


def test_last_call_rule_reasons():
    ticket = Ticket(GOOD_ROWS)
    top = ROW_NUMBERS[0]
    slept = check_prize(ticket, [*top, 14], Prize.TOP_LINE, require_last=True)
    assert not slept.valid
    assert "before the last number called (14)" in slept.reason
    fresh = check_prize(ticket, [14, *top], Prize.TOP_LINE, require_last=True)
    assert fresh.valid
    assert fresh.reason == "Top Line completed by the last number called, 81"
    off_ticket = check_prize(ticket, [*top, 90], Prize.EARLY_FIVE, require_last=True)
    assert not off_ticket.valid
    assert "(90) is not on this ticket" in off_ticket.reason
    missing = check_prize(ticket, top[:3], Prize.TOP_LINE)
    assert missing.reason == "Top Line is not complete: 62, 81 not called yet"
    nothing = check_prize(ticket, [], Prize.FULL_HOUSE)
    assert not nothing.valid
    assert nothing.reason == "no numbers have been called yet"


def test_every_verdict_says_why_as_a_code_with_values():
    """The English reason for logs, and the same as a code with its facts for the bot to word."""
    ticket = Ticket(GOOD_ROWS)
    top = ROW_NUMBERS[0]
    cases = [
        (check_prize(ticket, [], Prize.FULL_HOUSE), PrizeReason.NOTHING_CALLED, {}),
        (
            check_prize(ticket, [3, 90], Prize.EARLY_FIVE),
            PrizeReason.EARLY_FIVE_SHORT,
            {"count": 1},
        ),
        (
            check_prize(ticket, top[:3], Prize.TOP_LINE),
            PrizeReason.INCOMPLETE,
            {"prize": Prize.TOP_LINE, "missing": (62, 81), "count": 2},
        ),
        (
            check_prize(ticket, [*top, 90], Prize.EARLY_FIVE, require_last=True),
            PrizeReason.SLEPT_OFF_TICKET,
            {"last": 90},
        ),
        (
            check_prize(ticket, [*top, 14], Prize.TOP_LINE, require_last=True),
            PrizeReason.SLEPT,
            {"prize": Prize.TOP_LINE, "last": 14},
        ),
        (check_prize(ticket, top, Prize.TOP_LINE), PrizeReason.COMPLETE, {"prize": Prize.TOP_LINE}),
        (
            check_prize(ticket, top, Prize.EARLY_FIVE),
            PrizeReason.COMPLETE,
            {"prize": Prize.EARLY_FIVE},
        ),
        (
            check_prize(ticket, top, Prize.TOP_LINE, require_last=True),
            PrizeReason.COMPLETED_LAST,
            {"prize": Prize.TOP_LINE, "last": 81},
        ),
    ]
    for verdict, code, values in cases:
        assert (verdict.code, dict(verdict.values)) == (code, values), verdict.reason
    assert {code for _, code, _ in cases} == set(PrizeReason)
    assert cases[1][0].reason == "Early Five needs 5 of the ticket's numbers called; 1 is"
    # The whole list of missing numbers is in the values; the English text names five.
    many = check_prize(ticket, [3], Prize.FULL_HOUSE)
    assert many.values["missing"] == tuple(sorted(ticket.numbers - {3}))
    assert many.values["count"] == 14


def test_a_long_list_of_missing_numbers_is_shortened():
    verdict = check_prize(Ticket(GOOD_ROWS), [3], Prize.FULL_HOUSE)
    assert (
        verdict.reason == "Full House is not complete: 8, 14, 21, 27, 33 and 9 more not called yet"
    )


def test_early_five_reports_the_first_five_called():
    ticket = Ticket(GOOD_ROWS)
    called = [90, 3, 21, 1, 45, 62, 81, 14]
    verdict = check_prize(ticket, called, Prize.EARLY_FIVE)
    assert verdict.valid
    assert verdict.numbers == {3, 21, 45, 62, 81}
    fifth_last = check_prize(ticket, called[:7], Prize.EARLY_FIVE, require_last=True)
    assert fifth_last.valid
    assert fifth_last.reason == "Early Five completed by the last number called, 81"
    sixth_last = check_prize(ticket, called, Prize.EARLY_FIVE, require_last=True)
    assert not sixth_last.valid
    assert "Early Five was complete before the last number called (14)" in sixth_last.reason


@pytest.mark.parametrize("called", [[0], [91], [5, 5], ["7"], [1.0]])
def test_bad_called_numbers_are_rejected(called):
    with pytest.raises(GameError):
        check_prize(Ticket(GOOD_ROWS), called, Prize.FULL_HOUSE)
    with pytest.raises(GameError):
        Calls(called)


def test_calls_carry_their_mask():
    calls = Calls([5, 90, 33])
    assert calls.prefix_masks == (0, 1 << 5, (1 << 5) | (1 << 90), calls.mask)
    assert calls == (5, 90, 33)
    assert calls.last == 33
    assert Calls().last is None
    assert calls.mask == (1 << 5) | (1 << 90) | (1 << 33)


def test_prize_names_and_parsing():
    assert [p.display_name for p in DEFAULT_PRIZES] == [
        "Early Five",
        "Top Line",
        "Middle Line",
        "Bottom Line",
        "Four Corners",
        "Full House",
    ]
    assert Prize.parse("tl") is Prize.TOP_LINE
    assert Prize.parse("Second Full House") is Prize.SECOND_HOUSE
    assert Prize.parse("four_corners") is Prize.FOUR_CORNERS
    with pytest.raises(GameError, match="unknown prize"):
        Prize.parse("diagonal")
    assert Prize.THIRD_HOUSE.needs is Prize.SECOND_HOUSE
    assert Prize.TOP_LINE.needs is None


# ---------------------------------------------------------------------------------- codes


def sample_codes():
    rng = random.Random(99)
    tickets = [generate_ticket(rng) for _ in range(3)]
    return [
        (ticket, game_id, encode_ticket_code(ticket, game_id, KEY))
        for ticket, game_id in zip(tickets, (0, 4_321, 2**63), strict=True)
    ]


def test_codes_round_trip_and_are_short():
    rng = random.Random(4)
    for game_id in (0, 7, 123_456, 2**40, 2**64 - 1):
        ticket = generate_ticket(rng)
        code = encode_ticket_code(ticket, game_id, KEY)
        assert set(code) <= set(CODE_ALPHABET)
        assert len(code) <= 38
        assert decode_ticket_code(code, KEY) == (ticket, game_id)
        assert decode_ticket_code(f"  {code.lower()} ", KEY, game_id=game_id) == (ticket, game_id)
    assert len(encode_ticket_code(ticket, 0, KEY)) == 26
    assert len(encode_ticket_code(ticket, 999_999, KEY)) == 30


@pytest.mark.parametrize("case", range(3))
def test_every_one_character_change_is_rejected(case):
    _, _, code = sample_codes()[case]
    decode_ticket_code(code, KEY)
    for position, original in enumerate(code):
        for replacement in CODE_ALPHABET:
            if replacement != original:
                edited = code[:position] + replacement + code[position + 1 :]
                with pytest.raises(TicketCodeError):
                    decode_ticket_code(edited, KEY)


def test_wrong_key_other_game_and_malformed_codes_are_rejected():
    ticket = Ticket(GOOD_ROWS)
    code = encode_ticket_code(ticket, 12, KEY)
    with pytest.raises(TicketCodeError, match="does not check out"):
        decode_ticket_code(code, b"K" * 32)
    with pytest.raises(TicketCodeError, match="for game 12, not game 13"):
        decode_ticket_code(code, KEY, game_id=13)
    with pytest.raises(TicketCodeError, match="character 3 is 'U'"):
        decode_ticket_code(code[:2] + "U" + code[3:], KEY)
    with pytest.raises(TicketCodeError, match="26 to 64 characters"):
        decode_ticket_code(code[:-1], KEY)
    with pytest.raises(TicketCodeError, match="26 to 64 characters"):
        decode_ticket_code(code * 3, KEY)
    with pytest.raises(TicketCodeError, match="leading zeros"):
        decode_ticket_code("0" + code, KEY)
    with pytest.raises(TicketCodeError):
        decode_ticket_code(code[1:] + code[0], KEY)  # characters swapped around
    for typed, reason, values in (
        (code[:-1], CodeReason.LENGTH, {"length": 25, "shortest": 26, "longest": 64}),
        (
            code[:2] + "U" + code[3:],
            CodeReason.CHARACTER,
            {"position": 3, "character": "U", "alphabet": CODE_ALPHABET},
        ),
        ("0" + code, CodeReason.LEADING_ZEROS, {}),
        (code[:-1] + ("A" if code[-1] != "A" else "B"), CodeReason.FORGED, {}),
    ):
        with pytest.raises(TicketCodeError) as refused:
            decode_ticket_code(typed, KEY)
        assert (refused.value.code, dict(refused.value.values)) == (reason, values)
    with pytest.raises(TicketCodeError) as refused:
        decode_ticket_code(code, KEY, game_id=13)
    assert refused.value.code == CodeReason.OTHER_GAME
    assert refused.value.values == {"code_game": 12, "game": 13}
    with pytest.raises(ValueError, match="at least 16 bytes"):
        encode_ticket_code(ticket, 12, b"short")
    with pytest.raises(GameError):
        encode_ticket_code(ticket, -1, KEY)


def test_codes_for_different_tickets_or_games_differ():
    rng = random.Random(8)
    tickets = [generate_ticket(rng) for _ in range(20)]
    codes = {encode_ticket_code(t, g, KEY) for t in tickets for g in range(5)}
    assert len(codes) == 100


# ------------------------------------------------------------------------------------- game


def test_a_new_game():
    game = HousieGame.new(seed=SEED)
    assert game.drawn == 0
    assert game.called == ()
    assert game.last_called is None
    assert game.commitment == commitment(SEED)
    assert game.open_prizes == DEFAULT_PRIZES == game.claimable_prizes
    assert not game.is_over
    assert SEED.hex() not in repr(game)


def test_draws_follow_the_committed_order_until_exhausted():
    game = HousieGame(SEED)
    numbers = []
    for _ in range(90):
        game, number = game.draw()
        numbers.append(number)
        assert game.last_called == number
    assert tuple(numbers) == draw_order(SEED, 90) == game.called
    assert game.is_exhausted
    assert game.is_over
    with pytest.raises(GameError, match="all 90 numbers"):
        game.draw()


def play_until(game, ticket, prize):
    while not game.check(ticket, prize).valid:
        game, _ = game.draw()
    return game


def test_claims_award_prizes_and_finish_the_game():
    game, ticket = HousieGame(SEED, (Prize.TOP_LINE, Prize.FULL_HOUSE, Prize.SECOND_HOUSE)).deal()
    game = play_until(game, ticket, Prize.TOP_LINE)
    game, verdict = game.claim(ticket, Prize.TOP_LINE, require_last=True)
    assert verdict.valid
    assert verdict.numbers == set(prize_numbers(ticket, Prize.TOP_LINE))
    assert game.awarded == (Prize.TOP_LINE,)
    with pytest.raises(GameError, match="already been won"):
        game.claim(ticket, Prize.TOP_LINE)
    with pytest.raises(GameError, match="only be won after Full House"):
        game.award(Prize.SECOND_HOUSE)
    assert game.claimable_prizes == (Prize.FULL_HOUSE,)
    game = play_until(game, ticket, Prize.FULL_HOUSE)
    game = game.award(Prize.FULL_HOUSE)
    assert game.claimable_prizes == (Prize.SECOND_HOUSE,)
    assert not game.is_over
    game = game.award(Prize.SECOND_HOUSE)
    assert game.is_over
    assert game.open_prizes == ()
    with pytest.raises(GameError, match="every prize has been won"):
        game.draw()


def test_a_failed_claim_changes_nothing():
    game, ticket = HousieGame(SEED).deal()
    game, _ = game.draw()
    after, verdict = game.claim(ticket, Prize.FULL_HOUSE)
    assert not verdict.valid
    assert after is game


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seed": b"short"}, "32 bytes"),
        ({"prizes": ()}, "at least one prize"),
        ({"prizes": (Prize.TOP_LINE, Prize.TOP_LINE)}, "listed twice"),
        ({"prizes": (Prize.SECOND_HOUSE,)}, "needs Full House"),
        ({"prizes": ("TL",)}, "Prize members"),
        ({"drawn": 91}, "outside 0..90"),
        ({"drawn": 20, "awarded": (Prize.THIRD_HOUSE,)}, "not played for"),
        ({"drawn": 4, "awarded": (Prize.TOP_LINE,)}, "after only 4 calls"),
        ({"drawn": 20, "awarded": (Prize.TOP_LINE, Prize.TOP_LINE)}, "awarded twice"),
        ({"dealt": -1}, "tickets dealt"),
    ],
)
def test_bad_games_are_rejected(kwargs, message):
    fields = {"seed": SEED, "prizes": DEFAULT_PRIZES} | kwargs
    with pytest.raises(GameError, match=message):
        HousieGame(**fields)


def test_award_order_for_extra_houses_is_enforced():
    prizes = (Prize.FULL_HOUSE, Prize.SECOND_HOUSE, Prize.THIRD_HOUSE)
    with pytest.raises(GameError, match="before Full House"):
        HousieGame(SEED, prizes, 30, (Prize.SECOND_HOUSE,))
    HousieGame(SEED, prizes, 30, (Prize.FULL_HOUSE, Prize.SECOND_HOUSE))


def test_game_state_round_trips():
    game = HousieGame(SEED, (*DEFAULT_PRIZES, Prize.SECOND_HOUSE), 40, (Prize.EARLY_FIVE,), 7)
    text = game.to_state()
    assert text == f"{SEED.hex()}/E5,TL,ML,BL,FC,FH,H2/40/E5/7"
    assert HousieGame.from_state(text) == game
    fresh = HousieGame(SEED)
    assert HousieGame.from_state(fresh.to_state()) == fresh


@pytest.mark.parametrize(
    "text",
    [
        "",
        f"{SEED.hex()}/E5,TL/3//0/",
        f"{SEED.hex()}/E5,TL/x//0",
        f"{SEED.hex().upper()}/E5,TL/3//0",
        f"{SEED.hex()}/E5,XX/3//0",
        f"{SEED.hex()}/E5,TL/03//0",
        f"{SEED.hex()}/E5,TL/3/FH/0",
        f"{SEED.hex()[:-2]}/E5,TL/3//0",
    ],
)
def test_bad_game_state_is_rejected(text):
    with pytest.raises(GameError):
        HousieGame.from_state(text)


# ---------------------------------------------------------------------------------- dealing


def test_dealing_one_at_a_time_matches_dealing_strips():
    strips = deal_strips(SEED, 2)
    flat = [ticket for strip in strips for ticket in strip]
    game = HousieGame(SEED)
    dealt = []
    for _ in range(12):
        game, ticket = game.deal()
        dealt.append(ticket)
    assert dealt == flat == tickets_at(SEED, 0, 12)
    assert tickets_at(SEED, 5, 3) == flat[5:8]
    assert ticket_for_seat(SEED, 7) == flat[7] == game.ticket(7)
    assert_valid_strip(strips[0])
    assert_valid_strip(strips[1])
    # A game is reproducible from its seed alone: the same stream as a fresh SeededRandom.
    rng = SeededRandom(SEED, DEAL_LABEL)
    assert [generate_strip(rng), generate_strip(rng)] == strips


def test_the_deal_is_pinned():
    # Regression vector: changing the dealing algorithm would change every past game's tickets.
    assert ticket_for_seat(SEED, 0).to_state() == PINNED_SEAT_0
    assert ticket_for_seat(SEED, 6).to_state() == PINNED_SEAT_6


PINNED_SEAT_0 = "0818445166/4558687983/0922334684"
PINNED_SEAT_6 = "0313234085/0718556475/0827317987"


def test_deal_limits():
    with pytest.raises(GameError):
        tickets_at(SEED, -1)
    with pytest.raises(GameError):
        tickets_at(SEED, housie.MAX_TICKETS)
    with pytest.raises(GameError):
        deal_strips(SEED, -1)
    assert tickets_at(SEED, 3, 0) == []
    with pytest.raises(GameError):
        HousieGame(SEED).ticket(0)


# The dealer a live game deals with: tickets_at's stream, strip by strip, without replay.

SEEDS = st.binary(min_size=32, max_size=32)


@settings(SLOW, max_examples=40)
@given(SEEDS, st.lists(st.integers(min_value=0, max_value=6), min_size=1, max_size=15))
def test_any_split_of_a_dealers_deals_is_one_tickets_at(seed: bytes, counts: list[int]):
    dealer = TicketDealer(seed)
    dealt = []
    for count in counts:
        assert dealer.position == len(dealt)
        dealt += dealer.deal(count)
    assert dealer.position == sum(counts)
    assert dealt == tickets_at(seed, 0, sum(counts))
    for first in range(0, len(dealt) - 5, 6):  # each six in a row from 0 is a whole strip
        assert_valid_strip(dealt[first : first + 6])


@settings(SLOW, max_examples=40)
@given(SEEDS, st.integers(min_value=0, max_value=200), st.integers(min_value=0, max_value=13))
def test_a_dealer_resumed_anywhere_goes_on_as_the_straight_deal(seed, position, count):
    straight = TicketDealer(seed)
    straight.deal(position)
    resumed = TicketDealer.resume(seed, position)
    assert resumed.position == straight.position == position
    assert resumed.deal(count) == straight.deal(count) == tickets_at(seed, position, count)
    assert resumed.position == position + count


@settings(SLOW, max_examples=8)
@given(st.integers(min_value=MAX_TICKETS - 13, max_value=MAX_TICKETS), st.integers(1, 24))
def test_a_dealer_stops_at_the_ticket_limit_as_tickets_at_does(position, count):
    dealer = TicketDealer.resume(SEED, position)
    if position + count <= MAX_TICKETS:
        assert dealer.deal(count) == tickets_at(SEED, position, count)
        return
    with pytest.raises(GameError) as refused:
        dealer.deal(count)
    with pytest.raises(GameError) as reference:
        tickets_at(SEED, position, count)
    assert str(refused.value) == str(reference.value)
    assert dealer.position == position  # a refused deal hands out nothing


@pytest.mark.parametrize("position", [-1, MAX_TICKETS + 1, "3", True, 2.0])
def test_a_dealer_resumes_only_at_a_deal_position(position):
    with pytest.raises(GameError, match="deal position"):
        TicketDealer.resume(SEED, position)


@pytest.mark.parametrize("count", [-1, "2", MAX_TICKETS + 1, 1.0])
def test_a_dealer_refuses_counts_as_tickets_at_does(count):
    dealer = TicketDealer(SEED)
    with pytest.raises(GameError, match="cannot deal"):
        dealer.deal(count)
    assert dealer.position == 0
    assert dealer.deal(1) == [ticket_for_seat(SEED, 0)]
