"""Custom patterns' names and drawings as the cog reads them (cogs/bingo/patterns.py): the code
made from a name, the names refused, a name shown in a message and read back from it, and the
drawing carried by its buttons' custom ids."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import pytest

from bot.components import Press
from bot.replies import UserError
from cogs.bingo.patterns import (
    PRESS_PREFIX,
    Drawing,
    _unescaped,
    checked_name,
    pattern_code,
    shown,
)
from engine.bingo import CODE_LIMIT, FREE_BIT, FREE_CELL, PATTERN_BOOK, Pattern


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("Heart", "heart"),
        ("Corazón roto!", "corazon_roto"),
        ("  Big   X  ", "big_x"),
        ("ÑANDÚ 2", "nandu_2"),
        ("a" * 40, "a" * CODE_LIMIT),
    ],
)
def test_a_name_makes_a_code_of_letters_and_digits(name: str, code: str):
    assert pattern_code(name) == code
    Pattern.from_cells(code, "any", [0])  # a code the engine takes


def test_a_name_without_letters_gets_a_code_of_its_own():
    hearts, stars = pattern_code("❤️❤️"), pattern_code("★★")
    assert re.fullmatch(r"p[0-9a-f]{10}", hearts)
    assert hearts != stars
    assert hearts == pattern_code("❤️❤️")


@pytest.mark.parametrize(
    ("typed", "key"),
    [
        ("a" * 41, "bingo_custom_name_long"),
        ("one, two", "bingo_custom_name_bad"),
        ("a=b", "bingo_custom_name_bad"),
        ("bell\x07", "bingo_custom_name_bad"),
        ("   ", "bingo_custom_name_bad"),
        ("Blackout", "bingo_custom_name_builtin"),
        ("blackout!", "bingo_custom_name_builtin"),
        ("CARTÓN LLENO", "bingo_custom_name_builtin"),
        ("Equis", "bingo_custom_name_builtin"),
        ("any_stamp", "bingo_custom_name_builtin"),
        ("x", "bingo_custom_name_builtin"),
    ],
)
def test_names_refused(typed: str, key: str):
    with pytest.raises(UserError) as refused:
        checked_name(typed)
    assert refused.value.key == key


def test_every_built_in_name_is_refused():
    for code, pattern in PATTERN_BOOK.items():
        for name in (code, pattern.name):
            with pytest.raises(UserError):
                checked_name(name)


def test_a_name_is_trimmed_and_kept_as_typed():
    assert checked_name("  My   **bold**  <@1> ") == "My **bold** <@1>"


@pytest.mark.parametrize(
    "name", ["Plain", "**bold** _it_ `code`", "<@123> @everyone", "a\\b*", "¿Qué?"]
)
def test_a_name_shown_in_a_message_reads_back_the_same(name: str):
    text = shown(name)
    # Every character markdown or a mention would read is escaped.
    assert not re.search(r"(?<!\\)[*_`<@]", text.replace("\\\\", "")), text
    assert _unescaped(text) == name


def press_on(drawing_message: str, custom_id: str, user: int) -> tuple[Any, Press]:
    prefix, action, subject, arg = custom_id.split(":")[1:]
    assert prefix == PRESS_PREFIX
    interaction = SimpleNamespace(message=SimpleNamespace(content=drawing_message))
    return interaction, Press(prefix, action, int(subject), arg)


@pytest.mark.parametrize(("rotations", "anywhere"), [(False, False), (True, False), (True, True)])
def test_a_drawing_rides_in_its_buttons_and_message(rotations: bool, anywhere: bool):
    drawing = Drawing(42, "Big *X*", 0b101 | 1 << 24, rotations, anywhere)
    content = drawing.content("en")
    ids = [item.custom_id for item in drawing.view("en").children]  # type: ignore[attr-defined]
    assert len(ids) == 25
    assert len(set(ids)) == 25
    assert all(len(custom_id) <= 100 for custom_id in ids)
    for cell, custom_id in enumerate(ids):
        interaction, press = press_on(content, custom_id, 42)
        read, pressed = Drawing.from_press(interaction, press)
        assert read == drawing
        assert pressed == cell
        assert press.action == ("save" if cell == FREE_CELL else "cell")
    toggled = drawing.toggled(1)
    assert toggled.mask == 0b111 | 1 << 24
    assert toggled.toggled(1) == drawing
    assert drawing.pattern() == Pattern.custom(
        "big_x", "Big *X*", 0b101 | 1 << 24, rotations=rotations, anywhere=anywhere
    )


def test_the_free_centre_never_counts_as_drawn():
    drawing = Drawing(1, "Centre", FREE_BIT)
    interaction, press = press_on(
        drawing.content("en"), drawing.view("en").children[12].custom_id, 1
    )  # type: ignore[attr-defined]
    read, _ = Drawing.from_press(interaction, press)
    assert read.mask == 0


@pytest.mark.parametrize(
    ("content", "arg"),
    [
        ("no name line", "0000000005"),
        ("**Name**", "99" + "0" + "0000000"),
        ("**Name**", "00" + "7" + "0000000"),
        ("**Name**", "00" + "0" + "zzzzzzz"),
    ],
)
def test_a_drawing_that_cannot_be_read_is_refused(content: str, arg: str):
    interaction = SimpleNamespace(message=SimpleNamespace(content=content))
    with pytest.raises(UserError) as refused:
        Drawing.from_press(interaction, Press(PRESS_PREFIX, "cell", 1, arg))  # type: ignore[arg-type]
    assert refused.value.key == "bingo_custom_drawing_gone"
