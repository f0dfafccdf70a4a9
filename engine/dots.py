"""Dots and Boxes on boards of R x C boxes (2x2 up to 5x5; 3x3 by default), and its AI.

Dots are named like chess squares: a column letter and a row number, ``A1`` top left; a 3x3 board
of boxes has dots ``A1``..``D4``. A line joins two neighbouring dots and is written ``A1-B1``
(across) or ``A1-A2`` (down). :func:`parse_line` also takes ``b1-a1``, ``A1 B1`` or ``a1b1``.

Representation (after the seed "The Bits of the Dots Game Core", where each box owns its top and
left line and the bottom row and right column close the board): here every line is one bit of a
single ``int`` (across lines first, row by row, then down lines), and each box has a precomputed
mask of its four lines, so a move is O(1): set a bit and test the one or two boxes beside it.
Who drew each line is a second mask, and each player's boxes a mask over the boxes.

Public API (what the cog and the renderer use):

* ``DotsGame(rows=3, columns=3)``; ``game.play(line_or_text, player=None)`` validates (line on the
  board, not drawn yet, game not over, right player's turn) and returns a :class:`MoveResult`
  (boxes completed; the same player moves again exactly when it completed one).
* ``game.turn``, ``game.scores`` (``{Player.FIRST: n, Player.SECOND: m}``), ``game.is_over``,
  ``game.winner`` (``None`` while playing or on a tie), ``game.free_lines()`` (each ``Line`` has a
  stable ``id`` such as ``"A1-B1"``), ``game.drawn_lines()`` (``(line, player)`` in the order
  drawn), ``game.line_owner(line)``, ``game.box_owner(row, column)``, ``game.box_owners()``.
* ``to_state()`` / ``from_state()``: ``"3x3:<moves>"``, one base-62 digit per line drawn, in order;
  loading replays and re-validates every move, so turns, owners and scores come back exactly.
* ``choose_line(game, level, rng, solution=None)``: ``Level.EASY`` (any free line),
  ``Level.NORMAL`` (greedy: takes every box offered, otherwise a safe line, otherwise the smallest
  gift) and ``Level.HARD``:

  - given the board's ``solution`` (a :class:`engine.dots_solution.SolvedBoard`, which ships for
    3x3 and ``cogs.dots.solution`` loads), perfect play from the first move: a line of the best
    exact value, read from the table (ties as below);
  - otherwise, once at most :data:`EXACT_LINE_LIMIT` lines are free: exact alpha-beta with a
    transposition table (ties go to a capture, then a safe line; a sacrifice only when strictly
    better);
  - before that: it takes boxes whose capture opens nothing, never hands over a box while a
    safe line exists, and picks its safe line by searching the safe-line phase (including the
    clean one- and two-box sacrifices that flip its parity) down to the positions without a
    safe line, which it scores with the long-chain rule (:func:`loony_value`: whoever must
    open the long chains loses control). The search runs once at most
    :data:`SAFE_SEARCH_MAX_LINES` safe lines are left, within :data:`SAFE_SEARCH_NODES`;
  - in the loony endgame it double-deals (declines the last two boxes of a chain, leaving them
    to the opponent, who must then open the next chain) when keeping control pays, and when it
    must open a chain it opens the cheapest, a two in the middle so it cannot be double-dealt.
* ``exact_line_values(game)``: every free line's exact value for the side to move (small endgames).
"""

from __future__ import annotations

import enum
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Final, Protocol

from engine.errors import GameError, Reason, quoted


class Solution(Protocol):
    """A solved board size (:class:`engine.dots_solution.SolvedBoard` is one): for a position,
    each free line's exact value for the side to move."""

    @property
    def rows(self) -> int:
        """Boxes down the board."""

    @property
    def columns(self) -> int:
        """Boxes across the board."""

    def line_values(self, drawn: int) -> dict[int, int]:
        """Each free line's exact value for the side to move, with the lines ``drawn`` (bits)."""


MIN_SIDE: Final = 2
MAX_SIDE: Final = 5
EXACT_LINE_LIMIT: Final = 16
SAFE_SEARCH_NODES: Final = 20_000
SAFE_SEARCH_MAX_LINES: Final = 14
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


# --- Position analysis on (board, drawn mask): shared by the AI levels. ---


def _gain(board: _Board, drawn: int, line: int) -> int:
    """How many boxes drawing ``line`` completes."""
    after = drawn | (1 << line)
    return sum(1 for mask in board.line_box_masks[line] if after & mask == mask)


def _is_safe(board: _Board, drawn: int, line: int) -> bool:
    """Drawing ``line`` leaves no box with three sides (so it hands the opponent nothing)."""
    return all((drawn & mask).bit_count() <= 1 for mask in board.line_box_masks[line])


def _classify(board: _Board, drawn: int) -> tuple[list[int], list[int], list[int]]:
    """The free lines split into captures, safe lines and gifts (lines that offer a box)."""
    captures, safe, gifts = [], [], []
    for line in _bits(board.full & ~drawn):
        if _gain(board, drawn, line):
            captures.append(line)
        elif _is_safe(board, drawn, line):
            safe.append(line)
        else:
            gifts.append(line)
    return captures, safe, gifts


def _take_everything(board: _Board, drawn: int) -> tuple[int, int]:
    """Capture greedily until nothing is capturable: (boxes taken, lines drawn afterwards)."""
    taken = 0
    progress = True
    while progress:
        progress = False
        for line in _bits(board.full & ~drawn):
            gained = _gain(board, drawn, line)
            if gained:
                drawn |= 1 << line
                taken += gained
                progress = True
    return taken, drawn


# --- Exact search: negamax alpha-beta over drawn masks with a transposition table. ---

# Values are the net boxes (mine minus theirs) still to be won by the side to move.
_EXACT, _LOWER, _UPPER = 0, 1, 2
_TABLE_LIMIT: Final = 200_000
_EXACT_TABLES: Final[dict[tuple[int, int], dict[int, tuple[int, int]]]] = {}


class _Exact:
    """Exact solver: negamax alpha-beta over drawn masks, captures first, forced captures
    (:func:`_forced_capture`) played without alternatives, bounds kept in a table per board
    size that lives between calls (the value of a position depends only on its lines)."""

    def __init__(self, board: _Board) -> None:
        self.board = board
        self.table = _EXACT_TABLES.setdefault((board.rows, board.columns), {})
        if len(self.table) > _TABLE_LIMIT:
            self.table.clear()  # bounded memory between games

    def moves(self, drawn: int) -> list[tuple[int, int]]:
        """(line, boxes gained) in a good search order, or the single forced capture."""
        board = self.board
        captures, safe, gifts = [], [], []
        for line in _bits(board.full & ~drawn):
            masks = board.line_box_masks[line]
            after = drawn | (1 << line)
            gained = sum(1 for mask in masks if after & mask == mask)
            if gained:
                if _forced_capture(board, drawn, line, gained):
                    return [(line, gained)]
                captures.append((line, gained))
            elif all((drawn & mask).bit_count() <= 1 for mask in masks):
                safe.append((line, 0))
            else:
                gifts.append((line, 0))
        return captures + safe + gifts

    def value(self, drawn: int, alpha: int, beta: int) -> int:
        if drawn == self.board.full:
            return 0
        entry = self.table.get(drawn)
        if entry is not None:
            stored, flag = entry
            if flag == _EXACT:
                return stored
            if flag == _LOWER:
                alpha = max(alpha, stored)
            else:
                beta = min(beta, stored)
            if alpha >= beta:
                return stored
        original_alpha = alpha
        best = -1000
        for line, gained in self.moves(drawn):
            score = self.after(drawn, line, gained, alpha, beta)
            best = max(best, score)
            alpha = max(alpha, score)
            if alpha >= beta:
                break
        flag = _UPPER if best <= original_alpha else _LOWER if best >= beta else _EXACT
        self.table[drawn] = (best, flag)
        return best

    def after(self, drawn: int, line: int, gained: int, alpha: int, beta: int) -> int:
        """The mover's value of drawing ``line`` (which completes ``gained`` boxes)."""
        child = drawn | (1 << line)
        if gained:
            return gained + self.value(child, alpha - gained, beta - gained)
        return -self.value(child, -beta, -alpha)

    def line_values(self, drawn: int) -> dict[int, int]:
        """The exact value of every free line for the side to move."""
        board = self.board
        values = {}
        for line in _bits(board.full & ~drawn):
            values[line] = self.after(drawn, line, _gain(board, drawn, line), -1000, 1000)
        return values

    def best_lines(self, drawn: int) -> list[int]:
        """Every free line with the best exact value (narrow windows only test for ties)."""
        board = self.board
        captures, safe, gifts = _classify(board, drawn)
        order = captures + safe + gifts
        top = self.after(drawn, order[0], _gain(board, drawn, order[0]), -1000, 1000)
        best = [order[0]]
        for line in order[1:]:
            gained = _gain(board, drawn, line)
            score = self.after(drawn, line, gained, top - 1, top + 1)
            if score > top:
                top = self.after(drawn, line, gained, top, 1000)
                best = [line]
            elif score == top:
                best.append(line)
        return best


def _forced_capture(board: _Board, drawn: int, line: int, gained: int) -> bool:
    """Whether a capture can be played at once, without trying the alternatives.

    Sound when the line touches only boxes it completes: whoever draws it later gets the same
    boxes and the same extra move, so taking them now is never worse. Also played at once when
    the box on the other side keeps at most two sides, so the capture opens nothing; that rule
    agrees with plain minimax on every position of the 2x2 and 2x3 boards (and the tests check
    sampled 3x3 endgames).
    """
    masks = board.line_box_masks[line]
    if gained == len(masks):
        return True
    after = drawn | (1 << line)
    return all((drawn & mask).bit_count() <= 1 for mask in masks if after & mask != mask)


def exact_line_values(game: DotsGame) -> dict[Line, int]:
    """Each free line's exact value for the side to move: the net boxes it wins from here on.

    Exponential in the number of free lines: meant for endgames (about 20 free lines or fewer).
    """
    board = game._board
    values = _Exact(board).line_values(game.drawn_mask)
    return {board.lines[line]: value for line, value in values.items()}


# --- The loony endgame and the long-chain rule. ---


def _components(board: _Board, drawn: int) -> list[tuple[bool, list[int]]]:
    """Chains and cycles of two-sided boxes as (is_cycle, boxes along it).

    Boxes with fewer than two sides (junctions) split chains; they are left out, which makes
    the value of positions with junctions an estimate.
    """
    chain_boxes = {
        box for box, mask in enumerate(board.box_masks) if (drawn & mask).bit_count() == 2
    }
    neighbours: dict[int, list[int]] = {box: [] for box in chain_boxes}
    for box in chain_boxes:
        for line in _bits(board.box_masks[box] & ~drawn):
            for other in board.boxes_of_line[line]:
                if other != box and other in chain_boxes:
                    neighbours[box].append(other)
    seen: set[int] = set()
    found = []
    for start in sorted(chain_boxes):
        if start in seen:
            continue
        component = {start}
        stack = [start]
        while stack:
            box = stack.pop()
            for other in neighbours[box]:
                if other not in component:
                    component.add(other)
                    stack.append(other)
        seen |= component
        ends = [box for box in component if len(neighbours[box]) < 2]
        is_cycle = not ends
        walk = [min(component) if is_cycle else min(ends)]
        while len(walk) < len(component):
            following = [box for box in neighbours[walk[-1]] if box not in walk]
            if not following:
                break
            walk.append(following[0])
        found.append((is_cycle, walk))
    return found


def _shape(components: list[tuple[bool, list[int]]]) -> tuple[tuple[bool, int], ...]:
    return tuple(sorted((is_cycle, len(boxes)) for is_cycle, boxes in components))


@cache
def loony_value(shape: tuple[tuple[bool, int], ...]) -> int:
    """Net boxes for the player who must open one of these chains/cycles next.

    ``shape`` is a sorted tuple of (is_cycle, boxes). The opener picks a component; the other
    player takes it all and opens the next, or keeps control by declining the last two boxes of
    a chain of three or more (four of a cycle). Chains of one or two cannot be declined (a two
    is opened in the middle). This is the long-chain rule made exact for simple endgames.
    """
    if not shape:
        return 0
    best = -1000
    for position, (is_cycle, size) in enumerate(shape):
        if position and shape[position - 1] == (is_cycle, size):
            continue
        rest = shape[:position] + shape[position + 1 :]
        after = loony_value(rest)
        reply = size + after
        if rest and is_cycle:
            reply = max(reply, size - 8 - after)
        elif rest and size >= 3:
            reply = max(reply, size - 4 - after)
        best = max(best, -reply)
    return best


# --- The AI. ---


class Level(enum.Enum):
    """How well :func:`choose_line` plays (the module docstring describes each level)."""

    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"


def choose_line(
    game: DotsGame, level: Level, rng: random.Random, solution: Solution | None = None
) -> Line:
    """The AI's line for the side to move; ``rng`` breaks ties.

    ``solution``, the solved table of this board size, makes ``Level.HARD`` perfect.
    """
    if game.is_over:
        raise DotsError("the game is over: every line is drawn")
    board, drawn = game._board, game.drawn_mask
    if solution is not None and (solution.rows, solution.columns) != (game.rows, game.columns):
        raise DotsError(
            f"a {solution.rows}x{solution.columns} solution cannot play "
            f"a {game.rows}x{game.columns} board"
        )
    if level is Level.EASY:
        line = rng.choice(list(_bits(board.full & ~drawn)))
    elif level is Level.NORMAL:
        line = _greedy_line(board, drawn, rng)
    else:
        line = _hard_line(board, drawn, rng, solution)
    return board.lines[line]


def _smallest_gifts(board: _Board, drawn: int, lines: list[int]) -> list[int]:
    """The lines among ``lines`` after which the opponent can take the fewest boxes."""
    cost = {line: _take_everything(board, drawn | (1 << line))[0] for line in lines}
    least = min(cost.values())
    return [line for line in lines if cost[line] == least]


def _greedy_line(board: _Board, drawn: int, rng: random.Random) -> int:
    captures, safe, gifts = _classify(board, drawn)
    if captures:
        return rng.choice(captures)
    if safe:
        return rng.choice(safe)
    return rng.choice(_smallest_gifts(board, drawn, gifts))


def _hard_line(board: _Board, drawn: int, rng: random.Random, solution: Solution | None) -> int:
    free = board.full & ~drawn
    captures, safe, gifts = _classify(board, drawn)
    best: set[int] = set()
    if solution is not None:
        values = solution.line_values(drawn)
        top = max(values.values())
        best = {line for line, value in values.items() if value == top}
    elif free.bit_count() <= EXACT_LINE_LIMIT:
        best = set(_Exact(board).best_lines(drawn))
    # Among equally good lines: take boxes, then stay safe, then give.
    for group in (captures, safe, gifts):
        preferred = [line for line in group if line in best]
        if preferred:
            return rng.choice(preferred)
    if captures:
        return _capture_phase(board, drawn, captures, bool(safe), rng)
    if safe:
        return _safe_phase(board, drawn, safe, rng)
    return _opening_move(board, drawn, gifts, rng)


def _run(board: _Board, drawn: int, line: int) -> tuple[int, int | None]:
    """Follow the captures that start with ``line``: (boxes taken, double-deal line or None).

    The double-deal line exists when the run is exactly two boxes taken one at a time: it is
    the second capture's line, which drawn now instead leaves both boxes to the opponent.
    """
    taken, single_captures, current = 0, [], line
    while True:
        gained = _gain(board, drawn, current)
        if not gained:
            break
        taken += gained
        if gained == 1:
            single_captures.append(current)
        drawn |= 1 << current
        following = [
            candidate
            for box in board.boxes_of_line[current]
            for candidate in _bits(board.box_masks[box] & ~drawn)
            if (drawn & board.box_masks[box]).bit_count() == 3
        ]
        if len(following) != 1:
            break
        current = following[0]
    if taken == 2 and len(single_captures) == 2:
        return taken, single_captures[1]
    return taken, None


def _capture_phase(
    board: _Board, drawn: int, captures: list[int], safe_now: bool, rng: random.Random
) -> int:
    """Take safe boxes; in the loony endgame decline the last two when keeping control pays."""
    simple = [
        line for line in captures if _forced_capture(board, drawn, line, _gain(board, drawn, line))
    ]
    if simple:
        return rng.choice(simple)
    _, after_all = _take_everything(board, drawn)
    _, safe_after, _ = _classify(board, after_all)
    if safe_now or safe_after or after_all == board.full:
        return rng.choice(captures)
    # Loony endgame: every capture runs along a chain. Eat other runs first, then decide on
    # the last two boxes of the final run.
    if len(captures) > 1:
        runs = {line: _run(board, drawn, line) for line in captures}
        others = [line for line in captures if runs[line][1] is None]
        return rng.choice(others or captures)
    line = captures[0]
    _, far_end = _run(board, drawn, line)
    if far_end is not None:
        rest = _shape(_components(board, after_all))
        # Take both and open next (2 + f) or give both and make them open (-2 - f).
        if rest and -2 - loony_value(rest) > 2 + loony_value(rest):
            return far_end
    return line


def _safe_phase(board: _Board, drawn: int, safe: list[int], rng: random.Random) -> int:
    """Pick a safe line by searching the safe-line game to the long-chain endgame."""
    if len(safe) > SAFE_SEARCH_MAX_LINES:
        return rng.choice(safe)  # too early to read to the end within the budget
    search = _SafeSearch(board, SAFE_SEARCH_NODES)
    safe_mask = sum(1 << line for line in safe)
    try:
        values = {line: -search.value(*search.child(drawn, safe_mask, line)) for line in safe}
    except _NodeBudgetSpentError:
        return rng.choice(safe)
    best = max(values.values())
    return rng.choice([line for line in safe if values[line] == best])


class _NodeBudgetSpentError(Exception):
    pass


class _SafeSearch:
    """Negamax over the safe-line phase; a position without a safe line is scored by
    ``loony_value`` (the long-chain rule).

    Besides safe lines, a player may make a clean sacrifice: a line that hands over one or two
    boxes whose capture opens nothing else. Taking them is then forced (see
    ``_forced_capture``), so the sacrifice costs those boxes and passes the move: the way to
    flip the parity of the safe lines. No box is capturable at a node of this search.
    """

    def __init__(self, board: _Board, nodes: int) -> None:
        self.board = board
        self.nodes_left = nodes
        self.memo: dict[int, int] = {}

    def child(self, drawn: int, safe: int, line: int) -> tuple[int, int]:
        """The position after the safe ``line``: it changes only the safety of its own boxes."""
        drawn |= 1 << line
        safe &= ~(1 << line)
        for mask in self.board.line_box_masks[line]:
            if (drawn & mask).bit_count() >= 2:
                safe &= ~mask
        return drawn, safe

    def sacrifice(self, drawn: int, safe: int, line: int) -> tuple[int, int, int] | None:
        """(boxes handed over, lines drawn once taken, safe lines then) for a clean sacrifice."""
        board = self.board
        after = drawn | (1 << line)
        given = 0
        touched = list(board.boxes_of_line[line])
        for box in board.boxes_of_line[line]:
            mask = board.box_masks[box]
            if (after & mask).bit_count() != 3:
                continue
            last = (mask & ~after).bit_length() - 1
            after |= 1 << last
            given += 1
            touched += board.boxes_of_line[last]
        if not given:
            return None
        safe &= ~after
        for box in touched:
            sides_drawn = (after & board.box_masks[box]).bit_count()
            if sides_drawn == 3:
                return None  # the box beyond becomes capturable: a chain, not a gift
            if sides_drawn >= 2:
                safe &= ~board.box_masks[box]
        return given, after, safe

    def value(self, drawn: int, safe: int) -> int:
        self.nodes_left -= 1  # counts table hits too: the budget bounds the time taken
        if self.nodes_left < 0:
            raise _NodeBudgetSpentError
        known = self.memo.get(drawn)
        if known is not None:
            return known
        if not safe:
            result = loony_value(_shape(_components(self.board, drawn)))
        else:
            result = max(-self.value(*self.child(drawn, safe, line)) for line in _bits(safe))
            free = self.board.full & ~drawn & ~safe
            self.nodes_left -= free.bit_count()  # each line is checked as a sacrifice
            for line in _bits(free):
                gift = self.sacrifice(drawn, safe, line)
                if gift is not None:
                    given, after, safe_after = gift
                    result = max(result, -given - self.value(after, safe_after))
        self.memo[drawn] = result
        return result


def _opening_move(board: _Board, drawn: int, gifts: list[int], rng: random.Random) -> int:
    """No safe line is left: open the component the loony endgame says to, the right way."""
    components = _components(board, drawn)
    if components:
        shape = _shape(components)
        best_value, choice = -1000, components[0]
        for is_cycle, boxes in components:
            rest = list(shape)
            rest.remove((is_cycle, len(boxes)))
            after = loony_value(tuple(rest))
            size = len(boxes)
            reply = size + after
            if rest and is_cycle:
                reply = max(reply, size - 8 - after)
            elif rest and size >= 3:
                reply = max(reply, size - 4 - after)
            if -reply > best_value or (-reply == best_value and size < len(choice[1])):
                best_value, choice = -reply, (is_cycle, boxes)
        line = _opening_line(board, drawn, choice)
        if line is not None:
            return line
    return rng.choice(_smallest_gifts(board, drawn, gifts))


def _opening_line(board: _Board, drawn: int, component: tuple[bool, list[int]]) -> int | None:
    """The line that opens a component: the middle of a two (no double-deal possible), else an
    end of the chain that touches nothing outside it."""
    is_cycle, boxes = component
    members = set(boxes)
    lines = {line for box in boxes for line in _bits(board.box_masks[box] & ~drawn)}
    inside = [line for line in lines if set(board.boxes_of_line[line]) <= members]
    inside = [line for line in inside if len(board.boxes_of_line[line]) == 2]
    if is_cycle or len(boxes) == 2:
        return min(inside) if inside else None
    outside = sorted(line for line in lines if line not in inside)
    # Prefer an end line on the border: it changes no box outside the chain.
    for line in outside:
        if len(board.boxes_of_line[line]) == 1:
            return line
    return outside[0] if outside else None
