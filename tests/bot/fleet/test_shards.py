"""GAMENIGHT_SHARDS, the shard of a server, and the lease policy (a pure function)."""

from __future__ import annotations

import pytest

from bot.config import ConfigError, Settings
from bot.fleet.shards import (
    AUTO,
    ShardPlan,
    ShardSettingError,
    format_shards,
    parse_shards,
    shard_of,
)
from bot.storage import HeartbeatRequest, LeaseRow, LeaseTerms, plan_heartbeat
from emulator.model import shard_of as emulator_shard_of

BASE = {"DISCORD_TOKEN": "x.y.z", "GAMENIGHT_SIGNING_KEY": "00" * 32}
URL = "postgresql://gamenight@db.example/gamenight"


@pytest.mark.parametrize(
    ("text", "plan"),
    [
        ("", AUTO),
        ("auto", AUTO),
        (" AUTO ", AUTO),
        ("0-7/32", ShardPlan(32, tuple(range(8)))),
        ("3,5/8", ShardPlan(8, (3, 5))),
        ("0-3, 8-11/32", ShardPlan(32, (0, 1, 2, 3, 8, 9, 10, 11))),
        ("5/8", ShardPlan(8, (5,))),
        ("0/1", ShardPlan(1, (0,))),
        ("standby/32", ShardPlan(32, ())),
    ],
)
def test_the_forms_of_the_setting(text: str, plan: ShardPlan):
    assert parse_shards(text) == plan


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("0-7", "is not auto, a list of shards out of a count"),
        ("8/8", "shard 8 is not one of 8 shards (they are numbered 0 to 7)"),
        ("0-40/32", "shard 40 is not one of 32 shards"),
        ("5-3/8", "the range 5-3 runs backwards"),
        ("0-3,2/8", "shard 2 is named twice"),
        ("0/0", "the shard count must be 1 to 4096, got 0"),
        ("a-b/8", "'a-b' in 'a-b/8' is not auto"),
        ("all/8", "'all' in 'all/8' is not auto"),
        ("1,,2/8", "'' in '1,,2/8' is not auto"),
        ("0-3/x", "'0-3/x' is not auto"),
    ],
)
def test_a_bad_setting_says_why(text: str, says: str):
    with pytest.raises(ShardSettingError) as refused:
        parse_shards(text)
    assert says in str(refused.value)


def test_the_plan_describes_itself():
    assert parse_shards("0-7,9/32").describe() == "shards 0-7,9 of 32"
    assert parse_shards("standby/4").describe() == "standby for 4 shards"
    assert parse_shards("standby/4").standby
    assert not parse_shards("0/4").standby
    assert AUTO.describe() == "every shard Discord recommends, in this process"
    assert not AUTO.fleet
    assert parse_shards("0/4").fleet
    assert format_shards([]) == "-"
    assert format_shards({6, 0, 1, 2, 3}) == "0-3,6"


def test_settings_read_it_and_a_fleet_needs_postgresql():
    assert Settings.load({**BASE}, env_file=None).shards == AUTO
    fleet = Settings.load(
        {**BASE, "GAMENIGHT_SHARDS": "0-1/4", "GAMENIGHT_DATABASE": URL}, env_file=None
    )
    assert fleet.shards == ShardPlan(4, (0, 1))
    with pytest.raises(ConfigError) as on_sqlite:
        Settings.load({**BASE, "GAMENIGHT_SHARDS": "0-1/4"}, env_file=None)
    message = str(on_sqlite.value)
    assert "\n" not in message
    assert "GAMENIGHT_SHARDS=0-1/4 splits the shards between processes, which needs PostgreSQL" in (
        message
    )
    with pytest.raises(ConfigError, match="GAMENIGHT_SHARDS: shard 4 is not one of 4 shards"):
        Settings.load({**BASE, "GAMENIGHT_SHARDS": "4/4", "GAMENIGHT_DATABASE": URL}, env_file=None)
    # One process running every shard works on SQLite too.
    assert Settings.load({**BASE, "GAMENIGHT_SHARDS": "auto"}, env_file=None).shards == AUTO


def test_a_server_is_on_the_shard_discord_sends_its_events_on():
    for guild_id in (81384788765712384, 1 << 22, 41771983423143937, 2**63 - 1):
        for count in (1, 2, 7, 32):
            assert shard_of(guild_id, count) == emulator_shard_of(guild_id, count)
            assert shard_of(guild_id, count) == (guild_id >> 22) % count
    assert shard_of(None, 16) == 0  # direct messages


# -- the lease policy ------------------------------------------------------------------------

NOW = 1_000.0
TERMS = LeaseTerms(seconds=10, takeover_grace=3, handback_wait=10, start_wait=20)


def lease(
    shard: int, owner: str, token: int, expires: float, *, shard_count=4, wanted_by=None
) -> LeaseRow:
    return LeaseRow(shard, shard_count, owner, token, expires, wanted_by)


def ask(owner: str, held: dict[int, int] | None = None, own=frozenset(), **more):
    """A heartbeat of a process running for a while (``since=None``: its first one)."""
    more.setdefault("since", NOW - 1000)
    return HeartbeatRequest(owner, 4, held or {}, frozenset(own), terms=TERMS, **more)


def others(*rows: LeaseRow) -> list[LeaseRow]:
    """``rows``, and live leases of process "c" for the other shards of 4."""
    given = {row.shard_id for row in rows}
    return [*rows, *(lease(n, "c", 1, NOW + 30) for n in range(4) if n not in given)]


def test_a_fresh_fleet_takes_its_own_shards_at_once_and_the_rest_later():
    # In its first moments a process takes only its own shards of those already free, so that
    # a fleet starting up does not grab each other's.
    starting = plan_heartbeat([], NOW, ask("a", own={0, 1}, since=None))
    assert starting.acquire == {0: 1, 1: 1}
    rows = [lease(0, "a", 1, NOW + 10), lease(1, "a", 1, NOW + 10)]
    assert plan_heartbeat(rows, NOW, ask("s", since=NOW - 19)).acquire == {}
    # Then shards no process runs by its settings are taken too: by a standby at once...
    standby = plan_heartbeat(rows, NOW, ask("s"))
    assert standby.acquire == {2: 1, 3: 1}
    assert not standby.ask
    # ... or by a process with shards of its own.
    assert plan_heartbeat(rows, NOW, ask("a", {0: 1, 1: 1}, own={0, 1})).acquire == {2: 1, 3: 1}


def test_held_leases_are_renewed_even_after_a_lapse_but_lost_to_a_new_token():
    rows = others(lease(0, "a", 3, NOW - 2), lease(1, "b", 5, NOW + 8))
    plan = plan_heartbeat(rows, NOW, ask("a", {0: 3, 1: 4}, own={0, 1}))
    assert plan.renew == {0: 3}  # lapsed, but nobody took it: the token is still 3
    assert plan.lost == {1}  # b took it (token 5)
    assert plan.ask == {1}  # and a, which runs it by its settings, asks for it back
    assert plan.acquire == {}


def test_an_expired_lease_goes_to_a_standby_at_once_and_to_others_after_the_grace():
    rows = others(lease(0, "dead", 7, NOW - 1), lease(1, "b", 2, NOW + 9))
    assert plan_heartbeat(rows, NOW, ask("s")).acquire == {0: 8}
    survivor = ask("b", {1: 2}, own={1})
    assert plan_heartbeat(rows, NOW, survivor).acquire == {}
    rows[0] = lease(0, "dead", 7, NOW - TERMS.takeover_grace)
    assert plan_heartbeat(rows, NOW, survivor).acquire == {0: 8}
    assert plan_heartbeat(rows, NOW, ask("x", adopt=False)).acquire == {}  # stopping
    # A standby that started after it expired leaves it to its owner for a while...
    assert plan_heartbeat(rows, NOW, ask("s", since=NOW - 2)).acquire == {}
    # ... but one that saw it expire takes it at once.
    assert plan_heartbeat(rows, NOW, ask("s", since=NOW - 5)).acquire == {0: 8}
    # The process that runs it by its settings takes it back at once (a restart).
    rows[0] = lease(0, "dead", 7, NOW - 0.1)
    assert plan_heartbeat(rows, NOW, ask("a2", own={0}, since=None)).acquire == {0: 8}


def test_the_process_that_runs_a_shard_by_its_settings_gets_it_back():
    # s took shard 0 from a dead process; a's new run asks for it back.
    rows = others(lease(0, "s", 8, NOW + 9))
    restarted = plan_heartbeat(rows, NOW, ask("a2", own={0}))
    assert restarted.ask == {0}
    assert not restarted.acquire
    rows = others(lease(0, "s", 8, NOW + 9, wanted_by="a2"))
    holder = plan_heartbeat(rows, NOW, ask("s", {0: 8}))
    assert holder.wanted == {0}
    assert holder.renew == {0: 8}  # until its games have stopped
    assert not plan_heartbeat(rows, NOW, ask("a2", own={0})).ask  # asked once
    # s stopped its games and releases the lease; only a2 may take it for a while.
    released = plan_heartbeat(rows, NOW, ask("s", {0: 8}, release=frozenset({0})))
    assert released.release == {0: 8}
    assert not released.renew
    rows = others(lease(0, "s", 8, NOW, wanted_by="a2"))
    assert plan_heartbeat(rows, NOW + 5, ask("other standby")).acquire == {}
    assert plan_heartbeat(rows, NOW + 5, ask("a2", own={0})).acquire == {0: 9}
    # If the one it was handed to never comes, anyone may take it in the end.
    assert plan_heartbeat(rows, NOW + TERMS.handback_wait, ask("s2")).acquire == {0: 9}
    # A process asked for a shard it runs by its own settings keeps it.
    rows = others(lease(0, "a", 1, NOW + 9, wanted_by="a-too"))
    assert plan_heartbeat(rows, NOW, ask("a", {0: 1}, own={0})).wanted == frozenset()


def test_nothing_is_taken_while_a_fleet_with_another_shard_count_holds_leases():
    rows = [lease(0, "old", 4, NOW + 5, shard_count=2), lease(3, "gone", 1, NOW - 100)]
    plan = plan_heartbeat(rows, NOW, ask("new", own={0, 1, 2, 3}))
    assert plan.other_count == 2
    assert plan.acquire == {}
    # Once the old fleet's leases have expired, the new one takes over its rows.
    rows[0] = lease(0, "old", 4, NOW - 1, shard_count=2)
    plan = plan_heartbeat(rows, NOW, ask("new", own={0, 1, 2, 3}))
    assert plan.other_count is None
    assert plan.acquire == {0: 5, 1: 1, 2: 1, 3: 2}
