"""Copy the fallback fonts for players' names out of Debian's Noto packages, and subset the CJK one.

    apt-get install fonts-noto-core fonts-noto-cjk     # or apt-get download + dpkg-deb -x
    pip install fonttools                              # a development tool, not a dependency
    python -m bot.render.fonts.refresh_fonts /usr/share/fonts

Every font of ``bot.render.text.FALLBACK_FONTS`` is copied unchanged, except the CJK one, which
is cut from ``NotoSansCJK-Bold.ttc`` (Noto Sans CJK JP Bold) down to what names realistically
use: the hanzi/kanji/hanja of GB 2312, Big5 level 1, JIS X 0208 and KS X 1001 (10,838
ideographs), all kana, all 11,172 hangul syllables and the jamo, bopomofo, CJK punctuation,
Kangxi radicals, enclosed CJK letters, and the fullwidth and halfwidth forms. Its hinting,
vertical metrics and the layout features names have no use for (``locl``, ``vert``, ``palt``...)
are dropped too, which more than halves the file; the rest of the font is untouched.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from bot.render.common import FONT_DIR
from bot.render.text import CJK_FONT, FALLBACK_FONTS

CJK_SOURCE = "NotoSansCJK-Bold.ttc"
CJK_INDEX = 0  # Noto Sans CJK JP Bold in Debian's collection
CJK_FEATURES = ["ccmp", "kern", "liga", "calt", "ljmo", "vjmo", "tjmo"]


def _decoded(codec: str, leads: range, trails: list[int]) -> set[int]:
    """Every character a double-byte ``codec`` encodes with those lead and trail bytes."""
    found = set()
    for lead in leads:
        for trail in trails:
            try:
                text = bytes([lead, trail]).decode(codec)
            except UnicodeDecodeError:
                continue
            if len(text) == 1:
                found.add(ord(text))
    return found


def cjk_characters() -> set[int]:
    """The code points kept in the CJK subset (see the module's docstring)."""
    euc_trails = list(range(0xA1, 0xFF))
    big5_trails = [*range(0x40, 0x7F), *range(0xA1, 0xFF)]
    chars = (
        _decoded("gb2312", range(0xA1, 0xF8), euc_trails)
        | _decoded("big5", range(0xA1, 0xC7), big5_trails)  # symbols and level 1 (common)
        | _decoded("euc_jp", range(0xA1, 0xF5), euc_trails)  # JIS X 0208, both levels
        | _decoded("euc_kr", range(0xA1, 0xFF), euc_trails)  # KS X 1001, hangul and hanja
    )
    for start, end in (
        (0x1100, 0x1200),  # hangul jamo
        (0x2E80, 0x2FE0),  # CJK and Kangxi radicals
        (0x3000, 0x3400),  # punctuation, kana, bopomofo, compatibility jamo, enclosed, squared
        (0xAC00, 0xD7A4),  # hangul syllables
        (0xFE30, 0xFE50),  # CJK compatibility forms
        (0xFF00, 0xFFF0),  # fullwidth and halfwidth forms
    ):
        chars.update(range(start, end))
    return chars


def subset_cjk(source: Path, target: Path) -> None:
    """Writes to ``target`` the CJK face of the ``source`` collection cut down to the characters
    the bot draws, reproducibly."""
    from fontTools import subset  # type: ignore[import-untyped]
    from fontTools.ttLib import TTFont  # type: ignore[import-untyped]

    face = TTFont(str(source), fontNumber=CJK_INDEX, recalcTimestamp=False)  # reproducible
    options = subset.Options()
    options.layout_features = CJK_FEATURES
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.hinting = False
    options.drop_tables += ["vhea", "vmtx", "VORG"]
    subsetter = subset.Subsetter(options)
    covered = face.getBestCmap()
    subsetter.populate(unicodes=sorted(c for c in cjk_characters() if c in covered))
    subsetter.subset(face)
    face.save(str(target))


def main(argv: list[str] | None = None) -> int:
    """Copies the fallback Noto fonts from a folder into ``--into``, the CJK one cut down."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "source", type=Path, help="a folder holding the Noto fonts, searched deeply"
    )
    parser.add_argument("--into", type=Path, default=FONT_DIR)
    args = parser.parse_args(argv)
    found = {path.name: path for path in args.source.rglob("Noto*") if path.is_file()}
    wanted = [name for name in FALLBACK_FONTS if name != CJK_FONT] + [CJK_SOURCE]
    missing = [name for name in wanted if name not in found]
    if missing:
        print(f"not found under {args.source}: {', '.join(missing)}", file=sys.stderr)
        return 1
    for name in FALLBACK_FONTS:
        if name == CJK_FONT:
            subset_cjk(found[CJK_SOURCE], args.into / name)
        else:
            shutil.copyfile(found[name], args.into / name)
        print(f"{name:<42} {(args.into / name).stat().st_size / 1024:8.0f} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
