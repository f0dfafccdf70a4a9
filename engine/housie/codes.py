"""Signed Housie ticket codes: a short text that proves a ticket came from a game of this server.

``encode_ticket_code`` packs ``game_id * ticket_count() + ticket_rank(ticket)`` and a 64-bit
HMAC-SHA256 tag under the server's signing key into Crockford base32 (digits and capitals without
I, L, O, U; read case-insensitively): 26 characters for games 0..7, 30 up to game ~10^6, at most
38 for a 64-bit id. ``decode_ticket_code`` gives the ticket and game back; any edited, swapped or
forged code raises ``TicketCodeError``.
"""

from __future__ import annotations

import hashlib
import hmac

from engine.errors import GameError, Reason
from engine.housie.sampling import ticket_count, ticket_from_rank, ticket_rank
from engine.housie.tickets import Ticket

CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford base32: no I, L, O, U
TAG_BITS = 64
MIN_KEY_BYTES = 16
MAX_CODE_LENGTH = 64
_CODE_DOMAIN = b"gamenight/housie/ticket-code/v1:"
_CODE_VALUE: dict[str, int] = {ch: i for i, ch in enumerate(CODE_ALPHABET)}
_TAG_MASK = (1 << TAG_BITS) - 1
# Crockford's decoding: letters that look like digits read as those digits; separators dropped.
_CODE_ALIASES = str.maketrans({"O": "0", "I": "1", "L": "1", "-": None, " ": None, "\t": None})


class CodeReason(Reason):
    """Why a ticket code is refused: the ``code`` of a :class:`TicketCodeError`; the comments
    name its ``values``."""

    LENGTH = "housie_code_length"  # length: as typed, without separators; shortest, longest
    CHARACTER = "housie_code_character"  # position: from 1, character, alphabet
    LEADING_ZEROS = "housie_code_leading_zeros"
    FORGED = "housie_code_forged"
    OTHER_GAME = "housie_code_other_game"  # code_game: the code's game, game: the one expected


class TicketCodeError(GameError):
    """A ticket code that is malformed, edited, forged, or for another game."""


def _check_key(key: bytes) -> None:
    if type(key) is not bytes or len(key) < MIN_KEY_BYTES:
        raise ValueError(f"the ticket-code key must be at least {MIN_KEY_BYTES} bytes")


def _tag(key: bytes, payload: int) -> int:
    message = _CODE_DOMAIN + payload.to_bytes((payload.bit_length() + 7) // 8, "big")
    digest = hmac.new(key, message, hashlib.sha256).digest()
    return int.from_bytes(digest[: TAG_BITS // 8], "big")


def _min_code_length() -> int:
    return -(-(ticket_count().bit_length() + TAG_BITS) // 5)


def _base32(value: int, width: int) -> str:
    digits = []
    while value:
        value, digit = divmod(value, 32)
        digits.append(CODE_ALPHABET[digit])
    return "".join(reversed(digits)).rjust(width, "0")


def encode_ticket_code(ticket: Ticket, game_id: int, key: bytes) -> str:
    """A short signed code for ``ticket`` in game ``game_id`` (>= 0) under the server's key."""
    _check_key(key)
    if type(game_id) is not int or game_id < 0:
        raise GameError(f"game id {game_id!r} is not a whole number >= 0")
    payload = game_id * ticket_count() + ticket_rank(ticket)
    return _base32(payload << TAG_BITS | _tag(key, payload), _min_code_length())


def decode_ticket_code(code: str, key: bytes, *, game_id: int | None = None) -> tuple[Ticket, int]:
    """The ticket and game id in ``code``; with ``game_id``, a code for another game is rejected.

    Read as Crockford's base32 is: case-insensitively, with O read as 0 and I and L as 1, and
    dashes and spaces ignored. Raises ``TicketCodeError`` for anything that is not a code this
    server issued.
    """
    _check_key(key)
    if not isinstance(code, str):
        raise TicketCodeError(f"a ticket code is text, not {type(code).__name__}")
    text = code.upper().translate(_CODE_ALIASES)
    shortest = _min_code_length()
    if not shortest <= len(text) <= MAX_CODE_LENGTH:
        raise TicketCodeError(
            f"a ticket code has {shortest} to {MAX_CODE_LENGTH} characters; this one has "
            f"{len(text)}",
            CodeReason.LENGTH,
            length=len(text),
            shortest=shortest,
            longest=MAX_CODE_LENGTH,
        )
    value = 0
    for position, ch in enumerate(text, 1):
        digit = _CODE_VALUE.get(ch)
        if digit is None:
            raise TicketCodeError(
                f"ticket codes use only {CODE_ALPHABET}; character {position} is {ch!r}",
                CodeReason.CHARACTER,
                position=position,
                character=ch,
                alphabet=CODE_ALPHABET,
            )
        value = value << 5 | digit
    if _base32(value, shortest) != text:
        raise TicketCodeError(
            "this ticket code has extra leading zeros; type it as it was given",
            CodeReason.LEADING_ZEROS,
        )
    payload = value >> TAG_BITS
    if not hmac.compare_digest(
        _tag(key, payload).to_bytes(TAG_BITS // 8, "big"),
        (value & _TAG_MASK).to_bytes(TAG_BITS // 8, "big"),
    ):
        raise TicketCodeError(
            "this ticket code does not check out: it was mistyped, edited, or not issued here",
            CodeReason.FORGED,
        )
    code_game, rank = divmod(payload, ticket_count())
    if game_id is not None and code_game != game_id:
        raise TicketCodeError(
            f"this ticket code is for game {code_game}, not game {game_id}",
            CodeReason.OTHER_GAME,
            code_game=code_game,
            game=game_id,
        )
    return ticket_from_rank(rank), code_game
