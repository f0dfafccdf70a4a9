import asyncio
import io

from PIL import Image

from bot.app import game_cogs
from bot.render import warm_up
from bot.render.__main__ import main, write_samples
from bot.render.housie import render_caller_board, render_ticket
from bot.render.loteria import render_tabla
from engine.housie import tickets_at
from engine.loteria import FAMILY_DECK, deal_for_game

EXPECTED = {
    "loteria-card.png",
    "loteria-tabla.png",
    "loteria-tabla-marked.png",
    "loteria-tabla-winning.png",
    "loteria-call-first.png",
    "loteria-call.png",
    "loteria-call-verse.png",
    "housie-ticket.png",
    "housie-ticket-marked.png",
    "housie-ticket-winning.png",
    "housie-call.png",
    "housie-call-first.png",
    "housie-board.png",
    "housie-board-full.png",
    "bingo-card.png",
    "bingo-card-marked.png",
    "bingo-card-winning.png",
    "bingo-call-first.png",
    "bingo-call.png",
    "bingo-board.png",
    "bingo-pattern.png",
    "bingo-lobby-patterns.png",
    "bingo-help-patterns.png",
    "tictactoe-won.png",
    "tictactoe-draw.png",
    "tictactoe-5x5.png",
    "dots.png",
    "dots-finished.png",
    "dots-names.png",
    "tictactoe-names.png",
    "triangle.png",
    "triangle-solved.png",
    "triangle-solution.gif",
    "results-loteria.png",
    "results-housie.png",
    "results-bingo.png",
    "leaderboard.png",
    # Spanish variants, as a Spanish server or player gets them
    "loteria-tabla-winning-es.png",
    "loteria-call-es.png",
    "housie-ticket-es.png",
    "housie-ticket-winning-es.png",
    "housie-call-es.png",
    "housie-board-es.png",
    "bingo-card-winning-es.png",
    "bingo-call-es.png",
    "tictactoe-es.png",
    "dots-es.png",
    "triangle-es.png",
    "triangle-solution-es.gif",
}


def test_sample_writes_every_picture_kind(tmp_path, capsys):
    assert main(["--sample", str(tmp_path / "out")]) == 0
    written = {path.name for path in (tmp_path / "out").iterdir()}
    assert written == EXPECTED | {"alt-text.txt"}
    for name in EXPECTED:
        with Image.open(io.BytesIO((tmp_path / "out" / name).read_bytes())) as image:
            assert image.format == ("GIF" if name.endswith(".gif") else "PNG")
    alt_lines = (tmp_path / "out" / "alt-text.txt").read_text(encoding="utf-8").splitlines()
    assert sorted(line.split(":")[0] for line in alt_lines) == sorted(EXPECTED)
    assert len(capsys.readouterr().out.splitlines()) == len(EXPECTED)


def test_the_samples_are_each_found_games_own(tmp_path):
    """bot/ names no game: each game supplies its samples (``GameCog.sample_pictures``), and
    those of whichever games are found are written, a game only the tests know included."""
    written = write_samples(tmp_path, extensions=("tests.cogs.toy_table",))
    assert [path.name for path in written] == ["race.png", "leaderboard.png"]
    with Image.open(io.BytesIO((tmp_path / "race.png").read_bytes())) as image:
        assert image.format == "PNG"
    alt = (tmp_path / "alt-text.txt").read_text(encoding="utf-8")
    assert "race.png: Race to ten #1: 7 of 10 after 5 moves" in alt.splitlines()
    # The leaderboard's cards are the games found: here the one.
    (leaderboard_alt,) = [line for line in alt.splitlines() if line.startswith("leaderboard.png")]
    assert "Race to ten" in leaderboard_alt
    assert "Lotería" not in leaderboard_alt
    samples = {cog.kind: [name for name, _ in cog.sample_pictures()] for cog in game_cogs()}
    assert "loteria-call-verse.png" in samples["loteria"]  # with its verse, the cog's content
    assert "housie-call.png" in samples["housie"]  # with its call name
    assert "results-housie.png" in samples["housie"]


async def test_renders_from_worker_threads_match_sequential_ones():
    """Callers use asyncio.to_thread; concurrent renders must give the same bytes."""
    warm_up(cog.warm_up_pictures for cog in game_cogs())
    seed = bytes(32)
    tablas = deal_for_game(seed, 4)
    tickets = tickets_at(seed, 0, 4)
    jobs = [
        *(
            lambda t=t, i=i: render_tabla(
                t, FAMILY_DECK, game_id="T", tabla_number=i, called=[1, 2]
            )
            for i, t in enumerate(tablas)
        ),
        *(
            lambda t=t, i=i: render_ticket(t, game_id="T", code=str(i), called=[1, 2])
            for i, t in enumerate(tickets)
        ),
        lambda: render_caller_board([1, 2]),
    ]
    sequential = [job() for job in jobs]
    concurrent = await asyncio.gather(*(asyncio.to_thread(job) for job in jobs))
    assert list(concurrent) == sequential


def test_start_up_warms_up_each_loaded_games_own_pictures():
    """bot/ names no game: the warm-up at start-up is each game cog's own (found before any cog
    is loaded), the calling games' palettes and call pieces."""
    from bot.render import housie, loteria

    warm_ups = {cog.kind: cog.warm_up_pictures for cog in game_cogs()}
    assert warm_ups["loteria"] is loteria.warm_up
    assert warm_ups["housie"] is housie.warm_up
    assert {"tictactoe", "dots", "triangle"} <= set(warm_ups)  # theirs does nothing
