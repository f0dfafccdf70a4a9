"""Dots and Boxes: the board, its lines and dots, and a game's rules (:class:`DotsGame`).

Dots are named like chess squares: a column letter and a row number, ``A1`` top left; a 3x3 board
of boxes has dots ``A1``..``D4``. A line joins two neighbouring dots and is written ``A1-B1``
(across) or ``A1-A2`` (down). :func:`parse_line` also takes ``b1-a1``, ``A1 B1`` or ``a1b1``.

Representation (after the seed "The Bits of the Dots Game Core", where each box owns its top and
left line and the bottom row and right column close the board): here every line is one bit of a
single ``int`` (across lines first, row by row, then down lines), and each box has a precomputed
mask of its four lines, so a move is O(1): set a bit and test the one or two boxes beside it.
Who drew each line is a second mask, and each player's boxes a mask over the boxes. The board's
masks (``_board``) and the drawn mask are what the search (``engine.dots.search``) and the
solved tables (``engine.dots.solution``) work on.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Final

from engine.errors import GameError, Reason, quoted

MIN_SIDE: Final = 2
MAX_SIDE: Final = 5
_DIGITS: Final = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_LETTERS: Final = "ABCDEFGHIJ"


class DotsError(GameError):
    """A move, line name or state text that the Dots and Boxes rules reject."""


class DotsReason(Reason):
    """Why a typed or picked line is refused: the ``code`` of a :class:`DotsError`; the comments
    name its ``values`` (``line`` is a line's name, such as ``"A1-B1"``)."""

    NOT_A_LINE = "dots_not_a_line"  # typed: the text, quoted and cut short
    DOT_OFF_BOARD = "dots_dot_off_board"  # dot, rows, columns, last_column, last_row
    SAME_DOT = "dots_same_dot"  # line
    DIAGONAL = "dots_diagonal"  # line
    SKIPS_DOTS = "dots_skips_dots"  # line
    TAKEN = "dots_line_taken"  # line, player: the Player who drew it


class Player(enum.Enum):
    """The two sides; FIRST draws the first line."""

    FIRST = "first"
    SECOND = "second"

    @property
    def other(self) -> Player:
        """The opponent."""
        return Player.SECOND if self is Player.FIRST else Player.FIRST


class Orientation(enum.Enum):
    """Which way a line runs from its dot: across (to the right) or down."""

    ACROSS = "across"
    DOWN = "down"


def dot_name(row: int, column: int) -> str:
    """``A1`` for the top-left dot: column letter, then row number from 1."""
    return f"{chr(ord('A') + column)}{row + 1}"


@dataclass(frozen=True, slots=True, order=True)
class Line:
    """A line from the dot at (``row``, ``column``) one step across (right) or down."""

    orientation: Orientation
    row: int
    column: int

    @property
    def dots(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """The two dots the line joins, as (row, column), the top or left one first."""
        if self.orientation is Orientation.ACROSS:
            return (self.row, self.column), (self.row, self.column + 1)
        return (self.row, self.column), (self.row + 1, self.column)

    @property
    def id(self) -> str:
        """The name a player types or picks, e.g. ``A1-B1``."""
        start, end = self.dots
        return f"{dot_name(*start)}-{dot_name(*end)}"

    def __str__(self) -> str:
        return self.id


@dataclass(frozen=True, slots=True)
class MoveResult:
    """What one move did: the boxes it completed, as (row, column); an extra turn if any."""

    line: Line
    player: Player
    completed: tuple[tuple[int, int], ...]
    game_over: bool

    @property
    def extra_turn(self) -> bool:
        """Whether the same player moves again: the line completed a box and the game goes on."""
        return bool(self.completed) and not self.game_over


@dataclass(frozen=True, slots=True)
class _Board:
    """The fixed geometry of one board size: line numbering and the box/line incidences."""

    rows: int
    columns: int
    lines: tuple[Line, ...]
    index_of: dict[Line, int]
    boxes_of_line: tuple[tuple[int, ...], ...]
    box_masks: tuple[int, ...]
    # For each line, the four-line masks of the boxes beside it.
    line_box_masks: tuple[tuple[int, ...], ...]
    full: int


@cache
def _board(rows: int, columns: int) -> _Board:
    lines = [Line(Orientation.ACROSS, r, c) for r in range(rows + 1) for c in range(columns)]
    lines += [Line(Orientation.DOWN, r, c) for r in range(rows) for c in range(columns + 1)]
    index_of = {line: index for index, line in enumerate(lines)}
    box_masks = []
    for r in range(rows):
        for c in range(columns):
            sides = (
                Line(Orientation.ACROSS, r, c),
                Line(Orientation.ACROSS, r + 1, c),
                Line(Orientation.DOWN, r, c),
                Line(Orientation.DOWN, r, c + 1),
            )
            box_masks.append(sum(1 << index_of[side] for side in sides))
    boxes_of_line = tuple(
        tuple(box for box, mask in enumerate(box_masks) if (mask >> index) & 1)
        for index in range(len(lines))
    )
    return _Board(
        rows,
        columns,
        tuple(lines),
        index_of,
        boxes_of_line,
        tuple(box_masks),
        tuple(tuple(box_masks[box] for box in boxes) for boxes in boxes_of_line),
        (1 << len(lines)) - 1,
    )


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _check_size(rows: int, columns: int) -> None:
    for name, value in (("rows", rows), ("columns", columns)):
        if not MIN_SIDE <= value <= MAX_SIDE:
            raise DotsError(f"a board needs {MIN_SIDE}..{MAX_SIDE} {name} of boxes, not {value}")


_LINE_TEXT: Final = re.compile(
    r"\s*([A-Za-z])(\d{1,2})\s*[-\u2013\u2014\s]?\s*([A-Za-z])(\d{1,2})\s*"
)


def parse_line(text: str, rows: int = 3, columns: int = 3) -> Line:
    """The line named by ``text`` (``A1-B1``, ``b1-a1``, ``A1 B1``...) on a rows x columns board."""
    _check_size(rows, columns)
    match = _LINE_TEXT.fullmatch(text)
    if match is None:
        typed = quoted(text)
        raise DotsError(
            f"{typed} is not a line: name two dots, like A1-B1", DotsReason.NOT_A_LINE, typed=typed
        )
    dots = []
    for letter, number in ((match[1], match[2]), (match[3], match[4])):
        column, row = _LETTERS.find(letter.upper()), int(number) - 1
        if not (0 <= column <= columns and 0 <= row <= rows):
            dot = f"{letter.upper()}{number}"
            raise DotsError(
                f"dot {dot} is not on a {rows}x{columns} board "
                f"(columns A-{_LETTERS[columns]}, rows 1-{rows + 1})",
                DotsReason.DOT_OFF_BOARD,
                dot=dot,
                rows=rows,
                columns=columns,
                last_column=_LETTERS[columns],
                last_row=rows + 1,
            )
        dots.append((row, column))
    (row_a, column_a), (row_b, column_b) = sorted(dots)
    name = f"{dot_name(row_a, column_a)}-{dot_name(row_b, column_b)}"
    if (row_a, column_a) == (row_b, column_b):
        raise DotsError(f"{name} joins a dot to itself", DotsReason.SAME_DOT, line=name)
    if row_a == row_b and column_b - column_a == 1:
        return Line(Orientation.ACROSS, row_a, column_a)
    if column_a == column_b and row_b - row_a == 1:
        return Line(Orientation.DOWN, row_a, column_a)
    if abs(row_a - row_b) == 1 and abs(column_a - column_b) == 1:
        raise DotsError(
            f"{name} is diagonal: lines run across or down between neighbours",
            DotsReason.DIAGONAL,
            line=name,
        )
    raise DotsError(
        f"{name} skips dots: a line joins two neighbouring dots", DotsReason.SKIPS_DOTS, line=name
    )


class DotsGame:
    """A game in progress: the lines drawn (and by whom), the boxes owned and whose turn it is."""

    __slots__ = ("_board", "_boxes", "_drawn", "_drawn_by_second", "_history", "_turn")

    def __init__(self, rows: int = 3, columns: int = 3) -> None:
        _check_size(rows, columns)
        self._board = _board(rows, columns)
        self._drawn = 0
        self._drawn_by_second = 0
        self._boxes = {Player.FIRST: 0, Player.SECOND: 0}
        self._history: list[int] = []
        self._turn = Player.FIRST

    @property
    def rows(self) -> int:
        """Boxes down the board."""
        return self._board.rows

    @property
    def columns(self) -> int:
        """Boxes across the board."""
        return self._board.columns

    @property
    def turn(self) -> Player:
        """The player to move."""
        return self._turn

    @property
    def drawn_mask(self) -> int:
        """The drawn lines as bits (line numbering: across lines row by row, then down lines)."""
        return self._drawn

    @property
    def scores(self) -> dict[Player, int]:
        """The boxes each player has completed so far."""
        return {player: boxes.bit_count() for player, boxes in self._boxes.items()}

    @property
    def is_over(self) -> bool:
        """Every line is drawn."""
        return self._drawn == self._board.full

    @property
    def winner(self) -> Player | None:
        """The player with more boxes once the game is over; ``None`` before that or on a tie."""
        if not self.is_over:
            return None
        first, second = self.scores[Player.FIRST], self.scores[Player.SECOND]
        if first == second:
            return None
        return Player.FIRST if first > second else Player.SECOND

    @property
    def all_lines(self) -> tuple[Line, ...]:
        """Every line of the board, in board order (across lines row by row, then down lines)."""
        return self._board.lines

    def free_lines(self) -> tuple[Line, ...]:
        """The lines not drawn yet, in board order (across lines first)."""
        return tuple(self._board.lines[i] for i in _bits(self._board.full & ~self._drawn))

    def drawn_lines(self) -> tuple[tuple[Line, Player], ...]:
        """Every drawn line with who drew it, in the order they were drawn."""
        return tuple((self._board.lines[i], self._owner_of_index(i)) for i in self._history)

    @property
    def last_line(self) -> Line | None:
        """The line drawn last, or None before the first move."""
        return self._board.lines[self._history[-1]] if self._history else None

    def _owner_of_index(self, index: int) -> Player:
        return Player.SECOND if (self._drawn_by_second >> index) & 1 else Player.FIRST

    def _index(self, line: Line) -> int:
        index = self._board.index_of.get(line)
        if index is None:
            raise DotsError(f"line {line.id} is not on a {self.rows}x{self.columns} board")
        return index

    def line_owner(self, line: Line) -> Player | None:
        """Who drew ``line``, or ``None`` if it is still free."""
        index = self._index(line)
        return self._owner_of_index(index) if (self._drawn >> index) & 1 else None

    def _check_box(self, row: int, column: int) -> int:
        if not (0 <= row < self.rows and 0 <= column < self.columns):
            raise DotsError(f"box ({row}, {column}) is not on a {self.rows}x{self.columns} board")
        return row * self.columns + column

    def box_owner(self, row: int, column: int) -> Player | None:
        """Who completed the box at (``row``, ``column``), or None while it is open."""
        box = self._check_box(row, column)
        for player, boxes in self._boxes.items():
            if (boxes >> box) & 1:
                return player
        return None

    def box_owners(self) -> tuple[tuple[Player | None, ...], ...]:
        """Owners of every box, row by row."""
        return tuple(
            tuple(self.box_owner(row, column) for column in range(self.columns))
            for row in range(self.rows)
        )

    def sides_drawn(self, row: int, column: int) -> int:
        """How many of the four sides of the box at (``row``, ``column``) are drawn."""
        box = self._check_box(row, column)
        return (self._drawn & self._board.box_masks[box]).bit_count()

    def parse(self, text: str) -> Line:
        """The line named by ``text`` on this board."""
        return parse_line(text, self.rows, self.columns)

    def play(self, line: Line | str, player: Player | None = None) -> MoveResult:
        """Draw ``line`` for the side to move; completing a box scores it and moves again."""
        if isinstance(line, str):
            line = self.parse(line)
        index = self._index(line)
        if self.is_over:
            raise DotsError("the game is over: every line is drawn")
        if player is not None and player is not self._turn:
            raise DotsError(f"it is the {self._turn.value} player's turn, not the {player.value}'s")
        if (self._drawn >> index) & 1:
            owner = self._owner_of_index(index)
            raise DotsError(
                f"line {line.id} is already drawn (by the {owner.value} player)",
                DotsReason.TAKEN,
                line=line.id,
                player=owner,
            )
        mover = self._turn
        bit = 1 << index
        self._drawn |= bit
        if mover is Player.SECOND:
            self._drawn_by_second |= bit
        self._history.append(index)
        completed = []
        for box in self._board.boxes_of_line[index]:
            mask = self._board.box_masks[box]
            if self._drawn & mask == mask:
                self._boxes[mover] |= 1 << box
                completed.append(divmod(box, self.columns))
        if not completed:
            self._turn = mover.other
        return MoveResult(line, mover, tuple(completed), self.is_over)

    def copy(self) -> DotsGame:
        """An independent copy: moves played on it leave this game as it is."""
        clone = DotsGame(self.rows, self.columns)
        clone._drawn, clone._drawn_by_second = self._drawn, self._drawn_by_second
        clone._boxes = dict(self._boxes)
        clone._history = list(self._history)
        clone._turn = self._turn
        return clone

    def to_state(self) -> str:
        """``RxC:<moves>``: the board size, then one base-62 digit per line drawn, in order."""
        moves = "".join(_DIGITS[index] for index in self._history)
        return f"{self.rows}x{self.columns}:{moves}"

    @classmethod
    def from_state(cls, text: str) -> DotsGame:
        """The game written by :meth:`to_state`, every move replayed and checked again."""
        size, colon, moves = text.partition(":")
        rows_text, times, columns_text = size.partition("x")
        if not (colon and times and rows_text.isdigit() and columns_text.isdigit()):
            raise DotsError(f"dots state {text!r} is not 'RxC:<moves>'")
        game = cls(int(rows_text), int(columns_text))
        for number, digit in enumerate(moves, start=1):
            index = _DIGITS.find(digit)
            if not 0 <= index < len(game._board.lines):
                raise DotsError(f"dots state {text!r}: move {number} ({digit!r}) is not a line")
            try:
                game.play(game._board.lines[index])
            except DotsError as error:
                raise DotsError(f"dots state {text!r}: move {number}: {error}") from error
        return game

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DotsGame):
            return NotImplemented
        return self.to_state() == other.to_state()

    def __hash__(self) -> int:
        return hash(self.to_state())

    def __repr__(self) -> str:
        return f"DotsGame.from_state({self.to_state()!r})"
