"""The verification page's link is posted only where players can open it: with
``GAMENIGHT_PUBLIC_URL`` set, a link to the bot's public page; without it, none (a ``file://``
link would open on the bot's machine only), while the seed is still revealed and
``/<game> verify`` still checks the game."""

from __future__ import annotations

import pytest

from emulator import Emulator
from engine.fairness import commitment
from tests.cogs.helpers import button_id, run_calls

SEED = bytes(range(40, 72))


async def finished_game(emulator: Emulator, start_bot, kind: str, **settings: object):
    """A game of ``kind`` with one player, three calls, stopped by its host; returns the host,
    the channel and the game's end-of-game summary."""
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    host = guild.add_member("host")
    bot = await start_bot(time_scale=100, seed_source=lambda: SEED, settings_changes=settings)
    lobby = await (await host.slash(f"{kind} start")).reply()
    await (await host.slash(f"{kind} join")).reply()
    await (await host.click(lobby, button_id(lobby, "start"))).reply()
    (game,) = await bot.storage.live_games(kind)
    await run_calls(bot.get_cog("Lotería" if kind == "loteria" else "Housie"), game.id, 3)
    await (await host.slash(f"{kind} stop")).reply()
    summary = await channel.wait_for_message(lambda m: "is over" in m.content, timeout=10)
    return host, game.id, summary


@pytest.mark.parametrize("kind", ["loteria", "housie"])
async def test_without_a_public_address_no_link_is_posted(emulator: Emulator, start_bot, kind):
    host, game_id, summary = await finished_game(emulator, start_bot, kind)
    assert SEED.hex() in summary.content  # the seed is revealed all the same
    assert f"/{kind} verify game:{game_id}" in summary.content
    assert "file:" not in summary.content
    assert "](" not in summary.content  # no link of any kind
    assert "verify.html" not in summary.content

    verified = await (await host.slash(f"{kind} verify", game=game_id)).reply()
    assert "verified" in verified.content
    assert commitment(SEED) in verified.content
    assert "file:" not in verified.content
    assert "](" not in verified.content


async def test_with_a_public_address_the_link_opens_the_bots_page(emulator: Emulator, start_bot):
    host, game_id, summary = await finished_game(
        emulator, start_bot, "loteria", public_url="https://games.example"
    )
    link = f"(https://games.example/verify/verify.html#v=1&game=loteria&id={game_id}&seed={SEED.hex()}&"
    assert link in summary.content
    assert "Check it yourself" in summary.content
    verified = await (await host.slash("loteria verify", game=game_id)).reply()
    assert link in verified.content
