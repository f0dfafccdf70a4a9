"""Housie's end picture: each winner's ticket grid as it stood at the winning call, the prize's
numbers on gold, in the grid every calling game's end picture shares (``bot.render.results``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from bot.i18n import LocaleLike, message
from bot.render import housie as render
from bot.render import results
from bot.render.common import Palette, Rendered, tint
from engine.housie import COLUMNS, ROWS, Ticket


@dataclass(frozen=True, slots=True)
class HousieWin:
    """A Housie prize won: ``numbers`` (``PrizeCheck.numbers``) of the winner's ticket numbered
    ``ticket_number`` among theirs, by call ``seq``. ``prize`` as the players read it."""

    name: str
    prize: str
    seq: int
    ticket: Ticket
    numbers: frozenset[int]
    ticket_number: int
    shared: bool = False


def housie_look(locale: LocaleLike) -> results.Look:
    """How Housie's end picture looks, its title in ``locale``."""
    return results.Look(
        title=message("result_housie_title", locale),
        background=Palette.PAPER,
        band=Palette.TEAL,
        band_text=Palette.PAPER,
        band_detail=Palette.GOLD_LIGHT,
        backdrop=Palette.CREAM,
        backdrop_edge=tint(Palette.TEAL, 0.55),
        name=Palette.INK,
        prize=Palette.BOARD,
        detail=Palette.MUTED,
        shared_fill=Palette.GOLD,
        shared_text=Palette.INK,
        board_widths=(560, 460, 380),
    )


def housie_board(win: HousieWin, called: Sequence[int]) -> Image.Image:
    """The winner's ticket grid as it stood at the winning call, the prize's numbers on gold."""
    ticket = render.ticket_image(
        win.ticket,
        game_id="",
        code="",
        called=called[: win.seq],
        winning=win.numbers,
        mapped=True,
    )
    # The grid and its outline (three pixels wide, one of them outside the cells above).
    left = render.MARGIN - 2
    top = render.BAND - 1
    right = render.MARGIN + COLUMNS * render.CELL + 2
    bottom = render.BAND + ROWS * render.CELL + 2
    return ticket.crop((left, top, right, bottom))


def render_housie_result(
    wins: Sequence[HousieWin],
    *,
    game_id: str,
    called: Sequence[int],
    locale: LocaleLike = None,
) -> list[Rendered]:
    """The winners of a Housie game (``called``: its calls in order), in the order given (the
    order prizes were won), one picture per ``results.PER_PAGE``; no winners, no picture."""
    panels = []
    alt_entries = []
    for win in wins:
        results.check_seq(win.seq, called)
        ticket_numbers = {number for row in win.ticket.rows for number in row if number}
        if not win.numbers or not win.numbers <= ticket_numbers:
            raise ValueError(f"winning numbers {sorted(win.numbers)} are not on the ticket")
        number = called[win.seq - 1]
        detail = message(
            "result_call_number", locale, ticket=win.ticket_number, seq=win.seq, number=number
        )
        panels.append(
            results.Panel(housie_board(win, called), win.name, win.prize, win.shared, detail)
        )
        values = {
            "prize": win.prize,
            "shared": message("result_alt_shared", locale) if win.shared else "",
            "name": win.name,
            "ticket": win.ticket_number,
            "seq": win.seq,
            "number": number,
        }
        alt_entries.append(
            (
                message(
                    "result_alt_housie",
                    locale,
                    numbers=", ".join(map(str, sorted(win.numbers))),
                    **values,
                ),
                message("result_alt_housie_short", locale, **values),
            )
        )
    return results.pages(
        panels,
        alt_entries,
        housie_look(locale),
        game_id=game_id,
        alt_head=lambda page: message("result_alt_housie_head", locale, game=game_id, page=page),
        locale=locale,
    )


# -- a sample (python -m bot.render --sample) ---------------------------------------------------


def sample() -> tuple[str, Rendered]:
    """A Housie night of eight prizes in English, played from a fixed seed as the bot would judge
    it."""
    from engine.fairness import draw_order
    from engine.housie import Prize, check_prize, tickets_at

    seed = bytes(range(32))
    calls = draw_order(seed, 90)
    tickets = tickets_at(seed, 0, 2 * len(results.SAMPLE_NAMES))  # two to a player
    housie_wins = []
    houses: set[int] = set()
    house_at = 1
    for prize in Prize:
        # Each prize on its own first completion; the houses one after another, on new tickets.
        check = Prize.FULL_HOUSE if prize.is_house else prize
        at = house_at if prize.is_house else 1
        eligible = [i for i in range(len(tickets)) if i not in houses or not prize.is_house]
        while not any(check_prize(tickets[i], calls[:at], check).valid for i in eligible):
            at += 1
        found = {}
        for i in eligible:  # a player wins a prize once, with their first ticket that has it
            result = check_prize(tickets[i], calls[:at], check)
            if result.valid and i // 2 not in found:
                found[i // 2] = (i, result.numbers)
        if prize.is_house:
            found = dict(list(found.items())[:1])
            houses.update(i for i, _ in found.values())
            house_at = at
        for player, (i, numbers) in found.items():
            housie_wins.append(
                HousieWin(
                    results.SAMPLE_NAMES[player],
                    prize.display_name,
                    at,
                    tickets[i],
                    numbers,
                    i % 2 + 1,
                    shared=len(found) > 1,
                )
            )
    return ("results-housie.png", render_housie_result(housie_wins, game_id="H42", called=calls)[0])
