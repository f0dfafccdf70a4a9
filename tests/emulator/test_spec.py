"""Validation against Discord's OpenAPI spec: where it is found, what it accepts, and that the
emulator's own answers are what the spec says Discord answers."""

from __future__ import annotations

import datetime
import hashlib
import logging
import re
import subprocess
from pathlib import Path

import pytest

from emulator import Emulator, run_bot
from emulator.refresh_spec import SpecRefreshError, note_for, refresh
from emulator.refresh_spec import main as refresh_main
from emulator.spec import (
    BUNDLED_SPEC,
    BUNDLED_SPEC_DIR,
    SPEC_ENV_VAR,
    default_spec_path,
    load_spec,
)
from tests.emulator.minimal_bot import MinimalBot

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def test_spec_ships_inside_the_package(monkeypatch):
    monkeypatch.delenv(SPEC_ENV_VAR, raising=False)
    assert default_spec_path() == PROJECT_ROOT / "emulator" / "discord_api" / "openapi.json"
    assert default_spec_path() == BUNDLED_SPEC
    spec = load_spec()
    assert spec is not None
    assert spec.source == default_spec_path().resolve()
    assert spec.api_version == "10"
    assert (BUNDLED_SPEC_DIR / "LICENSE").read_text().startswith("MIT License")


def test_the_shipped_spec_matches_its_note():
    """The note beside the description names its origin, version and exact bytes."""
    note = (BUNDLED_SPEC_DIR / "README.md").read_text(encoding="utf-8")
    data = BUNDLED_SPEC.read_bytes()
    assert f"SHA-256: `{hashlib.sha256(data).hexdigest()}`" in note
    snapshot = re.search(r"Snapshot: (\d{4}-\d{2}-\d{2})", note)
    assert snapshot is not None
    # The note is exactly what the refresh script writes for these bytes.
    assert note == note_for(data, datetime.date.fromisoformat(snapshot.group(1)))
    # The project README says which version the emulator checks against.
    readme = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
    assert f"snapshot of {snapshot.group(1)}" in readme


def test_refresh_installs_a_checked_copy(tmp_path):
    into = tmp_path / "discord_api"
    licence = tmp_path / "LICENSE"
    licence.write_text("MIT License\n")
    note = refresh(BUNDLED_SPEC, datetime.date(2030, 1, 2), licence=licence, into=into)
    assert (into / "openapi.json").read_bytes() == BUNDLED_SPEC.read_bytes()
    assert (into / "LICENSE").read_text() == "MIT License\n"
    assert (into / "README.md").read_text() == note
    assert "Snapshot: 2030-01-02" in note


@pytest.mark.parametrize(
    ("content", "complaint"),
    [
        (b"not json", "not JSON"),
        (b'{"openapi": "3.1.0", "info": {"version": "10"}}', "no 'paths'"),
        (b'{"openapi": "3.0.3", "info": {"version": "10"}, "paths": {}}', "reads 3.1"),
        (b'{"openapi": "3.1.0", "info": {}, "paths": {}}', "info.version"),
        (b'{"openapi": "3.1.0", "info": {"version": "10"}, "paths": {}}', "cannot compile"),
        (
            b'{"openapi": "3.1.0", "info": {"version": "10"}, "paths": {},'
            b' "components": {"schemas": {"SnowflakeType": {"type": "string"}}}}',
            "Discord's API",
        ),
    ],
)
def test_refresh_refuses_what_the_emulator_cannot_use(tmp_path, content, complaint):
    source = tmp_path / "openapi.json"
    source.write_bytes(content)
    into = tmp_path / "into"
    with pytest.raises(SpecRefreshError, match=re.escape(complaint)):
        refresh(source, datetime.date(2030, 1, 2), into=into)
    assert not into.exists()


def test_refresh_command_line_reports_errors(tmp_path, capsys):
    assert (
        refresh_main(
            [
                str(tmp_path / "missing.json"),
                "--snapshot",
                "2030-01-02",
                "--into",
                str(tmp_path / "into"),
            ]
        )
        == 2
    )
    assert "refresh_spec:" in capsys.readouterr().err


def test_nothing_reads_a_folder_beside_the_project():
    """A newcomer's clone has nothing beside it: no project file may look there."""
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=PROJECT_ROOT, capture_output=True, text=True, check=False
    )
    if tracked.returncode == 0 and tracked.stdout:
        files = [PROJECT_ROOT / name for name in tracked.stdout.splitlines()]
    else:  # not a git checkout (an unpacked copy): every text file we ship
        files = [p for p in PROJECT_ROOT.rglob("*") if ".venv" not in p.parts]
    offenders = []
    for path in files:
        if path.suffix not in {".py", ".md", ".toml", ".txt", ".cfg", ".example", ""}:
            continue
        if not path.is_file() or path.stat().st_size > 1_000_000:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if re.search(r"\.\./shared|parent\s*/\s*[\"']shared[\"']", text):
            offenders.append(str(path.relative_to(PROJECT_ROOT)))
    assert offenders == []


def test_spec_path_can_be_overridden(monkeypatch, tmp_path):
    monkeypatch.setenv(SPEC_ENV_VAR, str(tmp_path / "elsewhere.json"))
    assert default_spec_path() == tmp_path / "elsewhere.json"


async def test_without_the_spec_the_emulator_runs_but_warns(tmp_path, caplog):
    missing = tmp_path / "missing.json"
    with caplog.at_level(logging.WARNING, logger="emulator"):
        async with Emulator(spec_path=missing) as emu:
            assert not emu.validation_enabled
            channel = emu.add_guild("g").add_channel("general")
            # Without the spec the route table still works; only validation is off.
            assert (
                emu.rest.route_of(f"/channels/{channel.id}/messages")
                == "/channels/{channel_id}/messages"
            )
    assert "validation is OFF" in caplog.text


async def test_validation_is_on_by_default(emulator):
    assert emulator.validation_enabled
    assert emulator.spec is not None
    assert emulator.spec.source is not None
    assert emulator.spec.source.name == "openapi.json"


@pytest.fixture(scope="module")
def spec():
    loaded = load_spec()
    assert loaded is not None
    return loaded


@pytest.mark.parametrize(
    ("path", "template"),
    [
        ("/users/@me", "/users/@me"),
        ("/users/123", "/users/{user_id}"),
        (
            "/webhooks/1/tok/messages/@original",
            "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
        ),
        (
            "/webhooks/1/tok/messages/22",
            "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
        ),
        (
            "/interactions/1/tok/callback",
            "/interactions/{interaction_id}/{interaction_token}/callback",
        ),
    ],
)
def test_literal_segments_win_over_parameters(spec, path, template):
    found = spec.match(path)
    assert found is not None
    assert found.template == template


def test_integer_snowflakes_are_accepted_in_bodies(spec):
    body = {"content": "x", "attachments": [{"id": 0, "filename": "a.png"}]}
    assert spec.validate_request("POST", "/channels/1/messages", {}, body)[1] == []
    bad = {"content": "x", "attachments": [{"id": "zero", "filename": "a.png"}]}
    [error] = spec.validate_request("POST", "/channels/1/messages", {}, bad)[1]
    assert "attachments/0/id" in error


def test_errors_name_the_field_and_the_rule(spec):
    body = {"type": 4, "data": {"content": "x" * 2001}}
    _, errors = spec.validate_request(
        "POST", "/interactions/1/tok/callback", {"with_response": ["1"]}, body
    )
    assert len(errors) == 1
    assert "data/content" in errors[0]
    assert errors[0].endswith("is too long")


def test_a_body_judged_before_gets_the_same_verdict_without_validating_again(spec, monkeypatch):
    """A rush of identical callbacks is validated once per (operation, body): the verdict is a
    pure function of both, so it is remembered, never shared between operations or bodies."""
    judged = []
    real = spec._operation_validator

    def counting(*operation):
        judged.append(operation)
        return real(*operation)

    monkeypatch.setattr(spec, "_operation_validator", counting)
    bad = {"type": 4, "data": {"content": "remembered " * 200}}
    first = spec.validate_request("POST", "/interactions/1/tok/callback", {}, bad)[1]
    assert len(first) == 1
    assert "data/content" in first[0]
    first.clear()  # the caller's copy: the remembered verdict stays whole
    again = spec.validate_request("POST", "/interactions/2/other/callback", {}, dict(bad))[1]
    assert len(again) == 1
    assert "data/content" in again[0]
    assert len(judged) == 1  # the second one, with other path values, was not validated again

    ok = {"type": 4, "data": {"content": "remembered"}}
    assert spec.validate_request("POST", "/interactions/3/tok/callback", {}, ok)[1] == []
    assert len(judged) == 2  # another body: judged on its own
    # A message takes 4,000 characters where an interaction's answer takes 2,000.
    as_message = {"content": "remembered " * 200}
    assert spec.validate_request("POST", "/channels/1/messages", {}, as_message)[1] == []
    assert len(judged) == 3  # another operation: judged by its own rules


def test_query_values_are_read_as_discord_reads_them(spec):
    ok = {"with_response": ["true"]}
    assert spec.validate_request("POST", "/interactions/1/tok/callback", ok, {"type": 5})[1] == []
    bad = {"with_response": ["maybe"]}
    assert spec.validate_request("POST", "/interactions/1/tok/callback", bad, {"type": 5})[1]


async def test_the_emulators_answers_match_the_spec(emulator, tmp_path):
    guild = emulator.add_guild("Game Night")
    general = guild.add_channel("general")
    alice = guild.add_member("alice", manage_guild=True)
    bob = guild.add_member("bob")
    bot = MinimalBot(tmp_path / "bot.sqlite3")
    async with run_bot(emulator, bot):
        await (await alice.slash("ping")).reply()
        await (await alice.slash("lobby")).reply()
        assert general.last_message is not None
        await (await bob.click(general.last_message, "lobby:join")).reply()
        await (await alice.slash("card")).reply()
        dm = await alice.wait_for_dm()
        dm_channel = await bot.fetch_channel(dm.channel.id)
        await dm_channel.fetch_message(dm.id)  # type: ignore[union-attr]
        menu = await (await alice.slash("pick")).reply()
        await (await alice.select(menu, "fruit", ["apple"])).reply()
        asked = await alice.slash("ask")
        await asked.modal_shown()
        await (await alice.submit_modal(asked, {"answer": "yes"})).reply()
        await bot.fetch_user(alice.id)
        await bot.get_guild(guild.id).fetch_member(alice.id)
        await bot.fetch_channel(general.id)
        history = [m async for m in general_channel(bot, general.id).history(limit=10)]
        assert len(history) == len(general.messages)
    checked = 0
    for request in emulator.requests:
        if request.response is None or request.route is None:
            continue
        assert emulator.spec is not None
        assert (
            emulator.spec.response_errors(
                request.route, request.method, request.status, request.response
            )
            == []
        )
        checked += 1
    assert checked >= 15


def general_channel(bot, channel_id):
    channel = bot.get_channel(channel_id)
    assert channel is not None
    return channel


@pytest.mark.parametrize(
    ("component", "expected"),
    [
        (
            {"type": 1, "components": [{"type": 2, "style": 1, "label": "ok", "custom_id": "a"}]},
            None,
        ),
        (
            {"type": 1, "components": [{"type": 2, "style": 9, "label": "x", "custom_id": "a"}]},
            "components/0/components/0/style",
        ),
        (
            {"type": 1, "components": [{"type": 3, "custom_id": "s", "options": "none"}]},
            "components/0/components/0/options",
        ),
        ({"type": 2, "style": 1, "label": "x", "custom_id": "a"}, "components/0/type"),
        ({"components": []}, "components/0"),
        ("a button", "components/0"),
    ],
)
def test_component_unions_check_the_kind_that_matches(spec, component, expected):
    """The spec's component unions are checked as discriminated by ``type`` (see spec.py)."""
    _, errors = spec.validate_request(
        "POST", "/channels/1/messages", {}, {"components": [component]}
    )
    if expected is None:
        assert errors == []
    else:
        assert errors
        assert all(expected in error for error in errors)
