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
    """A running emulator with validation on and rate limits off; the test fails at teardown
    if the bot broke one of Discord's rules (take expected ones with ``take_failures``).

    ``@pytest.mark.emulator(rate_limits=True, ...)`` passes options to the emulator."""
    marker = request.node.get_closest_marker("emulator")
    options = marker.kwargs if marker else {}
    async with Emulator(**options) as emu:
        assert emu.validation_enabled, "Discord's OpenAPI spec was not found: validation is off"
        yield emu
