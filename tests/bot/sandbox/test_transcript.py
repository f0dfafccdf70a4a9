"""What the sandbox prints: colour only on a terminal (never under NO_COLOR or TERM=dumb), and
Discord's markdown as terminal text."""

from __future__ import annotations

import io

from bot.sandbox._transcript import Style, format_content, wants_colour


class FakeTerminal(io.StringIO):
    def isatty(self):
        return True


def test_colour_only_on_a_terminal():
    assert wants_colour(FakeTerminal(), {})
    assert not wants_colour(io.StringIO(), {})
    assert not wants_colour(FakeTerminal(), {"NO_COLOR": "1"})
    assert not wants_colour(FakeTerminal(), {"TERM": "dumb"})


def test_markdown_becomes_terminal_text():
    text = "## Lotería #1 hosted by <@7>\nPlayers: **3** in <#9> · seed `ab12`"
    plain = format_content(text, Style(enabled=False), {7: "Ana"}, {9: "game-night"})
    assert plain == ["Lotería #1 hosted by @Ana", "Players: 3 in #game-night · seed ab12"]

    coloured = format_content(text, Style(enabled=True), {7: "Ana"}, {9: "game-night"})
    assert coloured[0].startswith("\x1b[1m")
    assert coloured[0].endswith("\x1b[22m")
    assert "\x1b[1m3\x1b[22m" in coloured[1]
    assert "\x1b[36m#game-night\x1b[39m" in coloured[1]


def test_unknown_mentions_stay_readable():
    assert format_content("<@123> won", Style(enabled=False), {}, {}) == ["@123 won"]
