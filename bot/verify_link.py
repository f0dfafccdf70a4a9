"""Links to the verification page, ``bot/web/verify.html``, with a finished game filled in.

The page recomputes a Lotería or Housie game in the player's browser from what the link's
fragment (the part after ``#``, which browsers never send to a server) carries. Format 1, a
``key=value&...`` list (documented in docs/FAIRNESS.md, "Verify it yourself"):

``v``           ``1``, the format
``game``        ``loteria`` or ``housie``
``id``          the game number (shown in the title only)
``seed``        the revealed seed, 64 hex digits
``commitment``  SHA-256 of the seed as posted before the first call, 64 hex digits
``deck``        Lotería only: ``classic`` or ``family``
``prizes``      comma-separated, in the order played: Lotería patterns (``line,corners,full``) or
                Housie prize codes (``E5,TL,ML,BL,FC,FH,H2,H3``)
``calls``       how many calls were made before the game ended
``boards``      the deal, in joining order: comma-separated tokens, ``N`` a player holding the
                next N deal positions (a Lotería player 1, a Housie player 1 to 6), ``N*R`` R such
                players in a row, ``-N`` N positions dealt to players who left
``lang``        ``en`` or ``es``: the page's language (else the browser's)
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from urllib.parse import quote

from engine.fairness import SEED_BYTES
from engine.fairness import commitment as seed_commitment
from engine.housie import HIGHEST_NUMBER, MAX_TICKETS, Prize
from engine.loteria import DECK_SIZE, DECKS, MAX_TABLAS, Pattern

FORMAT_VERSION = "1"
PAGE_NAME = "verify.html"
WEB_DIR = Path(__file__).resolve().parent / "web"
KINDS = ("loteria", "housie")
MOST_BOARDS_PER_PLAYER = {"loteria": 1, "housie": 6}
_HEX64 = re.compile(r"[0-9a-f]{64}")


class VerifyLinkError(ValueError):
    """Game values that cannot make a verification link; the message says which."""


def page_path() -> Path:
    """The verification page shipped with the bot (its scripts and styles sit beside it)."""
    return WEB_DIR / PAGE_NAME


def board_layout(boards: Iterable[tuple[int, int]], kind: str = "housie") -> str:
    """The ``boards`` field for every board in play, given as ``(holder, deal position)`` pairs.

    Each holder's positions must be consecutive (the bot deals a player's boards in one go);
    positions missing from ``0 .. max`` were dealt to players who left.
    """
    most = _most_per_player(kind)
    positions = sorted(boards, key=lambda pair: pair[1])
    tokens: list[str] = []
    expected = 0
    seen_holders: set[int] = set()
    index = 0
    while index < len(positions):
        holder, position = positions[index]
        if type(position) is not int or position < expected:
            raise VerifyLinkError(f"deal position {position!r} is repeated or not a whole number")
        if position > expected:
            tokens.append(f"-{position - expected}")
        if holder in seen_holders:
            raise VerifyLinkError(f"the boards of holder {holder} are not at consecutive positions")
        seen_holders.add(holder)
        run = 1
        while (
            index + run < len(positions)
            and positions[index + run][0] == holder
            and positions[index + run][1] == position + run
        ):
            run += 1
        if run > most:
            raise VerifyLinkError(
                f"holder {holder} has {run} boards; a {kind} player has 1 to {most}"
            )
        tokens.append(str(run))
        expected = position + run
        index += run
    return _compress(tokens)


def _compress(tokens: Sequence[str]) -> str:
    """Runs of equal tokens as ``token*count``."""
    out: list[str] = []
    index = 0
    while index < len(tokens):
        end = index
        while end < len(tokens) and tokens[end] == tokens[index]:
            end += 1
        count = end - index
        out.append(tokens[index] if count == 1 else f"{tokens[index]}*{count}")
        index = end
    return ",".join(out)


def _most_per_player(kind: str) -> int:
    if kind not in KINDS:
        raise VerifyLinkError(f"game kind {kind!r} is not one of {', '.join(KINDS)}")
    return MOST_BOARDS_PER_PLAYER[kind]


def _prize_codes(kind: str, prizes: Sequence[str | Prize | Pattern]) -> list[str]:
    codes = []
    for prize in prizes:
        code = prize.value if isinstance(prize, (Prize, Pattern)) else str(prize)
        try:
            if kind == "housie":
                Prize(code)
            else:
                Pattern(code)
        except ValueError:
            raise VerifyLinkError(f"{prize!r} is not a {kind} prize") from None
        codes.append(code)
    if not codes or len(set(codes)) != len(codes):
        raise VerifyLinkError(f"prizes {codes!r} must name at least one prize, each once")
    return codes


def verify_fragment(
    *,
    kind: str,
    seed: bytes,
    prizes: Sequence[str | Prize | Pattern],
    boards: Iterable[tuple[int, int]],
    deck: str | None = None,
    calls: int | None = None,
    game_id: int | None = None,
    commitment: str | None = None,
    language: str | None = None,
) -> str:
    """The fragment (without ``#``) describing a finished game for the verification page.

    ``boards`` lists every board in play as ``(holder, deal position)``, e.g. ``(user_id,
    deal_index)`` from storage; ``commitment`` defaults to the seed's (what the lobby posted).
    """
    _most_per_player(kind)  # checks the kind
    if type(seed) is not bytes or len(seed) != SEED_BYTES:
        raise VerifyLinkError(f"a seed is {SEED_BYTES} bytes")
    fields: list[tuple[str, str]] = [("v", FORMAT_VERSION), ("game", kind)]
    if game_id is not None:
        if type(game_id) is not int or game_id < 0:
            raise VerifyLinkError(f"game id {game_id!r} is not a whole number")
        fields.append(("id", str(game_id)))
    fields.append(("seed", seed.hex()))
    posted = seed_commitment(seed) if commitment is None else commitment.strip().lower()
    if not _HEX64.fullmatch(posted):
        raise VerifyLinkError(f"commitment {commitment!r} is not 64 hex digits")
    fields.append(("commitment", posted))
    if kind == "loteria":
        deck_name = deck or "classic"
        if deck_name not in DECKS:
            raise VerifyLinkError(f"deck {deck!r} is not one of {', '.join(DECKS)}")
        fields.append(("deck", deck_name))
    fields.append(("prizes", ",".join(_prize_codes(kind, prizes))))
    if calls is not None:
        total = DECK_SIZE if kind == "loteria" else HIGHEST_NUMBER
        if type(calls) is not int or not 0 <= calls <= total:
            raise VerifyLinkError(f"{calls!r} calls is outside 0..{total}")
        fields.append(("calls", str(calls)))
    in_play = list(boards)
    limit = MAX_TABLAS if kind == "loteria" else MAX_TICKETS
    if in_play and max(position for _, position in in_play) >= limit:
        raise VerifyLinkError(f"deal positions stop at {limit - 1} in a {kind} game")
    layout = board_layout(in_play, kind)
    if layout:
        fields.append(("boards", layout))
    if language is not None:
        fields.append(("lang", "es" if language.lower().startswith("es") else "en"))
    return "&".join(f"{key}={quote(value, safe=',*-')}" for key, value in fields)


def verify_url(base: str | os.PathLike[str] | None, fragment: str) -> str:
    """The page's address with ``fragment`` after ``#``.

    ``base`` is where the page is served (``https://host/verify.html``, or a folder URL ending in
    ``/``), a ``file://`` URL or a local path (file or folder), or None for the page shipped with
    the bot, as a ``file://`` link.
    """
    fragment = fragment.removeprefix("#")
    if base is None:
        address = page_path().as_uri()
    elif isinstance(base, str) and re.match(r"(?i)(https?|file):", base):
        if "#" in base:
            raise VerifyLinkError(f"the page address {base!r} already has a fragment")
        address = base + PAGE_NAME if base.endswith("/") else base
    else:
        path = Path(base).resolve()
        address = (path / PAGE_NAME if path.is_dir() else path).as_uri()
    return f"{address}#{fragment}"
