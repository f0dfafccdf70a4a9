"""The solved Dots and Boxes boards the hard bot plays from: read once, on first use.

Only 3x3 ships: ``data/dots-3x3.xz``, every one of its 2**24 positions at 4 bits (8 MiB in
memory once loaded, a few hundred KiB on disk), built by ``python -m bot.dots_solution_build``;
``engine.dots_solution`` describes the format and decodes it. The table is read on the first hard
move on a 3x3 board, not at start-up, so a bot that never plays one never pays for it.
"""

from __future__ import annotations

import lzma
import threading
from importlib import resources
from typing import Final

from engine.dots_solution import SolvedBoard

TABLES: Final = {(3, 3): "dots-3x3.xz"}

_solved: dict[tuple[int, int], SolvedBoard] = {}
_loading = threading.Lock()  # bot moves run in worker threads: read each table only once


def read_table(name: str) -> bytes:
    """A shipped table, unpacked (xz checks its own CRC)."""
    return lzma.decompress(resources.files("bot").joinpath("data", name).read_bytes())


def solved_board(rows: int, columns: int) -> SolvedBoard | None:
    """The solved rows x columns board, or ``None`` if none ships for that size."""
    name = TABLES.get((rows, columns))
    if name is None:
        return None
    with _loading:
        if (rows, columns) not in _solved:
            _solved[rows, columns] = SolvedBoard(rows, columns, read_table(name))
        return _solved[rows, columns]
