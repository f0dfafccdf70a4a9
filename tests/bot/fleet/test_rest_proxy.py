"""The REST proxy (``gamenight rest-proxy``) between bot processes and Discord: the emulator,
with Discord's rate limits on, stands for Discord; discord.py's own HTTP client and the real bot
talk to it through the proxy."""

from __future__ import annotations

import asyncio
import gc
import io
import json
import os
import signal
import sys
import time
import tracemalloc
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import aiohttp
import discord
import pytest
from discord.http import HTTPClient, handle_message_parameters

from bot.fleet import rest_proxy
from bot.fleet.rest_proxy import GlobalBudget, ProxyOptions, RestProxy, is_exempt, redacted
from bot.ops.cli import main
from emulator import Emulator, RateLimits
from emulator.driver import Member
from emulator.endpoints import endpoints
from emulator.rest import RequestRecord
from tests.bot.flood import (
    Connection,
    as_systemd_would,
    close_all,
    many_descriptors,
    open_idle,
    play_tictactoe,
    raw_request,
    wait_all_closed,
)
from tests.cogs.helpers import button_id

__all__ = ["many_descriptors"]  # a fixture

ROOT = Path(__file__).resolve().parents[3]
CROWD = 30  # members joining in each of two servers


@pytest.fixture
async def proxy(emulator: Emulator, request: pytest.FixtureRequest) -> AsyncIterator[RestProxy]:
    """A REST proxy in front of the emulator; its global limit by indirect parametrisation
    (``@pytest.mark.parametrize("proxy", [20], indirect=True)``), Discord's by default."""
    limit: dict[str, int] = {"limit": request.param} if hasattr(request, "param") else {}
    options = ProxyOptions(token=emulator.token, upstream=emulator.api_base_url, port=0, **limit)
    async with RestProxy(options) as running:
        yield running


def global_429s(records: Sequence[RequestRecord]) -> int:
    """Requests the emulator refused for the bot's global limit."""
    return sum(
        1
        for r in records
        if r.status == 429
        and not r.injected
        and isinstance(r.response, dict)
        and r.response["global"]
    )


async def logged_in(emu: Emulator, count: int) -> list[HTTPClient]:
    """``count`` discord.py REST clients with the bot's token, each with its own connections,
    as separate processes would have."""
    clients = [HTTPClient(asyncio.get_running_loop()) for _ in range(count)]
    for client in clients:
        await client.static_login(emu.token)
    return clients


async def send_dm(client: HTTPClient, member: Member, content: str) -> None:
    """What the bot does to deal a board: open the DM channel, send a message with a picture."""
    channel = await client.start_private_message(member.id)
    picture = discord.File(io.BytesIO(png_bytes(member.id)), "board.png", description="a board")
    with handle_message_parameters(content=content, file=picture) as params:
        await client.send_message(int(channel["id"]), params=params)


async def route_bots_through(proxy: RestProxy) -> None:
    """Every bot in this process talks to Discord through ``proxy`` from now on, as with
    DISCORD_API_BASE_URL; their start-up went straight to the emulator, so its global window
    holding those requests is let pass first."""
    discord.http.Route.BASE = proxy.api_base_url
    await asyncio.sleep(RateLimits().global_window)


def png_bytes(seed: int) -> bytes:
    return b"\x89PNG\r\n\x1a\n" + seed.to_bytes(8, "big") * 512


# -- the global budget -----------------------------------------------------------------------


async def test_a_budget_lends_each_token_again_a_window_after_its_answer():
    budget = GlobalBudget(limit=3, window=0.2)
    taken: list[tuple[int, float]] = []

    async def request(number: int) -> None:
        await budget.take()
        taken.append((number, time.monotonic()))
        await asyncio.sleep(0.01)  # Discord answering
        budget.give_back()

    await asyncio.gather(*(request(n) for n in range(9)))
    # First come, first served; three at once, and never a fourth within a window.
    assert [number for number, _ in taken] == list(range(9))
    moments = [moment for _, moment in taken]
    assert all(later - earlier >= 0.2 for earlier, later in zip(moments, moments[3:], strict=False))
    assert budget.free == 0
    assert budget.waiting == 0


async def test_a_stopped_budget_lends_nothing_until_the_stop_ends():
    budget = GlobalBudget(limit=50, window=1.0)
    budget.stop(0.3)
    waited = await budget.take()
    assert waited >= 0.29
    budget.give_back()


def test_a_budget_needs_a_limit_and_a_window():
    with pytest.raises(ValueError, match="limit >= 1"):
        GlobalBudget(limit=0, window=1.0)


@pytest.mark.parametrize(
    ("path", "exempt"),
    [
        ("/interactions/1234/aW50ZXJhY3Rpb24/callback", True),
        ("/webhooks/5678/aW50ZXJhY3Rpb24", True),
        ("/webhooks/5678/aW50ZXJhY3Rpb24/messages/@original", True),
        ("/webhooks/5678/aW50ZXJhY3Rpb24/messages/91011", True),
        ("/channels/1234/messages", False),
        ("/users/@me/channels", False),
        ("/interactions/1234/aW50ZXJhY3Rpb24/callback/extra", False),
        ("/applications/1/commands", False),
    ],
)
def test_only_interaction_endpoints_are_free_of_the_global_limit(path: str, exempt: bool):
    assert is_exempt(path) is exempt


def test_log_lines_name_routes_without_tokens_or_ids():
    assert (
        redacted("/interactions/123456789012345678/secret-token/callback")
        == "/interactions/{id}/{token}/callback"
    )
    assert redacted("/webhooks/123456789012345678/secret/messages/@original") == (
        "/webhooks/{id}/{token}/messages/@original"
    )
    assert redacted("/channels/123456789012345678/messages") == "/channels/{id}/messages"


# -- through the emulator ----------------------------------------------------------------------


# A global limit of 20 a second, not Discord's 50: on a busy machine two bots may not ask 50 a
# second between them, and the test is about the sharing, not the number.
GLOBAL_LIMIT = 20


@pytest.mark.emulator(rate_limits=RateLimits(global_requests=GLOBAL_LIMIT), max_concurrency=2)
@pytest.mark.parametrize("through_proxy", [True, False], ids=["proxy", "direct"])
@pytest.mark.parametrize("proxy", [GLOBAL_LIMIT], indirect=True)
async def test_two_bot_processes_share_the_global_limit_through_the_proxy(
    emulator: Emulator, start_bot, proxy: RestProxy, tmp_path: Path, through_proxy: bool
):
    """Two shards of one bot, each with its own database, deal a crowd each at the same moment:
    about 120 DM requests that count against the bot's global limit. Through the proxy Discord
    never refuses one; straight to Discord, the same load is refused some (discord.py
    retries)."""
    guilds = [emulator.add_guild(f"Night {shard}", shard=(shard, 2)) for shard in (0, 1)]
    hosts = [guild.add_member("host") for guild in guilds]
    crowds = [[guild.add_member(f"p{i}") for i in range(CROWD)] for guild in guilds]
    for guild in guilds:
        guild.add_channel("general")
    bots = [
        await start_bot(
            database=tmp_path / f"shard{shard}.sqlite3", shard_ids=[shard], shard_count=2
        )
        for shard in (0, 1)
    ]
    assert [bot.shard_ids for bot in bots] == [[0], [1]]
    if through_proxy:
        await route_bots_through(proxy)
    lobbies = [await (await host.slash("loteria start", prizes="line")).reply() for host in hosts]
    first = len(emulator.requests)

    joins = await asyncio.gather(
        *(
            member.click(lobby, button_id(lobby, "join"))
            for lobby, crowd in zip(lobbies, crowds, strict=True)
            for member in crowd
        )
    )
    await asyncio.gather(*(join.reply(60) for join in joins))
    everyone = [member for crowd in crowds for member in crowd]
    await emulator.wait_until(
        lambda: all(member.dms for member in everyone) or None, 60, lambda: "every board by DM"
    )

    assert all(member.dms[0].attachments for member in everyone)
    dealt = emulator.requests[first:]
    dm_sends = [r for r in dealt if r.route == "/channels/{channel_id}/messages" and r.files]
    assert len(dm_sends) >= 2 * CROWD
    if through_proxy:
        assert global_429s(dealt) == 0
        assert proxy.stats.delayed > 0  # more than the limit was asked for: the proxy paced it
        assert proxy.stats.exempt >= 2 * CROWD  # the Join acknowledgements, at once
    else:
        assert global_429s(dealt) > 0
        assert proxy.stats.forwarded == 0


@pytest.mark.emulator(rate_limits=True)
async def test_an_acknowledgement_never_queues_behind_dms(
    emulator: Emulator, start_bot, proxy: RestProxy
):
    """Another process of the bot has DM requests waiting for the global budget; a member's
    command is acknowledged (with its picture) while they still wait."""
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    player = guild.add_member("player")
    crowd = [guild.add_member(f"p{i}") for i in range(100)]
    await start_bot(time_scale=1, extensions=("cogs.dots",))
    await route_bots_through(proxy)
    (other_process,) = await logged_in(emulator, 1)
    # A DM to each of 100 members at once (channels already open; discord.py sends one at a
    # time per route until Discord's headers say more): 50 go, the rest wait a window.
    channels = [emulator.open_dm_channel(member.user) for member in crowd]
    flood = asyncio.gather(
        *(
            other_process.send_message(channel.id, params=handle_message_parameters("hello"))
            for channel in channels
        )
    )
    try:
        await emulator.wait_until(lambda: proxy.waiting >= 40 or None, 10, lambda: "a queue")
        command = await player.slash("dots play")  # against the bot: a picture at once
        await emulator.wait_until(lambda: command.acknowledged or None, 5, lambda: "the answer")
        still_waiting = proxy.waiting
        board = await command.reply()
    finally:
        flood.cancel()
        await asyncio.gather(flood, return_exceptions=True)
        await other_process.close()

    assert still_waiting >= 20, "the acknowledgement waited for the DMs' budget"
    assert board.attachments
    assert board.attachments[0].filename.endswith(".png")
    assert global_429s(emulator.requests) == 0


async def test_a_burst_of_acknowledgements_passes_at_once(emulator: Emulator, start_bot):
    """60 commands at once through a proxy allowing 10 requests a second: were answers held
    to any budget, most would miss Discord's 3 s (the emulator fails the test)."""
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    players = [guild.add_member(f"p{i}") for i in range(60)]
    await start_bot(time_scale=1, extensions=("cogs.triangle",))
    options = ProxyOptions(token=emulator.token, upstream=emulator.api_base_url, port=0, limit=10)
    async with RestProxy(options) as slow_proxy:
        await route_bots_through(slow_proxy)
        commands = await asyncio.gather(*(p.slash("triangle play") for p in players))
        boards = await asyncio.gather(*(command.reply(10) for command in commands))
    assert all(board.content.startswith("## Tricky Triangle") for board in boards)
    assert slow_proxy.stats.exempt >= len(players)


async def test_multipart_uploads_arrive_intact(emulator: Emulator, proxy: RestProxy):
    """discord.py's multipart message (payload_json and two files) is checked by the emulator
    against Discord's OpenAPI spec, and the files arrive byte for byte."""
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    pictures = {"tabla.png": png_bytes(1), "ticket.png": png_bytes(2) * 40}  # the second 320 KiB
    with endpoints(proxy.api_base_url, emulator.gateway_url):
        (client,) = await logged_in(emulator, 1)
        files = [
            discord.File(io.BytesIO(data), name, description=f"alt text of {name}")
            for name, data in pictures.items()
        ]
        with handle_message_parameters(content="¡Lotería! 🎉", files=files) as params:
            await client.send_message(channel.id, params=params)
        await client.close()

    (message,) = channel.messages
    assert message.content == "¡Lotería! 🎉"
    assert {a.filename: a.data for a in message.attachments} == pictures
    assert [a.description for a in message.attachments] == [
        "alt text of tabla.png",
        "alt text of ticket.png",
    ]
    assert proxy.stats.forwarded == 2  # logging in, the message


@pytest.mark.emulator(rate_limits=RateLimits(global_requests=5), strict=False)
async def test_a_global_429_from_discord_is_passed_back_and_stops_the_budget(
    emulator: Emulator, proxy: RestProxy
):
    """Discord refuses what the proxy let through (here its limit is 50/s, Discord's 5/s): the
    client gets Discord's 429 as it was, and the bot's next requests wait it out."""
    headers = {"Authorization": f"Bot {emulator.token}"}
    async with aiohttp.ClientSession() as session:

        async def me() -> tuple[int, dict[str, str], dict[str, object]]:
            async with session.get(f"{proxy.api_base_url}/users/@me", headers=headers) as answer:
                return answer.status, dict(answer.headers), await answer.json()

        answers = await asyncio.gather(*(me() for _ in range(12)))
    refused = [(headers, body) for status, headers, body in answers if status == 429]
    assert refused
    headers, body = refused[0]
    assert body["global"] is True
    assert body["retry_after"] > 0
    assert headers["X-RateLimit-Global"] == "true"
    assert "Via" in headers  # discord.py retries only a 429 that carries it
    assert proxy.stats.upstream_429 == {"global": len(refused)}
    assert proxy.budget.stopped_until > time.monotonic()


async def test_healthz_and_metrics(emulator: Emulator, proxy: RestProxy):
    async with aiohttp.ClientSession() as session:
        async with session.get(
            f"{proxy.api_base_url}/users/@me", headers={"Authorization": f"Bot {emulator.token}"}
        ) as answer:
            assert answer.status == 200
        async with session.get(f"{proxy.base_url}/healthz") as answer:
            assert answer.status == 200
            health = await answer.json()
        async with session.get(f"{proxy.base_url}/metrics") as answer:
            metrics = await answer.text()
    assert health["ok"] is True
    assert health["upstream"] == emulator.api_base_url
    assert (health["limit"], health["forwarded"], health["unauthorized"]) == (50, 1, 0)
    assert emulator.token not in json.dumps(health)
    assert 'gamenight_proxy_requests_total{limit="global"} 1.0' in metrics


async def test_an_unreachable_discord_is_a_502(unused_tcp_port: int):
    upstream = f"http://127.0.0.1:{unused_tcp_port}/api/v10"
    options = ProxyOptions(token="the-token", upstream=upstream, port=0)
    async with (
        RestProxy(options) as proxy,
        aiohttp.ClientSession(headers={"Authorization": "Bot the-token"}) as session,
        session.get(f"{proxy.api_base_url}/gateway") as answer,
    ):
        assert answer.status == 502
        assert "could not reach Discord" in (await answer.json())["message"]
    assert proxy.stats.upstream_failures == 1


# -- the command ---------------------------------------------------------------------------------


async def test_the_rest_proxy_command_serves_until_sigterm(emulator: Emulator):
    process = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "bot", "rest-proxy", "--port", "0"),
        *("--upstream", emulator.api_base_url),
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": emulator.token},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        assert process.stdout is not None
        line = await asyncio.wait_for(process.stdout.readline(), 30)
        name, _, api_base_url = line.decode().strip().partition("=")
        assert name == "DISCORD_API_BASE_URL"
        async with (
            aiohttp.ClientSession() as session,
            session.get(
                f"{api_base_url}/users/@me", headers={"Authorization": f"Bot {emulator.token}"}
            ) as answer,
        ):
            assert answer.status == 200
            assert (await answer.json())["username"] == emulator.bot_user.name
        process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(process.wait(), 15) == 0
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert process.stderr is not None
    log = (await process.stderr.read()).decode()
    assert "REST proxy on" in log
    assert emulator.token not in log


@pytest.mark.parametrize(
    ("arguments", "complaint"),
    [
        (["--limit", "0"], "'0' is not a number above 0"),
        (["--port", "99999"], "is not a port"),
        (["--upstream", "discord.com"], "is not an http:// or https:// URL"),
    ],
)
def test_bad_rest_proxy_options_exit_2(
    arguments: list[str], complaint: str, capsys: pytest.CaptureFixture[str]
):
    assert main(["rest-proxy", *arguments]) == 2
    assert complaint in capsys.readouterr().err


# -- the bot's token only --------------------------------------------------------------------


async def test_only_the_bots_token_is_forwarded_and_nothing_is_kept_per_token(
    emulator: Emulator, proxy: RestProxy, caplog: pytest.LogCaptureFixture
):
    """2,000 distinct tokens that are not the bot's: each answered 401 by the proxy as Discord
    would, none forwarded (Discord counts invalid requests against the fleet's address), no
    memory kept for any, one log line; the bot's own token still goes through."""
    first = len(emulator.requests)
    tracemalloc.start(10)
    try:
        async with aiohttp.ClientSession() as session:

            async def me(authorization: str | None) -> tuple[int, object]:
                headers = {} if authorization is None else {"Authorization": authorization}
                async with session.get(f"{proxy.api_base_url}/users/@me", headers=headers) as r:
                    return r.status, await r.json()

            await asyncio.gather(*(me(f"Bot warm-up.{n}") for n in range(200)))
            gc.collect()
            before = tracemalloc.take_snapshot()
            for wave in range(10):
                answers = await asyncio.gather(
                    *(me(f"Bot stranger.{wave}.{n}") for n in range(200))
                )
                assert answers == [(401, {"message": "401: Unauthorized", "code": 0})] * 200
            gc.collect()
            after = tracemalloc.take_snapshot()
            assert await me(None) == (401, {"message": "401: Unauthorized", "code": 0})
            assert await me(emulator.token) == (401, {"message": "401: Unauthorized", "code": 0})
            status, body = await me(f"Bot {emulator.token}")
    finally:
        tracemalloc.stop()

    assert status == 200
    assert body["username"] == emulator.bot_user.name  # type: ignore[index]
    forwarded = emulator.requests[first:]
    assert [r.route for r in forwarded] == ["/users/@me"]  # only the bot's
    assert proxy.stats.unauthorized == 2202
    # What the proxy's own code still holds after 2,000 more tokens (the budget per token it
    # used to keep was about 3.4 KB each: 6.8 MB here).
    mine = tracemalloc.Filter(True, rest_proxy.__file__, all_frames=True)
    grown = sum(
        stat.size_diff
        for stat in after.filter_traces([mine]).compare_to(before.filter_traces([mine]), "filename")
    )
    assert grown < 64 * 1024, f"{grown} bytes kept for 2,000 tokens"
    lines = [r.getMessage() for r in caplog.records if r.name == "bot.fleet.rest_proxy"]
    refusals = [line for line in lines if "without the bot's token" in line]
    assert len(refusals) == 1
    assert "stranger" not in caplog.text
    assert "warm-up" not in caplog.text


async def test_interaction_routes_pass_without_a_token_but_not_with_another(
    emulator: Emulator, proxy: RestProxy
):
    """discord.py answers interactions without an Authorization header (the route carries the
    interaction's token): those pass; the same route with a stranger's token does not."""
    path = "/interactions/123456789012345678/not-a-real-token/callback"
    body = {"type": 1}
    first = len(emulator.requests)
    async with aiohttp.ClientSession() as session:
        async with session.post(f"{proxy.api_base_url}{path}", json=body) as answer:
            passed = answer.status
        async with session.post(
            f"{proxy.api_base_url}{path}", json=body, headers={"Authorization": "Bot stranger"}
        ) as answer:
            refused = answer.status
    emulator.take_failures("unknown_interaction")  # Discord's own verdict on the first
    assert passed == 404
    assert refused == 401
    assert [r.route for r in emulator.requests[first:]] == [
        "/interactions/{interaction_id}/{interaction_token}/callback"
    ]
    assert (proxy.stats.exempt, proxy.stats.unauthorized) == (1, 1)


async def test_the_rest_proxy_needs_the_bots_token(tmp_path: Path):
    """Without DISCORD_TOKEN (no .env in its folder either) it does not start: one line, 2."""
    environment = {key: value for key, value in os.environ.items() if key != "DISCORD_TOKEN"}
    process = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "bot", "rest-proxy", "--port", "0"),
        cwd=tmp_path,
        env={**environment, "PYTHONPATH": str(ROOT)},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        out, err = await asyncio.wait_for(process.communicate(), 30)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert (process.returncode, out) == (2, b"")
    assert err.count(b"\n") == 1
    assert b"DISCORD_TOKEN is not set" in err


# -- idle connections ----------------------------------------------------------------------------


async def test_idle_connections_never_starve_the_proxy_under_systemds_file_limit(
    emulator: Emulator, start_bot, many_descriptors: int, tmp_path: Path
):
    """``gamenight rest-proxy`` with systemd's default 1,024 open files and short timeouts:
    2,000 idle or slow connections while a member plays through it; the game works,
    /healthz answers, every idle one is closed, and the log gets a line or two."""
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    alice = guild.add_member("alice")
    bot = await start_bot(time_scale=1, extensions=("cogs.tictactoe",))
    log_path = tmp_path / "proxy.log"
    with log_path.open("wb") as log_file:
        process = await asyncio.create_subprocess_exec(
            *(sys.executable, "-m", "bot", "rest-proxy", "--port", "0"),
            *("--upstream", emulator.api_base_url, "--idle-timeout", "2", "--header-timeout", "1"),
            cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": emulator.token},
            stdout=asyncio.subprocess.PIPE,
            stderr=log_file,
            preexec_fn=as_systemd_would,  # systemd's soft limit on open files
        )
    flood: list[Connection] = []
    try:
        assert process.stdout is not None
        line = await asyncio.wait_for(process.stdout.readline(), 30)
        api_base_url = line.decode().strip().partition("=")[2]
        port = int(api_base_url.rsplit(":", 1)[1].split("/")[0])
        await route_bots_through_url(api_base_url)
        lines_before = len(log_path.read_bytes().splitlines())

        flood = [
            *await open_idle(port, 1900),
            *await open_idle(port, 100, partial=b"POST /api/v10/channels HTTP/1.1\r\n"),
        ]
        assert len(flood) == 2000  # nobody turned away at the door
        health = await raw_request(port, "/healthz")
        assert health.startswith(b"HTTP/1.1 200"), health
        result = await play_tictactoe(alice, channel)
        assert f"{alice.mention} wins" not in result
        await wait_all_closed(flood, timeout=60)
        health = json.loads((await raw_request(port, "/healthz")).split(b"\r\n\r\n", 1)[1])
        logged = log_path.read_bytes().splitlines()[lines_before:]
    finally:
        close_all(flood)
        process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(process.wait(), 30)
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
    assert process.returncode == 0
    assert bot.is_ready()
    assert health["forwarded"] > 0  # the bot's moves and the result went through it
    assert health["exempt"] > 0  # and the acknowledgements
    assert health["connections"] < 20  # the bot's own pool, and this request
    assert len(logged) <= 3, b"\n".join(logged[:20]).decode(errors="replace")
    assert any(b"341 connections open (at most 341)" in line for line in logged)


async def route_bots_through_url(api_base_url: str) -> None:
    """As :func:`route_bots_through`, for a proxy in another process."""
    discord.http.Route.BASE = api_base_url
    await asyncio.sleep(RateLimits().global_window)
