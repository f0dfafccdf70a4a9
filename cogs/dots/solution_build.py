"""Solve every position of a small Dots and Boxes board and write the table the bot ships.

    python -m cogs.dots.solution_build          # writes cogs/dots/data/dots-3x3.xz (10-20 s)
    python -m cogs.dots.solution_build --check  # solves again, compares with the shipped table

Retrograde analysis over all 2**n line sets of an n-line board, vectorised with numpy (a
development dependency: the bot only reads the result). A position's value, the net boxes the
side to move wins from there on, depends only on its lines, so the sets are solved in layers
from the full board (value 0) back to the empty one; a set's value is the best over its free
lines of the boxes the line completes plus the value after it (the mover moves again), or minus
the value after it when it completes none. The format is described in ``engine.dots.solution``.
"""

from __future__ import annotations

import argparse
import lzma
import sys
import time
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from cogs.dots.solution import TABLES, read_table
from engine.dots.rules import _board
from engine.dots.solution import ENTRY_BITS, SolvedBoard, symmetries

Masks = npt.NDArray[np.uint32]
DATA = Path(__file__).resolve().parent / "data"
# A 1 MiB window costs 0.4% in size over xz's 64 MiB, and the reader's decoder touches no more.
XZ_FILTERS: Final = [
    {"id": lzma.FILTER_LZMA2, "preset": 9 | lzma.PRESET_EXTREME, "dict_size": 1 << 20}
]


def _all_line_sets(lines: int) -> Masks:
    return np.arange(1 << lines, dtype=np.uint32)


def _completed(rows: int, columns: int, masks: Masks) -> npt.NDArray[np.int8]:
    """How many boxes each line set completes."""
    completed = np.zeros(masks.shape, dtype=np.int8)
    for box in _board(rows, columns).box_masks:
        completed += (masks & np.uint32(box)) == box
    return completed


def solve(rows: int, columns: int) -> npt.NDArray[np.int8]:
    """The value of every line set of a rows x columns board, indexed by the set's bits."""
    board = _board(rows, columns)
    count = len(board.lines)
    masks = _all_line_sets(count)
    drawn_count = np.zeros(masks.shape, dtype=np.int8)
    for line in range(count):
        drawn_count += ((masks >> line) & 1).astype(np.int8)
    values = np.zeros(masks.shape, dtype=np.int8)
    for drawn in range(count - 1, -1, -1):
        layer = masks[drawn_count == drawn]
        best = np.full(layer.shape, -128, dtype=np.int8)
        for line in range(count):
            bit = np.uint32(1 << line)
            free = np.nonzero((layer & bit) == 0)[0]
            after = layer[free] | bit
            gained = np.zeros(after.shape, dtype=np.int8)
            for box in board.line_box_masks[line]:
                gained += (after & np.uint32(box)) == box
            then = values[after]
            outcome = np.where(gained > 0, gained + then, -then).astype(np.int8)
            best[free] = np.maximum(best[free], outcome)
        values[layer] = best
    return values


def canonical(rows: int, columns: int) -> Masks:
    """Each line set's smallest image under the board's symmetries."""
    count = len(_board(rows, columns).lines)
    masks = _all_line_sets(count)
    smallest = masks.copy()
    for permutation in symmetries(rows, columns)[1:]:
        image = np.zeros_like(masks)
        for line, target in enumerate(permutation):
            image |= ((masks >> line) & 1) << np.uint32(target)
        np.minimum(smallest, image, out=smallest)
    return smallest


def encode(rows: int, columns: int, values: npt.NDArray[np.int8]) -> bytes:
    """The table: 4-bit ``(value + boxes left) / 2`` entries, 0 for non-canonical sets."""
    masks = _all_line_sets(len(_board(rows, columns).lines))
    boxes_left = rows * columns - _completed(rows, columns, masks).astype(np.int16)
    doubled = values.astype(np.int16) + boxes_left
    if (doubled % 2).any() or (doubled < 0).any() or (doubled > 2 * boxes_left).any():
        raise ValueError("a value out of range or of the wrong parity: the solve is wrong")
    entries = (doubled // 2).astype(np.uint8)
    entries[canonical(rows, columns) != masks] = 0
    return (entries[0::2] | (entries[1::2] << ENTRY_BITS)).astype(np.uint8).tobytes()


def build(rows: int, columns: int) -> bytes:
    """The table of a ``rows`` x ``columns`` board, solved from scratch and encoded."""
    return encode(rows, columns, solve(rows, columns))


def main() -> int:
    """Solve every table the bot ships and write it to ``cogs/dots/data/``; returns the exit code.

    With ``--check`` nothing is written: each fresh solve is compared with the shipped table.
    """
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the shipped tables")
    arguments = parser.parse_args()
    for (rows, columns), name in TABLES.items():
        started = time.perf_counter()
        table = build(rows, columns)
        empty = SolvedBoard(rows, columns, table).value(0)
        took = time.perf_counter() - started
        print(f"{rows}x{columns}: solved in {took:.1f} s; the first player's value is {empty:+d}")
        if arguments.check:
            if read_table(rows, columns) != table:
                print(f"{name} differs from a fresh solve", file=sys.stderr)
                return 1
            print(f"{name} matches a fresh solve")
        else:
            packed = lzma.compress(table, filters=XZ_FILTERS)
            (DATA / name).write_bytes(packed)
            print(f"wrote {DATA / name}: {len(packed):,} bytes ({len(table):,} unpacked)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
