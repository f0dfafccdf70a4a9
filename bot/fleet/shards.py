"""Which shards a bot process runs (``GAMENIGHT_SHARDS``), and which shard a server is on.

Discord splits a bot's servers over ``shard_count`` shards by ``(guild_id >> 22) % shard_count``
(direct messages belong to shard 0), and a process connects the shards it runs. One process can
run them all (``auto``: as many as Discord recommends, discord.py's ``AutoShardedBot``); a fleet
of processes splits them, each naming its own (``0-7/32``), or holding none until a process
stops (``standby/32``). A fleet needs PostgreSQL: who runs which shard is a lease there (see
``bot.fleet.process``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.plurals import counted

# Discord has no documented maximum; this keeps a typo (3200 for 32) from planning 3,200 leases.
MAX_SHARDS = 4096
FORMS = "auto, a list of shards out of a count such as 0-7/32 or 3,5/8, or standby/32"


class ShardSettingError(ValueError):
    """``GAMENIGHT_SHARDS`` cannot be read; the message says why."""


@dataclass(frozen=True, slots=True)
class ShardPlan:
    """``count`` None: one process runs every shard Discord recommends. Otherwise the process
    is one of a fleet of ``count`` shards and runs ``own`` by its settings (none: a standby),
    and whatever shards it takes over from a process that stopped."""

    count: int | None = None
    own: tuple[int, ...] = ()

    @property
    def fleet(self) -> bool:
        """Whether the process is one of a fleet (it names a shard count)."""
        return self.count is not None

    @property
    def standby(self) -> bool:
        """Whether the process is a fleet's standby (no shards of its own)."""
        return self.count is not None and not self.own

    def describe(self) -> str:
        """The plan in words, for the log and ``check-config``."""
        if self.count is None:
            return "every shard Discord recommends, in this process"
        if not self.own:
            return f"standby for {counted(self.count, 'shard', 'shards')}"
        return f"shards {format_shards(self.own)} of {self.count}"


AUTO = ShardPlan()


def parse_shards(text: str) -> ShardPlan:
    """``GAMENIGHT_SHARDS``: empty or ``auto``; ``standby/N``; or shard ids and ranges out of
    ``N`` (``0-7/32``, ``3,5/8``, ``0-3,8-11/32``). Raises ``ShardSettingError``."""
    value = text.strip().lower()
    if value in {"", "auto"}:
        return AUTO
    which, slash, count_text = value.rpartition("/")
    if not slash or not _is_number(count_text.strip()):
        raise ShardSettingError(f"{text.strip()!r} is not {FORMS}")
    count = int(count_text)
    if not 1 <= count <= MAX_SHARDS:
        raise ShardSettingError(f"the shard count must be 1 to {MAX_SHARDS}, got {count}")
    which = which.strip()
    if which == "standby":
        return ShardPlan(count, ())
    own: set[int] = set()
    for part in which.split(","):
        first, dash, last = part.strip().partition("-")
        if not _is_number(first.strip()) or (dash and not _is_number(last.strip())):
            raise ShardSettingError(f"{part.strip()!r} in {text.strip()!r} is not {FORMS}")
        low, high = int(first), int(last) if dash else int(first)
        if low > high:
            raise ShardSettingError(f"the range {part.strip()} runs backwards")
        if high >= count:
            raise ShardSettingError(
                f"shard {high} is not one of {count} shards (they are numbered 0 to {count - 1})"
            )
        overlap = own & set(range(low, high + 1))
        if overlap:
            raise ShardSettingError(f"shard {min(overlap)} is named twice in {text.strip()!r}")
        own |= set(range(low, high + 1))
    return ShardPlan(count, tuple(sorted(own)))


def _is_number(text: str) -> bool:
    # ASCII digits only: str.isdigit also takes "²", which int() refuses.
    return text.isascii() and text.isdigit()


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard Discord sends a server's events on; direct messages (no server) are shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


def format_shards(shards: Iterable[int]) -> str:
    """``0-3,6`` for shards 0, 1, 2, 3 and 6 (``-`` for none)."""
    ids = sorted(set(shards))
    runs: list[str] = []
    for shard in ids:
        if runs and shard == int(runs[-1].rpartition("-")[2]) + 1:
            runs[-1] = f"{runs[-1].partition('-')[0]}-{shard}"
        else:
            runs.append(str(shard))
    return ",".join(runs) or "-"
