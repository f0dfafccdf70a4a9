"""Dots and Boxes's sample pictures (``python -m bot.render --sample``): a game under way, one
finished, names in other scripts and one in Spanish."""

from __future__ import annotations

from bot.render import Rendered
from bot.render.common import SAMPLE_GAME
from bot.render.dots import render_dots
from engine.dots import DotsGame


def sample_pictures() -> list[tuple[str, Rendered]]:
    """Each kind of board once, then one as a Spanish server or player gets it (``-es``)."""
    dots = DotsGame(3, 3)
    for line in ("A1-B1", "C3-D3", "A1-A2", "B2-C2", "B1-B2", "D1-D2", "A2-B2", "B3-B4"):
        dots.play(line)  # the red player closes box A1 with A2-B2 and draws again
    finished = DotsGame.from_state("2x2:0123456789ab")
    return [
        ("dots.png", render_dots(dots, game_id=SAMPLE_GAME, names=("Alice", "Bob"))),
        (
            "dots-finished.png",
            render_dots(finished, game_id=SAMPLE_GAME, names=("Alice", "GameNight")),
        ),
        (  # names in other scripts, with emoji, one too long for its place
            "dots-names.png",
            render_dots(
                dots, game_id=SAMPLE_GAME, names=("王小明 👍🏽", "محمد عبد الله الهاشمي القرشي")
            ),
        ),
        (
            "dots-es.png",
            render_dots(dots, game_id=SAMPLE_GAME, names=("Alicia", "Beto"), locale="es-ES"),
        ),
    ]
