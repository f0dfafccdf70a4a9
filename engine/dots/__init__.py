"""Dots and Boxes on boards of R x C boxes (2x2 up to 5x5; 3x3 by default), and the bot's play.

Everything public is importable from here (``from engine.dots import DotsGame``). The modules,
in the order they build on each other:

``rules``
    The board, its lines (``Line``, ``parse_line``: ``A1-B1``) and dots, and a game
    (``DotsGame``): ``game.play(line_or_text, player=None)`` validates (line on the board, not
    drawn yet, game not over, right player's turn) and returns a ``MoveResult`` (boxes
    completed; the same player moves again exactly when it completed one); ``game.turn``,
    ``game.scores``, ``game.is_over``, ``game.winner`` (``None`` while playing or on a tie),
    ``game.free_lines()`` (each ``Line`` has a stable ``id`` such as ``"A1-B1"``),
    ``game.drawn_lines()``, ``game.line_owner(line)``, ``game.box_owner(row, column)``,
    ``game.box_owners()``; ``to_state()`` / ``from_state()``: ``"3x3:<moves>"``, one base-62
    digit per line drawn, in order (loading replays and re-validates every move).
``search``
    The bot's play (``choose_line`` at a ``Level``: easy, normal, or hard, perfect with a
    ``Solution``) and exact values (``exact_line_values``, ``loony_value``).
``solution``
    The solved table of a small board, decoded (``SolvedBoard``, a ``Solution``); reading its
    file is the caller's job, which keeps the engine free of I/O.
"""

from engine.dots.rules import (
    MAX_SIDE,
    MIN_SIDE,
    DotsError,
    DotsGame,
    DotsReason,
    Line,
    MoveResult,
    Orientation,
    Player,
    dot_name,
    parse_line,
)
from engine.dots.search import (
    EXACT_LINE_LIMIT,
    SAFE_SEARCH_MAX_LINES,
    SAFE_SEARCH_NODES,
    Level,
    Solution,
    choose_line,
    exact_line_values,
    loony_value,
)
from engine.dots.solution import ENTRY_BITS, SolvedBoard, symmetries, table_size

__all__ = [
    "ENTRY_BITS",
    "EXACT_LINE_LIMIT",
    "MAX_SIDE",
    "MIN_SIDE",
    "SAFE_SEARCH_MAX_LINES",
    "SAFE_SEARCH_NODES",
    "DotsError",
    "DotsGame",
    "DotsReason",
    "Level",
    "Line",
    "MoveResult",
    "Orientation",
    "Player",
    "Solution",
    "SolvedBoard",
    "choose_line",
    "dot_name",
    "exact_line_values",
    "loony_value",
    "parse_line",
    "symmetries",
    "table_size",
]
