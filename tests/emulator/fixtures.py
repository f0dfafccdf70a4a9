"""Pytest fixtures for tests that run a bot against the Discord emulator.

Reuse them from another test package with, in its conftest.py::

    from tests.emulator.fixtures import emulator  # noqa: F401 - a pytest fixture
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from emulator import Emulator


@pytest.fixture
async def emulator(request: pytest.FixtureRequest) -> AsyncIterator[Emulator]:
    """A running emulator as strict as Discord (``Emulator.DISCORDS_RULES``: the rate limits,
    the invalid-request ban, the gateway's limits, the rules of commands) with validation on;
    the test fails at teardown if the bot broke one of Discord's rules (take expected ones
    with ``take_failures``). A test that means to see one of them off says so in its marker.

    ``@pytest.mark.emulator(latency=(0.05, 0.15), ...)`` passes more options to the emulator
    (or changes these)."""
    marker = request.node.get_closest_marker("emulator")
    async with Emulator.as_strict_as_discord(**(marker.kwargs if marker else {})) as emu:
        assert emu.validation_enabled, "Discord's OpenAPI spec was not found: validation is off"
        yield emu
