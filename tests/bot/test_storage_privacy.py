"""Server settings, forgetting a member and purging old games: the storage API on both backends."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from pathlib import Path

import pytest

from bot.storage import (
    NOTICE_PREFIX,
    GameDefaults,
    GameStatus,
    MemberGames,
    ScheduleStatus,
    ServerLanguage,
    ServerSettings,
    Storage,
    anonymous_holder,
)
from tests.raw_sql import raw_execute

pytestmark = pytest.mark.backends()

GUILD = 1
ALICE, BOB, CAROL = 111111111111111111, 222222222222222222, 333333333333333333


@pytest.fixture
async def storage(database: Path | str):
    async with Storage.open(database) as opened:
        yield opened


def deal(seat: int, first: int) -> list[tuple[str, str]]:
    return [(f"board-{first}", f"code-{first}")]


async def calling_game(
    storage: Storage, *, host: int, players: list[int], over: bool = True, kind: str = "loteria"
) -> int:
    """A calling game with ``players`` seated in order, a call, a false claim by the last and a
    win by the first; finished when ``over``."""
    game = await storage.create_game(
        kind=kind, guild_id=GUILD, channel_id=10, host_id=host, seed=bytes(32), options={}
    )
    for user in players:
        await storage.add_player(
            game.id, user, display_name=f"name-{user}", locale="es-ES", boards=deal, board_count=1
        )
    await storage.update_game(game.id, status=GameStatus.RUNNING)
    await storage.record_draw(game.id, 1, 7, state="after-1")
    await storage.record_claim(
        game.id, players[-1], board_id=None, prize="line", step=1, valid=False, reason="no"
    )
    (board,) = await storage.boards(game.id, players[0])
    await storage.record_win(game.id, prize="line", user_id=players[0], board_id=board.id, step=1)
    if over:
        await storage.update_game(game.id, status=GameStatus.FINISHED)
    return game.id


async def test_settings_start_as_the_defaults_and_changes_keep_each_other(storage: Storage):
    assert await storage.server_settings(GUILD) == ServerSettings(GUILD)
    assert ServerSettings(GUILD).public_locale("es-ES") == "es-ES"

    spanish = await storage.change_server_settings(
        GUILD, lambda s: dataclasses.replace(s, language=ServerLanguage.SPANISH, host_role_id=42)
    )
    assert spanish.public_locale("en-US") == "es-ES"
    await storage.change_server_settings(
        GUILD, lambda s: s.with_defaults("loteria", GameDefaults(interval=20, prizes="full"))
    )
    stored = await storage.server_settings(GUILD)
    assert stored.language is ServerLanguage.SPANISH
    assert stored.host_role_id == 42
    assert stored.defaults("loteria") == GameDefaults(20, "full")
    assert stored.defaults("housie") == GameDefaults()
    assert await storage.server_settings(GUILD + 1) == ServerSettings(GUILD + 1)

    # Many changes at once, each to its own game's defaults: none is lost.
    kinds = [f"game{i}" for i in range(12)]
    await asyncio.gather(
        *(
            storage.change_server_settings(
                GUILD, lambda s, k=kind: s.with_defaults(k, GameDefaults(interval=5))
            )
            for kind in kinds
        )
    )
    stored = await storage.server_settings(GUILD)
    assert all(stored.defaults(kind).interval == 5 for kind in kinds)
    assert stored.defaults("loteria") == GameDefaults(20, "full")

    cleared = await storage.change_server_settings(
        GUILD, lambda s: dataclasses.replace(s, host_role_id=None, language=ServerLanguage.DISCORD)
    )
    assert cleared.host_role_id is None
    assert (await storage.server_settings(GUILD)).public_locale("en-GB") == "en-GB"


async def test_a_servers_deck_is_kept_with_its_other_defaults(storage: Storage):
    await storage.change_server_settings(
        GUILD, lambda s: s.with_defaults("loteria", GameDefaults(interval=20, deck="family"))
    )
    stored = (await storage.server_settings(GUILD)).defaults("loteria")
    assert (stored.interval, stored.prizes, stored.deck) == (20, None, "family")
    assert (await storage.server_settings(GUILD)).defaults("housie").deck is None


async def test_forgetting_anonymises_finished_games_and_leaves_live_ones(storage: Storage):
    done = await calling_game(storage, host=ALICE, players=[ALICE, BOB, CAROL])
    live = await calling_game(storage, host=BOB, players=[ALICE, BOB], over=False)
    other = await calling_game(storage, host=BOB, players=[BOB, CAROL])
    boards_before = await storage.boards(done)
    assert await storage.member_games(ALICE) == MemberGames(over=1, live=1)
    assert (await storage.leaderboard(GUILD))[0].user_id == ALICE

    assert await storage.forget_member(ALICE) == 1

    anonymous = anonymous_holder(0)
    players = await storage.players(done)
    assert [(p.user_id, p.seat, p.display_name, p.locale) for p in players] == [
        (anonymous, 0, "", ""),
        (BOB, 1, f"name-{BOB}", "es-ES"),
        (CAROL, 2, f"name-{CAROL}", "es-ES"),
    ]
    # The boards stay, at their deal positions with their states, under the anonymous holder.
    boards_after = await storage.boards(done)
    assert sorted((b.id, b.deal_index, b.state, b.code) for b in boards_after) == sorted(
        (b.id, b.deal_index, b.state, b.code) for b in boards_before
    )
    assert {b.user_id for b in boards_after} == {anonymous, BOB, CAROL}
    # The win keeps its prize, board and call, not who; the hosting goes too.
    (win,) = await storage.winners(done)
    assert (win.prize, win.user_id, win.step) == ("line", anonymous, 1)
    assert win.board_id == boards_before[0].id
    game = await storage.get_game(done)
    assert game is not None
    assert game.host_id == anonymous
    assert [c.user_id for c in await storage.claims(done)] == [CAROL]
    # Her win and her games left /stats (a live game counts once it finishes).
    assert {(r.user_id, r.wins, r.played) for r in await storage.leaderboard(GUILD)} == {
        (BOB, 1, 2),
        (CAROL, 0, 2),
    }

    # The live game keeps her; a game she was never in is untouched.
    assert ALICE in {p.user_id for p in await storage.players(live)}
    assert {p.user_id for p in await storage.players(other)} == {BOB, CAROL}
    assert await storage.member_games(ALICE) == MemberGames(over=0, live=1)
    assert await storage.forget_member(ALICE) == 0

    # Another player forgetting too gets an id of their own.
    assert await storage.forget_member(CAROL) == 2
    assert {p.user_id for p in await storage.players(done)} == {anonymous, BOB, anonymous_holder(2)}
    assert await storage.claims(done) == []


async def test_a_host_who_did_not_play_and_a_table_games_seats_are_forgotten(storage: Storage):
    hosted = await calling_game(storage, host=CAROL, players=[ALICE, BOB])
    duel = await storage.create_game(
        kind="tictactoe",
        guild_id=GUILD,
        channel_id=11,
        host_id=ALICE,
        seed=bytes(32),
        options={"seats": [ALICE, BOB], "names": ["alice", "bob"], "size": 3},
        status=GameStatus.RUNNING,
    )
    for user in (ALICE, BOB):
        await storage.add_player(duel.id, user, display_name="x", locale="en-US", boards=deal)
    await storage.record_win(duel.id, prize="win", user_id=BOB, board_id=None, step=5)
    await storage.update_game(duel.id, status=GameStatus.FINISHED)
    # A challenge BOB never accepted: he is in its seats only.
    declined = await storage.create_game(
        kind="dots",
        guild_id=GUILD,
        channel_id=12,
        host_id=ALICE,
        seed=bytes(32),
        options={"seats": [BOB, ALICE], "names": ["bob", "alice"], "deadline": 1.5},
    )
    await storage.add_player(declined.id, ALICE, display_name="alice", locale="", boards=deal)
    await storage.update_game(declined.id, status=GameStatus.CANCELLED)
    # A game whose options hold a number with BOB's digits inside, but not BOB.
    lookalike = await storage.create_game(
        kind="tictactoe",
        guild_id=GUILD,
        channel_id=13,
        host_id=CAROL,
        seed=None,
        options={"seats": [CAROL, int(f"9{BOB}")], "names": ["c", "x"]},
        status=GameStatus.FINISHED,
    )
    assert await storage.member_games(BOB) == MemberGames(over=3, live=0)

    assert await storage.forget_member(BOB) == 3
    assert await storage.forget_member(CAROL) == 2

    game = await storage.get_game(hosted)
    assert game is not None
    assert game.host_id == anonymous_holder(2)  # below both seats
    assert {p.user_id for p in await storage.players(hosted)} == {ALICE, anonymous_holder(1)}
    duel_game = await storage.get_game(duel.id)
    assert duel_game is not None
    assert duel_game.options["seats"] == [ALICE, anonymous_holder(1)]
    assert duel_game.options["names"] == ["alice", ""]
    assert duel_game.options["size"] == 3
    assert [(w.user_id, w.step) for w in await storage.winners(duel.id)] == [
        (anonymous_holder(1), 5)
    ]
    declined_game = await storage.get_game(declined.id)
    assert declined_game is not None
    assert declined_game.options["seats"] == [anonymous_holder(1), ALICE]
    assert declined_game.options["names"] == ["", "alice"]
    look = await storage.get_game(lookalike.id)
    assert look is not None
    assert look.options["seats"] == [anonymous_holder(0), int(f"9{BOB}")]
    assert look.options["names"] == ["", "x"]
    assert await storage.member_games(BOB) == MemberGames(over=0, live=0)


async def night(storage: Storage, host: int, starts_at: float, status: ScheduleStatus) -> int:
    planned = await storage.add_schedule(
        kind="housie",
        guild_id=GUILD,
        channel_id=10,
        host_id=host,
        starts_at=starts_at,
        lobby_minutes=10,
        weekly=False,
        options={},
    )
    if status is not ScheduleStatus.WAITING:
        assert await storage.update_schedule(
            planned.id, expect=ScheduleStatus.WAITING, status=status
        )
    return planned.id


async def test_forgetting_also_removes_the_dm_channel_closed_dms_notices_and_past_nights(
    storage: Storage,
):
    await calling_game(storage, host=ALICE, players=[ALICE, BOB])
    await storage.set_dm_channel(ALICE, 900)
    await storage.set_dm_channel(BOB, 901)
    await storage.set_dms_closed(ALICE, closed=True)
    await storage.set_dms_closed(BOB, closed=True)
    await storage.set_meta(f"{NOTICE_PREFIX}{ALICE}", '["hello"]')
    await storage.set_meta(f"{NOTICE_PREFIX}{BOB}", '["hi"]')
    past = await night(storage, ALICE, time.time() - 86400, ScheduleStatus.DONE)
    missed = await night(storage, ALICE, time.time() - 86400, ScheduleStatus.MISSED)
    coming = await night(storage, ALICE, time.time() + 86400, ScheduleStatus.WAITING)
    bobs = await night(storage, BOB, time.time() - 86400, ScheduleStatus.DONE)

    assert await storage.forget_member(ALICE) == 1

    assert await storage.dm_channel(ALICE) is None
    assert not await storage.dms_closed(ALICE)
    assert await storage.get_meta(f"{NOTICE_PREFIX}{ALICE}") is None
    assert await storage.get_schedule(past) is None
    assert await storage.get_schedule(missed) is None
    # A night still to come is the member's plan for the server: it stays until it is over.
    assert (await storage.get_schedule(coming)) is not None
    # Nobody else's data moves.
    assert await storage.dm_channel(BOB) == 901
    assert await storage.dms_closed(BOB)
    assert await storage.get_meta(f"{NOTICE_PREFIX}{BOB}") == '["hi"]'
    assert (await storage.get_schedule(bobs)) is not None


async def test_purging_deletes_old_games_that_are_over_and_keeps_the_rest(
    storage: Storage, database: Path | str
):
    old_finished = await calling_game(storage, host=ALICE, players=[ALICE, BOB])
    old_cancelled = (
        await storage.create_game(
            kind="housie", guild_id=GUILD, channel_id=11, host_id=ALICE, seed=None, options={}
        )
    ).id
    await storage.add_player(old_cancelled, BOB, display_name="", locale="", boards=deal)
    await storage.update_game(old_cancelled, status=GameStatus.CANCELLED)
    old_live = await calling_game(storage, host=ALICE, players=[ALICE], over=False)
    recent = await calling_game(storage, host=BOB, players=[BOB])
    long_ago = time.time() - 40 * 86400
    for game_id in (old_finished, old_cancelled, old_live):
        await raw_execute(
            database, "UPDATE games SET created_at = ? WHERE id = ?", long_ago, game_id
        )
        await raw_execute(
            database,
            "UPDATE games SET finished_at = ? WHERE id = ? AND finished_at IS NOT NULL",
            long_ago,
            game_id,
        )

    assert await storage.purge_over_games(time.time() - 30 * 86400) == 2

    for gone in (old_finished, old_cancelled):
        assert await storage.get_game(gone) is None
        for rows in ("players", "boards", "draws", "claims", "winners"):
            assert await getattr(storage, rows)(gone) == []
    for kept in (old_live, recent):
        assert await storage.get_game(kept) is not None
        assert await storage.boards(kept)
        assert await storage.draws(kept)
    # Only finished games count on the leaderboard: the old live game has not been won yet.
    assert {(r.user_id, r.wins) for r in await storage.leaderboard(GUILD)} == {(BOB, 1)}
    assert await storage.purge_over_games(time.time() - 30 * 86400) == 0


async def test_purging_deletes_past_nights_and_keeps_those_to_come(storage: Storage):
    long_ago, lately = time.time() - 40 * 86400, time.time() - 86400
    old = await night(storage, ALICE, long_ago, ScheduleStatus.DONE)
    old_cancelled = await night(storage, ALICE, long_ago, ScheduleStatus.CANCELLED)
    # Overdue but still waiting (the bot was down): the loop will open or miss it.
    overdue = await night(storage, ALICE, long_ago, ScheduleStatus.WAITING)
    recent = await night(storage, BOB, lately, ScheduleStatus.DONE)

    await storage.purge_over_games(time.time() - 30 * 86400)

    assert await storage.get_schedule(old) is None
    assert await storage.get_schedule(old_cancelled) is None
    assert await storage.get_schedule(overdue) is not None
    assert await storage.get_schedule(recent) is not None


async def test_the_purge_goes_in_small_transactions_and_running_games_write_between_them(
    storage: Storage, database: Path | str, monkeypatch: pytest.MonkeyPatch
):
    old_games = [await calling_game(storage, host=ALICE, players=[ALICE, BOB]) for _ in range(12)]
    long_ago = time.time() - 40 * 86400
    await raw_execute(
        database, "UPDATE games SET created_at = ?, finished_at = ? WHERE status = ?",
        long_ago, long_ago, GameStatus.FINISHED.value,
    )  # fmt: skip
    old_nights = [await night(storage, ALICE, long_ago, ScheduleStatus.DONE) for _ in range(5)]
    live = await calling_game(storage, host=CAROL, players=[CAROL], over=False)

    # Every transaction, in the order they commit: whose it was, and the old games left after it
    # (the real backend does the work; this only watches it).
    transactions: list[tuple[str, int]] = []
    backend = storage._backend

    def watched(real_write):
        async def watched_write(work):
            result = await real_write(work)
            (left,) = await backend.fetch(
                "SELECT COUNT(*) FROM games WHERE status = ?", (GameStatus.FINISHED.value,)
            )
            transactions.append((asyncio.current_task().get_name(), int(left[0])))
            return result

        return watched_write

    # Two connections open before the purge starts (PostgreSQL's pool opens them as needed, and
    # opening the running game's own could outlast the whole purge on a busy machine).
    slow_query = "SELECT pg_sleep(0.05)" if str(database).startswith("postgres") else "SELECT 1"
    await asyncio.gather(backend.fetch(slow_query), backend.fetch(slow_query))
    # (SQLite runs a few statements in one trip of their own; PostgreSQL's go through write.)
    if backend.name == "sqlite":
        monkeypatch.setattr(backend, "write_statements", watched(backend.write_statements))
    monkeypatch.setattr(backend, "write", watched(backend.write))
    purge = asyncio.create_task(
        storage.purge_over_games(time.time() - 30 * 86400, batch=3), name="purge"
    )

    async def draw_while_purging() -> int:
        seq = 1  # calling_game made call 1
        while not purge.done():
            seq += 1
            await storage.record_draw(live, seq, 100 + seq, state=f"after-{seq}")
        return seq

    last_seq = await asyncio.create_task(draw_while_purging(), name="running game")
    assert await purge == len(old_games)

    purges = [left for who, left in transactions if who == "purge"]
    # At most 3 games a transaction (fewer if one is slow): 4 transactions or more for 12.
    steps = [before - after for before, after in zip([12, *purges], purges, strict=False)]
    assert all(step <= 3 for step in steps), purges
    assert len([step for step in steps if step]) >= 4, purges
    assert purges[-1] == 0
    assert [await storage.get_schedule(gone) for gone in old_nights] == [None] * 5
    order = [who for who, _ in transactions]
    first, last = order.index("purge"), len(order) - 1 - order[::-1].index("purge")
    assert "running game" in order[first:last], order  # its draws went in between the batches
    assert [draw.seq for draw in await storage.draws(live)] == list(range(1, last_seq + 1))
    assert [await storage.get_game(gone) for gone in old_games] == [None] * 12
