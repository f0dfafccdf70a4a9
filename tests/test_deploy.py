"""``deploy/``: the systemd unit (checked by systemd itself), the Containerfile (no container
engine runs here, so its instructions are checked one by one; its build step, install.sh, is run
by .ci/run), compose.yaml and what a container build leaves out."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
SYSTEMD_UNITS = Path("/usr/lib/systemd/system")


def unit_settings(path: Path) -> dict[str, dict[str, list[str]]]:
    """A unit file's sections and their settings (a key may repeat), as systemd reads them."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] = {}
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
            continue
        key, _, value = line.partition("=")
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


def instructions(path: Path) -> list[tuple[str, str]]:
    """A Containerfile's instructions, continuation lines joined."""
    text = re.sub(r"\\\n\s*", " ", path.read_text())
    found = []
    for raw in text.splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            found.append((word.upper(), rest.strip()))
    return found


# -- systemd -------------------------------------------------------------------------------------


def test_the_unit_runs_the_console_script_as_its_own_user_and_stops_cleanly():
    service = unit_settings(DEPLOY / "gamenight.service")["Service"]
    assert service["ExecStart"] == ["/opt/gamenight/bin/gamenight run"]
    assert service["User"] == ["gamenight"]
    assert service["EnvironmentFile"] == ["/etc/gamenight/gamenight.env"]
    assert service["KillSignal"] == ["SIGTERM"]
    assert service["Restart"] == ["on-failure"]
    assert service["RestartPreventExitStatus"] == ["2"]  # a bad setting: restarting won't help
    # Long enough for the bot's 5 s grace for answers under way, then closing the database.
    assert int(service["TimeoutStopSec"][0]) >= 15
    assert service["StateDirectory"] == ["gamenight"]
    assert service["WorkingDirectory"] == ["/var/lib/gamenight"]
    assert "GAMENIGHT_DATABASE=/var/lib/gamenight/gamenight.sqlite3" in service["Environment"]
    assert service["ProtectSystem"] == ["strict"]  # writable: only the state directory


def test_systemd_accepts_the_unit(tmp_path: Path):
    analyze = shutil.which("systemd-analyze")
    if analyze is None or not SYSTEMD_UNITS.is_dir():
        pytest.fail(
            "systemd-analyze is needed to check deploy/gamenight.service (apt install systemd)"
        )
    # A root holding systemd's own units, the unit, and an executable where ExecStart points.
    shutil.copytree(SYSTEMD_UNITS, tmp_path / "usr/lib/systemd/system", symlinks=True)
    (tmp_path / "etc/systemd/system").mkdir(parents=True)
    shutil.copy(DEPLOY / "gamenight.service", tmp_path / "etc/systemd/system")
    script = tmp_path / "opt/gamenight/bin/gamenight"
    script.parent.mkdir(parents=True)
    script.write_text("#!/bin/sh\n")
    script.chmod(0o755)
    result = subprocess.run(
        [analyze, "verify", f"--root={tmp_path}", "gamenight.service"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    # Unknown keys and bad values are only warnings to systemd: none is allowed here.
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_the_fleet_template_runs_one_process_of_a_fleet_per_instance(tmp_path: Path):
    service = unit_settings(DEPLOY / "gamenight@.service")["Service"]
    assert service["ExecStart"] == ["/opt/gamenight/bin/gamenight run"]
    # The fleet's settings, then the instance's own (GAMENIGHT_SHARDS).
    assert service["EnvironmentFile"] == [
        "/etc/gamenight/gamenight.env",
        "/etc/gamenight/gamenight-%i.env",
    ]
    assert not any("GAMENIGHT_DATABASE" in value for value in service.get("Environment", []))
    assert service["KillSignal"] == ["SIGTERM"]
    assert service["Restart"] == ["on-failure"]
    assert service["RestartPreventExitStatus"] == ["2"]
    assert int(service["TimeoutStopSec"][0]) >= 15
    plain = unit_settings(DEPLOY / "gamenight.service")["Service"]
    hardening = {key for key in plain if key.startswith(("Protect", "Restrict", "Private"))}
    assert {key: service[key] for key in hardening} == {key: plain[key] for key in hardening}

    analyze = shutil.which("systemd-analyze")
    if analyze is None or not SYSTEMD_UNITS.is_dir():
        pytest.fail("systemd-analyze is needed to check deploy/gamenight@.service")
    shutil.copytree(SYSTEMD_UNITS, tmp_path / "usr/lib/systemd/system", symlinks=True)
    (tmp_path / "etc/systemd/system").mkdir(parents=True)
    shutil.copy(DEPLOY / "gamenight@.service", tmp_path / "etc/systemd/system")
    script = tmp_path / "opt/gamenight/bin/gamenight"
    script.parent.mkdir(parents=True)
    script.write_text("#!/bin/sh\n")
    script.chmod(0o755)
    result = subprocess.run(
        [analyze, "verify", f"--root={tmp_path}", "gamenight@standby.service"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_the_compose_fleet_splits_the_shards_and_keeps_a_standby():
    from bot.shards import parse_shards

    text = (DEPLOY / "compose.fleet.yaml").read_text()
    plans = [parse_shards(found) for found in re.findall(r"GAMENIGHT_SHARDS: (\S+)", text)]
    assert len({plan.count for plan in plans}) == 1
    (count,) = {plan.count for plan in plans}
    own = [shard for plan in plans for shard in plan.own]
    assert sorted(own) == list(range(count or 0)), "every shard run by one process"
    assert sum(plan.standby for plan in plans) == 1
    assert text.count("<<: *bot") == len(plans)
    assert re.search(r"^\s+restart: on-failure$", text, re.M)
    assert re.search(r"^\s+stop_signal: SIGTERM$", text, re.M)
    assert re.search(r"^\s+condition: service_healthy$", text, re.M)
    ignored = set((ROOT / ".dockerignore").read_text().split())
    assert {"deploy/gamenight.env", "deploy/postgres.env"} <= ignored


# -- the container -------------------------------------------------------------------------------


def test_the_containerfile_builds_with_install_sh_and_runs_the_bot_as_a_service():
    steps = instructions(DEPLOY / "Containerfile")
    froms = [rest for word, rest in steps if word == "FROM"]
    assert len(froms) == 2
    required = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    minimum = tuple(int(part) for part in required.removeprefix(">=").split("."))
    for image in froms:
        version = re.search(r"python:(\d+)\.(\d+)", image)
        assert version, image
        assert (int(version[1]), int(version[2])) >= minimum
    assert froms[0].split()[0] == froms[1].split()[0], "the venv needs the same Python to run"

    runs = [rest for word, rest in steps if word == "RUN"]
    assert any(shlex.split(run)[:2] == ["sh", "/src/deploy/install.sh"] for run in runs)
    for word, rest in steps:
        if word == "COPY" and not rest.startswith("--from"):
            source = rest.split()[0]
            assert (ROOT / source).exists(), source

    settings = dict(steps)
    assert settings["STOPSIGNAL"] == "SIGTERM"
    assert settings["CMD"] == '["gamenight", "run"]'
    assert settings["USER"] == "gamenight"
    assert settings["VOLUME"] == "/var/lib/gamenight"
    assert "GAMENIGHT_DATABASE=/var/lib/gamenight/gamenight.sqlite3" in settings["ENV"]
    assert "PATH=/opt/gamenight/bin:$PATH" in settings["ENV"]


def test_a_container_build_leaves_secrets_and_databases_out():
    ignored = set((ROOT / ".dockerignore").read_text().split())
    assert {".env", "deploy/gamenight.env", "*.sqlite3", ".venv", ".git"} <= ignored


def test_compose_restarts_on_failure_and_stops_with_sigterm():
    text = (DEPLOY / "compose.yaml").read_text()
    assert re.search(r"^\s+restart: on-failure$", text, re.M)
    assert re.search(r"^\s+stop_signal: SIGTERM$", text, re.M)
    assert re.search(r"^\s+dockerfile: deploy/Containerfile$", text, re.M)
    assert re.search(r"^\s+- gamenight-data:/var/lib/gamenight$", text, re.M)


# -- install.sh ----------------------------------------------------------------------------------


def test_install_sh_is_a_valid_script_that_ci_runs():
    script = DEPLOY / "install.sh"
    assert script.stat().st_mode & 0o111, "executable"
    subprocess.run(["sh", "-n", str(script)], check=True)
    ci = (ROOT / ".ci" / "run").read_text()
    assert "deploy/install.sh" in ci


def test_install_sh_refuses_to_reuse_a_folder(tmp_path: Path):
    result = subprocess.run(
        ["sh", str(DEPLOY / "install.sh"), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    assert "already exists" in result.stderr
    assert list(tmp_path.iterdir()) == []
