"""Lotería: the 54-card deck, 4x4 tablas, winning patterns, claim checks and the called game.

Cards are numbered 1..54 in the classic (Don Clemente Gallo) order. A tabla is 16 distinct card
numbers in reading order: cell ``i`` is row ``i // 4``, column ``i % 4``. Two bit layouts are used:

* card masks (54 bits): card ``n`` is bit ``n - 1``; ``Tabla.card_mask`` is the set of its cards;
* cell masks (16 bits): cell ``i`` is bit ``i``; ``Pattern.masks`` and ``ClaimResult.cells``.

A claim check turns each cell mask of the pattern into a card mask for that tabla once (cached on
the tabla), so checking is a handful of ``&`` and ``==`` on ints.

Dealing (documented so anyone holding the revealed seed can recompute every tabla): each tabla
is one uniform integer ``r = randbelow(54 * 53 * ... * 39)`` read as mixed-radix digits, a partial
Fisher-Yates shuffle of ``pool = [1..54]``: for ``i`` in ``0..15``, ``r, j = divmod(r, 54 - i)``,
swap ``pool[i]`` and ``pool[i + j]``; the tabla is ``pool[:16]`` (fresh pool each time). A tabla
whose SET of cards was already dealt in this game is dropped and drawn again. A game's tablas come
from ``SeededRandom(seed, DEAL_LABEL)``, so deal position ``k`` (0-based, handed out in joining
order) always holds the ``k``-th tabla of that stream, whether dealt all at once or one by one:
``tablas_at(seed, k, n) == deal_for_game(seed, k + n)[k:]``; ``tabla_for_seat(seed, k)`` is one.
Both replay the stream from the start; a live game deals with a ``TablaDealer``, which goes on
from where it stopped.
"""

from __future__ import annotations

import enum
import math
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from operator import attrgetter
from types import MappingProxyType
from typing import ClassVar

from engine.errors import NO_VALUES, GameError, Reason, quoted
from engine.fairness import (
    DEAL_LABEL,
    SEED_BYTES,
    DealStream,
    SeededRandom,
    StreamDealer,
    commitment,
    draw_order,
    parse_seed,
    uniform_below,
    unique_boards,
)

DECK_SIZE = 54
TABLA_SIDE = 4
TABLA_CELLS = TABLA_SIDE * TABLA_SIDE
MAX_TABLAS = 10_000
# Draws allowed for one tabla before giving up: a repeat is ~1e-9 likely even at MAX_TABLAS, so
# running out means the random source is broken, not unlucky.
MAX_DEAL_ATTEMPTS = 64

_CARD_BIT: dict[int, int] = {number: 1 << (number - 1) for number in range(1, DECK_SIZE + 1)}
_ALL_CELLS = (1 << TABLA_CELLS) - 1
# Ordered ways to fill 16 cells from 54 cards: 54 * 53 * ... * 39.
_ARRANGEMENTS = math.perm(DECK_SIZE, TABLA_CELLS)


# --------------------------------------------------------------------------------------- cards


@dataclass(frozen=True, slots=True)
class Card:
    """One Lotería card: its number in the deck, names and the emoji used as its art."""

    number: int
    spanish: str
    english: str
    emoji: str

    def __post_init__(self) -> None:
        if not 1 <= self.number <= DECK_SIZE:
            raise GameError(f"card number {self.number} is outside 1..{DECK_SIZE}")
        if not (self.spanish and self.english and self.emoji):
            raise GameError(f"card {self.number} needs a Spanish name, an English name and emoji")

    def __str__(self) -> str:
        return f"{self.number} {self.spanish}"


@dataclass(frozen=True, slots=True)
class Deck:
    """A named 54-card deck; ``cards[n - 1]`` is card number ``n``."""

    name: str
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        if len(self.cards) != DECK_SIZE:
            raise GameError(f"deck {self.name!r} has {len(self.cards)} cards, expected {DECK_SIZE}")
        for index, card in enumerate(self.cards):
            if card.number != index + 1:
                raise GameError(
                    f"deck {self.name!r}: position {index + 1} holds card {card.number}"
                )
        if len({card.spanish for card in self.cards}) != DECK_SIZE:
            raise GameError(f"deck {self.name!r} repeats a card name")

    def card(self, number: int) -> Card:
        """Card ``number`` (1..54)."""
        if type(number) is not int or not 1 <= number <= DECK_SIZE:
            raise GameError(f"there is no card {number!r} in the {self.name} deck (1..{DECK_SIZE})")
        return self.cards[number - 1]

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)


def _deck(name: str, rows: Sequence[tuple[str, str, str]]) -> Deck:
    return Deck(name, tuple(Card(number, *row) for number, row in enumerate(rows, start=1)))


# Classic order and names; emoji are fully qualified and all exist in OpenMoji 15+.
_CLASSIC_ROWS: tuple[tuple[str, str, str], ...] = (
    ("El Gallo", "The Rooster", "🐓"),
    ("El Diablito", "The Little Devil", "😈"),
    ("La Dama", "The Lady", "💃"),
    ("El Catrín", "The Dandy", "🎩"),
    ("El Paraguas", "The Umbrella", "☂️"),
    ("La Sirena", "The Mermaid", "🧜‍♀️"),
    ("La Escalera", "The Ladder", "🪜"),
    ("La Botella", "The Bottle", "🍾"),
    ("El Barril", "The Barrel", "🛢️"),
    ("El Árbol", "The Tree", "🌳"),
    ("El Melón", "The Melon", "🍈"),
    ("El Valiente", "The Brave One", "🗡️"),
    ("El Gorrito", "The Little Bonnet", "👒"),
    ("La Muerte", "Death", "💀"),
    ("La Pera", "The Pear", "🍐"),
    ("La Bandera", "The Flag", "🇲🇽"),
    ("El Bandolón", "The Mandolin", "🪕"),
    ("El Violoncello", "The Cello", "🎻"),
    ("La Garza", "The Heron", "🦩"),
    ("El Pájaro", "The Bird", "🐦"),
    ("La Mano", "The Hand", "✋"),
    ("La Bota", "The Boot", "👢"),
    ("La Luna", "The Moon", "🌙"),
    ("El Cotorro", "The Parrot", "🦜"),
    ("El Borracho", "The Drunkard", "🥴"),
    ("El Negrito", "The Little Black Man", "🕺"),
    ("El Corazón", "The Heart", "❤️"),
    ("La Sandía", "The Watermelon", "🍉"),
    ("El Tambor", "The Drum", "🥁"),
    ("El Camarón", "The Shrimp", "🦐"),
    ("Las Jaras", "The Arrows", "🏹"),
    ("El Músico", "The Musician", "🎸"),
    ("La Araña", "The Spider", "🕷️"),
    ("El Soldado", "The Soldier", "🪖"),
    ("La Estrella", "The Star", "⭐"),
    ("El Cazo", "The Saucepan", "🍲"),
    ("El Mundo", "The World", "🌎"),
    ("El Apache", "The Apache", "🪶"),
    ("El Nopal", "The Cactus", "🌵"),
    ("El Alacrán", "The Scorpion", "🦂"),
    ("La Rosa", "The Rose", "🌹"),
    ("La Calavera", "The Skull", "☠️"),
    ("La Campana", "The Bell", "🔔"),
    ("El Cantarito", "The Water Pitcher", "🏺"),
    ("El Venado", "The Deer", "🦌"),
    ("El Sol", "The Sun", "☀️"),
    ("La Corona", "The Crown", "👑"),
    ("La Chalupa", "The Canoe", "🛶"),
    ("El Pino", "The Pine Tree", "🌲"),
    ("El Pescado", "The Fish", "🐟"),
    ("La Palma", "The Palm Tree", "🌴"),
    ("La Maceta", "The Flowerpot", "🪴"),
    # The harp emoji (U+1FA89) is Emoji 16, newer than OpenMoji 15: a score stands in.
    ("El Arpa", "The Harp", "🎼"),
    ("La Rana", "The Frog", "🐸"),
)

# The family deck replaces the three cards that caricature people; numbers stay the same.
FAMILY_SWAPS: dict[int, tuple[str, str, str]] = {
    25: ("La Piñata", "The Piñata", "🪅"),
    26: ("El Elote", "The Corn Cob", "🌽"),
    38: ("La Mariposa", "The Butterfly", "🦋"),
}

CLASSIC_DECK = _deck("classic", _CLASSIC_ROWS)
FAMILY_DECK = _deck(
    "family",
    [FAMILY_SWAPS.get(number, row) for number, row in enumerate(_CLASSIC_ROWS, start=1)],
)
DECKS: dict[str, Deck] = {deck.name: deck for deck in (CLASSIC_DECK, FAMILY_DECK)}


def deck_named(name: str) -> Deck:
    """The deck called ``name`` ("classic" or "family")."""
    try:
        return DECKS[name]
    except KeyError:
        raise GameError(f"unknown deck {quoted(name)}; choose one of {', '.join(DECKS)}") from None


# --------------------------------------------------------------------------------------- tablas


def _called_cards(called: Sequence[int]) -> int:
    """The 54-bit card mask of ``called``; rejects numbers outside 1..54 and repeats."""
    try:
        # Summing distinct powers of two is an OR; a repeat carries and loses a bit (checked).
        mask = sum(map(_CARD_BIT.__getitem__, called))
    except (KeyError, TypeError):
        bad = [n for n in called if type(n) is not int or n not in _CARD_BIT]
        raise GameError(f"called cards {bad!r} are not card numbers 1..{DECK_SIZE}") from None
    if mask.bit_count() != len(called):
        raise GameError("a card appears twice in the called cards")
    return mask


@dataclass(frozen=True, slots=True)
class Tabla:
    """A 4x4 board: 16 distinct card numbers in reading order (cells 0..15, row-major)."""

    numbers: tuple[int, ...]
    card_mask: int = field(init=False, repr=False, compare=False)
    # Per-pattern card masks, filled on first use by check_claim (a cache, not state).
    _pattern_cards: dict[Pattern, tuple[int, ...]] = field(
        init=False, repr=False, compare=False, default_factory=dict
    )

    def __post_init__(self) -> None:
        numbers = self.numbers
        if type(numbers) is not tuple:
            raise GameError(f"tabla numbers must be a tuple, got {type(numbers).__name__}")
        if len(numbers) != TABLA_CELLS:
            raise GameError(f"a tabla has {TABLA_CELLS} cells, got {len(numbers)}")
        bad = [n for n in numbers if type(n) is not int or n not in _CARD_BIT]
        if bad:
            raise GameError(f"tabla cards {bad!r} are not card numbers 1..{DECK_SIZE}")
        mask = sum(map(_CARD_BIT.__getitem__, numbers))
        if mask.bit_count() != TABLA_CELLS:
            raise GameError(f"a tabla repeats a card: {numbers!r}")
        object.__setattr__(self, "card_mask", mask)

    @classmethod
    def _trusted(cls, numbers: tuple[int, ...], mask: int) -> Tabla:
        """A tabla from numbers the dealer already checked (skips validation on the hot path)."""
        tabla = object.__new__(cls)
        object.__setattr__(tabla, "numbers", numbers)
        object.__setattr__(tabla, "card_mask", mask)
        object.__setattr__(tabla, "_pattern_cards", {})
        return tabla

    def __contains__(self, number: object) -> bool:
        return number in self.numbers

    def cell_of(self, number: int) -> int | None:
        """The cell (0..15) holding card ``number``, or None when it is not on this tabla."""
        try:
            return self.numbers.index(number)
        except ValueError:
            return None

    def marks(self, called: Sequence[int]) -> int:
        """16-bit mask of the cells whose card is in ``called``."""
        cards = _called_cards(called)
        return sum(
            1 << cell for cell, number in enumerate(self.numbers) if cards >> (number - 1) & 1
        )

    def cards_for(self, pattern: Pattern) -> tuple[int, ...]:
        """``pattern.masks`` translated to this tabla's card masks (same order)."""
        cached = self._pattern_cards.get(pattern)
        if cached is None:
            bits = [_CARD_BIT[n] for n in self.numbers]
            cached = tuple(
                sum(bit for cell, bit in enumerate(bits) if cells >> cell & 1)
                for cells in pattern.masks
            )
            self._pattern_cards[pattern] = cached
        return cached

    def to_state(self) -> str:
        """The card numbers in cell order, joined by ``.``."""
        return ".".join(map(str, self.numbers))

    @classmethod
    def from_state(cls, text: str) -> Tabla:
        """The tabla written by :meth:`to_state`; only the canonical text is accepted."""
        parts = text.split(".")
        if not all(part.isascii() and part.isdigit() for part in parts):
            raise GameError(f"tabla state {text!r} is not 16 card numbers joined by '.'")
        tabla = cls(tuple(int(part) for part in parts))
        if tabla.to_state() != text:  # e.g. leading zeros: only the canonical text round-trips
            raise GameError(f"tabla state {text!r} is not in canonical form")
        return tabla


def _tabla_from(r: int) -> Tabla:
    """The tabla of one uniform integer ``r < _ARRANGEMENTS`` (see the module docstring)."""
    pool = list(range(1, DECK_SIZE + 1))
    for i in range(TABLA_CELLS):
        r, j = divmod(r, DECK_SIZE - i)
        pool[i], pool[i + j] = pool[i + j], pool[i]
    numbers = tuple(pool[:TABLA_CELLS])
    return Tabla._trusted(numbers, sum(map(_CARD_BIT.__getitem__, numbers)))


def _unique_tablas(rng: random.Random) -> Iterator[Tabla]:
    """Tablas with pairwise different card sets, forever (see the module docstring)."""
    return unique_boards(
        lambda: _tabla_from(uniform_below(rng, _ARRANGEMENTS)),
        attrgetter("card_mask"),
        attempts=MAX_DEAL_ATTEMPTS,
        board="tabla",
        contents="cards",
    )


def _check_count(count: int, what: str) -> None:
    if type(count) is not int or not 1 <= count <= MAX_TABLAS:
        raise GameError(f"cannot deal {count!r} {what}: the limit is 1..{MAX_TABLAS}")


def _check_deal(first_index: int, count: int) -> None:
    if type(first_index) is not int or first_index < 0:
        raise GameError(f"deal position {first_index!r} is negative or not a number")
    _check_count(count, "tablas")
    if first_index + count > MAX_TABLAS:
        raise GameError(f"deal positions past {MAX_TABLAS - 1} are beyond the table limit")


def deal_tablas(count: int, rng: random.Random) -> list[Tabla]:
    """``count`` tablas, no two with the same set of 16 cards."""
    _check_count(count, "tablas")
    stream = _unique_tablas(rng)
    return [next(stream) for _ in range(count)]


def deal_for_game(seed: bytes, count: int) -> list[Tabla]:
    """The first ``count`` tablas of the game with ``seed`` (seat ``k`` gets item ``k``)."""
    return deal_tablas(count, SeededRandom(seed, DEAL_LABEL))


TABLA_DEAL = DealStream(_unique_tablas, _check_deal, MAX_TABLAS)


def tablas_at(seed: bytes, first_index: int, count: int = 1) -> list[Tabla]:
    """Tablas ``first_index .. first_index + count - 1`` (0-based) of the game's deal stream.

    Equal to ``deal_for_game(seed, first_index + count)[first_index:]``: deal positions handed
    out in joining order (one or several per player) give the same tablas as dealing all at once.
    It replays the stream from the start, about 6 us per earlier tabla, so nothing but the seed
    and the positions needs storing.
    """
    return TABLA_DEAL.at(seed, first_index, count)


def tabla_for_seat(seed: bytes, seat: int) -> Tabla:
    """The tabla at deal position ``seat`` (the ``seat``-th tabla handed out, 0-based)."""
    if type(seat) is not int or not 0 <= seat < MAX_TABLAS:
        raise GameError(f"seat {seat!r} is outside 0..{MAX_TABLAS - 1}")
    return tablas_at(seed, seat)[0]


class TablaDealer(StreamDealer[Tabla]):
    """Hands out a game's tablas in deal order, each for the same small cost however many came
    before: no replay while the game lives.

    ``TablaDealer(seed)`` starts at position 0. ``deal(count)`` returns the tablas at positions
    ``position .. position + count - 1`` and moves on: the same tablas as
    ``tablas_at(seed, position, count)`` (the reference, kept for verification), with the same
    errors. It remembers the card sets dealt so far, which the uniqueness rule needs. After a
    restart, ``resume(seed, position)`` rebuilds a dealer by replaying the stream: the only
    replay, for a worker thread, not the event loop. One caller at a time (it holds no lock).
    """

    __slots__ = ()
    stream = TABLA_DEAL


# ------------------------------------------------------------------------------------- patterns


def _cells_mask(cells: Sequence[int]) -> int:
    return sum(1 << cell for cell in cells)


def _line_masks() -> tuple[int, ...]:
    side = range(TABLA_SIDE)
    rows = [[r * TABLA_SIDE + c for c in side] for r in side]
    columns = [[r * TABLA_SIDE + c for r in side] for c in side]
    diagonals = [
        [i * TABLA_SIDE + i for i in side],
        [i * TABLA_SIDE + (TABLA_SIDE - 1 - i) for i in side],
    ]
    return tuple(_cells_mask(line) for line in rows + columns + diagonals)


def _square_masks() -> tuple[int, ...]:
    corners = range(TABLA_SIDE - 1)
    return tuple(
        _cells_mask(
            [
                r * TABLA_SIDE + c,
                r * TABLA_SIDE + c + 1,
                (r + 1) * TABLA_SIDE + c,
                (r + 1) * TABLA_SIDE + c + 1,
            ]
        )
        for r in corners
        for c in corners
    )


class Pattern(enum.Enum):
    """A winning shape; ``masks`` lists every 16-bit cell mask that completes it."""

    LINE = "line"
    CORNERS = "corners"
    CENTRE = "centre"
    SQUARE = "square"
    FULL = "full"

    @property
    def masks(self) -> tuple[int, ...]:
        """Every 16-bit cell mask that completes this pattern."""
        return _PATTERN_MASKS[self]

    @property
    def spanish(self) -> str:
        """The pattern's name in Spanish (``Chorro``, ``Llena``...)."""
        return _PATTERN_NAMES[self][0]

    @property
    def english(self) -> str:
        """The pattern's name in English (``Line``, ``Full tabla``...)."""
        return _PATTERN_NAMES[self][1]

    @classmethod
    def parse(cls, text: str) -> Pattern:
        """The pattern whose value is ``text`` ("line", "corners", ...)."""
        try:
            return cls(text)
        except ValueError:
            choices = ", ".join(p.value for p in cls)
            raise GameError(f"unknown pattern {quoted(text)}; choose one of {choices}") from None


_PATTERN_MASKS: dict[Pattern, tuple[int, ...]] = {
    Pattern.LINE: _line_masks(),  # 4 rows, 4 columns, 2 diagonals
    Pattern.CORNERS: (_cells_mask([0, 3, 12, 15]),),
    Pattern.CENTRE: (_cells_mask([5, 6, 9, 10]),),
    Pattern.SQUARE: _square_masks(),  # the 9 2x2 blocks
    Pattern.FULL: (_ALL_CELLS,),
}
_PATTERN_NAMES: dict[Pattern, tuple[str, str]] = {
    Pattern.LINE: ("Chorro", "Line"),
    Pattern.CORNERS: ("Cuatro esquinas", "Four corners"),
    Pattern.CENTRE: ("Centrito", "Centre"),
    Pattern.SQUARE: ("Cuadrito", "Square"),
    Pattern.FULL: ("Llena", "Full tabla"),
}


class ClaimReason(Reason):
    """Why a claim is false: the ``code`` of a :class:`ClaimResult`; the comments name its
    ``values``."""

    NO_LINE = "loteria_no_line"
    CORNERS_MISSING = "loteria_corners_missing"
    CENTRE_MISSING = "loteria_centre_missing"
    NO_SQUARE = "loteria_no_square"
    NOT_FULL = "loteria_not_full"
    NOTHING_CALLED = "loteria_nothing_called"
    SLEPT = "loteria_slept"  # card: the last card's Spanish name, number: its number


_NOT_COMPLETE: dict[Pattern, tuple[ClaimReason, str]] = {
    Pattern.LINE: (ClaimReason.NO_LINE, "no line is complete"),
    Pattern.CORNERS: (ClaimReason.CORNERS_MISSING, "the four corners are not all called"),
    Pattern.CENTRE: (ClaimReason.CENTRE_MISSING, "the four centre cells are not all called"),
    Pattern.SQUARE: (ClaimReason.NO_SQUARE, "no 2x2 square is complete"),
    Pattern.FULL: (ClaimReason.NOT_FULL, "the tabla is not full"),
}


@dataclass(frozen=True, slots=True)
class ClaimResult:
    """The verdict on a claim. ``cells`` is ONE winning cell mask (0 when invalid).

    A false claim says why in ``reason`` (English), and again as ``code`` (a
    :class:`ClaimReason`) and ``values`` for the bot to word in the player's language; a valid
    one has neither.
    """

    valid: bool
    cells: int
    reason: str = ""
    code: str = ""
    values: Mapping[str, object] = field(default_factory=lambda: NO_VALUES, hash=False)


def check_claim(
    tabla: Tabla,
    called: Sequence[int],
    pattern: Pattern,
    *,
    require_last: bool = False,
    deck: Deck = CLASSIC_DECK,
) -> ClaimResult:
    """Whether ``tabla`` completes ``pattern`` with the cards ``called`` so far (in call order).

    ``require_last`` is the "you slept on it" rule: the winning shape must include the last card
    called. ``cells`` is a single completed mask of ``pattern.masks``: one including the last card
    when there is one, otherwise the first in ``pattern.masks`` order. ``deck`` only names the
    last card in the reason text.
    """
    # The hot path: inlined mask building, cached per-tabla card masks, shared result values.
    try:
        called_cards = sum(map(_CARD_BIT.__getitem__, called))
    except (KeyError, TypeError):
        called_cards = _called_cards(called)  # raises, naming the bad numbers
    if called_cards.bit_count() != len(called):
        _called_cards(called)  # raises: a repeated card
    last_bit = _CARD_BIT[called[-1]] if called else 0
    needed_masks = tabla._pattern_cards.get(pattern) or tabla.cards_for(pattern)
    first_win = None
    for needed, win in zip(needed_masks, _WINS[pattern], strict=True):
        if called_cards & needed == needed:
            if needed & last_bit:
                return win
            if first_win is None:
                first_win = win
    if first_win is None:
        return _INCOMPLETE[pattern] if called else _NOTHING_CALLED
    if not require_last:
        return first_win
    last = deck.card(called[-1])
    return ClaimResult(
        False,
        0,
        f"the pattern does not include the last card called ({last.spanish})",
        ClaimReason.SLEPT,
        MappingProxyType({"card": last.spanish, "number": last.number}),
    )


_WINS: dict[Pattern, tuple[ClaimResult, ...]] = {
    pattern: tuple(ClaimResult(True, cells) for cells in masks)
    for pattern, masks in _PATTERN_MASKS.items()
}
_INCOMPLETE: dict[Pattern, ClaimResult] = {
    pattern: ClaimResult(False, 0, reason, code)
    for pattern, (code, reason) in _NOT_COMPLETE.items()
}
_NOTHING_CALLED = ClaimResult(False, 0, "no cards have been called", ClaimReason.NOTHING_CALLED)


# ----------------------------------------------------------------------------------------- game


def _order(seed: bytes) -> tuple[int, ...]:
    return draw_order(seed, DECK_SIZE)


@dataclass(frozen=True, slots=True)
class LoteriaGame:
    """A called game: the seed fixes the call order; prizes are played for one after another.

    ``to_state()`` contains the seed, which stays secret until the game ends: store it, never post
    it (post ``commitment`` instead).
    """

    seed: bytes
    deck_name: str
    prizes: tuple[Pattern, ...]
    drawn: int = 0
    prize_index: int = 0

    def __post_init__(self) -> None:
        if type(self.seed) is not bytes or len(self.seed) != SEED_BYTES:
            raise GameError(f"a game seed is {SEED_BYTES} bytes")
        deck_named(self.deck_name)
        if type(self.prizes) is not tuple or not self.prizes:
            raise GameError("a game needs at least one prize, as a tuple of patterns")
        if not all(isinstance(prize, Pattern) for prize in self.prizes):
            raise GameError(f"prizes must be patterns, got {self.prizes!r}")
        if type(self.drawn) is not int or not 0 <= self.drawn <= DECK_SIZE:
            raise GameError(f"{self.drawn!r} cards drawn is outside 0..{DECK_SIZE}")
        if type(self.prize_index) is not int or not 0 <= self.prize_index <= len(self.prizes):
            raise GameError(f"prize index {self.prize_index!r} is outside 0..{len(self.prizes)}")

    @classmethod
    def new(cls, seed: bytes, prizes: Sequence[Pattern], deck_name: str = "classic") -> LoteriaGame:
        """A game with ``seed`` playing for ``prizes`` in order, no card called yet."""
        return cls(seed, deck_name, tuple(prizes))

    @property
    def deck(self) -> Deck:
        """The deck the cards are called from (their names and art)."""
        return DECKS[self.deck_name]

    @property
    def commitment(self) -> str:
        """SHA-256 of the seed, hex: what is posted before the first card."""
        return commitment(self.seed)

    @property
    def called(self) -> tuple[int, ...]:
        """Card numbers called so far, in order."""
        return _order(self.seed)[: self.drawn]

    @property
    def last_called(self) -> Card | None:
        """The card called last, or None before the first call."""
        return self.deck.card(_order(self.seed)[self.drawn - 1]) if self.drawn else None

    @property
    def current_prize(self) -> Pattern | None:
        """The pattern being played for; None once every prize is awarded."""
        return self.prizes[self.prize_index] if self.prize_index < len(self.prizes) else None

    @property
    def is_over(self) -> bool:
        """Every prize has been awarded."""
        return self.prize_index >= len(self.prizes)

    @property
    def is_exhausted(self) -> bool:
        """All 54 cards are out; claims on the last card may still be checked."""
        return self.drawn >= DECK_SIZE

    def draw(self) -> tuple[LoteriaGame, Card]:
        """The game after calling the next card, and that card."""
        if self.is_over:
            raise GameError("the game is over: every prize has been awarded")
        if self.is_exhausted:
            raise GameError(f"all {DECK_SIZE} cards have been called")
        card = self.deck.card(_order(self.seed)[self.drawn])
        return replace(self, drawn=self.drawn + 1), card

    def check(self, tabla: Tabla, *, require_last: bool = False) -> ClaimResult:
        """``tabla``'s claim on the current prize with the cards called so far."""
        prize = self.current_prize
        if prize is None:
            raise GameError("the game is over: there is no prize left to claim")
        return check_claim(tabla, self.called, prize, require_last=require_last, deck=self.deck)

    def award(self) -> LoteriaGame:
        """The game playing for the next prize (over after the last one)."""
        if self.is_over:
            raise GameError("the game is over: every prize has been awarded")
        return replace(self, prize_index=self.prize_index + 1)

    # -- the calling game contract (engine.calling.CallingGame) -------------------------------

    total_calls: ClassVar[int] = DECK_SIZE
    deal_limit: ClassVar[int] = MAX_TABLAS
    every_prize_code: ClassVar[tuple[str, ...]] = tuple(pattern.value for pattern in Pattern)

    @staticmethod
    def dealer(seed: bytes, position: int) -> TablaDealer:
        """A dealer of ``seed``'s tablas whose next tabla is at deal ``position``."""
        return TablaDealer.resume(seed, position)

    @staticmethod
    def boards_at(seed: bytes, first: int, count: int) -> list[Tabla]:
        """The tablas at deal positions ``first ..`` (one pass over the deal stream)."""
        return tablas_at(seed, first, count)

    @staticmethod
    def board_from_state(text: str) -> Tabla:
        """A tabla read back from its stored text."""
        return Tabla.from_state(text)

    def next_call(self) -> tuple[LoteriaGame, int]:
        """The game after its next card, and that card's number."""
        after, card = self.draw()
        return after, card.number

    @property
    def prize_codes(self) -> tuple[str, ...]:
        """Every pattern played, in order."""
        return tuple(prize.value for prize in self.prizes)

    @property
    def open_prize_codes(self) -> tuple[str, ...]:
        """The patterns still to be won, in order."""
        return self.prize_codes[self.prize_index :]

    @property
    def claimable_codes(self) -> tuple[str, ...]:
        """The pattern being played for (one at a time)."""
        return self.open_prize_codes[:1]

    def award_prize(self, prize: str) -> LoteriaGame:
        """The game once the pattern being played for (``prize``) is won."""
        return self.award()

    def judge(
        self, board: Tabla, prize: str, called: Sequence[int], *, require_last: bool = False
    ) -> ClaimResult:
        """A claim of pattern ``prize`` on ``board`` against ``called``; a win's ``reason`` is
        the pattern's English name (as stored)."""
        pattern = Pattern.parse(prize)
        result = check_claim(
            board, tuple(called), pattern, require_last=require_last, deck=self.deck
        )
        return replace(result, reason=pattern.english) if result.valid else result

    def missing(self, board: Tabla, prize: str, called: Sequence[int]) -> int:
        """The fewest uncalled cards between ``board`` and pattern ``prize``."""
        seen = set(called)
        return min(
            sum(
                1
                for cell, number in enumerate(board.numbers)
                if mask >> cell & 1 and number not in seen
            )
            for mask in Pattern.parse(prize).masks
        )

    def to_state(self) -> str:
        """``seedhex/deck/prize,prize,.../drawn/prize_index``."""
        prizes = ",".join(prize.value for prize in self.prizes)
        return f"{self.seed.hex()}/{self.deck_name}/{prizes}/{self.drawn}/{self.prize_index}"

    @classmethod
    def from_state(cls, text: str) -> LoteriaGame:
        """The game written by :meth:`to_state`; only the canonical text is accepted."""
        parts = text.split("/")
        if len(parts) != 5 or not all(p.isascii() and p.isdigit() for p in parts[3:]):
            raise GameError(f"game state {text!r} is not 'seedhex/deck/prizes/drawn/prize_index'")
        seed_hex, deck_name, prizes_text, drawn_text, prize_text = parts
        game = cls(
            parse_seed(seed_hex),
            deck_name,
            tuple(Pattern.parse(p) for p in prizes_text.split(",")),
            int(drawn_text),
            int(prize_text),
        )
        if game.to_state() != text:  # e.g. upper-case hex or leading zeros
            raise GameError(f"game state {text!r} is not in canonical form")
        return game
