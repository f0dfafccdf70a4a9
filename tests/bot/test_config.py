import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import SETTING_NAMES, TOOL_NAMES, ConfigError, Settings, read_env_file

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
    environ = {"DISCORD_TOKEN": "t", "GAMENIGHT_SIGNING_KEY": KEY, "GAMENIGHT_RETENTION_DAYS": value}
    with pytest.raises(ConfigError, match="GAMENIGHT_RETENTION_DAYS"):
        Settings.load(environ, env_file=None)


def test_retention_is_off_unless_set():
    base = {"DISCORD_TOKEN": "t", "GAMENIGHT_SIGNING_KEY": KEY}
    assert Settings.load(base, env_file=None).retention_days is None
    assert Settings.load({**base, "GAMENIGHT_RETENTION_DAYS": ""}, None).retention_days is None
    assert Settings.load({**base, "GAMENIGHT_RETENTION_DAYS": " 90 "}, None).retention_days == 90


def test_check_config_names_the_retention():
    from bot.config_check import DatabaseState, summary

    base = {"DISCORD_TOKEN": "t", "GAMENIGHT_SIGNING_KEY": KEY}
    state = DatabaseState("db", None, None)
    kept = summary(Settings.load(base, None), state, None)
    assert "  GAMENIGHT_RETENTION_DAYS not set (finished games are kept)" in kept
    purged = summary(Settings.load({**base, "GAMENIGHT_RETENTION_DAYS": "90"}, None), state, None)
    assert "  GAMENIGHT_RETENTION_DAYS 90 (games over for longer are deleted, daily)" in purged
