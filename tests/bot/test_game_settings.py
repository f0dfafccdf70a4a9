"""What each game adds to ``/gamenight settings`` (bot.game_settings): the prizes option's
description composed from the games' words, and options of a game's own."""

from __future__ import annotations

import pytest

from bot import game_settings
from bot.game_settings import GameOption, GameSettings, register_game_settings
from bot.i18n import MESSAGES
from bot.storage import GameDefaults


@pytest.fixture
def restored():
    """The registry and the messages as they were, whatever a test registers."""
    games, messages = dict(game_settings._GAMES), dict(MESSAGES)
    yield
    game_settings._GAMES.clear()
    game_settings._GAMES.update(games)
    MESSAGES.clear()
    MESSAGES.update(messages)


def line(value: str | None, locale: object, builtin: str) -> str:
    return f"deck {value}{builtin}"


def test_the_loaded_games_describe_the_prizes_option_as_before():
    assert game_settings.prizes_description() == (
        "Default prizes: Bingo patterns, or Housie prizes, or a Lotería plan",
        "Premios por defecto: figuras de bingo, o premios de tómbola, o un plan de Lotería",
    )
    (deck,) = game_settings.options()
    assert deck.name == "deck"
    assert game_settings.of_game("loteria").options == (deck,)
    assert game_settings.of_game("housie").options == ()
    assert game_settings.of_game("bingo").options == ()


def test_a_new_games_prizes_join_the_description_whatever_order_it_loads_in(restored):
    MESSAGES["zz_prizes"] = ("a zebra", "eso")
    register_game_settings(GameSettings("zz", prizes="zz_prizes"))
    english, spanish = game_settings.prizes_description()
    assert english == (
        "Default prizes: Bingo patterns, or Housie prizes, or a Lotería plan, or a zebra"
    )
    assert spanish.endswith("o premios de tómbola, o un plan de Lotería, o eso")


def test_the_prizes_description_names_no_game_rather_than_grow_past_the_limit(restored):
    """Discord refuses a description over 100 characters in any language, and the whole
    command with it: with more games, or longer words, the description names none."""
    for number in range(3):
        key = f"zz{number}_prizes"
        MESSAGES[key] = (f"the patterns of game {number}", f"las figuras del juego {number}")
        register_game_settings(GameSettings(f"zz{number}", prizes=key))
    english, spanish = game_settings.prizes_description()
    assert english == "Default prizes of the game chosen, as its start command takes them"
    assert spanish == "Premios por defecto del juego elegido, como los toma su comando para empezar"
    assert max(len(english), len(spanish)) <= game_settings.PRIZES_DESCRIPTION_MOST


def test_a_games_own_option_sets_its_field_of_the_defaults(restored):
    (deck,) = game_settings.options()
    defaults = game_settings.with_option(GameDefaults(interval=20), deck, "family")
    assert defaults == GameDefaults(interval=20, deck="family")
    assert game_settings.option_value(defaults, deck) == "family"
    assert game_settings.option_value(GameDefaults(), deck) is None
    # Another game may not take the option, nor name a field the defaults do not have or
    # every game shares.
    taken = GameOption("deck", "Its deck", (("A", "a"),), "zz_bad", line)
    with pytest.raises(ValueError, match="already loteria's"):
        register_game_settings(GameSettings("zz", options=(taken,)))
    for name in ("colour", "interval", "prizes"):
        with pytest.raises(ValueError, match="not a game's own field"):
            register_game_settings(
                GameSettings("zz", options=(GameOption(name, "x", (), "zz_bad", line),))
            )
    # The same game again replaces what it registered.
    register_game_settings(game_settings.of_game("loteria"))
    assert game_settings.options() == [deck]
