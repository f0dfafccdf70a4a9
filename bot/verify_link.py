"""Links to the verification page, ``bot/web/verify.html``, with a finished game filled in.

The page recomputes a calling game in the player's browser from what the link's fragment (the
part after ``#``, which browsers never send to a server) carries. Format 1, a ``key=value&...``
list (documented in docs/FAIRNESS.md, "Verify it yourself"):

``v``           ``1``, the format
``game``        the game's kind (its slash command)
``id``          the game number (shown in the title only)
``seed``        the revealed seed, 64 hex digits
``commitment``  SHA-256 of the seed as posted before the first call, 64 hex digits
(the game's)    fields of the game's own, each one of the values the game allows (e.g. a deck)
``prizes``      comma-separated prize codes, in the order played
(custom)        a game's own prizes defined in full (e.g. a server's own patterns): each in the
                game's text form (no commas), comma-separated, under the key the game names
                (:class:`CustomPrizes`); their codes are in ``prizes`` like the others'
``calls``       how many calls were made before the game ended
``boards``      the deal, in joining order: comma-separated tokens, ``N`` a player holding the
                next N deal positions (1 up to the game's most boards per player), ``N*R`` R
                such players in a row, ``-N`` N positions dealt to players who left
``lang``        ``en`` or ``es``: the page's language (else the browser's)

What a game's link may carry (its prizes, limits and fields) is the game's to say:
:class:`LinkRules`, from its cog (``CallingBase.link_rules``). Values are percent-encoded
(``quote``): ``=``, ``+``, spaces and ``&`` inside a value never break the fragment.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from engine.fairness import SEED_BYTES
from engine.fairness import commitment as seed_commitment

FORMAT_VERSION = "1"
PAGE_NAME = "verify.html"
WEB_DIR = Path(__file__).resolve().parent / "web"
_HEX64 = re.compile(r"[0-9a-f]{64}")


class VerifyLinkError(ValueError):
    """Game values that cannot make a verification link; the message says which."""


@dataclass(frozen=True)
class CustomPrizes:
    """Prizes a game defines in full in its link, beside the codes it knows (a server's own
    patterns): the link's ``key`` for them, and ``read``, which takes one prize's text (the
    game's own text form, without commas) and returns its code, raising ``ValueError`` (a
    ``GameError`` is one) when the text is not a prize of the game's own."""

    key: str
    read: Callable[[str], str]


@dataclass(frozen=True)
class LinkRules:
    """What one calling game's link may carry: its ``kind``, the prize codes it knows, the
    most boards a player holds, its calls and deal positions, its own ``fields`` (each with
    the values allowed, the first the default) and its ``custom_prizes`` if it has any."""

    kind: str
    prize_codes: frozenset[str]
    most_boards: int
    total_calls: int
    deal_limit: int
    fields: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    custom_prizes: CustomPrizes | None = None


def page_path() -> Path:
    """The verification page shipped with the bot (its scripts and styles sit beside it)."""
    return WEB_DIR / PAGE_NAME


def board_layout(boards: Iterable[tuple[int, int]], rules: LinkRules) -> str:
    """The ``boards`` field for every board in play, given as ``(holder, deal position)`` pairs.

    Each holder's positions must be consecutive (the bot deals a player's boards in one go);
    positions missing from ``0 .. max`` were dealt to players who left.
    """
    most = rules.most_boards
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
                f"holder {holder} has {run} boards; a {rules.kind} player has 1 to {most}"
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


def _custom_prizes(rules: LinkRules, text: str | None) -> tuple[str, dict[str, str]]:
    """The custom prizes' field value (its texts, comma-separated) and each one's text by code."""
    custom = rules.custom_prizes
    if not text:
        return "", {}
    assert custom is not None  # only asked for when the game has custom prizes
    by_code: dict[str, str] = {}
    for item in text.split(","):
        try:
            code = custom.read(item)
        except ValueError as error:
            raise VerifyLinkError(
                f"{custom.key} {item!r} is not a {rules.kind} prize: {error}"
            ) from error
        if code in rules.prize_codes:
            raise VerifyLinkError(f"{custom.key} {item!r} takes the code of a built-in prize")
        if code in by_code:
            raise VerifyLinkError(f"{custom.key}: two prizes have the code {code!r}")
        by_code[code] = item
    return text, by_code


def _prize_codes(
    rules: LinkRules, prizes: Sequence[object], custom: Mapping[str, str]
) -> list[str]:
    codes = []
    for prize in prizes:
        code = str(getattr(prize, "value", prize))  # a code, or an enum of codes
        if code not in rules.prize_codes and code not in custom:
            raise VerifyLinkError(f"{prize!r} is not a {rules.kind} prize")
        codes.append(code)
    if not codes or len(set(codes)) != len(codes):
        raise VerifyLinkError(f"prizes {codes!r} must name at least one prize, each once")
    unplayed = sorted(set(custom) - set(codes))
    if unplayed:
        raise VerifyLinkError(f"custom prizes {', '.join(unplayed)} are defined but not played")
    return codes


def verify_fragment(
    *,
    rules: LinkRules,
    seed: bytes,
    prizes: Sequence[object],
    boards: Iterable[tuple[int, int]],
    calls: int | None = None,
    game_id: int | None = None,
    commitment: str | None = None,
    language: str | None = None,
    **game_fields: str | None,
) -> str:
    """The fragment (without ``#``) describing a finished game for the verification page.

    ``boards`` lists every board in play as ``(holder, deal position)``, e.g. ``(user_id,
    deal_index)`` from storage; ``commitment`` defaults to the seed's (what the lobby posted);
    ``game_fields`` are the game's own (``rules.fields``), each its default when left out,
    and the game's custom prizes under their key (``rules.custom_prizes``), their texts
    comma-separated (left out or empty: none).
    """
    if type(seed) is not bytes or len(seed) != SEED_BYTES:
        raise VerifyLinkError(f"a seed is {SEED_BYTES} bytes")
    fields: list[tuple[str, str]] = [("v", FORMAT_VERSION), ("game", rules.kind)]
    if game_id is not None:
        if type(game_id) is not int or game_id < 0:
            raise VerifyLinkError(f"game id {game_id!r} is not a whole number")
        fields.append(("id", str(game_id)))
    fields.append(("seed", seed.hex()))
    posted = seed_commitment(seed) if commitment is None else commitment.strip().lower()
    if not _HEX64.fullmatch(posted):
        raise VerifyLinkError(f"commitment {commitment!r} is not 64 hex digits")
    fields.append(("commitment", posted))
    custom_key = rules.custom_prizes.key if rules.custom_prizes else None
    custom_text, custom = _custom_prizes(
        rules, game_fields.pop(custom_key, None) if custom_key else None
    )
    unknown = sorted(set(game_fields) - set(rules.fields))
    if unknown:
        raise VerifyLinkError(f"a {rules.kind} link has no field {', '.join(unknown)}")
    for name, allowed in rules.fields.items():
        value = game_fields.get(name) or allowed[0]
        if value not in allowed:
            raise VerifyLinkError(f"{name} {value!r} is not one of {', '.join(allowed)}")
        fields.append((name, value))
    fields.append(("prizes", ",".join(_prize_codes(rules, prizes, custom))))
    if custom_key and custom_text:
        fields.append((custom_key, custom_text))
    if calls is not None:
        total = rules.total_calls
        if type(calls) is not int or not 0 <= calls <= total:
            raise VerifyLinkError(f"{calls!r} calls is outside 0..{total}")
        fields.append(("calls", str(calls)))
    in_play = list(boards)
    limit = rules.deal_limit
    if in_play and max(position for _, position in in_play) >= limit:
        raise VerifyLinkError(f"deal positions stop at {limit - 1} in a {rules.kind} game")
    layout = board_layout(in_play, rules)
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
