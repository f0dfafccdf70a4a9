from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest

from bot.verify_link import (
    CustomPrizes,
    LinkRules,
    VerifyLinkError,
    board_layout,
    page_path,
    verify_fragment,
    verify_url,
)
from cogs.housie import Housie
from cogs.loteria import Loteria
from engine.bingo import Pattern as BingoPattern
from engine.fairness import commitment
from engine.housie import Prize
from engine.loteria import Pattern
from tests.web.engine_replay import BINGO_RULES

SEED = bytes(range(32))
# What each game's link may carry, as its cog says.
RULES = {"loteria": Loteria.link_rules(), "housie": Housie.link_rules()}


def boards_for(*counts: int) -> list[tuple[int, int]]:
    """``(holder, deal position)`` for players holding ``counts`` boards each; 0 = one who left."""
    pairs, position = [], 0
    for holder, count in enumerate(counts):
        if count > 0:
            pairs += [(holder, position + i) for i in range(count)]
        position += abs(count)
    return pairs


def test_a_loteria_fragment_in_full():
    fragment = verify_fragment(
        rules=RULES["loteria"],
        seed=SEED,
        prizes=[Pattern.LINE, "corners", Pattern.FULL],
        boards=boards_for(1, 1, 1),
        deck="family",
        calls=40,
        game_id=12,
        language="es-ES",
    )
    assert fragment == (
        f"v=1&game=loteria&id=12&seed={SEED.hex()}&commitment={commitment(SEED)}"
        "&deck=family&prizes=line,corners,full&calls=40&boards=1*3&lang=es"
    )


def test_a_housie_fragment_lists_prize_codes_and_the_deal():
    fragment = verify_fragment(
        rules=RULES["housie"],
        seed=SEED,
        prizes=[Prize.EARLY_FIVE, "FH", "H2"],
        boards=boards_for(2, 6, 1),
    )
    fields = dict(parse_qsl(fragment))
    assert fields == {
        "v": "1",
        "game": "housie",
        "seed": SEED.hex(),
        "commitment": commitment(SEED),
        "prizes": "E5,FH,H2",
        "boards": "2,6,1",
    }


@pytest.mark.parametrize(
    ("pairs", "layout"),
    [
        ([], ""),
        (boards_for(1), "1"),
        (boards_for(3, 3, 3, 1), "3*3,1"),
        (boards_for(2, -1, 1, 1, -4, 6), "2,-1,1*2,-4,6"),
        (boards_for(-2, -3, 1), "-5,1"),  # positions, not people: players who left merge
        ([(7, 5), (9, 6)], "-5,1*2"),
        ([(9, 6), (7, 5)], "-5,1*2"),  # any order in, deal order out
    ],
)
def test_board_layouts(pairs, layout):
    assert board_layout(pairs, RULES["housie"]) == layout


@pytest.mark.parametrize(
    ("pairs", "kind", "message"),
    [
        ([(1, 0), (1, 1)], "loteria", "1 to 1"),
        (boards_for(7), "housie", "1 to 6"),
        ([(1, 0), (2, 1), (1, 2)], "housie", "not at consecutive positions"),
        ([(1, 0), (2, 0)], "housie", "repeated"),
        ([(1, -1)], "housie", "repeated or not a whole number"),
    ],
)
def test_impossible_deals_are_refused(pairs, kind, message):
    with pytest.raises(VerifyLinkError, match=message):
        board_layout(pairs, RULES[kind])


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"shoe": "red"}, "has no field shoe"),
        ({"seed": b"short"}, "32 bytes"),
        ({"prizes": []}, "at least one prize"),
        ({"prizes": ["line", "line"]}, "each once"),
        ({"prizes": ["E5"]}, "not a loteria prize"),
        ({"deck": "tarot"}, "deck"),
        ({"calls": 55}, "outside 0..54"),
        ({"game_id": -1}, "whole number"),
        ({"commitment": "xyz"}, "64 hex"),
        ({"boards": [(1, 10_000)]}, "stop at 9999"),
    ],
)
def test_bad_game_values_are_refused(changes, message):
    values = {"rules": RULES["loteria"], "seed": SEED, "prizes": ["line"], "boards": boards_for(1)}
    values.update(changes)
    with pytest.raises(VerifyLinkError, match=message):
        verify_fragment(**values)


def test_a_given_commitment_is_carried_as_posted():
    fragment = verify_fragment(
        rules=RULES["housie"],
        seed=SEED,
        prizes=["FH"],
        boards=[],
        commitment="AB" * 32,
        calls=90,
    )
    assert dict(parse_qsl(fragment))["commitment"] == "ab" * 32
    assert "boards=" not in fragment


def test_urls_for_every_kind_of_base(tmp_path: Path):
    fragment = "v=1&game=housie"
    assert verify_url(None, fragment) == f"{page_path().as_uri()}#{fragment}"
    assert verify_url("https://bot.example/verify.html", "#" + fragment) == (
        f"https://bot.example/verify.html#{fragment}"
    )
    assert verify_url("http://127.0.0.1:8080/", fragment) == (
        f"http://127.0.0.1:8080/verify.html#{fragment}"
    )
    assert verify_url(tmp_path, fragment) == f"{(tmp_path / 'verify.html').as_uri()}#{fragment}"
    page = tmp_path / "page.html"
    page.write_text("")
    assert verify_url(str(page), fragment) == f"{page.as_uri()}#{fragment}"
    with pytest.raises(VerifyLinkError, match="already has a fragment"):
        verify_url("https://bot.example/verify.html#x", fragment)
    address = urlsplit(verify_url(None, fragment))
    assert address.scheme == "file"
    assert Path(address.path).is_file()


MINE = BingoPattern.custom("mine", "Mine & yours #1 ours?", 0b11111, rotations=True)
STAMPS = BingoPattern.custom("stamps", "Stamps anywhere", 0b11 | 0b11 << 5, anywhere=True)


def test_custom_prizes_travel_whole_and_percent_encoded():
    """A game's own prizes (Bingo's custom patterns, written by the engine) go under the key
    the game names, each in its text form; ``=``, ``+``, ``&`` and spaces are encoded, so the
    fragment still splits into its fields."""
    texts = ",".join(p.to_text() for p in (MINE, STAMPS))
    fragment = verify_fragment(
        rules=BINGO_RULES,
        seed=SEED,
        prizes=["line", "mine", "stamps", "blackout"],
        boards=boards_for(1, 1, -2, 1),
        calls=60,
        patterns=texts,
    )
    assert "&" not in fragment.split("patterns=", 1)[1].split("&calls=")[0]
    assert "+" not in fragment
    fields = dict(parse_qsl(fragment))
    assert fields["prizes"] == "line,mine,stamps,blackout"
    assert fields["patterns"] == texts
    assert [BingoPattern.from_text(t) for t in fields["patterns"].split(",")] == [MINE, STAMPS]
    assert list(fields) == [
        "v", "game", "seed", "commitment", "prizes", "patterns", "calls", "boards",
    ]  # fmt: skip


def test_no_custom_prizes_no_key():
    for patterns in ({}, {"patterns": ""}):
        fragment = verify_fragment(
            rules=BINGO_RULES, seed=SEED, prizes=["x"], boards=boards_for(1), **patterns
        )
        assert "patterns" not in fragment


@pytest.mark.parametrize(
    ("prizes", "patterns", "message"),
    [
        (["mine"], "", "'mine' is not a bingo prize"),
        (["mine"], "mine=Mine=1", "is not a bingo prize"),
        (["line"], "line", "is a built-in pattern's code"),
        (["line"], "line=Any line=0000001", "is not a bingo prize"),
        (["mine"], f"{MINE.to_text()},{MINE.to_text()}", "two prizes have the code 'mine'"),
        (["line"], MINE.to_text(), "mine are defined but not played"),
        (["mine"], MINE.to_text() + ",", "is not a bingo prize"),
    ],
)
def test_bad_custom_prizes_are_refused(prizes, patterns, message):
    with pytest.raises(VerifyLinkError, match=message):
        verify_fragment(
            rules=BINGO_RULES, seed=SEED, prizes=prizes, boards=boards_for(1), patterns=patterns
        )


def test_a_game_without_custom_prizes_has_no_key_for_them():
    with pytest.raises(VerifyLinkError, match="has no field patterns"):
        verify_fragment(
            rules=RULES["loteria"],
            seed=SEED,
            prizes=["line"],
            boards=boards_for(1),
            patterns=MINE.to_text(),
        )


def test_a_custom_prize_cannot_take_a_known_code_whatever_the_game_reads():
    """The link's own guard, for a game whose reader would let it through."""
    toy = LinkRules(
        kind="toy",
        prize_codes=frozenset({"a", "b"}),
        most_boards=1,
        total_calls=10,
        deal_limit=10,
        custom_prizes=CustomPrizes("extra", lambda text: text.partition(":")[0]),
    )
    fragment = verify_fragment(rules=toy, seed=SEED, prizes=["c", "a"], boards=[], extra="c:x")
    assert fragment.endswith("&prizes=c,a&extra=c%3Ax")
    with pytest.raises(VerifyLinkError, match="takes the code of a built-in prize"):
        verify_fragment(rules=toy, seed=SEED, prizes=["a"], boards=[], extra="a:x")
