"""``/gamenight settings`` end to end: shown and changed by Manage Server only, in the reader's
language; the language, the host role and the start defaults used by every game."""

from __future__ import annotations

import pytest

from bot.replies import UserError
from bot.storage import GameStatus, ServerSettings
from emulator import Emulator
from engine.housie import HousieGame
from engine.loteria import LoteriaGame
from tests.cogs.helpers import button_id

pytestmark = pytest.mark.backends()


async def test_only_manage_server_sees_or_changes_the_settings(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    manager = guild.add_member("manager", manage_guild=True)
    spanish_manager = guild.add_member("gestora", manage_guild=True, locale="es-ES")
    member = guild.add_member("member")
    bot = await start_bot()

    shown = await (await manager.slash("gamenight settings")).reply()
    assert shown.ephemeral
    assert "Game Night settings in this server" in shown.content
    assert "the server's language in Discord (now English)" in shown.content
    assert "Who may start games:** everyone" in shown.content
    assert "**Lotería:** a call every 10 s (default)" in shown.content
    assert "Line (Chorro) → Full tabla (Llena) (default)" in shown.content
    assert "**Housie:** a call every 10 s (default) · prizes Early Five, Top Line" in shown.content
    assert "Finished games are kept" in shown.content

    en_espanol = await (await spanish_manager.slash("gamenight settings")).reply()
    assert "Ajustes de Game Night en este servidor" in en_espanol.content
    assert "el del servidor en Discord (ahora inglés)" in en_espanol.content
    assert "**Tómbola:** una cantada cada 10 s (por defecto)" in en_espanol.content

    for options in ({}, {"language": "es"}, {"game": "loteria", "interval": 30}):
        refused = await (await member.slash("gamenight settings", **options)).reply()
        assert refused.ephemeral
        assert "You need the Manage Server permission" in refused.content
    assert await bot.storage.server_settings(guild.id) == ServerSettings(guild.id)


async def test_the_language_setting_decides_every_games_public_messages(
    emulator: Emulator, start_bot
):
    guild = emulator.add_guild("Game Night", locale="en-US")
    channel = guild.add_channel("general")
    manager = guild.add_member("manager", manage_guild=True)
    ana = guild.add_member("ana", locale="es-ES")
    bob = guild.add_member("bob", locale="en-US")
    bot = await start_bot(time_scale=100)

    saved = await (await manager.slash("gamenight settings", language="es")).reply()
    assert saved.content.startswith("Saved.")
    assert "**Language of games:** Spanish" in saved.content

    # The lobby is the channel's: Spanish. Each player's private answers stay in their language.
    lobby = await (await bob.slash("loteria start")).reply()
    assert "organizada por" in lobby.content
    assert [b["label"] for b in lobby.buttons] == ["Unirse", "Salir", "Empezar", "Cancelar"]
    joined_en = await (await bob.click(lobby, button_id(lobby, "join"))).reply()
    assert "Check your DMs" in joined_en.content
    joined_es = await (await ana.click(lobby, button_id(lobby, "join"))).reply()
    assert "mensajes directos" in joined_es.content
    assert "Here is your tabla" in bob.dms[0].content
    (game,) = await bot.storage.live_games("loteria")
    assert game.options["guild_locale"] == "es-ES"

    # Table games and /stats follow it too.
    board = await (await bob.slash("tictactoe play", in_channel=channel)).reply()
    assert board.content.startswith("## Tres en raya #2")
    stats = await (await bob.slash("stats")).reply()
    assert "Todavía no ha terminado ninguna partida" in stats.content

    # Back to following Discord: the next game is in the server's language again.
    await (await manager.slash("gamenight settings", language="discord")).reply()
    await (await bob.click(lobby, button_id(lobby, "cancel"))).reply()
    english = await (await bob.slash("housie start")).reply()
    assert "hosted by" in english.content


async def test_the_host_role_gates_starting_every_game(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    hosts = guild.add_role("Hosts")
    manager = guild.add_member("manager", manage_guild=True)
    host = guild.add_member("host", roles=[hosts])
    member = guild.add_member("member")
    espanol = guild.add_member("miembro", locale="es-ES")
    bot = await start_bot(time_scale=100)

    saved = await (await manager.slash("gamenight settings", host_role=hosts)).reply()
    assert f"members with <@&{hosts.id}>, and Manage Server" in saved.content

    starts = [
        ("loteria start", {}),
        ("housie start", {}),
        ("tictactoe play", {}),
        ("dots play", {}),
        ("triangle play", {}),
    ]
    for command, options in starts:
        refused = await (await member.slash(command, **options)).reply()
        assert refused.ephemeral, command
        assert refused.content == (
            f"Only members with <@&{hosts.id}> (or Manage Server) can start games in this server."
        )
    refused = await (await espanol.slash("loteria start")).reply()
    assert f"Solo los miembros con <@&{hosts.id}>" in refused.content
    assert await bot.storage.live_games() == []

    # The role's members and managers start games; joining needs no role.
    lobby = await (await host.slash("loteria start")).reply()
    assert "hosted by" in lobby.content
    joined = await (await member.click(lobby, button_id(lobby, "join"))).reply()
    assert "Check your DMs" in joined.content
    challenge = await (await host.slash("tictactoe play", opponent=member.user)).reply()
    await (await member.click(challenge, challenge.custom_ids[0])).reply()
    (duel,) = await bot.storage.live_games("tictactoe")
    assert duel.status is GameStatus.RUNNING
    solo = await (await manager.slash("triangle play")).reply()
    assert not solo.ephemeral
    # A rematch is a new game: its host needs the role too.
    await (await member.slash("tictactoe resign")).reply()
    result = await channel.wait_for_message(
        lambda m: any(":rematch:" in cid for cid in m.custom_ids), timeout=5
    )
    rematch_id = next(cid for cid in result.custom_ids if ":rematch:" in cid)
    no_rematch = await (await member.click(result, rematch_id)).reply()
    assert no_rematch.ephemeral
    assert f"Only members with <@&{hosts.id}>" in no_rematch.content
    rematch = await (await host.click(result, rematch_id)).reply()
    assert not rematch.ephemeral

    # A managed role cannot be chosen; @everyone lets everyone host again.
    bot_role = await (await manager.slash("gamenight settings", host_role=guild.bot_role)).reply()
    assert "belongs to a bot or an integration" in bot_role.content
    assert (await bot.storage.server_settings(guild.id)).host_role_id == hosts.id
    await (await manager.slash("gamenight settings", host_role=guild.everyone_role)).reply()
    assert (await bot.storage.server_settings(guild.id)).host_role_id is None
    other = guild.add_channel("other")
    opened = await (await member.slash("housie start", in_channel=other)).reply()
    assert "hosted by" in opened.content

    # A host role deleted since it was chosen binds no one.
    await (await manager.slash("gamenight settings", host_role=hosts)).reply()
    guild.delete_role(hosts)
    third = guild.add_channel("third")
    await emulator.wait_until(
        lambda: bot.get_guild(guild.id).get_role(hosts.id) is None, 5, lambda: "the role gone"
    )
    shown = await (await manager.slash("gamenight settings")).reply()
    assert "the host role was deleted" in shown.content
    after = await (await member.slash("loteria start", in_channel=third)).reply()
    assert "hosted by" in after.content


async def test_defaults_fill_what_the_host_leaves_out(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    second = guild.add_channel("second")
    manager = guild.add_member("manager", manage_guild=True)
    host = guild.add_member("host")
    bot = await start_bot(time_scale=100)

    saved = await (
        await manager.slash(
            "gamenight settings", game="loteria", interval=25, prizes="line > corners > full"
        )
    ).reply()
    assert "**Lotería:** a call every 25 s · prizes Line (Chorro) → Four corners" in saved.content
    await (await manager.slash("gamenight settings", game="Tómbola", prizes="líneas")).reply()
    await (await manager.slash("gamenight settings", game="housie", interval=40)).reply()
    settings = await bot.storage.server_settings(guild.id)
    assert settings.defaults("loteria").interval == 25
    assert settings.defaults("loteria").prizes == "line, corners, full"
    assert (settings.defaults("housie").interval, settings.defaults("housie").prizes) == (
        40,
        "lines",
    )

    await (await host.slash("loteria start")).reply()
    await (await host.slash("housie start", in_channel=second, early_five=True)).reply()
    loteria, housie = sorted(await bot.storage.live_games(), key=lambda g: g.kind, reverse=True)
    assert loteria.options["interval"] == 25
    assert [p.value for p in LoteriaGame.from_state(loteria.state).prizes] == [
        "line",
        "corners",
        "full",
    ]
    assert housie.options["interval"] == 40
    # An option the host gives wins over the default (Early Five on; lines from the default).
    assert [p.value for p in HousieGame.from_state(housie.state).prizes] == [
        "E5",
        "TL",
        "ML",
        "BL",
        "FH",
    ]

    third = guild.add_channel("third")
    explicit = await (
        await host.slash("loteria start", in_channel=third, prizes="full", interval=5)
    ).reply()
    assert "one card every 5 s" in explicit.content


async def test_a_server_can_make_the_family_deck_its_default(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    general = guild.add_channel("general")
    second = guild.add_channel("second")
    manager = guild.add_member("manager", manage_guild=True)
    gestora = guild.add_member("gestora", manage_guild=True, locale="es-ES")
    host = guild.add_member("host")
    bot = await start_bot(time_scale=100)

    shown = await (await manager.slash("gamenight settings")).reply()
    assert "**Lotería deck** when the host does not choose one: classic deck (default)" in (
        shown.content
    )
    saved = await (await manager.slash("gamenight settings", deck="family")).reply()
    assert saved.content.startswith("Saved.")
    assert "**Lotería deck** when the host does not choose one: family deck\n" in saved.content
    en_espanol = await (await gestora.slash("gamenight settings")).reply()
    assert "**Baraja de la lotería** si el anfitrión no elige una: baraja familiar" in (
        en_espanol.content
    )
    # Changing the other Lotería defaults keeps the deck (and the deck keeps them).
    await (await manager.slash("gamenight settings", game="loteria", interval=25)).reply()
    defaults = (await bot.storage.server_settings(guild.id)).defaults("loteria")
    assert (defaults.deck, defaults.interval) == ("family", 25)

    # A host who does not choose gets the server's deck; one who does, theirs.
    lobby = await (await host.slash("loteria start")).reply()
    assert "family deck" in lobby.content
    chosen = await (await host.slash("loteria start", in_channel=second, deck="classic")).reply()
    assert "classic deck" in chosen.content
    games = {g.channel_id: g for g in await bot.storage.live_games("loteria")}
    assert LoteriaGame.from_state(games[general.id].state).deck_name == "family"
    assert LoteriaGame.from_state(games[second.id].state).deck_name == "classic"
    # So does a planned night, which plays what the start command would with no options.
    state, _ = bot.get_cog("Lotería").scheduled_game(bytes(32), defaults)
    assert LoteriaGame.from_state(state).deck_name == "family"

    await (await manager.slash("gamenight settings", deck="classic")).reply()
    assert (await bot.storage.server_settings(guild.id)).defaults("loteria").deck == "classic"


async def test_bad_values_get_the_start_commands_refusals_and_change_nothing(
    emulator: Emulator, start_bot
):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    manager = guild.add_member("manager", manage_guild=True)
    bot = await start_bot()

    bad_plan = await (await manager.slash("loteria start", prizes="line, banana")).reply()
    refused = await (
        await manager.slash("gamenight settings", game="loteria", prizes="line, banana")
    ).reply()
    assert refused.ephemeral
    assert refused.content == bad_plan.content
    twice = await (
        await manager.slash("gamenight settings", game="loteria", prizes="full, full")
    ).reply()
    assert twice.content == "Each prize can be played once per game."
    housie = await (
        await manager.slash("gamenight settings", game="housie", prizes="lines, jackpot")
    ).reply()
    assert "'jackpot' is not one of the Housie prizes" in housie.content
    no_game = await (await manager.slash("gamenight settings", interval=30)).reply()
    assert "Name the game" in no_game.content
    assert "`loteria` (Lotería)" in no_game.content
    unknown = await (await manager.slash("gamenight settings", game="chess", interval=30)).reply()
    assert "'chess' is not a game with defaults" in unknown.content
    nothing = await (await manager.slash("gamenight settings", game="loteria")).reply()
    assert nothing.content == (
        "Give Lotería an `interval`, `prizes`, `claims`, `near_misses`, `voice` or `voice_language`."
    )
    # Nothing was stored, not even the good parts of a refused change.
    mixed = await (
        await manager.slash("gamenight settings", language="es", game="housie", prizes="jackpot")
    ).reply()
    assert "jackpot" in mixed.content
    zone = await (await manager.slash("gamenight settings", time_zone="Mars/Olympus")).reply()
    assert zone.ephemeral
    assert zone.content == "'Mars/Olympus' is not a time zone I know."
    assert await bot.storage.server_settings(guild.id) == ServerSettings(guild.id)

    # A zone typed in another case is stored as the zone database spells it.
    typed = await (await manager.slash("gamenight settings", time_zone="europe/madrid")).reply()
    assert "**Time zone of planned nights:** Europe/Madrid" in typed.content
    assert (await bot.storage.server_settings(guild.id)).time_zone == "Europe/Madrid"


async def test_the_options_are_offered_as_they_are_typed(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    manager = guild.add_member("manager", manage_guild=True)
    gestora = guild.add_member("gestora", manage_guild=True, locale="es-ES")
    await start_bot()

    games = await manager.autocomplete("gamenight settings", "game", "")
    assert [(c["name"], c["value"]) for c in games] == [
        ("Bingo", "bingo"),
        ("Housie", "housie"),
        ("Lotería", "loteria"),
    ]
    assert [
        c["value"] for c in await gestora.autocomplete("gamenight settings", "game", "tom")
    ] == ["housie"]
    plans = await manager.autocomplete("gamenight settings", "prizes", "line, c", game="loteria")
    assert [c["value"] for c in plans] == ["line, corners, full"]
    housie = await gestora.autocomplete("gamenight settings", "prizes", "esq", game="housie")
    assert housie[0]["name"] == "cinco primeros, líneas, esquinas"
    assert housie[0]["value"] == "early_five, lines, corners"
    assert await manager.autocomplete("gamenight settings", "prizes", "x") == []
    zones = [
        c["value"] for c in await manager.autocomplete("gamenight settings", "time_zone", "mexico")
    ]
    assert zones[0] == "America/Mexico_City"
    assert zones == ["America/Mexico_City"]  # not the old aliases (Mexico/General)
    assert len(await manager.autocomplete("gamenight settings", "time_zone", "")) == 25


async def test_the_settings_command_is_synced_with_every_games_options(
    emulator: Emulator, start_bot
):
    """The options a game adds (bot.game_settings: Lotería's deck, the words of each game's
    default prizes) are declared before the tree syncs, after the shared ones, worded and
    localised as they always were; a value the choices do not hold is the game's refusal."""
    emulator.add_guild("Game Night")
    bot = await start_bot()
    gamenight = next(c for c in emulator.synced_commands if c["name"] == "gamenight")
    assert [o["name"] for o in gamenight["options"]] == ["settings", "forget-me"]
    settings = gamenight["options"][0]
    options = {o["name"]: o for o in settings.get("options", [])}
    assert list(options) == [
        "language", "host_role", "game", "interval", "prizes", "time_zone", "near_misses",
        "claims", "voice", "voice_language", "deck",
    ]  # fmt: skip
    assert options["voice"]["type"] == 7  # a channel
    assert options["voice"]["channel_types"] == [2, 13]  # voice and stage channels only
    prizes, deck = options["prizes"], options["deck"]
    assert prizes["description"] == (
        "Default prizes: Bingo patterns, or Housie prizes, or a Lotería plan"
    )
    assert prizes["description_localizations"]["es-ES"] == (
        "Premios por defecto: figuras de bingo, o premios de tómbola, o un plan de Lotería"
    )
    assert deck["description"] == "The Lotería deck when the host does not choose one"
    assert deck["description_localizations"]["es-419"] == (
        "La baraja de la lotería si el anfitrión no elige una"
    )
    assert deck["name_localizations"]["es-ES"] == "baraja"
    assert [(c["name"], c["value"]) for c in deck["choices"]] == [
        ("Classic", "classic"),
        ("Family", "family"),
    ]
    assert [c["name_localizations"]["es-ES"] for c in deck["choices"]] == ["Clásica", "Familiar"]
    assert all(not o.get("required") for o in options.values())

    # Discord offers the choices only; a value from elsewhere is refused all the same.
    with pytest.raises(UserError) as refused:
        bot.get_cog("GameNight").settings_change(None, None, None, None, None, deck="tarot")
    assert refused.value.text("en-US") == "Choose the classic or the family deck."
