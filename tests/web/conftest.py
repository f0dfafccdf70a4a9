"""A real browser for the verification page: Debian's Chromium, driven headless by Playwright.

Nothing downloads a browser: Playwright is pointed at the system's ``chromium`` (install it with
``apt-get install chromium``; ``.ci/run`` does). One browser serves a whole test module.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from bot.verify_link import page_path

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str:
    found = os.environ.get("GAMENIGHT_CHROMIUM") or shutil.which("chromium")
    if not found:
        pytest.fail(
            "the browser tests need Debian's Chromium: apt-get install -y chromium "
            "(or set GAMENIGHT_CHROMIUM to a Chromium binary)"
        )
    return found


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture(scope="module")
def engine_page(browser: Browser) -> Iterator[Page]:
    """The page opened from disk with nothing in its fragment: its functions, for evaluate."""
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(page_path().as_uri())
    page.wait_for_function("typeof GamenightVerify === 'object'")
    yield page
    page.close()
    assert not errors, errors


@pytest.fixture(scope="session")
def screenshot_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where screenshots go: ``GAMENIGHT_SCREENSHOTS`` if set (to look at them), else a tmp dir."""
    chosen = os.environ.get("GAMENIGHT_SCREENSHOTS")
    folder = Path(chosen) if chosen else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder
