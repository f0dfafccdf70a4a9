"""What an installed copy of the project holds: a wheel, built from the project's own files, is
enough for the emulator to find Discord's API description (no folder beside the project)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[1]


# What a build leaves in a source folder, and what is not the project's.
NOT_THE_PROJECT = shutil.ignore_patterns(
    ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".mypy_cache", ".ruff_cache"
)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    # Built from a copy: setuptools builds in the source folder, where another test process
    # (pytest-xdist) may be building at the same moment.
    source = tmp_path_factory.mktemp("source") / "gamenight"
    shutil.copytree(PROJECT_ROOT, source, ignore=NOT_THE_PROJECT)
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(source)],
        check=True,
        capture_output=True,
    )
    (built,) = out.glob("gamenight-*.whl")
    return built


def test_the_wheel_carries_discords_api_description(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for data in ("openapi.json", "LICENSE", "README.md"):
        assert f"emulator/discord_api/{data}" in names
    shipped = zipfile.ZipFile(wheel).read("emulator/discord_api/openapi.json")
    assert shipped == (PROJECT_ROOT / "emulator" / "discord_api" / "openapi.json").read_bytes()


def test_an_installed_copy_validates_requests(wheel, tmp_path):
    installed = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(installed)
    probe = (
        "from emulator.spec import load_spec; spec = load_spec(); "
        "print(spec.source if spec else 'MISSING'); "
        "print(spec.match('/channels/1/messages').template)"
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    result = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=elsewhere,
        env={"PYTHONPATH": str(installed), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    source, template = result.stdout.splitlines()
    assert Path(source).is_relative_to(installed)
    assert template == "/channels/{channel_id}/messages"


def test_an_installed_copy_reads_the_solved_dots_table(wheel, tmp_path):
    assert "cogs/dots/data/dots-3x3.xz" in zipfile.ZipFile(wheel).namelist()
    installed = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(installed)
    probe = (
        "import cogs.dots.solution as s; print(s.__file__); print(s.solved_board(3, 3).value(0))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path,
        env={"PYTHONPATH": str(installed), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    source, value = result.stdout.splitlines()
    assert Path(source).is_relative_to(installed)
    assert value == "-3"  # the first player loses 3-6 with best play


def test_an_installed_copy_finds_every_cog(wheel, tmp_path):
    """A game's cog is a package (``cogs/loteria/__init__.py``, its own files beside it): the
    wheel ships each one, and the bot finds the same cogs in an installed copy as here."""
    from bot.app import discover_extensions

    installed = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(installed)
    probe = (
        "import importlib, cogs; from bot.app import discover_extensions; "
        "print(cogs.__file__); print(' '.join(discover_extensions())); "
        "print(importlib.util.find_spec('cogs.loteria').origin)"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path,
        env={"PYTHONPATH": str(installed), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    package, found, loteria = result.stdout.splitlines()
    assert Path(package).is_relative_to(installed)
    assert found.split() == list(discover_extensions())
    assert {"cogs.loteria", "cogs.housie", "cogs.dots"} <= set(found.split())
    assert Path(loteria) == installed / "cogs" / "loteria" / "__init__.py"


def test_the_wheel_carries_the_verification_page(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in ("verify.html", "verify.js", "verify-engine.js", "verify.css"):
        assert f"bot/web/{name}" in names
        shipped = zipfile.ZipFile(wheel).read(f"bot/web/{name}")
        assert shipped == (PROJECT_ROOT / "bot" / "web" / name).read_bytes()


def test_the_wheel_carries_the_fonts_for_names_and_their_licences(wheel):
    from bot.render.text import FALLBACK_FONTS

    names = set(zipfile.ZipFile(wheel).namelist())
    for font in (*FALLBACK_FONTS, "LICENSE-OFL-1.1.txt", "LICENSE-Apache-2.0.txt", "README.md"):
        assert f"bot/render/fonts/{font}" in names
