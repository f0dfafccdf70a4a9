"""The one rule for plural forms, in English and Spanish alike: "one" for 1, "other" for every
other count, 0 included. Messages pick their form with it (``bot.i18n.Plural``), and so does
the operator's English (logs, the command line, the sandbox's transcript) through
:func:`counted`. It imports nothing, so that any module may use it."""

from __future__ import annotations


def plural(count: int, one: str, other: str) -> str:
    """The form of a word or phrase for ``count``: ``one`` for 1, ``other`` for any other."""
    return one if count == 1 else other


def counted(count: int, one: str, other: str) -> str:
    """``count`` and the word's form for it: ``counted(1, "server", "servers")`` is
    ``"1 server"``, ``counted(0, "server", "servers")`` is ``"0 servers"``."""
    return f"{count} {plural(count, one, other)}"
