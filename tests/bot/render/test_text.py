"""Names in every script: each character drawn from a font that has it (no tofu), emoji from
OpenMoji, right-to-left names in order, long names cut on grapheme boundaries, fonts loaded
only when a name needs them."""

from __future__ import annotations

import subprocess
import sys
import unicodedata
from functools import cache
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont
from PIL import Image, ImageChops, ImageDraw

from bot.render.common import FONT_DIR, FontFace, emoji_drawable, font, openmoji_font_path
from bot.render.text import (
    ELLIPSIS,
    FALLBACK_FONTS,
    Span,
    draw_line,
    fit_line,
    graphemes,
    initial,
    layout,
    line_box,
    name_spans,
    sources,
)

PROJECT_ROOT = Path(__file__).resolve().parents[3]

# Pairs of names in one script with the same number of code points: drawn as tofu, the two
# of a pair would give the very same picture.
SAMPLE_NAMES: dict[str, tuple[str, str]] = {
    "greek": ("Ελένη", "Σοφία"),
    "cyrillic": ("Дмитрий", "Наталья"),
    "vietnamese": ("Nguyễn Thị Ánh", "Trần Văn Hoàng"),
    "ipa and small capitals": ("ɐlıɔǝ ʙᴏss", "ʎqqoq ᴋɪɴɢ"),
    "arabic": ("محمد", "أحمد"),
    "persian": ("فاطمه‌زهرا", "محمدرضا‌ها"),
    "hebrew": ("שרה כהן", "דוד לוי"),
    "devanagari": ("अर्जुन", "प्रिया"),
    "bengali": ("অর্পিতা", "সৌমিত্র"),
    "tamil": ("செல்வி", "கண்ணன்"),
    "telugu": ("సాయి", "రాము"),
    "gurmukhi": ("ਜਸਪ੍ਰੀਤ", "ਹਰਪ੍ਰੀਤ"),
    "thai": ("ศรีสมร", "สมหญิง"),
    "khmer": ("សុខា", "ចាន់"),
    "georgian and armenian": ("ნინო Արամ", "ლაშა Անին"),
    "ethiopic": ("አበበ", "ሰላም"),
    "chinese": ("王小明", "李小龍"),
    "japanese kana": ("たなか ゆうき", "スズキ ハナコ"),
    "korean hangul": ("김민준", "이서연"),
    "fullwidth": ("ＡＢＣ", "ＸＹＺ"),
    "math letters": ("𝓐𝓵𝓲𝓬𝓮", "𝕭𝖔𝖇𝖇𝖞"),
    "decorations": ("꧁༺★༻꧂", "𓆩♡𓆪ツ★"),
    "emoji": ("🐉🔥", "🎲🎯"),
    "emoji sequences": ("👨‍👩‍👧‍👦👍🏽", "👩‍👩‍👦‍👦👋🏿"),
    "flags": ("🇯🇵🇲🇽", "🇧🇷🇮🇳"),
    "combining marks": ("Z̸̢a̷̡l̵̨g̶̢o̸̧", "Z̷̛a̵̛l̸̛g̵̛ơ̶"),
}
LONG_NAME = "Maximiliano Alessandro Fernández"  # 32 characters, Discord's longest
ZALGO = "Z̷̢̛̛͓̝̳̙̪̜̱̻̠̟̆͊̊̈́̈́̾̈́͆̕͜͝ą̵̡̨̛̳͔̻̠̬̱̠̝̪̙̟̦͗̐͒̒̈́̏̈́͛͘͝l̸̢̡̛͉̖̲͎̣͈͚̗̬͕̒̀̓̀̓̄̐̈́̾͘͜ͅg̶̨̡̛͔̮̟̜̝͎̠͉̖͔̐̾̾̊̍̌̒͆̾̚ő"
ALL_NAMES = [name for pair in SAMPLE_NAMES.values() for name in pair] + [LONG_NAME, ZALGO]
FACES = list(FontFace)


@cache
def cmap(path: Path) -> frozenset[int]:
    """What a font maps, read by fontTools (not by the code under test)."""
    return frozenset(TTFont(str(path), lazy=True).getBestCmap())


def _ignorable(char: str) -> bool:
    return unicodedata.category(char) == "Cf" or 0xFE00 <= ord(char) <= 0xFE0F or char == "\u034f"


def test_sample_pairs_have_equal_lengths():
    for script, (first, second) in SAMPLE_NAMES.items():
        assert len(first) == len(second), script
        assert first != second


@pytest.mark.parametrize("name", ALL_NAMES)
@pytest.mark.parametrize("face", FACES, ids=lambda face: face.name)
def test_every_character_comes_from_a_font_that_has_it(name, face):
    for cluster, file_name in sources(name, face):
        if file_name is None:  # an emoji: OpenMoji draws the whole sequence as one picture
            assert emoji_drawable(cluster), cluster
            continue
        covered = cmap(FONT_DIR / file_name)
        for char in cluster:
            if not _ignorable(char):
                assert ord(char) in covered, f"{char!r} (U+{ord(char):04X}) not in {file_name}"


def test_emoji_sequences_stay_one_picture():
    found = dict(sources("👨‍👩‍👧‍👦🏳️‍🌈🇯🇵👍🏽1️⃣🏴󠁧󠁢󠁳󠁣󠁴󠁿", FontFace.SANS_BOLD))
    assert list(found) == [
        "👨‍👩‍👧‍👦",
        "🏳️‍🌈",
        "🇯🇵",
        "👍🏽",
        "1️⃣",
        "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",
    ]
    assert set(found.values()) == {None}
    # A flag OpenMoji lacks shows its two letters, never a box.
    assert sources("🇦🇦", FontFace.SANS_BOLD) == [("🇦", None), ("🇦", None)]
    # Text-style symbols stay text unless asked to be emoji.
    assert dict(sources("♥ ©", FontFace.SANS_BOLD))["©"] == FontFace.SANS_BOLD.value
    assert dict(sources("❤️", FontFace.SANS_BOLD))["❤️"] is None


def test_marks_go_to_a_font_that_places_them():
    for cluster, file_name in sources("Zalgo\u0301\u0316", FontFace.SANS_BOLD):
        if len(cluster) > 1:
            assert file_name is not None
            assert "mark" in {
                record.FeatureTag
                for record in TTFont(str(FONT_DIR / file_name))[
                    "GPOS"
                ].table.FeatureList.FeatureRecord
            }


def test_graphemes_keep_sequences_whole():
    assert graphemes("👨‍👩‍👧‍👦🇯🇵🇲🇽") == ["👨‍👩‍👧‍👦", "🇯🇵", "🇲🇽"]
    assert graphemes("e\u0301\u0316x") == ["e\u0301\u0316", "x"]
    assert graphemes("क्षि") == ["क्षि"]  # a conjunct with its vowel sign
    assert graphemes("\u1100\u1161\u11a8") == ["\u1100\u1161\u11a8"]  # conjoining jamo
    assert graphemes("1️⃣👍🏽a") == ["1️⃣", "👍🏽", "a"]
    assert graphemes("\u200fab") == ["\u200f", "a", "b"]


def _strip_ellipsis(text: str) -> str:
    assert text.endswith(ELLIPSIS), text
    return text[: -len(ELLIPSIS)]


@pytest.mark.parametrize(
    "name",
    [
        LONG_NAME,
        ZALGO,
        "👨‍👩‍👧‍👦" * 6,
        "🇯🇵🇲🇽🇧🇷🇮🇳🇩🇪🇫🇷🇬🇧",
        "क्षत्रिय प्रियंका",
        "محمد بن عبد الرحمن القرشي",
    ],
)
def test_shortening_cuts_between_graphemes(name):
    whole = graphemes(unicodedata.normalize("NFC", name))
    cuts = set()
    for room in range(24, 200, 6):  # from the narrowest that holds "… 7"
        line = fit_line((Span(name, name=True), Span(" 7")), FontFace.SANS_BOLD, 20, 12, room)
        assert line.width <= room
        assert line.spans[1] == Span(" 7")  # the score is never cut
        if not line.shortened:
            continue
        kept = _strip_ellipsis(line.spans[0].text)
        # What is kept is whole clusters from the start of the name.
        assert graphemes(kept) == whole[: len(graphemes(kept))]
        cuts.add(kept)
    assert len(cuts) >= min(3, len(whole) - 1)  # cut at several places, each on a boundary


def test_a_right_to_left_name_keeps_its_score_on_the_right():
    line = layout((Span("شرہ محمد", name=True), Span(" 12")), FontFace.SANS_BOLD, 60)
    name, score = line.runs
    # The name is one shaped right-to-left run (its space in the Arabic font), then the score.
    assert (name.text, name.rtl, score.text, score.rtl) == ("شرہ محمد", True, " 12", False)
    assert name.x + name.width <= score.x
    # Drawn right to left: the left end of the picture is the second word, "محمد".
    pictures = {}
    for text in ("شرہ محمد", "محمد", "شرہ"):
        image = Image.new("L", (700, 100), 255)
        draw_line(ImageDraw.Draw(image), (10, 50), layout(text, FontFace.SANS_BOLD, 60), 0, "lm")
        pictures[text] = image
    left = (0, 0, 10 + round(layout("محمد", FontFace.SANS_BOLD, 60).width) - 4, 100)
    whole = pictures["شرہ محمد"].crop(left)
    assert _differs(whole, pictures["محمد"].crop(left)) < 0.02
    assert _differs(whole, pictures["شرہ"].crop(left)) > 0.1


def _differs(first, second) -> float:
    """The share of pixels that differ clearly between two greyscale pictures."""
    difference = ImageChops.difference(first, second).point(lambda value: value > 64 and 255)
    return difference.histogram()[255] / (first.width * first.height)


def test_mixed_directions_follow_the_bidi_algorithm():
    line = layout((Span("Ahmed أحمد 42", name=True),), FontFace.SANS_BOLD, 60)
    assert [(run.text, run.rtl) for run in line.runs] == [
        ("Ahmed ", False),
        ("42", False),
        ("أحمد ", True),
    ]


def test_a_shortened_right_to_left_name_ends_in_an_ellipsis_on_its_left():
    name = "محمد بن عبد الرحمن القرشي"
    line = fit_line((Span(name, name=True), Span(" 7")), FontFace.SANS_BOLD, 20, 12, 90)
    assert line.shortened
    name_runs = [run for run in line.runs if run.span == 0]
    assert ELLIPSIS in name_runs[0].text  # visually first: the reading end of an RTL name


def test_name_spans_find_names_inside_a_verdict():
    spans = name_spans("Bob ran out of time: Alice wins", ["Alice", "Bob"])
    assert spans == (
        Span("Bob", name=True),
        Span(" ran out of time: "),
        Span("Alice", name=True),
        Span(" wins"),
    )


def test_latin_text_draws_exactly_as_before():
    """The common case is one ``draw.text`` call: the same pixels as before the fallback."""
    face = font(FontFace.SANS_BOLD, 60)
    for text in ("Alice 3", "Zoë Ñandú to move", "Дмитрий wins"):
        before = Image.new("RGB", (900, 100), "white")
        ImageDraw.Draw(before).text((10, 50), text, font=face, fill="black", anchor="lm")
        after = Image.new("RGB", (900, 100), "white")
        line = layout(name_spans(text, ["Alice"]), FontFace.SANS_BOLD, 60)
        draw_line(ImageDraw.Draw(after), (10, 50), line, (0, 0, 0), "lm")
        assert before.tobytes() == after.tobytes(), text


def _beyond_latin(script: str) -> bool:
    covered = cmap(FONT_DIR / FontFace.SANS_BOLD.value)
    return any(ord(char) not in covered for name in SAMPLE_NAMES[script] for char in name)


@pytest.mark.parametrize("script", [script for script in SAMPLE_NAMES if _beyond_latin(script)])
def test_names_are_not_drawn_with_the_latin_face_alone(script):
    """Drawn with the picture's face alone a name in another script shows missing-glyph boxes;
    the fallback draws something else, and different names differently."""
    pictures = []
    for name in SAMPLE_NAMES[script]:
        line = layout(name, FontFace.SANS_BOLD, 48)
        image = Image.new("RGB", (900, 120), "white")
        draw_line(ImageDraw.Draw(image), (10, 60), line, (0, 0, 0), "lm")
        latin = Image.new("RGB", (900, 120), "white")
        ImageDraw.Draw(latin).text(
            (10, 60), name, font=font(FontFace.SANS_BOLD, 48), fill="black", anchor="lm"
        )
        assert image.tobytes() != latin.tobytes()
        assert image.convert("L").point(lambda value: 255 - value).getbbox() is not None
        pictures.append(image.tobytes())
    assert pictures[0] != pictures[1]


def test_zalgo_marks_stay_near_the_line():
    line = layout(ZALGO, FontFace.SANS_BOLD, 60)
    box = line_box(line, (0, 100), "ls")
    assert box is not None
    ascent, descent = font(FontFace.SANS_BOLD, 60).getmetrics()
    assert box[1] >= 100 - ascent - 60 / 8 - 1
    assert box[3] <= 100 + descent + 60 / 16 + 1
    # And the drawing honours the box: nothing painted outside it.
    image = Image.new("L", (900, 300), 0)
    draw_line(ImageDraw.Draw(image), (0, 100), line, 255, "ls")
    ink = image.getbbox()
    assert ink is not None
    assert ink[1] >= box[1] - 1
    assert ink[3] <= box[3] + 1


def test_initials_are_whole_graphemes():
    assert initial("élan") == "É"
    assert initial("  bob") == "B"
    assert initial("👍🏽 thumbs") == "👍🏽"
    assert initial("क्षत्रिय") == "क्ष"
    assert initial("\u200b\u3164") == "?"


def test_fonts_load_only_when_a_name_needs_them():
    """A fresh process draws Latin names with no fallback font opened, then opens just the
    fonts the names ask for."""
    probe = """
from pathlib import Path
from PIL import ImageFont
opened = []
real_truetype = ImageFont.truetype
def spy(path, *args, **kwargs):
    opened.append(Path(path).name)
    return real_truetype(path, *args, **kwargs)
ImageFont.truetype = spy
from bot.render.tictactoe import render_tictactoe
from engine.tictactoe import TicTacToe
game = TicTacToe.from_state("3/3/XOXOX.O.X")
render_tictactoe(game, game_id="1", x_name="Alice", o_name="Bob")
print(" ".join(sorted(set(opened))))
opened.clear()
render_tictactoe(game, game_id="1", x_name="王小明", o_name="Bob")
print(" ".join(sorted(set(opened))))
"""
    result = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    latin, chinese = result.stdout.splitlines()
    assert latin.split() == [FontFace.SANS_BOLD.value, FontFace.SANS.value, FontFace.SLAB.value]
    assert chinese.split() == ["NotoSansCJK-Bold-Names.otf"]


def test_rendering_is_deterministic_across_processes():
    probe = """
import hashlib
from bot.render.dots import render_dots
from engine.dots import DotsGame
game = DotsGame(2, 2)
for line in ("A1-B1", "A1-A2", "B1-B2", "A2-B2"):
    game.play(line)
names = ("محمد عبد الله الهاشمي القرشي", "王小明 👨‍👩‍👧‍👦 Z̸̢a̷̡l̵̨g̶̢o̸̧ अर्जुन")
print(hashlib.sha256(render_dots(game, game_id="7", names=names).png).hexdigest())
"""
    digests = {
        subprocess.run(
            [sys.executable, "-c", probe],
            cwd=PROJECT_ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for _ in range(2)
    }
    assert len(digests) == 1


def test_every_shipped_font_is_credited_with_its_licence():
    shipped = sorted(path.name for path in FONT_DIR.iterdir() if path.suffix in (".ttf", ".otf"))
    assert set(FALLBACK_FONTS) <= set(shipped)
    readme = (FONT_DIR / "README.md").read_text(encoding="utf-8")
    attribution = (PROJECT_ROOT / "assets" / "ATTRIBUTION.md").read_text(encoding="utf-8")
    for name in FALLBACK_FONTS:
        assert name in readme, name
        assert name in attribution, name
    licence = (FONT_DIR / "LICENSE-OFL-1.1.txt").read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE" in licence
    assert openmoji_font_path().exists()
