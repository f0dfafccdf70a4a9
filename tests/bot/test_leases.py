"""Shard leases on a real PostgreSQL server: taken, renewed, expired and taken over with a
higher fencing token; fencing refuses every game write of a process that lost its lease; a
takeover waits for the old owner's writes in flight; two standbys never take the same shard;
the fleet's IDENTIFY pacing; a fleet and a process running every shard keep each other off."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest

from bot.storage import (
    Delivery,
    Fence,
    GameRow,
    GameStatus,
    HeartbeatOutcome,
    HeartbeatRequest,
    LeaseLostError,
    LeaseTerms,
    ResumableSession,
    ScheduleRow,
    ScheduleStatus,
    Storage,
    hold_database,
)
from bot.storage._backend import Transaction
from bot.storage._leases import SESSION_MAX_AGE
from bot.storage.database_file import UnusableDatabaseError

pytestmark = pytest.mark.backends("postgres")

COUNT = 2
TERMS = LeaseTerms(seconds=0.6, takeover_grace=0.3, handback_wait=1.0, start_wait=5.0)
# Guild ids on each of 2 shards ((id >> 22) % 2).
GUILD_ON = {0: 2 << 22, 1: 3 << 22}


@pytest.fixture
async def storage(database: str):
    async with Storage.open(database) as opened:
        yield opened


async def beat(
    storage: Storage,
    owner: str,
    held: dict[int, int] | None = None,
    own: set[int] | frozenset[int] = frozenset(),
    **more: object,
) -> HeartbeatOutcome:
    more.setdefault("since", 0.0)  # running for long: it adopts what expires
    request = HeartbeatRequest(owner, COUNT, held or {}, frozenset(own), terms=TERMS, **more)  # type: ignore[arg-type]
    return await storage.lease_heartbeat(request)


async def wait_until_expired(storage: Storage, shard: int) -> None:
    for _ in range(100):
        (row,) = [lease for lease in await storage.leases() if lease.shard_id == shard]
        now = await storage._all("SELECT extract(epoch FROM clock_timestamp())::float8")
        if row.expires_at <= float(now[0][0]):
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"shard {shard}'s lease never expired")


@contextlib.asynccontextmanager
async def renewing(storage: Storage, owner: str, held: dict[int, int]) -> AsyncIterator[None]:
    """Keep ``owner`` renewing ``held`` (and taking nothing else) while the body runs."""

    async def renew() -> None:
        while True:
            await beat(storage, owner, held, own=set(held), adopt=False)
            await asyncio.sleep(0.1)

    task = asyncio.create_task(renew())
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def test_a_lease_is_taken_renewed_and_taken_over_with_a_higher_token(storage: Storage):
    first = await beat(storage, "a", own={0, 1}, since=None)
    assert first.acquired == {0: 1, 1: 1}
    assert first.held == {0: 1, 1: 1}
    before = {lease.shard_id: lease.expires_at for lease in await storage.leases()}
    renewed = await beat(storage, "a", first.held, own={0, 1})
    assert renewed.held == {0: 1, 1: 1}
    assert renewed.acquired == {}
    after = {lease.shard_id: lease.expires_at for lease in await storage.leases()}
    assert after[0] > before[0]
    assert after[1] > before[1]

    # A standby takes nothing while a renews...
    assert (await beat(storage, "s")).acquired == {}
    # ... and shard 1 once a stops renewing it.
    async with renewing(storage, "a", {0: 1}):
        await wait_until_expired(storage, 1)
        taken = await beat(storage, "s")
    assert taken.acquired == {1: 2}  # the fencing token one higher
    [zero, one] = await storage.leases()
    assert (zero.owner, zero.token) == ("a", 1)
    assert (one.owner, one.token) == ("s", 2)
    # a learns it lost shard 1, and asks for it back (it runs it by its settings).
    back = await beat(storage, "a", {0: 1, 1: 1}, own={0, 1})
    assert back.lost == {1}
    assert back.held == {0: 1}
    assert back.asked == {1}
    # s hands it back: it stops the games first, then releases the lease...
    asked = await beat(storage, "s", taken.held)
    assert asked.held == {1: 2}
    assert asked.wanted == {1}
    released = await beat(storage, "s", asked.held, release=frozenset({1}))
    assert released.released == {1}
    assert released.held == {}
    # ... which only a may take for a while, and does at once, one token higher again.
    assert (await beat(storage, "s2")).acquired == {}
    assert (await beat(storage, "a", {0: 1}, own={0, 1})).acquired == {1: 3}


async def test_a_clean_stop_releases_its_leases_at_once(storage: Storage):
    held = (await beat(storage, "a", own={0, 1}, since=None)).held
    assert (await beat(storage, "s")).acquired == {}
    await storage.release_leases("a", held)
    assert (await beat(storage, "s")).acquired == {0: 2, 1: 2}


async def test_the_holder_saves_its_gateway_sessions_and_the_next_holder_gets_them(
    storage: Storage,
):
    held = (await beat(storage, "a", own={0, 1}, since=None)).held
    first = {shard: ResumableSession(f"session-{shard}", "wss://resume.example", 10) for shard in held}
    await beat(storage, "a", held, own={0, 1}, sessions=first)
    # Renewed with a later sequence number; a process that does not hold shard 1 saves nothing.
    later = {0: dataclasses.replace(first[0], seq=25)}
    await beat(storage, "a", held, own={0, 1}, sessions=later)
    await beat(storage, "s", sessions={1: ResumableSession("forged", "wss://x", 99)})
    saved = {lease.shard_id: lease.session for lease in await storage.leases()}
    assert saved == {0: later[0], 1: first[1]}

    # A clean stop saves the final ones with the release; the taker is given them to RESUME.
    final = {0: dataclasses.replace(first[0], seq=30), 1: dataclasses.replace(first[1], seq=12)}
    await storage.release_leases("a", held, final)
    taken = await beat(storage, "s")
    assert taken.acquired == {0: 2, 1: 2}
    assert taken.sessions == final

    # A session saved too long ago is not handed to the next holder (Discord drops it).
    await storage._all(
        "UPDATE shard_leases SET session_saved_at = session_saved_at - ? WHERE shard_id = 1",
        (SESSION_MAX_AGE + 1,),
    )
    await storage.release_leases("s", taken.held)
    again = await beat(storage, "s2")
    assert again.acquired == {0: 3, 1: 3}
    assert again.sessions == {0: final[0]}


async def test_two_standbys_never_take_the_same_shard(storage: Storage, database: str):
    await beat(storage, "dead", own={0, 1}, since=None)
    await wait_until_expired(storage, 0)
    await wait_until_expired(storage, 1)
    async with Storage.open(database) as other, Storage.open(database) as third:
        outcomes = await asyncio.gather(
            *(beat(s, f"standby {n}") for n, s in enumerate([storage, other, third] * 3))
        )
    taken = [(shard, token) for outcome in outcomes for shard, token in outcome.acquired.items()]
    assert sorted(taken) == [(0, 2), (1, 2)]
    owners = {lease.shard_id: lease.owner for lease in await storage.leases()}
    for outcome, n in zip(outcomes, range(9), strict=True):
        for shard in outcome.acquired:
            assert owners[shard] == f"standby {n % 3}"


# -- fencing -------------------------------------------------------------------------------------


async def a_game(storage: Storage, shard: int = 0) -> GameRow:
    game = await storage.create_game(
        kind="housie",
        guild_id=GUILD_ON[shard],
        channel_id=100 + shard,
        host_id=7,
        seed=b"s" * 32,
        options={},
    )
    await storage.add_player(
        game.id, 7, display_name="host", locale="en-US", boards=lambda seat, first: [("b", "c")]
    )
    return game


def every_game_write(
    storage: Storage, game: GameRow, board_id: int, night: int
) -> dict[str, Callable[[], Awaitable[object]]]:
    """One call of every storage method that writes a game's data, or a server's (its planned
    nights, its settings)."""
    return {
        "create_game": lambda: storage.create_game(
            kind="loteria",
            guild_id=game.guild_id,
            channel_id=999,
            host_id=7,
            seed=b"t" * 32,
            options={},
        ),
        "update_game": lambda: storage.update_game(game.id, status=GameStatus.RUNNING),
        "add_player": lambda: storage.add_player(
            game.id, 8, display_name="p", locale="en-US", boards=lambda seat, first: [("b", "d")]
        ),
        "remove_player": lambda: storage.remove_player(game.id, 7),
        "set_delivery": lambda: storage.set_delivery(game.id, 7, Delivery.DM),
        "record_false_claim": lambda: storage.record_false_claim(game.id, 7, limit=2),
        "set_board_out": lambda: storage.set_board_out(board_id),
        "record_draw": lambda: storage.record_draw(game.id, 1, 42, "state-after-1"),
        "set_draw_message": lambda: storage.set_draw_message(game.id, 1, 555),
        "record_claim": lambda: storage.record_claim(
            game.id, 7, board_id=board_id, prize="line1", step=1, valid=False, reason="no"
        ),
        "record_win": lambda: storage.record_win(
            game.id, prize="line1", user_id=7, board_id=board_id, step=1
        ),
        "check_fence": lambda: storage.check_fence(game.id),
        "add_schedule": lambda: a_night(storage, game.guild_id),
        "update_schedule": lambda: storage.update_schedule(
            night, expect=ScheduleStatus.WAITING, status=ScheduleStatus.LOBBY
        ),
        "change_server_settings": lambda: storage.change_server_settings(
            game.guild_id or 0, lambda settings: dataclasses.replace(settings, time_zone="Asia/Tokyo")
        ),
        "put_server_record": lambda: storage.put_server_record(
            game.guild_id or 0, "housie", "new", "value"
        ),
        "delete_server_record": lambda: storage.delete_server_record(
            game.guild_id or 0, "housie", "kept"
        ),
    }


async def a_night(storage: Storage, guild_id: int | None) -> ScheduleRow:
    return await storage.add_schedule(
        kind="housie",
        guild_id=guild_id or 0,
        channel_id=100,
        host_id=7,
        starts_at=2_000_000_000.0,
        lobby_minutes=10,
        weekly=False,
        options={},
    )


# Storage's writes that are not a game's or a server's (and so not fenced): settings kept for
# the whole bot, the leases themselves; a member's DM channel and forget-me, which span servers
# (and touch only games that are over); the retention purge (games over for long).
UNFENCED_WRITES = {
    "set_meta",
    "delete_meta",
    "lease_heartbeat",
    "release_leases",
    "take_identify_slot",
    "set_dm_channel",
    "forget_dm_channel",
    "set_dms_closed",  # a member's DMs, like their DM channel: no game's
    "forget_member",
    "purge_over_games",
}


def test_every_write_of_the_storage_is_fenced_but_the_bots_own():
    """A new write method must go through ``_write_game`` (or ``_write(..., game_id=)``),
    or be named here as not a game's: a fleet's stale process must not slip a write through."""
    import ast
    import inspect

    from bot.storage import _storage

    tree = ast.parse(inspect.getsource(_storage.Storage))
    unfenced = set()
    for method in ast.walk(tree):
        if not isinstance(method, ast.AsyncFunctionDef) or method.name.startswith("_"):
            continue
        for call in ast.walk(method):
            if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute):
                continue
            target = ast.unparse(call.func)
            plain_write = target == "self._write" and not any(
                keyword.arg == "game_id" for keyword in call.keywords
            )
            if target == "self._backend.write" or plain_write:
                unfenced.add(method.name)
    assert unfenced == UNFENCED_WRITES


async def snapshot(storage: Storage, game_id: int) -> tuple[object, ...]:
    game = await storage.get_game(game_id)
    guild_id = game.guild_id or 0 if game is not None else 0
    return (
        await storage.pending_schedules("housie"),
        await storage.server_settings(guild_id),
        await storage.server_records(guild_id, "housie"),
        await storage.get_game(game_id),
        await storage.players(game_id),
        await storage.boards(game_id),
        await storage.draws(game_id),
        await storage.claims(game_id),
        await storage.winners(game_id),
        len(await storage.live_games()),
    )


async def test_fencing_refuses_every_game_write_of_a_process_that_lost_the_shard(
    storage: Storage,
):
    held = (await beat(storage, "a", own={0}, since=None)).held
    assert held == {0: 1}
    fenced = storage.fenced(Fence("a", COUNT, held))
    game = await a_game(fenced)  # a holds shard 0: its writes are accepted
    (board,) = await storage.boards(game.id)
    other_shard = await a_game(storage, shard=1)  # (not fenced: a copy, migrate-db...)
    refused: list[int] = []
    fenced = storage.fenced(Fence("a", COUNT, held, on_refused=refused.append))
    with pytest.raises(LeaseLostError, match="shard 1"):
        await fenced.update_game(other_shard.id, state="mine")  # not a's shard

    await wait_until_expired(storage, 0)
    # Lapsed: nobody took it yet, but a may not write while its lease is not renewed.
    with pytest.raises(LeaseLostError):
        await fenced.record_draw(game.id, 1, 42, "state-after-1")
    renewed = await beat(storage, "a", held, own={0}, adopt=False)
    assert renewed.held == held
    await fenced.record_draw(game.id, 1, 42, "state-after-1")  # renewed: a writes again
    assert [d.value for d in await storage.draws(game.id)] == [42]

    await wait_until_expired(storage, 0)
    assert (await beat(storage, "s")).acquired[0] == 2
    night = await a_night(storage, game.guild_id)
    await storage.put_server_record(game.guild_id or 0, "housie", "kept", "value")
    before = await snapshot(storage, game.id)
    writes = every_game_write(fenced, game, board.id, night.id)
    for name, write in writes.items():
        with pytest.raises(LeaseLostError, match="shard 0"):
            await write()
        assert await snapshot(storage, game.id) == before, f"{name} wrote"
    assert refused == [1] + [0] * (len(writes) + 1)
    # Nor does a's lease taken again (token 3) let the writes of the client started under
    # token 1 through: each takeover is a new fencing token.
    await wait_until_expired(storage, 0)
    assert (await beat(storage, "a", {}, own={0}, adopt=False)).acquired == {0: 3}
    with pytest.raises(LeaseLostError):
        await fenced.record_draw(game.id, 2, 43, "state-after-2")
    # The holder's client writes.
    holder = storage.fenced(Fence("a", COUNT, {0: 3}))
    await holder.record_draw(game.id, 2, 43, "state-after-2")
    await holder.check_fence(game.id)
    assert [d.value for d in await storage.draws(game.id)] == [42, 43]


async def test_fences_need_postgresql(tmp_path):
    async with Storage.open(tmp_path / "bot.sqlite3") as on_sqlite:
        with pytest.raises(Exception, match="shard leases need PostgreSQL"):
            on_sqlite.fenced(Fence("a", 2, {0: 1}))


async def test_a_takeover_waits_for_the_old_owners_write_in_flight(storage: Storage):
    held = (await beat(storage, "a", own={0}, since=None)).held
    fenced = storage.fenced(Fence("a", COUNT, held))
    game = await a_game(fenced)
    checked, finish = asyncio.Event(), asyncio.Event()

    async def slow_draw(db: Transaction) -> None:
        checked.set()  # the fence was checked before this runs
        await finish.wait()
        await db.execute(
            "INSERT INTO draws (game_id, seq, value, drawn_at) VALUES (?, 1, 42, 0)", (game.id,)
        )

    writing = asyncio.create_task(fenced._write_game(game.id, slow_draw))
    await checked.wait()
    # Its own renewal does not wait for the write.
    renewal = beat(storage, "a", held, own={0}, adopt=False)
    assert (await asyncio.wait_for(renewal, 5)).held == held
    await wait_until_expired(storage, 0)
    # A standby's takeover does: it must not read the game before that write is in.
    taking = asyncio.create_task(beat(storage, "s"))
    await asyncio.sleep(0.5)
    assert not taking.done()
    finish.set()
    await writing
    assert (await taking).acquired[0] == 2
    assert [d.value for d in await storage.draws(game.id)] == [42]


# -- the fleet's IDENTIFYs, and who may share the database ----------------------------------------


async def test_identify_slots_pace_each_bucket(storage: Storage):
    assert await storage.take_identify_slot(0, 5.0) == 0
    wait = await storage.take_identify_slot(0, 5.0)
    assert 4.0 < wait <= 5.0
    assert await storage.take_identify_slot(1, 5.0) == 0  # another bucket is free
    assert await storage.take_identify_slot(0, 0.01) > 0  # the slot taken stays taken


async def test_a_fleet_and_a_process_running_every_shard_keep_each_other_off(
    database: str, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr("bot.storage._postgres.BOT_LOCK_WAIT", 0.3)
    async with hold_database(database, fleet=True), hold_database(database, fleet=True):
        with pytest.raises(UnusableDatabaseError) as refused:
            async with hold_database(database):
                pass
        assert "a fleet of Game Night processes (GAMENIGHT_SHARDS), one of them (pid " in str(
            refused.value
        )
        assert "run this one as part of the fleet" in str(refused.value)
    async with hold_database(database):
        with pytest.raises(UnusableDatabaseError) as refused:
            async with hold_database(database, fleet=True):
                pass
        assert "a Game Night process that runs every shard (pid " in str(refused.value)


def test_a_refused_write_is_explained_to_the_member():
    from bot.replies import friendly_message

    assert "moving to another of the bot's processes" in str(friendly_message(LeaseLostError(3)))
    assert "otro proceso del bot" in str(friendly_message(LeaseLostError(3), "es-ES"))


def test_the_fence_is_plain_data():
    fence = Fence("a", 4, {0: 1})
    assert dataclasses.replace(fence, on_refused=print) == fence  # the callback is not data
