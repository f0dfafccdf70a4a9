"""Exact values of every Dots and Boxes position of a small board, read from a table.

A position's value depends only on which lines are drawn (not on who drew them or on the score
so far), so a board of ``n`` lines has ``2**n`` positions: 16,777,216 on the 3x3 board's 24
lines, few enough to solve them all once (``python -m cogs.dots.solution_build``) and ship the
answer. This module only decodes such a table; reading the file is the caller's job
(``cogs.dots.solution``), which keeps the engine free of I/O.

Table format: one 4-bit entry per line set, two to a byte (the even line set in the low
nibble). An entry is ``(value + boxes_left) // 2``, where ``value`` is the net boxes (mine minus
theirs) the side to move wins from here on with best play on both sides and ``boxes_left`` the
boxes not completed yet: the two have the same parity and ``|value| <= boxes_left``, so the
entry is a whole number from 0 to ``boxes_left`` (at most 9 on 3x3). Only the canonical line set
of each symmetry class is stored (the smallest of its images under the board's symmetries: 8 on
a square board, 4 otherwise); the other entries are 0, which compresses to almost nothing.
"""

from __future__ import annotations

import itertools
from typing import Final

from engine.dots.rules import Line, Orientation, _bits, _Board, _board
from engine.dots.search import _gain

ENTRY_BITS: Final = 4


def _dot_image(
    dot: tuple[int, int], rows: int, columns: int, transpose: bool, flip: tuple[bool, bool]
) -> tuple[int, int]:
    row, column = (dot[1], dot[0]) if transpose else dot
    return (rows - row if flip[0] else row), (columns - column if flip[1] else column)


def symmetries(rows: int, columns: int) -> tuple[tuple[int, ...], ...]:
    """The board's symmetries as permutations of its line numbers, the identity first.

    ``permutation[line]`` is where ``line`` goes: reflections in either axis, both (a half
    turn), and on a square board the same after a reflection in the diagonal.
    """
    board = _board(rows, columns)
    found = []
    for transpose in (False, True) if rows == columns else (False,):
        for flip_rows, flip_columns in itertools.product((False, True), repeat=2):
            flip = (flip_rows, flip_columns)
            permutation = []
            for line in board.lines:
                start, end = sorted(
                    _dot_image(dot, rows, columns, transpose, flip) for dot in line.dots
                )
                orientation = Orientation.ACROSS if start[0] == end[0] else Orientation.DOWN
                permutation.append(board.index_of[Line(orientation, *start)])
            found.append(tuple(permutation))
    return tuple(found)


def table_size(rows: int, columns: int) -> int:
    """The bytes a table for this board takes: two entries a byte, one per line set."""
    return (1 << len(_board(rows, columns).lines)) // 2


class SolvedBoard:
    """Every position of one board size, solved: :meth:`value` is an O(1) table look-up."""

    __slots__ = ("_board", "_images", "_table", "columns", "rows")

    def __init__(self, rows: int, columns: int, table: bytes | bytearray) -> None:
        self._board: _Board = _board(rows, columns)
        if rows * columns >= 1 << ENTRY_BITS:
            raise ValueError(f"a {rows}x{columns} board has too many boxes for 4-bit entries")
        if len(table) != table_size(rows, columns):
            raise ValueError(
                f"a {rows}x{columns} table holds {table_size(rows, columns)} bytes, "
                f"not {len(table)}"
            )
        self.rows, self.columns = rows, columns
        self._table = memoryview(table).toreadonly()
        full = self._board.full
        # Each symmetry but the identity as one look-up table per byte of a line set: the image
        # of a set is the OR of its bytes' images (bits beyond the last line never occur).
        self._images = tuple(
            tuple(
                tuple(
                    sum(
                        1 << permutation[8 * chunk + bit]
                        for bit in _bits(byte & (full >> 8 * chunk))
                    )
                    for byte in range(256)
                )
                for chunk in range((len(permutation) + 7) // 8)
            )
            for permutation in symmetries(rows, columns)[1:]
        )

    def canonical(self, drawn: int) -> int:
        """The smallest image of the line set ``drawn`` under the board's symmetries."""
        smallest = drawn
        for chunks in self._images:
            image = 0
            for chunk, images in enumerate(chunks):
                image |= images[(drawn >> (8 * chunk)) & 0xFF]
            smallest = min(smallest, image)
        return smallest

    def value(self, drawn: int) -> int:
        """Net boxes the side to move wins from the position ``drawn`` on, with best play."""
        index = self.canonical(drawn)
        entry = (self._table[index >> 1] >> (ENTRY_BITS * (index & 1))) & 0xF
        boxes_left = sum(1 for mask in self._board.box_masks if drawn & mask != mask)
        return 2 * entry - boxes_left

    def line_values(self, drawn: int) -> dict[int, int]:
        """Each free line's value for the side to move: what it completes, then the rest.

        Completing a box keeps the move (add the value of what follows); otherwise the
        opponent moves next (subtract it).
        """
        values = {}
        for line in _bits(self._board.full & ~drawn):
            gained = _gain(self._board, drawn, line)
            after = self.value(drawn | (1 << line))
            values[line] = gained + after if gained else -after
        return values
