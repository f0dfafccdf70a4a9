import itertools
import re

import pytest

from bot.i18n import message
from cogs.loteria.verses import (
    VERSE_LINE_CHARS,
    VERSE_LINES,
    VERSES,
    verse,
    verse_of,
    verse_of_card,
)
from engine.errors import GameError
from engine.loteria import CLASSIC_DECK, DECK_SIZE, DECKS, FAMILY_DECK, FAMILY_SWAPS, Card
from tests.cogs.text_checks import DISCORD_MESSAGE_LIMIT, fold, reveals, words

EVERY_CARD = list(dict.fromkeys(itertools.chain(CLASSIC_DECK, FAMILY_DECK)))
# Words a card's name may share with any verse: they give nothing away.
ARTICLES = {"el", "la", "las", "los", "the"}


def card_id(card: Card) -> str:
    return f"{card.number}-{card.spanish}"


def test_every_card_of_every_deck_has_a_verse_and_no_verse_is_left_over():
    assert len(EVERY_CARD) == DECK_SIZE + len(FAMILY_SWAPS) == 57
    assert set(VERSES) == {card.spanish for card in EVERY_CARD}


@pytest.mark.parametrize("card", EVERY_CARD, ids=card_id)
def test_each_verse_is_one_or_two_short_lines_in_both_languages(card):
    found = verse_of_card(card)
    for text in (found.spanish, found.english):
        lines = text.split("\n")
        assert 1 <= len(lines) <= VERSE_LINES, text
        for line in lines:
            assert line == line.strip(), repr(line)
            assert 12 <= len(line) <= VERSE_LINE_CHARS, line
            assert "  " not in line
    assert found.spanish != found.english


@pytest.mark.parametrize("card", EVERY_CARD, ids=card_id)
def test_no_verse_names_its_own_card_in_either_language(card):
    """Riddle mode posts the verse before the name: the verse must not give the name away."""
    name_words = set(words(f"{card.spanish} {card.english}")) - ARTICLES
    found = verse_of_card(card)
    for text in (found.spanish, found.english):
        for word in words(text):
            for name_word in name_words:
                assert not reveals(word, name_word), f"{card.spanish}: {word!r} in {text!r}"


@pytest.mark.parametrize("card", EVERY_CARD, ids=card_id)
def test_no_verse_names_another_card(card):
    """A riddle that says "la luna" would send players to the wrong card."""
    found = verse_of_card(card)
    for other in EVERY_CARD:
        if other.spanish == card.spanish:
            continue
        for name in (other.spanish, other.english):
            pattern = rf"\b{re.escape(fold(name))}\b"
            for text in (found.spanish, found.english):
                assert not re.search(pattern, fold(text)), f"{card.spanish} names {name}: {text!r}"


def test_the_name_check_catches_a_verse_that_gives_the_card_away():
    """The check above is only as good as ``reveals``: it must catch forms of the name."""
    assert reveals("gallina", "gallo")
    assert reveals("arrow", "arrows")
    assert reveals("sunrise", "sun")
    assert reveals("corazones", "corazon")
    assert not reveals("espera", "pera")
    assert not reveals("sale", "sol")
    assert words("¡Qué árbol tan alto! El Árbol.") == ["que", "arbol", "tan", "alto", "el", "arbol"]


def test_no_two_verses_are_alike():
    texts = [fold(text) for found in VERSES.values() for text in (found.spanish, found.english)]
    assert len(set(texts)) == len(texts)
    lines = [line for text in texts for line in text.split("\n")]
    assert len(set(lines)) == len(lines)


@pytest.mark.parametrize("deck", DECKS.values(), ids=lambda deck: deck.name)
def test_a_call_message_with_its_verse_fits_a_discord_message(deck):
    for card in deck:
        for locale in ("en-US", "es-ES"):
            line = message(
                "call_line",
                locale,
                spanish=card.spanish,
                english=card.english,
                seq=DECK_SIZE,
                total=DECK_SIZE,
                playing=message("playing_for", locale, prize="Full tabla (Llena)"),
            )
            text = verse(card.number, deck.name, locale)
            quoted = "\n".join(f"> *{part}*" for part in text.split("\n"))
            assert len(f"{line}\n{quoted}") <= DISCORD_MESSAGE_LIMIT
            # Discord markdown: an asterisk or underscore in a verse would break the italics.
            assert not set(text) & set("*_`~|>#")


def test_verse_speaks_the_players_language():
    rooster = VERSES["El Gallo"]
    assert verse(1) == rooster.english
    assert verse(1, "classic", "es-ES") == rooster.spanish
    assert verse(1, "classic", "es-419") == rooster.spanish
    assert verse(1, "classic", "en-GB") == rooster.english
    assert rooster.lines("es-ES") == tuple(rooster.spanish.split("\n"))


def test_the_family_deck_has_its_own_verses_for_its_three_cards():
    for number in range(1, DECK_SIZE + 1):
        classic, family = verse_of(number, "classic"), verse_of(number, "family")
        assert (classic != family) == (number in FAMILY_SWAPS), number
    assert verse_of(25, "family") == VERSES["La Piñata"]
    assert verse_of(25, "classic") == VERSES["El Borracho"]


def test_unknown_decks_cards_and_names_are_refused():
    with pytest.raises(GameError, match="unknown deck"):
        verse(1, "tarot")
    with pytest.raises(GameError, match="no card 55"):
        verse(55)
    with pytest.raises(ValueError, match="no verse"):
        verse_of_card(Card(1, "El Unicornio", "The Unicorn", "🦄"))
