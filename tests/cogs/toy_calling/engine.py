"""The toy calling game's rules, pure: nine numbers called in the seed's order, cards of three
numbers, two prizes played one after the other ("two": two of a card's numbers called, "all":
all three). It meets ``engine.calling.CallingGame`` and nothing more."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import ClassVar

from engine.fairness import draw_order, parse_seed

NUMBERS = 9
PRIZES = ("two", "all")
NEEDED = {"two": 2, "all": 3}
SHORT = "toycall_short"  # the code (and message key) of a false claim


@dataclass(frozen=True)
class ToyCard:
    """Three numbers of 1..9, in order."""

    numbers: tuple[int, ...]

    def to_state(self) -> str:
        return ",".join(map(str, self.numbers))

    @classmethod
    def from_state(cls, text: str) -> ToyCard:
        return cls(tuple(int(part) for part in text.split(",")))


def card_at(seed: bytes, position: int) -> ToyCard:
    rng = random.Random(seed + position.to_bytes(4, "big"))
    return ToyCard(tuple(sorted(rng.sample(range(1, NUMBERS + 1), 3))))


class ToyDealer:
    def __init__(self, seed: bytes, position: int) -> None:
        self.seed = seed
        self.position = position

    def deal(self, count: int = 1) -> list[ToyCard]:
        cards = [card_at(self.seed, self.position + index) for index in range(count)]
        self.position += count
        return cards


@dataclass(frozen=True)
class ToyCheck:
    valid: bool
    reason: str
    code: str = ""
    values: Mapping[str, object] = field(default_factory=dict)
    hits: tuple[int, ...] = ()


@dataclass(frozen=True)
class ToyGame:
    seed: bytes
    drawn: int = 0
    won: int = 0  # prizes won so far, in order

    total_calls: ClassVar[int] = NUMBERS
    deal_limit: ClassVar[int] = 50
    every_prize_code: ClassVar[tuple[str, ...]] = PRIZES

    def to_state(self) -> str:
        return f"{self.seed.hex()}/{self.drawn}/{self.won}"

    @classmethod
    def from_state(cls, text: str) -> ToyGame:
        seed, drawn, won = text.split("/")
        return cls(parse_seed(seed), int(drawn), int(won))

    @staticmethod
    def dealer(seed: bytes, position: int) -> ToyDealer:
        return ToyDealer(seed, position)

    @staticmethod
    def boards_at(seed: bytes, first: int, count: int) -> list[ToyCard]:
        return ToyDealer(seed, first).deal(count)

    @staticmethod
    def board_from_state(text: str) -> ToyCard:
        return ToyCard.from_state(text)

    @property
    def called(self) -> tuple[int, ...]:
        return draw_order(self.seed, NUMBERS)[: self.drawn]

    def next_call(self) -> tuple[ToyGame, int]:
        return replace(self, drawn=self.drawn + 1), draw_order(self.seed, NUMBERS)[self.drawn]

    @property
    def prize_codes(self) -> tuple[str, ...]:
        return PRIZES

    @property
    def open_prize_codes(self) -> tuple[str, ...]:
        return PRIZES[self.won :]

    @property
    def claimable_codes(self) -> tuple[str, ...]:
        return self.open_prize_codes[:1]

    def award_prize(self, prize: str) -> ToyGame:
        return replace(self, won=self.won + 1)

    def judge(
        self, board: ToyCard, prize: str, called: Sequence[int], *, require_last: bool = False
    ) -> ToyCheck:
        hits = tuple(number for number in board.numbers if number in called)
        if len(hits) >= NEEDED[prize]:
            return ToyCheck(True, prize, hits=hits)
        return ToyCheck(False, f"{len(hits)} of its numbers called", SHORT, {"hits": len(hits)})

    def missing(self, board: ToyCard, prize: str, called: Sequence[int]) -> int:
        return max(0, NEEDED[prize] - sum(number in called for number in board.numbers))
