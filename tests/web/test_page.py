"""The verification page as a player uses it: opened from disk with a link the bot would post,
or typed into by hand, in English and Spanish, on a desktop and a phone-sized screen."""

from __future__ import annotations

import hashlib
import secrets
from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.sync_api import Browser, Page

from bot.verify_link import page_path, verify_fragment, verify_url
from cogs.housie import Housie
from cogs.loteria import Loteria
from engine.bingo import FREE_CELL, PATTERN_BOOK, call_name, cards_at
from engine.bingo import Pattern as BingoPattern
from engine.bingo import check_claim as check_bingo_claim
from engine.fairness import commitment, draw_order
from engine.housie import Prize, check_prize, encode_ticket_code, tickets_at
from engine.loteria import DECKS, Pattern, check_claim, tablas_at
from tests.engine import test_strip_vector as vector
from tests.engine.test_fairness import VECTOR_54, VECTOR_SEED
from tests.web.engine_replay import BINGO_RULES, bingo_patterns_field, bingo_replay

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


ARROW = BingoPattern.custom(
    "arrow", "Flecha de Ana", 0b00100_01110_10101_00100_00100, rotations=True
)


def bingo_link(**changes: object) -> str:
    # Nine players, one card each; three who left between the third and the fourth.
    boards = [(1, 0), (2, 1), (3, 2), *((4 + i, 6 + i) for i in range(6))]
    patterns = changes.pop("patterns", [PATTERN_BOOK["line"], ARROW, PATTERN_BOOK["blackout"]])
    values: dict[str, object] = {
        "rules": BINGO_RULES,
        "seed": SEED,
        "prizes": [p.code for p in patterns],  # type: ignore[attr-defined]
        "patterns": bingo_patterns_field(patterns),  # type: ignore[arg-type]
        "boards": boards,
        "calls": 70,
        "game_id": 29,
        "language": "en",
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
    assert calls == [f"{n} {deck.card(n).spanish} ({deck.card(n).english})" for n in order[:41]]
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
    assert caption == "Jugador 3 · cartón 1 de 3 (posición 3)"  # from 0, as the engine counts
    assert "se cuentan desde 0" in page.inner_text("#results")
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


def test_a_screenshot_for_the_docs(open_page, screenshot_dir):
    """docs/images/verify-page.png is this picture: a Housie game checked, in Spanish."""
    page = open_page(housie_link(), viewport={"width": 1000, "height": 900})
    assert wait_verified(page) == "yes"
    top = page.evaluate("document.getElementById('results').getBoundingClientRect().top")
    path = screenshot_dir / "verify-page.png"
    page.screenshot(
        path=str(path), full_page=True, clip={"x": 0, "y": top - 8, "width": 1000, "height": 1680}
    )
    assert path.stat().st_size > 10_000


ISSUE_27_LINK = (
    "#v=1&game=loteria&id=8705&seed=5c62e55f78a3a00b793934e808ac065c60c9e5ebc96944e5551c09f22ac813b8"
    "&commitment=417c58e4190b20bf9dba65c56fafd9bd0f71d19fc4cd6d438367dddcf20fdeb0&deck=classic"
    "&prizes=line,corners&calls=29&boards=1*4&lang=en"
)


def test_a_prize_held_back_by_one_nobody_won_says_so(open_page):
    page = open_page(page_path().as_uri() + ISSUE_27_LINK)
    wait_verified(page)
    rows = page.eval_on_selector_all(
        "#prizes-table tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent))"
    )
    assert rows == [
        ["Line", "not complete on any board when the game ended", ""],
        ["Four corners", "not won: it is played after Line, which nobody won", ""],
    ]
    assert marks_of(page, 0)["corners"] == "22"  # the tabla's own mark still says when


def follow(page: Page, link: str) -> str:
    """Put ``link``'s fragment in the address bar of the open page (as pasting a link into the
    same tab does: no reload), and wait for the page's verdict."""
    page.evaluate(
        "hash => { delete document.body.dataset.verified; location.hash = hash; }",
        link.split("#", 1)[1],
    )
    return wait_verified(page)


def test_a_new_fragment_in_the_same_tab_is_recomputed(open_page):
    page = open_page(loteria_link())
    wait_verified(page)
    assert page.inner_text(".game-name") == "Lotería #12"
    assert follow(page, housie_link(language="en", game_id=77)) == "yes"
    assert page.inner_text(".game-name") == "Housie #77"
    assert page.input_value("#f-game") == "housie"
    assert page.input_value("#f-id") == "77"
    states = page.eval_on_selector_all("article.board", "els => els.map(e => e.dataset.state)")
    expected = tickets_at(SEED, 0, 15)
    assert states == [expected[deal].to_state() for deal in (0, 1, 2, 3, 4, 5, *range(8, 15))]
    # Only the calls made change.
    assert follow(page, housie_link(language="en", game_id=77, calls=10)) == "yes"
    assert page.input_value("#f-calls") == "10"
    assert page.eval_on_selector_all("#calls-title ~ ol.calls li", "els => els.length") == 10
    # Only the language changes.
    assert follow(page, housie_link(language="es", game_id=77, calls=10)) == "yes"
    assert page.inner_text("h1") == "Verifica una partida"
    assert page.inner_text("#prizes-title") == "Premios"
    # A link without a game number leaves none behind from the one before.
    assert follow(page, loteria_link(game_id=None)) == "yes"
    assert page.input_value("#f-id") == ""
    assert page.inner_text(".game-name") == "Lotería"


def box_in_document(page: Page, selector: str) -> dict[str, float]:
    return page.evaluate(
        """selector => {
            const r = document.querySelector(selector).getBoundingClientRect();
            return {top: r.top + scrollY, bottom: r.bottom + scrollY, left: r.left, right: r.right};
        }""",
        selector,
    )


VERDICTS = {
    ("en", "yes"): (
        "Every call and board follows from this seed, and the seed matches the commitment."
    ),
    ("es", "yes"): (
        "Todas las cantadas y todos los tableros salen de esta semilla, y la semilla coincide "
        "con el compromiso."
    ),
    ("en", "mismatch"): "The seed does NOT match the commitment",
    ("es", "mismatch"): "La semilla NO coincide con el compromiso",
}


@pytest.mark.parametrize(("language", "verified"), sorted(VERDICTS))
@pytest.mark.parametrize("link", [loteria_link, housie_link, bingo_link])
def test_the_verdict_comes_first_on_a_phone(open_page, link, language, verified):
    changes = {"language": language}
    if verified == "mismatch":
        changes["commitment"] = "cd" * 32
    page = open_page(link(**changes), viewport=PHONE)
    assert wait_verified(page) == verified
    verdict = page.locator("#verdict")
    assert VERDICTS[language, verified] in verdict.inner_text()
    assert ("ok" if verified == "yes" else "bad") in verdict.get_attribute("class").split()
    # On the first screen, before the form and everything else.
    box = box_in_document(page, "#verdict")
    assert 0 <= box["top"] < box["bottom"] <= PHONE["height"]
    assert box["right"] <= PHONE["width"]
    assert box["bottom"] <= box_in_document(page, "#game")["top"]
    # One verdict: the end of the work says nothing else.
    assert page.inner_text("#status") == ""


def test_the_verdict_without_a_commitment_says_what_is_missing(open_page):
    link = loteria_link()
    page = open_page(link.replace("&commitment=" + commitment(SEED), ""), viewport=PHONE)
    assert wait_verified(page) == "yes"
    text = page.inner_text("#verdict")
    assert "Every call and board follows from this seed" in text
    assert "no commitment" in text
    assert commitment(SEED) in text


def test_the_view_moves_to_the_verdict_after_typing_a_game(open_page):
    page = open_page(page_path().as_uri(), viewport=PHONE)
    page.fill("#f-seed", SEED.hex())
    page.fill("#f-commitment", commitment(SEED))
    page.fill("#f-boards", "1*3")
    page.click("#verify")  # at the bottom of the form: the top of the page is out of view
    assert wait_verified(page) == "yes"
    page.wait_for_function(
        "() => { const r = document.getElementById('verdict').getBoundingClientRect();"
        " return r.top >= 0 && r.bottom <= innerHeight; }"
    )
    page.fill("#f-seed", "not a seed")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.click("#verify")
    page.wait_for_selector("body[data-verified='error']")
    page.wait_for_function(
        "() => { const r = document.getElementById('problem').getBoundingClientRect();"
        " return r.top >= 0 && r.bottom <= innerHeight; }"
    )
    assert page.locator("#verdict").is_hidden()


def found_boards(page: Page) -> list[int]:
    return page.eval_on_selector_all(
        "article.board.found", "els => els.map(e => Number(e.dataset.deal))"
    )


def find(page: Page, text: str) -> str:
    page.fill("#f-find", text)
    return page.inner_text("#find-result")


def in_view(page: Page, selector: str) -> bool:
    return page.evaluate(
        """selector => { const r = document.querySelector(selector).getBoundingClientRect();
            return r.top >= 0 && r.bottom <= innerHeight; }""",
        selector,
    )


def test_a_housie_player_finds_their_ticket_by_its_code(open_page):
    key = secrets.token_bytes(32)
    tickets = tickets_at(SEED, 0, 16)
    page = open_page(housie_link(language="en"), viewport=PHONE)
    wait_verified(page)
    assert page.inner_text("label[for='f-find']") == "Find your ticket by its code"
    # Player 3's first ticket, typed as people type: lower case, with a dash.
    code = encode_ticket_code(tickets[3], 13, key)
    text = find(page, f"{code[:6].lower()}-{code[6:]}")
    assert found_boards(page) == [3]
    caption = page.inner_text("article.board[data-deal='3'] caption")
    assert text == f"Found: {caption}. It is highlighted below."
    assert in_view(page, "article.board.found")
    # A ticket of this game's deal that went to a player who left.
    assert find(page, encode_ticket_code(tickets[6], 13, key)).endswith(
        "(a player who left) went to a player who left: it is not shown."
    )
    assert found_boards(page) == []
    # Another game's code, a ticket nobody here holds, and a mistyped code.
    assert find(page, code_of_game := encode_ticket_code(tickets[3], 14, key)) == (
        "This code is for game 14, not game 13: open that game's link."
    )
    assert code_of_game != code
    assert find(page, encode_ticket_code(tickets[15], 13, key)) == (
        "No ticket of this game has this code: check that it was typed right."
    )
    assert "this one has 9" in find(page, code[:9])
    assert found_boards(page) == []
    # The search stays when the language changes.
    find(page, code)
    page.click("button[data-lang='es']")
    assert found_boards(page) == [3]
    assert page.inner_text("#find-result").startswith("Encontrado: Jugador 3 · cartón 1 de 3")


def test_a_loteria_player_finds_their_tabla_by_its_number(open_page):
    boards = [(100, 0), (101, 1), (103, 3), (104, 4)]  # tabla 3 went to a player who left
    page = open_page(loteria_link(boards=boards))
    wait_verified(page)
    assert page.inner_text("label[for='f-find']") == "Find your tabla by its number"
    assert find(page, "4") == "Found: Tabla 4 · player 3. It is highlighted below."
    assert found_boards(page) == [3]
    assert find(page, "Tabla 2") == "Found: Tabla 2 · player 2. It is highlighted below."
    assert found_boards(page) == [1]
    assert find(page, "3") == (
        "Tabla 3 (a player who left) went to a player who left: it is not shown."
    )
    assert find(page, "6") == "This game has no tabla 6: its tablas are numbered 1 to 5."
    assert find(page, encode_ticket_code(tickets_at(SEED, 0)[0], 12, b"k" * 32)).startswith(
        "A tabla is found by the number printed on its picture"
    )
    assert found_boards(page) == []


def test_loteria_calls_show_the_card_numbers_of_the_readme_vector(open_page):
    page = open_page(loteria_link(seed=VECTOR_SEED, deck="classic", calls=10))
    wait_verified(page)
    numbers = page.eval_on_selector_all(
        "#calls-title ~ ol.calls li .card-number", "els => els.map(e => Number(e.textContent))"
    )
    assert tuple(numbers) == VECTOR_54 == draw_order(VECTOR_SEED, 54)[:10]
    first = page.inner_text("#calls-title ~ ol.calls li")
    assert first == f"25 {DECKS['classic'].card(25).spanish} ({DECKS['classic'].card(25).english})"


def test_housie_deal_positions_count_from_0_as_the_engine_does(open_page):
    """Position k is the engine's tickets_at(seed, k): the README's second-strip vector is
    position 6."""
    page = open_page(housie_link(seed=VECTOR_SEED, boards=[(1, 6)], language="en"))
    wait_verified(page)
    board = page.locator("article.board")
    assert board.get_attribute("data-state") == vector.POSITION_6
    assert board.get_attribute("data-state") == tickets_at(VECTOR_SEED, 6)[0].to_state()
    assert board.locator("caption").inner_text() == "Player 1 · ticket 1 of 1 (deal position 6)"
    assert "Deal positions count from 0" in page.inner_text("#results")


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


def test_a_prize_list_the_engine_refuses_is_refused(open_page):
    page = open_page(housie_link(language="en"))
    wait_verified(page)
    page.fill("#f-prizes", "E5, H2")
    page.click("#verify")
    page.wait_for_selector("body[data-verified='error']")
    assert page.inner_text("#problem") == "Second Full House needs Full House in the same game."
    assert page.locator("#results").is_hidden()


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_link_cut_before_the_seed_says_so(open_page, language):
    link = loteria_link(language=language)
    cut = link[: link.index("&seed=")]
    page = open_page(cut, viewport=PHONE, locale="es-MX" if language == "es" else "en-US")
    page.wait_for_selector("body[data-verified='incomplete']")
    problem = page.locator("#problem")
    assert (
        problem.inner_text()
        == {
            "en": (
                "This link is incomplete: it stops before the seed, so it was probably cut when it "
                "was copied. Copy the whole link again, or type the seed and the rest below."
            ),
            "es": (
                "Este enlace está incompleto: se corta antes de la semilla, seguramente al copiarlo. "
                "Vuelve a copiar el enlace entero, o escribe abajo la semilla y lo demás."
            ),
        }[language]
    )
    box = box_in_document(page, "#problem")
    assert 0 <= box["top"] < box["bottom"] <= PHONE["height"]
    # The form keeps what the link had, and nothing is computed.
    assert page.input_value("#f-seed") == ""
    assert page.input_value("#f-game") == "loteria"
    assert page.input_value("#f-id") == "12"
    assert page.locator("#results").is_hidden()
    assert page.locator("#verdict").is_hidden()
    other = "es" if language == "en" else "en"
    page.click(f"button[data-lang='{other}']")
    assert page.inner_text("#problem").startswith(
        {"en": "This link is incomplete", "es": "Este enlace está incompleto"}[other]
    )


def test_a_link_cut_inside_the_seed_says_so(open_page):
    link = loteria_link(language="en")
    start = link.index("&seed=") + len("&seed=")
    page = open_page(link[: start + 20])
    page.wait_for_selector("body[data-verified='error']")
    assert page.inner_text("#problem") == (
        "The seed must be exactly 64 hexadecimal characters. This link stops inside the seed "
        "(20 of 64 characters): it was probably cut when it was copied."
    )


def test_an_address_without_a_game_is_an_empty_form(open_page):
    page = open_page(page_path().as_uri())
    page.wait_for_selector("#f-seed")
    assert page.locator("#problem").is_hidden()
    assert page.evaluate("document.body.dataset.verified") is None


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


# ----------------------------------------------------------------------------------------- Bingo

BINGO_VECTOR_CARD = "3.12.6.1.10.25.24.29.30.19.39.44.*.38.37.52.58.54.48.55.64.68.61.66.71"
BINGO_VECTOR_CALLS = ["I-19", "G-59", "O-69", "I-17", "G-51", "O-73", "B-9", "I-27", "B-1", "G-54"]


def card_cells(page: Page, deal: int) -> list[list[str]]:
    return page.locator(f"article.board[data-deal='{deal}'] tbody tr").evaluate_all(
        "rows => rows.map(r => [...r.cells].map(c => c.querySelector('.number').textContent))"
    )


def test_a_bingo_link_shows_the_documented_vectors(open_page):
    page = open_page(bingo_link(seed=bytes(range(32)), boards=[(1, 0)], calls=10))
    assert wait_verified(page) == "yes"
    assert page.inner_text(".game-name") == "Bingo #29"
    board = page.locator("article.board[data-deal='0']")
    assert board.get_attribute("data-state") == BINGO_VECTOR_CARD
    headers = board.locator("thead th span[aria-hidden]").all_inner_texts()
    assert headers == list("BINGO")
    card = cards_at(bytes(range(32)), 0)[0]
    expected = [
        ["FREE" if cell == FREE_CELL else str(card.numbers[cell]) for cell in range(r, r + 5)]
        for r in range(0, 25, 5)
    ]
    assert card_cells(page, 0) == expected
    assert [row[0] for row in expected] == ["3", "12", "6", "1", "10"]  # the vector's B column
    calls = page.eval_on_selector_all(
        "#calls-title ~ ol.calls li", "els => els.map(e => e.textContent)"
    )
    assert calls == BINGO_VECTOR_CALLS
    # Called cells say when, in words too; the free centre is marked from the start.
    out = draw_order(bytes(range(32)), 75)[:10]
    called = board.locator("td.called .number").all_inner_texts()
    assert called == [
        "FREE" if cell == FREE_CELL else str(n)
        for cell, n in enumerate(card.numbers)
        if cell == FREE_CELL or n in out
    ]
    assert "1" in called  # B-1, the 9th call, is on the card
    b1 = board.locator("td.called", has_text="called at call 9")
    assert b1.locator(".number").inner_text() == "1"


def test_a_bingo_game_with_a_custom_pattern_in_spanish_on_a_phone(open_page, screenshot_dir):
    page = open_page(bingo_link(language="es"), viewport=PHONE)
    assert wait_verified(page) == "yes"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    order = draw_order(SEED, 75)
    cards = cards_at(SEED, 0, 12)
    shown = page.eval_on_selector_all(
        "article.board", "els => els.map(e => Number(e.dataset.deal))"
    )
    assert shown == [0, 1, 2, *range(6, 12)]
    patterns = [PATTERN_BOOK["line"], ARROW, PATTERN_BOOK["blackout"]]
    for deal in shown:
        assert page.get_attribute(f"article.board[data-deal='{deal}']", "data-state") == (
            cards[deal].to_state()
        )
        marks = marks_of(page, deal)
        for pattern in patterns:
            done = first_call(
                order, lambda c, p=pattern, card=cards[deal]: check_bingo_claim(card, c, p).valid
            )
            assert marks[pattern.code] == (str(done) if done <= 70 else "")
    caption = page.inner_text("article.board[data-deal='7'] caption")
    assert caption == "Cartón 8 · jugador 5"  # as its picture prints it: CARTÓN 8
    wins = bingo_replay(SEED, patterns, [[deal] for deal in shown], 70)
    rows = page.eval_on_selector_all(
        "#prizes-table tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent))"
    )
    names = ["Cualquier línea", "Flecha de Ana", "Cartón lleno"]
    assert [row[0] for row in rows] == names
    for row, win in zip(rows, wins, strict=True):
        if win.call is None:
            assert row[1].startswith(("ningún tablero", "nadie lo ganó"))
        else:
            assert row[1] == f"cantada {win.call}"
            assert row[2] == "; ".join(
                f"Cartón {deal + 1} · jugador {shown.index(deal) + 1}" for deal in win.deals
            )
    assert wins[0].call is not None  # the game this test shows has a winner to show
    assert "Flecha de Ana (vale de 4 formas)" in page.inner_text("#custom-patterns")
    assert page.inner_text("#calls-title ~ ol.calls li") == call_name(order[0])
    page.screenshot(path=str(screenshot_dir / "bingo-es-phone.png"), full_page=True)


def test_a_bingo_player_finds_their_card_by_its_number_or_its_numbers(open_page):
    page = open_page(bingo_link(seed=bytes(range(32))))
    wait_verified(page)
    assert page.inner_text("label[for='f-find']") == "Find your card by its number or its numbers"
    # "CARD 8" on a picture: the card at deal position 7, as a tabla's number.
    assert find(page, "CARD 8") == "Found: Card 8 · player 5. It is highlighted below."
    assert found_boards(page) == [7]
    assert find(page, "2") == "Found: Card 2 · player 2. It is highlighted below."
    assert found_boards(page) == [1]
    assert (
        find(page, "5") == "Card 5 (a player who left) went to a player who left: it is not shown."
    )
    assert find(page, "13") == "This game has no card 13: its cards are numbered 1 to 12."
    # Numbers on the card: the vector card's B column, typed as people type.
    assert find(page, "3, 12 6") == "Found: Card 1 · player 1. It is highlighted below."
    assert found_boards(page) == [0]
    assert in_view(page, "article.board.found")
    left = cards_at(bytes(range(32)), 3)[0]
    assert find(page, " ".join(str(n) for n in left.numbers if n)) == (
        "Card 4 (a player who left) went to a player who left: it is not shown."
    )
    on_no_card = next(
        (n, m)
        for n in range(1, 16)
        for m in range(16, 31)
        if not any({n, m} <= set(c.numbers) for c in cards_at(bytes(range(32)), 0, 12))
    )
    assert find(page, f"{on_no_card[0]} {on_no_card[1]}") == (
        f"No card of this game holds {on_no_card[0]} {on_no_card[1]}: check that they were typed"
        " right."
    )
    assert find(page, "3 99") == "Bingo numbers go from 1 to 75: 99 is not one."
    assert find(page, "tabla tres").startswith("A card is found by the number printed")
    assert found_boards(page) == []
    find(page, "3 12 6")
    page.click("button[data-lang='es']")
    assert found_boards(page) == [0]
    assert page.inner_text("#find-result").startswith("Encontrado: Cartón 1 · jugador 1.")


@pytest.mark.parametrize(
    ("patterns", "english", "spanish"),
    [
        (
            "arrow=Flecha=1",
            "Custom pattern arrow=Flecha=1 is not written as code=name=cells+cells…",
            "El patrón propio arrow=Flecha=1 no está escrito como",
        ),
        (
            "arrow=Flecha=0001000",
            "Custom pattern arrow=Flecha=0001000: each of its ways must mark a cell",
            "Patrón propio arrow=Flecha=0001000: cada una de sus formas",
        ),
        (
            "line=Flecha=0000001",
            "Custom pattern line=Flecha=0000001 takes the code of a built-in pattern.",
            "El patrón propio line=Flecha=0000001 usa el código de un patrón incorporado.",
        ),
    ],
)
def test_a_link_with_a_malformed_custom_pattern_is_refused(open_page, patterns, english, spanish):
    link = bingo_link()
    start = link.index("&patterns=") + len("&patterns=")
    end = link.index("&", start)
    edited = link[:start] + quote(patterns, safe="") + link[end:]
    page = open_page(edited)
    assert wait_verified(page) == "error"
    assert page.inner_text("#problem").startswith(english)
    assert page.locator("#results").is_hidden()
    assert page.locator("#verdict").is_hidden()
    page.click("button[data-lang='es']")
    page.click("#verify")  # the form kept the link's values
    page.wait_for_function(
        "text => document.getElementById('problem').textContent.startsWith(text)", arg=spanish
    )


def test_a_bingo_link_after_another_games_in_the_same_tab(open_page):
    page = open_page(loteria_link())
    wait_verified(page)
    assert page.locator("#patterns-field").is_hidden()
    assert follow(page, bingo_link(game_id=30)) == "yes"
    assert page.inner_text(".game-name") == "Bingo #30"
    assert page.input_value("#f-game") == "bingo"
    assert page.locator("#patterns-field").is_visible()
    assert page.locator("#deck-field").is_hidden()
    assert page.input_value("#f-patterns") == ARROW.to_text()
    states = page.eval_on_selector_all("article.board", "els => els.map(e => e.dataset.state)")
    cards = cards_at(SEED, 0, 12)
    assert states == [cards[deal].to_state() for deal in (0, 1, 2, *range(6, 12))]
    # Back to a game without custom patterns: the field empties.
    assert follow(page, bingo_link(patterns=[PATTERN_BOOK["x"]], game_id=31)) == "yes"
    assert page.input_value("#f-patterns") == ""
    assert page.inner_text("#prizes-table tbody th") == "X"


def test_a_bingo_game_typed_by_hand(open_page):
    page = open_page(page_path().as_uri())
    page.select_option("#f-game", "bingo")
    assert page.locator("#patterns-field").is_visible()
    assert "blackout" in page.inner_text("#h-prizes")
    page.fill("#f-seed", SEED.hex())
    page.fill("#f-prizes", "corners, ARROW")
    page.fill("#f-patterns", ARROW.to_text())
    page.fill("#f-boards", "1*4")
    page.click("#verify")
    assert wait_verified(page) == "yes"
    states = page.eval_on_selector_all("article.board", "els => els.map(e => e.dataset.state)")
    assert states == [c.to_state() for c in cards_at(SEED, 0, 4)]
    fragment = page.evaluate("location.hash")
    assert "game=bingo" in fragment
    assert "patterns=arrow%3DFlecha+de+Ana%3D" in fragment  # a space is + in a form's encoding
    # The link the form wrote reads back the same.
    again = open_page(page_path().as_uri() + fragment)
    assert wait_verified(again) == "yes"
    assert again.input_value("#f-patterns") == ARROW.to_text()
    assert again.input_value("#f-prizes") == "corners, ARROW"
