"""The page's JavaScript against the Python engine, in a real browser: many seeds and sizes in
a few ``page.evaluate`` calls (the page's own functions, as the page uses them)."""

from __future__ import annotations

import hashlib
import itertools
import math
import os
import random
import secrets
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from bot.render.bingo.words import PATTERN_NAMES
from bot.verify_link import verify_fragment
from cogs.housie import Housie
from cogs.loteria import Loteria
from engine.bingo import (
    CARD_ARRANGEMENTS,
    PATTERN_BOOK,
    _card_from,
    call_name,
    cards_at,
    placements,
)
from engine.bingo import Pattern as BingoPattern
from engine.bingo import check_claim as check_bingo_claim
from engine.errors import GameError
from engine.fairness import DEAL_LABEL, DRAW_LABEL, SeededRandom, commitment, draw_order
from engine.housie import (
    Calls,
    CodeReason,
    HousieGame,
    Prize,
    Ticket,
    TicketCodeError,
    check_prize,
    decode_ticket_code,
    encode_ticket_code,
    ticket_count,
    ticket_rank,
    tickets_at,
)
from engine.loteria import (
    DECKS,
    LoteriaGame,
    Pattern,
    Tabla,
    check_claim,
    deal_for_game,
    tablas_at,
)
from tests.engine import test_strip_vector as vector
from tests.engine.test_fairness import VECTOR_54, VECTOR_90, VECTOR_SEED
from tests.web.engine_replay import (
    BINGO_RULES,
    bingo_patterns_field,
    bingo_replay,
    deal_positions,
    housie_replay,
    loteria_replay,
)


def seed_for(*parts: object) -> bytes:
    return hashlib.sha256(repr(parts).encode()).digest()


def first_call(order: Sequence[int], complete: Callable[[Sequence[int]], bool]) -> int:
    """The fewest calls of ``order`` with which ``complete`` holds (it stays true after)."""
    low, high = 1, len(order)
    assert complete(order)
    while low < high:
        middle = (low + high) // 2
        if complete(order[:middle]):
            high = middle
        else:
            low = middle + 1
    return low


def test_the_documented_draw_order_vector(engine_page):
    orders = engine_page.evaluate(
        "async (seed) => [await GamenightEngine.drawOrder(seed, 54),"
        " await GamenightEngine.drawOrder(seed, 90)]",
        VECTOR_SEED.hex(),
    )
    assert tuple(orders[0][:10]) == VECTOR_54
    assert tuple(orders[1][:10]) == VECTOR_90


def test_the_documented_strip_vector(engine_page):
    found = engine_page.evaluate(
        """async (seed) => {
            const E = GamenightEngine;
            const tables = E.housieTables();
            const [first, second] = await E.dealStrips(seed, 2);
            return {
                layouts: tables.layouts.map((group) => group.length),
                weights: tables.weights.map(String),
                total: String(tables.sampler.total),
                states: tables.sampler.stateCount(),
                matrixIndex: String(first.matrixIndex),
                plan: first.plan,
                fillBound: String(first.fillBound),
                fillIndex: String(first.fillIndex),
                tickets: first.tickets.map(E.ticketState),
                position6: E.ticketState(second.tickets[0]),
            };
        }""",
        vector.VECTOR_SEED.hex(),
    )
    assert tuple(found["layouts"]) == vector.LAYOUT_COUNTS
    assert tuple(map(int, found["weights"])) == vector.TYPE_WEIGHTS
    assert int(found["total"]) == vector.W
    assert found["states"] == vector.STATES
    assert int(found["matrixIndex"]) == vector.MATRIX_INDEX
    plan = [(a, tuple(slots)) for a, slots in found["plan"]]
    assert vector.count_matrix(plan) == vector.K_ROWS
    assert int(found["fillBound"]) == vector.FILL_BOUND
    assert int(found["fillIndex"]) == vector.FILL_INDEX
    assert tuple(found["tickets"]) == vector.TICKETS
    assert found["position6"] == vector.POSITION_6


@pytest.mark.parametrize("implementation", ["webcrypto", "fallback"])
def test_stream_and_commitment_match_under_both_sha256s(engine_page, implementation):
    seeds = [VECTOR_SEED, *(seed_for("stream", i) for i in range(5))]
    found = engine_page.evaluate(
        """async ([seeds, implementation]) => {
            const E = GamenightEngine;
            E.useCrypto(implementation);
            try {
                const out = [];
                for (const seed of seeds) {
                    out.push({
                        name: E.cryptoName(),
                        commitment: await E.commitment(seed),
                        draw: await E.streamBytes(seed, "draw", 300),
                        deal: await E.streamBytes(seed, "deal", 70),
                    });
                }
                return out;
            } finally {
                E.useCrypto(null);
            }
        }""",
        [[seed.hex() for seed in seeds], implementation],
    )
    for seed, got in zip(seeds, found, strict=True):
        assert got["name"] == implementation
        assert got["commitment"] == commitment(seed)
        assert got["draw"] == SeededRandom(seed, DRAW_LABEL)._take(300).hex()
        assert got["deal"] == SeededRandom(seed, DEAL_LABEL)._take(70).hex()


def test_the_fallback_sha256_matches_hashlib_at_every_padding_length(engine_page):
    messages = [bytes(range(n % 256)) * (1 + n // 256) for n in range(200)]
    messages += [b"\xff" * 1000, b"abc" * 700]
    found = engine_page.evaluate(
        """(messages) => messages.map((hex) => {
            const E = GamenightEngine;
            const bytes = E.hexToBytes(hex);
            return [E.bytesToHex(E.sha256Plain(bytes)),
                    E.bytesToHex(E.hmacSha256Plain(bytes.slice(0, 80), bytes))];
        })""",
        [message.hex() for message in messages],
    )
    import hmac

    for message, (digest, tag) in zip(messages, found, strict=True):
        assert digest == hashlib.sha256(message).hexdigest()
        assert tag == hmac.new(message[:80], message, hashlib.sha256).hexdigest()


def test_draw_orders_match_on_many_seeds(engine_page):
    cases = [(seed_for("draw", i), size) for i in range(40) for size in (54, 90)]
    cases += [(seed_for("draw-size", size), size) for size in (1, 2, 3, 7, 120)]
    found = engine_page.evaluate(
        """async (cases) => {
            const out = [];
            for (const [seed, size] of cases) out.push(await GamenightEngine.drawOrder(seed, size));
            return out;
        }""",
        [[seed.hex(), size] for seed, size in cases],
    )
    for (seed, size), order in zip(cases, found, strict=True):
        assert tuple(order) == draw_order(seed, size)


def test_tablas_match_on_many_seeds(engine_page):
    cases = [(seed_for("tablas", i), count) for i, count in enumerate((1, 2, 9, 60, 200, 200, 500))]
    found = engine_page.evaluate(
        """async (cases) => {
            const out = [];
            for (const [seed, count] of cases) {
                out.push((await GamenightEngine.dealTablas(seed, count)).map((t) => t.join(".")));
            }
            return out;
        }""",
        [[seed.hex(), count] for seed, count in cases],
    )
    for (seed, count), tablas in zip(cases, found, strict=True):
        assert tablas == [tabla.to_state() for tabla in deal_for_game(seed, count)]


def test_ticket_ranks_and_codes_read_as_the_engine_reads_them(engine_page):
    """The page finds a player's ticket by its code: the game and the ticket's rank, decoded as
    engine/housie/codes.py decodes them (the tag needs the server's key: not checked)."""
    key = secrets.token_bytes(32)
    tickets = tickets_at(seed_for("codes"), 0, 60)
    game_ids = [0, 1, 7, 8, 12, 999_999, 10**6, 2**63 - 1, 2**64 - 1]
    cases = [
        (ticket, game_id, encode_ticket_code(ticket, game_id, key))
        for index, ticket in enumerate(tickets)
        for game_id in game_ids[index % len(game_ids) :][:3]
    ]
    # As people type them: lower case, dashes, spaces, O for 0 and I or L for 1.
    typed = [code.lower() for _, _, code in cases[:10]]
    typed += [f"{code[:5]}-{code[5:13]} {code[13:]}" for _, _, code in cases[10:20]]
    typed += [code.replace("0", "O").replace("1", "l") for _, _, code in cases[20:]]
    found = engine_page.evaluate(
        """([rows, codes]) => ({
            count: String(GamenightEngine.ticketCount()),
            ranks: rows.map((r) => String(GamenightEngine.ticketRank(r))),
            codes: codes.map((c) => {
                const {game, rank} = GamenightEngine.readTicketCode(c);
                return [String(game), String(rank)];
            }),
        })""",
        [[[list(row) for row in ticket.rows] for ticket, _, _ in cases], typed],
    )
    assert int(found["count"]) == ticket_count()
    assert [int(rank) for rank in found["ranks"]] == [ticket_rank(t) for t, _, _ in cases]
    for (ticket, game_id, code), text, (game, rank) in zip(
        cases, typed, found["codes"], strict=True
    ):
        assert decode_ticket_code(text, key) == (ticket, game_id)
        assert (int(game), int(rank)) == (game_id, ticket_rank(ticket)), code


@pytest.mark.parametrize(
    ("code", "reason"),
    [
        ("ABC", CodeReason.LENGTH),
        ("1" * 65, CodeReason.LENGTH),
        ("0" * 25 + "U", CodeReason.CHARACTER),
        ("0" * 20 + "*" + "0" * 5, CodeReason.CHARACTER),
        ("0" + "Z" * 26, CodeReason.LEADING_ZEROS),
        ("00" + "Z" * 29, CodeReason.LEADING_ZEROS),
    ],
)
def test_a_malformed_code_is_refused_as_the_engine_refuses_it(engine_page, code, reason):
    with pytest.raises(TicketCodeError) as refused:
        decode_ticket_code(code, b"k" * 32)
    assert refused.value.code == reason
    found = engine_page.evaluate(
        """(code) => {
            try { GamenightEngine.readTicketCode(code); return null; }
            catch (error) { return error.key; }
        }""",
        code,
    )
    assert (
        found
        == {
            CodeReason.LENGTH: "code-length",
            CodeReason.CHARACTER: "code-character",
            CodeReason.LEADING_ZEROS: "code-leading-zeros",
        }[reason]
    )


def test_the_page_decks_are_the_engines(engine_page):
    decks = engine_page.evaluate("GamenightVerify.DECKS")
    assert set(decks) == set(DECKS)
    for name, deck in DECKS.items():
        assert decks[name] == [[card.spanish, card.english] for card in deck]


HOUSIE_PRIZES = [prize.value for prize in Prize]
LOTERIA_PRIZES = [pattern.value for pattern in Pattern]


def verify_games(page, games: list[dict[str, str]]) -> list[dict]:
    return page.evaluate(
        """async (games) => {
            const out = [];
            for (const game of games) {
                const result = await GamenightVerify.verifyGame(game);
                out.push({
                    commitmentOk: result.commitmentOk,
                    order: result.order,
                    earliest: result.earliest,
                    boards: result.boards.map((b) => ({
                        deal: b.deal, player: b.player, index: b.index, count: b.count,
                        state: b.state, completions: b.completions,
                    })),
                });
            }
            return out;
        }""",
        games,
    )


# Housie: 1 to 6 tickets each for 1 to 200 players (a sample of the sizes, every ticket count).
HOUSIE_SIZES = [(tickets, players) for tickets in range(1, 7) for players in (1, 2, 5, 33, 200)]


def test_housie_deals_and_prize_marks_match_for_1_to_6_tickets_and_1_to_200_players(engine_page):
    games = [
        {
            "game": "housie",
            "seed": seed_for("housie", tickets, players).hex(),
            "prizes": ",".join(HOUSIE_PRIZES),
            "boards": f"{tickets}*{players}",
        }
        for tickets, players in HOUSIE_SIZES
    ]
    results = verify_games(engine_page, games)
    compared = 0
    for (tickets, players), game, result in zip(HOUSIE_SIZES, games, results, strict=True):
        seed = bytes.fromhex(game["seed"])
        order = draw_order(seed, 90)
        assert tuple(result["order"]) == order
        prefixes = [Calls(order[:n]) for n in range(91)]  # validated once, checked many times
        assert len(result["boards"]) == tickets * players
        everyone = tickets_at(seed, 0, tickets * players)  # one replay of the stream per game
        for player in range(players):
            dealt = everyone[player * tickets : (player + 1) * tickets]
            for index, ticket in enumerate(dealt):
                board = result["boards"][player * tickets + index]
                assert (board["player"], board["index"], board["count"]) == (
                    player + 1,
                    index,
                    tickets,
                )
                assert board["state"] == ticket.to_state()
                assert Ticket.from_state(board["state"]) == ticket
                if compared < 1500:  # prize marks on a good sample of every size
                    for prize in Prize:
                        expected = first_call(
                            order,
                            lambda called, p=prize, t=ticket, calls=prefixes: (
                                check_prize(t, calls[len(called)], p).valid
                            ),
                        )
                        assert board["completions"][prize.value] == expected, (prize, ticket)
                compared += 1
    assert compared == sum(t * p for t, p in HOUSIE_SIZES)


def test_loteria_deals_and_prize_marks_match_with_both_decks(engine_page):
    sizes = [1, 2, 12, 100]
    games = [
        {
            "game": "loteria",
            "seed": seed_for("loteria", players).hex(),
            "deck": deck,
            "prizes": ",".join(LOTERIA_PRIZES),
            "boards": f"1*{players}",
        }
        for players in sizes
        for deck in DECKS
    ]
    results = verify_games(engine_page, games)
    for game, result in zip(games, results, strict=True):
        seed = bytes.fromhex(game["seed"])
        order = draw_order(seed, 54)
        assert tuple(result["order"]) == order
        tablas = deal_for_game(seed, len(result["boards"]))
        for board, tabla in zip(result["boards"], tablas, strict=True):
            assert board["state"] == tabla.to_state()
            assert Tabla.from_state(board["state"]) == tabla
            for pattern in Pattern:
                expected = first_call(
                    order, lambda called, p=pattern, t=tabla: check_claim(t, called, p).valid
                )
                assert board["completions"][pattern.value] == expected, (pattern, tabla)
    # The deck names the cards; it changes nothing dealt or called.
    for classic, family in zip(results[::2], results[1::2], strict=True):
        assert classic["order"] == family["order"]
        assert classic["boards"] == family["boards"]


def test_gaps_in_the_deal_skip_positions(engine_page):
    seed = seed_for("gaps")
    (housie_game, loteria_game) = verify_games(
        engine_page,
        [
            {"game": "housie", "seed": seed.hex(), "prizes": "FH", "boards": "2,-3,1*2,-1,6"},
            {"game": "loteria", "seed": seed.hex(), "prizes": "full", "boards": "-2,1,-1,1"},
        ],
    )
    tickets = tickets_at(seed, 0, 14)
    in_play = [(0, 1), (1, 1), (5, 2), (6, 3), *((deal, 4) for deal in range(8, 14))]
    shown = [(b["deal"], b["player"]) for b in housie_game["boards"] if b["player"] is not None]
    assert shown == in_play
    for board in housie_game["boards"]:
        assert board["state"] == tickets[board["deal"]].to_state()
    left = [b["deal"] for b in housie_game["boards"] if b["player"] is None]
    assert left == [2, 3, 4, 7]
    tablas = tablas_at(seed, 0, 4)
    assert [(b["deal"], b["player"], b["state"]) for b in loteria_game["boards"]] == [
        (0, None, tablas[0].to_state()),
        (1, None, tablas[1].to_state()),
        (2, 1, tablas[2].to_state()),
        (3, None, tablas[3].to_state()),
        (4, 2, tablas_at(seed, 4)[0].to_state()),
    ]


REPRODUCED = {  # issue 27: 29 calls, no line yet; the corners, played after it, were not won
    "game": "loteria",
    "id": "8705",
    "seed": "5c62e55f78a3a00b793934e808ac065c60c9e5ebc96944e5551c09f22ac813b8",
    "deck": "classic",
    "prizes": "line,corners",
    "calls": "29",
    "boards": "1*4",
}


def test_a_prize_nobody_won_holds_back_the_prizes_after_it(engine_page):
    (result,) = verify_games(engine_page, [REPRODUCED])
    expected = loteria_replay(
        bytes.fromhex(REPRODUCED["seed"]), ["line", "corners"], [[0], [1], [2], [3]], 29, "classic"
    )
    assert [win.as_page() for win in expected] == [
        {"prize": "line", "call": None, "deals": []},
        {"prize": "corners", "call": None, "deals": []},
    ]
    assert result["earliest"] == [win.as_page() for win in expected]
    # Tabla 1 does hold the corners by call 22: its own mark says so, the prize does not.
    assert result["boards"][0]["completions"]["corners"] == 22


def random_game(rng: random.Random, kind: str) -> tuple[dict[str, str], list[str], list[int]]:
    """A game the bot could have played: its page fields, its prizes and one entry per player
    (boards held, or -n positions of players who left)."""
    most = 6 if kind == "housie" else 1
    holders = [
        -rng.randint(1, 3) if rng.random() < 0.1 else rng.randint(1, most)
        for _ in range(rng.randint(1, 30))
    ]
    if all(count < 0 for count in holders):
        holders.append(1)
    if kind == "loteria":
        prizes = rng.sample(LOTERIA_PRIZES, rng.randint(1, len(LOTERIA_PRIZES)))
        if rng.random() < 0.4:  # a prize hardly ever won early, played first: it holds the rest
            prizes = ["full", *(p for p in prizes if p != "full")]
        calls = rng.randint(4, 54)
    else:
        singles = [p for p in HOUSIE_PRIZES if p not in ("FH", "H2", "H3")]
        houses = ["FH", "FH,H2", "FH,H2,H3"][rng.randint(0, 2)].split(",")
        prizes = rng.sample(singles, rng.randint(0, len(singles))) + houses
        if rng.random() < 0.3:
            rng.shuffle(prizes)  # the engine plays them in any listed order
        calls = rng.randint(10, 90)
    fields = {
        "game": kind,
        "seed": rng.randbytes(32).hex(),
        "prizes": ",".join(prizes),
        "calls": str(calls),
        "boards": ",".join(str(count) for count in holders),
    }
    if kind == "loteria":
        fields["deck"] = rng.choice(sorted(DECKS))
    return fields, prizes, holders


def engine_earliest(fields: dict[str, str], prizes: list[str], holders: list[int]) -> list:
    seed = bytes.fromhex(fields["seed"])
    players = deal_positions(holders)
    calls = int(fields["calls"])
    if fields["game"] == "loteria":
        wins = loteria_replay(seed, prizes, players, calls, fields["deck"])
    else:
        wins = housie_replay(seed, prizes, players, calls)
    return [win.as_page() for win in wins]


def test_earliest_wins_are_the_engines_game_on_many_seeds(engine_page):
    """Random games of both kinds against the engine's replay; the run's seed is printed on
    failure (GAMENIGHT_VERIFY_SEED=<hex> replays it)."""
    run_seed = os.environ.get("GAMENIGHT_VERIFY_SEED") or secrets.token_hex(8)
    rng = random.Random(run_seed)
    cases = [random_game(rng, kind) for kind in ("loteria", "housie") for _ in range(30)]
    results = verify_games(engine_page, [fields for fields, _, _ in cases])
    held_back = 0
    for (fields, prizes, holders), result in zip(cases, results, strict=True):
        expected = engine_earliest(fields, prizes, holders)
        assert result["earliest"] == expected, f"GAMENIGHT_VERIFY_SEED={run_seed}: {fields}"
        # A prize not won while a later one was complete on some board within the calls made.
        calls = int(fields["calls"])
        if fields["game"] == "loteria":
            for index, win in enumerate(expected):
                later = prizes[index + 1 :]
                complete_later = any(
                    board["player"] is not None and board["completions"][prize] <= calls
                    for board in result["boards"]
                    for prize in later
                )
                if win["call"] is None and complete_later:
                    held_back += 1
                    break
    assert held_back, f"no game held a prize back (GAMENIGHT_VERIFY_SEED={run_seed})"


def test_a_players_two_tickets_filling_on_one_call_win_two_houses(engine_page):
    """The bot's rules on top of the engine, seen once: a player holding two tickets that fill
    on the same call wins the full house with the first and the second house with the other (a
    player wins a prize once; a ticket one house)."""
    fields = {
        "game": "housie",
        "seed": seed_for("two houses", 12).hex(),
        "prizes": "FH,H2,H3",
        "calls": "90",
        "boards": "-3,6",
    }
    expected = engine_earliest(fields, ["FH", "H2", "H3"], [-3, 6])
    full, second, third = expected
    assert full["call"] == second["call"] == 80
    assert (full["deals"], second["deals"]) == ([5], [8])
    assert third["call"] > 80
    (result,) = verify_games(engine_page, [fields])
    assert result["earliest"] == expected


def engine_refuses(kind: str, prizes: list[str]) -> bool:
    """Whether the engine (its prize codes, its game's constructor) or the link's writer
    (bot/verify_link.py) refuses to play or write ``prizes``."""
    try:
        if kind == "housie":
            HousieGame(seed_for("prizes"), tuple(Prize(code) for code in prizes))
        else:
            LoteriaGame.new(seed_for("prizes"), [Pattern(code) for code in prizes])
        rules = (Housie if kind == "housie" else Loteria).link_rules()
        verify_fragment(rules=rules, seed=seed_for("prizes"), prizes=prizes, boards=[])
    except (ValueError, GameError):  # VerifyLinkError is a ValueError
        return True
    return False


def test_the_page_refuses_the_prize_lists_the_engine_refuses(engine_page):
    housie_codes = ["E5", "FH", "H2", "H3"]
    loteria_codes = ["line", "corners", "full"]
    lists = [
        ("housie", list(chosen))
        for size in range(1, 5)
        for chosen in itertools.permutations(housie_codes, size)
    ]
    lists += [
        ("loteria", list(chosen))
        for size in range(1, 4)
        for chosen in itertools.permutations(loteria_codes, size)
    ]
    lists += [
        ("housie", ["FH", "FH"]),
        ("housie", ["TL", "H2", "FH", "H2"]),
        ("housie", ["XX", "FH"]),
        ("loteria", ["line", "line"]),
        ("loteria", ["full", "jackpot"]),
    ]
    found = engine_page.evaluate(
        """async (lists) => {
            const out = [];
            for (const [game, prizes] of lists) {
                try {
                    await GamenightVerify.verifyGame(
                        {game, seed: "00".repeat(32), prizes: prizes.join(","), boards: "1"});
                    out.push(null);
                } catch (error) { out.push(error.key || error.message); }
            }
            return out;
        }""",
        lists,
    )
    by_list = {
        (kind, ",".join(prizes)): key for (kind, prizes), key in zip(lists, found, strict=True)
    }
    refused = {prizes for prizes, key in by_list.items() if key}
    expected = {(kind, ",".join(prizes)) for kind, prizes in lists if engine_refuses(kind, prizes)}
    assert refused == expected
    assert ("housie", "E5,H2") in refused
    assert ("housie", "FH,H3") in refused
    assert ("housie", "H3,FH,H2") not in refused  # the engine plays them in any listed order
    assert by_list["housie", "E5,H2"] == "prizes-needs"
    assert by_list["housie", "FH,FH"] == "prizes-repeat"


@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        ({"game": "dominoes"}, "game-bad"),
        ({"seed": ""}, "seed-missing"),
        ({"seed": "zz" * 32}, "seed-not-hex"),
        ({"seed": "ab" * 31}, "seed-length"),
        ({"commitment": "12"}, "commitment-bad"),
        ({"deck": "tarot"}, "deck-bad"),
        ({"prizes": "line,jackpot"}, "prizes-bad"),
        ({"prizes": "line,line"}, "prizes-repeat"),
        ({"game": "housie", "prizes": "E5,H2"}, "prizes-needs"),
        ({"calls": "55"}, "calls-bad"),
        ({"calls": "-1"}, "calls-bad"),
        ({"boards": "1,two"}, "boards-bad"),
        ({"boards": "2"}, "boards-too-many"),
        ({"boards": "1*10001"}, "boards-limit"),
        ({"v": "2"}, "version-bad"),
    ],
)
def test_bad_input_is_named(engine_page, fields, problem):
    game = {"game": "loteria", "seed": "00" * 32, "prizes": "line", "boards": "1", **fields}
    found = engine_page.evaluate(
        """async (fields) => {
            try { await GamenightVerify.verifyGame(fields); return null; }
            catch (error) { return error.key || error.message; }
        }""",
        game,
    )
    assert found == problem
    messages = engine_page.evaluate("GamenightVerify.TEXT")
    assert problem in messages["en"]
    assert problem in messages["es"]


def test_both_languages_have_every_message(engine_page):
    messages = engine_page.evaluate("GamenightVerify.TEXT")
    assert set(messages["en"]) == set(messages["es"])
    assert all(text.strip() for language in messages.values() for text in language.values())


# ----------------------------------------------------------------------------------------- Bingo

BINGO_VECTOR_CARD = "3.12.6.1.10.25.24.29.30.19.39.44.*.38.37.52.58.54.48.55.64.68.61.66.71"
BINGO_VECTOR_CALLS = ("I-19", "G-59", "O-69", "I-17", "G-51", "O-73", "B-9", "I-27", "B-1", "G-54")
BINGO_VECTOR_SEED = bytes(range(32))


def test_the_documented_bingo_vectors(engine_page):
    found = engine_page.evaluate(
        """async (seed) => {
            const E = GamenightEngine;
            return {
                card: E.cardState((await E.dealCards(seed, 1))[0]),
                calls: (await E.drawOrder(seed, 75)).slice(0, 10).map(E.callName),
                arrangements: String(E.CARD_ARRANGEMENTS),
            };
        }""",
        BINGO_VECTOR_SEED.hex(),
    )
    assert found["card"] == BINGO_VECTOR_CARD == cards_at(BINGO_VECTOR_SEED, 0)[0].to_state()
    assert tuple(found["calls"]) == BINGO_VECTOR_CALLS
    assert tuple(map(call_name, draw_order(BINGO_VECTOR_SEED, 75)[:10])) == BINGO_VECTOR_CALLS
    assert int(found["arrangements"]) == (15 * 14 * 13 * 12 * 11) ** 4 * (15 * 14 * 13 * 12)
    # docs/FAIRNESS.md writes the same (its lines wrap anywhere).
    doc = Path(__file__).resolve().parents[2] / "docs" / "FAIRNESS.md"
    text = " ".join(doc.read_text(encoding="utf-8").split())
    assert f"`{BINGO_VECTOR_CARD}`" in text
    assert f"`{', '.join(BINGO_VECTOR_CALLS)}`" in text
    assert f"= {found['arrangements']} (about 2^88.8)" in text
    assert f"{math.log2(int(found['arrangements'])):.1f}" == "88.8"


def test_bingo_cards_match_on_many_seeds(engine_page):
    cases = [(seed_for("cards", i), count) for i, count in enumerate((1, 2, 9, 60, 200, 200, 600))]
    found = engine_page.evaluate(
        """async (cases) => {
            const out = [];
            for (const [seed, count] of cases) {
                out.push((await GamenightEngine.dealCards(seed, count)).map(GamenightEngine.cardState));
            }
            return out;
        }""",
        [[seed.hex(), count] for seed, count in cases],
    )
    for (seed, count), cards in zip(cases, found, strict=True):
        assert cards == [card.to_state() for card in cards_at(seed, 0, count)]


def test_a_card_from_one_integer_is_the_engines(engine_page):
    """The mixed-radix reading, at its edges too (the first and last integers, every digit's
    carry)."""
    last = CARD_ARRANGEMENTS - 1
    rng = random.Random(7)
    values = [0, 1, 14, 15, 15 * 14, 10**20, last, *(rng.randrange(last + 1) for _ in range(40))]
    found = engine_page.evaluate(
        """(values) => values.map((v) => GamenightEngine.cardState(GamenightEngine.cardFrom(BigInt(v))))""",
        [str(v) for v in values],
    )
    assert found == [_card_from(v).to_state() for v in values]
    assert _card_from(0).to_state() == (
        "1.2.3.4.5.16.17.18.19.20.31.32.*.33.34.46.47.48.49.50.61.62.63.64.65"
    )


def test_the_page_pattern_book_is_the_engines(engine_page):
    found = engine_page.evaluate(
        "({book: GamenightEngine.BINGO_BOOK, names: GamenightVerify.BINGO_PRIZES})"
    )
    assert found["book"] == {code: list(p.masks) for code, p in PATTERN_BOOK.items()}
    assert list(found["book"]) == list(PATTERN_BOOK)  # the same order: the help text's
    assert found["names"] == {
        code: {"en": en, "es": es} for code, (en, es) in PATTERN_NAMES.items()
    }
    assert all(found["names"][code]["en"] == p.name for code, p in PATTERN_BOOK.items())


def test_placements_match_the_engines(engine_page):
    rng = random.Random(29)
    drawings = [rng.randrange(1, 1 << 25) & rng.randrange(1, 1 << 25) for _ in range(60)]
    drawings += [1, 1 << 24, 0b11, 1 << 12, (1 << 25) - 1]
    drawings = [d for d in drawings if d]
    cases = [(d, r, a) for d in drawings for r in (False, True) for a in (False, True)]
    found = engine_page.evaluate(
        "(cases) => cases.map(([m, r, a]) => GamenightEngine.placements(m, r, a))", cases
    )
    for (mask, rotations, anywhere), masks in zip(cases, found, strict=True):
        assert masks == list(placements(mask, rotations=rotations, anywhere=anywhere))


CUSTOM_TEXTS_ACCEPTED = [
    BingoPattern.custom("arrow", "Arrow", 0b1110_0000_1_00000_00000_00100, rotations=True),
    BingoPattern.custom("stamp-4", "Stamp & co. #4 ñ", 0b11 | 0b11 << 5, anywhere=True),
    BingoPattern.custom("0", "x" * 40, 1 << 24),
    BingoPattern.custom("a_b", "Éclair 🎉", (1 << 25) - 1, rotations=True, anywhere=True),
    BingoPattern("centre-and-one", "Centre + one".replace("+", "and"), (1 << 12 | 1, 1 << 12 | 2)),
]
CUSTOM_TEXTS_REFUSED = {
    "my=My=": "pattern-form",
    "my=My": "pattern-form",
    "my=My=0000001=x": "pattern-form",
    "my=My=1": "pattern-form",
    "my=My=00000001": "pattern-form",
    "my=My=000000G": "pattern-form",
    "my=My=000000A": "pattern-form",
    "my=My=0000001+": "pattern-form",
    "my=My=0000001 ": "pattern-form",
    "My=My=0000001": "pattern-code",
    "=My=0000001": "pattern-code",
    "_my=My=0000001": "pattern-code",
    "my.x=My=0000001": "pattern-code",
    ("a" * 33) + "=My=0000001": "pattern-code",
    "my==0000001": "pattern-name",
    "my= My=0000001": "pattern-name",
    "my=My =0000001": "pattern-name",
    "my=" + "x" * 41 + "=0000001": "pattern-name",
    "my=My/X=0000001": "pattern-name",
    "my=A\tB=0000001": "pattern-name",
    "my=A\u200bB=0000001": "pattern-name",
    "my=My=0000000": "pattern-mask",
    "my=My=0001000": "pattern-mask",  # the free centre alone
    "my=My=2000000": "pattern-mask",  # past cell 24
    "my=My=0000002+0000001": "pattern-mask",
    "my=My=0000001+0000001": "pattern-mask",
    "line=Any line=0000001": "pattern-builtin",
    PATTERN_BOOK["corners"].code + "=Four corners=" + f"{PATTERN_BOOK['corners'].masks[0]:07x}": (
        "pattern-builtin"
    ),
}


def test_custom_pattern_texts_are_read_as_the_engine_reads_them(engine_page):
    texts = [p.to_text() for p in CUSTOM_TEXTS_ACCEPTED] + list(CUSTOM_TEXTS_REFUSED)
    found = engine_page.evaluate(
        """(texts) => texts.map((text) => {
            try { const p = GamenightEngine.readPattern(text); return [p.code, p.name, p.masks]; }
            catch (error) { return error.key || error.message; }
        })""",
        texts,
    )
    for pattern, got in zip(CUSTOM_TEXTS_ACCEPTED, found, strict=False):
        assert got == [pattern.code, pattern.name, list(pattern.masks)]
        assert BingoPattern.from_text(pattern.to_text()) == pattern
    for (text, key), got in zip(
        CUSTOM_TEXTS_REFUSED.items(), found[len(CUSTOM_TEXTS_ACCEPTED) :], strict=True
    ):
        assert got == key, text
        with pytest.raises(GameError):  # the engine refuses it too
            BingoPattern.from_text(text)


def random_custom_pattern(rng: random.Random, code: str) -> BingoPattern:
    # Two cells at least: one cell moved anywhere would also sit on the free centre alone, a
    # placement the engine refuses.
    cells = rng.sample([c for c in range(25) if c != 12], rng.randint(2, 9))
    return BingoPattern.from_cells(
        code,
        f"Custom {code}",
        cells,
        rotations=rng.random() < 0.5,
        anywhere=rng.random() < 0.5,
    )


def test_bingo_deals_and_pattern_marks_match(engine_page):
    rng = random.Random(75)
    customs = [random_custom_pattern(rng, f"c{i}") for i in range(6)]
    patterns = [*PATTERN_BOOK.values(), *customs]
    games = [
        {
            "game": "bingo",
            "seed": seed_for("bingo marks", players).hex(),
            "prizes": ",".join(p.code for p in patterns),
            "patterns": bingo_patterns_field(patterns),
            "boards": f"1*{players}",
        }
        for players in (1, 18, 40, 60)
    ]
    results = verify_games(engine_page, games)
    compared = 0
    for game, result in zip(games, results, strict=True):
        seed = bytes.fromhex(game["seed"])
        order = draw_order(seed, 75)
        assert tuple(result["order"]) == order
        dealt = cards_at(seed, 0, len(result["boards"]))
        for board, card in zip(result["boards"], dealt, strict=True):
            assert board["state"] == card.to_state()
            for pattern in patterns:
                expected = first_call(
                    order,
                    lambda called, p=pattern, c=card: check_bingo_claim(c, called, p).valid,
                )
                assert board["completions"][pattern.code] == expected, (pattern, card)
                compared += 1
    assert compared == 23 * (1 + 18 + 40 + 60)


def random_bingo_game(
    rng: random.Random,
) -> tuple[dict[str, str], list[BingoPattern], list[int]]:
    holders = [-rng.randint(1, 3) if rng.random() < 0.1 else 1 for _ in range(rng.randint(1, 40))]
    if all(count < 0 for count in holders):
        holders.append(1)
    patterns = rng.sample(list(PATTERN_BOOK.values()), rng.randint(0, 4))
    patterns += [random_custom_pattern(rng, f"mine-{i}") for i in range(rng.randint(0, 3))]
    if not patterns:
        patterns = [PATTERN_BOOK["line"]]
    rng.shuffle(patterns)
    if rng.random() < 0.3:  # a pattern hardly ever won early, played first: it holds the rest
        patterns = [PATTERN_BOOK["blackout"], *(p for p in patterns if p.code != "blackout")]
    fields = {
        "game": "bingo",
        "seed": rng.randbytes(32).hex(),
        "prizes": ",".join(p.code for p in patterns),
        "calls": str(rng.randint(5, 75)),
        "boards": ",".join(str(count) for count in holders),
    }
    if any(not p.is_builtin for p in patterns):
        fields["patterns"] = bingo_patterns_field(patterns)
    return fields, patterns, holders


def test_bingo_earliest_wins_are_the_engines_game_on_many_seeds(engine_page):
    """Random Bingo games, built-in and custom patterns, against the engine's replay (every
    card claiming the pattern played at every call); GAMENIGHT_VERIFY_SEED=<hex> replays a run."""
    run_seed = os.environ.get("GAMENIGHT_VERIFY_SEED") or secrets.token_hex(8)
    rng = random.Random(run_seed)
    cases = [random_bingo_game(rng) for _ in range(40)]
    results = verify_games(engine_page, [fields for fields, _, _ in cases])
    won = held_back = 0
    for (fields, patterns, holders), result in zip(cases, results, strict=True):
        expected = bingo_replay(
            bytes.fromhex(fields["seed"]), patterns, deal_positions(holders), int(fields["calls"])
        )
        assert result["earliest"] == [win.as_page() for win in expected], (
            f"GAMENIGHT_VERIFY_SEED={run_seed}: {fields}"
        )
        won += sum(win.call is not None for win in expected)
        held_back += any(
            win.call is None
            and any(
                b["player"] is not None and b["completions"][later.code] <= int(fields["calls"])
                for b in result["boards"]
                for later in patterns[index + 1 :]
            )
            for index, win in enumerate(expected)
        )
    assert won, f"no pattern was won (GAMENIGHT_VERIFY_SEED={run_seed})"
    assert held_back, f"no game held a pattern back (GAMENIGHT_VERIFY_SEED={run_seed})"


def test_cards_completing_on_the_same_call_share_the_pattern(engine_page):
    """The bot's rule beside the engine's, seen once: every player whose card completes the
    pattern on the same call shares it."""
    for attempt in range(200):
        seed = seed_for("share", attempt)
        holders = [1] * 12
        expected = bingo_replay(seed, [PATTERN_BOOK["corners"]], deal_positions(holders), 75)
        if len(expected[0].deals) > 1:
            break
    else:
        pytest.fail("no seed of 200 had two players sharing the corners")
    fields = {"game": "bingo", "seed": seed.hex(), "prizes": "corners", "boards": "1*12"}
    (result,) = verify_games(engine_page, [fields])
    assert result["earliest"] == [win.as_page() for win in expected]
    assert len(result["earliest"][0]["deals"]) > 1


def bingo_link_refuses(prizes: str, patterns: str) -> bool:
    """Whether the link's writer refuses this prize list with these custom patterns."""
    try:
        verify_fragment(
            rules=BINGO_RULES,
            seed=seed_for("prizes"),
            prizes=prizes.split(","),
            boards=[],
            patterns=patterns,
        )
    except ValueError:
        return True
    return False


@pytest.mark.parametrize(
    ("prizes", "patterns", "problem"),
    [
        ("line,jackpot", "", "prizes-bad"),
        ("line,line", "", "prizes-repeat"),
        ("mine", "", "prizes-bad"),  # a custom code without its pattern
        ("mine", "mine=Mine=0000001,mine=Mine=0000002", "patterns-repeat"),
        ("line", "mine=Mine=0000001", "patterns-unused"),
        ("mine", "mine=Mine=1", "pattern-form"),
        ("mine", "mine=Mine=0001000", "pattern-mask"),
        ("line", "line=Line=0000001", "pattern-builtin"),
        ("mine", "Mine=Mine=0000001", "pattern-code"),
        ("mine", "mine=Mine/2=0000001", "pattern-name"),
        ("mine", "mine=Mine=0000001,", "pattern-form"),
    ],
)
def test_bad_bingo_prizes_and_patterns_are_refused_as_the_link_refuses_them(
    engine_page, prizes, patterns, problem
):
    found = engine_page.evaluate(
        """async (fields) => {
            try { await GamenightVerify.verifyGame(fields); return null; }
            catch (error) { return error.key || error.message; }
        }""",
        {"game": "bingo", "seed": "00" * 32, "prizes": prizes, "patterns": patterns, "boards": "1"},
    )
    assert found == problem
    assert bingo_link_refuses(prizes, patterns)
    messages = engine_page.evaluate("GamenightVerify.TEXT")
    assert problem in messages["en"]
    assert problem in messages["es"]


def test_good_bingo_prizes_are_accepted_by_both(engine_page):
    mine = BingoPattern.custom("mine", "Mine & yours", 0b11111, rotations=True)
    for prizes, patterns in [
        ("line", ""),
        ("blackout,line,x", ""),
        ("mine", mine.to_text()),
        ("x,mine,blackout", mine.to_text()),
    ]:
        found = engine_page.evaluate(
            """async (fields) => {
                try { await GamenightVerify.verifyGame(fields); return null; }
                catch (error) { return error.key || error.message; }
            }""",
            {"game": "bingo", "seed": "00" * 32, "prizes": prizes, "patterns": patterns},
        )
        assert found is None
        assert not bingo_link_refuses(prizes, patterns)


@pytest.mark.parametrize(
    ("boards", "problem"),
    [("2", "boards-too-many"), ("1*10001", "boards-limit"), ("1,x", "boards-bad")],
)
def test_bingo_deals_the_engine_cannot_are_refused(engine_page, boards, problem):
    found = engine_page.evaluate(
        """async (fields) => {
            try { await GamenightVerify.verifyGame(fields); return null; }
            catch (error) { return error.key || error.message; }
        }""",
        {"game": "bingo", "seed": "00" * 32, "prizes": "line", "boards": boards},
    )
    assert found == problem
