"""``python -m bot`` as one fixed shard, for ``bench_fleet.py --static``.

``BENCH_SHARD=i/n`` runs the bot as shard ``i`` of ``n`` through discord.py's own ``shard_ids``
and ``shard_count`` (one gateway session, no lease, no failover), on its own database: a fleet's
processes without ``GAMENIGHT_SHARDS`` (which shares one PostgreSQL database under leases).
Everything else is ``gamenight run``: the same settings, endpoints, logging and clean stop.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys

import discord

from bot.app import run_bot
from bot.config import Settings
from bot.fleet.endpoints import apply_endpoints


def main() -> int:
    shard, _, count = os.environ["BENCH_SHARD"].partition("/")
    settings = Settings.load()
    discord.utils.setup_logging(level=logging.getLevelName(settings.log_level), root=True)
    apply_endpoints(settings.api_base_url, settings.gateway_url)
    asyncio.run(run_bot(settings, shard_ids=[int(shard)], shard_count=int(count)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
