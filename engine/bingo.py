"""75-ball Bingo: 5x5 cards under B-I-N-G-O, a pattern book, claim checks and the called game.

Cards. Columns are B 1-15, I 16-30, N 31-45, G 46-60, O 61-75; each holds 5 distinct numbers of
its range, except N, which holds 4 and the free centre. Cells are numbered 0..24 row-major: cell
``i`` is row ``i // 5``, column ``i % 5``; the free centre is cell 12. Two bit layouts are used:

* number masks (76 bits): number ``n`` is bit ``n``, for the calls;
* cell masks (25 bits): cell ``i`` is bit ``i``: ``Pattern.masks``, ``Card.marks``,
  ``ClaimResult.cells``. The free centre is always marked, so it counts in every pattern.

A card's stored text (``Card.to_state``) is its 25 cells column by column (B top to bottom, then
I, N, G, O), joined by ``.``, the free centre written ``*``: ``3.14.7.1.12.29.17...``.

Dealing (documented so anyone holding the revealed seed can recompute every card): each card is
one uniform integer ``r = randbelow(R)`` of ``SeededRandom(seed, DEAL_LABEL)`` with
``R = (15 * 14 * 13 * 12 * 11) ** 4 * (15 * 14 * 13 * 12)``, read as mixed-radix digits, a
partial Fisher-Yates shuffle per column: for each column B, I, N, G, O in turn, with
``pool = [low .. low + 14]`` (its 15 numbers, fresh each time) and ``k`` its count (5, or 4 for
N): for ``i`` in ``0..k-1``, ``r, j = divmod(r, 15 - i)``, swap ``pool[i]`` and ``pool[i + j]``;
the column, top to bottom, is ``pool[:k]`` (N's 4 fill rows 0, 1, 3 and 4). A card whose SET of 24
numbers was already dealt in this game is dropped and drawn again. Deal position ``k`` (0-based,
handed out in joining order) always holds the ``k``-th card of that stream, whether dealt all at
once or one by one: ``cards_at(seed, k, n) == cards_at(seed, 0, k + n)[k:]``. ``cards_at`` replays
the stream from the start (the reference, to verify); a live game deals with a ``CardDealer``,
which goes on from where it stopped.

The calls are ``draw_order(seed, 75)`` (``engine.fairness``), named ``B-7`` style
(:func:`call_name`).

Patterns. A :class:`Pattern` is a code, an English name and every cell mask that completes it
(its placements). :data:`PATTERN_BOOK` holds the classics; :meth:`Pattern.from_cells` and
:meth:`Pattern.custom` build any other from one 5x5 drawing, optionally with its rotations by 90
degrees and its translations within the card. A pattern's text form (:meth:`Pattern.to_text`) is
its code for a built-in, and ``code=name=mask+mask+...`` (masks as 7 lowercase hex digits,
increasing) for a custom one, so a game's state carries its custom patterns whole.
"""

from __future__ import annotations

import functools
import math
import random
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from operator import attrgetter
from types import MappingProxyType
from typing import ClassVar

from engine.errors import NO_VALUES, GameError, Reason, quoted
from engine.fairness import (
    SEED_BYTES,
    DealStream,
    StreamDealer,
    commitment,
    draw_order,
    parse_seed,
    uniform_below,
    unique_boards,
)

SIDE = 5
CELLS = SIDE * SIDE
FREE_CELL = 12
FREE_BIT = 1 << FREE_CELL
ALL_CELLS = (1 << CELLS) - 1
HIGHEST_NUMBER = 75
COLUMN_SPAN = 15
LETTERS = "BINGO"
MAX_CARDS = 10_000
# Draws allowed for one card before giving up: a repeat is ~1e-19 likely even at MAX_CARDS, so
# running out means the random source is broken, not unlucky.
MAX_DEAL_ATTEMPTS = 64
CODE_LIMIT = 32
NAME_LIMIT = 40
# A custom name lives inside a game's state text, whose separators these are.
NAME_FORBIDDEN = "/,=+"

_NUMBER_BIT: dict[int, int] = {n: 1 << n for n in range(1, HIGHEST_NUMBER + 1)}
# Per column: how many numbers it holds, and the rows they fill top to bottom.
_COLUMN_ROWS: tuple[tuple[int, ...], ...] = tuple(
    (0, 1, 3, 4) if column == FREE_CELL % SIDE else tuple(range(SIDE)) for column in range(SIDE)
)
# Ordered ways to fill a card: each column's partial permutation of its 15 numbers.
CARD_ARRANGEMENTS = math.prod(math.perm(COLUMN_SPAN, len(rows)) for rows in _COLUMN_ROWS)
_CODE_RE = re.compile(r"[a-z0-9][a-z0-9_-]*")
_MASK_RE = re.compile(r"[0-9a-f]{7}")


def call_name(number: int) -> str:
    """The call's name, ``B-7`` style: the column's letter, a hyphen, the number."""
    if type(number) is not int or not 1 <= number <= HIGHEST_NUMBER:
        raise GameError(f"{number!r} is not a bingo number 1..{HIGHEST_NUMBER}")
    return f"{LETTERS[(number - 1) // COLUMN_SPAN]}-{number}"


def _called_mask(called: Sequence[int]) -> int:
    """The number mask of ``called``; rejects numbers outside 1..75 and repeats, naming them."""
    try:
        # Summing distinct powers of two is an OR; a repeat carries and loses a bit (checked).
        mask = sum(map(_NUMBER_BIT.__getitem__, called))
    except (KeyError, TypeError):
        bad = [n for n in called if type(n) is not int or n not in _NUMBER_BIT]
        raise GameError(f"called numbers {bad!r} are not bingo numbers 1..75") from None
    if mask.bit_count() != len(called):
        seen: set[int] = set()
        repeated: set[int] = set()
        for number in called:
            (repeated if number in seen else seen).add(number)
        raise GameError(f"called numbers {sorted(repeated)!r} appear more than once")
    return mask


# ----------------------------------------------------------------------------------------- cards


@dataclass(frozen=True, slots=True)
class Card:
    """A 5x5 card: ``numbers`` are its 25 cells row-major, ``0`` at the free centre (cell 12)."""

    numbers: tuple[int, ...]
    number_mask: int = field(init=False, repr=False, compare=False)
    _cells: Mapping[int, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        numbers = self.numbers
        if type(numbers) is not tuple or len(numbers) != CELLS:
            raise GameError(f"a card has {CELLS} cells as a tuple, got {numbers!r}")
        if numbers[FREE_CELL] != 0:
            raise GameError(f"a card's centre (cell {FREE_CELL}) is free (0), got {numbers!r}")
        for cell, number in enumerate(numbers):
            if cell == FREE_CELL:
                continue
            low = (cell % SIDE) * COLUMN_SPAN + 1
            if type(number) is not int or not low <= number < low + COLUMN_SPAN:
                raise GameError(
                    f"card cell {cell} holds {number!r}, outside its column's"
                    f" {low}..{low + COLUMN_SPAN - 1}"
                )
        mask = sum(_NUMBER_BIT[n] for n in numbers if n)
        if mask.bit_count() != CELLS - 1:
            raise GameError(f"a card repeats a number: {numbers!r}")
        object.__setattr__(self, "number_mask", mask)
        object.__setattr__(
            self, "_cells", {n: cell for cell, n in enumerate(numbers) if cell != FREE_CELL}
        )

    @property
    def columns(self) -> tuple[tuple[int, ...], ...]:
        """The five columns B, I, N, G, O top to bottom (N's centre written ``0``)."""
        return tuple(self.numbers[column::SIDE] for column in range(SIDE))

    def __contains__(self, number: object) -> bool:
        return number in self._cells

    def cell_of(self, number: int) -> int | None:
        """The cell (0..24) holding ``number``, or None when it is not on this card."""
        return self._cells.get(number)

    def marks(self, called: Sequence[int]) -> int:
        """25-bit mask of the cells whose number is in ``called``, the free centre always set."""
        return self._marks(_called_mask(called))

    def _marks(self, called_mask: int) -> int:
        marked = FREE_BIT
        for number, cell in self._cells.items():
            if called_mask >> number & 1:
                marked |= 1 << cell
        return marked

    def to_state(self) -> str:
        """The cells column by column (B top to bottom, I, ...), ``.``-joined, centre ``*``."""
        return ".".join(
            "*" if cell == FREE_CELL else str(self.numbers[cell])
            for column in range(SIDE)
            for cell in range(column, CELLS, SIDE)
        )

    @classmethod
    def from_state(cls, text: str) -> Card:
        """The card written by :meth:`to_state`; only the canonical text is accepted."""
        parts = text.split(".") if isinstance(text, str) else []
        if len(parts) != CELLS or not all(
            part == "*" or (part.isascii() and part.isdigit()) for part in parts
        ):
            raise GameError(f"card state {quoted(text)} is not 25 cells by column joined by '.'")
        numbers = [0] * CELLS
        for index, part in enumerate(parts):
            cell = (index % SIDE) * SIDE + index // SIDE  # column-major to row-major
            numbers[cell] = 0 if part == "*" else int(part)
        if parts[FREE_CELL] != "*":  # cell 12 is also text 12 (the middle of both orders)
            raise GameError(f"card state {quoted(text)} does not write the free centre as '*'")
        card = cls(tuple(numbers))
        if card.to_state() != text:  # e.g. leading zeros
            raise GameError(f"card state {quoted(text)} is not in canonical form")
        return card


def _card_from(r: int) -> Card:
    """The card of one uniform integer ``r < CARD_ARRANGEMENTS`` (see the module docstring)."""
    numbers = [0] * CELLS
    for column, rows in enumerate(_COLUMN_ROWS):
        low = column * COLUMN_SPAN + 1
        pool = list(range(low, low + COLUMN_SPAN))
        for i, row in enumerate(rows):
            r, j = divmod(r, COLUMN_SPAN - i)
            pool[i], pool[i + j] = pool[i + j], pool[i]
            numbers[row * SIDE + column] = pool[i]
    return Card(tuple(numbers))


def _unique_cards(rng: random.Random) -> Iterator[Card]:
    """Cards with pairwise different sets of numbers, forever (see the module docstring)."""
    return unique_boards(
        lambda: _card_from(uniform_below(rng, CARD_ARRANGEMENTS)),
        attrgetter("number_mask"),
        attempts=MAX_DEAL_ATTEMPTS,
        board="card",
        contents="numbers",
    )


def _check_deal(first: int, count: int) -> None:
    if type(first) is not int or first < 0:
        raise GameError(f"deal position {first!r} is negative or not a number")
    if type(count) is not int or count < 0 or first + count > MAX_CARDS:
        raise GameError(
            f"cannot deal {count!r} cards from position {first}: positions stop at {MAX_CARDS - 1}"
        )


def deal_cards(count: int, rng: random.Random) -> list[Card]:
    """``count`` cards from ``rng``, no two with the same set of numbers."""
    _check_deal(0, count)
    stream = _unique_cards(rng)
    return [next(stream) for _ in range(count)]


CARD_DEAL = DealStream(_unique_cards, _check_deal, MAX_CARDS)


def cards_at(seed: bytes, first: int, count: int = 1) -> list[Card]:
    """The cards at deal positions ``first .. first + count - 1`` (0-based) of ``seed``'s game.

    The reference: it replays the deal stream from the start, so nothing but the seed and the
    positions needs storing.
    """
    return CARD_DEAL.at(seed, first, count)


class CardDealer(StreamDealer[Card]):
    """Hands out a game's cards in deal order, each for the same small cost however many came
    before: no replay while the game lives.

    ``CardDealer(seed)`` starts at position 0; ``deal(count)`` returns the cards at positions
    ``position .. position + count - 1`` and moves on, the same cards as
    ``cards_at(seed, position, count)`` with the same errors. ``resume(seed, position)`` rebuilds
    a dealer after a restart by replaying the stream. One caller at a time (it holds no lock).
    """

    __slots__ = ()
    stream = CARD_DEAL


# -------------------------------------------------------------------------------------- patterns


def cells_mask(cells: Iterable[int]) -> int:
    """The 25-bit cell mask of ``cells`` (cell numbers 0..24, row-major)."""
    mask = 0
    for cell in cells:
        if type(cell) is not int or not 0 <= cell < CELLS:
            raise GameError(f"{cell!r} is not a cell 0..{CELLS - 1}")
        mask |= 1 << cell
    return mask


def rotate_mask(mask: int) -> int:
    """``mask`` turned 90 degrees clockwise about the centre: (row, col) -> (col, 4 - row)."""
    turned = 0
    for cell in range(CELLS):
        if mask >> cell & 1:
            row, column = divmod(cell, SIDE)
            turned |= 1 << (column * SIDE + (SIDE - 1 - row))
    return turned


def _translations(mask: int) -> list[int]:
    """``mask`` moved to every position where its bounding box fits on the card."""
    cells = [divmod(cell, SIDE) for cell in range(CELLS) if mask >> cell & 1]
    top = min(row for row, _ in cells)
    left = min(column for _, column in cells)
    height = max(row for row, _ in cells) - top + 1
    width = max(column for _, column in cells) - left + 1
    return [
        sum(1 << ((row - top + down) * SIDE + column - left + across) for row, column in cells)
        for down in range(SIDE - height + 1)
        for across in range(SIDE - width + 1)
    ]


def placements(mask: int, *, rotations: bool = False, anywhere: bool = False) -> tuple[int, ...]:
    """Every placement of one drawing ``mask``: itself, its turns by 90 degrees when
    ``rotations``, each moved anywhere it fits when ``anywhere``; deduplicated, increasing."""
    if type(mask) is not int or not 0 < mask <= ALL_CELLS:
        raise GameError(f"pattern mask {mask!r} is not a non-empty 25-bit cell mask")
    shapes = [mask]
    if rotations:
        for _ in range(3):
            shapes.append(rotate_mask(shapes[-1]))
    found: set[int] = set()
    for shape in shapes:
        found.update(_translations(shape) if anywhere else (shape,))
    return tuple(sorted(found))


@dataclass(frozen=True, slots=True)
class Pattern:
    """A winning shape: ``code`` (the stored form), ``name`` in English, and ``masks``: every
    25-bit cell mask that completes it, increasing. The free centre is always marked."""

    code: str
    name: str
    masks: tuple[int, ...]

    def __post_init__(self) -> None:
        if type(self.code) is not str or not (
            len(self.code) <= CODE_LIMIT and _CODE_RE.fullmatch(self.code)
        ):
            raise GameError(
                f"pattern code {quoted(self.code)} is not 1..{CODE_LIMIT} lower-case letters,"
                " digits, '_' or '-'"
            )
        name = self.name
        if (
            type(name) is not str
            or not 0 < len(name) <= NAME_LIMIT
            or name != name.strip()
            or not name.isprintable()
            or any(char in NAME_FORBIDDEN for char in name)
        ):
            raise GameError(
                f"pattern name {quoted(name)} is not 1..{NAME_LIMIT} printable characters"
                f" without {' '.join(NAME_FORBIDDEN)} or spaces around it"
            )
        masks = self.masks
        if type(masks) is not tuple or not masks:
            raise GameError(f"pattern {self.code!r} needs its masks as a non-empty tuple")
        for mask in masks:
            if type(mask) is not int or not 0 <= mask <= ALL_CELLS or not mask & ~FREE_BIT:
                raise GameError(
                    f"pattern {self.code!r}: mask {mask!r} is not a 25-bit cell mask with a cell"
                    " besides the free centre"
                )
        if list(masks) != sorted(set(masks)):
            raise GameError(f"pattern {self.code!r}: masks must be increasing, without repeats")
        builtin = PATTERN_BOOK.get(self.code)
        if builtin is not None and builtin != self:
            raise GameError(f"pattern code {self.code!r} is a built-in pattern's")

    @classmethod
    def custom(
        cls, code: str, name: str, mask: int, *, rotations: bool = False, anywhere: bool = False
    ) -> Pattern:
        """A pattern drawn as one 25-bit cell ``mask``: with its 90-degree turns when
        ``rotations``, moved anywhere it fits when ``anywhere``."""
        return cls(code, name, placements(mask, rotations=rotations, anywhere=anywhere))

    @classmethod
    def from_cells(
        cls,
        code: str,
        name: str,
        cells: Iterable[int],
        *,
        rotations: bool = False,
        anywhere: bool = False,
    ) -> Pattern:
        """:meth:`custom` from the drawing's cell numbers (0..24, row-major)."""
        return cls.custom(code, name, cells_mask(cells), rotations=rotations, anywhere=anywhere)

    @property
    def is_builtin(self) -> bool:
        """Whether this is the pattern book's own pattern of that code."""
        return PATTERN_BOOK.get(self.code) == self

    def to_text(self) -> str:
        """The code of a built-in; ``code=name=mask+mask+...`` (7 hex digits each) otherwise."""
        if self.is_builtin:
            return self.code
        return f"{self.code}={self.name}=" + "+".join(f"{mask:07x}" for mask in self.masks)

    @classmethod
    def from_text(cls, text: str) -> Pattern:
        """The pattern written by :meth:`to_text`; only the canonical text is accepted."""
        if not isinstance(text, str):
            raise GameError(f"pattern text {text!r} is not text")
        if "=" not in text:
            return pattern_named(text)
        parts = text.split("=")
        mask_texts = parts[2].split("+") if len(parts) == 3 else []
        if not mask_texts or not all(_MASK_RE.fullmatch(m) for m in mask_texts):
            raise GameError(f"pattern text {quoted(text)} is not 'code=name=mask+mask+...'")
        pattern = cls(parts[0], parts[1], tuple(int(m, 16) for m in mask_texts))
        if pattern.to_text() != text:  # a built-in written out in full
            raise GameError(f"pattern text {quoted(text)} is not in canonical form")
        return pattern


PATTERN_BOOK: dict[str, Pattern] = {}


def drawing_mask(drawing: str) -> int:
    """The cell mask of a 5x5 drawing: 5 rows of 5 characters, ``X`` marked and ``.`` not
    (whitespace between rows and characters ignored)."""
    marks = "".join(drawing.split())
    if len(marks) != CELLS or set(marks) - {"X", "."}:
        raise GameError(f"drawing {quoted(drawing)} is not 5 rows of 5 'X' or '.'")
    return sum(1 << cell for cell, mark in enumerate(marks) if mark == "X")


def _book(
    code: str,
    name: str,
    drawings: Sequence[str],
    *,
    rotations: bool = False,
    anywhere: bool = False,
) -> None:
    masks: set[int] = set()
    for drawing in drawings:
        masks.update(placements(drawing_mask(drawing), rotations=rotations, anywhere=anywhere))
    PATTERN_BOOK[code] = Pattern(code, name, tuple(sorted(masks)))


_ROW = "XXXXX ..... ..... ..... ....."
_DIAGONAL = "X.... .X... ..X.. ...X. ....X"
_book("line", "Any line", [_ROW, _DIAGONAL], rotations=True, anywhere=True)  # 5 + 5 + 2
_book("corners", "Four corners", ["X...X ..... ..... ..... X...X"])
_book("x", "X", ["X...X .X.X. ..X.. .X.X. X...X"])
_book("plus", "Plus", ["..X.. ..X.. XXXXX ..X.. ..X.."])
_book("stamp", "Postage stamp", ["XX... XX... ..... ..... ....."], rotations=True)
_book("any_stamp", "Postage stamp anywhere", ["XX... XX... ..... ..... ....."], anywhere=True)
_book("small_diamond", "Small diamond", ["..... ..X.. .XXX. ..X.. ....."])
_book("large_diamond", "Large diamond", ["..X.. .X.X. X...X .X.X. ..X.."])
_book("frame", "Picture frame", ["XXXXX X...X X...X X...X XXXXX"])
_book("inner_frame", "Inner frame", ["..... .XXX. .X.X. .XXX. ....."])
_book("letter_t", "Letter T", ["XXXXX ..X.. ..X.. ..X.. ..X.."])
_book("any_t", "Letter T any way round", ["XXXXX ..X.. ..X.. ..X.. ..X.."], rotations=True)
_book("letter_l", "Letter L", ["X.... X.... X.... X.... XXXXX"])
_book("any_l", "Letter L any way round", ["X.... X.... X.... X.... XXXXX"], rotations=True)
_book("letter_h", "Letter H", ["X...X X...X XXXXX X...X X...X"])
_book("any_h", "Letter H any way round", ["X...X X...X XXXXX X...X X...X"], rotations=True)
_book("blackout", "Blackout", ["XXXXX XXXXX XXXXX XXXXX XXXXX"])


def pattern_named(code: str) -> Pattern:
    """The built-in pattern of ``code`` ("line", "x", "blackout", ...)."""
    try:
        return PATTERN_BOOK[code]
    except (KeyError, TypeError):
        choices = ", ".join(PATTERN_BOOK)
        raise GameError(f"unknown pattern {quoted(code)}; choose one of {choices}") from None


# ---------------------------------------------------------------------------------------- claims


class ClaimReason(Reason):
    """Why a claim is false: the ``code`` of a :class:`ClaimResult`; the comments name its
    ``values``."""

    NOTHING_CALLED = "bingo_nothing_called"
    NOT_COMPLETE = "bingo_not_complete"  # pattern: its code, name: its English name
    SLEPT = "bingo_slept"  # call: the last call's name ("B-7"), number: its number


@dataclass(frozen=True, slots=True)
class ClaimResult:
    """The verdict on a claim. ``cells`` is ONE winning cell mask (0 when invalid).

    A win's ``reason`` is the pattern's English name; a false claim says why in ``reason``
    (English), and again as ``code`` (a :class:`ClaimReason`) and ``values`` for the bot to
    word in the player's language.
    """

    valid: bool
    cells: int
    reason: str = ""
    code: str = ""
    values: Mapping[str, object] = field(default_factory=lambda: NO_VALUES, hash=False)


def check_claim(
    card: Card, called: Sequence[int], pattern: Pattern, *, require_last: bool = False
) -> ClaimResult:
    """Whether ``card`` completes ``pattern`` with the numbers ``called`` so far (in call order).

    ``require_last`` is the "you slept on it" rule: the winning placement must include the last
    number called. ``cells`` is one completed placement: one including the last number when there
    is one, otherwise the first in ``pattern.masks`` order.
    """
    marked = card._marks(_called_mask(called))
    last_cell = card.cell_of(called[-1]) if called else None
    last_bit = 0 if last_cell is None else 1 << last_cell
    first_win = 0
    for mask in pattern.masks:
        if marked & mask == mask:
            if mask & last_bit:
                return ClaimResult(True, mask, pattern.name)
            first_win = first_win or mask
    if not first_win:
        if not called:
            return ClaimResult(False, 0, "no numbers have been called", ClaimReason.NOTHING_CALLED)
        return ClaimResult(
            False,
            0,
            f"the card does not complete {pattern.name}",
            ClaimReason.NOT_COMPLETE,
            MappingProxyType({"pattern": pattern.code, "name": pattern.name}),
        )
    if not require_last:
        return ClaimResult(True, first_win, pattern.name)
    last = call_name(called[-1])
    return ClaimResult(
        False,
        0,
        f"the pattern does not include the last number called ({last})",
        ClaimReason.SLEPT,
        MappingProxyType({"call": last, "number": called[-1]}),
    )


def missing(card: Card, pattern: Pattern, called: Sequence[int]) -> int:
    """The fewest numbers ``card`` still needs for ``pattern`` over all its placements."""
    marked = card._marks(_called_mask(called))
    return min((mask & ~marked).bit_count() for mask in pattern.masks)


# ------------------------------------------------------------------------------------------ game


@functools.lru_cache(maxsize=64)
def _order(seed: bytes) -> tuple[int, ...]:
    return draw_order(seed, HIGHEST_NUMBER)


@dataclass(frozen=True, slots=True)
class BingoGame:
    """A called game: the seed fixes the call order; patterns are played for one after another.

    ``to_state()`` contains the seed, which stays secret until the game ends: store it, never post
    it (post ``commitment`` instead).
    """

    seed: bytes
    patterns: tuple[Pattern, ...]
    drawn: int = 0
    prize_index: int = 0

    def __post_init__(self) -> None:
        if type(self.seed) is not bytes or len(self.seed) != SEED_BYTES:
            raise GameError(f"a game seed is {SEED_BYTES} bytes")
        if type(self.patterns) is not tuple or not self.patterns:
            raise GameError("a game needs at least one pattern, as a tuple")
        by_code: dict[str, Pattern] = {}
        for pattern in self.patterns:
            if not isinstance(pattern, Pattern):
                raise GameError(f"{pattern!r} is not a pattern")
            if by_code.setdefault(pattern.code, pattern) != pattern:
                raise GameError(f"two different patterns share the code {pattern.code!r}")
        if type(self.drawn) is not int or not 0 <= self.drawn <= HIGHEST_NUMBER:
            raise GameError(f"{self.drawn!r} numbers drawn is outside 0..{HIGHEST_NUMBER}")
        if type(self.prize_index) is not int or not 0 <= self.prize_index <= len(self.patterns):
            raise GameError(f"prize index {self.prize_index!r} is outside 0..{len(self.patterns)}")

    @classmethod
    def new(cls, seed: bytes, patterns: Sequence[Pattern]) -> BingoGame:
        """A game with ``seed`` playing for ``patterns`` in order, no number called yet."""
        return cls(seed, tuple(patterns))

    @property
    def commitment(self) -> str:
        """SHA-256 of the seed, hex: what is posted before the first call."""
        return commitment(self.seed)

    @property
    def called(self) -> tuple[int, ...]:
        """Numbers called so far, in order."""
        return _order(self.seed)[: self.drawn]

    @property
    def last_called(self) -> int | None:
        """The number called last, or None before the first call."""
        return _order(self.seed)[self.drawn - 1] if self.drawn else None

    @property
    def current_prize(self) -> Pattern | None:
        """The pattern being played for; None once every one is won."""
        return self.patterns[self.prize_index] if self.prize_index < len(self.patterns) else None

    @property
    def is_over(self) -> bool:
        """Every pattern has been won."""
        return self.prize_index >= len(self.patterns)

    @property
    def is_exhausted(self) -> bool:
        """All 75 numbers are out; claims on the last one may still be checked."""
        return self.drawn >= HIGHEST_NUMBER

    def pattern(self, code: str) -> Pattern:
        """The game's pattern of ``code``."""
        for pattern in self.patterns:
            if pattern.code == code:
                return pattern
        raise GameError(f"this game plays no pattern {quoted(code)}; it plays {self.prize_codes}")

    # -- the calling game contract (engine.calling.CallingGame) -------------------------------

    total_calls: ClassVar[int] = HIGHEST_NUMBER
    deal_limit: ClassVar[int] = MAX_CARDS
    every_prize_code: ClassVar[tuple[str, ...]] = tuple(PATTERN_BOOK)

    @staticmethod
    def dealer(seed: bytes, position: int) -> CardDealer:
        """A dealer of ``seed``'s cards whose next card is at deal ``position``."""
        return CardDealer.resume(seed, position)

    @staticmethod
    def boards_at(seed: bytes, first: int, count: int) -> list[Card]:
        """The cards at deal positions ``first ..`` (one pass over the deal stream)."""
        return cards_at(seed, first, count)

    @staticmethod
    def board_from_state(text: str) -> Card:
        """A card read back from its stored text."""
        return Card.from_state(text)

    def next_call(self) -> tuple[BingoGame, int]:
        """The game after its next call, and the number called."""
        if self.is_over:
            raise GameError("the game is over: every pattern has been won")
        if self.is_exhausted:
            raise GameError(f"all {HIGHEST_NUMBER} numbers have been called")
        return replace(self, drawn=self.drawn + 1), _order(self.seed)[self.drawn]

    @property
    def prize_codes(self) -> tuple[str, ...]:
        """Every pattern played, by code, in order."""
        return tuple(pattern.code for pattern in self.patterns)

    @property
    def open_prize_codes(self) -> tuple[str, ...]:
        """The patterns still to be won, in order."""
        return self.prize_codes[self.prize_index :]

    @property
    def claimable_codes(self) -> tuple[str, ...]:
        """The pattern being played for (one at a time)."""
        return self.open_prize_codes[:1]

    def award_prize(self, prize: str) -> BingoGame:
        """The game once the pattern being played for (``prize``) is won."""
        if prize not in self.claimable_codes:
            raise GameError(
                f"pattern {quoted(prize)} is not the one being played for"
                f" (open: {', '.join(self.open_prize_codes) or 'none'})"
            )
        return replace(self, prize_index=self.prize_index + 1)

    def judge(
        self, board: Card, prize: str, called: Sequence[int], *, require_last: bool = False
    ) -> ClaimResult:
        """A claim of pattern ``prize`` on ``board`` against ``called``; a win's ``reason`` is
        the pattern's English name."""
        return check_claim(board, called, self.pattern(prize), require_last=require_last)

    def missing(self, board: Card, prize: str, called: Sequence[int]) -> int:
        """The fewest uncalled numbers between ``board`` and pattern ``prize``."""
        return missing(board, self.pattern(prize), called)

    def to_state(self) -> str:
        """``seedhex/pattern,pattern,.../drawn/prize_index`` (patterns by :meth:`Pattern.to_text`)."""
        patterns = ",".join(pattern.to_text() for pattern in self.patterns)
        return f"{self.seed.hex()}/{patterns}/{self.drawn}/{self.prize_index}"

    @classmethod
    def from_state(cls, text: str) -> BingoGame:
        """The game written by :meth:`to_state`; only the canonical text is accepted."""
        parts = text.split("/") if isinstance(text, str) else []
        if len(parts) != 4 or not all(p.isascii() and p.isdigit() for p in parts[2:]):
            raise GameError(
                f"game state {quoted(text, 120)} is not 'seedhex/patterns/drawn/prize_index'"
            )
        seed_hex, patterns_text, drawn_text, prize_text = parts
        game = cls(
            parse_seed(seed_hex),
            tuple(Pattern.from_text(p) for p in patterns_text.split(",")),
            int(drawn_text),
            int(prize_text),
        )
        if game.to_state() != text:  # e.g. upper-case hex or leading zeros
            raise GameError(f"game state {quoted(text, 120)} is not in canonical form")
        return game
