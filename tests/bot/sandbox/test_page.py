"""The night as a page (``index.html`` beside the images), opened in Debian's Chromium as
``tests/web`` does: every picture loads, one entry per message the transcript printed, private
replies marked, no console error, readable on a 390 px phone; and the boards it shows are the
engine's after the moves the members made."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from playwright.sync_api import Browser, Page

from bot.sandbox import main
from bot.sandbox._page import Markdown, _component
from engine.tictactoe import Rules, TicTacToe
from engine.triangle import TriangleGame
from tests.web.conftest import browser  # noqa: F401  (the fixture: one Chromium per module)

PHONE = {"width": 390, "height": 844}
# A message as the transcript prints it: "  12.3s [#game-night, only Ana sees] Game Night: ..."
PRINTED = re.compile(r"^\s*\d+\.\ds \[(?P<where>[^\]]+)\] (?P<author>.+?)(?P<edited> \(edited\))?:")


def run(tmp_path: Path, capsys, *argv: str) -> tuple[str, Path]:
    # In a thread of its own: Playwright's sync API keeps an event loop running in this one.
    with ThreadPoolExecutor(1) as pool:
        code = pool.submit(main, [*argv, "--images", str(tmp_path)]).result()
    out = capsys.readouterr().out
    assert code == 0, out
    last = out.strip().splitlines()[-1]
    assert "index.html" in last, "the page's path is printed last"
    page = Path(last.split(": ", 1)[1].strip())
    assert page.is_file()
    assert page.parent.parent == tmp_path  # beside the run's images
    return out, page


def printed_messages(out: str) -> tuple[int, int]:
    """How many messages the transcript printed, and how many of them were private."""
    firsts = [m for line in out.splitlines() if (m := PRINTED.match(line)) and not m["edited"]]
    return len(firsts), sum(" sees" in m["where"] for m in firsts)


def section(out: str, title: str) -> str:
    """The transcript of one game of a night of every game."""
    start = out.index(f"Next: {title}.")
    end = out.find("Next: ", start + 1)
    return out[start : end if end >= 0 else len(out)]


def open_page(browser: Browser, path: Path) -> tuple[Page, list[str]]:  # noqa: F811
    page = browser.new_page(viewport=PHONE)
    errors: list[str] = []
    page.on("console", lambda entry: errors.append(entry.text) if entry.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "request",
        lambda request: None if request.url.startswith("file:") else errors.append(request.url),
    )
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    return page, errors


def check_page(browser: Browser, path: Path, out: str, lang: str) -> Page:  # noqa: F811
    page, errors = open_page(browser, path)
    assert page.evaluate("document.documentElement.lang") == lang
    assert page.evaluate("document.scripts.length") == 0  # readable without a script
    pictures = page.evaluate(
        "[...document.images].map(i => [i.complete && i.naturalWidth > 0, i.alt, i.getAttribute('src')])"
    )
    assert pictures
    assert all(loaded for loaded, _, _ in pictures), [src for ok, _, src in pictures if not ok]
    assert all(alt and not src.startswith(("http", "/")) for _, alt, src in pictures)
    assert {src for _, _, src in pictures} <= {p.name for p in path.parent.glob("*.png")} | {
        p.name for p in path.parent.glob("*.gif")
    }
    messages, private = printed_messages(out)
    assert page.locator("li.message").count() == messages
    assert page.locator("li.message.ephemeral").count() == private
    assert page.locator("li.message.ephemeral .only").count() == private
    # Readable on a phone: nothing wider than the screen.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert errors == []
    return page


def board_of(page: Page, heading: str) -> list[list[str]]:
    """The buttons of the last message whose heading starts with ``heading``: their texts and
    styles, row by row."""
    return page.evaluate(
        """heading => {
            const games = [...document.querySelectorAll('li.message')].filter(m =>
                [...m.querySelectorAll('.heading')].some(h => h.textContent.startsWith(heading)));
            const game = games[games.length - 1];
            return [...game.querySelectorAll('.row')].map(r => [...r.querySelectorAll('.button')]
                .map(b => b.textContent.trim() + '|' + b.className));
        }""",
        heading,
    )


def test_every_game_in_spanish_as_a_page(tmp_path, capsys, browser):  # noqa: F811
    out, path = run(
        tmp_path, capsys, "--game=all", "--lang=es", "--players=3", "--speed=100", "--seconds=2"
    )
    page = check_page(browser, path, out, "es")
    assert "Solo Ana puede ver esto" in page.content()
    assert page.locator(".button.primary").count() > 0  # buttons drawn as buttons

    # Tic-tac-toe: the page's final board is the engine's after the cells the members pressed.
    duel = section(out, "Tres en raya")
    cells = [(int(r), int(c)) for r, c in re.findall(r"presses fila (\d), columna (\d)", duel)]
    engine = TicTacToe(Rules.standard(3))
    for row, column in cells:
        engine.play((row - 1) * 3 + column - 1)
    drawn = [b.split("|")[0] for row in board_of(page, "Tres en raya")[:3] for b in row]
    assert drawn == [mark.value if mark else "" for mark in engine.cells]

    # The triangle, solved with a hint: the pegs drawn are the engine's after the jumps pressed.
    solo = section(out, "Triángulo")
    assert re.search(r"presses \D+\n", solo)  # the hint
    holes = [int(h) for h in re.findall(r"presses (\d+)\n", solo)]
    puzzle = TriangleGame.new(holes[0])
    for origin, target in zip(holes[1::2], holes[2::2], strict=True):
        puzzle.jump(origin, target)
    assert puzzle.pegs_left == 1
    buttons = [b for row in board_of(page, "Triángulo") for b in row if b.split("|")[0].isdigit()]
    pegs = [int(b.split("|")[0]) for b in buttons if "primary" in b or "success" in b]
    assert pegs == [hole for hole in range(15) if puzzle.has_peg(hole)]
    page.close()


def test_a_duel_in_english_as_a_page(tmp_path, capsys, browser):  # noqa: F811
    out, path = run(tmp_path, capsys, "--game=tictactoe", "--speed=100")
    assert "Ana uses /tictactoe play opponent:@Bashir" in out
    assert "Bashir presses Accept" in out
    page = check_page(browser, path, out, "en")
    assert "@Ana used /tictactoe play" in page.inner_text("body")
    page.close()


def test_everything_on_the_page_is_escaped():
    users = {7: "<img src=x onerror=alert(1)>"}
    html = Markdown(users, {9: "<b>x</b>"}).block("## <script>1</script> **hi** <@7> <#9> `<i>`")
    assert "<script" not in html
    assert "<img" not in html
    assert "<b>x" not in html
    assert "&lt;script&gt;" in html
    assert "&lt;img src=x" in html
    assert "<code>&lt;i&gt;</code>" in html
    assert "<strong>hi</strong>" in html
    button = _component({"type": 2, "style": 1, "label": "<u>go</u>"}, Markdown({}, {}).inline)
    assert "&lt;u&gt;go" in button
    assert 'class="button primary"' in button
