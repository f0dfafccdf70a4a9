"""The Tricky Triangle: 15-hole peg solitaire, its rules and an exact solver.

Holes are numbered 0..14 from the top, left to right::

            0
          1   2
        3   4   5
      6   7   8   9
    10  11  12  13  14

A board is a 15-bit ``int`` (bit ``h`` set = a peg in hole ``h``). A jump moves a peg from
``origin`` over a neighbouring peg in a straight line into the empty ``target`` and removes the
peg jumped over. The game starts with one chosen hole empty and is over when no jump is left;
the score is the pegs left, with the traditional remark (:func:`remark`).

Public API (what the cog uses):

* ``TriangleGame.new(empty_hole)``: a fresh game; ``game.jump(origin, target)`` plays a validated
  jump and returns the :class:`Jump`; ``game.board``, ``game.pegs_left``, ``game.is_over``,
  ``game.remark``, ``game.history``, ``game.legal_jumps()``, ``game.jumps_from(hole)``.
* Hints: ``game.hint()`` (the best next jump, or ``None``), ``game.solution()`` (the jumps that
  reach the fewest pegs from here), ``game.best_score()``.
* ``to_state()`` / ``from_state()``: ``"<empty hole>:<jumps>"`` with each jump written as two
  base-15 digits (origin, target), e.g. ``"0:5030"``; loading replays and re-validates every jump.
* The solver (:func:`fewest_pegs`, :func:`best_line`, :func:`count_solutions`,
  :func:`finishing_holes`, :func:`solvable_starts`, :func:`self_finishing_starts`) is exact and
  memoised over boards; the whole reachable space is a few thousand boards.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Final

from engine.errors import GameError, Reason

ROWS: Final = 5
HOLES: Final = ROWS * (ROWS + 1) // 2
FULL_BOARD: Final = (1 << HOLES) - 1
_DIGITS: Final = "0123456789abcde"


class TriangleError(GameError):
    """A jump or state text that the triangle's rules reject."""


class TriangleReason(Reason):
    """Why a jump is refused: the ``code`` of a :class:`TriangleError`; the comments name its
    ``values`` (holes are numbered 0..14)."""

    NO_SUCH_HOLE = "tri_no_such_hole"  # hole, last: the last hole
    GAME_OVER = "tri_game_over"  # pegs: the pegs left
    NO_PEG = "tri_no_peg"  # origin
    LANDING_TAKEN = "tri_landing_taken"  # target
    NOT_STRAIGHT = "tri_not_straight"  # origin, target
    NOTHING_OVER = "tri_nothing_over"  # origin, target, over


def _coordinates() -> tuple[tuple[int, int], ...]:
    return tuple((row, column) for row in range(ROWS) for column in range(row + 1))


COORDINATES: Final = _coordinates()
_HOLE_AT: Final = {rc: hole for hole, rc in enumerate(COORDINATES)}


@dataclass(frozen=True, slots=True, order=True)
class Jump:
    """A peg jumps from ``origin`` over ``over`` into ``target``."""

    origin: int
    over: int
    target: int

    @property
    def mask(self) -> int:
        """The three holes the jump toggles."""
        return (1 << self.origin) | (1 << self.over) | (1 << self.target)

    def is_legal_on(self, board: int) -> bool:
        """Whether ``board`` has pegs in ``origin`` and ``over`` and ``target`` empty."""
        return (
            (board >> self.origin) & 1 == 1
            and (board >> self.over) & 1 == 1
            and not ((board >> self.target) & 1)
        )

    def apply(self, board: int) -> int:
        """The board after this jump (no validation: see :meth:`is_legal_on`)."""
        return board ^ self.mask

    def __str__(self) -> str:
        return f"{self.origin}->{self.target}"


def _all_jumps() -> tuple[Jump, ...]:
    # Three line directions on the triangular lattice, both ways along each.
    steps = ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1))
    jumps = []
    for hole, (row, column) in enumerate(COORDINATES):
        for d_row, d_column in steps:
            over = _HOLE_AT.get((row + d_row, column + d_column))
            target = _HOLE_AT.get((row + 2 * d_row, column + 2 * d_column))
            if over is not None and target is not None:
                jumps.append(Jump(hole, over, target))
    return tuple(sorted(jumps))


ALL_JUMPS: Final = _all_jumps()
JUMPS_FROM: Final = tuple(tuple(j for j in ALL_JUMPS if j.origin == hole) for hole in range(HOLES))
_JUMP_BETWEEN: Final = {(j.origin, j.target): j for j in ALL_JUMPS}

REMARKS: Final = {
    1: "You're genius",
    2: "You're purty smart",
    3: "You're just plain dumb",
}
WORST_REMARK: Final = "You're just plain eg-no-ra-moose"


def remark(pegs_left: int) -> str:
    """The traditional verdict on a finished board with ``pegs_left`` pegs."""
    if pegs_left < 1:
        raise TriangleError(f"a finished triangle has at least one peg, not {pegs_left}")
    return REMARKS.get(pegs_left, WORST_REMARK)


def start_board(empty_hole: int) -> int:
    """A full board but for ``empty_hole``."""
    _check_hole(empty_hole)
    return FULL_BOARD & ~(1 << empty_hole)


def _check_hole(hole: int) -> None:
    if not 0 <= hole < HOLES:
        raise TriangleError(
            f"hole {hole} is not on the board (holes are 0..{HOLES - 1})",
            TriangleReason.NO_SUCH_HOLE,
            hole=hole,
            last=HOLES - 1,
        )


def _check_board(board: int) -> None:
    if not 0 <= board <= FULL_BOARD:
        raise TriangleError(f"board {board:#x} is not a {HOLES}-bit board")


def legal_jumps(board: int) -> tuple[Jump, ...]:
    """Every jump that can be played on ``board``, in (origin, over, target) order."""
    _check_board(board)
    return tuple(jump for jump in ALL_JUMPS if jump.is_legal_on(board))


def pegs_on(board: int) -> int:
    """How many pegs are on ``board``."""
    return board.bit_count()


# --- Solver: exact, memoised over boards (at most 2**15 of them). ---

# Each jump as plain ints for the solver's inner loop: (pegs needed, landing bit, bits toggled).
_RAW_JUMPS: Final = tuple(
    ((1 << j.origin) | (1 << j.over), 1 << j.target, j.mask) for j in ALL_JUMPS
)


def _children(board: int) -> list[int]:
    return [
        board ^ toggle
        for needed, landing, toggle in _RAW_JUMPS
        if board & needed == needed and not board & landing
    ]


@cache
def _fewest(board: int) -> int:
    children = _children(board)
    if not children:
        return board.bit_count()
    return min(_fewest(child) for child in children)


@cache
def _solutions(board: int) -> int:
    children = _children(board)
    if not children:
        return 1 if board.bit_count() == 1 else 0
    return sum(_solutions(child) for child in children)


@cache
def _finishes(board: int) -> int:
    """A bit set of the holes where a single last peg can end up."""
    children = _children(board)
    if not children:
        return board if board.bit_count() == 1 else 0
    holes = 0
    for child in children:
        holes |= _finishes(child)
    return holes


def clear_solver_cache() -> None:
    """Forget every memoised board (for benchmarks that time a cold solve)."""
    _fewest.cache_clear()
    _solutions.cache_clear()
    _finishes.cache_clear()


def fewest_pegs(board: int) -> int:
    """The fewest pegs that can be left from ``board`` by playing until no jump is left."""
    _check_board(board)
    return _fewest(board)


def count_solutions(board: int) -> int:
    """How many distinct jump sequences take ``board`` down to a single peg."""
    _check_board(board)
    return _solutions(board)


def finishing_holes(board: int) -> frozenset[int]:
    """The holes where the last peg can stand when ``board`` is solved down to one peg."""
    _check_board(board)
    holes = _finishes(board)
    return frozenset(hole for hole in range(HOLES) if (holes >> hole) & 1)


def best_jumps(board: int) -> tuple[Jump, ...]:
    """Every legal jump that keeps the fewest reachable pegs (empty when the game is over)."""
    _check_board(board)
    moves = legal_jumps(board)
    if not moves:
        return ()
    target = _fewest(board)
    return tuple(jump for jump in moves if _fewest(jump.apply(board)) == target)


def best_line(board: int) -> tuple[Jump, ...]:
    """A whole sequence of jumps from ``board`` that leaves the fewest pegs possible."""
    _check_board(board)
    line = []
    while best := best_jumps(board):
        line.append(best[0])
        board = best[0].apply(board)
    return tuple(line)


def solvable_starts() -> tuple[int, ...]:
    """The empty starting holes from which the game can end with a single peg."""
    return tuple(hole for hole in range(HOLES) if _fewest(start_board(hole)) == 1)


def self_finishing_starts() -> tuple[int, ...]:
    """The starting holes that can end with the single peg in that same starting hole."""
    return tuple(hole for hole in range(HOLES) if (_finishes(start_board(hole)) >> hole) & 1)


# --- A game in progress. ---


class TriangleGame:
    """One game: the starting hole, the jumps so far and the resulting board."""

    __slots__ = ("_board", "_empty_hole", "_history")

    def __init__(self, empty_hole: int) -> None:
        self._board = start_board(empty_hole)
        self._empty_hole = empty_hole
        self._history: list[Jump] = []

    @classmethod
    def new(cls, empty_hole: int = 0) -> TriangleGame:
        """A fresh game with ``empty_hole`` empty (the top hole by default)."""
        return cls(empty_hole)

    @property
    def board(self) -> int:
        """The pegs now, as a 15-bit mask (bit ``h`` set: a peg in hole ``h``)."""
        return self._board

    @property
    def empty_hole(self) -> int:
        """The hole left empty at the start."""
        return self._empty_hole

    @property
    def history(self) -> tuple[Jump, ...]:
        """The jumps played so far, in order."""
        return tuple(self._history)

    @property
    def pegs_left(self) -> int:
        """How many pegs are on the board."""
        return pegs_on(self._board)

    @property
    def is_over(self) -> bool:
        """No jump is left."""
        return not legal_jumps(self._board)

    @property
    def remark(self) -> str:
        """The verdict for the pegs left (meaningful once the game is over)."""
        return remark(self.pegs_left)

    def has_peg(self, hole: int) -> bool:
        """Whether ``hole`` holds a peg."""
        _check_hole(hole)
        return (self._board >> hole) & 1 == 1

    def legal_jumps(self) -> tuple[Jump, ...]:
        """Every jump that can be played now, in (origin, over, target) order."""
        return legal_jumps(self._board)

    def jumps_from(self, hole: int) -> tuple[Jump, ...]:
        """The legal jumps of the peg in ``hole`` (empty if none, or no peg there)."""
        _check_hole(hole)
        return tuple(jump for jump in JUMPS_FROM[hole] if jump.is_legal_on(self._board))

    def validate(self, origin: int, target: int) -> Jump:
        """The jump ``origin`` -> ``target`` if it is legal now; otherwise say which rule fails."""
        _check_hole(origin)
        _check_hole(target)
        if self.is_over:
            raise TriangleError(
                f"the game is over: no jump is left (pegs left: {self.pegs_left})",
                TriangleReason.GAME_OVER,
                pegs=self.pegs_left,
            )
        if not self.has_peg(origin):
            raise TriangleError(
                f"there is no peg in hole {origin} to jump with",
                TriangleReason.NO_PEG,
                origin=origin,
            )
        if self.has_peg(target):
            raise TriangleError(
                f"hole {target} is not empty, so no peg can land there",
                TriangleReason.LANDING_TAKEN,
                target=target,
            )
        jump = _JUMP_BETWEEN.get((origin, target))
        if jump is None:
            raise TriangleError(
                f"{origin} -> {target} is not a straight jump over one neighbouring hole",
                TriangleReason.NOT_STRAIGHT,
                origin=origin,
                target=target,
            )
        if not self.has_peg(jump.over):
            raise TriangleError(
                f"nothing to jump over: hole {jump.over} between {origin} and {target} is empty",
                TriangleReason.NOTHING_OVER,
                origin=origin,
                target=target,
                over=jump.over,
            )
        return jump

    def jump(self, origin: int, target: int) -> Jump:
        """Play the jump ``origin`` -> ``target`` after validating it; returns the jump."""
        jump = self.validate(origin, target)
        self._board = jump.apply(self._board)
        self._history.append(jump)
        return jump

    def play(self, jump: Jump) -> Jump:
        """Play a :class:`Jump` (validated like :meth:`jump`)."""
        checked = self.validate(jump.origin, jump.target)
        if checked != jump:
            raise TriangleError(f"{jump.origin} -> {jump.target} jumps over {checked.over}")
        return self.jump(jump.origin, jump.target)

    def best_score(self) -> int:
        """The fewest pegs still reachable from here."""
        return fewest_pegs(self._board)

    def hint(self) -> Jump | None:
        """A next jump that keeps the best reachable score; ``None`` once the game is over."""
        best = best_jumps(self._board)
        return best[0] if best else None

    def solution(self) -> tuple[Jump, ...]:
        """The jumps from here to the fewest pegs possible."""
        return best_line(self._board)

    def solutions_count(self) -> int:
        """How many jump sequences from here end with a single peg."""
        return count_solutions(self._board)

    def copy(self) -> TriangleGame:
        """An independent copy: jumps played on it leave this game as it is."""
        clone = TriangleGame(self._empty_hole)
        clone._board = self._board
        clone._history = list(self._history)
        return clone

    def to_state(self) -> str:
        """``<empty hole>:<jumps>``: holes as base-15 digits, each jump's origin then target."""
        jumps = "".join(_DIGITS[j.origin] + _DIGITS[j.target] for j in self._history)
        return f"{_DIGITS[self._empty_hole]}:{jumps}"

    @classmethod
    def from_state(cls, text: str) -> TriangleGame:
        """The game written by :meth:`to_state`, every jump replayed and checked again."""
        start, colon, jumps = text.partition(":")
        if not colon or len(start) != 1 or start not in _DIGITS or len(jumps) % 2:
            raise TriangleError(f"triangle state {text!r} is not '<hole>:<jump pairs>'")
        if any(char not in _DIGITS for char in jumps):
            raise TriangleError(f"triangle state {text!r} has a hole outside 0..e")
        game = cls(_DIGITS.index(start))
        for index in range(0, len(jumps), 2):
            try:
                game.jump(_DIGITS.index(jumps[index]), _DIGITS.index(jumps[index + 1]))
            except TriangleError as error:
                raise TriangleError(
                    f"triangle state {text!r}: jump {index // 2 + 1}: {error}"
                ) from error
        return game

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TriangleGame):
            return NotImplemented
        return self.to_state() == other.to_state()

    def __hash__(self) -> int:
        return hash(self.to_state())

    def __repr__(self) -> str:
        return f"TriangleGame.from_state({self.to_state()!r})"
