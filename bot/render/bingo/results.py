"""Bingo's end picture: each winner's card as it stood at the winning call, the winning pattern's
cells on gold, in the grid every calling game's end picture shares (``bot.render.results``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from bot.i18n import LocaleLike, message
from bot.render import bingo as render
from bot.render import results
from bot.render.common import Palette, Rendered, tint
from engine.bingo import ALL_CELLS, CELLS, FREE_CELL, SIDE, Card, Pattern, call_name


@dataclass(frozen=True, slots=True)
class BingoWin:
    """A Bingo pattern won: ``cells`` (a winning cell mask, as ``ClaimResult.cells``) of the
    winner's ``card`` (numbered ``card_number``) completed ``pattern`` by call ``seq``.
    ``prize`` is the pattern as the players read it (in the server's language); ``shared`` when
    others won it on the same call."""

    name: str
    prize: str
    pattern: Pattern
    seq: int
    card: Card
    card_number: int
    cells: int
    shared: bool = False


def bingo_look(locale: LocaleLike) -> results.Look:
    """How Bingo's end picture looks, its title in ``locale``."""
    return results.Look(
        title=message("result_bingo_title", locale),
        background=Palette.PAPER,
        band=Palette.BOARD,
        band_text=Palette.PAPER,
        band_detail=Palette.GOLD_LIGHT,
        backdrop=Palette.CREAM,
        backdrop_edge=tint(Palette.BOARD, 0.55),
        name=Palette.INK,
        prize=Palette.BOARD,
        detail=Palette.MUTED,
        shared_fill=Palette.GOLD,
        shared_text=Palette.INK,
        board_widths=(400, 340, 300, 260),
    )


def bingo_board(win: BingoWin, called: Sequence[int], locale: LocaleLike = None) -> Image.Image:
    """The winner's card as it stood at the winning call, the winning cells on gold: its
    B-I-N-G-O header and grid (the free centre worded in ``locale``), without the title band
    and the footer."""
    card = render.card_image(
        win.card,
        game_id="",
        card_number=win.card_number,
        called=called[: win.seq],
        winning=win.cells,
        pattern=win.pattern,
        mapped=True,
        locale=locale,
    )
    # The header and the grid with their outline (three pixels wide, two of them outside).
    left = render.MARGIN - 3
    top = render.HEADER_TOP - 2
    right = render.MARGIN + SIDE * render.CELL + 3
    bottom = render.GRID_TOP + SIDE * render.CELL + 3
    return card.crop((left, top, right, bottom))


def render_bingo_result(
    wins: Sequence[BingoWin],
    *,
    game_id: str,
    called: Sequence[int],
    locale: LocaleLike = None,
) -> list[Rendered]:
    """The winners of a Bingo game (``called``: its calls in order), in the order given (the
    order patterns were won), one picture per ``results.PER_PAGE``; no winners, no picture."""
    panels = []
    alt_entries = []
    for win in wins:
        results.check_seq(win.seq, called)
        if not 0 < win.cells <= ALL_CELLS:
            raise ValueError(f"winning cells {win.cells:#x} is not a nonempty 25-bit cell mask")
        call = call_name(called[win.seq - 1])
        detail = message("result_bingo_call", locale, card=win.card_number, seq=win.seq, call=call)
        panels.append(
            results.Panel(bingo_board(win, called, locale), win.name, win.prize, win.shared, detail)
        )
        # The winning cells by column, as the card's alt text reads its numbers.
        by_column = [cell for column in range(SIDE) for cell in range(column, CELLS, SIDE)]
        numbers = ", ".join(
            message("alt_bingo_free", locale) if cell == FREE_CELL else str(win.card.numbers[cell])
            for cell in by_column
            if win.cells >> cell & 1
        )
        values = {
            "prize": win.prize,
            "shared": message("result_alt_shared", locale) if win.shared else "",
            "name": win.name,
            "card": win.card_number,
            "seq": win.seq,
            "call": call,
        }
        alt_entries.append(
            (
                message("result_alt_bingo", locale, numbers=numbers, **values),
                message("result_alt_bingo_short", locale, **values),
            )
        )
    return results.pages(
        panels,
        alt_entries,
        bingo_look(locale),
        game_id=game_id,
        alt_head=lambda page: message("result_alt_bingo_head", locale, game=game_id, page=page),
        locale=locale,
    )


# -- a sample (python -m bot.render --sample) ---------------------------------------------------


def sample() -> tuple[str, Rendered]:
    """A Bingo night (any line, X, blackout) in English, played from a fixed seed as the bot would
    judge it."""
    from engine.bingo import HIGHEST_NUMBER, cards_at, check_claim, pattern_named
    from engine.fairness import draw_order

    seed = bytes(range(32))
    order = draw_order(seed, HIGHEST_NUMBER)
    cards = cards_at(seed, 0, len(results.SAMPLE_NAMES))
    bingo_wins = []
    at = 1
    for code in ("line", "x", "blackout"):
        pattern = pattern_named(code)
        # The pattern goes on the first call from ``at`` on that completes it for someone.
        while not any(check_claim(card, order[:at], pattern).valid for card in cards):
            at += 1
        won = [(i, check_claim(card, order[:at], pattern)) for i, card in enumerate(cards)]
        won = [(i, claim) for i, claim in won if claim.valid]
        for i, claim in won:
            bingo_wins.append(
                BingoWin(
                    results.SAMPLE_NAMES[i],
                    render.pattern_name(pattern),
                    pattern,
                    at,
                    cards[i],
                    i + 1,
                    claim.cells,
                    shared=len(won) > 1,
                )
            )
    return (
        "results-bingo.png",
        render_bingo_result(bingo_wins, game_id="B7Q2", called=order)[0],
    )
