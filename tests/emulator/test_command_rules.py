"""Application command rules beyond the spec (Interactions: Application Commands), with
``command_rules=True``: names, descriptions, options, choices, 8,000 characters, how many
commands a scope holds, and 200 creates a day (a bulk overwrite counts the new ones)."""

from __future__ import annotations

import json
from typing import Any

import aiohttp

from emulator import Emulator, run_bot
from emulator.rules import command_name_errors, command_rule_errors
from tests.emulator.minimal_bot import MinimalBot


def slash(name: str = "play", **changes: Any) -> dict[str, Any]:
    return {"name": name, "description": "Plays a game", "type": 1, **changes}


def option(name: str = "game", **changes: Any) -> dict[str, Any]:
    return {"type": 3, "name": name, "description": "Which game", **changes}


async def put(emu: Emulator, commands: list[dict[str, Any]], guild_id: int | None = None):
    return await _send(emu, "PUT", commands, guild_id)


async def post(emu: Emulator, command: dict[str, Any], guild_id: int | None = None):
    return await _send(emu, "POST", command, guild_id)


async def _send(emu: Emulator, method: str, body: Any, guild_id: int | None) -> tuple[int, Any]:
    scope = "" if guild_id is None else f"/guilds/{guild_id}"
    async with (
        aiohttp.ClientSession() as session,
        session.request(
            method,
            f"{emu.api_base_url}/applications/{emu.application_id}{scope}/commands",
            data=json.dumps(body),
            headers={"Authorization": f"Bot {emu.token}", "Content-Type": "application/json"},
        ) as response,
    ):
        return response.status, await response.json()


def test_names_follow_discords_pattern_and_are_lowercase():
    for good in ("loteria", "lotería", "claim-prize", "o'clock", "ビンゴ", "नमस्ते", "สวัสดี", "x1"):
        assert command_name_errors(good, "name") == [], good
    for bad in ("Loteria", "two words", "emoji🎲", "", "x" * 33, "a.b"):
        assert command_name_errors(bad, "name"), bad


def test_the_rules_of_one_command():
    assert command_rule_errors(slash(options=[option(), option("size", type=4)])) == []
    assert command_rule_errors(slash(description=""))  # 1-100 for a slash command
    assert command_rule_errors(slash(options=[option(), option()]))  # option names are unique
    assert command_rule_errors(slash(options=[option("Game")]))  # option names too
    assert command_rule_errors(
        slash(options=[option(autocomplete=True, choices=[{"name": "a", "value": "a"}])])
    )
    assert command_rule_errors(slash(options=[option(choices=[{"name": "a", "value": "v" * 101}])]))
    # 8,000 characters: names, descriptions and values, counting each text's longest localization.
    long_choices = [{"name": f"c{i}", "value": "v" * 100} for i in range(25)]
    big = slash(
        options=[option(f"o{n}", description="d" * 100, choices=long_choices) for n in range(3)]
    )
    assert any("8000" in problem for problem in command_rule_errors(big))
    small = slash(options=[option(f"o{n}", choices=long_choices[:10]) for n in range(3)])
    assert command_rule_errors(small) == []
    localized = slash(description_localizations={"es-ES": "d" * 100})
    assert command_rule_errors(localized) == []
    # User and message commands may be mixed case, with spaces, and no description.
    assert command_rule_errors({"name": "Show Card", "type": 2, "description": ""}) == []


async def test_a_rule_broken_in_a_sync_is_refused_only_with_the_rules_on():
    async with Emulator(command_rules=True) as emu:
        status, body = await put(emu, [slash("Play")])
        assert (status, body["code"]) == (400, 50035)
        assert [f.kind for f in emu.take_failures()] == ["rule"]
        assert emu.synced_commands == []
    async with Emulator() as emu:
        status, _ = await put(emu, [slash("Play")])
        assert status == 200


async def test_a_scope_holds_at_most_100_slash_commands():
    async with Emulator(command_rules=True) as emu:
        status, _ = await put(emu, [slash(f"c{n}") for n in range(100)])
        assert status == 200
        status, body = await post(emu, slash("one-more"))
        assert (status, body["code"]) == (400, 30032)
        emu.take_failures("rule")


async def test_two_hundred_creates_a_day_a_bulk_overwrite_counting_only_new_commands():
    async with Emulator(command_rules=True, command_creates_per_day=3) as emu:
        guild = emu.add_guild("g")
        first = [slash("a"), slash("b")]
        assert (await put(emu, first, guild.id))[0] == 200  # 2 creates
        assert (await put(emu, first, guild.id))[0] == 200  # the same commands: none new
        status, _ = await post(emu, slash("c"), guild.id)
        assert status == 201  # the third create
        status, _ = await post(emu, slash("c", description="Changed"), guild.id)
        assert status == 200  # overwriting an existing command is no create
        status, body = await put(emu, [*first, slash("c"), slash("d")], guild.id)
        assert (status, body["code"]) == (400, 30034)
        assert [c["name"] for c in emu.commands_in_scope(guild.id)] == ["a", "b", "c"]
        # Another scope has a count of its own.
        assert (await put(emu, [slash("d")]))[0] == 200
        emu.take_failures("rule")


async def test_discord_py_syncs_a_bot_that_follows_the_rules(tmp_path):
    async with Emulator(command_rules=True) as emu:
        emu.add_guild("g").add_channel("general")
        async with run_bot(emu, MinimalBot(tmp_path / "bot.sqlite3")):
            assert "ping" in {c["name"] for c in emu.synced_commands}
