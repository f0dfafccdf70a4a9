import hashlib
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import GameError
from engine.fairness import (
    DealStream,
    DrawOrder,
    SeededRandom,
    StreamDealer,
    commitment,
    draw_order,
    new_seed,
    parse_seed,
    unique_boards,
)

# The test vector of docs/FAIRNESS.md: seed 00 01 02 ... 1f.
VECTOR_SEED = bytes(range(32))
VECTOR_54 = (25, 22, 43, 16, 3, 45, 53, 29, 30, 38)
VECTOR_90 = (17, 12, 21, 52, 86, 28, 39, 7, 18, 45)


def test_the_documented_test_vector():
    assert draw_order(VECTOR_SEED, 54)[:10] == VECTOR_54
    assert draw_order(VECTOR_SEED, 90)[:10] == VECTOR_90


def test_the_fairness_document_gives_the_vector():
    from pathlib import Path

    doc = Path(__file__).resolve().parents[2] / "docs" / "FAIRNESS.md"
    text = doc.read_text(encoding="utf-8")
    assert VECTOR_SEED.hex() in text
    assert ", ".join(map(str, VECTOR_54)) in text
    assert ", ".join(map(str, VECTOR_90)) in text


def test_commitment_is_sha256_of_the_seed():
    assert commitment(VECTOR_SEED) == hashlib.sha256(VECTOR_SEED).hexdigest()


@given(st.binary(min_size=32, max_size=32), st.integers(min_value=1, max_value=120))
def test_draw_order_is_a_reproducible_permutation(seed: bytes, size: int):
    order = draw_order(seed, size)
    assert sorted(order) == list(range(1, size + 1))
    assert draw_order(seed, size) == order


def test_different_seeds_give_different_orders():
    assert draw_order(new_seed(), 90) != draw_order(new_seed(), 90)


def test_randbelow_is_roughly_uniform():
    stream = SeededRandom(VECTOR_SEED)
    counts = [0] * 6
    for _ in range(6000):
        counts[stream.randbelow(6)] += 1
    assert all(900 < c < 1100 for c in counts), counts


def test_labels_separate_streams():
    assert SeededRandom(VECTOR_SEED, b"draw").getrandbits(64) != SeededRandom(
        VECTOR_SEED, b"deal"
    ).getrandbits(64)


def test_draw_order_state_round_trip():
    order = DrawOrder.from_seed(VECTOR_SEED, 54)
    text = order.to_state()
    assert DrawOrder.from_state(text) == order
    assert order.call(0) == VECTOR_54[0]
    with pytest.raises(GameError, match="past the end"):
        order.call(54)


@pytest.mark.parametrize("text", ["", "zz/54", "00/54", VECTOR_SEED.hex() + "/x", "abc"])
def test_bad_draw_order_state_is_a_domain_error(text: str):
    with pytest.raises(GameError):
        DrawOrder.from_state(text)


def test_parse_seed_rejects_wrong_length():
    with pytest.raises(GameError, match="bytes"):
        parse_seed("00ff")


# A toy game's deal: two-digit boards from the deal stream, no two alike, ten positions.
def _two_digit_boards(rng):
    return unique_boards(
        lambda: rng.randbelow(100), lambda board: board, attempts=50, board="toy", contents="digits"
    )


def _check_toy_deal(first: int, count: int) -> None:
    if first < 0 or count < 0 or first + count > 10:
        raise GameError(f"no toy positions {first}..{first + count - 1}")


TOY_DEAL = DealStream(_two_digit_boards, _check_toy_deal, 10)


class ToyDealer(StreamDealer[int]):
    __slots__ = ()
    stream = TOY_DEAL


def test_a_stream_dealer_hands_out_the_replayed_boards_and_resumes_anywhere():
    seed = VECTOR_SEED
    everything = TOY_DEAL.at(seed, 0, 10)
    assert len(set(everything)) == 10  # unique, as the stream promises
    assert TOY_DEAL.at(seed, 3, 4) == everything[3:7]
    dealer = ToyDealer(seed)
    assert dealer.deal(2) + dealer.deal(0) + dealer.deal(3) == everything[:5]
    assert dealer.position == 5
    for position in range(11):
        resumed = ToyDealer.resume(seed, position)
        assert isinstance(resumed, ToyDealer)
        assert resumed.position == position
        assert resumed.deal(10 - position) == everything[position:]


def test_a_stream_dealer_refuses_what_its_game_refuses():
    dealer = ToyDealer.resume(VECTOR_SEED, 9)
    with pytest.raises(GameError, match=re.escape("no toy positions 9..10")):
        dealer.deal(2)
    assert dealer.position == 9  # nothing dealt by a refused deal
    with pytest.raises(GameError, match="no toy positions"):
        TOY_DEAL.at(VECTOR_SEED, 10)
    for position in (-1, 11, 2.0):
        with pytest.raises(
            GameError, match=re.escape(f"deal position {position!r} is outside 0..10")
        ):
            ToyDealer.resume(VECTOR_SEED, position)


def test_boards_alike_to_one_given_are_drawn_again_until_a_stuck_source_is_refused():
    draws = iter([4, 4, 7, 4, 7, 7, 7, 7])
    boards = unique_boards(
        lambda: next(draws), lambda board: board % 2, attempts=3, board="toy", contents="parities"
    )
    assert [next(boards), next(boards)] == [4, 7]  # the second 4 is alike (even): drawn again
    with pytest.raises(GameError, match=re.escape("a new set of parities in 3 draws after 2 toys")):
        next(boards)
