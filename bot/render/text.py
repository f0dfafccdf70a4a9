"""Text in any script a Discord name can hold: font fallback, bidi order, emoji, ellipsis.

A line is cut into grapheme clusters (a letter with its marks, a whole emoji sequence, a
conjunct); each cluster goes to the first font that has every one of its characters: the
picture's own face, then the Noto fonts of ``FALLBACK_FONTS`` (loaded the first time a cluster
needs them), and emoji to OpenMoji, drawn in colour. Right-to-left names are put in visual order
by a compact form of the Unicode bidi algorithm (a name is an isolate, so a score or a verdict
beside it keeps its place) and shaped by raqm. Names that do not fit are cut on cluster
boundaries with an ellipsis, so the text around them always shows in full.

Text the picture's own face covers alone (every English and Spanish label, most names) takes
the same single ``draw.text`` call as before, with no extra work beyond a cached coverage check.
"""

from __future__ import annotations

import struct
import unicodedata
from array import array
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from math import ceil, floor
from pathlib import Path
from typing import NamedTuple, TypeVar

from PIL import Image, ImageDraw, ImageFont

from bot.render.common import FONT_DIR, FONT_LOCK, RGB, FontFace, font, openmoji_font_path

ELLIPSIS = "…"
_T = TypeVar("_T")

CJK_FONT = "NotoSansCJK-Bold-Names.otf"
# Tried in order after the picture's own face; the first that has every character wins.
FALLBACK_FONTS: tuple[str, ...] = (
    "NotoSans-Bold.ttf",  # Latin, Greek and Cyrillic in full, Vietnamese, IPA, combining marks
    "NotoSansArabic-Bold.ttf",
    "NotoSansHebrew-Bold.ttf",
    "NotoSansDevanagari-Bold.ttf",
    "NotoSansBengali-Bold.ttf",
    "NotoSansGurmukhi-Bold.ttf",
    "NotoSansGujarati-Bold.ttf",
    "NotoSansOriya-Bold.ttf",
    "NotoSansTamil-Bold.ttf",
    "NotoSansTelugu-Bold.ttf",
    "NotoSansKannada-Bold.ttf",
    "NotoSansMalayalam-Bold.ttf",
    "NotoSansSinhala-Bold.ttf",
    "NotoSansThai-Bold.ttf",
    "NotoSansLao-Bold.ttf",
    "NotoSansKhmer-Bold.ttf",
    "NotoSansMyanmar-Bold.ttf",
    "NotoSerifTibetan-Bold.ttf",
    "NotoSansArmenian-Bold.ttf",
    "NotoSansGeorgian-Bold.ttf",
    "NotoSansEthiopic-Bold.ttf",
    "NotoSansThaana-Bold.ttf",
    "NotoSansSyriac-Regular.ttf",
    "NotoSansNKo-Regular.ttf",
    "NotoSansMongolian-Regular.ttf",
    "NotoSansCherokee-Bold.ttf",
    "NotoSansCanadianAboriginal-Bold.ttf",
    "NotoSansTifinagh-Regular.ttf",
    "NotoSansJavanese-Bold.ttf",
    "NotoSansBalinese-Bold.ttf",
    "NotoSansSundanese-Bold.ttf",
    "NotoSansOlChiki-Bold.ttf",
    "NotoSansAdlam-Bold.ttf",
    "NotoSansYi-Regular.ttf",
    "NotoSansVai-Regular.ttf",
    "NotoSansTaiViet-Regular.ttf",
    "NotoSansLisu-Bold.ttf",
    "NotoSansRunic-Regular.ttf",
    "NotoSansOgham-Regular.ttf",
    "NotoSansCoptic-Regular.ttf",
    "NotoSansGlagolitic-Regular.ttf",
    "NotoSansMath-Regular.ttf",  # the "fancy letters" of names: 𝓐𝓵𝓲𝓬𝓮, 𝕭𝖔𝖇
    "NotoSansSymbols-Bold.ttf",
    "NotoSansSymbols2-Regular.ttf",
    CJK_FONT,  # Chinese, Japanese kana and kanji, Korean hangul (a subset: see fonts/README.md)
    "NotoSansEgyptianHieroglyphs-Regular.ttf",  # 𓆩♡𓆪
)

# -- Unicode properties Python's unicodedata lacks (compact forms of UAX #29 and UTS #51) -------

_ZWJ = "\u200d"
_ZWNJ = "\u200c"
_VS15 = "\ufe0e"  # text presentation
_VS16 = "\ufe0f"  # emoji presentation
_KEYCAP = "\u20e3"
_PREPEND = frozenset(chr(c) for c in (*range(0x600, 0x606), 0x6DD, 0x70F, 0x890, 0x891, 0x8E2))
_BMP_PICTOGRAPHS = frozenset(
    (
        *(0xA9, 0xAE, 0x203C, 0x2049, 0x2122, 0x2139, 0x21A9, 0x21AA, 0x231A, 0x231B, 0x2328),
        *(0x2388, 0x23CF, 0x24C2, 0x25AA, 0x25AB, 0x25B6, 0x25C0, 0x2934, 0x2935, 0x2B1B),
        *(0x2B1C, 0x2B50, 0x2B55, 0x3030, 0x303D, 0x3297, 0x3299),
        *range(0x2194, 0x219A),
        *range(0x23E9, 0x23F4),
        *range(0x23F8, 0x23FB),
        *range(0x25FB, 0x25FF),
        *range(0x2600, 0x2800),
        *range(0x2B05, 0x2B08),
    )
)
# Below U+1F000 only these default to emoji presentation; the rest need U+FE0F to be emoji.
_BMP_EMOJI_PRESENTATION = frozenset(
    (
        *(0x231A, 0x231B, 0x23F0, 0x23F3, 0x25FD, 0x25FE, 0x2614, 0x2615, 0x267F, 0x2693),
        *(0x26A1, 0x26AA, 0x26AB, 0x26BD, 0x26BE, 0x26C4, 0x26C5, 0x26CE, 0x26D4, 0x26EA),
        *(0x26F2, 0x26F3, 0x26F5, 0x26FA, 0x26FD, 0x2705, 0x270A, 0x270B, 0x2728, 0x274C),
        *(0x274E, 0x2757, 0x27B0, 0x27BF, 0x2B1B, 0x2B1C, 0x2B50, 0x2B55),
        *range(0x23E9, 0x23ED),
        *range(0x2648, 0x2654),
        *range(0x2753, 0x2756),
        *range(0x2795, 0x2798),
    )
)
# Default-ignorable code points: never drawn (zero-width joiners, bidi controls, fillers used
# for "blank" names, variation selectors, tags); shaping still sees those that matter to it.
_IGNORABLE_RANGES = (
    (0xAD, 0xAD),
    (0x34F, 0x34F),
    (0x61C, 0x61C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)


def _ignorable(char: str) -> bool:
    code = ord(char)
    return any(start <= code <= end for start, end in _IGNORABLE_RANGES)


def _regional(char: str) -> bool:
    return 0x1F1E6 <= ord(char) <= 0x1F1FF


def _skin_tone(char: str) -> bool:
    return 0x1F3FB <= ord(char) <= 0x1F3FF


def _pictographic(char: str) -> bool:
    """Extended_Pictographic, closely enough: what a ZWJ may join into one emoji."""
    code = ord(char)
    if 0x1F000 <= code <= 0x1FAFF:
        return not (0x1F100 <= code <= 0x1F1FF) and not _skin_tone(char)
    return 0x1FC00 <= code <= 0x1FFFD or code in _BMP_PICTOGRAPHS


def _extends(char: str) -> bool:
    """Grapheme_Cluster_Break Extend, SpacingMark or ZWJ: joins the cluster before it."""
    code = ord(char)
    return (
        unicodedata.category(char) in ("Mn", "Me", "Mc")
        or char in (_ZWJ, _ZWNJ)
        or _skin_tone(char)
        or 0xE0020 <= code <= 0xE007F  # emoji tag sequences (subdivision flags)
        or code in (0xFF9E, 0xFF9F)  # halfwidth katakana voiced marks
    )


def _control(char: str) -> bool:
    return (
        unicodedata.category(char) in ("Cc", "Zl", "Zp", "Cf")
        and char not in (_ZWJ, _ZWNJ)
        and char not in _PREPEND
        and not 0xE0020 <= ord(char) <= 0xE007F
    )


def _hangul(char: str) -> str:
    code = ord(char)
    if 0x1100 <= code <= 0x115F or 0xA960 <= code <= 0xA97C:
        return "L"
    if 0x1160 <= code <= 0x11A7 or 0xD7B0 <= code <= 0xD7C6:
        return "V"
    if 0x11A8 <= code <= 0x11FF or 0xD7CB <= code <= 0xD7FB:
        return "T"
    if 0xAC00 <= code <= 0xD7A3:
        return "LV" if (code - 0xAC00) % 28 == 0 else "LVT"
    return ""


_HANGUL_JOINS = {
    ("L", "L"),
    ("L", "V"),
    ("L", "LV"),
    ("L", "LVT"),
    ("LV", "V"),
    ("LV", "T"),
    ("V", "V"),
    ("V", "T"),
    ("LVT", "T"),
    ("T", "T"),
}


def _joins(cluster: str, char: str) -> bool:
    """Whether ``char`` continues ``cluster`` (no grapheme boundary between them)."""
    last = cluster[-1]
    if _control(last) or _control(char):
        return False
    if (_hangul(last), _hangul(char)) in _HANGUL_JOINS:
        return True
    if _extends(char) or last in _PREPEND:
        return True
    if last == _ZWJ and _pictographic(char) and _pictographic(cluster[0]):
        return True
    if _regional(char) and _regional(last):
        pairs = len(cluster) - len(cluster.rstrip("".join(map(chr, range(0x1F1E6, 0x1F200)))))
        return pairs % 2 == 1
    # A virama (or coeng) followed by a consonant of its script: an Indic conjunct.
    base = cluster.rstrip(_ZWJ + _ZWNJ)
    return bool(
        base
        and unicodedata.combining(base[-1]) == 9
        and unicodedata.category(char) == "Lo"
        and ord(base[-1]) >> 7 == ord(char) >> 7
    )


def graphemes(text: str) -> list[str]:
    """``text`` cut into grapheme clusters: what a reader sees as one character."""
    clusters: list[str] = []
    for char in text:
        if clusters and _joins(clusters[-1], char):
            clusters[-1] += char
        else:
            clusters.append(char)
    return clusters


# -- fonts and what they cover ----------------------------------------------------------------


class Coverage:
    """The code points a font maps to a glyph, read from its ``cmap`` table (sorted ranges)."""

    __slots__ = ("ends", "starts")

    def __init__(self, ranges: Sequence[tuple[int, int]]) -> None:
        self.starts = array("I", (start for start, _ in ranges))
        self.ends = array("I", (end for _, end in ranges))

    def __contains__(self, code: int) -> bool:
        index = bisect_right(self.starts, code) - 1
        return index >= 0 and code <= self.ends[index]

    @classmethod
    def of(cls, path: Path) -> Coverage:
        """The characters the font file at ``path`` maps (read from its cmap table)."""
        with path.open("rb") as file:
            _, tables = struct.unpack(">IH", file.read(6))
            file.seek(12)
            directory = file.read(16 * tables)
            for at in range(0, len(directory), 16):
                tag, _, offset, length = struct.unpack(">4sIII", directory[at : at + 16])
                if tag == b"cmap":
                    file.seek(offset)
                    return cls(_merged(_cmap_codes(file.read(length))))
        raise ValueError(f"{path.name} has no cmap table")


def _cmap_codes(cmap: bytes) -> list[tuple[int, int]]:
    """Ranges of mapped code points from the best Unicode subtable (format 12, else 4)."""
    (count,) = struct.unpack(">H", cmap[2:4])
    subtables = {}
    for at in range(4, 4 + 8 * count, 8):
        platform, encoding, offset = struct.unpack(">HHI", cmap[at : at + 8])
        (form,) = struct.unpack(">H", cmap[offset : offset + 2])
        subtables[(platform, encoding, form)] = offset
    for key in ((3, 10, 12), (0, 4, 12), (0, 6, 12)):
        if key in subtables:
            offset = subtables[key]
            (groups,) = struct.unpack(">I", cmap[offset + 12 : offset + 16])
            return [
                (start, end)
                for start, end, glyph in struct.iter_unpack(
                    ">III", cmap[offset + 16 : offset + 16 + 12 * groups]
                )
                if glyph or start != end
            ]
    for key in ((3, 1, 4), (0, 3, 4), (0, 4, 4), (0, 1, 4), (3, 0, 4)):
        if key in subtables:
            return _format4(cmap, subtables[key])
    raise ValueError("no Unicode cmap subtable")


def _format4(cmap: bytes, offset: int) -> list[tuple[int, int]]:
    (segments2,) = struct.unpack(">H", cmap[offset + 6 : offset + 8])
    segments = segments2 // 2
    ends_at = offset + 14
    starts_at = ends_at + segments2 + 2
    deltas_at = starts_at + segments2
    range_offsets_at = deltas_at + segments2
    ranges: list[tuple[int, int]] = []
    for segment in range(segments):
        end, start, delta, range_offset = (
            struct.unpack(">H", cmap[at + 2 * segment : at + 2 * segment + 2])[0]
            for at in (ends_at, starts_at, deltas_at, range_offsets_at)
        )
        if start == 0xFFFF:
            continue
        if range_offset == 0:
            ranges.extend((code, code) for code in range(start, end + 1) if (code + delta) & 0xFFFF)
            continue
        for code in range(start, end + 1):
            at = range_offsets_at + 2 * segment + range_offset + 2 * (code - start)
            (glyph,) = struct.unpack(">H", cmap[at : at + 2])
            if glyph:
                ranges.append((code, code))
    return ranges


def _merged(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(ranges):
        if merged and start <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


@cache
def coverage(file_name: str) -> Coverage:
    """What the shipped font ``file_name`` covers (read once, from its cmap only)."""
    return Coverage.of(FONT_DIR / file_name)


@cache
def _emoji_coverage() -> Coverage:
    return Coverage.of(openmoji_font_path())


_RAQM = ImageFont.Layout.RAQM


@lru_cache(maxsize=32)  # a face costs from 0.2 MB (most) to 0.7 MB (CJK): keep few
def shaping_font(file_name: str, size: int) -> ImageFont.FreeTypeFont:
    """A shipped font with raqm shaping (marks placed, Arabic joined, Indic reordered)."""
    with FONT_LOCK:
        return ImageFont.truetype(str(FONT_DIR / file_name), size, layout_engine=_RAQM)


@lru_cache(maxsize=16)
def _emoji_font(size: int) -> ImageFont.FreeTypeFont:
    with FONT_LOCK:
        return ImageFont.truetype(str(openmoji_font_path()), size, layout_engine=_RAQM)


_PROBE = 48
_NOT_A_CHARACTER = "\u0378"  # unassigned: every face draws its missing-glyph shape for it


@lru_cache(maxsize=1024)
def _openmoji_draws(cluster: str) -> bool:
    """True when OpenMoji has one drawing for the whole ``cluster`` (a ligature for sequences)."""
    visible = [char for char in cluster if not _ignorable(char) and char != _KEYCAP]
    if not visible or not all(ord(char) in _emoji_coverage() for char in visible):
        return False
    if len(visible) == 1 and _KEYCAP not in cluster:
        return True
    face = _emoji_font(_PROBE)
    with FONT_LOCK:
        # An unsupported sequence falls apart into several glyphs side by side.
        return face.getlength(cluster) < 1.5 * face.getlength(_NOT_A_CHARACTER)


def _wants_emoji(cluster: str) -> bool:
    """Whether ``cluster`` asks for emoji presentation (UTS #51), rather than a text glyph."""
    if _VS15 in cluster:
        return False
    if _VS16 in cluster or _KEYCAP in cluster or _regional(cluster[0]):
        return True
    if any(_skin_tone(char) for char in cluster) or (_ZWJ in cluster and _pictographic(cluster[0])):
        return True
    code = ord(cluster[0])
    if 0x1F000 <= code <= 0x1FAFF:
        return not 0x1F100 <= code <= 0x1F1E5 or code in (0x1F18E, *range(0x1F191, 0x1F19B))
    return code in _BMP_EMOJI_PRESENTATION


PRIMARY = 0  # the picture's own face
EMOJI = -1  # OpenMoji
MISSING = -2  # nothing has it: drawn with the picture's face (its missing-glyph box)


def _emoji_parts(cluster: str) -> list[str]:
    """An emoji sequence OpenMoji lacks, as the pieces it has (a ZWJ family as its members)."""
    if _openmoji_draws(cluster):
        return [cluster]
    plain = cluster.replace(_VS16, "")
    if plain != cluster and _openmoji_draws(plain):
        return [plain]
    parts = [part for part in cluster.split(_ZWJ) if part]
    if len(parts) > 1:
        return [piece for part in parts for piece in _emoji_parts(part)]
    tone = [char for char in cluster if _skin_tone(char)]
    if tone and len(cluster) > 1:
        return [*_emoji_parts(cluster.replace(tone[0], "")), tone[0]]
    if len(cluster) > 1 and all(_regional(char) for char in cluster):
        return list(cluster)  # a flag OpenMoji lacks: its two letters
    return [cluster]


@lru_cache(maxsize=4096)
def _source(cluster: str, face: FontFace) -> int:
    """Where ``cluster`` is drawn from: PRIMARY, 1 + an index of FALLBACK_FONTS, EMOJI, MISSING."""
    visible = [char for char in cluster if not _ignorable(char)]
    if not visible:
        return PRIMARY
    if _wants_emoji(cluster) and _openmoji_draws(cluster):
        return EMOJI
    codes = [ord(char) for char in visible]
    # The picture's face has no mark positioning (basic layout): marks go to a shaping font.
    if len(codes) == 1 and codes[0] in coverage(face.value):
        return PRIMARY
    for index, name in enumerate(FALLBACK_FONTS):
        covered = coverage(name)
        if all(code in covered for code in codes):
            return index + 1
    if _openmoji_draws(cluster):
        return EMOJI
    return MISSING


def font_file(source: int, face: FontFace) -> str | None:
    """The file a cluster of ``source`` is drawn with (None for emoji)."""
    if source == EMOJI:
        return None
    if source in (PRIMARY, MISSING):
        return face.value
    return FALLBACK_FONTS[source - 1]


def sources(text: str, face: FontFace) -> list[tuple[str, str | None]]:
    """Every cluster of ``text`` with the font file that draws it (None: an OpenMoji emoji)."""
    return [
        (cluster, font_file(_source(cluster, face), face))
        for part in graphemes(unicodedata.normalize("NFC", text))
        for cluster in (_emoji_parts(part) if _wants_emoji(part) else [part])
    ]


# -- bidi: a compact Unicode bidi algorithm for one isolated run -------------------------------


def _strength(cluster: str) -> str:
    """The bidi class of a cluster's base: L, R, EN (numbers), or N (neutral)."""
    kind = unicodedata.bidirectional(cluster[0])
    if kind in ("R", "AL"):
        return "R"
    if kind == "L":
        return "L"
    if kind in ("EN", "AN"):
        return kind
    return "N"


def _base_level(clusters: Sequence[str], isolate: bool) -> int:
    """1 (right-to-left) when a name's first strong character is R or AL, else 0."""
    if not isolate:
        return 0
    for cluster in clusters:
        kind = _strength(cluster)
        if kind in ("L", "R"):
            return 1 if kind == "R" else 0
    return 0


def _levels(clusters: Sequence[str], base: int) -> list[int]:
    """Embedding levels (rules W, N and I of UAX #9, without explicit embeddings)."""
    kinds = [_strength(cluster) for cluster in clusters]
    last_strong = "R" if base else "L"
    arabic_context = False
    for index, kind in enumerate(kinds):
        if kind in ("L", "R"):
            last_strong = kind
            arabic_context = unicodedata.bidirectional(clusters[index][0]) == "AL"
        elif kind == "EN" and last_strong == "L":
            kinds[index] = "L"  # W7: European digits after L are L
        elif kind == "EN" and arabic_context:
            kinds[index] = "AN"  # W2
    # N1/N2: neutrals between two like strong sides take that side, else the base direction.
    edge = "R" if base else "L"
    index = 0
    while index < len(kinds):
        if kinds[index] != "N":
            index += 1
            continue
        end = index
        while end < len(kinds) and kinds[end] == "N":
            end += 1
        before = edge if index == 0 else kinds[index - 1]
        after = edge if end == len(kinds) else kinds[end]
        before = "R" if before in ("R", "EN", "AN") else before
        after = "R" if after in ("R", "EN", "AN") else after
        side = before if before == after else edge
        for at in range(index, end):
            kinds[at] = side
        index = end
    levels = []
    for kind in kinds:
        if base % 2 == 0:
            levels.append(base + {"L": 0, "R": 1}.get(kind, 2))
        else:
            levels.append(base + (0 if kind == "R" else 1))
    return levels


def _visual_order(items: list[_T], levels: list[int]) -> list[_T]:
    """Rule L2: reverse every run at or above each odd level, highest first."""
    order = list(range(len(items)))
    if not levels:
        return []
    lowest_odd = min(levels) | 1
    for level in range(max(levels), lowest_odd - 1, -1):
        index = 0
        while index < len(order):
            if levels[order[index]] < level:
                index += 1
                continue
            end = index
            while end < len(order) and levels[order[end]] >= level:
                end += 1
            order[index:end] = reversed(order[index:end])
            index = end
    return [items[i] for i in order]


# -- lines: layout, fitting with an ellipsis, drawing ------------------------------------------


class Span(NamedTuple):
    """A stretch of a line: a player's name (``name``: an isolate, shortened first) or not.

    ``rtl`` fixes a name's own direction (a shortened name keeps the direction of the whole).
    """

    text: str
    name: bool = False
    rtl: bool | None = None


def name_spans(text: str, names: Sequence[str]) -> tuple[Span, ...]:
    """``text`` cut into spans, each occurrence of one of ``names`` (longest first) a name."""
    wanted = sorted({name for name in names if name}, key=len, reverse=True)
    spans: list[Span] = []
    plain = ""
    at = 0
    while at < len(text):
        found = next((name for name in wanted if text.startswith(name, at)), None)
        if found is None:
            plain += text[at]
            at += 1
            continue
        if plain:
            spans.append(Span(plain))
            plain = ""
        spans.append(Span(found, name=True))
        at += len(found)
    if plain:
        spans.append(Span(plain))
    return tuple(spans)


@dataclass(frozen=True, slots=True)
class Run:
    """One draw call of a line: ``text`` in one font and one direction, ``x`` from the start."""

    text: str
    source: int
    rtl: bool
    x: float
    width: float
    span: int = 0  # which span of the line it belongs to


@dataclass(frozen=True, slots=True)
class TextLine:
    """A laid-out line: its runs in visual order, its width and the face and size it was set in."""

    runs: tuple[Run, ...]
    width: float
    face: FontFace
    size: int
    spans: tuple[Span, ...] = ()  # what was laid out, names shortened, in logical order
    shortened: bool = False

    @property
    def text(self) -> str:
        """The characters drawn, in visual order (for tests and debugging)."""
        return "".join(run.text for run in self.runs)


@dataclass(frozen=True, slots=True)
class _Piece:
    text: str
    source: int
    level: int


_SHAPING_KEEPS = frozenset((_ZWJ, _ZWNJ, _VS15, _VS16))


def _drawn(text: str, source: int, shaped: bool) -> str:
    """``text`` less the ignorable characters its font would draw as boxes."""
    if source == EMOJI:
        return text
    return "".join(
        char for char in text if not _ignorable(char) or (shaped and char in _SHAPING_KEEPS)
    )


@lru_cache(maxsize=2048)
def _pieces(span: Span, face: FontFace) -> tuple[_Piece, ...]:
    """A span cut into same-font, same-level pieces, in visual order (independent of size)."""
    clusters = [
        cluster
        for part in graphemes(unicodedata.normalize("NFC", span.text))
        for cluster in (_emoji_parts(part) if _wants_emoji(part) else [part])
    ]
    base = _base_level(clusters, isolate=span.name) if span.rtl is None else int(span.rtl)
    levels = _levels(clusters, base)
    pieces: list[_Piece] = []
    for cluster, level in zip(clusters, levels, strict=True):
        source = _source(cluster, face)
        # A space or a mark of punctuation inside a run of another script stays in that run's
        # font when it has it: one shaped run, not three draw calls.
        if (
            pieces
            and source == PRIMARY
            and pieces[-1].source > PRIMARY
            and _strength(cluster) == "N"
            and all(ord(c) in coverage(FALLBACK_FONTS[pieces[-1].source - 1]) for c in cluster)
        ):
            source = pieces[-1].source
        if pieces and pieces[-1].source == source and pieces[-1].level == level:
            pieces[-1] = _Piece(pieces[-1].text + cluster, source, level)
        else:
            pieces.append(_Piece(cluster, source, level))
    return tuple(_visual_order(pieces, [piece.level for piece in pieces]))


def _run_font(source: int, rtl: bool, face: FontFace, size: int) -> ImageFont.FreeTypeFont:
    if source == EMOJI:
        return _emoji_font(_emoji_metrics(face, size)[0])
    if source in (PRIMARY, MISSING):
        return shaping_font(face.value, size) if rtl else font(face, size)
    return shaping_font(FALLBACK_FONTS[source - 1], size)


def _shaped(source: int, rtl: bool) -> bool:
    return not (source in (PRIMARY, MISSING) and not rtl)


@lru_cache(maxsize=64)
def _emoji_metrics(face: FontFace, size: int) -> tuple[int, float]:
    """OpenMoji's size for text of ``face`` at ``size``, and its drop below the baseline.

    An emoji stands a quarter taller than a capital, centred on the capitals' middle.
    """
    with FONT_LOCK:
        cap = -font(face, size).getbbox("H", anchor="ls")[1]
        _, top, _, bottom = _emoji_font(100).getbbox("\U0001f600", anchor="ls")
    pixels = max(1, round(100 * 1.25 * cap / (bottom - top)))
    return pixels, -cap / 2 - (top + bottom) / 2 * pixels / 100


@lru_cache(maxsize=4096)
def _span_runs(span: Span, face: FontFace, size: int) -> tuple[tuple[Run, ...], float]:
    runs: list[Run] = []
    x = 0.0
    for piece in _pieces(span, face):
        rtl = piece.level % 2 == 1
        text = _drawn(piece.text, piece.source, _shaped(piece.source, rtl))
        if not text:
            continue
        face_font = _run_font(piece.source, rtl, face, size)
        with FONT_LOCK:
            if _shaped(piece.source, rtl):
                width = face_font.getlength(text, direction="rtl" if rtl else "ltr")
            else:
                width = face_font.getlength(text)
        runs.append(Run(text, piece.source, rtl, x, width))
        x += width
    # Ink past the advance (marks hanging off the last letter) pushes what follows along.
    reach = max([x, *(run.x + _run_box(run, face, size)[2] for run in runs)])
    return tuple(runs), reach


def _plain(spans: tuple[Span, ...], face: FontFace) -> str | None:
    """The whole text when ``face`` draws it alone, left to right, with no marks to place."""
    text = unicodedata.normalize("NFC", "".join(span.text for span in spans))
    covered = coverage(face.value)
    for char in text:
        if ord(char) not in covered or unicodedata.category(char)[0] in "MC":
            return None
    return text


def layout(text: str | Sequence[Span], face: FontFace, size: int) -> TextLine:
    """``text`` (a plain string, or spans with names) laid out in ``face`` at ``size`` pixels."""
    spans = (Span(text),) if isinstance(text, str) else tuple(text)
    return _layout(spans, face, size)


@lru_cache(maxsize=4096)
def _layout(spans: tuple[Span, ...], face: FontFace, size: int) -> TextLine:
    plain = _plain(spans, face)
    if plain is not None:
        with FONT_LOCK:
            width = font(face, size).getlength(plain)
            parts = []
            x = 0.0
            for index, span in enumerate(spans):
                part = unicodedata.normalize("NFC", span.text)
                part_width = font(face, size).getlength(part)
                parts.append(Run(part, PRIMARY, False, x, part_width, index))
                x += part_width
        return TextLine(tuple(parts), width, face, size, spans)
    runs: list[Run] = []
    x = 0.0
    for index, span in enumerate(spans):
        span_runs, width = _span_runs(span, face, size)
        runs.extend(
            Run(run.text, run.source, run.rtl, x + run.x, run.width, index) for run in span_runs
        )
        x += width
    return TextLine(tuple(runs), x, face, size, spans)


def fit_line(
    text: str | Sequence[Span], face: FontFace, largest: int, smallest: int, width: float
) -> TextLine:
    """``text`` in the largest size of ``face`` from ``largest`` down to ``smallest`` that fits
    ``width``; at ``smallest``, names are cut with an ellipsis (the longest first) so that the
    rest of the line always shows whole. A line with no names is cut at its end."""
    spans = (Span(text),) if isinstance(text, str) else tuple(text)
    line = _layout(spans, face, largest)
    if line.width <= width:
        return line
    # Width grows with the size: start the search near the size that should fit.
    guess = max(smallest, min(largest - 1, int(largest * width / line.width) + 1))
    for size in range(guess, smallest - 1, -1):
        line = _layout(spans, face, size)
        if line.width <= width:
            return line
    if not any(span.name for span in spans):
        spans = (Span("".join(span.text for span in spans), name=True, rtl=False),)
    return _shortened(spans, face, smallest, width)


def _cut(span: Span, keep: int, clusters: list[str], rtl: bool) -> Span:
    return Span("".join(clusters[:keep]).rstrip() + ELLIPSIS, name=True, rtl=rtl)


def _width(span: Span, face: FontFace, size: int) -> float:
    return _layout((span,), face, size).width


def _shorten_to(span: Span, face: FontFace, size: int, room: float) -> Span:
    """``span`` (a name) cut on a grapheme boundary, with an ellipsis, to fit ``room``."""
    clusters = graphemes(unicodedata.normalize("NFC", span.text))
    rtl = span.rtl if span.rtl is not None else _base_level(clusters, isolate=True) == 1
    low, high = 0, len(clusters) - 1  # keep at least none, at most all but one
    while low < high:
        keep = (low + high + 1) // 2
        if _width(_cut(span, keep, clusters, rtl), face, size) <= room:
            low = keep
        else:
            high = keep - 1
    return _cut(span, low, clusters, rtl)


def _shortened(spans: tuple[Span, ...], face: FontFace, size: int, width: float) -> TextLine:
    """Names shortened to share what the rest of the line leaves (equal shares, the short
    names giving what they do not need to the long ones)."""
    fixed = sum(_width(span, face, size) for span in spans if not span.name)
    room = width - fixed
    names = sorted(
        (index for index, span in enumerate(spans) if span.name),
        key=lambda index: _width(spans[index], face, size),
    )
    result = list(spans)
    for done, index in enumerate(names):
        share = room / (len(names) - done)
        if _width(spans[index], face, size) > share:
            result[index] = _shorten_to(spans[index], face, size, share)
        room -= _width(result[index], face, size)
    line = _layout(tuple(result), face, size)
    for _ in range(3):  # kerning across spans can leave a pixel over: cut the widest name again
        if line.width <= width or not names:
            break
        index = max(names, key=lambda index: _width(result[index], face, size))
        room = _width(result[index], face, size) - (line.width - width)
        result[index] = _shorten_to(spans[index], face, size, room)
        line = _layout(tuple(result), face, size)
    return TextLine(line.runs, line.width, face, size, line.spans, shortened=True)


# -- drawing ------------------------------------------------------------------------------------

Box = tuple[float, float, float, float]


def _origin(line: TextLine, xy: tuple[float, float], anchor: str) -> tuple[float, float]:
    """The left end of the baseline for ``line`` drawn at ``xy`` with Pillow's ``anchor``."""
    horizontal, vertical = anchor[0], anchor[1]
    x = xy[0] - {"l": 0.0, "m": line.width / 2, "r": line.width}[horizontal]
    if vertical in ("t", "b"):
        boxes = _ink(line, (0.0, 0.0))
        edge = min(box[1] for box in boxes) if vertical == "t" else max(box[3] for box in boxes)
        return x, xy[1] - edge if boxes else xy[1]
    return x, xy[1] + _baseline_shift(line.face, line.size, vertical)


@lru_cache(maxsize=256)
def _baseline_shift(face: FontFace, size: int, vertical: str) -> float:
    """How far below a Pillow anchor of ``vertical`` (a, m, s or d) the baseline lies."""
    primary = font(face, size)
    with FONT_LOCK:
        return primary.getbbox("x", anchor="l" + vertical)[1] - primary.getbbox("x", anchor="ls")[1]


def _ink(line: TextLine, origin: tuple[float, float], span: int | None = None) -> list[Box]:
    """The ink box of each run of ``line`` (of ``span`` only) with its baseline at ``origin``."""
    boxes = []
    for run in line.runs:
        if span is not None and run.span != span:
            continue
        left, top, right, bottom = _run_box(run, line.face, line.size)
        if right > left and bottom > top:
            x, y = origin[0] + run.x, origin[1]
            boxes.append((x + left, y + top, x + right, y + bottom))
    return boxes


@lru_cache(maxsize=256)
def _band(face: FontFace, size: int) -> tuple[float, float]:
    """How far above and below the baseline a line may put ink: an eighth of the size past the
    face's ascent, a sixteenth past its descent. Marks stacked beyond (a "Zalgo" name) are cut."""
    with FONT_LOCK:
        ascent, descent = font(face, size).getmetrics()
    return -(ascent + size / 8), descent + size / 16


@lru_cache(maxsize=4096)
def _natural_box(run: Run, face: FontFace, size: int) -> Box:
    """The ink box of ``run`` with its baseline starting at (0, 0), before any clipping."""
    face_font = _run_font(run.source, run.rtl, face, size)
    with FONT_LOCK:
        direction = "rtl" if run.rtl else "ltr"
        if run.source == EMOJI:
            dy = _emoji_metrics(face, size)[1]
            left, top, right, bottom = face_font.getbbox(run.text, anchor="ls", direction=direction)
            return left, top + dy, right, bottom + dy
        if _shaped(run.source, run.rtl):
            return face_font.getbbox(run.text, anchor="ls", direction=direction)
        return face_font.getbbox(run.text, anchor="ls")


def _run_box(run: Run, face: FontFace, size: int) -> Box:
    left, top, right, bottom = _natural_box(run, face, size)
    upper, lower = _band(face, size)
    return left, max(top, upper), right, min(bottom, lower)


def line_box(
    line: TextLine, xy: tuple[float, float], anchor: str = "la", span: int | None = None
) -> Box | None:
    """Where ``draw_line`` puts ink for ``line`` (or its ``span``-th span) at ``xy``:
    (left, top, right, bottom), or None for no ink."""
    boxes = _ink(line, _origin(line, xy, anchor), span)
    if not boxes:
        return None
    return (
        min(box[0] for box in boxes),
        min(box[1] for box in boxes),
        max(box[2] for box in boxes),
        max(box[3] for box in boxes),
    )


def draw_line(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    line: TextLine,
    fill: RGB | int,
    anchor: str = "la",
) -> None:
    """Draw ``line`` at ``xy`` placed by Pillow's ``anchor`` (every run on one baseline)."""
    runs = line.runs
    if all(run.source == PRIMARY and not run.rtl for run in runs):
        with FONT_LOCK:  # the common case: one call, exactly as plain ``draw.text``
            draw.text(xy, line.text, font=font(line.face, line.size), fill=fill, anchor=anchor)
        return
    x, y = _origin(line, xy, anchor)
    with FONT_LOCK:
        for run in runs:
            face_font = _run_font(run.source, run.rtl, line.face, line.size)
            at = (x + run.x, y)
            if run.source == EMOJI:
                at = (at[0], y + _emoji_metrics(line.face, line.size)[1])
                coloured = draw.mode in ("RGB", "RGBA")  # else a silhouette, in ``fill``
                direction = "rtl" if run.rtl else "ltr"
                draw.text(
                    at,
                    run.text,
                    fill,
                    face_font,
                    "ls",
                    direction=direction,
                    embedded_color=coloured,
                )
            elif _shaped(run.source, run.rtl):
                _draw_shaped(draw, at, run, line, face_font, fill)
            else:
                draw.text(at, run.text, font=face_font, fill=fill, anchor="ls")


def _draw_shaped(
    draw: ImageDraw.ImageDraw,
    at: tuple[float, float],
    run: Run,
    line: TextLine,
    face_font: ImageFont.FreeTypeFont,
    fill: RGB | int,
) -> None:
    """A shaped run at ``at`` (its baseline's start), clipped to the line's band if it overflows."""
    direction = "rtl" if run.rtl else "ltr"
    natural = _natural_box(run, line.face, line.size)
    left, top, right, bottom = _run_box(run, line.face, line.size)
    if (top, bottom) == natural[1::2]:
        draw.text(at, run.text, font=face_font, fill=fill, anchor="ls", direction=direction)
        return
    if bottom <= top:
        return
    # Draw into a mask cut to the band, then paint the mask: the stack cannot reach other text.
    corner = (floor(at[0] + left), floor(at[1] + top))
    mask = Image.new("L", (ceil(at[0] + right) - corner[0] + 1, ceil(at[1] + bottom) - corner[1]))
    ImageDraw.Draw(mask).text(
        (at[0] - corner[0], at[1] - corner[1]),
        run.text,
        font=face_font,
        fill=255,
        anchor="ls",
        direction=direction,
    )
    draw.bitmap(corner, mask, fill=fill)


def initial(name: str) -> str:
    """The first letter of ``name`` (a whole grapheme: a letter with its marks, an emoji), upper."""
    for cluster in graphemes(unicodedata.normalize("NFC", name.strip())):
        if any(not _ignorable(char) and not char.isspace() for char in cluster):
            upper = cluster.upper()
            return upper if len(graphemes(upper)) == 1 else cluster
    return "?"


@dataclass(frozen=True, slots=True)
class Label:
    """A line placed on a picture: where (Pillow's ``anchor`` at ``xy``) and in what colour."""

    line: TextLine
    xy: tuple[float, float]
    anchor: str
    fill: RGB

    def box(self, span: int | None = None) -> Box | None:
        """The ink box of the whole label, or of its ``span``-th span."""
        return line_box(self.line, self.xy, self.anchor, span)

    def draw(self, draw: ImageDraw.ImageDraw) -> None:
        """Draws the label on ``draw`` at its place."""
        draw_line(draw, self.xy, self.line, self.fill, self.anchor)
