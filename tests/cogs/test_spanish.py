"""English and Spanish: localised slash commands, and every game spoken in the players' language."""

from __future__ import annotations

import re

from emulator import Emulator
from engine.fairness import draw_order
from engine.loteria import Pattern, tablas_at
from tests.cogs.helpers import button_id, first_completion, run_calls


def option(command: dict, name: str) -> dict:
    return next(o for o in command.get("options", []) if o["name"] == name)


async def test_commands_are_synced_with_spanish_names_and_descriptions(
    emulator: Emulator, start_bot
):
    emulator.add_guild("Servidor")
    await start_bot()
    loteria = next(c for c in emulator.synced_commands if c["name"] == "loteria")
    for locale in ("es-ES", "es-419"):
        assert loteria["description_localizations"][locale] == "Juega a la Lotería mexicana"
    start = option(loteria, "start")
    assert start["name_localizations"]["es-ES"] == "empezar"
    assert option(start, "interval")["name_localizations"]["es-ES"] == "intervalo"
    deck_choices = option(start, "deck")["choices"]
    assert {c["name_localizations"]["es-ES"] for c in deck_choices} == {"Clásica", "Familiar"}
    housie = next(c for c in emulator.synced_commands if c["name"] == "housie")
    assert housie["name_localizations"]["es-419"] == "tombola"
    assert "fr" not in loteria.get("description_localizations", {})
    # An option may need another word than the command of the same name.
    triangle = next(c for c in emulator.synced_commands if c["name"] == "triangle")
    assert (
        option(option(triangle, "play"), "start")["name_localizations"]["es-ES"] == "hoyo_inicial"
    )


async def test_every_command_option_and_choice_has_spanish(emulator: Emulator, start_bot):
    emulator.add_guild("Servidor")
    await start_bot()
    missing = []

    def check(item: dict, path: str) -> None:
        for field in ("name", "description"):
            if (
                field in item
                and item[field]
                and "es-ES" not in (item.get(f"{field}_localizations") or {})
            ):
                if field == "name" and item[field].isdigit():
                    continue
                missing.append(f"{path} {field} {item[field]!r}")
        for child in item.get("options") or []:
            check(child, f"{path} {child['name']}")
        missing.extend(
            f"{path} choice {choice['name']!r}"
            for choice in item.get("choices") or []
            if "es-ES" not in (choice.get("name_localizations") or {})
            and not any(ch.isdigit() for ch in choice["name"])
        )

    for command in emulator.synced_commands:
        check(command, "/" + command["name"])
    assert missing == []


async def test_a_spanish_server_plays_in_spanish(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Noche de Lotería", locale="es-ES")
    channel = guild.add_channel("general")
    host = guild.add_member("anfitriona", locale="es-419")
    ana = guild.add_member("ana", locale="es-ES")
    bob = guild.add_member("bob", locale="en-US")
    bot = await start_bot(time_scale=100)
    cog = bot.get_cog("Lotería")

    lobby = await (await host.slash("loteria start", prizes="full")).reply()
    assert "Sala abierta" in lobby.content
    assert "Compromiso de juego limpio" in lobby.content
    assert [b["label"] for b in lobby.buttons] == ["Unirse", "Salir", "Empezar", "Cancelar"]

    spanish = await (await ana.click(lobby, button_id(lobby, "join"))).reply()
    assert "¡Estás en Lotería" in spanish.content
    assert "Aquí tienes tu tabla" in ana.dms[0].content
    # The DM'd tabla speaks its player's language, as the DM does.
    (tabla,) = ana.dms[0].attachments
    assert tabla.description.startswith("Tabla de Lotería 1, partida ")
    english = await (await bob.click(lobby, button_id(lobby, "join"))).reply()
    assert "You're in Lotería" in english.content
    assert bob.dms[0].attachments[0].description.startswith("Lotería tabla 2, game ")
    refused = await (await ana.click(lobby, button_id(lobby, "start"))).reply()
    assert "Solo el anfitrión" in refused.content
    refused_en = await (await bob.click(lobby, button_id(lobby, "start"))).reply()
    assert "Only the host" in refused_en.content
    # The lobby's progress agrees with the game's boards: tablas repartidas.
    await emulator.wait_until(
        lambda: "(repartidas 2 de 2)" in channel.get_message(lobby.id).content or None,
        10,
        lambda: channel.get_message(lobby.id).content,
    )

    await (await host.click(lobby, button_id(lobby, "start"))).reply()
    (game,) = await bot.storage.live_games("loteria")
    await run_calls(cog, game.id, 2)
    assert "carta 2 de 54 · se juega por **Llena**" in channel.messages[-1].content
    # The call's picture speaks the server's language, as the line beside it.
    (call,) = channel.messages[-1].attachments
    assert call.description.startswith("Cantada 2 de 54: carta ")
    assert "Antes: " in call.description
    false_claim = await (await bob.slash("loteria claim")).reply()
    assert "Reclamo falso" in false_claim.content  # public: in the server's language
    await (await host.slash("loteria stop")).reply()
    summary = await channel.wait_for_message(lambda m: "Semilla" in m.content, timeout=10)
    assert "terminó" in summary.content
    assert "Semilla" in summary.content


async def test_housie_in_a_spanish_server(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Tómbola", locale="es-419")
    channel = guild.add_channel("general")
    host = guild.add_member("anfitrión", locale="es-419")
    bot = await start_bot(time_scale=100)
    cog = bot.get_cog("Housie")
    lobby = await (await host.slash("housie start", tickets=2)).reply()
    assert "Premios: **Cinco primeros, Línea de arriba" in lobby.content
    offer = await (await host.click(lobby, button_id(lobby, "join"))).reply()
    assert "¿Cuántos cartones quieres?" in offer.content
    joined = await (await host.click(offer, button_id(offer, "tickets2"))).reply()
    assert "tus 2 cartones" in joined.content
    tickets = [picture.description for picture in host.dms[-1].attachments]
    assert [alt.split(" (")[0] for alt in tickets] == ["Cartón de tómbola 1", "Cartón de tómbola 2"]
    # The lobby's progress agrees with the game's boards: cartones repartidos.
    await emulator.wait_until(
        lambda: "(repartidos 1 de 1)" in channel.get_message(lobby.id).content or None,
        10,
        lambda: channel.get_message(lobby.id).content,
    )
    await (await host.click(lobby, button_id(lobby, "start"))).reply()
    (game,) = await bot.storage.live_games()
    await run_calls(cog, game.id, 1)
    assert "número 1 de 90" in channel.messages[-1].content
    (call,) = channel.messages[-1].attachments
    assert call.description.startswith("Tómbola, cantada 1 de 90: el número ")
    board = await (await host.slash("housie board")).reply()
    assert board.attachments[0].description.startswith("Tablero de la tómbola: 1 de 90 cantados")
    choices = await host.autocomplete("housie claim", "prize", "línea")
    assert {c["name"] for c in choices} == {"Línea de arriba", "Línea del medio", "Línea de abajo"}
    bogey = await (await host.slash("housie claim", prize="FH", ticket=1)).reply()
    assert "¡Reclamo falso!" in bogey.content
    assert "El cartón 1 queda fuera" in bogey.content


# -- the table games ---------------------------------------------------------------------------

TABLE_EXTENSIONS = ("cogs.tictactoe", "cogs.dots", "cogs.triangle", "cogs.stats")


def game_number(message) -> int:
    match = re.search(r"#(\d+)", message.content)
    assert match, message.content
    return int(match[1])


async def test_tic_tac_toe_against_the_bot_in_a_spanish_server(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Noche de juegos", locale="es-ES")
    channel = guild.add_channel("general")
    ana = guild.add_member("ana", locale="es-ES")
    bob = guild.add_member("bob", locale="en-US")
    carla = guild.add_member("carla", locale="es-419")
    await start_bot(time_scale=1, extensions=TABLE_EXTENSIONS)

    board = await (await ana.slash("tictactoe play", level="perfect")).reply()
    game = game_number(board)
    assert board.content.startswith(f"## Tres en raya #{game} · 3x3, gana quien haga 3 en raya")
    assert "(O, bot perfecto)" in board.content
    assert f"Le toca a {ana.mention} (X)" in board.content
    assert "o pierdes por tiempo" in board.content
    assert board.component(f"gn:ttt:resign:{game}")["label"] == "Rendirse"

    # Refusals in the presser's language, whatever the server's.
    english = await (await bob.click(board, f"gn:ttt:cell:{game}:4")).reply()
    assert "Start your own with `/tictactoe play`" in english.content
    spanish = await (await carla.click(board, f"gn:ttt:cell:{game}:4")).reply()
    assert f"Esta es la partida de {ana.mention} y" in spanish.content

    await (await ana.click(board, f"gn:ttt:cell:{game}:4")).reply()
    taken = next(i for i in range(9) if board.component(f"gn:ttt:cell:{game}:{i}")["label"] == "O")
    refused = await (await ana.click(board, f"gn:ttt:cell:{game}:{taken}")).reply()
    assert refused.ephemeral
    assert f"la casilla {taken} ya es de O" in refused.content

    while not board.component(f"gn:ttt:cell:{game}:0").get("disabled"):
        free = next(
            i
            for i in range(9)
            if board.component(f"gn:ttt:cell:{game}:{i}")["label"] not in {"X", "O"}
        )
        await (await ana.click(board, f"gn:ttt:cell:{game}:{free}")).reply()
    result = await channel.wait_for_message(lambda m: m.content.startswith("🏁 Tres en raya"))
    # The perfect bot never loses: a draw or its win.
    assert re.search(r"\*\*(Empate|Gana .+)\*\* tras \d+ jugadas\.", result.content)
    assert result.component(f"gn:ttt:rematch:{game}")["label"] == "Revancha"
    (picture,) = result.attachments
    assert picture.description.startswith(f"Tres en raya, partida {game}, tablero de 3x3")
    assert re.search(r"(Empate|Gana .+)\.( Casillas ganadoras: .+\.)?$", picture.description)
    assert re.search(r"\*\*(Empate|Gana .+)\.\*\*", board.content)


async def test_a_dots_move_in_a_spanish_server(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Noche de juegos", locale="es-419")
    guild.add_channel("general")
    ana = guild.add_member("ana", locale="es-419")
    await start_bot(time_scale=1, extensions=TABLE_EXTENSIONS)

    board = await (await ana.slash("dots play", rows=2, columns=2, level="hard")).reply()
    game = game_number(board)
    assert board.content.startswith(f"## Timbiriche #{game} · 2x2 cajas")
    (picture,) = board.attachments
    assert picture.description.startswith(f"Timbiriche, partida {game}, 2x2 cajas")
    assert ". Le toca a " in picture.description
    assert "(bot difícil) **0**" in board.content
    assert "Le toca a" in board.content
    assert "Quien cierra una caja vuelve a jugar." in board.content
    (select,) = [cid for cid in board.custom_ids if cid.startswith("gs:dots:line:")]
    assert board.component(select)["placeholder"] == "Traza una línea (A1-B1 … B3-C3)"
    descriptions = {o["description"] for o in board.component(select)["options"]}
    assert descriptions == {"horizontal", "vertical"}

    await (await ana.select(board, select, ["A1-B1"])).reply()
    assert "Últimas jugadas: 🟥 A1-B1, 🟦 " in board.content
    typed = await (await ana.slash("dots move", line="zz")).reply()
    assert typed.ephemeral
    choices = await ana.autocomplete("dots move", "line", "C")
    assert choices
    assert all(c["name"].endswith(("(horizontal)", "(vertical)")) for c in choices)
    resigned = await (await ana.click(board, f"gn:dots:resign:{game}")).reply()
    assert f"Te rendiste en Timbiriche #{game}." in resigned.content
    assert f"{ana.mention} se rindió: gana" in board.content


async def test_a_triangle_started_and_an_illegal_jump_in_spanish(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Noche de juegos", locale="es-ES")
    guild.add_channel("general")
    ana = guild.add_member("ana", locale="es-ES")
    bob = guild.add_member("bob", locale="es-ES")
    await start_bot(time_scale=1, extensions=TABLE_EXTENSIONS)

    board = await (await ana.slash("triangle play")).reply()
    game = game_number(board)
    assert board.content.startswith(f"## Triángulo #{game}")
    assert "**Pulsa el hoyo que quieres dejar vacío**" in board.content
    labels = {b["label"] for b in board.buttons}
    assert {"Pista", "Abandonar"} <= labels
    intruder = await (await bob.click(board, f"gn:tri:hint:{game}")).reply()
    assert f"Este triángulo es de {ana.mention}" in intruder.content

    await (await ana.click(board, f"gn:tri:hole:{game}:0")).reply()
    assert "Quedan 14 clavijas." in board.content
    await (await ana.click(board, f"gn:tri:hole:{game}:3")).reply()
    assert "Clavija 3 elegida: puede saltar a 0." in board.content
    await (await ana.click(board, f"gn:tri:hole:{game}:3")).reply()  # dropped again
    await (await ana.click(board, f"gn:tri:hole:{game}:1")).reply()
    assert "Clavija 1 elegida, pero no tiene salto" in board.content
    illegal = await (await ana.click(board, f"gn:tri:hole:{game}:0")).reply()
    assert illegal.ephemeral
    assert "1 -> 0 no es un salto en línea recta sobre un hoyo vecino" in illegal.content
    hint = await (await ana.click(board, f"gn:tri:hint:{game}")).reply()
    assert hint.content.startswith("💡 Salta **")
    gave_up = await (await ana.slash("triangle quit")).reply()
    assert f"Abandonaste Triángulo #{game}." in gave_up.content
    assert "Abandonado con 14 clavijas en el tablero." in board.content
    (picture,) = board.attachments
    assert picture.description.startswith(f"Triángulo, partida {game}: 15 hoyos")
    assert "14 clavijas: abandonado." in picture.description  # the caption, as the cog words it


async def test_each_picture_speaks_the_language_of_the_message_it_comes_with(
    emulator: Emulator, start_bot
):
    """In an English server a Spanish player's own tabla is in Spanish, while what the channel
    sees (the calls, a win's tabla) is in English."""
    seed = bytes(range(3, 35))
    guild = emulator.add_guild("Game Night", locale="en-US")
    channel = guild.add_channel("general")
    ana = guild.add_member("ana", locale="es-ES")
    bob = guild.add_member("bob", locale="en-GB")
    bot = await start_bot(time_scale=100, seed_source=lambda: seed)
    cog = bot.get_cog("Lotería")
    lobby = await (await bob.slash("loteria start", prizes="line")).reply()
    for member in (ana, bob):
        await (await member.click(lobby, button_id(lobby, "join"))).reply()
    assert ana.dms[0].attachments[0].description.startswith("Tabla de Lotería 1, partida ")
    assert bob.dms[0].attachments[0].description.startswith("Lotería tabla 2, game ")
    await (await bob.click(lobby, button_id(lobby, "start"))).reply()
    (game,) = await bot.storage.live_games()

    order = draw_order(seed, 54)
    ana_tabla = tablas_at(seed, 0, 1)[0]
    line = first_completion(Pattern.LINE.masks, [ana_tabla.marks(order[:n]) for n in range(1, 55)])
    assert line is not None
    await run_calls(cog, game.id, line)
    (call,) = channel.messages[-1].attachments
    assert call.description.startswith(f"Call {line} of 54: card ")

    shown = await (await ana.slash("loteria tabla")).reply()
    assert shown.ephemeral
    assert re.search(r" Marcadas [1-9]\d* de 16: ", shown.attachments[0].description)
    won = await (await ana.slash("loteria claim")).reply()
    assert "wins on call" in won.content, won.content
    (picture,) = won.attachments
    assert picture.description.startswith(f"Lotería tabla 1, game {game.id}.")
    assert " Winning Line (Chorro): " in picture.description
