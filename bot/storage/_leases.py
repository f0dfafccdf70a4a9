"""Shard leases in PostgreSQL: which process runs each shard's games (``bot.fleet.process``).

A lease is a row of ``shard_leases``: the shard, the fleet's shard count, the owner (one
process's run, a name that is never reused), a fencing **token** and ``expires_at`` on the
database server's clock (every process reads the same clock, so theirs need not agree). The
owner renews its leases every few seconds; a lease not renewed expires, and another process may
then take the shard, with the token one higher. Every change of hands goes through
:func:`heartbeat`, one transaction under an advisory lock, so two processes never both take a
shard.

**Fencing.** A bot client is started with the tokens of the leases it holds (a :class:`Fence`).
Each of its game writes first reads its shard's lease, in the same transaction, and is refused
(``LeaseLostError``, nothing written) unless the lease is still the client's, under the same
token, and unexpired. That read takes a ``FOR KEY SHARE`` row lock. A renewal (an ``UPDATE`` of
columns that are not the key) does not wait for it, so a busy shard never delays its own
renewal; a takeover locks the row ``FOR UPDATE`` first and so waits for the old owner's writes
in flight: the new owner reads the games only after every write the old owner was allowed to
make has committed.

**Gateway sessions.** With each renewal the holder saves its shard's gateway session (id,
resume URL, last sequence number) in the lease row, and once more as it lets the shard go. The
next holder RESUMEs that session instead of IDENTIFYing a new one: Discord paces IDENTIFYs at one
per 5 s (per ``max_concurrency`` bucket) across the whole bot, RESUMEs not at all, so a process
taking over ten shards has them all back at once, and Discord replays the events since the saved
sequence number (the same idea as discord.js's ``retrieveSessionInfo`` / ``updateSessionInfo``).

Decisions are made by :func:`plan_heartbeat`, a pure function of the rows, the server's clock
and what the process holds and runs by its settings; the policy is written there.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from bot.storage._backend import Transaction
from bot.storage._rows import LeaseLostError, Row

# The advisory lock every change of hands takes ("gnleases"), and the clock they all read.
LEASE_LOCK = 0x67_6E_6C_65_61_73_65_73
SERVER_NOW = "extract(epoch FROM clock_timestamp())::float8"
# A heartbeat never waits longer than this for a row lock (an old owner's write in flight, or a
# connection that vanished mid-transaction): it gives up, and the next heartbeat tries again.
HEARTBEAT_LOCK_TIMEOUT = "3s"
# A saved gateway session older than this is not offered to the next holder: Discord keeps a
# dropped session resumable for a short while only (and answers a RESUME of a gone one with
# INVALID_SESSION, after which the shard IDENTIFYs, having lost a round trip).
SESSION_MAX_AGE = 60.0


@dataclass(frozen=True, slots=True)
class ResumableSession:
    """A shard's gateway session as a RESUME needs it (Discord's READY gives the id and the URL;
    ``seq`` is the last sequence number the holder received)."""

    session_id: str
    resume_url: str
    seq: int


@dataclass(frozen=True, slots=True)
class LeaseTerms:
    """How long a lease lasts, and how long others leave an expired one alone."""

    seconds: float = 10.0  # a lease not renewed for this long expires
    # A process that runs shards of its own takes over an expired one only after this (a
    # standby takes it at once): with a standby in the fleet, survivors are not disturbed.
    takeover_grace: float = 3.0
    # A lease handed back to the process that runs the shard by its settings is left to it this
    # long; after that (it did not come) anyone may take it.
    handback_wait: float = 10.0
    # A starting process leaves shards that were already free when it started to the processes
    # that run them by their settings (they may be starting too) for this long.
    start_wait: float = 20.0


@dataclass(frozen=True, slots=True)
class LeaseRow:
    shard_id: int
    shard_count: int
    owner: str
    token: int
    expires_at: float  # seconds since the epoch, on the database server's clock
    wanted_by: str | None  # a process that runs this shard by its settings and asks for it
    session: ResumableSession | None = None  # the gateway session its holder last saved
    session_saved_at: float | None = None  # when, on the database server's clock


@dataclass(frozen=True, slots=True)
class HeartbeatRequest:
    """What one process holds and wants, for one heartbeat."""

    owner: str
    shard_count: int
    held: Mapping[int, int]  # shard -> token, as the process believes
    own: frozenset[int]  # the shards it runs by its settings (none: a standby)
    release: frozenset[int] = frozenset()  # held shards it gives up now (their games stopped)
    adopt: bool = True  # whether it takes over shards that are not its own (not when stopping)
    since: float | None = None  # its first heartbeat, on the server's clock (None: this one)
    terms: LeaseTerms = field(default_factory=LeaseTerms)
    # The gateway sessions of held shards as they are now, saved with the renewal (or release).
    sessions: Mapping[int, ResumableSession] = field(default_factory=dict)

    @property
    def standby(self) -> bool:
        return not self.own


@dataclass(frozen=True, slots=True)
class HeartbeatPlan:
    renew: dict[int, int]  # shard -> token
    release: dict[int, int]
    acquire: dict[int, int]  # shard -> the new token
    ask: frozenset[int]  # own shards another process holds: ask for them back
    lost: frozenset[int]  # believed held, but no longer this process's
    wanted: frozenset[int]  # held, not own, and asked for by the process that runs them
    other_count: int | None  # a live lease of another shard count: nothing is taken


@dataclass(frozen=True, slots=True)
class HeartbeatOutcome:
    held: dict[int, int]  # every lease held after the heartbeat, with its token
    acquired: dict[int, int]
    lost: frozenset[int]
    released: frozenset[int]
    wanted: frozenset[int]
    asked: frozenset[int]
    other_count: int | None
    now: float
    # The gateway sessions the previous holders saved of the shards acquired, to RESUME.
    sessions: dict[int, ResumableSession] = field(default_factory=dict)


def plan_heartbeat(
    rows: Sequence[LeaseRow], now: float, request: HeartbeatRequest
) -> HeartbeatPlan:
    """The policy, given every lease row and the server's clock:

    - a held lease is renewed (even if it lapsed: its token unchanged means nobody took the
      shard meanwhile, so the process may go on) or released if asked; one whose row has
      another owner or token is lost;
    - while a live lease of another shard count exists, nothing is taken: two fleets sharding
      differently would run the same servers' games (resharding stops the whole fleet first);
    - a free shard (never leased, expired, or leased under an older shard count) is taken by
      the process that runs it by its settings at once; by a standby at once; by a process
      with shards of its own only after ``takeover_grace`` (standbys go first); by nobody but
      the process it was handed back to for ``handback_wait``; and, if it was free before the
      process started, not in the process's first ``start_wait`` (a fleet starting up does not
      grab each other's shards);
    - an own shard that another process holds is asked back (``wanted_by``); a holder that
      does not run it by its settings hands it back (``wanted``: it stops the games, then
      releases it at its next heartbeat).
    """
    by_shard = {row.shard_id: row for row in rows}
    count = request.shard_count
    terms = request.terms
    other = min(
        (row.shard_count for row in rows if row.shard_count != count and row.expires_at > now),
        default=None,
    )
    renew: dict[int, int] = {}
    release: dict[int, int] = {}
    lost: set[int] = set()
    for shard, token in request.held.items():
        row = by_shard.get(shard)
        if row is None or (row.owner, row.token, row.shard_count) != (request.owner, token, count):
            lost.add(shard)
        elif shard in request.release:
            release[shard] = token
        else:
            renew[shard] = token
    acquire: dict[int, int] = {}
    ask: set[int] = set()
    if other is None:
        for shard in range(count):
            if shard in renew or shard in release:
                continue
            row = by_shard.get(shard)
            own = shard in request.own
            if row is not None and row.shard_count == count and row.expires_at > now:
                if own and request.owner not in {row.owner, row.wanted_by}:
                    ask.add(shard)
                continue
            if not own:
                free_since = row.expires_at if row is not None else -math.inf
                since = now if request.since is None else request.since
                handed_to_another = row is not None and row.wanted_by not in {None, request.owner}
                if (
                    not request.adopt
                    or (free_since < since and now - since < terms.start_wait)
                    or (handed_to_another and now - free_since < terms.handback_wait)
                    or (not request.standby and now - free_since < terms.takeover_grace)
                ):
                    continue
            acquire[shard] = row.token + 1 if row is not None else 1
    wanted = {
        shard
        for shard in renew
        if shard not in request.own and by_shard[shard].wanted_by not in {None, request.owner}
    }
    return HeartbeatPlan(
        renew=renew,
        release=release,
        acquire=acquire,
        ask=frozenset(ask),
        lost=frozenset(lost),
        wanted=frozenset(wanted),
        other_count=other,
    )


def lease_row(row: Row) -> LeaseRow:
    session = None
    if row["session_id"] is not None and row["resume_url"] is not None and row["seq"] is not None:
        session = ResumableSession(str(row["session_id"]), str(row["resume_url"]), int(row["seq"]))
    saved_at = row["session_saved_at"]
    return LeaseRow(
        shard_id=int(row["shard_id"]),
        shard_count=int(row["shard_count"]),
        owner=str(row["owner"]),
        token=int(row["token"]),
        expires_at=float(row["expires_at"]),
        wanted_by=None if row["wanted_by"] is None else str(row["wanted_by"]),
        session=session,
        session_saved_at=None if saved_at is None else float(saved_at),
    )


def resumable(row: LeaseRow | None, now: float) -> ResumableSession | None:
    """The gateway session saved in the lease row, unless there is none or it is too old."""
    if row is None or row.session is None or row.session_saved_at is None:
        return None
    return row.session if now - row.session_saved_at <= SESSION_MAX_AGE else None


async def save_sessions(
    db: Transaction,
    owner: str,
    tokens: Mapping[int, int],
    sessions: Mapping[int, ResumableSession],
    now: float,
) -> None:
    """Save the gateway sessions of leases ``owner`` holds under ``tokens`` (others: ignored)."""
    await db.execute_many(
        "UPDATE shard_leases SET session_id = ?, resume_url = ?, seq = ?, session_saved_at = ?"
        " WHERE shard_id = ? AND owner = ? AND token = ?",
        [
            (session.session_id, session.resume_url, session.seq, now, shard, owner, tokens[shard])
            for shard, session in sorted(sessions.items())
            if shard in tokens
        ],
    )


async def server_now(db: Transaction) -> float:
    (row,) = await db.fetch(f"SELECT {SERVER_NOW}")
    return float(row[0])


async def heartbeat(db: Transaction, request: HeartbeatRequest) -> HeartbeatOutcome:
    """One heartbeat of one process, in its transaction: renew, release, take over, ask."""
    await db.execute("SELECT pg_advisory_xact_lock(?)", (LEASE_LOCK,))
    await db.execute(f"SET LOCAL lock_timeout = '{HEARTBEAT_LOCK_TIMEOUT}'")
    now = await server_now(db)
    rows = [lease_row(row) for row in await db.fetch("SELECT * FROM shard_leases")]
    plan = plan_heartbeat(rows, now, request)
    until = now + request.terms.seconds
    by_shard = {row.shard_id: row for row in rows}
    await save_sessions(db, request.owner, {**plan.renew, **plan.release}, request.sessions, now)
    await db.execute_many(
        "UPDATE shard_leases SET expires_at = ? WHERE shard_id = ? AND owner = ? AND token = ?",
        [(until, shard, request.owner, token) for shard, token in plan.renew.items()],
    )
    changing = sorted({*plan.release, *plan.acquire})
    if changing:
        # Wait for the writes in flight under these leases (their fences hold FOR KEY SHARE).
        marks = ",".join("?" * len(changing))
        await db.fetch(
            f"SELECT 1 FROM shard_leases WHERE shard_id IN ({marks}) FOR UPDATE",  # noqa: S608
            changing,
        )
    await db.execute_many(
        "UPDATE shard_leases SET expires_at = ? WHERE shard_id = ? AND owner = ? AND token = ?",
        [(now, shard, request.owner, token) for shard, token in plan.release.items()],
    )
    await db.execute_many(
        "INSERT INTO shard_leases (shard_id, shard_count, owner, token, expires_at, wanted_by)"
        " VALUES (?, ?, ?, ?, ?, NULL) ON CONFLICT (shard_id) DO UPDATE SET"
        " shard_count = excluded.shard_count, owner = excluded.owner, token = excluded.token,"
        " expires_at = excluded.expires_at, wanted_by = NULL",
        [
            (shard, request.shard_count, request.owner, token, until)
            for shard, token in plan.acquire.items()
        ],
    )
    await db.execute_many(
        "UPDATE shard_leases SET wanted_by = ? WHERE shard_id = ?",
        [(request.owner, shard) for shard in sorted(plan.ask)],
    )
    return HeartbeatOutcome(
        held={**plan.renew, **plan.acquire},
        acquired=plan.acquire,
        lost=plan.lost,
        released=frozenset(plan.release),
        wanted=plan.wanted,
        asked=plan.ask,
        other_count=plan.other_count,
        now=now,
        sessions={
            shard: session
            for shard in plan.acquire
            if (session := resumable(by_shard.get(shard), now)) is not None
        },
    )


async def release(
    db: Transaction,
    owner: str,
    tokens: Mapping[int, int],
    sessions: Mapping[int, ResumableSession],
) -> None:
    """Give up leases at once (a clean stop, once their games have stopped): expired now, so
    that another process takes them at its next heartbeat, and RESUMEs ``sessions``."""
    await db.execute("SELECT pg_advisory_xact_lock(?)", (LEASE_LOCK,))
    now = await server_now(db)
    await save_sessions(db, owner, tokens, sessions, now)
    await db.execute_many(
        "UPDATE shard_leases SET expires_at = ? WHERE shard_id = ? AND owner = ? AND token = ?",
        [(now, shard, owner, token) for shard, token in tokens.items()],
    )


@dataclass(frozen=True)
class Fence:
    """The leases one bot client was started under: each of its game writes checks that its
    shard's lease is still ``owner``'s with this token, unexpired (see the module's doc)."""

    owner: str
    shard_count: int
    tokens: Mapping[int, int]
    # Told the shard whose lease refused a write (the fleet looks at its leases at once).
    on_refused: Callable[[int], None] | None = field(default=None, compare=False)


async def hold_lease(db: Transaction, fence: Fence, shard: int) -> None:
    """Raise ``LeaseLostError`` unless ``fence`` still holds ``shard``'s lease; keeps the lease
    row from changing hands until the transaction ends."""
    token = fence.tokens.get(shard)
    rows = await db.fetch(
        "SELECT token FROM shard_leases WHERE shard_id = ? AND shard_count = ? AND owner = ?"  # noqa: S608
        f" AND expires_at > {SERVER_NOW} FOR KEY SHARE",
        (shard, fence.shard_count, fence.owner),
    )
    if token is None or not rows or int(rows[0][0]) != token:
        if fence.on_refused is not None:
            fence.on_refused(shard)
        raise LeaseLostError(shard)


async def take_identify_slot(db: Transaction, bucket: int, window: float) -> float:
    """Take the gateway IDENTIFY slot of rate-limit ``bucket`` (``shard_id % max_concurrency``)
    if it is free, for ``window`` seconds; returns 0, or the seconds until it is free."""
    now = await server_now(db)
    await db.execute(
        "INSERT INTO gateway_identify (bucket, next_at) VALUES (?, 0) ON CONFLICT (bucket) DO NOTHING",
        (bucket,),
    )
    (row,) = await db.fetch(
        "SELECT next_at FROM gateway_identify WHERE bucket = ? FOR UPDATE", (bucket,)
    )
    if float(row[0]) > now:
        return float(row[0]) - now
    await db.execute(
        "UPDATE gateway_identify SET next_at = ? WHERE bucket = ?", (now + window, bucket)
    )
    return 0.0
