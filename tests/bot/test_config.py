import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import (
    SETTING_NAMES,
    TOOL_NAMES,
    ConfigError,
    Settings,
    postgres_url_problem,
    read_env_file,
)

KEY = "ab" * 32


def test_missing_token_explains_how_to_get_one():
    with pytest.raises(ConfigError, match=r"DISCORD_TOKEN.*developers.*\.env"):
        Settings.load({}, env_file=None)


def test_env_file_is_read_and_environment_wins(tmp_path: Path):
    env = tmp_path / ".env"
    env.write_text(
        f"# comment\nDISCORD_TOKEN='from-file'\nGAMENIGHT_SIGNING_KEY={KEY}\n"
        "GAMENIGHT_DATABASE=x.db\n",
        encoding="utf-8",
    )
    assert read_env_file(env)["DISCORD_TOKEN"] == "from-file"
    settings = Settings.load({"GAMENIGHT_DATABASE": "y.db"}, env_file=env)
    assert settings.token == "from-file"
    assert settings.database_path == Path("y.db")
    assert settings.signing_key == bytes.fromhex(KEY)


def test_the_database_is_a_sqlite_file_or_a_postgresql_url():
    base = {"DISCORD_TOKEN": "t", "GAMENIGHT_SIGNING_KEY": KEY}
    sqlite = Settings.load(base, env_file=None)
    assert sqlite.database == Path("gamenight.sqlite3")
    assert sqlite.database_url is None
    url = "postgresql://bot:pw-123@db.example:5432/gamenight"
    postgres = Settings.load({**base, "GAMENIGHT_DATABASE": url}, env_file=None)
    assert postgres.database == url
    assert "pw-123" not in repr(postgres)
    short = Settings.load({**base, "GAMENIGHT_DATABASE": "postgres:///gamenight"}, env_file=None)
    assert short.database == "postgres:///gamenight"
    with pytest.raises(ConfigError) as refused:
        Settings.load({**base, "GAMENIGHT_DATABASE": "mysql://bot:pw-123@db/x"}, env_file=None)
    assert str(refused.value) == (
        "GAMENIGHT_DATABASE must be a SQLite file path or a postgresql:// URL, got one starting"
        " mysql://"
    )


@pytest.mark.parametrize(
    ("line", "value"),
    [
        ("DISCORD_TOKEN=abc # the bot's token", "abc"),
        ("DISCORD_TOKEN = abc", "abc"),
        ("export DISCORD_TOKEN=abc", "abc"),
        ("  export   DISCORD_TOKEN =  'abc'  # quoted", "abc"),
        ("DISCORD_TOKEN='abc # not a comment'", "abc # not a comment"),
        ('DISCORD_TOKEN="a\\"b" # double quotes take escapes', 'a"b'),
        ("DISCORD_TOKEN=a#b", "a#b"),
        ("DISCORD_TOKEN=a${HOME}b", "a${HOME}b"),
    ],
)
def test_env_file_syntax(tmp_path: Path, line: str, value: str):
    env = tmp_path / ".env"
    env.write_text(f"# Game Night\n\n{line}\nGAMENIGHT_SIGNING_KEY={KEY}\n", encoding="utf-8")
    assert Settings.load({}, env_file=env).token == value


def test_a_name_without_a_value_is_ignored(tmp_path: Path):
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN\n", encoding="utf-8")
    assert read_env_file(env) == {}


def test_secrets_are_not_in_the_repr():
    settings = Settings.load({"DISCORD_TOKEN": "sekrit-token", "GAMENIGHT_SIGNING_KEY": KEY}, None)
    assert "sekrit-token" not in repr(settings)
    assert KEY not in repr(settings)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("GAMENIGHT_SIGNING_KEY", "short"),
        ("GAMENIGHT_DEV_GUILD_ID", "abc"),
        ("DISCORD_API_BASE_URL", "ftp://x"),
        ("DISCORD_GATEWAY_URL", "http://x"),
        ("DISCORD_API_BASE_URL", "http://[::1/api/v10"),
        ("GAMENIGHT_PUBLIC_URL", "https://[gamenight.example"),
        ("GAMENIGHT_LOG_LEVEL", "LOUD"),
        ("GAMENIGHT_TIME_SCALE", "fast"),
        ("GAMENIGHT_TIME_SCALE", "0"),
    ],
)
def test_bad_settings_name_themselves(name: str, value: str):
    environ = {"DISCORD_TOKEN": "t", "GAMENIGHT_SIGNING_KEY": KEY, name: value}
    with pytest.raises(ConfigError, match=name):
        Settings.load(environ, env_file=None)


def test_python_m_bot_without_token_exits_2_with_help(tmp_path: Path):
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    result = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    assert "DISCORD_TOKEN" in result.stderr
    assert ".env" in result.stderr
    assert result.stderr.count("\n") == 1


def test_env_example_lists_every_setting_with_a_comment():
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    read = set()
    for path in root.joinpath("bot").rglob("*.py"):
        read |= set(re.findall(r"""["']((?:GAMENIGHT|DISCORD)_[A-Z_]+)["']""", path.read_text()))
    example = root.joinpath(".env.example").read_text().splitlines()
    listed = {}
    for index, line in enumerate(example):
        found = re.match(r"#?\s*((?:GAMENIGHT|DISCORD)_[A-Z_]+)=", line)
        if found:
            listed[found[1]] = index
    assert read - set(listed) - set(TOOL_NAMES) == set()
    # The names that are not warned about as misspelt are exactly the ones explained.
    assert set(listed) == set(SETTING_NAMES)
    for name, index in listed.items():
        assert example[index - 1].startswith("#"), f"{name} has no comment above it"


@pytest.mark.parametrize("value", ["0", "-3", "seven", "36501"])
def test_retention_days_must_be_a_number_of_days(value: str):
    environ = {
        "DISCORD_TOKEN": "t",
        "GAMENIGHT_SIGNING_KEY": KEY,
        "GAMENIGHT_RETENTION_DAYS": value,
    }
    with pytest.raises(ConfigError, match="GAMENIGHT_RETENTION_DAYS"):
        Settings.load(environ, env_file=None)


def test_retention_is_off_unless_set():
    base = {"DISCORD_TOKEN": "t", "GAMENIGHT_SIGNING_KEY": KEY}
    assert Settings.load(base, env_file=None).retention_days is None
    assert Settings.load({**base, "GAMENIGHT_RETENTION_DAYS": ""}, None).retention_days is None
    assert Settings.load({**base, "GAMENIGHT_RETENTION_DAYS": " 90 "}, None).retention_days == 90


def test_check_config_names_the_retention():
    from bot.ops.config_check import DatabaseState, summary

    base = {"DISCORD_TOKEN": "t", "GAMENIGHT_SIGNING_KEY": KEY}
    state = DatabaseState("db", None, None)
    kept = summary(Settings.load(base, None), state, None)
    assert "  GAMENIGHT_RETENTION_DAYS not set (finished games are kept)" in kept
    purged = summary(Settings.load({**base, "GAMENIGHT_RETENTION_DAYS": "90"}, None), state, None)
    assert "  GAMENIGHT_RETENTION_DAYS 90 (games over for longer are deleted, daily)" in purged


# -- one reading of the settings files, and what it warns of --------------------------------------


def test_later_settings_files_win_and_the_environment_wins_over_all(tmp_path: Path):
    fleet = tmp_path / "gamenight.env"
    fleet.write_text(f"DISCORD_TOKEN=t\nGAMENIGHT_SIGNING_KEY={KEY}\nGAMENIGHT_SHARDS=auto\n")
    own = tmp_path / "gamenight-standby.env"
    own.write_text("GAMENIGHT_LOG_LEVEL=DEBUG  # while we watch it\nGAMENIGHT_TIME_SCALE=2\n")
    settings = Settings.load({"GAMENIGHT_TIME_SCALE": "3"}, env_file=[fleet, own])
    assert (settings.token, settings.log_level, settings.time_scale) == ("t", "DEBUG", 3.0)
    assert settings.warnings == ()


def test_unknown_gamenight_names_are_warnings_naming_the_nearest_setting(tmp_path: Path):
    env = tmp_path / "gamenight.env"
    env.write_text(f"DISCORD_TOKEN=t\nGAMENIGHT_SIGNING_KEY={KEY}\nGAMENIGHT_RETENTON_DAYS=30\n")
    environ = {"GAMENIGHT_METRICS_PROT": "9100", "GAMENIGHT_CHROMIUM": "/usr/bin/chromium"}
    settings = Settings.load(environ, env_file=env)
    assert settings.retention_days is None  # the misspelt setting is not guessed at
    assert settings.warnings == (
        f"GAMENIGHT_RETENTON_DAYS (in {env}) is not a Game Night setting and is ignored; did you "
        "mean GAMENIGHT_RETENTION_DAYS?",
        "GAMENIGHT_METRICS_PROT (in the environment) is not a Game Night setting and is ignored; "
        "did you mean GAMENIGHT_METRICS_PORT?",
    )
    # Names of other programs are none of the bot's business; the tests' own are known.
    assert Settings.load({"DISCORD_WEBHOOK": "x", "PATH": "/bin"}, env).warnings[1:] == ()


def test_a_line_that_is_not_name_value_is_a_warning(tmp_path: Path):
    env = tmp_path / ".env"
    env.write_text(
        f'DISCORD_TOKEN=t\nGAMENIGHT_SIGNING_KEY={KEY}\nGAMENIGHT_PUBLIC_URL="https://x.example\n'
        "GAMENIGHT_LOG_LEVEL=DEBUG\n"
    )
    settings = Settings.load({}, env_file=env)
    assert settings.log_level == "DEBUG"
    assert settings.public_url is None
    assert settings.warnings == (f"line 3 of {env} is not NAME=value and is ignored",)


@pytest.mark.parametrize("token", ["Bot MTIz.abc.def", "bot MTIz.abc.def", "BOT MTIz.abc.def"])
def test_a_token_with_bot_before_it_is_refused(token: str):
    with pytest.raises(ConfigError, match=r"^DISCORD_TOKEN starts with 'Bot ': set it to the to"):
        Settings.load({"DISCORD_TOKEN": token, "GAMENIGHT_SIGNING_KEY": KEY}, env_file=None)


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://gamenight:pw@db.example:5432/gamenight",
        "postgresql://gamenight@db.example/gamenight",
        "postgres:///gamenight?host=/run/postgresql",
        "postgresql://gamenight@[::1]:5432/gamenight",
        "postgresql://gamenight@[fe80::1%25eth0]/gamenight",
        "postgresql://gamenight@db1:5432,db2:5433/gamenight?target_session_attrs=read-write",
        "postgresql:///gamenight?host=db1,db2&port=5432,5433",
    ],
)
def test_a_usable_postgresql_url_is_taken(url: str):
    assert postgres_url_problem(url) is None
    environ = {"DISCORD_TOKEN": "t", "GAMENIGHT_SIGNING_KEY": KEY, "GAMENIGHT_DATABASE": url}
    assert Settings.load(environ, env_file=None).database_url == url


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("postgresql://u:pw@db:0/x", "the port '0' is not a number from 1 to 65535"),
        ("postgresql://u:pw@db:65536/x", "the port '65536' is not a number from 1 to 65535"),
        ("postgresql://u:pw@db:５４３２/x", "the port '５４３２' is not a number from 1 to 65535"),
        ("postgresql://u:pw@db1:5432,db2:x/x", "the port 'x' is not a number from 1 to 65535"),
        ("postgresql://u:pw@db/x?port=5432,", "the port '' is not a number from 1 to 65535"),
        ("postgresql://u:pw@[::1/x", "it is not a valid URL (Invalid IPv6 URL)"),
        ("postgresql://u:pw@[db.example]:5432/x", "db.example"),
    ],
)
def test_an_unusable_postgresql_url_is_named_without_its_password(url: str, problem: str):
    found = postgres_url_problem(url)
    assert found is not None
    assert problem in found
    environ = {"DISCORD_TOKEN": "t", "GAMENIGHT_SIGNING_KEY": KEY, "GAMENIGHT_DATABASE": url}
    with pytest.raises(ConfigError, match=r"^GAMENIGHT_DATABASE is not a usable postg") as error:
        Settings.load(environ, env_file=None)
    assert "pw" not in str(error.value)
