"""Lotería's end picture: each winner's tabla as it stood at the winning call, winning cells
ringed, in the grid every calling game's end picture shares (``bot.render.results``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from bot.i18n import LocaleLike, message
from bot.render import loteria as render
from bot.render import results
from bot.render.common import Palette, Rendered, tint
from engine.loteria import TABLA_CELLS, Deck, Pattern, Tabla


@dataclass(frozen=True, slots=True)
class LoteriaWin:
    """A Lotería prize won: ``cells`` (a winning cell mask, as ``ClaimResult.cells``) of the
    winner's ``tabla`` completed ``pattern`` by call ``seq``. ``prize`` is the prize as the
    players read it (in the server's language); ``shared`` when others won it on the same call."""

    name: str
    prize: str
    pattern: Pattern
    seq: int
    tabla: Tabla
    cells: int
    shared: bool = False


# -- Lotería -------------------------------------------------------------------------------------

# The tabla keeps its frame: the rows above the title band's floor, then the grid.
_TABLA_FRAME = 18  # the tabla's top edge with its two border lines
_TABLA_GRID_TOP = render.HEADER - 14  # just above the gold rings of the top row

LOTERIA_LOOK = results.Look(
    title="¡LOTERÍA!",
    background=Palette.BOARD,
    band=Palette.BOARD_DARK,
    band_text=Palette.GOLD,
    band_detail=Palette.CREAM,
    backdrop=Palette.BOARD_DARK,
    backdrop_edge=tint(Palette.BOARD, 0.25, Palette.GOLD),
    name=Palette.CREAM,
    prize=Palette.GOLD,
    detail=Palette.GOLD_LIGHT,
    shared_fill=Palette.GOLD,
    shared_text=Palette.INK,
    board_widths=(420, 360, 320, 280),
)


def loteria_board(win: LoteriaWin, deck: Deck, called: Sequence[int]) -> Image.Image:
    """The winner's tabla as it stood at the winning call, winning cells ringed, no title."""
    tabla = render.tabla_image(
        win.tabla,
        deck,
        game_id="",
        tabla_number=0,
        called=called[: win.seq],
        winning_cells=win.cells,
        pattern=win.pattern,
        mapped=True,
    )
    top = tabla.crop((0, 0, tabla.width, _TABLA_FRAME))
    grid = tabla.crop((0, _TABLA_GRID_TOP, tabla.width, tabla.height))
    board = Image.new("RGB", (tabla.width, top.height + grid.height))
    board.paste(top, (0, 0))
    board.paste(grid, (0, top.height))
    return board


def render_loteria_result(
    wins: Sequence[LoteriaWin],
    deck: Deck,
    *,
    game_id: str,
    called: Sequence[int],
    locale: LocaleLike = None,
) -> list[Rendered]:
    """The winners of a Lotería game (``called``: its calls in order), in the order given (the
    order prizes were won), one picture per ``results.PER_PAGE``; no winners, no picture."""
    panels = []
    alt_entries = []
    for win in wins:
        results.check_seq(win.seq, called)
        if not 0 < win.cells < 1 << TABLA_CELLS:
            raise ValueError(f"winning cells {win.cells:#x} is not a nonempty 16-bit cell mask")
        card = deck.card(called[win.seq - 1]).spanish
        detail = message("result_call_card", locale, seq=win.seq, card=card)
        panels.append(
            results.Panel(loteria_board(win, deck, called), win.name, win.prize, win.shared, detail)
        )
        cards = ", ".join(
            deck.card(number).spanish
            for cell, number in enumerate(win.tabla.numbers)
            if win.cells >> cell & 1
        )
        values = {
            "prize": win.prize,
            "shared": message("result_alt_shared", locale) if win.shared else "",
            "name": win.name,
            "seq": win.seq,
            "card": card,
        }
        alt_entries.append(
            (
                message("result_alt_loteria", locale, cards=cards, **values),
                message("result_alt_loteria_short", locale, **values),
            )
        )
    return results.pages(
        panels,
        alt_entries,
        LOTERIA_LOOK,
        game_id=game_id,
        alt_head=lambda page: message("result_alt_loteria_head", locale, game=game_id, page=page),
        locale=locale,
    )


# -- a sample (python -m bot.render --sample) ---------------------------------------------------


def sample() -> tuple[str, Rendered]:
    """A Lotería night (line, corners, full) in Spanish, played from a fixed seed as the bot
    would judge it."""
    from engine.fairness import draw_order
    from engine.loteria import CLASSIC_DECK, DECK_SIZE, check_claim, tablas_at

    seed = bytes(range(32))
    order = draw_order(seed, DECK_SIZE)
    tablas = tablas_at(seed, 0, len(results.SAMPLE_NAMES))
    loteria_wins = []
    at = 1
    for pattern in (Pattern.LINE, Pattern.CORNERS, Pattern.FULL):
        # The prize goes on the first call from ``at`` on that completes it for someone.
        while not any(check_claim(t, order[:at], pattern).valid for t in tablas):
            at += 1
        won = [(i, check_claim(t, order[:at], pattern)) for i, t in enumerate(tablas)]
        won = [(i, claim) for i, claim in won if claim.valid]
        for i, claim in won:
            loteria_wins.append(
                LoteriaWin(
                    results.SAMPLE_NAMES[i],
                    pattern.spanish,
                    pattern,
                    at,
                    tablas[i],
                    claim.cells,
                    shared=len(won) > 1,
                )
            )
    return (
        "results-loteria.png",
        render_loteria_result(
            loteria_wins, CLASSIC_DECK, game_id="L7Q2", called=order, locale="es-ES"
        )[0],
    )
