"""Pytest fixtures for tests that run a bot against the Discord emulator.

Reuse them from another test package with, in its conftest.py::

    from tests.emulator.fixtures import emulator  # noqa: F401 - a pytest fixture
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from emulator import Emulator

# Discord's rules every test meets unless it says otherwise: the rate limits (the global limit
# and the per-route buckets, with their headers), the invalid-request ban, the gateway's limits
# and the rules of application commands. A test that means to see one of them off says so in
# its marker (for example a test of the emulator's own switches).
AS_STRICT_AS_DISCORD: dict[str, Any] = {
    "rate_limits": True,
    "invalid_request_limit": True,
    "gateway_limits": True,
    "command_rules": True,
}


@pytest.fixture
async def emulator(request: pytest.FixtureRequest) -> AsyncIterator[Emulator]:
    """A running emulator as strict as Discord (:data:`AS_STRICT_AS_DISCORD`) with validation
    on; the test fails at teardown if the bot broke one of Discord's rules (take expected ones
    with ``take_failures``).

    ``@pytest.mark.emulator(latency=(0.05, 0.15), ...)`` passes more options to the emulator
    (or changes these)."""
    marker = request.node.get_closest_marker("emulator")
    options = AS_STRICT_AS_DISCORD | (marker.kwargs if marker else {})
    async with Emulator(**options) as emu:
        assert emu.validation_enabled, "Discord's OpenAPI spec was not found: validation is off"
        yield emu
