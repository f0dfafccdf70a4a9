"""The root of every domain error raised by the engines, and how they quote what was typed."""

QUOTE_LIMIT = 40


class GameError(ValueError):
    """A move, claim or state text that the rules reject; the message says why."""


def quoted(text: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr`` of ``text`` cut to at most ``limit`` characters (with "…"): an error message may
    be shown to a player, and what they typed can be thousands of characters long."""
    shown = str(text)
    if len(shown) > limit:
        shown = shown[: limit - 1] + "…"
    return repr(shown)
