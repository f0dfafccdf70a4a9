"""The call names every game that calls numbers may show beside a call (bot.call_names)."""

import pytest

import cogs.bingo.words
import cogs.housie.words  # noqa: F401
from bot.call_names import NICKNAME_CHARS, NICKNAMES, nickname, nickname_of
from bot.i18n import message
from tests.cogs.text_checks import DISCORD_MESSAGE_LIMIT, fold

EVERY_NUMBER = range(1, 91)


def test_every_number_from_1_to_90_has_a_call_name():
    assert len(NICKNAMES) == 90
    for number in EVERY_NUMBER:
        assert nickname_of(number) is NICKNAMES[number - 1]


@pytest.mark.parametrize("number", EVERY_NUMBER)
def test_each_call_name_is_one_short_line_in_both_languages(number):
    for locale in ("en-US", "es-ES"):
        text = nickname(number, locale)
        assert 3 <= len(text) <= NICKNAME_CHARS, text
        assert text == text.strip()
        assert "\n" not in text
        assert "  " not in text
        assert not set(text) & set("*_`~|>#")  # nothing Discord would read as markdown
        call = message("housie_call", locale, value=number, seq=90, total=90)
        assert len(f"{call} · {text}") <= DISCORD_MESSAGE_LIMIT


def test_no_two_call_names_are_alike():
    for language in ("english", "spanish"):
        names = [fold(getattr(entry, language)) for entry in NICKNAMES]
        assert len(set(names)) == len(names), language


def test_the_traditional_calls_keep_their_numbers():
    assert nickname(1) == "Kelly's eye"
    assert nickname(11) == "Legs eleven"
    assert nickname(22) == "Two little ducks"
    assert nickname(22, "es-ES") == "Los dos patitos"


def test_call_names_speak_the_players_language():
    assert nickname(5) == "Give me five"
    assert nickname(5, "en-GB") == "Give me five"
    assert nickname(5, "es-419") == "Choca esos cinco"


@pytest.mark.parametrize("bad", [0, 91, -1, True, 2.0])
def test_numbers_outside_the_bag_are_refused(bad):
    with pytest.raises(ValueError, match=r"1\.\.90"):
        nickname(bad)
