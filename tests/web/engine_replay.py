"""The engine's own game, replayed as the bot judges it: what the verification page's "earliest
possible win" must equal.

Every player claims every prize at every call, as soon as the engine's game lets them: Lotería
plays one prize at a time (``LoteriaGame.current_prize``, ``award``), so a prize nobody wins
holds back every prize after it; Housie plays its prizes at once, a second or third house only
after the one before (``HousieGame.claimable_prizes``). On top of the engine, the two rules the
bot adds when it judges a claim (``bot/calling.py``, ``cogs/housie.py``): a player wins a prize
once, with the first of their boards that completes it (``judge`` tries a player's boards in
order; a second claim on a prize they hold is "you already won"), and a ticket that won a full
house cannot win another (``eligible_boards``). Valid claims on the same call share the prize.

Bingo plays its patterns one at a time as Lotería does (``BingoGame.claimable_codes``,
``award_prize``), a player winning each once with the first of their cards that completes it.

Nothing here is a port of the page: the verdicts come from ``LoteriaGame.check``,
``HousieGame.check`` and ``BingoGame.judge``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.verify_link import CustomPrizes, LinkRules
from engine.bingo import MAX_CARDS, BingoGame, Card, cards_at
from engine.bingo import Pattern as BingoPattern
from engine.housie import HousieGame, Prize, Ticket, tickets_at
from engine.loteria import LoteriaGame, Pattern, Tabla, tablas_at


@dataclass(frozen=True)
class Win:
    """When a prize is first won (None: not within the calls made) and by which deal positions."""

    prize: str
    call: int | None
    deals: tuple[int, ...]

    def as_page(self) -> dict[str, object]:
        """The page's shape: ``{"prize", "call", "deals"}``."""
        return {"prize": self.prize, "call": self.call, "deals": list(self.deals)}


def deal_positions(holders: Sequence[int | None]) -> list[list[int]]:
    """Each player's deal positions, in joining order, from one entry per player: how many
    boards they hold, or ``-n`` for n positions that went to players who left (the ``boards``
    field, spelled out)."""
    players: list[list[int]] = []
    position = 0
    for count in holders:
        assert count is not None
        if count < 0:
            position -= count
            continue
        players.append(list(range(position, position + count)))
        position += count
    return players


def loteria_replay(
    seed: bytes, prizes: Sequence[str], players: Sequence[Sequence[int]], calls: int, deck: str
) -> list[Win]:
    """Lotería: each player's tabla claims the prize being played at every call."""
    last = max((deal for held in players for deal in held), default=-1)
    tablas: list[Tabla] = tablas_at(seed, 0, last + 1) if last >= 0 else []
    game = LoteriaGame.new(seed, [Pattern(prize) for prize in prizes], deck)
    won: dict[str, Win] = {}
    for call in range(1, calls + 1):
        if game.is_over:
            break
        game, _ = game.draw()
        while not game.is_over:
            prize = game.current_prize
            assert prize is not None
            winners = _first_valid_boards(
                players, lambda deal, now=game: now.check(tablas[deal]).valid
            )
            if not winners:
                break  # nobody holds it yet: the prizes after it wait
            won[prize.value] = Win(prize.value, call, winners)
            game = game.award()
    return [won.get(prize, Win(prize, None, ())) for prize in prizes]


def housie_replay(
    seed: bytes, prizes: Sequence[str], players: Sequence[Sequence[int]], calls: int
) -> list[Win]:
    """Housie: every player claims every prize the game lets them claim, at every call."""
    last = max((deal for held in players for deal in held), default=-1)
    tickets: list[Ticket] = tickets_at(seed, 0, last + 1) if last >= 0 else []
    game = HousieGame(seed, tuple(Prize(prize) for prize in prizes))
    won: dict[str, Win] = {}
    housed: set[int] = set()  # deal positions of tickets that won a house
    for call in range(1, calls + 1):
        if len(game.awarded) == len(game.prizes):
            break
        game, _ = game.draw()
        awarded_now = True
        while awarded_now:  # an award on this call can open the next house on the same call
            awarded_now = False
            for prize in game.claimable_prizes:

                def valid(deal: int, prize: Prize = prize, now: HousieGame = game) -> bool:
                    if prize.is_house and deal in housed:
                        return False
                    return now.check(tickets[deal], prize).valid

                winners = _first_valid_boards(players, valid)
                if winners:
                    game = game.award(prize)
                    won[prize.value] = Win(prize.value, call, winners)
                    if prize.is_house:
                        housed.update(winners)
                    awarded_now = True
                    break
    return [won.get(prize, Win(prize, None, ())) for prize in prizes]


def bingo_replay(
    seed: bytes, patterns: Sequence[BingoPattern], players: Sequence[Sequence[int]], calls: int
) -> list[Win]:
    """Bingo: each player's cards claim the pattern being played at every call."""
    last = max((deal for held in players for deal in held), default=-1)
    cards: list[Card] = cards_at(seed, 0, last + 1) if last >= 0 else []
    game = BingoGame.new(seed, patterns)
    won: dict[str, Win] = {}
    for call in range(1, calls + 1):
        if game.is_over:
            break
        game, _ = game.next_call()
        while not game.is_over:
            (prize,) = game.claimable_codes
            winners = _first_valid_boards(
                players,
                lambda deal, now=game, prize=prize: now.judge(cards[deal], prize, now.called).valid,
            )
            if not winners:
                break  # nobody holds it yet: the patterns after it wait
            won[prize] = Win(prize, call, winners)
            game = game.award_prize(prize)
    return [won.get(p.code, Win(p.code, None, ())) for p in patterns]


def _read_custom_pattern(text: str) -> str:
    if "=" not in text:
        raise ValueError(f"{text!r} is a built-in pattern's code, not a custom pattern")
    return BingoPattern.from_text(text).code


# What Bingo's link may carry, from its engine: its cog's ``link_rules`` (``CallingBase``'s, with
# its custom patterns under ``patterns``) until that cog is merged. A player holds one card.
BINGO_RULES = LinkRules(
    kind="bingo",
    prize_codes=frozenset(BingoGame.every_prize_code),
    most_boards=1,
    total_calls=BingoGame.total_calls,
    deal_limit=MAX_CARDS,
    custom_prizes=CustomPrizes("patterns", _read_custom_pattern),
)


def bingo_patterns_field(patterns: Sequence[BingoPattern]) -> str:
    """The link's ``patterns`` value: each custom pattern's text form, comma-separated."""
    return ",".join(p.to_text() for p in patterns if not p.is_builtin)


def _first_valid_boards(
    players: Sequence[Sequence[int]], valid: Callable[[int], bool]
) -> tuple[int, ...]:
    """For each player, the first of their boards that wins (a player wins a prize once)."""
    winners = []
    for held in players:
        for deal in held:
            if valid(deal):
                winners.append(deal)
                break
    return tuple(winners)
