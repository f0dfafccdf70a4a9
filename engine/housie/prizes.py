"""Housie prizes: what each one is, and how a claim on a ticket is judged.

Early Five (any 5 numbers), Top/Middle/Bottom Line, Four Corners (the first and last NUMBER of
the top and bottom rows, not the corner cells), Full House, and optional second and third full
houses (``SECOND_HOUSE``, ``THIRD_HOUSE``: they check exactly like ``FULL_HOUSE`` and can only be
won in that order; a ticket that won a house should not win another, which the cog that knows
the players enforces). ``check_prize`` works on bit masks: bit ``n`` stands for number ``n``;
pass a ``Calls`` (the game's ``called``) to skip rebuilding the called mask.
"""

from __future__ import annotations

import enum
import functools
import itertools
import weakref
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from engine.errors import NO_VALUES, GameError, Reason, quoted
from engine.housie.tickets import (
    HIGHEST_NUMBER,
    NUMBERS_PER_ROW,
    NUMBERS_PER_TICKET,
    Ticket,
    _numbers_in,
)

_NUMBER_BIT: dict[int, int] = {n: 1 << n for n in range(1, HIGHEST_NUMBER + 1)}


class Prize(enum.Enum):
    """A prize; the value is its code in game state text."""

    EARLY_FIVE = "E5"
    TOP_LINE = "TL"
    MIDDLE_LINE = "ML"
    BOTTOM_LINE = "BL"
    FOUR_CORNERS = "FC"
    FULL_HOUSE = "FH"
    SECOND_HOUSE = "H2"  # the second ticket to fill: checks as a full house
    THIRD_HOUSE = "H3"  # the third ticket to fill: checks as a full house

    @property
    def display_name(self) -> str:
        """The prize's English name (``Early Five``, ``Full House``...)."""
        return _PRIZE_NAMES[self]

    @property
    def is_house(self) -> bool:
        """Full House or a later full house."""
        return self in _HOUSES

    @property
    def needs(self) -> Prize | None:
        """The prize that must be won first (only for the second and third full houses)."""
        return _PREREQUISITE.get(self)

    @property
    def minimum_calls(self) -> int:
        """The fewest calls with which a ticket can complete it."""
        return _MINIMUM_CALLS[self]

    @classmethod
    def parse(cls, text: str) -> Prize:
        """The prize named by its code ("TL"), member name ("top_line") or display name."""
        wanted = text.strip().casefold().replace(" ", "_").replace("-", "_")
        for prize in cls:
            if wanted in (prize.value.casefold(), prize.name.casefold(), _key(prize.display_name)):
                return prize
        choices = ", ".join(f"{p.value} ({p.display_name})" for p in cls)
        raise GameError(f"unknown prize {quoted(text)}; choose one of {choices}")


def _key(name: str) -> str:
    return name.casefold().replace(" ", "_")


_PRIZE_NAMES: dict[Prize, str] = {
    Prize.EARLY_FIVE: "Early Five",
    Prize.TOP_LINE: "Top Line",
    Prize.MIDDLE_LINE: "Middle Line",
    Prize.BOTTOM_LINE: "Bottom Line",
    Prize.FOUR_CORNERS: "Four Corners",
    Prize.FULL_HOUSE: "Full House",
    Prize.SECOND_HOUSE: "Second Full House",
    Prize.THIRD_HOUSE: "Third Full House",
}
_HOUSES = frozenset({Prize.FULL_HOUSE, Prize.SECOND_HOUSE, Prize.THIRD_HOUSE})
_PREREQUISITE: dict[Prize, Prize] = {
    Prize.SECOND_HOUSE: Prize.FULL_HOUSE,
    Prize.THIRD_HOUSE: Prize.SECOND_HOUSE,
}
_MINIMUM_CALLS: dict[Prize, int] = {
    Prize.EARLY_FIVE: 5,
    Prize.TOP_LINE: NUMBERS_PER_ROW,
    Prize.MIDDLE_LINE: NUMBERS_PER_ROW,
    Prize.BOTTOM_LINE: NUMBERS_PER_ROW,
    Prize.FOUR_CORNERS: 4,
    Prize.FULL_HOUSE: NUMBERS_PER_TICKET,
    Prize.SECOND_HOUSE: NUMBERS_PER_TICKET,
    Prize.THIRD_HOUSE: NUMBERS_PER_TICKET,
}
DEFAULT_PRIZES: tuple[Prize, ...] = (
    Prize.EARLY_FIVE,
    Prize.TOP_LINE,
    Prize.MIDDLE_LINE,
    Prize.BOTTOM_LINE,
    Prize.FOUR_CORNERS,
    Prize.FULL_HOUSE,
)


class PrizeReason(Reason):
    """Why a claim wins or not: the ``code`` of a :class:`PrizeCheck`; the comments name its
    ``values`` (``prize`` is a :class:`Prize`, ``missing`` the numbers still to call, increasing)."""

    NOTHING_CALLED = "housie_nothing_called"
    EARLY_FIVE_SHORT = "housie_early_five_short"  # count: the ticket's numbers called (0..4)
    INCOMPLETE = "housie_incomplete"  # prize, missing, count: len(missing)
    SLEPT_OFF_TICKET = "housie_slept_off_ticket"  # last: the last number called
    SLEPT = "housie_slept"  # prize, last
    COMPLETE = "housie_complete"  # prize
    COMPLETED_LAST = "housie_completed_last"  # prize, last


@dataclass(frozen=True, slots=True)
class PrizeCheck:
    """The verdict on a claim: ``numbers`` make the prize (empty when invalid).

    ``reason`` says why in English; ``code`` (a :class:`PrizeReason`) and ``values`` say it for
    the bot to word in the player's language.
    """

    valid: bool
    numbers: frozenset[int]
    reason: str
    code: str = ""
    values: Mapping[str, object] = field(default_factory=lambda: NO_VALUES, hash=False)


def _mask_of(numbers: Iterable[int]) -> int:
    bits = 0
    for number in numbers:
        bits |= 1 << number
    return bits


# Claim checks read two caches per ticket, held here (not on the ticket: the ticket's module
# knows nothing of prizes) for as long as the ticket lives.
_MASKS: weakref.WeakKeyDictionary[Ticket, dict[Prize, int]] = weakref.WeakKeyDictionary()
_WINS: weakref.WeakKeyDictionary[Ticket, dict[Prize, PrizeCheck]] = weakref.WeakKeyDictionary()


def _masks_of(ticket: Ticket) -> dict[Prize, int]:
    masks = _MASKS.get(ticket)
    if masks is None:
        masks = _MASKS[ticket] = _masks_on(ticket)
    return masks


def _wins_of(ticket: Ticket) -> dict[Prize, PrizeCheck]:
    wins = _WINS.get(ticket)
    if wins is None:
        wins = _WINS[ticket] = _wins_on(ticket)
    return wins


def prize_numbers(ticket: Ticket, prize: Prize) -> frozenset[int]:
    """The numbers that make ``prize`` on ``ticket`` (all 15 for Early Five)."""
    return _numbers_in(_masks_of(ticket)[prize])


def _masks_on(ticket: Ticket) -> dict[Prize, int]:
    """Per prize, the mask of the numbers that make it on ``ticket``."""
    top, middle, bottom = ([n for n in row if n] for row in ticket.rows)
    full = ticket.mask
    return {
        Prize.EARLY_FIVE: full,
        Prize.TOP_LINE: _mask_of(top),
        Prize.MIDDLE_LINE: _mask_of(middle),
        Prize.BOTTOM_LINE: _mask_of(bottom),
        Prize.FOUR_CORNERS: _mask_of((top[0], top[-1], bottom[0], bottom[-1])),
        Prize.FULL_HOUSE: full,
        Prize.SECOND_HOUSE: full,
        Prize.THIRD_HOUSE: full,
    }


def _wins_on(ticket: Ticket) -> dict[Prize, PrizeCheck]:
    """The valid result for each fixed-set prize on ``ticket``."""
    return {
        prize: _check(
            True,
            _numbers_in(mask),
            f"{prize.display_name} complete",
            PrizeReason.COMPLETE,
            prize=prize,
        )
        for prize, mask in _masks_of(ticket).items()
        if prize is not Prize.EARLY_FIVE
    }


def _mask_of_calls(called: Sequence[int]) -> int:
    """The 91-bit mask of ``called``; rejects numbers outside 1..90 and repeats."""
    try:
        # Summing distinct powers of two is an OR; a repeat carries and loses a bit (checked).
        mask = sum(map(_NUMBER_BIT.__getitem__, called))
    except (KeyError, TypeError):
        bad = [n for n in called if type(n) is not int or n not in _NUMBER_BIT]
        raise GameError(
            f"called numbers {bad!r} are not Housie numbers 1..{HIGHEST_NUMBER}"
        ) from None
    if not all(type(n) is int for n in called):  # 1.0 and True would pass the lookup
        bad = [n for n in called if type(n) is not int]
        raise GameError(f"called numbers {bad!r} are not Housie numbers 1..{HIGHEST_NUMBER}")
    if mask.bit_count() != len(called):
        seen: set[int] = set()
        for number in called:
            if number in seen:
                raise GameError(f"number {number} is called twice")
            seen.add(number)
    return mask


class Calls(tuple[int, ...]):
    """Numbers called so far, in call order, with ``mask`` (bit ``n`` for number ``n``).

    Validated once (1..90, no repeats), so ``check_prize`` can skip rebuilding the mask.
    """

    mask: int

    def __new__(cls, numbers: Iterable[int] = ()) -> Calls:
        """The calls ``numbers``; a number outside 1..90 or a repeat is a :class:`GameError`."""
        calls = super().__new__(cls, numbers)
        calls.mask = _mask_of_calls(calls)
        return calls

    @property
    def last(self) -> int | None:
        """The number called last, or None before the first call."""
        return self[-1] if self else None

    @functools.cached_property
    def prefix_masks(self) -> tuple[int, ...]:
        """``prefix_masks[i]`` is the mask of the first ``i`` calls."""
        return (0, *itertools.accumulate(_NUMBER_BIT[n] for n in self))


def _check(
    valid: bool, numbers: frozenset[int], reason: str, code: PrizeReason, /, **values: object
) -> PrizeCheck:
    return PrizeCheck(valid, numbers, reason, code, MappingProxyType(values))


_NO_NUMBERS: frozenset[int] = frozenset()
_NOTHING_CALLED = _check(
    False, _NO_NUMBERS, "no numbers have been called yet", PrizeReason.NOTHING_CALLED
)
_EARLY_FIVE_SHORT = tuple(
    _check(
        False,
        _NO_NUMBERS,
        f"Early Five needs 5 of the ticket's numbers called; {n} {'is' if n == 1 else 'are'}",
        PrizeReason.EARLY_FIVE_SHORT,
        count=n,
    )
    for n in range(5)
)
_LISTED_MISSING = 5  # a bogey reason names at most this many missing numbers


def check_prize(
    ticket: Ticket,
    called: Sequence[int],
    prize: Prize,
    *,
    require_last: bool = False,
) -> PrizeCheck:
    """Whether ``ticket`` wins ``prize`` with the numbers ``called`` so far (in call order).

    ``require_last`` is the "you slept on it" rule: the prize must include the last number
    called, i.e. it was completed by the last call. For Early Five the prize numbers are the
    first five of the ticket's numbers to be called; under the rule the last call must be the
    fifth.
    """
    called_mask = called.mask if type(called) is Calls else _mask_of_calls(called)
    if not called_mask:
        return _NOTHING_CALLED
    needed = _masks_of(ticket)[prize]
    last = called[-1]
    if prize is Prize.EARLY_FIVE:
        hits = called_mask & needed
        count = hits.bit_count()
        if count < 5:
            return _EARLY_FIVE_SHORT[count]
        if count > 5:  # keep the first five in call order
            hits = _first_five(called, needed)
        if require_last and not hits >> last & 1:
            return _slept(prize, last, needed)
        if require_last:
            return _completed_last(prize, _numbers_in(hits), last)
        return _check(
            True,
            _numbers_in(hits),
            f"{prize.display_name} complete",
            PrizeReason.COMPLETE,
            prize=prize,
        )
    missing = needed & ~called_mask
    if missing:
        numbers = sorted(_numbers_in(missing))
        return _check(
            False,
            _NO_NUMBERS,
            f"{prize.display_name} is not complete: {_listed(numbers)} not called yet",
            PrizeReason.INCOMPLETE,
            prize=prize,
            missing=tuple(numbers),
            count=len(numbers),
        )
    if not require_last:
        return _wins_of(ticket)[prize]
    if not needed >> last & 1:
        return _slept(prize, last, needed)
    return _completed_last(prize, _wins_of(ticket)[prize].numbers, last)


def _first_five(called: Sequence[int], needed: int) -> int:
    """The mask of the first five numbers of ``needed`` in call order (at least five called)."""
    if type(called) is Calls:
        # Binary search for the shortest prefix of the calls holding five of them.
        prefixes = called.prefix_masks
        low, high = 5, len(called)
        while low < high:
            middle = (low + high) // 2
            if (prefixes[middle] & needed).bit_count() >= 5:
                high = middle
            else:
                low = middle + 1
        return prefixes[low] & needed
    hits = found = 0
    for number in called:
        if needed >> number & 1:
            hits |= 1 << number
            found += 1
            if found == 5:
                break
    return hits


def _listed(numbers: Sequence[int]) -> str:
    """``numbers``, at most ``_LISTED_MISSING`` of them by name (the bot lists its own way)."""
    names = ", ".join(map(str, numbers[:_LISTED_MISSING]))
    more = len(numbers) - _LISTED_MISSING
    return f"{names} and {more} more" if more > 0 else names


def _completed_last(prize: Prize, numbers: frozenset[int], last: int) -> PrizeCheck:
    return _check(
        True,
        numbers,
        f"{prize.display_name} completed by the last number called, {last}",
        PrizeReason.COMPLETED_LAST,
        prize=prize,
        last=last,
    )


def _slept(prize: Prize, last: int, needed: int) -> PrizeCheck:
    if prize is Prize.EARLY_FIVE and not needed >> last & 1:
        return _check(
            False,
            _NO_NUMBERS,
            f"the last number called ({last}) is not on this ticket",
            PrizeReason.SLEPT_OFF_TICKET,
            last=last,
        )
    return _check(
        False,
        _NO_NUMBERS,
        f"{prize.display_name} was complete before the last number called ({last}); "
        "it had to be claimed then",
        PrizeReason.SLEPT,
        prize=prize,
        last=last,
    )
