"""The verification page as a player uses it: opened from disk with a link the bot would post,
or typed into by hand, in English and Spanish, on a desktop and a phone-sized screen."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from bot.verify_link import page_path, verify_fragment, verify_url
from cogs.housie import Housie
from cogs.loteria import Loteria
from engine.fairness import commitment, draw_order
from engine.housie import Prize, check_prize, tickets_at
from engine.loteria import DECKS, Pattern, check_claim, tablas_at

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
SEED = hashlib.sha256(b"a verified game night").digest()


def first_call(order, complete) -> int:
    return next(n for n in range(1, len(order) + 1) if complete(order[:n]))


@pytest.fixture
def open_page(browser: Browser):
    """Open a page at ``url`` with ``viewport``; every request it makes is recorded."""
    pages: list[tuple[Page, list[str], list[str]]] = []

    def opener(url: str, viewport: dict[str, int] = DESKTOP, locale: str = "en-US") -> Page:
        context = browser.new_context(viewport=viewport, locale=locale)
        page = context.new_page()
        requests: list[str] = []
        errors: list[str] = []
        page.on("request", lambda request: requests.append(request.url))
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on(
            "console",
            lambda message: errors.append(message.text) if message.type == "error" else None,
        )
        page.goto(url)
        pages.append((page, requests, errors))
        return page

    def errors_of(page: Page) -> list[str]:
        return next(errors for known, _, errors in pages if known is page)

    opener.errors_of = errors_of  # type: ignore[attr-defined]
    yield opener
    for page, requests, errors in pages:
        assert all(url.startswith("file://") for url in requests), requests
        assert not errors, errors
        page.context.close()


def wait_verified(page: Page) -> str:
    page.wait_for_selector("body[data-verified]")
    return page.evaluate("document.body.dataset.verified")


def loteria_link(**changes: object) -> str:
    values: dict[str, object] = {
        "rules": Loteria.link_rules(),
        "seed": SEED,
        "prizes": ["line", "corners", "full"],
        "boards": [(100 + i, i) for i in range(8)],
        "deck": "family",
        "calls": 41,
        "game_id": 12,
        "language": "en",
    }
    values.update(changes)
    return verify_url(None, verify_fragment(**values))  # type: ignore[arg-type]


def housie_link(**changes: object) -> str:
    # Five players: 2, 1, 3 tickets, one who left with 2, then 6 tickets.
    boards = [
        (1, 0),
        (1, 1),
        (2, 2),
        (3, 3),
        (3, 4),
        (3, 5),
        (5, 8),
        *((6, 9 + i) for i in range(6)),
    ]
    values: dict[str, object] = {
        "rules": Housie.link_rules(),
        "seed": SEED,
        "prizes": [p.value for p in Prize],
        "boards": boards,
        "calls": 74,
        "game_id": 13,
        "language": "es",
    }
    values.update(changes)
    return verify_url(None, verify_fragment(**values))  # type: ignore[arg-type]


def marks_of(page: Page, deal: int) -> dict[str, str]:
    return page.eval_on_selector_all(
        f"article.board[data-deal='{deal}'] .marks li",
        "items => Object.fromEntries(items.map(li => [li.dataset.prize, li.dataset.call || '']))",
    )


def test_a_loteria_link_shows_the_game_the_engine_computes(open_page, screenshot_dir):
    page = open_page(loteria_link())
    assert wait_verified(page) == "yes"
    check = page.locator("#commitment-check")
    assert "ok" in check.get_attribute("class")
    assert commitment(SEED) in check.inner_text()
    assert "WebCrypto" in page.inner_text("#results")
    deck = DECKS["family"]
    order = draw_order(SEED, 54)
    calls = page.eval_on_selector_all(
        "#calls-title ~ ol.calls li", "els => els.map(e => e.textContent)"
    )
    assert calls == [f"{deck.card(n).spanish} ({deck.card(n).english})" for n in order[:41]]
    hidden_calls = page.eval_on_selector_all("details ol.calls li", "els => els.length")
    assert hidden_calls == 54 - 41
    tablas = tablas_at(SEED, 0, 8)
    for deal, tabla in enumerate(tablas):
        board = page.locator(f"article.board[data-deal='{deal}']")
        assert board.get_attribute("data-state") == tabla.to_state()
        assert board.locator("caption").inner_text() == f"Tabla {deal + 1} · player {deal + 1}"
        names = board.locator("td .name").all_inner_texts()
        assert names == [deck.card(n).spanish for n in tabla.numbers]
        called = board.locator("td.called .number").all_inner_texts()
        assert called == [str(n) for n in tabla.numbers if order.index(n) < 41]
        marks = marks_of(page, deal)
        for pattern in (Pattern.LINE, Pattern.CORNERS, Pattern.FULL):
            done = first_call(order, lambda c, p=pattern, t=tabla: check_claim(t, c, p).valid)
            assert marks[pattern.value] == (str(done) if done <= 41 else "")
        texts = board.locator(".marks li.done").all_inner_texts()
        assert all(" at call " in text for text in texts)
    # The family deck's own cards appear by name when dealt or called.
    assert "La Piñata" in page.inner_text("#results") or 25 not in order[:41]
    page.screenshot(path=str(screenshot_dir / "loteria-en-desktop.png"), full_page=True)


def test_a_housie_link_in_spanish_on_a_phone(open_page, screenshot_dir):
    page = open_page(housie_link(), viewport=PHONE)
    assert wait_verified(page) == "yes"
    assert page.evaluate("document.documentElement.lang") == "es"
    assert page.inner_text("h1") == "Verifica una partida"
    # Nothing sticks out sideways on a phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    order = draw_order(SEED, 90)
    tickets = tickets_at(SEED, 0, 15)
    shown = page.eval_on_selector_all(
        "article.board", "els => els.map(e => Number(e.dataset.deal))"
    )
    assert shown == [0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13, 14]
    assert "(no se muestran): 2" in page.inner_text("#results")
    for deal in shown:
        ticket = tickets[deal]
        board = page.locator(f"article.board[data-deal='{deal}']")
        assert board.get_attribute("data-state") == ticket.to_state()
        cells = board.locator("tbody tr").evaluate_all(
            "rows => rows.map(r => [...r.cells].map(c => c.querySelector('.number')?.textContent || ''))"
        )
        assert cells == [[str(n) if n else "" for n in row] for row in ticket.rows]
        marks = marks_of(page, deal)
        for prize in (Prize.EARLY_FIVE, Prize.TOP_LINE, Prize.FOUR_CORNERS, Prize.FULL_HOUSE):
            done = first_call(order, lambda c, p=prize, t=ticket: check_prize(t, c, p).valid)
            assert marks[prize.value] == (str(done) if done <= 74 else "")
        assert "H2" not in marks  # a ticket's full house is one mark
    caption = page.locator("article.board[data-deal='3'] caption").inner_text()
    assert caption == "Jugador 3 · cartón 1 de 3 (posición 4)"
    done = page.locator("article.board .marks li.done").all_inner_texts()
    assert done
    assert all(" en la cantada " in text for text in done)
    page.screenshot(path=str(screenshot_dir / "housie-es-phone.png"), full_page=True)


@pytest.mark.parametrize(
    ("link", "viewport", "name"),
    [
        (housie_link, DESKTOP, "housie-es-desktop.png"),
        (lambda: loteria_link(language="es"), PHONE, "loteria-es-phone.png"),
        (lambda: housie_link(language="en"), PHONE, "housie-en-phone.png"),
    ],
)
def test_screenshots_of_verified_games(open_page, screenshot_dir, link, viewport, name):
    page = open_page(link(), viewport=viewport)
    assert wait_verified(page) == "yes"
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    path = screenshot_dir / name
    page.screenshot(path=str(path), full_page=True)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    print(f"screenshot: {path}")


def test_a_screenshot_for_the_readme(open_page, screenshot_dir):
    """docs/images/verify-page.png is this picture: a Housie game checked, in Spanish."""
    page = open_page(housie_link(), viewport={"width": 1000, "height": 900})
    assert wait_verified(page) == "yes"
    top = page.evaluate("document.getElementById('results').getBoundingClientRect().top")
    path = screenshot_dir / "verify-page.png"
    page.screenshot(
        path=str(path), full_page=True, clip={"x": 0, "y": top - 8, "width": 1000, "height": 1680}
    )
    assert path.stat().st_size > 10_000


def test_a_tampered_commitment_is_flagged(open_page):
    page = open_page(loteria_link(commitment="ab" * 32))
    assert wait_verified(page) == "mismatch"
    check = page.locator("#commitment-check")
    assert "bad" in check.get_attribute("class")
    assert "does NOT match" in check.inner_text()
    assert commitment(SEED) in check.inner_text()


def test_a_game_typed_by_hand(open_page):
    page = open_page(page_path().as_uri())
    assert page.locator("#results").is_hidden()
    page.select_option("#f-game", "housie")
    assert page.locator("#deck-field").is_hidden()
    page.fill("#f-seed", SEED.hex().upper())
    page.fill("#f-commitment", commitment(SEED))
    page.fill("#f-prizes", "e5, fh")
    page.fill("#f-calls", "")
    page.fill("#f-boards", "1*3")
    page.click("#verify")
    assert wait_verified(page) == "yes"
    states = page.eval_on_selector_all("article.board", "els => els.map(e => e.dataset.state)")
    assert states == [t.to_state() for t in tickets_at(SEED, 0, 3)]
    # The form's values went into the fragment (never to a server), so the link can be shared.
    fragment = page.evaluate("location.hash")
    assert "game=housie" in fragment
    assert f"seed={SEED.hex().upper()}" in fragment
    assert "boards=1*3" in fragment
    page.fill("#f-player", "2")
    visible = page.eval_on_selector_all(
        "article.board", "els => els.filter(e => !e.hidden).map(e => e.dataset.player)"
    )
    assert visible == ["2"]


def test_bad_input_gets_a_clear_message_and_no_result(open_page):
    page = open_page(loteria_link())
    wait_verified(page)
    page.fill("#f-seed", "not a seed")
    page.click("#verify")
    page.wait_for_selector("body[data-verified='error']")
    assert page.locator("#results").is_hidden()
    assert page.inner_text("#problem") == "The seed must be hexadecimal (0-9, a-f)."
    page.click("button[data-lang='es']")
    page.fill("#f-seed", "ab")
    page.click("#verify")
    page.wait_for_function("document.getElementById('problem').textContent.includes('64')")
    assert page.inner_text("#problem") == (
        "La semilla debe tener exactamente 64 caracteres hexadecimales."
    )


def test_switching_language_redraws_the_result(open_page):
    page = open_page(loteria_link())
    wait_verified(page)
    assert page.inner_text("#prizes-title") == "Prizes"
    page.click("button[data-lang='es']")
    assert page.inner_text("#prizes-title") == "Premios"
    assert page.inner_text("h1") == "Verifica una partida"
    assert page.get_attribute("button[data-lang='es']", "aria-pressed") == "true"
    assert "(The" not in page.inner_text("ol.calls")  # Spanish shows the Spanish names only


def test_labels_tables_and_captions_for_assistive_technology(open_page):
    page = open_page(housie_link())
    wait_verified(page)
    unlabelled = page.evaluate(
        """() => [...document.querySelectorAll('input, select')]
            .filter(e => !document.querySelector(`label[for="${e.id}"]`)).map(e => e.id)"""
    )
    assert unlabelled == []
    tables = page.evaluate(
        "() => [...document.querySelectorAll('article.board table')].map(t => !!t.caption)"
    )
    assert tables
    assert all(tables)
    header_scopes = page.eval_on_selector_all("#prizes-table th", "els => els.map(e => e.scope)")
    assert set(header_scopes) == {"col", "row"}
    column_headers = page.eval_on_selector_all(
        "article.board table.ticket thead th", "els => els.slice(0, 9).map(e => e.textContent)"
    )
    assert column_headers[0] == "Columna 1-9"
    assert column_headers[8] == "Columna 80-90"
    # A called cell says so in words, not only in colour.
    called_cell = page.locator("article.board td.called").first.inner_text()
    assert "salió en la cantada" in called_cell


def test_the_page_forbids_connections(open_page):
    page = open_page(loteria_link())
    wait_verified(page)
    policy = page.get_attribute("meta[http-equiv='Content-Security-Policy']", "content")
    assert "connect-src 'none'" in policy
    assert "default-src 'none'" in policy
    blocked = page.evaluate(
        """async () => {
            try { await fetch('https://example.invalid/'); return 'sent'; }
            catch (error) { return 'blocked'; }
        }"""
    )
    assert blocked == "blocked"
    errors = open_page.errors_of(page)
    assert errors
    assert all("Content Security Policy" in error for error in errors)
    errors.clear()  # the refusal this test causes on purpose


def test_the_page_ships_next_to_its_scripts():
    folder = Path(page_path()).parent
    for name in ("verify.html", "verify.js", "verify-engine.js", "verify.css"):
        assert (folder / name).is_file()
    html = page_path().read_text(encoding="utf-8")
    assert "http://" not in html
    assert "https://" not in html
    assert 'src="verify-engine.js"' in html
    assert 'src="verify.js"' in html
