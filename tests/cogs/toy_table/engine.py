"""Race to ten, the rules: two players in turn add 1 or 2 to a running total; whoever brings it
to ten wins. Pure, with its stored text form (``to_state``/``from_state``)."""

from __future__ import annotations

import random
from dataclasses import dataclass

TARGET = 10
STEPS = (1, 2)


class RaceError(ValueError):
    """A move the rules refuse."""


@dataclass
class Race:
    total: int = 0
    moves: int = 0

    @property
    def turn(self) -> int:
        """The seat to move (0 first)."""
        return self.moves % 2

    @property
    def is_over(self) -> bool:
        return self.total >= TARGET

    @property
    def winner(self) -> int | None:
        """The seat that reached the target (the last to move), once over."""
        return (self.moves - 1) % 2 if self.is_over else None

    def play(self, step: int) -> None:
        if self.is_over or step not in STEPS or self.total + step > TARGET:
            raise RaceError(step)
        self.total += step
        self.moves += 1

    def best_step(self, rng: random.Random) -> int:
        """Land on a total ten minus a multiple of three when it can; any step otherwise."""
        step = (TARGET - self.total) % 3
        return step if step in STEPS else rng.choice([s for s in STEPS if self.total + s <= TARGET])

    def to_state(self) -> str:
        return f"{self.total}/{self.moves}"

    @classmethod
    def from_state(cls, state: str) -> Race:
        total, moves = state.split("/")
        return cls(int(total), int(moves))
