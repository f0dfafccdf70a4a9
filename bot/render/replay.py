"""A calling game's replay: an animated GIF of its calls appearing one by one on the caller's
board, each win shown on the call it came with (a banner naming the prize and the winners).

What is every game's is here: the frames' order and timing, the banner under the board and the
GIF. Each game supplies its board (its cog's ``replay_frame``: the caller's board after the
first ``k`` calls, composed on its fixed palette, not encoded); every frame shares that palette,
so the GIF has one global colour table and each frame after the first holds only what changed
(the new call, the latest-call mark, the banner), which keeps a 90-call game small.
"""

from __future__ import annotations

import io
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from bot.i18n import LocaleLike, message
from bot.render.common import (
    RGB,
    FixedPalette,
    FontFace,
    Palette,
    Rendered,
    limit_alt_text,
    safe_filename,
)
from bot.render.text import Label, Span, fit_line, name_spans

BANNER = 64  # the strip under the board
BANNER_PAD = 16
# A replay lasts about PLAY_MS for its calls (each shown at least CALL_MS_LEAST, at most
# CALL_MS_MOST), holds each win WIN_MS and the whole board at the end LAST_MS.
PLAY_MS = 5000
CALL_MS_LEAST = 40  # browsers show a GIF frame shorter than 20 ms for 100 ms
CALL_MS_MOST = 200
WIN_MS = 1200
LAST_MS = 3000
NAMES_SHOWN = 3  # winners named on a banner; more are counted
# Discord takes a bot's attachments up to 10 MiB (a server's boosts raise it): the replay goes
# with the end picture only when it is well under that, else behind a button.
ATTACH_LIMIT = 8 * 1024 * 1024

# The banner's looks: before any win, on a win's own frame, and after it.
_QUIET: tuple[RGB, RGB] = (Palette.INK, Palette.PAPER)
_WINNING: tuple[RGB, RGB] = (Palette.GOLD, Palette.INK)
_SINCE: tuple[RGB, RGB] = (Palette.BOARD_DARK, Palette.PAPER)


@dataclass(frozen=True, slots=True)
class ReplayWin:
    """A prize won, as the replay shows it: the call (``seq``), the prize's name and the names
    of those who won it on that call."""

    seq: int
    prize: str
    names: tuple[str, ...]


def _names_text(names: Sequence[str], locale: LocaleLike) -> str:
    shown = ", ".join(names[:NAMES_SHOWN])
    more = len(names) - NAMES_SHOWN
    if more > 0:
        return message("pic_replay_more", locale, names=shown, count=more)
    return shown


def _win_text(win: ReplayWin, locale: LocaleLike) -> str:
    return message(
        "pic_replay_win",
        locale,
        seq=win.seq,
        prize=win.prize,
        names=_names_text(win.names, locale),
    )


@lru_cache(maxsize=64)
def _banner(
    text: str, names: tuple[str, ...], look: tuple[RGB, RGB], width: int, colours: bytes
) -> Image.Image:
    """The strip under the board: ``text`` (``names`` in it cut first when it is too long) on
    ``look`` (background, ink), mapped onto the frames' palette (``colours``)."""
    background, ink = look
    strip = Image.new("RGB", (width, BANNER), background)
    line = fit_line(
        name_spans(text, names) if names else (Span(text),),
        FontFace.SANS_BOLD,
        28,
        16,
        width - 2 * BANNER_PAD,
    )
    Label(line, (width / 2, BANNER / 2), "mm", ink).draw(ImageDraw.Draw(strip))
    palette = Image.new("P", (1, 1))
    palette.putpalette(colours)
    return FixedPalette(palette).map(strip)


@dataclass(frozen=True, slots=True)
class _Frame:
    calls: int  # the first ``calls`` calls are on the board
    banner: tuple[str, tuple[str, ...], tuple[RGB, RGB]]
    ms: int


def _call_ms(calls: int) -> int:
    """How long each call's frame shows: the calls together take about PLAY_MS, in GIF's
    hundredths of a second."""
    each = PLAY_MS // max(1, calls)
    return max(CALL_MS_LEAST, min(CALL_MS_MOST, each)) // 10 * 10


def replay_plan(
    calls: int, wins: Sequence[ReplayWin], locale: LocaleLike
) -> list[tuple[int, str, int]]:
    """The frames of a replay of ``calls`` calls, in order: for each, the calls on the board,
    its banner's text and how many milliseconds it shows. A call with wins is shown once more
    for each prize won on it, held WIN_MS; the last frame is held LAST_MS."""
    return [(frame.calls, frame.banner[0], frame.ms) for frame in _plan(calls, wins, locale)]


def _plan(calls: int, wins: Sequence[ReplayWin], locale: LocaleLike) -> list[_Frame]:
    by_call: dict[int, list[ReplayWin]] = {}
    for win in wins:
        if not 1 <= win.seq <= calls:
            raise ValueError(f"a win on call {win.seq} is outside 1..{calls}")
        by_call.setdefault(win.seq, []).append(win)
    each = _call_ms(calls)
    banner: tuple[str, tuple[str, ...], tuple[RGB, RGB]] = (
        message("pic_replay_start", locale),
        (),
        _QUIET,
    )
    frames = [_Frame(0, banner, each)]
    for seq in range(1, calls + 1):
        frames.append(_Frame(seq, banner, each))
        for win in by_call.get(seq, ()):
            text = _win_text(win, locale)
            frames.append(_Frame(seq, (text, win.names, _WINNING), WIN_MS))
            banner = (text, win.names, _SINCE)
    last = frames[-1]
    frames[-1] = _Frame(last.calls, last.banner, max(last.ms, LAST_MS))
    return frames


def replay_alt_text(
    title: str, game_id: int, calls: int, wins: Sequence[ReplayWin], locale: LocaleLike
) -> str:
    """The replay's alt text: the game, its calls, and each win in order."""
    text = message("alt_replay", locale, title=title, game=game_id, count=calls)
    if wins:
        text += " " + " ".join(f"{_win_text(win, locale)}." for win in wins)
    else:
        text += message("alt_replay_no_wins", locale)
    return limit_alt_text(text)


def _as_indices(image: Image.Image) -> Image.Image:
    """A "P" image's indices as an "L" image (no palette lookup), to compare frames by."""
    return Image.frombytes("L", image.size, image.tobytes())


def _only_changes(images: list[Image.Image]) -> list[Image.Image]:
    """``images`` with every pixel a frame shares with the one before it made transparent,
    when the palette has an index no frame uses (a board's palette of 256 colours always has
    some its game never shows): a frame is then its few changed pixels among long runs of one
    index, which the GIF's compression takes almost for nothing. Otherwise as they are."""
    used = [0] * 256
    for image in images:
        used = [a + b for a, b in zip(used, image.histogram()[:256], strict=True)]
    spare = next((index for index, count in enumerate(used) if count == 0), None)
    if spare is None:
        return images
    kept = [images[0]]
    for before, image in itertools.pairwise(images):
        changed = ImageChops.difference(_as_indices(before), _as_indices(image))
        mask = changed.point(lambda level: 255 if level else 0)
        only = Image.new("P", image.size, spare)
        only.putpalette(image.getpalette() or ())
        only.paste(image, (0, 0), mask)
        kept.append(only)
    for image in kept:
        image.info["transparency"] = spare
    return kept


def render_replay(
    frame: Callable[[int], Image.Image],
    calls: int,
    wins: Sequence[ReplayWin],
    *,
    title: str,
    game_id: int,
    locale: LocaleLike = None,
) -> Rendered:
    """The replay of a game of ``calls`` calls as an animated GIF (in ``Rendered.png``'s place,
    named ``.gif``): ``frame(k)`` is the game's caller's board after its first ``k`` calls, a
    "P" image on the game's fixed palette (the same palette for every ``k``); ``wins`` in the
    order they came. Pure and CPU-bound: run it in a worker thread."""
    plan = _plan(calls, wins, locale)
    boards: dict[int, Image.Image] = {}
    images: list[Image.Image] = []
    colours = b""
    for step in plan:
        board = boards.get(step.calls)
        if board is None:
            boards.clear()  # (each board is needed for one call's frames only)
            board = boards[step.calls] = frame(step.calls)
            if board.mode != "P":
                raise ValueError("a replay frame is a 'P' image on its game's palette")
            if not colours:
                colours = bytes(board.getpalette() or ())
        text, names, look = step.banner
        strip = _banner(text, names, look, board.width, colours)
        image = Image.new("P", (board.width, board.height + BANNER))
        image.putpalette(colours)
        image.paste(board, (0, 0))
        image.paste(strip, (0, board.height))
        images.append(image)
    buffer = io.BytesIO()
    first, *rest = _only_changes(images)
    first.save(
        buffer,
        format="GIF",
        save_all=True,
        append_images=rest,
        duration=[step.ms for step in plan],
        loop=0,
        optimize=False,
        disposal=1,  # each frame stays under the next, which draws only what changed
        **({"transparency": first.info["transparency"]} if "transparency" in first.info else {}),
    )
    return Rendered(
        buffer.getvalue(),
        replay_alt_text(title, game_id, calls, wins, locale),
        safe_filename("replay", game_id, suffix=".gif"),
    )
