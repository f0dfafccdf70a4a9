import io

from PIL import Image

from bot.render.common import Palette
from bot.render.triangle import (
    FIRST_FRAME_MS,
    JUMP_FRAME_MS,
    LAST_FRAME_MS,
    PEG,
    hole_centre,
    render_solution,
    render_triangle,
)
from engine.triangle import HOLES, TriangleGame, best_line, start_board
from tests.bot.render.conftest import SIZE_BUDGET, open_checked


def near(actual, expected, tolerance=14) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(actual, expected, strict=True))


def pegs_seen(image: Image.Image) -> int:
    """The board as the picture shows it: bit h set where hole h shows a red peg."""
    board = 0
    for hole in range(HOLES):
        x, y = hole_centre(hole)
        # Beside the number, inside the peg: a peg's red, or the wood around an empty hole.
        if near(image.getpixel((round(x - 17), round(y))), PEG):
            board |= 1 << hole
    return board


def test_pegs_and_holes_are_where_the_engine_says():
    game = TriangleGame.new(4)
    jump = game.jump(11, 4)
    rendered = render_triangle(game.board, game_id="3", caption="13 pegs left", last_jump=jump)
    image = open_checked(rendered)
    assert pegs_seen(image) == game.board
    assert rendered.alt_text == (
        "Tricky Triangle game 3: 15 holes in rows of 1 to 5, numbered 0 at the top to 14 at the "
        "bottom right. 13 pegs left. 13 pegs in holes 0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 12, 13, 14; "
        "empty holes 7, 11. Last jump: 11 over 7 to 4."
    )
    assert rendered.filename == "triangle-3-13.png"


def test_a_picked_peg_has_a_gold_ring():
    board = start_board(0)
    plain = open_checked(render_triangle(board, game_id="3", caption="14 pegs left"))
    picked = render_triangle(board, game_id="3", caption="14 pegs left", selected=3)
    image = open_checked(picked)
    x, y = hole_centre(3)
    ring = (round(x), round(y - 28))
    assert near(image.getpixel(ring), Palette.GOLD)
    assert not near(plain.getpixel(ring), Palette.GOLD)
    assert "Peg 3 is picked." in picked.alt_text


def test_the_solution_gif_shows_one_jump_per_frame():
    jumps = best_line(start_board(4))
    rendered = render_solution(4, jumps)
    assert rendered.filename == "triangle-solution-4.gif"
    assert len(rendered.png) < SIZE_BUDGET
    assert 0 < len(rendered.alt_text) <= 1024
    assert f"({len(jumps)} jumps)" in rendered.alt_text
    assert rendered.alt_text.endswith("one peg left, in hole 12.")
    with Image.open(io.BytesIO(rendered.png)) as animation:
        assert animation.format == "GIF"
        assert animation.info["loop"] == 0
        assert animation.n_frames == len(jumps) + 1
        board = start_board(4)
        durations = []
        for frame, jump in enumerate([None, *jumps]):
            if jump is not None:
                board = jump.apply(board)
            animation.seek(frame)
            durations.append(animation.info["duration"])
            assert pegs_seen(animation.convert("RGB")) == board, frame
    assert durations == [FIRST_FRAME_MS] + [JUMP_FRAME_MS] * (len(jumps) - 1) + [LAST_FRAME_MS]
    assert render_solution(4, jumps) == rendered
