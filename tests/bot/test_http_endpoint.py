"""The operator's HTTP endpoint, scraped during a real game: health, Prometheus metrics, and the
verification page the end-of-game message links to."""

from __future__ import annotations

import re
from urllib.parse import unquote

import aiohttp

from emulator import Emulator, Fault
from tests.cogs.helpers import button_id, run_calls


def sample(text: str, name: str, **labels: str) -> float:
    """The value of metric ``name`` with ``labels`` in Prometheus' text format (0 if absent)."""
    wanted = ",".join(f'{key}="{value}"' for key, value in sorted(labels.items()))
    pattern = re.escape(name) + (r"\{" + re.escape(wanted) + r"\}" if labels else "") + r" (\S+)"
    found = re.search(r"^" + pattern + r"$", text, re.MULTILINE)
    return float(found[1]) if found else 0.0


async def test_health_metrics_and_the_page_during_a_game(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    host = guild.add_member("host")
    shut = guild.add_member("shut", dms_open=False)
    bot = await start_bot(
        time_scale=100,
        settings_changes={"metrics_port": 0, "public_url": "https://night.example"},
    )
    base = f"http://127.0.0.1:{bot.http_endpoint.port}"
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{base}/healthz") as health:
            assert health.status == 200
            assert await health.json() == {"ok": True, "gateway": True, "database": True}

        lobby = await (await host.slash("loteria start", prizes="full")).reply()
        for member in (host, shut):
            await (await member.click(lobby, button_id(lobby, "join"))).reply()
        emulator.take_failures("dm_closed")
        await (await host.click(lobby, button_id(lobby, "start"))).reply()
        (game,) = await bot.storage.live_games()
        emulator.inject_fault(Fault(429, method="POST", route="/channels/{channel_id}/messages", limit=1))
        await run_calls(bot.get_cog("Lotería"), game.id, 3)
        await (await shut.slash("loteria claim")).reply()  # a false claim

        async with http.get(f"{base}/metrics") as scraped:
            assert scraped.status == 200
            text = await scraped.text()
        assert sample(text, "gamenight_calls_total", kind="loteria") == 3
        assert sample(text, "gamenight_claims_total", kind="loteria", verdict="false") == 1
        assert sample(text, "gamenight_live_games", kind="loteria") == 1
        assert sample(text, "gamenight_live_games", kind="housie") == 0
        assert sample(text, "gamenight_dm_fallbacks_total", kind="loteria") == 1
        assert sample(text, "gamenight_rest_errors_total", status="429") == 1
        # Every interaction so far was timed: the slash commands, the clicks, the claim.
        assert sample(text, "gamenight_interaction_ack_seconds_count") >= 5
        assert sample(text, "gamenight_interaction_ack_seconds_bucket", le="3.0") == sample(
            text, "gamenight_interaction_ack_seconds_count"
        )

        await (await host.slash("loteria stop")).reply()
        summary = await channel.wait_for_message(lambda m: "is over" in m.content)
        link = re.search(r"\((https://night\.example/verify/verify\.html#[^)\s]+)\)", summary.content)
        assert link, summary.content
        fragment = unquote(link[1].split("#", 1)[1])
        assert f"seed={game.seed.hex()}" in fragment
        assert "calls=3" in fragment
        assert "boards=1*2" in fragment
        async with http.get(f"{base}/verify/verify.html") as page:
            assert page.status == 200
            assert "<html" in (await page.text()).lower()
        async with http.get(f"{base}/verify", allow_redirects=False) as moved:
            assert moved.status == 302
        async with http.get(f"{base}/verify/../storage.py") as escape:
            assert escape.status in {403, 404}

        # The database's reading connection gone: unhealthy, and the body says which part.
        await bot.storage._backend._reader.close()  # type: ignore[attr-defined]
        async with http.get(f"{base}/healthz") as down:
            assert down.status == 503
            assert await down.json() == {"ok": False, "gateway": True, "database": False}
