"""Discord refuses option values outside a command's declared choices, range and length, and
numbers outside its own range, before a bot sees them: so does the driver."""

from __future__ import annotations

import pytest

from emulator import DriverError
from emulator.interactions import INTEGER_OPTION_LIMIT, OptionType, build_command_data

COMMAND = {
    "id": "1",
    "name": "game",
    "type": 1,
    "options": [
        {"name": "count", "type": OptionType.INTEGER, "description": "any"},
        {"name": "seats", "type": OptionType.INTEGER, "description": "2-5", "min_value": 2, "max_value": 5},
        {"name": "weight", "type": OptionType.NUMBER, "description": "any"},
        {"name": "word", "type": OptionType.STRING, "description": "1-3", "min_length": 1, "max_length": 3},
        {"name": "text", "type": OptionType.STRING, "description": "any"},
        {"name": "size", "type": OptionType.INTEGER, "description": "3 or 4",
         "choices": [{"name": "3", "value": 3}, {"name": "4", "value": 4}]},
    ],
}  # fmt: skip


def sent(**values: object) -> dict[str, object]:
    data = build_command_data(COMMAND, [], values, None)
    return {option["name"]: option["value"] for option in data["options"]}


def test_values_discord_delivers_are_sent():
    assert sent(count=-INTEGER_OPTION_LIMIT, seats=5, weight=-(2.0**53)) == {
        "count": -INTEGER_OPTION_LIMIT,
        "seats": 5,
        "weight": -(2.0**53),
    }
    assert sent(count=INTEGER_OPTION_LIMIT, word="abc", text="x" * 6000, size=4)["count"] == (
        INTEGER_OPTION_LIMIT
    )


@pytest.mark.parametrize(
    "values",
    [
        {"count": INTEGER_OPTION_LIMIT + 1},  # Discord's own range for integers
        {"count": -(10**20)},
        {"weight": 2.0**54},  # and for numbers
        {"seats": 1},  # the declared range
        {"seats": 6},
        {"word": ""},  # the declared length
        {"word": "abcd"},
        {"text": "x" * 6001},  # Discord's longest option value
        {"size": 5},  # the declared choices
        {"count": 1.5},
        {"count": True},
    ],
)
def test_values_discord_refuses_are_refused(values):
    with pytest.raises(DriverError):
        sent(**values)
