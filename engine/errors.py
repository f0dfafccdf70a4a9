"""The root of every domain error raised by the engines."""


class GameError(ValueError):
    """A move, claim or state text that the rules reject; the message says why."""
