"""The solved Dots and Boxes boards the hard bot plays from: read once, on first use.

Only 3x3 ships: ``data/dots-3x3.xz`` beside this module, every one of its 2**24 positions at 4
bits (8 MiB in memory once read, a few hundred KB on disk), built by ``python -m
cogs.dots.solution_build``; ``engine.dots.solution`` describes the format and decodes it. The
table is read on the first hard move on a 3x3 board, not at start-up, so a bot that never plays
one never pays for it.
"""

from __future__ import annotations

import lzma
import threading
from importlib import resources
from typing import Final

from engine.dots.solution import SolvedBoard, table_size

TABLES: Final = {(3, 3): "dots-3x3.xz"}
_SLICE: Final = 1 << 20

_solved: dict[tuple[int, int], SolvedBoard] = {}
_loading = threading.Lock()  # bot moves run in worker threads: read each table only once


def read_table(rows: int, columns: int) -> bytearray:
    """The shipped rows x columns table, unpacked."""
    name = TABLES[rows, columns]
    packed = resources.files("cogs.dots").joinpath("data", name).read_bytes()
    return unpack(packed, table_size(rows, columns), name)


def unpack(packed: bytes, size: int, name: str) -> bytearray:
    """``size`` bytes of xz data (whose CRC xz checks), or ``ValueError``.

    Unpacked slice by slice straight into one buffer, so reading a table takes little more
    memory than the table itself (the builder also keeps xz's window to 1 MiB).
    """
    table = bytearray(size)
    decoder = lzma.LZMADecompressor(lzma.FORMAT_XZ)
    filled = 0
    while not decoder.eof:
        part = decoder.decompress(packed, max_length=_SLICE)
        packed = b""
        if (not part and decoder.needs_input) or filled + len(part) > size:
            break
        table[filled : filled + len(part)] = part
        filled += len(part)
    if not decoder.eof or filled != size or decoder.unused_data:
        raise ValueError(f"{name} does not unpack to {size:,} bytes")
    return table


def solved_board(rows: int, columns: int) -> SolvedBoard | None:
    """The solved rows x columns board, or ``None`` if none ships for that size."""
    if (rows, columns) not in TABLES:
        return None
    with _loading:
        if (rows, columns) not in _solved:
            _solved[rows, columns] = SolvedBoard(rows, columns, read_table(rows, columns))
        return _solved[rows, columns]
