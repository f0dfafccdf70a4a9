"""The replay GIF (bot/render/replay.py) over each game's caller's board: a real GIF, one frame
per call and one more per prize won, well under Discord's limits, its frames showing the calls."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.render import bingo, housie, loteria
from bot.render.replay import LAST_MS, WIN_MS, ReplayWin, render_replay, replay_plan
from engine.fairness import draw_order
from engine.loteria import DECKS

HOUSIE_ORDER = draw_order(bytes(range(32)), 90)
LOTERIA_ORDER = draw_order(bytes(range(32)), 54)
BINGO_ORDER = draw_order(bytes(range(32)), 75)


def frames_of(data: bytes) -> tuple[list[Image.Image], list[int]]:
    gif = Image.open(io.BytesIO(data))
    assert gif.format == "GIF"
    frames, durations = [], []
    for index in range(gif.n_frames):
        gif.seek(index)
        durations.append(gif.info["duration"])
        frames.append(gif.convert("RGB"))
    return frames, durations


def housie_ball_centre(number: int) -> tuple[int, int]:
    row, column = divmod(number - 1, housie.BOARD_COLUMNS)
    left = housie.BOARD_MARGIN + column * (housie.BALL + housie.BALL_GAP)
    top = housie.BOARD_HEADER + row * (housie.BALL + housie.BALL_GAP)
    return left + housie.BALL // 2 + 14, top + housie.BALL // 2  # (beside the digits)


def test_a_90_call_housie_replay_shows_every_call_and_win_and_stays_small():
    wins = [
        ReplayWin(9, "Early Five", ("Ana",)),
        ReplayWin(40, "Top Line", ("Bob", "Carla")),
        ReplayWin(40, "Middle Line", ("Dee",)),
        ReplayWin(90, "Full House", ("E", "F", "G", "H", "I")),
    ]
    rendered = render_replay(
        lambda k: housie.caller_board_frame(HOUSIE_ORDER[:k]), 90, wins, title="Housie", game_id=3
    )
    assert rendered.filename.endswith(".gif")
    assert len(rendered.png) < 2 * 1024 * 1024
    frames, durations = frames_of(rendered.png)
    plan = replay_plan(90, wins, None)
    assert len(frames) == len(plan) == 1 + 90 + 4
    assert [ms for _, _, ms in plan] == durations
    assert durations[-1] == LAST_MS
    assert durations.count(WIN_MS) == 3  # (the last win's frame is held the longest)
    # Frame by frame, the called numbers are lit and the others paper, as the seed called them.
    for index, (calls, _text, _ms) in enumerate(plan):
        if index % 7 and index != len(plan) - 1:
            continue
        for number in range(1, 91):
            colour = frames[index].getpixel(housie_ball_centre(number))
            paper = all(value > 200 for value in colour)
            assert paper is (number not in HOUSIE_ORDER[:calls]), (index, number, colour)
    # The win's banner is gold on its own frame, then darker on the frames after it.
    banner_y = housie.BOARD_HEIGHT + 4
    at_win = next(i for i, (calls, text, _) in enumerate(plan) if calls == 9 and "Ana" in text)
    gold = frames[at_win].getpixel((4, banner_y))
    assert gold[0] > 200, gold
    assert gold[1] > 150, gold
    assert gold[2] < 80, gold
    after = frames[at_win + 1].getpixel((4, banner_y))
    assert after[1] < 100, after
    assert "Call 40: Top Line, Bob, Carla." in rendered.alt_text
    assert "Full House, E, F, G and 2 more" in rendered.alt_text


def test_a_loteria_replay_turns_each_card_over_as_it_is_called():
    deck = DECKS["classic"]
    rendered = render_replay(
        lambda k: loteria.caller_board_frame(LOTERIA_ORDER[:k], deck, locale="es-ES"),
        20,
        [],
        title="Lotería",
        game_id=4,
        locale="es-ES",
    )
    frames, _ = frames_of(rendered.png)
    assert len(frames) == 21
    assert "Nadie ganó" in rendered.alt_text
    for index in (0, 5, 20):
        reference = loteria.caller_board_image(LOTERIA_ORDER[:index], deck, locale="es-ES")
        for number in range(1, 55):
            left = loteria.MARGIN + (number - 1) % 9 * (loteria.BOARD_TILE_WIDTH + 8)
            top = loteria.CALL_TITLE_HEIGHT + (number - 1) // 9 * (loteria.BOARD_TILE_HEIGHT + 8)
            # The middle of a card's art: the board's red when it is still a numbered slot.
            point = (left + 10, top + 30)
            shown = frames[index].getpixel(point)
            red = shown[0] > 90 and shown[1] < 60 and shown[2] < 80
            assert red is (number not in LOTERIA_ORDER[:index]), (index, number, shown)
            exact = reference.getpixel(point)
            assert sum(abs(a - b) for a, b in zip(shown, exact, strict=True)) < 60


def test_a_bingo_replay_lights_each_number_in_its_column_as_it_is_called():
    wins = [ReplayWin(12, "Any line", ("Ana",)), ReplayWin(75, "Blackout", ("Bo", "Cy"))]
    rendered = render_replay(
        lambda k: bingo.caller_board_frame(BINGO_ORDER[:k]), 75, wins, title="Bingo", game_id=5
    )
    frames, _ = frames_of(rendered.png)
    plan = replay_plan(75, wins, None)
    assert len(frames) == len(plan) == 1 + 75 + 2
    for index in (0, 12, 13, 40):
        calls = plan[index][0]
        reference = bingo.caller_board_image(BINGO_ORDER[:calls])
        assert frames[index].width == reference.width  # (the caption goes under the board)
        for number in range(1, 76):
            left, top = bingo.ball_origin(number)
            point = (left + 4, top + bingo.BOARD_BALL // 2)  # (beside the digits)
            shown, exact = frames[index].getpixel(point), reference.getpixel(point)
            assert sum(abs(a - b) for a, b in zip(shown, exact, strict=True)) < 60, (index, number)
    # A number lit once called: its column's colour, not paper.
    left, top = bingo.ball_origin(BINGO_ORDER[0])
    point = (left + 4, top + bingo.BOARD_BALL // 2)
    assert frames[0].getpixel(point) != frames[1].getpixel(point)


def test_a_win_outside_the_calls_is_refused():
    with pytest.raises(ValueError, match="outside"):
        replay_plan(10, [ReplayWin(11, "Line", ("A",))], None)
