"""Tic-tac-toe on boards from 3x3 to 5x5 with k in a row to win, and an AI in three levels.

Cells are numbered ``0..size*size-1`` row by row from the top left (``row * size + column``),
which is also the order of the Discord buttons. X always moves first.

Public API (what the cog uses):

* ``Rules(size, k)`` or ``Rules.standard(size)`` (k = 3 on 3x3, 4 on 4x4 and on 5x5).
* ``TicTacToe(rules)``: ``game.play(cell)`` validates (cell on the board, empty, game not over)
  and returns the :class:`Outcome`; ``game.turn``, ``game.outcome``, ``game.cells``,
  ``game.legal_moves()``, ``game.is_over``, ``game.copy()``.
  ``game.play(cell, player=...)`` also checks it is that player's turn.
* :class:`Outcome`: ``status`` (in progress, X wins, O wins, draw), ``winner`` and ``line``,
  the cells of every completed line of the winner (sorted; empty unless someone won).
  After a move only the lines through that cell are checked; :meth:`TicTacToe.scan_outcome`
  scans the whole board (used when loading a state) and the two always agree.
* ``to_state()`` / ``from_state()``: ``"<size>/<k>/<cells>"`` with ``X``, ``O`` and ``.`` per
  cell, e.g. ``"3/3/X.O.X...."``; loading rejects boards no legal game can reach.
* ``choose_move(game, level, rng)``: ``Level.EASY`` (a random legal cell), ``Level.NORMAL``
  (wins, else blocks, else the best heuristic cell) and ``Level.PERFECT`` (exact minimax with a
  transposition table once at most :data:`EXACT_EMPTY_LIMIT` cells are empty, which is the whole
  game on 3x3; otherwise it takes a win, blocks a loss, and runs iterative-deepening alpha-beta
  with a transposition table, reading wins, double threats and forced blocks exactly at every
  node, under a node budget (:data:`SEARCH_NODE_BUDGET`) so it answers in about 100 ms).
* ``perfect_moves(game)``: all the cells PERFECT rates best; ``winning_cells(game, player)``:
  the cells where ``player`` would complete a line now (for hints).
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Final

from engine.errors import GameError, Reason

MIN_SIZE: Final = 3
MAX_SIZE: Final = 5
MIN_K: Final = 3
EXACT_EMPTY_LIMIT: Final = 9
SEARCH_NODE_BUDGET: Final = 12_000
_WIN_SCORE: Final = 1_000_000
_EXACT_CACHE_LIMIT: Final = 200_000


class TicTacToeError(GameError):
    """A move, board or state text that the tic-tac-toe rules reject."""


class TicTacToeReason(Reason):
    """Why a move is refused: the ``code`` of a :class:`TicTacToeError`; the comments name its
    ``values`` (cells are numbered from 0 in reading order)."""

    OFF_BOARD = "ttt_off_board"  # cell, size, last: the last cell
    CELL_TAKEN = "ttt_cell_taken"  # cell, mark: the Player whose mark is there


class Player(enum.Enum):
    """The two marks; X moves first."""

    X = "X"
    O = "O"  # noqa: E741 - the name of the mark

    @property
    def other(self) -> Player:
        """The opponent."""
        return Player.O if self is Player.X else Player.X


class Status(enum.Enum):
    """Where a game stands: in progress, won by X or by O, or drawn."""

    IN_PROGRESS = "in progress"
    X_WINS = "X wins"
    O_WINS = "O wins"
    DRAW = "draw"


@dataclass(frozen=True, slots=True)
class Outcome:
    """Where the game stands; ``line`` holds the winner's completed line cells, sorted."""

    status: Status
    line: tuple[int, ...] = ()

    @property
    def winner(self) -> Player | None:
        """The player who won, or None while the game goes on or after a draw."""
        if self.status is Status.X_WINS:
            return Player.X
        if self.status is Status.O_WINS:
            return Player.O
        return None

    @property
    def is_over(self) -> bool:
        """Someone has won or the board is full."""
        return self.status is not Status.IN_PROGRESS

    @classmethod
    def win(cls, player: Player, line: tuple[int, ...]) -> Outcome:
        """The outcome where ``player`` has won with the cells ``line`` (sorted)."""
        return cls(Status.X_WINS if player is Player.X else Status.O_WINS, line)


IN_PROGRESS: Final = Outcome(Status.IN_PROGRESS)
DRAW: Final = Outcome(Status.DRAW)


@dataclass(frozen=True, slots=True)
class Rules:
    """A square board of ``size`` cells a side where ``k`` in a row wins."""

    size: int = 3
    k: int = 3

    def __post_init__(self) -> None:
        if not MIN_SIZE <= self.size <= MAX_SIZE:
            raise TicTacToeError(
                f"a {self.size}x{self.size} board is not allowed: sizes go {MIN_SIZE}..{MAX_SIZE}"
            )
        if not MIN_K <= self.k <= self.size:
            raise TicTacToeError(
                f"{self.k} in a row cannot be the goal on {self.size}x{self.size}: "
                f"k goes {MIN_K}..{self.size}"
            )

    @classmethod
    def standard(cls, size: int = 3) -> Rules:
        """The default goal for a size: the whole row up to 4x4, four in a row on 5x5."""
        return cls(size, min(size, 4))

    @property
    def cells(self) -> int:
        """How many cells the board has."""
        return self.size * self.size


@dataclass(frozen=True, slots=True)
class _Geometry:
    """Every winning line of a ruleset as bit masks, and the lines through each cell."""

    lines: tuple[int, ...]
    cell_count: int
    lines_through: tuple[tuple[int, ...], ...]
    full: int
    # Cells ordered by how many lines pass through them: a cheap, good move ordering.
    cells_by_lines: tuple[int, ...]


@cache
def _geometry(rules: Rules) -> _Geometry:
    size, k = rules.size, rules.k
    lines = []
    for row in range(size):
        for column in range(size):
            for d_row, d_column in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_row, end_column = row + d_row * (k - 1), column + d_column * (k - 1)
                if 0 <= end_row < size and 0 <= end_column < size:
                    mask = 0
                    for step in range(k):
                        mask |= 1 << ((row + d_row * step) * size + column + d_column * step)
                    lines.append(mask)
    through = tuple(
        tuple(mask for mask in lines if (mask >> cell) & 1) for cell in range(rules.cells)
    )
    by_lines = tuple(sorted(range(rules.cells), key=lambda cell: (-len(through[cell]), cell)))
    return _Geometry(tuple(lines), rules.cells, through, (1 << rules.cells) - 1, by_lines)


def _cells_of(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _winning_cells(geometry: _Geometry, stones: int, lines: tuple[int, ...]) -> int:
    """The union of the completed ``lines`` for ``stones`` (0 if none is complete)."""
    union = 0
    for mask in lines:
        if stones & mask == mask:
            union |= mask
    return union


class TicTacToe:
    """A game in progress: X and O stones as bit masks, the side to move and the outcome."""

    __slots__ = ("_o", "_outcome", "_rules", "_x")

    def __init__(self, rules: Rules | None = None) -> None:
        self._rules = rules if rules is not None else Rules.standard(3)
        self._x = 0
        self._o = 0
        self._outcome = IN_PROGRESS

    @property
    def rules(self) -> Rules:
        """The board size and how many in a row win."""
        return self._rules

    @property
    def size(self) -> int:
        """Cells a side."""
        return self._rules.size

    @property
    def k(self) -> int:
        """How many in a row win."""
        return self._rules.k

    @property
    def turn(self) -> Player:
        """Whose move it is (still defined once the game is over)."""
        return Player.X if self._x.bit_count() == self._o.bit_count() else Player.O

    @property
    def outcome(self) -> Outcome:
        """Where the game stands after the last move."""
        return self._outcome

    @property
    def is_over(self) -> bool:
        """Someone has won or the board is full."""
        return self._outcome.is_over

    @property
    def move_count(self) -> int:
        """How many marks are on the board."""
        return self._x.bit_count() + self._o.bit_count()

    @property
    def key(self) -> tuple[int, int]:
        """The stones as two bit masks (X, O): a compact key for tables."""
        return self._x, self._o

    def stones(self, player: Player) -> int:
        """The cells holding ``player``'s marks, as a bit mask (bit ``cell``)."""
        return self._x if player is Player.X else self._o

    def cell(self, cell: int) -> Player | None:
        """The mark on ``cell``, or None when it is empty."""
        self._check_cell(cell)
        if (self._x >> cell) & 1:
            return Player.X
        if (self._o >> cell) & 1:
            return Player.O
        return None

    @property
    def cells(self) -> tuple[Player | None, ...]:
        """The mark on each cell in cell order (None for an empty one)."""
        return tuple(self.cell(cell) for cell in range(self._rules.cells))

    def empty_mask(self) -> int:
        """The empty cells, as a bit mask (bit ``cell``)."""
        return _geometry(self._rules).full & ~(self._x | self._o)

    def legal_moves(self) -> tuple[int, ...]:
        """The empty cells, in order; none once the game is over."""
        if self.is_over:
            return ()
        return tuple(_cells_of(self.empty_mask()))

    def _check_cell(self, cell: int) -> None:
        if not 0 <= cell < self._rules.cells:
            last = self._rules.cells - 1
            raise TicTacToeError(
                f"cell {cell} is off the {self.size}x{self.size} board (cells are 0..{last})",
                TicTacToeReason.OFF_BOARD,
                cell=cell,
                size=self.size,
                last=last,
            )

    def play(self, cell: int, player: Player | None = None) -> Outcome:
        """Put the side to move's mark on ``cell``; checks only the lines through ``cell``."""
        self._check_cell(cell)
        if self.is_over:
            raise TicTacToeError(f"the game is over ({self._outcome.status.value})")
        if player is not None and player is not self.turn:
            raise TicTacToeError(f"it is {self.turn.value}'s turn, not {player.value}'s")
        occupant = self.cell(cell)
        if occupant is not None:
            raise TicTacToeError(
                f"cell {cell} is already taken by {occupant.value}",
                TicTacToeReason.CELL_TAKEN,
                cell=cell,
                mark=occupant,
            )
        mover = self.turn
        bit = 1 << cell
        if mover is Player.X:
            self._x |= bit
        else:
            self._o |= bit
        geometry = _geometry(self._rules)
        won = _winning_cells(geometry, self.stones(mover), geometry.lines_through[cell])
        if won:
            self._outcome = Outcome.win(mover, tuple(_cells_of(won)))
        elif (self._x | self._o) == geometry.full:
            self._outcome = DRAW
        return self._outcome

    def scan_outcome(self) -> Outcome:
        """The outcome from a scan of every line on the board (for loaded states)."""
        geometry = _geometry(self._rules)
        x_line = _winning_cells(geometry, self._x, geometry.lines)
        o_line = _winning_cells(geometry, self._o, geometry.lines)
        if x_line and o_line:
            raise TicTacToeError("both X and O have a completed line: no game reaches that")
        if x_line:
            return Outcome.win(Player.X, tuple(_cells_of(x_line)))
        if o_line:
            return Outcome.win(Player.O, tuple(_cells_of(o_line)))
        if (self._x | self._o) == geometry.full:
            return DRAW
        return IN_PROGRESS

    def copy(self) -> TicTacToe:
        """An independent copy: moves played on it leave this game as it is."""
        clone = TicTacToe(self._rules)
        clone._x, clone._o, clone._outcome = self._x, self._o, self._outcome
        return clone

    def to_state(self) -> str:
        """``size/k/cells``, an ``X``, ``O`` or ``.`` per cell, e.g. ``3/3/X.O.X....``."""
        marks = "".join(
            "X" if (self._x >> cell) & 1 else "O" if (self._o >> cell) & 1 else "."
            for cell in range(self._rules.cells)
        )
        return f"{self.size}/{self.k}/{marks}"

    @classmethod
    def from_state(cls, text: str) -> TicTacToe:
        """The game written by :meth:`to_state`; rejects boards no legal game can reach."""
        parts = text.split("/")
        if len(parts) != 3 or not parts[0].isdigit() or not parts[1].isdigit():
            raise TicTacToeError(f"tic-tac-toe state {text!r} is not 'size/k/cells'")
        rules = Rules(int(parts[0]), int(parts[1]))
        marks = parts[2]
        if len(marks) != rules.cells or set(marks) - set("XO."):
            raise TicTacToeError(
                f"tic-tac-toe state {text!r} needs {rules.cells} cells of 'X', 'O' or '.'"
            )
        game = cls(rules)
        for cell, mark in enumerate(marks):
            if mark == "X":
                game._x |= 1 << cell
            elif mark == "O":
                game._o |= 1 << cell
        game._check_reachable(text)
        game._outcome = game.scan_outcome()
        return game

    def _check_reachable(self, text: str) -> None:
        x_count, o_count = self._x.bit_count(), self._o.bit_count()
        if x_count not in (o_count, o_count + 1):
            raise TicTacToeError(
                f"tic-tac-toe state {text!r} has {x_count} X and {o_count} O: X moves first "
                "and the players alternate"
            )
        outcome = self.scan_outcome()
        winner = outcome.winner
        if winner is None:
            return  # without a completed line, any alternating order of the stones is legal
        if winner is not self.turn.other:
            raise TicTacToeError(
                f"tic-tac-toe state {text!r}: {winner.value} has won but then "
                f"{winner.other.value} could not have moved"
            )
        # Legal only if one winning stone was the last move: without it, no line is complete.
        geometry = _geometry(self._rules)
        stones = self.stones(winner)
        if not any(
            not _winning_cells(geometry, stones & ~(1 << cell), geometry.lines)
            for cell in outcome.line
        ):
            raise TicTacToeError(
                f"tic-tac-toe state {text!r}: {winner.value} has lines no single last move made"
            )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TicTacToe):
            return NotImplemented
        return (self._rules, self._x, self._o) == (other._rules, other._x, other._o)

    def __hash__(self) -> int:
        return hash((self._rules, self._x, self._o))

    def __repr__(self) -> str:
        return f"TicTacToe.from_state({self.to_state()!r})"

    def __str__(self) -> str:
        marks = self.to_state().rsplit("/", 1)[1]
        return "\n".join(marks[row : row + self.size] for row in range(0, len(marks), self.size))


# --- AI ---


class Level(enum.Enum):
    """How well :func:`choose_move` plays (the module docstring describes each level)."""

    EASY = "easy"
    NORMAL = "normal"
    PERFECT = "perfect"


def choose_move(game: TicTacToe, level: Level, rng: random.Random) -> int:
    """The AI's cell for the side to move; ``rng`` breaks ties (and picks for EASY)."""
    moves = game.legal_moves()
    if not moves:
        raise TicTacToeError(f"the game is over ({game.outcome.status.value}): no move to make")
    if level is Level.EASY:
        return rng.choice(moves)
    if level is Level.NORMAL:
        return _normal_move(game, rng)
    return rng.choice(perfect_moves(game))


def winning_cells(game: TicTacToe, player: Player) -> tuple[int, ...]:
    """The empty cells where ``player`` would complete a line right now."""
    if game.is_over:
        return ()
    geometry = _geometry(game.rules)
    stones = game.stones(player)
    return tuple(
        cell
        for cell in _cells_of(game.empty_mask())
        if _winning_cells(geometry, stones | (1 << cell), geometry.lines_through[cell])
    )


def _cell_potential(geometry: _Geometry, cell: int, mine: int, theirs: int) -> int:
    """How useful a cell is: open lines through it, weighted by the stones already in them."""
    score = 0
    for mask in geometry.lines_through[cell]:
        own, other = (mine & mask).bit_count(), (theirs & mask).bit_count()
        if other == 0:
            score += 1 + 4**own
        if own == 0:
            score += 4**other
    return score


def _best_by(cells: tuple[int, ...], score: dict[int, int], rng: random.Random) -> int:
    top = max(score[cell] for cell in cells)
    return rng.choice([cell for cell in cells if score[cell] == top])


def _normal_move(game: TicTacToe, rng: random.Random) -> int:
    mover = game.turn
    wins = winning_cells(game, mover)
    if wins:
        return rng.choice(wins)
    blocks = winning_cells(game, mover.other)
    if blocks:
        return rng.choice(blocks)
    geometry = _geometry(game.rules)
    mine, theirs = game.stones(mover), game.stones(mover.other)
    moves = game.legal_moves()
    score = {cell: _cell_potential(geometry, cell, mine, theirs) for cell in moves}
    return _best_by(moves, score, rng)


def perfect_moves(game: TicTacToe, node_budget: int = SEARCH_NODE_BUDGET) -> tuple[int, ...]:
    """Every move the PERFECT level considers best (it picks one of them at random).

    Exact when at most :data:`EXACT_EMPTY_LIMIT` cells are empty: the moves with the best
    minimax value (a faster win or a slower loss scores better). Otherwise: the winning cells
    if any, else the cells that block an immediate loss, narrowed by a budgeted alpha-beta search.
    """
    moves = game.legal_moves()
    if not moves:
        raise TicTacToeError(f"the game is over ({game.outcome.status.value}): no move to make")
    geometry = _geometry(game.rules)
    mover = game.turn
    mine, theirs = game.stones(mover), game.stones(mover.other)
    if len(moves) <= EXACT_EMPTY_LIMIT:
        values = {cell: _exact_move_value(game.rules, mine, theirs, cell) for cell in moves}
        best = max(values.values())
        return tuple(cell for cell in moves if values[cell] == best)
    wins = winning_cells(game, mover)
    if wins:
        return wins
    blocks = winning_cells(game, mover.other)
    candidates = blocks if blocks else moves
    if len(candidates) == 1:
        return candidates
    return _searched_moves(geometry, mine, theirs, candidates, node_budget)


# Exact search: negamax over (stones of the side to move, stones of the other side).


def _exact_move_value(rules: Rules, mine: int, theirs: int, cell: int) -> int:
    table = _EXACT_TABLES.setdefault(rules, {})
    if len(table) > _EXACT_CACHE_LIMIT:
        table.clear()  # bounded memory; 3x3 needs only a few thousand entries
    return _exact_after(_geometry(rules), table, mine, theirs, cell)


# Transposition tables, one per ruleset, kept between calls: positions keyed by the two masks.
_EXACT_TABLES: Final[dict[Rules, dict[tuple[int, int], int]]] = {}


def _exact_after(
    geometry: _Geometry, table: dict[tuple[int, int], int], mine: int, theirs: int, cell: int
) -> int:
    """The value for the mover of playing ``cell``: +(1 + empties left) for a win, 0 a draw."""
    mine |= 1 << cell
    empties = geometry.full & ~(mine | theirs)
    if _winning_cells(geometry, mine, geometry.lines_through[cell]):
        return 1 + empties.bit_count()
    if not empties:
        return 0
    return -_exact_value(geometry, table, theirs, mine)


def _exact_value(
    geometry: _Geometry, table: dict[tuple[int, int], int], mine: int, theirs: int
) -> int:
    key = (mine, theirs)
    known = table.get(key)
    if known is not None:
        return known
    empties = geometry.full & ~(mine | theirs)
    best = -_WIN_SCORE
    for cell in _cells_of(empties):
        best = max(best, _exact_after(geometry, table, mine, theirs, cell))
    table[key] = best
    return best


# Budgeted search for the big boards: iterative-deepening negamax alpha-beta with a heuristic.


class _NodeBudgetSpentError(Exception):
    pass


def _threats(geometry: _Geometry, mine: int, theirs: int) -> tuple[int, int]:
    """The empty cells that would complete a line for each side, as two bit masks."""
    empties = geometry.full & ~(mine | theirs)
    my_cells = their_cells = 0
    for mask in geometry.lines:
        missing = mask & empties
        if missing & (missing - 1) == 0 and missing:
            rest = mask ^ missing
            if rest & mine == rest:
                my_cells |= missing
            elif rest & theirs == rest:
                their_cells |= missing
    return my_cells, their_cells


def _evaluate(geometry: _Geometry, mine: int, theirs: int) -> int:
    """A static score for the side to move: open lines, weighted steeply by their stones."""
    score = 0
    for mask in geometry.lines:
        if not mask & theirs:
            score += _LINE_WEIGHT[(mask & mine).bit_count()]
        elif not mask & mine:
            score -= _LINE_WEIGHT[(mask & theirs).bit_count()]
    return score


_LINE_WEIGHT: Final = tuple(0 if stones == 0 else 8**stones for stones in range(MAX_SIZE + 1))
_EXACT, _LOWER, _UPPER = 0, 1, 2


@dataclass(slots=True)
class _Search:
    """Negamax alpha-beta; scores are for the side to move, wins as ``_WIN_SCORE + empties``.

    Tactics are exact at every node: a side with a completing cell wins next move, a side
    facing two completing cells loses, and a single threat forces the reply (searched without
    using up depth, so forcing sequences are read to the end). A transposition table keeps
    bounds per position, and its best move is tried first.
    """

    geometry: _Geometry
    nodes_left: int
    table: dict[tuple[int, int], tuple[int, int, int, int]] = field(default_factory=dict)

    def value(self, mine: int, theirs: int, depth: int, alpha: int, beta: int) -> int:
        self.nodes_left -= 1
        if self.nodes_left < 0:
            raise _NodeBudgetSpentError
        geometry = self.geometry
        empty_count = geometry.cell_count - (mine | theirs).bit_count()
        my_threats, forced = _threats(geometry, mine, theirs)
        if my_threats:
            return _WIN_SCORE + empty_count - 1
        if forced & (forced - 1):
            return -(_WIN_SCORE + empty_count - 2)
        if forced:
            moves, child_depth = [forced.bit_length() - 1], depth
        elif depth == 0:
            return _evaluate(geometry, mine, theirs)
        else:
            moves, child_depth = self.ordered(mine, theirs), depth - 1
        key = (mine, theirs)
        entry = self.table.get(key)
        if entry is not None:
            stored_depth, stored, flag, hint = entry
            if stored_depth >= depth:
                if flag == _EXACT:
                    return stored
                if flag == _LOWER:
                    alpha = max(alpha, stored)
                else:
                    beta = min(beta, stored)
                if alpha >= beta:
                    return stored
            if hint in moves:
                moves.remove(hint)
                moves.insert(0, hint)
        original_alpha = alpha
        best, best_move = -_WIN_SCORE * 2, moves[0]
        for cell in moves:
            score = self.after(mine, theirs, cell, child_depth, (alpha, beta))
            if score > best:
                best, best_move = score, cell
            alpha = max(alpha, score)
            if alpha >= beta:
                break
        flag = _UPPER if best <= original_alpha else _LOWER if best >= beta else _EXACT
        self.table[key] = (depth, best, flag, best_move)
        return best

    def after(self, mine: int, theirs: int, cell: int, depth: int, window: tuple[int, int]) -> int:
        """The mover's score for playing ``cell``, with ``depth`` plies left after it."""
        placed = mine | (1 << cell)
        empties = self.geometry.full & ~(placed | theirs)
        if _winning_cells(self.geometry, placed, self.geometry.lines_through[cell]):
            return _WIN_SCORE + empties.bit_count()
        if not empties:
            return 0
        alpha, beta = window
        return -self.value(theirs, placed, depth, -beta, -alpha)

    def ordered(self, mine: int, theirs: int) -> list[int]:
        empties = self.geometry.full & ~(mine | theirs)
        return [cell for cell in self.geometry.cells_by_lines if (empties >> cell) & 1]


def _searched_moves(
    geometry: _Geometry, mine: int, theirs: int, candidates: tuple[int, ...], node_budget: int
) -> tuple[int, ...]:
    """The candidates with the best score at the deepest search the node budget completes."""
    search = _Search(geometry, node_budget)
    best: tuple[int, ...] = candidates
    order = list(candidates)
    empties = (geometry.full & ~(mine | theirs)).bit_count()
    unbounded = _WIN_SCORE * 2
    for depth in range(empties):
        try:
            top = search.after(mine, theirs, order[0], depth, (-unbounded, unbounded))
            scores = {order[0]: top}
            for cell in order[1:]:
                # A narrow window only tells worse, equal or better; re-search when better.
                score = search.after(mine, theirs, cell, depth, (top - 1, top + 1))
                if score > top:
                    score = search.after(mine, theirs, cell, depth, (top, unbounded))
                    top = score
                scores[cell] = score
        except _NodeBudgetSpentError:
            break
        best = tuple(cell for cell in candidates if scores[cell] == top)
        order.sort(key=lambda cell: -scores[cell])
        if abs(top) >= _WIN_SCORE:
            break  # a forced result: deeper search cannot change it
    return best
