"""The bot's play at Dots and Boxes: :func:`choose_line` at three levels, and exact values.

``choose_line(game, level, rng, solution=None)``: ``Level.EASY`` (any free line),
``Level.NORMAL`` (greedy: takes every box offered, otherwise a safe line, otherwise the smallest
gift) and ``Level.HARD``:

- given the board's ``solution`` (a :class:`engine.dots.solution.SolvedBoard`, which ships for
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

``exact_line_values(game)``: every free line's exact value for the side to move (small endgames).
"""

from __future__ import annotations

import enum
import random
from functools import cache
from typing import Final, Protocol

from engine.dots.rules import DotsError, DotsGame, Line, _bits, _Board

EXACT_LINE_LIMIT: Final = 16
SAFE_SEARCH_NODES: Final = 20_000
SAFE_SEARCH_MAX_LINES: Final = 14


class Solution(Protocol):
    """A solved board size (:class:`engine.dots.solution.SolvedBoard` is one): for a position,
    each free line's exact value for the side to move."""

    @property
    def rows(self) -> int:
        """Boxes down the board."""

    @property
    def columns(self) -> int:
        """Boxes across the board."""

    def line_values(self, drawn: int) -> dict[int, int]:
        """Each free line's exact value for the side to move, with the lines ``drawn`` (bits)."""


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
    """How well :func:`choose_line` plays (this module's docstring describes each level)."""

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
