"""A calling game's options, typed (``bot.calling.options``): stored rows, old and new, read back
and are written back exactly as they were; a misspelt option is refused."""

from __future__ import annotations

import dataclasses

import pytest

from bot.calling import CallingOptions
from cogs.housie import HousieOptions
from cogs.loteria import LoteriaOptions

# As rows stored them before the options were typed: a Lotería game from before the cantor's
# verses, a Housie game paused by a refused post, a planned night's game.
OLD_LOTERIA = {"interval": 10, "max_players": 100, "require_last": False, "guild_locale": "en-US"}
STALLED_HOUSIE = {
    "interval": 5,
    "max_players": 20,
    "max_tickets": 3,
    "require_last": True,
    "calls": "plain",
    "guild_locale": "es-ES",
    "stalled": "permissions",
}
NIGHT = {**OLD_LOTERIA, "verses": "on", "night": 7, "event_id": 1234, "nobody_came": True}


@pytest.mark.parametrize(
    ("kind", "stored"),
    [(LoteriaOptions, OLD_LOTERIA), (HousieOptions, STALLED_HOUSIE), (LoteriaOptions, NIGHT)],
)
def test_stored_rows_read_back_and_are_written_back_unchanged(kind, stored):
    options = kind.from_stored(stored)
    assert options.to_stored() == stored
    assert kind.from_stored(options.to_stored()) == options


def test_what_an_old_row_lacks_reads_as_none():
    old = LoteriaOptions.from_stored(OLD_LOTERIA)
    assert old.verses is None  # (called plainly: verses_mode)
    assert (old.interval, old.max_players, old.require_last) == (10, 100, False)
    assert old.night is None
    housie = HousieOptions.from_stored(STALLED_HOUSIE)
    assert (housie.max_tickets, housie.calls, housie.stalled) == (3, "plain", "permissions")


def test_a_change_is_the_only_change_and_none_is_not_stored():
    housie = HousieOptions.from_stored(STALLED_HOUSIE)
    resumed = dataclasses.replace(housie, stalled=None).to_stored()
    assert resumed == {k: v for k, v in STALLED_HOUSIE.items() if k != "stalled"}
    faster = dataclasses.replace(LoteriaOptions.from_stored(NIGHT), interval=30).to_stored()
    assert faster == {**NIGHT, "interval": 30}


def test_keys_it_does_not_know_are_kept():
    stored = {**OLD_LOTERIA, "something_later": [1, 2]}
    assert CallingOptions.from_stored(stored).to_stored() == stored
    assert LoteriaOptions.from_stored({**OLD_LOTERIA, "verses": "riddle"}).verses == "riddle"
    # Read by the shared base, a game's own options are kept as they were.
    assert CallingOptions.from_stored(STALLED_HOUSIE).to_stored() == STALLED_HOUSIE


def test_a_misspelt_option_is_refused():
    with pytest.raises(TypeError):
        LoteriaOptions(vreses="on")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        dataclasses.replace(HousieOptions(), max_ticket=2)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        CallingOptions(10)  # type: ignore[misc]  # (keyword only: no option by position)
