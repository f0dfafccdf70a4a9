"""The engines' reasons in the players' words: every code an engine gives (``engine.errors.Reason``)
has a message in English and Spanish, filled from the values the engine really gives, and the
English words are the engine's own text."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import pytest

import engine
from bot.i18n import MESSAGES, message
from bot.reasons import error_text, number_list, reason_text
from bot.replies import UserError, friendly_message
from cogs.bingo import words as bingo_words
from cogs.housie import SPANISH_PRIZE_NAMES
from engine import bingo
from engine.dots import DotsGame, parse_line
from engine.errors import GameError, Reason
from engine.housie import Calls, Prize, Ticket, check_prize, decode_ticket_code, encode_ticket_code
from engine.loteria import Pattern, Tabla, check_claim
from engine.tictactoe import Rules, TicTacToe
from engine.triangle import TriangleGame
from tests.bot.test_i18n import fields

KEY = b"k" * 32
TICKET = Ticket(
    (
        (3, 0, 21, 0, 45, 0, 62, 0, 81),
        (0, 14, 0, 33, 0, 57, 0, 71, 85),
        (8, 0, 27, 0, 49, 0, 66, 77, 0),
    )
)
TOP = [3, 21, 45, 62, 81]
TABLA = Tabla(tuple(range(1, 17)))  # rows: 1-4, 5-8, 9-12, 13-16
BINGO_CARD = bingo.cards_at(bytes(range(32)), 0)[0]
BINGO_LINE = bingo.PATTERN_BOOK["line"]
CODE = encode_ticket_code(TICKET, 12, KEY)
# Said differently on purpose: the message leaves out who drew the line (the engine's "first
# player" means nothing to players, who play red and blue).
WORDED_OWN_WAY = {"dots_line_taken"}


def every_reason() -> set[Reason]:
    """Every code of every engine module (each is imported, so none is missed)."""
    for module in pkgutil.walk_packages(engine.__path__, "engine."):
        importlib.import_module(module.name)
    found: set[Reason] = set()
    kinds = list(Reason.__subclasses__())
    while kinds:
        kind = kinds.pop()
        kinds += kind.__subclasses__()
        found |= set(kind)
    return found


@dataclass(frozen=True)
class Example:
    """One reason as an engine really gives it; ``prize`` for the values a cog words itself."""

    english: str
    code: str
    values: Mapping[str, object]
    prize: Prize | None = None

    def text(self, locale: str) -> str:
        shown = {}
        if self.prize is not None:
            spanish = locale.startswith("es")
            shown["prize"] = SPANISH_PRIZE_NAMES[self.prize] if spanish else self.prize.display_name
        return reason_text(self.english, self.code, self.values, locale, **shown)


def refusal(play: Callable[[], object]) -> Example:
    with pytest.raises(GameError) as refused:
        play()
    error = refused.value
    return Example(str(error), error.code, error.values)


def verdict(result: object) -> Example:
    english, code, values = (getattr(result, name) for name in ("reason", "code", "values"))
    prize = values.get("prize")
    return Example(english, code, values, prize if isinstance(prize, Prize) else None)


def played_dots() -> DotsGame:
    game = DotsGame()
    game.play("A1-B1")
    return game


def played_triangle(*jumps: tuple[int, int]) -> TriangleGame:
    game = TriangleGame.new(0)
    for jump in jumps:
        game.jump(*jump)
    return game


def finished_triangle() -> TriangleGame:
    game = TriangleGame.new(0)
    for jump in game.solution():
        game.play(jump)
    return game


def taken_cell() -> TicTacToe:
    game = TicTacToe()
    game.play(4)
    return game


def bingo_slept() -> object:
    """A line completed, then a call elsewhere on the card: the slept rule refuses it."""
    row = [n for n in BINGO_CARD.numbers[:5] if n]
    elsewhere = next(n for n in BINGO_CARD.numbers[5:] if n)
    return bingo.check_claim(BINGO_CARD, [*row, elsewhere], BINGO_LINE, require_last=True)


def examples() -> list[Example]:
    return [
        verdict(check_claim(TABLA, [1, 2, 3], Pattern.LINE)),
        verdict(check_claim(TABLA, [1, 4, 13], Pattern.CORNERS)),
        verdict(check_claim(TABLA, [6, 7, 10], Pattern.CENTRE)),
        verdict(check_claim(TABLA, [1, 2, 5], Pattern.SQUARE)),
        verdict(check_claim(TABLA, list(range(1, 16)), Pattern.FULL)),
        verdict(check_claim(TABLA, [], Pattern.LINE)),
        verdict(check_claim(TABLA, [1, 2, 3, 4, 46], Pattern.LINE, require_last=True)),
        verdict(check_prize(TICKET, [], Prize.FULL_HOUSE)),
        verdict(check_prize(TICKET, [3, 90], Prize.EARLY_FIVE)),
        verdict(check_prize(TICKET, [3, 21], Prize.EARLY_FIVE)),
        verdict(check_prize(TICKET, TOP[:4], Prize.TOP_LINE)),
        verdict(check_prize(TICKET, Calls([3]), Prize.FULL_HOUSE)),
        verdict(check_prize(TICKET, [*TOP, 90], Prize.EARLY_FIVE, require_last=True)),
        verdict(check_prize(TICKET, [*TOP, 14], Prize.TOP_LINE, require_last=True)),
        verdict(check_prize(TICKET, TOP, Prize.TOP_LINE)),
        verdict(check_prize(TICKET, TOP, Prize.TOP_LINE, require_last=True)),
        verdict(bingo.check_claim(BINGO_CARD, [], BINGO_LINE)),
        verdict(bingo.check_claim(BINGO_CARD, [75], BINGO_LINE)),
        verdict(bingo_slept()),
        refusal(lambda: decode_ticket_code(CODE[:-1], KEY)),
        refusal(lambda: decode_ticket_code(CODE[:2] + "U" + CODE[3:], KEY)),
        refusal(lambda: decode_ticket_code("0" + CODE, KEY)),
        refusal(lambda: decode_ticket_code(CODE, b"K" * 32)),
        refusal(lambda: decode_ticket_code(CODE, KEY, game_id=13)),
        refusal(lambda: parse_line("Z")),
        refusal(lambda: parse_line("E1-D1")),
        refusal(lambda: parse_line("A1 A1")),
        refusal(lambda: parse_line("A1-B2")),
        refusal(lambda: parse_line("A1-C1")),
        refusal(lambda: played_dots().play("A1-B1")),
        refusal(lambda: TicTacToe(Rules(4, 3)).play(16)),
        refusal(lambda: taken_cell().play(4)),
        refusal(lambda: TriangleGame.new(0).jump(3, 15)),
        refusal(lambda: finished_triangle().jump(0, 3)),
        refusal(lambda: played_triangle((3, 0), (12, 3)).jump(1, 10)),
        refusal(lambda: played_triangle((3, 0), (10, 3)).jump(0, 3)),
        refusal(lambda: played_triangle((3, 0)).jump(10, 1)),
        refusal(lambda: played_triangle((3, 0)).jump(6, 1)),
    ]


def test_every_engine_reason_is_a_message_in_both_languages():
    reasons = every_reason()
    kinds = {type(reason).__name__ for reason in reasons}
    assert kinds >= {
        "ClaimReason",
        "PrizeReason",
        "CodeReason",
        "DotsReason",
        "TicTacToeReason",
        "TriangleReason",
    }
    assert set(bingo.ClaimReason) <= set(bingo_words.MESSAGES)  # Bingo's reasons, beside its cog
    assert sorted(reason for reason in reasons if reason not in MESSAGES) == []
    assert len({str(reason) for reason in reasons}) == len(reasons)  # no code twice


def test_every_reason_is_worded_from_the_values_the_engine_gives():
    """Each code as an engine really gives it (so a new code needs an example here): its
    message names only values the engine gives, in both languages."""
    found = examples()
    assert {example.code for example in found} == every_reason()
    for example in found:
        given = set(example.values) | ({"prize"} if example.prize else set())
        for text in MESSAGES[example.code]:
            assert fields(text) <= given, example.code
        spanish = example.text("es-ES")
        assert "{" not in spanish, example.code
        assert spanish != example.english, example.code
        assert example.text("es-419") == spanish


def test_the_english_words_are_the_engines_own_text():
    for example in examples():
        if example.code not in WORDED_OWN_WAY:
            assert example.text("en-US") == example.english
    taken = refusal(lambda: played_dots().play("A1-B1"))
    assert taken.english == "line A1-B1 is already drawn (by the first player)"
    assert taken.text("en-US") == "line A1-B1 is already drawn"
    assert taken.text("es-ES") == "la línea A1-B1 ya está trazada"


def test_reasons_in_spanish():
    full = verdict(check_prize(TICKET, Calls([3]), Prize.FULL_HOUSE))
    assert full.text("es-ES") == (
        "el premio Cartón lleno no está completo: faltan por salir 8, 14, 21, 27, 33 y 9 más"
    )
    one = verdict(check_prize(TICKET, TOP[:4], Prize.TOP_LINE))
    assert one.text("es-ES") == "el premio Línea de arriba no está completo: falta por salir el 81"
    short = verdict(check_prize(TICKET, [3, 90], Prize.EARLY_FIVE))
    assert short.text("es-ES").endswith("solo ha salido 1")
    slept = verdict(check_claim(TABLA, [1, 2, 3, 4, 46], Pattern.LINE, require_last=True))
    assert slept.text("es-ES") == "la figura no incluye la última carta cantada (El Sol)"
    character = refusal(lambda: decode_ticket_code(CODE[:2] + "U" + CODE[3:], KEY))
    assert character.text("es-ES").endswith("el carácter 3 es 'U'")
    assert refusal(lambda: parse_line("Z")).text("es-ES") == (
        "'Z' no es una línea: nombra dos puntos, como A1-B1"
    )
    assert refusal(lambda: taken_cell().play(4)).text("es-ES") == "la casilla 4 ya es de X"


def test_numbers_are_listed_in_one_place():
    assert number_list([2, 8, 10], "en-US") == "2, 8, 10"
    assert number_list(range(1, 9), "en-US") == "1, 2, 3, 4, 5 and 3 more"
    assert number_list(range(1, 9), "es-ES") == "1, 2, 3, 4, 5 y 3 más"
    assert number_list(range(1, 7), "es-ES", limit=6) == "1, 2, 3, 4, 5, 6"
    assert number_list([], "en-US") == ""


def test_a_refusal_is_shown_in_the_readers_language():
    with pytest.raises(GameError) as refused:
        parse_line("A1-C1")
    error = refused.value
    assert (
        friendly_message(error, "es-ES")
        == "A1-C1 se salta puntos: una línea une dos puntos vecinos"
    )
    assert friendly_message(error, "en-US") == str(error)
    # A code-less error (no player causes one) and a code with no message keep the English.
    damaged = GameError("game state 'x' is not 'seedhex/deck/prizes/drawn/prize_index'")
    assert friendly_message(damaged, "es-ES") == str(damaged)
    unknown = GameError("something new", "zz_no_such_code", value=1)
    assert friendly_message(unknown, "es-ES") == "something new"
    assert error_text(unknown, "es-ES") == "something new"


def test_a_refusal_naming_an_engine_error_words_it_in_the_same_language():
    with pytest.raises(GameError) as refused:
        decode_ticket_code(CODE, b"K" * 32)
    bad = UserError("housie_code_bad", error=refused.value)
    assert bad.text("es-ES") == message(
        "housie_code_bad", "es-ES", error=message("housie_code_forged", "es-ES")
    )
    assert bad.text("es-ES").startswith("❌ Código de cartón no válido: este código de cartón")
    assert bad.text("en-US") == f"❌ Not a valid ticket code: {refused.value}."
