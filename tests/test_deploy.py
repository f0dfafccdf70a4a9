"""``deploy/``: the systemd units (checked by systemd itself, and their command lines run with the
settings files they hand the bot), the Containerfile (no container engine runs here, so its
instructions are checked one by one; its build step, install.sh, is run by .ci/run), the compose
files and what a container build leaves out."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.ops.cli import build_parser
from bot.ops.healthcheck import own_endpoint
from bot.ops.http_server import DATABASE_TIMEOUT
from tests.bot.ops.test_cli import BOT_ID, TOKEN
from tests.conftest import SIGNING_KEY
from tests.postgres_server import PostgresServer

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
    unit = unit_settings(DEPLOY / "gamenight.service")
    service = unit["Service"]
    # The bot reads the settings file itself (see the test below), never systemd.
    assert service["ExecStart"] == ["/opt/gamenight/bin/gamenight --env-file %d/gamenight.env run"]
    assert service["LoadCredential"] == ["gamenight.env:/etc/gamenight/gamenight.env"]
    assert "EnvironmentFile" not in service
    assert service["User"] == ["gamenight"]
    assert service["KillSignal"] == ["SIGTERM"]
    assert service["Restart"] == ["on-failure"]
    assert service["RestartPreventExitStatus"] == ["2"]  # a bad setting: restarting won't help
    assert_restarts_are_capped(unit)
    # Long enough for the bot's 5 s grace for answers under way, then closing the database.
    assert int(service["TimeoutStopSec"][0]) >= 15
    assert service["StateDirectory"] == ["gamenight"]
    # The database's default, gamenight.sqlite3, is there (the environment would win over the
    # settings file, so the unit sets no GAMENIGHT_DATABASE of its own).
    assert service["WorkingDirectory"] == ["/var/lib/gamenight"]
    assert not any("GAMENIGHT_" in value for value in service.get("Environment", []))
    assert service["ProtectSystem"] == ["strict"]  # writable: only the state directory


def assert_restarts_are_capped(unit: dict[str, dict[str, list[str]]]) -> None:
    """A bot failing soon after every start is left stopped after a few starts: systemd's start
    limit, in [Unit], counts the starts (restarts included) within an interval."""
    burst = int(unit["Unit"]["StartLimitBurst"][0])
    interval = int(unit["Unit"]["StartLimitIntervalSec"][0])
    restart_after = int(unit["Service"]["RestartSec"][0])
    assert 2 <= burst <= 10
    # The interval covers the burst's restarts: a crash loop reaches the limit.
    assert interval > burst * restart_after


def credentials(service: dict[str, list[str]], folder: Path, files: dict[str, str]) -> Path:
    """What systemd makes of the unit's LoadCredential= lines: a folder (%d) holding a copy of
    each source file under the credential's name. ``files``: the sources' text, by path."""
    folder.mkdir()
    for line in service["LoadCredential"]:
        name, _, source = line.partition(":")
        (folder / name).write_text(files[source])
    return folder


def unit_command(service: dict[str, list[str]], specifiers: dict[str, str]) -> list[str]:
    """The unit's ExecStart with its specifiers filled in as systemd does, run from this source
    folder (``python -m bot`` for /opt/gamenight/bin/gamenight), checking instead of running."""
    words = shlex.split(service["ExecStart"][0])
    assert words[0] == "/opt/gamenight/bin/gamenight"
    assert words[-1] == "run"
    for specifier, value in specifiers.items():
        words = [word.replace(specifier, value) for word in words]
    return [sys.executable, "-m", "bot", *words[1:-1], "check-config"]


def settings_file(**values: str) -> str:
    """.env.example as an operator fills it in, comments after the values included (as its
    first lines say they may be)."""
    text = (ROOT / ".env.example").read_text()
    for name, value in values.items():
        text, found = re.subn(
            rf"^{name}=.*$", f"{name}={value}  # filled in on the first night", text, flags=re.M
        )
        assert found == 1, name
    return text


def test_the_unit_hands_the_settings_file_to_the_bot_which_reads_it_as_check_config_does(
    tmp_path: Path,
):
    service = unit_settings(DEPLOY / "gamenight.service")["Service"]
    database = tmp_path / "state" / "gamenight.sqlite3"
    database.parent.mkdir()
    text = settings_file(
        DISCORD_TOKEN=TOKEN,
        GAMENIGHT_SIGNING_KEY=SIGNING_KEY.hex(),
        GAMENIGHT_DATABASE=str(database),
        GAMENIGHT_RETENTION_DAYS="30",
    )
    folder = credentials(service, tmp_path / "credentials", {"/etc/gamenight/gamenight.env": text})
    result = subprocess.run(
        unit_command(service, {"%d": str(folder)}),
        cwd=database.parent,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (result.returncode, result.stderr) == (0, "")
    # The comments after the values are comments: the token, the key and the days are read whole.
    assert f"read from the environment and {folder / 'gamenight.env'}" in result.stdout
    assert f"DISCORD_TOKEN           set (bot user id {BOT_ID})" in result.stdout
    assert "GAMENIGHT_SIGNING_KEY   set (32 bytes)" in result.stdout
    assert "GAMENIGHT_RETENTION_DAYS 30 (games over" in result.stdout
    assert f"GAMENIGHT_DATABASE      {database}: not created yet" in result.stdout


async def test_the_fleet_template_hands_both_settings_files_to_the_bot(
    tmp_path: Path, postgres_server: PostgresServer
):
    service = unit_settings(DEPLOY / "gamenight@.service")["Service"]
    url = await postgres_server.create_database()
    try:
        fleet = settings_file(
            DISCORD_TOKEN=TOKEN, GAMENIGHT_SIGNING_KEY=SIGNING_KEY.hex(), GAMENIGHT_DATABASE=url
        )
        own = "GAMENIGHT_SHARDS=standby/4  # takes over the games of a process that stops\n"
        files = {
            "/etc/gamenight/gamenight.env": fleet,
            "/etc/gamenight/gamenight-standby.env": own,
        }
        loaded = [line.replace("%i", "standby") for line in service["LoadCredential"]]
        folder = credentials({"LoadCredential": loaded}, tmp_path / "credentials", files)
        process = await asyncio.create_subprocess_exec(
            *unit_command(service, {"%d": str(folder), "%i": "standby"}),
            cwd=tmp_path,
            env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(ROOT)},
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(process.communicate(), 60)
    finally:
        await postgres_server.drop_database(url)
    assert (process.returncode, err.decode()) == (0, "")
    assert "GAMENIGHT_SHARDS        standby for 4 shards" in out.decode()


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
    unit = unit_settings(DEPLOY / "gamenight@.service")
    service = unit["Service"]
    # The fleet's settings, then the instance's own (GAMENIGHT_SHARDS), which win.
    assert service["ExecStart"] == [
        "/opt/gamenight/bin/gamenight --env-file %d/gamenight.env --env-file %d/instance.env run"
    ]
    assert service["LoadCredential"] == [
        "gamenight.env:/etc/gamenight/gamenight.env",
        "instance.env:/etc/gamenight/gamenight-%i.env",
    ]
    assert "EnvironmentFile" not in service
    assert not any("GAMENIGHT_" in value for value in service.get("Environment", []))
    assert service["KillSignal"] == ["SIGTERM"]
    assert service["Restart"] == ["on-failure"]
    assert service["RestartPreventExitStatus"] == ["2"]
    assert_restarts_are_capped(unit)
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
    from bot.fleet.shards import parse_shards

    text = (DEPLOY / "compose.fleet.yaml").read_text()
    plans = [parse_shards(found) for found in re.findall(r"GAMENIGHT_SHARDS: (\S+)", text)]
    assert len({plan.count for plan in plans}) == 1
    (count,) = {plan.count for plan in plans}
    own = [shard for plan in plans for shard in plan.own]
    assert sorted(own) == list(range(count or 0)), "every shard run by one process"
    assert sum(plan.standby for plan in plans) == 1
    assert text.count("<<: *bot") == len(plans)
    assert_compose_restarts_are_capped(text)
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


def assert_compose_restarts_are_capped(text: str) -> None:
    """Compose cannot spare exit code 2 as systemd's RestartPreventExitStatus does: a bot whose
    setting is wrong would restart forever under a plain on-failure, so the restarts are capped
    (``on-failure:N``), and the file says why."""
    (policy,) = set(re.findall(r"^\s+restart: (on-failure\S*)$", text, re.M))
    found = re.fullmatch(r"on-failure:(\d+)", policy)
    assert found, f"restart: {policy} restarts a bad setting forever"
    assert 1 <= int(found[1]) <= 10
    assert re.search(r"exits? 2", " ".join(text.split())), "the reason is given"


def test_compose_restarts_on_failure_and_stops_with_sigterm():
    text = (DEPLOY / "compose.yaml").read_text()
    assert_compose_restarts_are_capped(text)
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


# -- health checks and the REST proxy ----------------------------------------------------------


def compose_services(name: str) -> dict[str, dict[str, Any]]:
    """A compose file's services as Compose reads them (YAML merge keys resolved)."""
    services: dict[str, dict[str, Any]] = yaml.safe_load((DEPLOY / name).read_text())["services"]
    return services


def seconds(duration: str) -> float:
    """A Compose or Containerfile duration ("30s", "1m30s") in seconds."""
    parts = re.fullmatch(r"(?:(\d+)m)?(?:(\d+(?:\.\d+)?)s)?", duration)
    assert duration
    assert parts, duration
    return int(parts[1] or 0) * 60 + float(parts[2] or 0)


BOT_HEALTHCHECK = ["python", "-m", "bot.ops.healthcheck"]


def test_the_image_checks_the_bots_health_without_curl():
    steps = instructions(DEPLOY / "Containerfile")
    settings = dict(steps)
    options, _, command = settings["HEALTHCHECK"].partition("CMD ")
    assert json.loads(command) == BOT_HEALTHCHECK  # the image's own Python, no curl
    timing = dict(option.removeprefix("--").split("=") for option in options.split())
    assert set(timing) == {"interval", "timeout", "start-period", "retries"}
    # Longer than /healthz takes to call a silent database down; time for the bot to log in.
    assert seconds(timing["timeout"]) > DATABASE_TIMEOUT
    assert seconds(timing["start-period"]) >= 30
    # With the image's settings alone the endpoint is on, and the check finds it.
    environment = dict(item.split("=", 1) for item in shlex.split(settings["ENV"]))
    port = environment["GAMENIGHT_METRICS_PORT"]
    assert own_endpoint(environment) == f"http://127.0.0.1:{port}/healthz"
    assert importlib.util.find_spec("bot.ops.healthcheck") is not None


def test_compose_checks_the_bots_health():
    (service,) = compose_services("compose.yaml").values()
    assert service["healthcheck"]["test"] == ["CMD", *BOT_HEALTHCHECK]
    assert seconds(service["healthcheck"]["timeout"]) > DATABASE_TIMEOUT
    # Set here, it wins over gamenight.env (a copy of .env.example may leave it empty).
    assert own_endpoint(service["environment"]).startswith("http://127.0.0.1:")


def test_the_compose_fleet_sends_every_process_through_the_rest_proxy():
    services = compose_services("compose.fleet.yaml")
    proxies = {
        name: service
        for name, service in services.items()
        if service.get("command", [])[:2] == ["gamenight", "rest-proxy"]
    }
    assert len(proxies) == 1, "one REST proxy for the fleet (docs/SCALING.md: The REST proxy)"
    ((proxy_name, proxy),) = proxies.items()
    options = build_parser("gamenight").parse_args(proxy["command"][1:])
    assert options.host == "0.0.0.0"  # the other containers reach it
    assert "ports" not in proxy  # on the project's private network only
    assert proxy["healthcheck"]["test"] == [
        "CMD",
        *BOT_HEALTHCHECK,
        f"http://127.0.0.1:{options.port}/healthz",
    ]
    bots = {n: s for n, s in services.items() if "GAMENIGHT_SHARDS" in s.get("environment", {})}
    assert len(bots) == 3
    for name, bot in bots.items():
        environment = bot["environment"]
        assert environment["DISCORD_API_BASE_URL"] == (
            f"http://{proxy_name}:{options.port}/api/v10"
        ), name
        assert bot["depends_on"][proxy_name] == {"condition": "service_healthy"}, name
        assert bot["healthcheck"]["test"] == ["CMD", *BOT_HEALTHCHECK], name
        assert own_endpoint(environment).startswith("http://127.0.0.1:"), name
        # The proxy forwards the token the processes send: the same settings file, image.
        assert (proxy["env_file"], proxy["image"], proxy["build"]) == (
            bot["env_file"],
            bot["image"],
            bot["build"],
        ), name


# -- voice ---------------------------------------------------------------------------------------


def test_install_sh_installs_the_voice_extra_and_says_whether_voice_is_on():
    script = (DEPLOY / "install.sh").read_text()
    installs = [
        shlex.split(line)
        for line in script.splitlines()
        if re.match(r'\s*"\$venv/bin/pip" install', line) and "--upgrade" not in line
    ]
    assert installs == [["$venv/bin/pip", "install", "--quiet", "--no-cache-dir", "$source[voice]"]]
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert "voice" in extras["optional-dependencies"]
    # The modules the extra brings are imported by the checks, and whether voice is on is said.
    assert "import nacl.secret, davey" in script
    assert "missing_voice_parts" in script


def test_the_image_installs_libopus_and_espeak_ng_and_checks_that_it_speaks():
    steps = instructions(DEPLOY / "Containerfile")
    final = steps[max(i for i, (word, _) in enumerate(steps) if word == "FROM") :]
    runs = [rest for word, rest in final if word == "RUN"]
    installed = {
        word
        for run in runs
        for part in run.split("&&")
        if shlex.split(part)[:2] == ["apt-get", "install"]
        for word in shlex.split(part)[2:]
        if not word.startswith("-")
    }
    assert {"libopus0", "espeak-ng"} <= installed
    # After the copy of the virtual environment, the image checks that voice is on; that
    # check, run here with this Python (which has all three), passes, and fails without espeak-ng.
    copied = next(i for i, (word, rest) in enumerate(final) if word == "COPY")
    (check,) = [
        rest for word, rest in final[copied:] if word == "RUN" and "missing_voice_parts" in rest
    ]
    program, *arguments = shlex.split(check)
    assert program == "/opt/gamenight/bin/python"
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(ROOT)}
    ran = subprocess.run(
        [sys.executable, *arguments],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (ran.returncode, ran.stderr) == (0, "")
    without = subprocess.run(
        [sys.executable, *(a.replace('"espeak-ng"', '"no-such-espeak"') for a in arguments)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert without.returncode == 1
    assert "no-such-espeak is not installed (Debian: apt-get install espeak-ng)" in without.stderr


def test_env_example_says_where_to_download_a_piper_voice():
    text = (ROOT / ".env.example").read_text()
    start = text.index("\n\n", text.index("GAMENIGHT_RETENTION_DAYS="))
    comment = text[start : text.index("# GAMENIGHT_PIPER_BIN=")]
    assert "GAMENIGHT_PIPER_MODEL=" in comment
    assert "https://huggingface.co/rhasspy/piper-voices" in comment
    for voice in ("en_US-lessac-medium", "es_MX-claude-high", "es_ES-davefx-medium"):
        assert f"{voice}.onnx" in comment, voice
    assert ".onnx.json" in comment
