"""What the table games share (tic-tac-toe, Dots and Boxes, the Tricky Triangle).

* ``base``: :class:`TableGameCog`, the base of every table game: components whose custom ids
  carry the game (``gn:ttt:cell:12:4``, ``gs:dots:line:7:0``), routed here by the game's prefix
  (``bot.components``), so buttons and selects on old messages work after a restart; one lock
  per game, and compare-and-set writes of the engine state, so two presses at once cannot both
  move; a deadline per live game (a move, an answer to a challenge, an idle puzzle) kept in the
  game's options and watched by one timer task, brought back at start-up.
* ``options``: each table game's options, typed (:class:`TableOptions`, :class:`DuelOptions`,
  subclassed by a game with its settings), read from and written to the stored form.
* ``duel``: :class:`DuelCog`, the two-player life cycle of tic-tac-toe and Dots and Boxes: a
  challenge (accept / decline) or a game against the bot, turns, the bot's replies,
  resignation, forfeit on time, the result (a win recorded for ``/stats``) and a rematch with
  sides swapped.

A member is in at most one live game of each kind; a challenged member joins on accepting.
"""

from bot.table.base import (
    BOT_SEAT_ID,
    CHALLENGE_SECONDS,
    MAX_TURN_SECONDS,
    MIN_TURN_SECONDS,
    SHUTDOWN_GRACE,
    LiveTable,
    SandboxPlan,
    SandboxPress,
    Shown,
    TableGameCog,
)
from bot.table.duel import DuelCog, EngineT, OptionsT
from bot.table.options import DuelOptions, TableOptions

__all__ = [
    "BOT_SEAT_ID",
    "CHALLENGE_SECONDS",
    "MAX_TURN_SECONDS",
    "MIN_TURN_SECONDS",
    "SHUTDOWN_GRACE",
    "DuelCog",
    "DuelOptions",
    "EngineT",
    "LiveTable",
    "OptionsT",
    "SandboxPlan",
    "SandboxPress",
    "Shown",
    "TableGameCog",
    "TableOptions",
]
