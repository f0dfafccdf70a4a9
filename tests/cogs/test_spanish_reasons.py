"""The engines' reasons in the players' language, end to end: a false Lotería claim and a Housie
bogey in the server's language, a mistyped ``/dots move`` line, a drawn line and a bad
``/housie check`` code in the player's, an illegal triangle jump in the presser's."""

from __future__ import annotations

import re

import pytest

from emulator import Emulator
from tests.cogs.helpers import button_id, run_calls

SERVER_LANGUAGES = [
    pytest.param("es-ES", id="spanish-server"),
    pytest.param("en-US", id="english-server"),
]


@pytest.mark.parametrize("locale", SERVER_LANGUAGES)
async def test_a_false_loteria_claim_says_why_in_the_servers_language(
    emulator: Emulator, start_bot, locale
):
    guild = emulator.add_guild("Lotería", locale=locale)
    guild.add_channel("general")
    host = guild.add_member("host", locale="en-US")  # the channel's language, not the player's
    bot = await start_bot(time_scale=100)
    lobby = await (await host.slash("loteria start", prizes="line")).reply()
    await (await host.click(lobby, button_id(lobby, "join"))).reply()
    await (await host.click(lobby, button_id(lobby, "start"))).reply()
    (game,) = await bot.storage.live_games()
    await run_calls(bot.get_cog("Lotería"), game.id, 2)  # a line needs 4 cards

    claim = await (await host.slash("loteria claim")).reply()
    assert not claim.ephemeral
    if locale == "es-ES":
        assert f"❌ Reclamo falso de {host.mention}: ninguna línea está completa." in claim.content
    else:
        assert f"❌ False claim by {host.mention}: no line is complete." in claim.content
    # The stored reason stays the engine's English, whatever the server's language.
    (stored,) = await bot.storage.claims(game.id)
    assert stored.reason == "no line is complete"


@pytest.mark.parametrize("locale", SERVER_LANGUAGES)
async def test_a_housie_bogey_says_why_in_the_servers_language(
    emulator: Emulator, start_bot, locale
):
    guild = emulator.add_guild("Tómbola", locale=locale)
    guild.add_channel("general")
    host = guild.add_member("host", locale="es-419")
    bot = await start_bot(time_scale=100)
    lobby = await (await host.slash("housie start")).reply()
    await (await host.click(lobby, button_id(lobby, "join"))).reply()
    await (await host.click(lobby, button_id(lobby, "start"))).reply()
    (game,) = await bot.storage.live_games()
    await run_calls(bot.get_cog("Housie"), game.id, 1)

    bogey = await (await host.slash("housie claim", prize="FH", ticket=1)).reply()
    assert not bogey.ephemeral
    # 14 or 15 of the ticket's numbers are still to call: five named, then how many more.
    if locale == "es-ES":
        pattern = (
            r"reclamó Cartón lleno, pero el premio Cartón lleno no está completo: "
            r"faltan por salir (\d+, ){4}\d+ y (9|10) más\. El cartón 1 queda fuera"
        )
    else:
        pattern = (
            r"claimed Full House but Full House is not complete: "
            r"(\d+, ){4}\d+ and (9|10) more not called yet\. Ticket 1 is out"
        )
    assert re.search(pattern, bogey.content), bogey.content


async def test_a_mistyped_dots_line_is_explained_in_the_players_language(
    emulator: Emulator, start_bot
):
    guild = emulator.add_guild("Game Night")  # an English server: refusals follow the player
    guild.add_channel("general")
    ana = guild.add_member("ana", locale="es-ES")
    bob = guild.add_member("bob", locale="en-US")
    await start_bot(time_scale=1, extensions=("cogs.dots",))
    await (await ana.slash("dots play")).reply()
    await (await bob.slash("dots play")).reply()

    spanish = {
        "Z9": "'Z9' no es una línea: nombra dos puntos, como A1-B1",
        "A1-C1": "A1-C1 se salta puntos: una línea une dos puntos vecinos",
        "b2-a1": "A1-B2 es diagonal: las líneas van en horizontal o en vertical entre puntos vecinos",
        "A1-A1": "A1-A1 une un punto consigo mismo",
        "A9-A8": "el punto A9 no está en un tablero de 3x3 (columnas A-D, filas 1-4)",
    }
    for typed, words in spanish.items():
        refused = await (await ana.slash("dots move", line=typed)).reply()
        assert refused.ephemeral
        assert refused.content == words
    english = await (await bob.slash("dots move", line="Z9")).reply()
    assert english.content == "'Z9' is not a line: name two dots, like A1-B1"

    played = await (await ana.slash("dots move", line="A1-B1")).reply()
    assert "A1-B1" in played.content
    again = await (await ana.slash("dots move", line="b1-a1")).reply()
    assert again.ephemeral
    assert again.content == "la línea A1-B1 ya está trazada"


async def test_a_bad_ticket_code_is_explained_in_the_players_language(
    emulator: Emulator, start_bot
):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    ana = guild.add_member("ana", locale="es-ES")
    bob = guild.add_member("bob", locale="en-US")
    await start_bot(time_scale=100)

    forged = "0" * 26  # the right length and alphabet, but no valid signature
    spanish = await (await ana.slash("housie check", code=forged)).reply()
    assert spanish.ephemeral
    assert spanish.content == (
        "❌ Código de cartón no válido: este código de cartón no cuadra: está mal escrito, "
        "alterado o no se emitió aquí."
    )
    short = await (await ana.slash("housie check", code="abc-de")).reply()
    assert short.content == (
        "❌ Código de cartón no válido: un código de cartón tiene de 26 a 64 caracteres; "
        "este tiene 5."
    )
    letter = await (await ana.slash("housie check", code="00U" + "0" * 23)).reply()
    assert letter.content.endswith("el carácter 3 es 'U'.")
    english = await (await bob.slash("housie check", code=forged)).reply()
    assert english.content == (
        "❌ Not a valid ticket code: this ticket code does not check out: it was mistyped, "
        "edited, or not issued here."
    )


async def test_a_jump_over_an_empty_hole_is_explained_in_the_pressers_language(
    emulator: Emulator, start_bot
):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    ana = guild.add_member("ana", locale="es-419")
    await start_bot(time_scale=1, extensions=("cogs.triangle",))
    board = await (await ana.slash("triangle play", start=0)).reply()
    game = int(re.search(r"#(\d+)", board.content)[1])

    for hole in (3, 0, 6):  # jump 3 over 1 into 0, then pick 6
        await (await ana.click(board, f"gn:tri:hole:{game}:{hole}")).reply()
    refused = await (await ana.click(board, f"gn:tri:hole:{game}:1")).reply()
    assert refused.ephemeral
    assert refused.content == ("no hay nada que saltar: el hoyo 3, entre 6 y 1, está vacío")
