"""Provably fair randomness: a 32-byte seed committed before play, revealed after.

Algorithm (documented in docs/FAIRNESS.md with a test vector):

* ``commitment(seed)`` is ``sha256(seed).hexdigest()``; it is posted before the first draw.
* A ``SeededRandom(seed, label)`` is a byte stream made of the blocks
  ``HMAC-SHA256(key=seed, msg=label + b":" + counter.to_bytes(8, "big"))`` for counter 0, 1, 2, ...
  ``getrandbits(k)`` takes the next ``ceil(k / 8)`` bytes, big-endian, and keeps the top ``k`` bits.
* ``randbelow(n)`` takes ``k = n.bit_length()`` bits and draws again while the value is ``>= n``
  (unbiased rejection sampling; this is also what ``random.Random`` does with ``getrandbits``).
* ``draw_order(seed, size)`` is a Fisher-Yates shuffle of ``1..size`` fed from the stream with
  label ``b"draw"``: for ``i`` from ``size - 1`` down to ``1``, swap item ``i`` with item
  ``randbelow(i + 1)``.

Dealing uses other labels (``b"deal"``), so one seed reproduces a whole game. A game whose boards
come as a stream of unique boards from its deal stream hands them out with a ``StreamDealer``
(its ``DealStream`` says how the boards come and where the positions stop).
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import random
import secrets
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Self, TypeVar

from engine.errors import GameError

SEED_BYTES = 32
DRAW_LABEL = b"draw"
DEAL_LABEL = b"deal"

Board = TypeVar("Board")


def new_seed() -> bytes:
    """A fresh game seed from the operating system's CSPRNG."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    """The public commitment to a seed: its SHA-256, hex."""
    return hashlib.sha256(seed).hexdigest()


def parse_seed(text: str) -> bytes:
    """A seed from its 64-character hex form."""
    try:
        seed = bytes.fromhex(text)
    except ValueError:
        raise GameError(f"seed {text!r} is not hex") from None
    if len(seed) != SEED_BYTES:
        raise GameError(f"seed {text!r} is {len(seed)} bytes, expected {SEED_BYTES}")
    return seed


class SeededRandom(random.Random):
    """A ``random.Random`` whose every bit comes from an HMAC-SHA256 counter stream."""

    def __init__(self, seed: bytes, label: bytes = DEAL_LABEL) -> None:
        if len(seed) != SEED_BYTES:
            raise GameError(f"seed is {len(seed)} bytes, expected {SEED_BYTES}")
        self._key = seed
        self._label = label
        self._counter = 0
        self._buffer = b""
        super().__init__()

    def seed(self, *args: object, **kwargs: object) -> None:
        """Ignored: the stream is fixed by the seed given to the constructor."""

    def _take(self, count: int) -> bytes:
        while len(self._buffer) < count:
            block = hmac.new(
                self._key, self._label + b":" + self._counter.to_bytes(8, "big"), hashlib.sha256
            ).digest()
            self._counter += 1
            self._buffer += block
        taken, self._buffer = self._buffer[:count], self._buffer[count:]
        return taken

    def getrandbits(self, k: int, /) -> int:
        """The next ``k`` bits of the stream: the top bits of the next ``ceil(k / 8)`` bytes."""
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        if k == 0:
            return 0
        nbytes = (k + 7) // 8
        return int.from_bytes(self._take(nbytes), "big") >> (nbytes * 8 - k)

    def random(self) -> float:
        """A float in ``[0, 1)`` from the next 53 bits of the stream."""
        return self.getrandbits(53) * 2.0**-53

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` by rejection sampling on ``n.bit_length()`` bits."""
        if n <= 0:
            raise ValueError("n must be positive")
        k = n.bit_length()
        value = self.getrandbits(k)
        while value >= n:
            value = self.getrandbits(k)
        return value


# Every live game asks for its order on every call and every claim: a bot running a thousand
# games keeps each one's (under a kilobyte each) rather than shuffle again.
@functools.lru_cache(maxsize=4096)
def draw_order(seed: bytes, size: int) -> tuple[int, ...]:
    """The full call order of ``1..size`` for a game seeded with ``seed``."""
    if size < 1:
        raise GameError(f"cannot order {size} items")
    stream = SeededRandom(seed, DRAW_LABEL)
    items = list(range(1, size + 1))
    for i in range(size - 1, 0, -1):
        j = stream.randbelow(i + 1)
        items[i], items[j] = items[j], items[i]
    return tuple(items)


@dataclass(frozen=True, slots=True)
class DrawOrder:
    """A game's call order, derived from its seed; ``commitment`` is published before play."""

    seed: bytes
    order: tuple[int, ...]

    @classmethod
    def from_seed(cls, seed: bytes, size: int) -> DrawOrder:
        """The call order of ``1..size`` that ``seed`` fixes."""
        return cls(seed, draw_order(seed, size))

    @property
    def commitment(self) -> str:
        """SHA-256 of the seed, hex: what is posted before play."""
        return commitment(self.seed)

    def __len__(self) -> int:
        return len(self.order)

    def call(self, index: int) -> int:
        """The call at position ``index`` (0-based); the deck running out is a domain error."""
        if not 0 <= index < len(self.order):
            raise GameError(f"draw {index + 1} is past the end of a {len(self.order)}-item deck")
        return self.order[index]

    def to_state(self) -> str:
        """``seedhex/size``: the order follows from them."""
        return f"{self.seed.hex()}/{len(self.order)}"

    @classmethod
    def from_state(cls, text: str) -> DrawOrder:
        """The draw order written by :meth:`to_state`."""
        seed_hex, _, size_text = text.partition("/")
        if not size_text.isdigit():
            raise GameError(f"draw order state {text!r} is not 'seedhex/size'")
        return cls.from_seed(parse_seed(seed_hex), int(size_text))


def uniform_below(rng: random.Random, bound: int) -> int:
    """A uniform integer in ``[0, bound)`` from ``rng``: ``SeededRandom``'s own ``randbelow`` (the
    documented algorithm) on a game's stream, ``randrange`` on any other source."""
    if isinstance(rng, SeededRandom):
        return rng.randbelow(bound)
    return rng.randrange(bound)


def unique_boards(
    draw: Callable[[], Board],
    key: Callable[[Board], Hashable],
    *,
    attempts: int,
    board: str,
    contents: str,
) -> Iterator[Board]:
    """The boards ``draw()`` gives, but for those alike (by ``key``) to one given before, which
    are drawn again, forever. ``attempts`` draws in a row without a new board mean the source
    is not random: a ``GameError`` saying no ``board`` with a new set of ``contents`` came."""
    seen: set[Hashable] = set()
    while True:
        for _attempt in range(attempts):
            drawn = draw()
            if (alike := key(drawn)) not in seen:
                seen.add(alike)
                yield drawn
                break
        else:
            raise GameError(
                f"could not deal a {board} with a new set of {contents} in {attempts} draws"
                f" after {len(seen)} {board}s; the random source is not random"
            )


@dataclass(frozen=True, slots=True)
class DealStream(Generic[Board]):
    """How a game deals its boards from the seed: ``deal_from(rng)`` gives its boards in deal
    order, forever (no two alike where the game's rules say so); ``check(first, count)`` refuses
    deal positions the game does not have; ``most`` is how many positions there are
    (0..``most - 1``)."""

    deal_from: Callable[[random.Random], Iterator[Board]]
    check: Callable[[int, int], None]
    most: int

    def boards(self, seed: bytes) -> Iterator[Board]:
        """The boards of ``seed``'s game in deal order, from its ``DEAL_LABEL`` stream."""
        return self.deal_from(SeededRandom(seed, DEAL_LABEL))

    def at(self, seed: bytes, first: int, count: int = 1) -> list[Board]:
        """The boards at deal positions ``first .. first + count - 1`` (0-based), replayed from
        the start of the stream: the reference, for which only the seed and the positions need
        storing."""
        self.check(first, count)
        stream = self.boards(seed)
        for _ in range(first):
            next(stream)
        return [next(stream) for _ in range(count)]


class StreamDealer(Generic[Board]):
    """Hands out a game's boards in deal order, each for the same small cost however many came
    before: no replay while the game lives.

    A game's dealer is a subclass naming its ``stream``. ``Dealer(seed)`` starts at position 0;
    ``deal(count)`` returns the boards at positions ``position .. position + count - 1`` and
    moves on, the same boards as ``stream.at(seed, position, count)`` with the same errors (the
    stream remembers what it needs of the boards dealt so far, e.g. for a uniqueness rule).
    ``resume(seed, position)`` rebuilds a dealer after a restart by replaying the stream: the
    only replay, for a worker thread, not the event loop. One caller at a time (it holds no lock).
    """

    __slots__ = ("_boards", "_position")
    stream: ClassVar[DealStream[Any]]

    def __init__(self, seed: bytes) -> None:
        self._boards: Iterator[Board] = self.stream.boards(seed)
        self._position = 0

    @classmethod
    def resume(cls, seed: bytes, position: int) -> Self:
        """A dealer that has handed out ``position`` boards (0..``stream.most``), by replay."""
        most = cls.stream.most
        if type(position) is not int or not 0 <= position <= most:
            raise GameError(f"deal position {position!r} is outside 0..{most}")
        dealer = cls(seed)
        for _ in range(position):
            next(dealer._boards)
        dealer._position = position
        return dealer

    @property
    def position(self) -> int:
        """How many boards were handed out: the deal position of the next one."""
        return self._position

    def deal(self, count: int = 1) -> list[Board]:
        """The next ``count`` boards, in deal order."""
        self.stream.check(self._position, count)
        boards = [next(self._boards) for _ in range(count)]
        self._position += count
        return boards
