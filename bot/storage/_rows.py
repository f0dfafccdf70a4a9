"""The values the storage hands out (rows as frozen dataclasses, statuses as enums) and its
errors: the same for every backend."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, Protocol


class Row(Protocol):
    """A result row of either backend (``sqlite3.Row``, ``asyncpg.Record``): by position or
    by column name."""

    def __getitem__(self, key: int | str, /) -> Any: ...


class GameStatus(StrEnum):
    LOBBY = "lobby"
    RUNNING = "running"
    PAUSED = "paused"
    FINISHED = "finished"
    CANCELLED = "cancelled"

    @property
    def is_live(self) -> bool:
        return self in {GameStatus.LOBBY, GameStatus.RUNNING, GameStatus.PAUSED}


# Literal SQL for the live statuses, kept in step with GameStatus.is_live by a test.
LIVE_SQL = "('lobby', 'running', 'paused')"


class Delivery(StrEnum):
    """How a player's boards reached them."""

    PENDING = "pending"  # stored, not sent yet (or the bot stopped while sending)
    DM = "dm"
    REPLY = "reply"  # in a private reply to their interaction (DMs closed or failing)
    UNDELIVERED = "undelivered"  # no way to reach them yet: shown at their next interaction

    @property
    def delivered(self) -> bool:
        return self in {Delivery.DM, Delivery.REPLY}


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    kind: str
    guild_id: int | None
    channel_id: int
    host_id: int
    status: GameStatus
    # A running game's seed, in it and in its state, tells every call to come: not in a repr.
    seed: bytes | None = field(repr=False)
    options: dict[str, Any]
    state: str = field(repr=False)
    lobby_message_id: int | None
    created_at: float
    started_at: float | None
    finished_at: float | None
    next_deal: int = 0


@dataclass(frozen=True, slots=True)
class PlayerRow:
    game_id: int
    user_id: int
    seat: int
    display_name: str
    locale: str
    false_claims: int
    out: bool
    delivery: Delivery

    @property
    def delivered(self) -> bool:
        return self.delivery.delivered


@dataclass(frozen=True, slots=True)
class BoardRow:
    id: int
    game_id: int
    user_id: int
    board_index: int
    deal_index: int
    state: str
    code: str
    out: bool


@dataclass(frozen=True, slots=True)
class DrawRow:
    seq: int
    value: int
    drawn_at: float
    message_id: int | None


@dataclass(frozen=True, slots=True)
class ClaimRow:
    id: int
    game_id: int
    user_id: int
    board_id: int | None
    prize: str
    step: int  # the calls made when it was claimed (a table game's win: the moves played)
    valid: bool
    reason: str


@dataclass(frozen=True, slots=True)
class WinnerRow:
    prize: str
    user_id: int
    board_id: int | None
    step: int  # the calls made when it was won (a table game's: the moves played)


class ScheduleStatus(StrEnum):
    WAITING = "waiting"  # planned; the lobby is not open yet
    LOBBY = "lobby"  # its lobby is open (``game_id``)
    DONE = "done"  # the game started (or nobody came); a weekly night made the next one
    CANCELLED = "cancelled"  # called off (by its host or a manager, or its channel was deleted)
    MISSED = "missed"  # the lobby could not open (the channel was busy, or shut to the bot)

    @property
    def is_pending(self) -> bool:
        return self in {ScheduleStatus.WAITING, ScheduleStatus.LOBBY}


@dataclass(frozen=True, slots=True)
class ScheduleRow:
    id: int
    kind: str
    guild_id: int
    channel_id: int
    host_id: int
    starts_at: float  # seconds since 1970, UTC
    lobby_minutes: int
    weekly: bool
    options: dict[str, Any]
    status: ScheduleStatus
    event_id: int | None
    game_id: int | None

    @property
    def lobby_at(self) -> float:
        return self.starts_at - 60 * self.lobby_minutes


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    user_id: int
    kind: str
    wins: int
    played: int  # finished games they took part in


class ServerLanguage(StrEnum):
    """The language of a server's public messages (lobbies, calls, verdicts, results)."""

    DISCORD = "discord"  # the server's language as Discord sends it (its primary language)
    ENGLISH = "en"
    SPANISH = "es"


_PUBLIC_LOCALES = {ServerLanguage.ENGLISH: "en-US", ServerLanguage.SPANISH: "es-ES"}


@dataclass(frozen=True, slots=True)
class GameDefaults:
    """A server's defaults for one kind of game's start command (None: the command's own)."""

    interval: int | None = None
    prizes: str | None = None  # in the form the game's cog stores (see its default_prizes)
    deck: str | None = None  # Lotería's: a name of engine.loteria.DECKS
    claims: str | None = None  # how wins are found: "manual" or "auto" (bot.calling.options)
    near_misses: bool | None = None  # False: players are not told their near misses by DM
    voice: int | None = None  # the voice channel the calls are spoken in (None: not spoken)
    voice_language: str | None = None  # what they are spoken in ("game", "en", "es", "both")

    def to_json(self) -> dict[str, Any]:
        return {
            name: value
            for name, value in (
                ("interval", self.interval),
                ("prizes", self.prizes),
                ("deck", self.deck),
                ("claims", self.claims),
                ("near_misses", self.near_misses),
                ("voice", self.voice),
                ("voice_language", self.voice_language),
            )
            if value is not None
        }


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """What a server's managers chose with ``/gamenight settings`` (the defaults otherwise)."""

    guild_id: int
    language: ServerLanguage = ServerLanguage.DISCORD
    host_role_id: int | None = None  # None: every member may start games
    time_zone: str = "UTC"  # an IANA name; planned game nights' wall-clock times are read in it
    game_defaults: Mapping[str, GameDefaults] = field(default_factory=dict)

    def public_locale(self, guild_locale: object) -> str:
        """The locale of the public messages of a game opening now, given the server's
        language as Discord sends it (``interaction.guild_locale``)."""
        forced = _PUBLIC_LOCALES.get(self.language)
        return forced if forced is not None else str(guild_locale or "")

    def defaults(self, kind: str) -> GameDefaults:
        return self.game_defaults.get(kind, GameDefaults())

    def with_defaults(self, kind: str, defaults: GameDefaults) -> ServerSettings:
        return replace(self, game_defaults={**self.game_defaults, kind: defaults})


@dataclass(frozen=True, slots=True)
class MemberGames:
    """How many games hold a member's personal data: over (finished or cancelled), and live."""

    over: int
    live: int


class StorageError(Exception):
    """The database refused a write (for example a second winner row for the same prize)."""


class ConflictError(StorageError):
    """A write broke one of the schema's rules (a duplicate key, a missing row it refers to);
    nothing of it was written."""


class DealExhaustedError(StorageError):
    """Every deal position of the game has been handed out (joins and leaves used them up)."""

    def __init__(self, game_id: int, limit: int) -> None:
        super().__init__(f"game {game_id} has dealt all {limit} deal positions")
        self.limit = limit


class DealMovedError(StorageError):
    """Boards dealt from one position were offered when the game's deal had moved on."""

    def __init__(self, game_id: int, dealt_from: int | None, next_deal: int) -> None:
        super().__init__(
            f"game {game_id}: boards dealt from position {dealt_from}, but the next is {next_deal}"
        )
        self.next_deal = next_deal


class ChannelBusyError(StorageError):
    """A game may not start in a channel that already has one of the games it excludes."""

    def __init__(self, existing: GameRow) -> None:
        super().__init__(f"channel {existing.channel_id} already has game {existing.id}")
        self.existing = existing


class RecordLimitError(StorageError):
    """A server already holds ``limit`` records of that game's kind (``Storage.put_server_record``)."""

    def __init__(self, kind: str, limit: int) -> None:
        super().__init__(f"the server already has {limit} records of {kind}")
        self.kind = kind
        self.limit = limit


class NightLimitError(StorageError):
    """A night may not be planned: the server (``scope`` "server") or the member planning it
    (``scope`` "member") already has ``limit`` nights to come."""

    def __init__(self, scope: str, limit: int) -> None:
        super().__init__(f"the {scope} already has {limit} planned nights")
        self.scope = scope
        self.limit = limit


def schedule_row(row: Row) -> ScheduleRow:
    return ScheduleRow(
        id=int(row["id"]),
        kind=str(row["kind"]),
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        host_id=int(row["host_id"]),
        starts_at=float(row["starts_at"]),
        lobby_minutes=int(row["lobby_minutes"]),
        weekly=bool(row["weekly"]),
        options=json.loads(row["options"]),
        status=ScheduleStatus(row["status"]),
        event_id=None if row["event_id"] is None else int(row["event_id"]),
        game_id=None if row["game_id"] is None else int(row["game_id"]),
    )


class LeaseLostError(StorageError):
    """A game write refused by its fence: this bot client no longer holds the lease of the
    game's shard under the token it was started with (another process runs it, or the lease
    lapsed); nothing was written."""

    def __init__(self, shard_id: int) -> None:
        super().__init__(f"this process does not hold the lease of shard {shard_id}")
        self.shard_id = shard_id


def game_row(row: Row) -> GameRow:
    return GameRow(
        id=int(row["id"]),
        kind=str(row["kind"]),
        guild_id=row["guild_id"],
        channel_id=int(row["channel_id"]),
        host_id=int(row["host_id"]),
        status=GameStatus(row["status"]),
        seed=None if row["seed"] is None else bytes(row["seed"]),
        options=json.loads(row["options"]),
        state=str(row["state"]),
        lobby_message_id=row["lobby_message_id"],
        created_at=float(row["created_at"]),
        started_at=row["started_at"],
        finished_at=row["finished_at"],
        next_deal=int(row["next_deal"]),
    )


def player_row(row: Row) -> PlayerRow:
    return PlayerRow(
        game_id=int(row["game_id"]),
        user_id=int(row["user_id"]),
        seat=int(row["seat"]),
        display_name=str(row["display_name"]),
        locale=str(row["locale"]),
        false_claims=int(row["false_claims"]),
        out=bool(row["out"]),
        delivery=Delivery(row["delivery"]),
    )


def board_row(row: Row) -> BoardRow:
    return BoardRow(
        id=int(row["id"]),
        game_id=int(row["game_id"]),
        user_id=int(row["user_id"]),
        board_index=int(row["board_index"]),
        deal_index=int(row["deal_index"]),
        state=str(row["state"]),
        code=str(row["code"]),
        out=bool(row["out"]),
    )


def server_settings_row(row: Row) -> ServerSettings:
    defaults = json.loads(row["game_defaults"])
    return ServerSettings(
        guild_id=int(row["guild_id"]),
        language=ServerLanguage(row["language"]),
        host_role_id=None if row["host_role_id"] is None else int(row["host_role_id"]),
        time_zone=str(row["time_zone"]),
        game_defaults={
            str(kind): GameDefaults(
                interval=None if values.get("interval") is None else int(values["interval"]),
                prizes=None if values.get("prizes") is None else str(values["prizes"]),
                deck=None if values.get("deck") is None else str(values["deck"]),
                claims=None if values.get("claims") is None else str(values["claims"]),
                near_misses=(
                    None if values.get("near_misses") is None else bool(values["near_misses"])
                ),
                voice=None if values.get("voice") is None else int(values["voice"]),
                voice_language=(
                    None if values.get("voice_language") is None else str(values["voice_language"])
                ),
            )
            for kind, values in defaults.items()
        },
    )
