"""Helpers shared by the rendering tests: open a PNG and check what Discord needs of it."""

import io
import struct

from PIL import Image

from bot.render.common import ALT_TEXT_LIMIT, MAX_SIDE, Rendered

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
SIZE_BUDGET = 200 * 1024  # the bar; Discord itself takes up to 10 MB


def png_chunks(data: bytes) -> list[bytes]:
    """The chunk types of a PNG file, in order."""
    assert data.startswith(PNG_SIGNATURE)
    chunks = []
    offset = len(PNG_SIGNATURE)
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset : offset + 4])
        chunks.append(data[offset + 4 : offset + 8])
        offset += 12 + length
    return chunks


def open_checked(rendered: Rendered) -> Image.Image:
    """The picture of ``rendered``, after checking it is a PNG Discord will show inline."""
    assert rendered.filename.endswith(".png")
    assert 0 < len(rendered.alt_text) <= ALT_TEXT_LIMIT
    assert len(rendered.png) < SIZE_BUDGET
    # Only image data: no text, time or colour-profile chunks that could vary between runs.
    assert set(png_chunks(rendered.png)) <= {b"IHDR", b"PLTE", b"tRNS", b"IDAT", b"IEND"}
    image = Image.open(io.BytesIO(rendered.png))
    image.load()
    assert image.format == "PNG"
    assert image.mode in {"P", "RGB", "RGBA"}
    assert 300 <= image.width <= MAX_SIDE
    assert 200 <= image.height <= MAX_SIDE
    return image.convert("RGB")
