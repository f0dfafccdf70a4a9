"""The strip sampler's test vector and tables in docs/FAIRNESS.md ("Dealing a strip, exactly")."""

from __future__ import annotations

import math
from pathlib import Path

from engine.fairness import DEAL_LABEL, SeededRandom
from engine.housie import COLUMN_SIZE, layout_count, sampling, tickets_at

FAIRNESS_DOC = Path(__file__).resolve().parents[2] / "docs" / "FAIRNESS.md"
VECTOR_SEED = bytes(range(32))
LAYOUT_COUNTS = (1710, 639, 240, 90)
TYPE_WEIGHTS = (2565, 639, 160, 40)
STATES, DECISIONS = 177, 7047
W = 3050320712832627246672847569900
MATRIX_INDEX = 2540913572130488987629603085562
K_ROWS = ("211132212", "112221132", "212212212", "131212122", "122222211", "222111222")
TYPES = (1, 1, 0, 1, 0, 0)
FILL_BOUND = 675145326352570375257870467300619616777981132800000000000000000000
FILL_INDEX = 506511687596599141162689093866536703731249296582781474192877077008
TICKETS = (
    "0818445166/4558687983/0922334684",
    "1127307087/0643637188/2839475373",
    "0225607585/1635495061/0329375586",
    "1034425282/1324365672/0714657890",
    "1520647781/0532405767/1726384859",
    "2131627480/0112415469/0419237689",
)
POSITION_6 = "0313234085/0718556475/0827317987"


def count_matrix(plan: list[tuple[int, tuple[int, ...]]]) -> tuple[str, ...]:
    rows = []
    for full_columns, slots in plan:
        row = [0] * 9
        counts = (3,) * full_columns + (2,) * (6 - 2 * full_columns) + (1,) * (3 + full_columns)
        for column, count in zip(slots, counts, strict=True):
            row[column] = count
        rows.append("".join(map(str, row)))
    return tuple(rows)


def test_the_tables_are_as_documented():
    assert tuple(layout_count(a) for a in range(4)) == LAYOUT_COUNTS
    assert (
        tuple(96 * LAYOUT_COUNTS[a] // (6**a * 2 ** (6 - 2 * a)) for a in range(4)) == TYPE_WEIGHTS
    )
    sampler = sampling._strip_tables().sampler
    assert len(sampler._states) == STATES
    assert sum(len(state.decisions) for state in sampler._states.values()) == DECISIONS
    assert sampler.total == W
    assert sampler.root.decisions[0].type_weight in TYPE_WEIGHTS


def test_the_first_strip_of_the_vector_seed_step_by_step():
    tables = sampling._strip_tables()
    stream = SeededRandom(VECTOR_SEED, DEAL_LABEL)
    matrix_index = stream.randbelow(tables.sampler.total)
    assert matrix_index == MATRIX_INDEX
    plan = tables.sampler.sample(matrix_index)
    assert count_matrix(plan) == K_ROWS
    assert tuple(a for a, _ in plan) == TYPES
    # F as docs/FAIRNESS.md writes it: 9! 10!^7 11! x product of G(a) / 96^6.
    sizes = math.prod(math.factorial(size) for size in COLUMN_SIZE)
    assert sizes * math.prod(TYPE_WEIGHTS[a] for a in TYPES) // 96**6 == FILL_BOUND
    assert tables.completions[TYPES] == FILL_BOUND
    fill_index = stream.randbelow(FILL_BOUND)
    assert fill_index == FILL_INDEX
    assert tuple(t.to_state() for t in sampling._fill_strip(plan, fill_index)) == TICKETS
    dealt = tickets_at(VECTOR_SEED, 0, 7)
    assert tuple(t.to_state() for t in dealt[:6]) == TICKETS
    assert dealt[6].to_state() == POSITION_6


def test_every_count_matrix_row_sums_and_columns_add_up():
    for row in K_ROWS:
        assert sum(map(int, row)) == 15
    assert [sum(int(row[c]) for row in K_ROWS) for c in range(9)] == list(COLUMN_SIZE)


def test_the_fairness_document_gives_the_vector():
    text = " ".join(FAIRNESS_DOC.read_text(encoding="utf-8").split())  # lines wrap anywhere
    for value in (W, MATRIX_INDEX, FILL_BOUND, FILL_INDEX):
        assert str(value) in text
    for value in (*K_ROWS, *TICKETS, POSITION_6, VECTOR_SEED.hex()):
        assert value in text
    assert ", ".join(map(str, LAYOUT_COUNTS)) in text
    assert ", ".join(map(str, TYPE_WEIGHTS)) in text
    assert f"{STATES} states and {DECISIONS} decisions" in text
