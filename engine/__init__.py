"""Pure game logic: no Discord, no I/O. Every value has a compact text state."""

from engine.errors import GameError

__all__ = ["GameError"]
