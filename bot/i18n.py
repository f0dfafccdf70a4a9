"""English and Spanish: slash-command localisations and player-facing messages.

Here are the words the bot's own modules name: those every game shares (errors, lobbies and
claims, the table games' challenges, settings, /help's frame, /stats, planned nights, what the
pictures share). A game's own words sit beside it and join these when they are imported,
through :func:`register_messages`: what its cog says beside the cog (``cogs/<game>/words.py``,
as Red-DiscordBot keeps a cog's words with the cog), what its pictures draw beside its renderer
(``bot/render/<game>/words.py``, which the cog's renderer imports)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.plurals import plural

LocaleLike = discord.Locale | str | None


@dataclass(frozen=True, slots=True)
class Plural:
    """A message whose words depend on a count: the value of its placeholder ``by``
    (``count`` unless it says otherwise) picks the form, by the one rule of
    :func:`bot.plurals.plural`."""

    one: str
    other: str
    by: str = "count"

    def pick(self, count: int) -> str:
        """The form for ``count``: ``one`` for 1, ``other`` for any other count."""
        return plural(count, self.one, self.other)


Text = str | Plural

SPANISH_LOCALES = frozenset({discord.Locale.spain_spanish, discord.Locale.latin_american_spanish})

# Command, option and choice names and descriptions: English source -> Spanish. Names follow
# Discord's rules (lowercase, no spaces); the English name stays the one the bot receives.
COMMAND_TRANSLATIONS: dict[str, str] = {
    # command, subcommand and option names (some are the same word in Spanish)
    "start": "empezar",
    "join": "unirse",
    "claim": "reclamar",
    "pause": "pausar",
    "resume": "reanudar",
    "stop": "terminar",
    "speed": "velocidad",
    "verify": "verificar",
    "stats": "estadísticas",
    "prizes": "premios",
    "interval": "intervalo",
    "deck": "baraja",
    "max_players": "max_jugadores",
    "slept_rule": "regla_dormido",
    "seconds": "segundos",
    "game": "partida",
    "play": "jugar",
    "resign": "rendirse",
    "opponent": "rival",
    "level": "nivel",
    "turn_time": "tiempo_turno",
    "Easy": "Fácil",
    "Normal": "Normal",
    "Who to challenge; leave empty to play the bot": (
        "A quién retar; déjalo vacío para jugar contra el bot"
    ),
    "How well the bot plays": "Qué tan bien juega el bot",
    "Seconds per move before a loss on time": "Segundos por jugada antes de perder por tiempo",
    # choice names
    "Classic": "Clásica",
    "Family": "Familiar",
    # descriptions
    "Pause the calls (host or Manage Server)": "Pausa al cantor (anfitrión o Gestionar servidor)",
    "Resume the calls (host or Manage Server)": "Reanuda al cantor (anfitrión o Gestionar servidor)",
    "End the game now (host or Manage Server)": (
        "Termina la partida ahora (anfitrión o Gestionar servidor)"
    ),
    "Change the seconds between calls": "Cambia los segundos entre cantadas",
    "Check a finished game against its seed": "Comprueba una partida terminada con su semilla",
    "This server's leaderboard: wins and games played per game": (
        "Clasificación del servidor: victorias y partidas jugadas por juego"
    ),
    "period": "periodo",
    "Which finished games count (default: all time)": (
        "Qué partidas terminadas cuentan (por defecto: todas)"
    ),
    "This week (the last 7 days)": "Esta semana (los últimos 7 días)",
    "This month (the last 30 days)": "Este mes (los últimos 30 días)",
    "All time": "Desde siempre",
    # /gamenight (cogs/gamenight.py)
    "gamenight": "gamenight",
    "settings": "ajustes",
    "forget-me": "olvidarme",
    "language": "idioma",
    "host_role": "rol_anfitrion",
    "time_zone": "zona_horaria",
    "near_misses": "casi_gano",
    "Tell players by DM how close they came to a prize (default on)": (
        "Decir a cada jugador por MD lo cerca que estuvo de un premio (sí por defecto)"
    ),
    "The time zone planned game nights are read in, e.g. America/Mexico_City": (
        "La zona horaria de las noches de juego planeadas, p. ej. America/Mexico_City"
    ),
    "Game Night in this server: its settings, and your data": (
        "Game Night en este servidor: sus ajustes y tus datos"
    ),
    "Show or change the bot's settings in this server (Manage Server)": (
        "Muestra o cambia los ajustes del bot en este servidor (Gestionar servidor)"
    ),
    "The language of games' public messages": "El idioma de los mensajes públicos de las partidas",
    "Follow the server's language in Discord": "Seguir el idioma del servidor en Discord",
    "English": "Inglés",
    "Spanish": "Español",
    "Who may start games: a role, or @everyone for everybody": (
        "Quién puede empezar partidas: un rol, o @everyone para todos"
    ),
    "The game the interval, prizes and claims are for": (
        "El juego al que van el intervalo, los premios y los reclamos"
    ),
    # How a calling game's wins are found (every start command, schedule, /gamenight settings)
    "claims": "reclamos",
    "Players claim their wins, or the bot finds them after each call": (
        "Los jugadores reclaman sus premios, o el bot los encuentra tras cada cantada"
    ),
    "Manual: players claim (a win slept on is lost)": (
        "Manual: reclaman los jugadores (quien se duerme, pierde)"
    ),
    "Automatic: the bot finds every winner": "Automático: el bot encuentra a todos los ganadores",
    # Where and how a calling game's calls are spoken (start commands, schedule, settings)
    "voice": "voz",
    "voice_language": "idioma_voz",
    "A voice channel where the bot speaks the calls too": (
        "Un canal de voz donde el bot dice también los cantos"
    ),
    "A voice channel where the bot speaks the calls of this game by default": (
        "Un canal de voz donde el bot dice los cantos de este juego por defecto"
    ),
    "What the calls are spoken in (off: no voice channel by default)": (
        "En qué idioma se dicen los cantos (apagada: sin canal de voz por defecto)"
    ),
    "The game's language": "El idioma de la partida",
    "English, then Spanish": "Inglés y luego español",
    "Off: no voice by default": "Apagada: sin voz por defecto",
    "Default seconds between calls (5-120)": "Segundos entre cantadas por defecto (5-120)",
    "Remove your data from finished games": "Borra tus datos de las partidas terminadas",
    "Seconds between calls (5-120)": "Segundos entre cantadas (5-120)",
    "Most players who can join": "Máximo de jugadores",
    "schedule": "programar",
    "schedules": "programadas",
    "unschedule": "desprogramar",
    "when": "cuando",
    "lobby": "sala",
    "weekly": "semanal",
    "night": "noche",
    "Plan a game night: a lobby before, the game on time": (
        "Programa una noche de juego: la sala antes, la partida a su hora"
    ),
    "When: today 20:00, friday 8pm, in 2 hours, or a date and time": (
        "Cuándo: hoy 20:00, viernes 8pm, en 2 horas, o una fecha y hora"
    ),
    "Minutes the lobby opens before the start (1-120)": (
        "Minutos antes del inicio en que se abre la sala (1-120)"
    ),
    "The same time every week": "A la misma hora cada semana",
    "The game nights planned here": "Las noches de juego programadas aquí",
    "Call off a planned game night": "Cancela una noche de juego programada",
    "The game night's number (see schedules)": "El número de la noche de juego (ver programadas)",
    "The game number": "El número de la partida",
    # /help: Discord shows Spanish speakers this command as /ayuda.
    "help": "ayuda",
    "How to play: each game's rules, prizes and commands": (
        "Cómo se juega: reglas, premios y comandos de cada juego"
    ),
    "The game to explain; leave empty for all of them": (
        "El juego que quieres entender; déjalo vacío para verlos todos"
    ),
}

# Option names whose Spanish differs from the command of the same English name (a game's
# words add theirs).
OPTION_TRANSLATIONS: dict[str, str] = {}

# Player-facing messages: key -> (English, Spanish). Formatted with str.format(**values).
MESSAGES: dict[str, tuple[Text, Text]] = {
    "night_planned": (
        Plural(
            "📅 {title} night #{night}: <t:{at}:F> (<t:{at}:R>) in <#{channel}>. The lobby opens "
            "{lobby} minute before; the game starts on time if anyone has joined.",
            "📅 {title} night #{night}: <t:{at}:F> (<t:{at}:R>) in <#{channel}>. The lobby opens "
            "{lobby} minutes before; the game starts on time if anyone has joined.",
            by="lobby",
        ),
        Plural(
            "📅 Noche de {titulo} #{night}: <t:{at}:F> (<t:{at}:R>) en <#{channel}>. La sala se "
            "abre {lobby} minuto antes; la partida empieza a su hora si alguien se unió.",
            "📅 Noche de {titulo} #{night}: <t:{at}:F> (<t:{at}:R>) en <#{channel}>. La sala se "
            "abre {lobby} minutos antes; la partida empieza a su hora si alguien se unió.",
            by="lobby",
        ),
    ),
    "night_planned_weekly": (
        Plural(
            "📅 {title} night #{night}, every week from <t:{at}:F> (<t:{at}:R>) in <#{channel}>. "
            "The lobby opens {lobby} minute before; the game starts on time if anyone has joined.",
            "📅 {title} night #{night}, every week from <t:{at}:F> (<t:{at}:R>) in <#{channel}>. "
            "The lobby opens {lobby} minutes before; the game starts on time if anyone has "
            "joined.",
            by="lobby",
        ),
        Plural(
            "📅 Noche de {titulo} #{night}, cada semana desde <t:{at}:F> (<t:{at}:R>) en "
            "<#{channel}>. La sala se abre {lobby} minuto antes; la partida empieza a su hora si "
            "alguien se unió.",
            "📅 Noche de {titulo} #{night}, cada semana desde <t:{at}:F> (<t:{at}:R>) en "
            "<#{channel}>. La sala se abre {lobby} minutos antes; la partida empieza a su hora si "
            "alguien se unió.",
            by="lobby",
        ),
    ),
    "night_event": (
        "It is in the server's events, so members can say they are interested.",
        "Está en los eventos del servidor, para que los miembros marquen que les interesa.",
    ),
    "night_no_event": (
        "(No server event: I need the Create Events permission for that; the night happens "
        "anyway.)",
        "(Sin evento del servidor: necesito el permiso Crear eventos para eso; la noche se juega "
        "igual.)",
    ),
    "night_no_event_full": (
        "(No server event: this server already has {limit} events to come, the most Discord "
        "allows; the night happens anyway.)",
        "(Sin evento del servidor: este servidor ya tiene {limit} eventos por venir, el máximo "
        "que permite Discord; la noche se juega igual.)",
    ),
    "night_no_event_failed": (
        "(No server event: Discord did not take it just now; the night happens anyway.)",
        "(Sin evento del servidor: Discord no lo aceptó ahora; la noche se juega igual.)",
    ),
    "night_event_full_weekly": (
        "Your weekly {title} night #{night} on <t:{at}:F> has no server event this time: this "
        "server already has {limit} events to come, the most Discord allows. The night happens "
        "anyway.",
        "Tu noche semanal de {titulo} #{night} del <t:{at}:F> no tiene evento del servidor esta "
        "vez: este servidor ya tiene {limit} eventos por venir, el máximo que permite Discord. "
        "La noche se juega igual.",
    ),
    "night_series_host_role": (
        "Your weekly {title} night #{night} will not come back: hosting games in this server "
        "needs the <@&{role}> role, which you no longer have. Someone who has it can plan the "
        "night again with `/{kind} schedule`.",
        "Tu noche semanal de {titulo} #{night} no volverá: organizar partidas en este servidor "
        "requiere el rol <@&{role}>, que ya no tienes. Alguien que lo tenga puede programarla "
        "otra vez con `/{kind} schedule`.",
    ),
    "night_series_host_left": (
        "📅 The weekly {title} night #{night} will not come back: its host, <@{host}>, is no "
        "longer in this server. Someone who may host games here can plan it again with "
        "`/{kind} schedule`.",
        "📅 La noche semanal de {titulo} #{night} no volverá: quien la organizaba, <@{host}>, ya "
        "no está en este servidor. Alguien que pueda organizar partidas aquí puede programarla "
        "otra vez con `/{kind} schedule`.",
    ),
    "night_event_name": ("{title} night", "Noche de {titulo}"),
    "night_event_description": (
        "A {title} game in {channel}: the lobby opens a few minutes before.",
        "Una partida de {titulo} en {channel}: la sala se abre unos minutos antes.",
    ),
    "night_lobby_note": (
        "📅 Planned game night #{night}: the game starts <t:{at}:R>, on its own.",
        "📅 Noche de juego programada #{night}: la partida empieza <t:{at}:R>, sola.",
    ),
    "night_nobody_came": (
        "Nobody joined this planned night, so it was called off.",
        "Nadie se unió a esta noche programada, así que se canceló.",
    ),
    "night_missed_busy": (
        "Your {title} night #{night} could not open in <#{channel}>: game #{game} was still on "
        "there.",
        "Tu noche de {titulo} #{night} no pudo abrirse en <#{channel}>: la partida #{game} seguía "
        "ahí.",
    ),
    "night_missed_channel": (
        "Your {title} night #{night} could not open: I can no longer post in <#{channel}>.",
        "Tu noche de {titulo} #{night} no pudo abrirse: ya no puedo publicar en <#{channel}>.",
    ),
    "night_missed_prizes": (
        "Your {title} night #{night} could not open in <#{channel}>: {reason}",
        "Tu noche de {titulo} #{night} no pudo abrirse en <#{channel}>: {reason}",
    ),
    "night_channel_gone": (
        "Your {title} night #{night} is called off: its channel was deleted.",
        "Tu noche de {titulo} #{night} se canceló: se borró su canal.",
    ),
    "night_weekly_channel_gone": (
        "Your weekly {title} night #{night} is called off, this week and the weeks after: its "
        "channel was deleted. Plan it again in another channel with `/{kind} schedule`.",
        "Tu noche semanal de {titulo} #{night} se canceló, esta semana y las siguientes: se "
        "borró su canal. Prográmala otra vez en otro canal con `/{kind} schedule`.",
    ),
    "nights_limit_server": (
        "This server already has {limit} game nights planned, the most it may have: call one "
        "off with `/{kind} unschedule` before planning another.",
        "Este servidor ya tiene {limit} noches de juego programadas, el máximo que puede tener: "
        "cancela una con `/{kind} unschedule` antes de programar otra.",
    ),
    "nights_limit_member": (
        "You already have {limit} game nights planned in this server, the most one member may "
        "have: call one off with `/{kind} unschedule` before planning another.",
        "Ya tienes {limit} noches de juego programadas en este servidor, el máximo por miembro: "
        "cancela una con `/{kind} unschedule` antes de programar otra.",
    ),
    "nights_none": (
        "No {title} night is planned in this server. Plan one with `/{kind} schedule`.",
        "No hay ninguna noche de {titulo} programada en este servidor. Programa una con "
        "`/{kind} schedule`.",
    ),
    "nights_header": ("Planned {title} nights:", "Noches de {titulo} programadas:"),
    "nights_line": (
        "#{night}: <t:{at}:F> (<t:{at}:R>) in <#{channel}>, by <@{host}>",
        "#{night}: <t:{at}:F> (<t:{at}:R>) en <#{channel}>, de <@{host}>",
    ),
    "nights_line_weekly": (
        "#{night}: <t:{at}:F> (<t:{at}:R>) in <#{channel}>, by <@{host}>, every week",
        "#{night}: <t:{at}:F> (<t:{at}:R>) en <#{channel}>, de <@{host}>, cada semana",
    ),
    "night_unknown": (
        "There is no planned {title} night #{night} here.",
        "No hay ninguna noche de {titulo} #{night} programada aquí.",
    ),
    "night_cancelled": (
        "📅 {title} night #{night} is called off (by {user}).",
        "📅 La noche de {titulo} #{night} se canceló ({user}).",
    ),
    "when_unreadable": (
        "I can't read {when} as a time. Try `today 20:00`, `friday 8pm`, `in 2 hours` or "
        "`2026-12-24 20:00` (times are in {zone}).",
        "No puedo leer {when} como una hora. Prueba `hoy 20:00`, `viernes 8pm`, `en 2 horas` o "
        "`2026-12-24 20:00` (las horas son de {zone}).",
    ),
    "when_past": (
        "{when} has already passed (times are in {zone}).",
        "{when} ya pasó (las horas son de {zone}).",
    ),
    "when_too_far": (
        "{when} is more than a year away.",
        "{when} es dentro de más de un año.",
    ),
    "when_bad_zone": (
        "{when} is not a time zone I know.",
        "{when} no es una zona horaria que conozca.",
    ),
    "out_of_range": (
        "`{option}` must be {low} to {high}.",
        "`{option}` debe estar entre {low} y {high}.",
    ),
    "not_available": (
        "This game is not available right now.",
        "Este juego no está disponible ahora.",
    ),
    "server_only": ("Use this in a server channel.", "Usa esto en un canal de un servidor."),
    "apology": (
        "Sorry, something went wrong on my side. The game is safe; please try again.",
        "Perdón, algo falló de mi lado. La partida está a salvo; inténtalo de nuevo.",
    ),
    "shard_moving": (
        "This server's games are moving to another of the bot's processes; nothing was lost."
        " Please try again in a few seconds.",
        "Las partidas de este servidor se están pasando a otro proceso del bot; no se perdió"
        " nada. Inténtalo de nuevo en unos segundos.",
    ),
    "need_manage_server": (
        "You need the Manage Server permission for that.",
        "Necesitas el permiso Gestionar servidor para eso.",
    ),
    "slow_down": (
        "Slow down: you have asked for that a lot just now. Try again <t:{at}:R>.",
        "Más despacio: lo has pedido muchas veces seguidas. Vuelve a intentarlo <t:{at}:R>.",
    ),
    "server_busy": (
        "This server is asking for a lot at once right now, so I can't take this one."
        " Please try again in a few seconds.",
        "Este servidor está pidiendo muchas cosas a la vez ahora mismo y no puedo atender esta."
        " Vuelve a intentarlo en unos segundos.",
    ),
    "not_a_valid_value": (
        "{value} is not a valid value here.",
        "{value} no es un valor válido aquí.",
    ),
    "not_here": ("You can't use this command here.", "No puedes usar este comando aquí."),
    "stats_none": (
        "No games finished in this server yet. Start one with {commands}!",
        "Todavía no ha terminado ninguna partida en este servidor. ¡Empieza una con {commands}!",
    ),
    "stats_none_period": (
        "No games finished in this server in {period}. Start one with {commands}!",
        "No terminó ninguna partida en este servidor en {period}. ¡Empieza una con {commands}!",
    ),
    # /stats periods (cogs/stats.py PERIODS), as "the leaderboard of {period}".
    "stats_period_week": ("the last 7 days", "los últimos 7 días"),
    "stats_period_month": ("the last 30 days", "los últimos 30 días"),
    "stats_period_all": ("all time", "todos los tiempos"),
    "stats_header": ("## Leaderboard of {period}", "## Clasificación de {period}"),
    "stats_line": (
        "{place}. <@{user}>: {wins} in {games}",
        "{place}. <@{user}>: {wins} en {games}",
    ),
    "stats_wins": (
        Plural("{count} win", "{count} wins"),
        Plural("{count} victoria", "{count} victorias"),
    ),
    "stats_games": (
        Plural("{count} game", "{count} games"),
        Plural("{count} partida", "{count} partidas"),
    ),
    "stats_picture_title": ("LEADERBOARD", "CLASIFICACIÓN"),
    "stats_picture_wins": ("WINS", "VICTORIAS"),
    "stats_picture_played": ("GAMES", "PARTIDAS"),
    "stats_alt_head": (
        "Leaderboard of {server}, {period}: wins and games played.",
        "Clasificación de {server}, {period}: victorias y partidas jugadas.",
    ),
    "stats_alt_head_short": (
        "Leaderboard of {server}, {period}: wins out of games played.",
        "Clasificación de {server}, {period}: victorias de las partidas jugadas.",
    ),
    "stats_alt_line": ("{place}. {name}, {wins} in {games}", "{place}. {name}, {wins} en {games}"),
    "stats_alt_line_short": (
        "{place}. {name} {wins} of {played}",
        "{place}. {name} {wins} de {played}",
    ),
    # /gamenight settings and forget-me (cogs/gamenight.py)
    "host_role_only": (
        "Only members with <@&{role}> (or Manage Server) can start games in this server.",
        "Solo los miembros con <@&{role}> (o Gestionar servidor) pueden empezar partidas en este"
        " servidor.",
    ),
    "table_rematch_forgotten": (
        "A player of {title} #{game} asked to be forgotten, so it has no rematch: start a new"
        " game instead.",
        "Un jugador de {titulo} #{game} pidió que se le olvidara, así que no hay revancha:"
        " empieza una partida nueva.",
    ),
    "settings_header": (
        "## Game Night settings in this server",
        "## Ajustes de Game Night en este servidor",
    ),
    "settings_language_discord": (
        "**Language of games:** the server's language in Discord (now {language})",
        "**Idioma de las partidas:** el del servidor en Discord (ahora {language})",
    ),
    "settings_language_en": (
        "**Language of games:** English",
        "**Idioma de las partidas:** inglés",
    ),
    "settings_language_es": (
        "**Language of games:** Spanish",
        "**Idioma de las partidas:** español",
    ),
    "language_name_en": ("English", "inglés"),
    "language_name_es": ("Spanish", "español"),
    "settings_language_note": (
        "-# Lobbies, calls and results in the channel; private replies and DMs follow each"
        " member's own language.",
        "-# Salas, cantadas y resultados en el canal; las respuestas privadas y los MD siguen el"
        " idioma de cada miembro.",
    ),
    "settings_hosts_everyone": (
        "**Who may start games:** everyone",
        "**Quién puede empezar partidas:** todos",
    ),
    "settings_hosts_role": (
        "**Who may start games:** members with <@&{role}>, and Manage Server",
        "**Quién puede empezar partidas:** los miembros con <@&{role}> y Gestionar servidor",
    ),
    "settings_hosts_role_gone": (
        "**Who may start games:** everyone (the host role was deleted; choose another)",
        "**Quién puede empezar partidas:** todos (el rol de anfitrión se borró; elige otro)",
    ),
    "settings_time_zone": (
        "**Time zone of planned nights:** {zone}",
        "**Zona horaria de las noches planeadas:** {zone}",
    ),
    "settings_game": (
        "**{game}:** a call every {interval} s{interval_mark} · prizes {prizes}{prizes_mark}"
        " · claims {claims}{claims_mark}",
        "**{game}:** una cantada cada {interval} s{interval_mark} · premios {prizes}{prizes_mark}"
        " · reclamos {claims}{claims_mark}",
    ),
    "claims_mode_manual": ("manual", "manuales"),
    "claims_mode_auto": ("automatic", "automáticos"),
    "settings_builtin": (" (default)", " (por defecto)"),
    "settings_no_near_misses": (" · no near-miss DMs", " · sin MD de «casi gano»"),
    "settings_voice": (
        " · spoken in <#{channel}> ({language})",
        " · con voz en <#{channel}> ({language})",
    ),
    "lobby_voice": (
        "🔊 **The calls are spoken** in <#{channel}>: join it to hear them.",
        "🔊 **Los cantos se oyen** en <#{channel}>: entra para escucharlos.",
    ),
    # Said aloud (bot.calling.spoken): plain words, no markdown or emoji, read by a speech engine.
    "voice_win": ("{prize}! Won by {names}.", "¡{prize}! Lo gana {names}."),
    "voice_winners_more": ("{names} and {count} more", "{names} y {count} más"),
    "voice_game_over": (
        "That's the game. Thank you for playing!",
        "Se acabó la partida. ¡Gracias por jugar!",
    ),
    "voice_language_game": ("the game's language", "el idioma de la partida"),
    "voice_language_en": ("English", "inglés"),
    "voice_language_es": ("Spanish", "español"),
    "voice_language_both": ("English, then Spanish", "inglés y luego español"),
    "settings_bad_voice_language": (
        "The calls can be spoken in `game` (the game's language), `en`, `es` or `both`; `off` "
        "turns the voice channel off.",
        "Los cantos se pueden decir en `game` (el idioma de la partida), `en`, `es` o `both`; "
        "`off` quita el canal de voz.",
    ),
    # The prizes option's description, from what each game's default prizes are
    # (bot.game_settings.prizes_description): "a Lotería plan, or ...".
    "settings_prizes_option": ("Default prizes: {what}", "Premios por defecto: {what}"),
    # When the games' words no longer fit the limit (bot.game_settings.PRIZES_DESCRIPTION_MOST).
    "settings_prizes_option_any": (
        "Default prizes of the game chosen, as its start command takes them",
        "Premios por defecto del juego elegido, como los toma su comando para empezar",
    ),
    "settings_retention": (
        Plural(
            "-# Games are deleted {count} day after they end (set by whoever runs the bot).",
            "-# Games are deleted {count} days after they end (set by whoever runs the bot).",
        ),
        Plural(
            "-# Las partidas se borran {count} día después de acabar (lo fija quien aloja el bot).",
            "-# Las partidas se borran {count} días después de acabar (lo fija quien aloja el"
            " bot).",
        ),
    ),
    "settings_no_retention": (
        "-# Finished games are kept; members can remove themselves with `/gamenight forget-me`.",
        "-# Las partidas terminadas se guardan; cada miembro puede borrarse con"
        " `/gamenight olvidarme`.",
    ),
    "settings_how": (
        "Change them with `/gamenight settings` and `language`, `host_role` (@everyone: anyone"
        " hosts), `time_zone`, `deck`, or `game` with `interval` and `prizes`.",
        "Cámbialos con `/gamenight ajustes` e `idioma`, `rol_anfitrion` (@everyone: cualquiera),"
        " `zona_horaria`, `baraja`, o `partida` con `intervalo` y `premios`.",
    ),
    "settings_saved": ("Saved.", "Guardado."),
    "settings_which_game": (
        "Name the game the interval and prizes are for with `game`: {games}.",
        "Indica con `partida` el juego del intervalo y los premios: {games}.",
    ),
    "settings_no_such_game": (
        "{game} is not a game with defaults; choose {games}.",
        "{game} no es un juego con valores por defecto; elige {games}.",
    ),
    "settings_game_needs_value": (
        "Give {title} an `interval`, `prizes`, `claims`, `near_misses`, `voice` or "
        "`voice_language`.",
        "Indica para {titulo} el `intervalo`, los `premios`, los `reclamos`, `casi_gano`, la "
        "`voz` o el `idioma_voz`.",
    ),
    "settings_role_managed": (
        "<@&{role}> belongs to a bot or an integration, so no member can be given it: choose"
        " another role.",
        "<@&{role}> pertenece a un bot o una integración y no se puede dar a nadie: elige otro"
        " rol.",
    ),
    "settings_bad_language": (
        "Choose the language from the list.",
        "Elige el idioma de la lista.",
    ),
    "forget_confirm": (
        Plural(
            "This removes you from **{count} finished game** in every server: your name,"
            " language, claims and wins (which leave `/stats`). The game stays verifiable: your"
            " boards stay in it under an anonymous number. Messages already posted in channels"
            " stay (a server's moderators can delete them). This cannot be undone.",
            "This removes you from **{count} finished games** in every server: your name,"
            " language, claims and wins (which leave `/stats`). The games stay verifiable: your"
            " boards stay in them under an anonymous number. Messages already posted in channels"
            " stay (a server's moderators can delete them). This cannot be undone.",
        ),
        Plural(
            "Esto te borra de **{count} partida terminada** en todos los servidores: tu nombre,"
            " idioma, reclamos y victorias (que salen de `/estadísticas`). La partida sigue"
            " verificable: tus tablas y cartones quedan en ella con un número anónimo. Los mensajes ya"
            " publicados en los canales se quedan (los moderadores del servidor pueden borrarlos)."
            " No se puede deshacer.",
            "Esto te borra de **{count} partidas terminadas** en todos los servidores: tu nombre,"
            " idioma, reclamos y victorias (que salen de `/estadísticas`). Las partidas siguen"
            " verificables: tus tablas y cartones quedan en ellas con un número anónimo. Los mensajes ya"
            " publicados en los canales se quedan (los moderadores del servidor pueden borrarlos)."
            " No se puede deshacer.",
        ),
    ),
    "forget_live": (
        Plural(
            "You are in **{count} game that is still on**: it keeps you until it ends; use"
            " `/gamenight forget-me` again then.",
            "You are in **{count} games that are still on**: they keep you until they end; use"
            " `/gamenight forget-me` again then.",
        ),
        Plural(
            "Estás en **{count} partida en curso**: te conserva hasta que acabe; usa"
            " `/gamenight olvidarme` otra vez entonces.",
            "Estás en **{count} partidas en curso**: te conservan hasta que acaben; usa"
            " `/gamenight olvidarme` otra vez entonces.",
        ),
    ),
    "forget_nothing": (
        "No finished game holds anything about you.",
        "Ninguna partida terminada guarda nada tuyo.",
    ),
    "forget_button_yes": ("Forget me", "Olvídame"),
    "forget_button_no": ("Keep my data", "Conservar mis datos"),
    "forget_done": (
        Plural(
            "Done: you were removed from {count} finished game.",
            "Done: you were removed from {count} finished games.",
        ),
        Plural(
            "Hecho: se te borró de {count} partida terminada.",
            "Hecho: se te borró de {count} partidas terminadas.",
        ),
    ),
    "forget_kept": ("Nothing was removed.", "No se borró nada."),
    "forget_expired": (
        "This confirmation has expired: use `/gamenight forget-me` again.",
        "Esta confirmación caducó: usa `/gamenight olvidarme` otra vez.",
    ),
    "forget_not_yours": (
        "This confirmation belongs to someone else.",
        "Esta confirmación es de otra persona.",
    ),
    "or": (" or ", " o "),
    "no_game_here": (
        "There is no {title} game in this channel. Start one with `/{kind} start`.",
        "No hay una partida de {titulo} en este canal. Empieza una con `/{kind} start`.",
    ),
    "no_such_game": (
        "There is no {title} game #{game}.",
        "No existe la partida de {titulo} #{game}.",
    ),
    "host_only": (
        "Only the host (<@{host}>) or someone with Manage Server can do that.",
        "Solo el anfitrión (<@{host}>) o alguien con el permiso Gestionar servidor puede hacer eso.",
    ),
    "no_dm_games": (
        "Host games in a server channel, not in DMs.",
        "Organiza las partidas en un canal del servidor, no por mensaje directo.",
    ),
    "channel_busy": (
        "A {other} game (#{game}) is already on in this channel; one calling game per channel "
        "at a time.",
        "Ya hay una partida de {other} (#{game}) en este canal; solo una partida a la vez por canal.",
    ),
    "lobby_header": (
        "## {title} #{game} hosted by <@{host}>",
        "## {titulo} #{game}, organizada por <@{host}>",
    ),
    "status_lobby": (
        "Lobby open: press **Join** to get your {board} by DM.",
        "Sala abierta: pulsa **Unirse** para recibir tu {board} por mensaje directo.",
    ),
    "status_running": (
        "Game on: joins are closed.",
        "¡Empezó el juego! Ya no se puede unir nadie.",
    ),
    "status_paused": ("Paused by the host.", "En pausa."),
    "status_finished": ("Game over.", "Juego terminado."),
    "status_cancelled": ("Cancelled.", "Cancelada."),
    "players_line": ("Players: **{count}**", "Jugadores: **{count}**"),
    # {word}: the game's "<kind>_dealt", which agrees with its boards in Spanish.
    "dealt_progress": (" ({word} {dealt} of {count})", " ({word} {dealt} de {count})"),
    "commitment_line": (
        "Fairness commitment (SHA-256 of the seed): `{commitment}`",
        "Compromiso de juego limpio (SHA-256 de la semilla): `{commitment}`",
    ),
    "button_join": ("Join", "Unirse"),
    "button_leave": ("Leave", "Salir"),
    "button_start": ("Start", "Empezar"),
    "button_cancel": ("Cancel", "Cancelar"),
    "button_claim": ("Claim", "Reclamar"),
    "button_gone": ("That button is not in use any more.", "Ese botón ya no está en uso."),
    "joins_closed": (
        "{title} #{game} has already started; joins are closed.",
        "{titulo} #{game} ya empezó; ya no se puede unir nadie.",
    ),
    "already_joined": (
        "You are already in this game: your {board} is in your DMs (or use `/{kind} {show}`).",
        "Ya estás en esta partida: tu {board} está en tus mensajes directos (o usa `/{kind} {show}`).",
    ),
    "game_full": (
        Plural("This game is full ({count} player).", "This game is full ({count} players)."),
        Plural(
            "Esta partida está llena ({count} jugador).",
            "Esta partida está llena ({count} jugadores).",
        ),
    ),
    "dm_boards": (
        Plural(
            "Here is {boards} for {title} #{game} in <#{channel}>. Good luck!",
            "Here are {boards} for {title} #{game} in <#{channel}>. Good luck!",
        ),
        "Aquí tienes {boards} para {titulo} #{game} en <#{channel}>. ¡Buena suerte!",
    ),
    "boards_phrase": (
        Plural("your {board}", "your {count} {board}"),
        Plural("tu {board}", "tus {count} {board}"),
    ),
    "joined_dm_failed": (
        "You're in {title} #{game}! Discord would not deliver my DM just now, so here is "
        "{boards}. See it any time with `/{kind} {show}`.",
        "¡Estás en {titulo} #{game}! Discord no entregó mi mensaje directo, así que aquí tienes "
        "{boards}. Míralo cuando quieras con `/{kind} {show}`.",
    ),
    "already_shown": (
        "You are already in this game: your {board} was shown to you privately; see it any "
        "time with `/{kind} {show}`.",
        "Ya estás en esta partida: tu {board} se te mostró en privado; míralo cuando quieras "
        "con `/{kind} {show}`.",
    ),
    "being_dealt": (
        "Your {board} is on its way: it will be in your DMs, or shown here, in a moment.",
        "Tu {board} va en camino: llegará a tus mensajes directos, o aquí, en un momento.",
    ),
    "deal_exhausted": (
        Plural(
            "This game has dealt the {count} board it can, so nobody else can join. Start a new "
            "game for more players.",
            "This game has dealt all {count} boards it can, so nobody else can join. Start a new "
            "game for more players.",
        ),
        Plural(
            "Esta partida ya repartió el {count} tablero que puede, así que nadie más puede "
            "unirse. Empieza una partida nueva para más jugadores.",
            "Esta partida ya repartió los {count} tableros que puede, así que nadie más puede "
            "unirse. Empieza una partida nueva para más jugadores.",
        ),
    ),
    "undelivered_progress": (
        "; {count} not delivered yet: `/{kind} {show}` shows yours",
        "; {count} sin entregar todavía: `/{kind} {show}` te muestra el tuyo",
    ),
    "button_elsewhere": (
        "That button belongs to a game in another channel.",
        "Ese botón es de una partida de otro canal.",
    ),
    "bot_cannot_post": (
        "I can't host a game in <#{channel}>: I'm missing {permissions} there. Ask someone who "
        "manages the channel to allow them for me (channel settings > Permissions), then try "
        "again.",
        "No puedo organizar una partida en <#{channel}>: me falta {permissions} ahí. Pide a "
        "quien administra el canal que me los dé (ajustes del canal > Permisos) y vuelve a "
        "intentarlo.",
    ),
    "status_stalled": (
        "⚠️ Paused: I can't post in <#{channel}>. Once my permissions there are back, the host "
        "can use `/{kind} resume`.",
        "⚠️ En pausa: no puedo publicar en <#{channel}>. Cuando recupere mis permisos ahí, el "
        "anfitrión puede usar `/{kind} resume`.",
    ),
    "host_cannot_post": (
        "⚠️ {title} #{game} in <#{channel}> is paused: I can no longer post there (a permission "
        "was taken away). Give me back View Channel, Send Messages and Attach Files in that "
        "channel, then use `/{kind} resume` there. Nothing is lost.",
        "⚠️ {titulo} #{game} en <#{channel}> está en pausa: ya no puedo publicar ahí (me quitaron "
        "un permiso). Devuélveme Ver canal, Enviar mensajes y Adjuntar archivos en ese canal y "
        "usa `/{kind} resume` ahí. No se pierde nada.",
    ),
    "host_channel_gone": (
        "{title} #{game} has ended: its channel was deleted. Its results stay verifiable with "
        "`/{kind} verify game:{game}`.",
        "{titulo} #{game} terminó: se borró su canal. Sus resultados se pueden verificar con "
        "`/{kind} verify game:{game}`.",
    ),
    "reason_channel_gone": ("its channel was deleted", "se borró su canal"),
    "host_thread_closed": (
        "⚠️ {title} #{game} in <#{channel}> is paused: its thread was archived or locked, so I "
        "can no longer post there. Reopen the thread (unarchive and unlock it, or give me Manage "
        "Threads), then use `/{kind} resume` there. Nothing is lost.",
        "⚠️ {titulo} #{game} en <#{channel}> está en pausa: su hilo se archivó o se bloqueó y "
        "ya no puedo publicar ahí. Reabre el hilo (desarchívalo y desbloquéalo, o dame "
        "Gestionar hilos) y usa `/{kind} resume` ahí. No se pierde nada.",
    ),
    "host_automod": (
        "⚠️ {title} #{game} in <#{channel}> is paused: the server's AutoMod blocked my message "
        "there. Ask a moderator to let my messages through in that channel (Server Settings > "
        "AutoMod), then use `/{kind} resume` there. Nothing is lost.",
        "⚠️ {titulo} #{game} en <#{channel}> está en pausa: el AutoMod del servidor bloqueó mi "
        "mensaje ahí. Pide a un moderador que deje pasar mis mensajes en ese canal (Ajustes "
        "del servidor > AutoMod) y usa `/{kind} resume` ahí. No se pierde nada.",
    ),
    "host_post_refused": (
        "⚠️ {title} #{game} in <#{channel}> is paused: Discord refused my message there "
        "(error {code}: {error}). Once that is sorted out, use `/{kind} resume` there. Nothing "
        "is lost.",
        "⚠️ {titulo} #{game} en <#{channel}> está en pausa: Discord rechazó mi mensaje ahí "
        "(error {code}: {error}). Cuando se resuelva, usa `/{kind} resume` ahí. No se pierde "
        "nada.",
    ),
    "host_summary_refused": (
        "{title} #{game} in <#{channel}> is over, but Discord refused its results there (error "
        "{code}: {error}). Its seed and winners stay verifiable with "
        "`/{kind} verify game:{game}`.",
        "{titulo} #{game} en <#{channel}> terminó, pero Discord rechazó sus resultados ahí "
        "(error {code}: {error}). Su semilla y sus ganadores se pueden verificar con "
        "`/{kind} verify game:{game}`.",
    ),
    "status_stalled_thread": (
        "⚠️ Paused: this thread was archived or locked. Once it is open again, the host can use "
        "`/{kind} resume`.",
        "⚠️ En pausa: este hilo se archivó o se bloqueó. Cuando vuelva a estar abierto, el "
        "anfitrión puede usar `/{kind} resume`.",
    ),
    "status_stalled_automod": (
        "⚠️ Paused: the server's AutoMod blocked my message in <#{channel}>. Once moderators "
        "let it through, the host can use `/{kind} resume`.",
        "⚠️ En pausa: el AutoMod del servidor bloqueó mi mensaje en <#{channel}>. Cuando los "
        "moderadores lo dejen pasar, el anfitrión puede usar `/{kind} resume`.",
    ),
    "status_stalled_refused": (
        "⚠️ Paused: Discord refused my message in <#{channel}>. The host can use "
        "`/{kind} resume` once it is sorted out.",
        "⚠️ En pausa: Discord rechazó mi mensaje en <#{channel}>. El anfitrión puede usar "
        "`/{kind} resume` cuando se resuelva.",
    ),
    "already_stopping": (
        "{title} #{game} is already being stopped.",
        "{titulo} #{game} ya se está terminando.",
    ),
    "claim_judged": (
        "Your claim on call {seq} was already judged (see the channel); pressing again changes "
        "nothing.",
        "Tu reclamo en la cantada {seq} ya se juzgó (míralo en el canal); pulsar otra vez no "
        "cambia nada.",
    ),
    "nothing_more_now": (
        "Nothing more for you to claim on call {seq}: you have won what your board holds.",
        "No te queda nada más que reclamar en la cantada {seq}: ya ganaste lo que tiene tu "
        "tablero.",
    ),
    "no_such_board": (
        "You have {count} {boards}, so there is no number {number}.",
        "Tienes {count} {boards}, así que no hay número {number}.",
    ),
    "board_out": (
        "Your {board} {number} is out of this game after a false claim.",
        "Tu {board} {number} quedó fuera de esta partida por un reclamo falso.",
    ),
    "no_board_can_win": (
        "The tickets you claimed with cannot win {prize}: a ticket wins one full house at most.",
        "Los cartones con que reclamaste no pueden ganar {prize}: un cartón gana un solo cartón "
        "lleno.",
    ),
    "joined_dm": (
        "You're in {title} #{game}! Check your DMs for {boards}.",
        "¡Estás en {titulo} #{game}! Busca {boards} en tus mensajes directos.",
    ),
    "joined_no_dm": (
        "You're in {title} #{game}! I couldn't DM you, so here it is. To get it by DM next "
        "time, allow direct messages from server members (server name > Privacy Settings > "
        "Direct Messages).",
        "¡Estás en {titulo} #{game}! No pude enviarte un mensaje directo, así que aquí la tienes. "
        "Para recibirla por mensaje directo, permite mensajes directos de miembros del servidor "
        "(nombre del servidor > Ajustes de privacidad > Mensajes directos).",
    ),
    "cant_leave_started": (
        "The game has started; you can't leave now, but you can just stop playing.",
        "La partida ya empezó; ya no puedes salir, pero puedes dejar de jugar.",
    ),
    "not_in_game": ("You are not in this game.", "No estás en esta partida."),
    "left": ("You left {title} #{game}.", "Saliste de {titulo} #{game}."),
    "not_playing": (
        "You are not playing in {title} #{game}.",
        "No estás jugando en {titulo} #{game}.",
    ),
    "your_boards": (
        Plural(
            "{title} #{game}, {calls} call so far: {boards}.",
            "{title} #{game}, {calls} calls so far: {boards}.",
            by="calls",
        ),
        Plural(
            "{titulo} #{game}, va {calls} cantada: {boards}.",
            "{titulo} #{game}, van {calls} cantadas: {boards}.",
            by="calls",
        ),
    ),
    "not_in_lobby": (
        "{title} #{game} is not in its lobby any more.",
        "{titulo} #{game} ya no está en la sala de espera.",
    ),
    "nobody_joined": (
        "Nobody has joined yet: wait for at least one player.",
        "Todavía no se ha unido nadie: espera al menos a un jugador.",
    ),
    "already_started": ("{title} #{game} has already started.", "{titulo} #{game} ya empezó."),
    "starting": (
        "{title} #{game} is starting. Good luck!",
        "¡{titulo} #{game} empieza! ¡Buena suerte!",
    ),
    "only_lobby_cancel": (
        "Only a game still in its lobby can be cancelled; use stop instead.",
        "Solo se puede cancelar una partida en la sala de espera; usa stop.",
    ),
    "cancelled": ("{title} #{game} cancelled.", "{titulo} #{game} cancelada."),
    "not_running": ("{title} #{game} is not running.", "{titulo} #{game} no está en marcha."),
    "paused": ("⏸️ {title} #{game} paused by {user}.", "⏸️ {user} pausó {titulo} #{game}."),
    "not_paused": ("{title} #{game} is not paused.", "{titulo} #{game} no está en pausa."),
    "resumed": ("▶️ {title} #{game} resumed.", "▶️ {titulo} #{game} continúa."),
    "bad_interval": (
        Plural(
            "The interval must be {low} to {high} second.",
            "The interval must be {low} to {high} seconds.",
            by="high",
        ),
        Plural(
            "El intervalo debe ser de {low} a {high} segundo.",
            "El intervalo debe ser de {low} a {high} segundos.",
            by="high",
        ),
    ),
    "speed": (
        "⏱️ One call every {seconds} s from now on.",
        "⏱️ Desde ahora, una cantada cada {seconds} s.",
    ),
    "stopped": ("⏹️ {title} #{game} stopped by {user}.", "⏹️ {user} terminó {titulo} #{game}."),
    "claim_elsewhere": (
        "Claim in the channel where the game is played.",
        "Reclama en el canal donde se juega la partida.",
    ),
    "game_over": ("{title} #{game} is over.", "{titulo} #{game} ya terminó."),
    "not_started": ("{title} #{game} has not started yet.", "{titulo} #{game} todavía no empieza."),
    "player_out": (
        "You are out of this game after two false claims.",
        "Estás fuera de esta partida por dos reclamos falsos.",
    ),
    "all_won": ("Every prize has been won.", "Ya se ganaron todos los premios."),
    "prize_already_won": ("{prize} was already won.", "{prize} ya se ganó."),
    "prize_not_now": (
        "{prize} is not being played right now.",
        "Ahora no se juega por {prize}.",
    ),
    "prize_not_now_hint": (
        "{prize} is not being played right now; you can claim {now}.",
        "Ahora no se juega por {prize}; puedes reclamar {now}.",
    ),
    "no_boards_left": (
        "You have nothing left in play.",
        "Ya no te queda nada en juego.",
    ),
    "you_already_won": ("You already won {prize}.", "Ya ganaste {prize}."),
    # Automatic claims (claims: auto): the bot finds the winners after each call.
    "claims_bad_mode": (
        "Claims are one of: {modes}.",
        "Los reclamos son uno de: {modes}.",
    ),
    "claims_auto": (
        "🤖 In this {title} game the bot finds every winner after each call and announces it: "
        "there is nothing to claim.",
        "🤖 En esta partida de {titulo} el bot encuentra a todos los ganadores tras cada cantada "
        "y los anuncia: no hace falta reclamar.",
    ),
    "lobby_claims_auto": (
        "🤖 **Automatic claims:** after each call the bot finds every winner and announces it.",
        "🤖 **Reclamos automáticos:** tras cada cantada el bot encuentra a todos los ganadores y "
        "los anuncia.",
    ),
    "summary_claims_auto": (
        "🤖 The bot found the winners (automatic claims).",
        "🤖 El bot encontró a los ganadores (reclamos automáticos).",
    ),
    "auto_win": (
        Plural(
            "🎉 **{prize}!** {users} wins on call {seq}.\n-# 🤖 Found by the bot: claims are "
            "automatic.",
            "🎉 **{prize}!** {users} win on call {seq}, sharing the prize.\n-# 🤖 Found by the "
            "bot: claims are automatic.",
        ),
        Plural(
            "🎉 **¡{prize}!** {users} gana en la cantada {seq}.\n-# 🤖 Lo encontró el bot: los "
            "reclamos son automáticos.",
            "🎉 **¡{prize}!** {users} ganan en la cantada {seq} y comparten el premio.\n-# 🤖 "
            "Los encontró el bot: los reclamos son automáticos.",
        ),
    ),
    "win": (
        "🎉 **{prize}!** {user} wins on call {seq}.",
        "🎉 **¡{prize}!** {user} gana en la cantada {seq}.",
    ),
    "win_shared": (
        "🎉 **{prize}!** {user} wins on call {seq}, sharing the prize.",
        "🎉 **¡{prize}!** {user} gana en la cantada {seq} y comparte el premio.",
    ),
    "false_claim": (
        "❌ False claim by {user}: {reason}. {consequence}",
        "❌ Reclamo falso de {user}: {reason}. {consequence}",
    ),
    "false_out": (
        "That was their second false claim: they are out of the game.",
        "Fue su segundo reclamo falso: queda fuera de la partida.",
    ),
    "false_warn": ("One more false claim and they are out.", "Un reclamo falso más y queda fuera."),
    "over_header": (
        "## {title} #{game} is over: {reason}.",
        "## {titulo} #{game} terminó: {reason}.",
    ),
    "calls_count": ("Calls: {count}.", "Cantadas: {count}."),
    "winners": ("Winners:", "Ganadores:"),
    "winner_line": ("- {prize}: <@{user}> (call {seq})", "- {prize}: <@{user}> (cantada {seq})"),
    "no_winners": ("Nobody won a prize this time.", "Esta vez nadie ganó un premio."),
    # A crowded game's summary: each prize's first winners in it, then every one in the
    # messages that follow it.
    "winners_below": (
        Plural("{count} winner, named below:", "{count} winners, all named below:"),
        Plural("{count} ganador, nombrado abajo:", "{count} ganadores, todos nombrados abajo:"),
    ),
    "winners_most_below": (
        Plural(
            "{count} winner, all but {left} named below:",
            "{count} winners, all but {left} named below:",
        ),
        Plural(
            "{count} ganador, todos salvo {left} nombrados abajo:",
            "{count} ganadores, todos salvo {left} nombrados abajo:",
        ),
    ),
    "winners_group": (
        "- {prize} (call {seq}): {users}",
        "- {prize} (cantada {seq}): {users}",
    ),
    "winners_and_more": ("{users} and {count} more", "{users} y {count} más"),
    "winners_n": (
        Plural("{count} winner", "{count} winners"),
        Plural("{count} ganador", "{count} ganadores"),
    ),
    "winners_page": (
        "**{title} #{game}**, the winners ({page}/{pages}):",
        "**{titulo} #{game}**, los ganadores ({page}/{pages}):",
    ),
    "winners_left_out": (
        Plural(
            "… and {count} more winner, too many to list here.",
            "… and {count} more winners, too many to list here.",
        ),
        Plural(
            "… y {count} ganador más, demasiados para nombrarlos aquí.",
            "… y {count} ganadores más, demasiados para nombrarlos aquí.",
        ),
    ),
    # The picture the summary carries (bot/render/results.py): its labels and alt text (each
    # game's boards on it, in its renderer's words).
    "result_heading": ("Game {game} · the winners", "Partida {game} · los ganadores"),
    "result_page": ("picture {page} of {pages}", "imagen {page} de {pages}"),
    "result_shared": ("shared", "compartido"),
    "result_player": ("A player", "Un jugador"),
    "result_alt_page": (" (picture {page} of {pages})", " (imagen {page} de {pages})"),
    "result_alt_shared": (", shared", ", compartido"),
    "result_alt_more": (
        Plural(
            "And {count} more winner, named in the message.",
            "And {count} more winners, named in the message.",
        ),
        Plural(
            "Y {count} ganador más, nombrado en el mensaje.",
            "Y {count} ganadores más, nombrados en el mensaje.",
        ),
    ),
    # The replay of a game (bot/render/replay.py): the banner under the board and its alt text.
    "pic_replay_start": ("Replay: the calls as they came", "Repetición: las cantadas una a una"),
    "pic_replay_win": ("Call {seq}: {prize}, {names}", "Cantada {seq}: {prize}, {names}"),
    "pic_replay_more": ("{names} and {count} more", "{names} y {count} más"),
    "alt_replay": (
        Plural(
            "Replay of {title} game {game}: the caller's board over {count} call.",
            "Replay of {title} game {game}: the caller's board over {count} calls.",
        ),
        Plural(
            "Repetición de {title}, partida {game}: el tablero a lo largo de {count} cantada.",
            "Repetición de {title}, partida {game}: el tablero a lo largo de {count} cantadas.",
        ),
    ),
    "alt_replay_no_wins": (" Nobody won.", " Nadie ganó."),
    # The recap of a game's end (bot/calling/recap.py): the Replay button when the replay did
    # not fit on the summary, and each player's near miss, by DM.
    "button_replay": ("Replay", "Repetición"),
    "replay_here": (
        "🎞️ {title} #{game}, call by call:",
        "🎞️ {titulo} #{game}, cantada a cantada:",
    ),
    "replay_none": (
        "{title} #{game} has no replay to show.",
        "{titulo} #{game} no tiene repetición que mostrar.",
    ),
    "near_miss": (
        Plural(
            "🎯 {title} #{game}: you were {count} call away from {prize}, at call {seq}. So close!",
            "🎯 {title} #{game}: you were {count} calls away from {prize}, at call {seq}.",
        ),
        Plural(
            "🎯 {titulo} #{game}: te faltó {count} cantada para {prize}, en la cantada {seq}. "
            "¡Casi!",
            "🎯 {titulo} #{game}: te faltaron {count} cantadas para {prize}, en la cantada {seq}.",
        ),
    ),
    "near_miss_complete": (
        "🎯 {title} #{game}: you had {prize} complete at call {seq}, but it was not claimed"
        " in time.",
        "🎯 {titulo} #{game}: tenías {prize} completo en la cantada {seq}, pero no se reclamó"
        " a tiempo.",
    ),
    "seed_reveal": (
        "Seed: `{seed}` (its SHA-256 is the commitment posted in the lobby). Check it with "
        "`/{kind} verify game:{game}`.",
        "Semilla: `{seed}` (su SHA-256 es el compromiso publicado en la sala). Compruébala con "
        "`/{kind} verify game:{game}`.",
    ),
    "verify_link": (
        "🔎 [Check it yourself in your browser]({url}): the page recomputes every call and "
        "board from the seed.",
        "🔎 [Compruébalo tú en tu navegador]({url}): la página recalcula cada cantada y "
        "tablero a partir de la semilla.",
    ),
    "verify_page_only": (
        "🔎 Check it yourself: open the verification page ({page}) and type in the seed.",
        "🔎 Compruébalo tú: abre la página de verificación ({page}) y escribe la semilla.",
    ),
    "reason_all_won": ("every prize has been won", "se ganaron todos los premios"),
    "reason_stopped": ("stopped by the host", "la terminó el anfitrión"),
    "still_on": (
        "{title} #{game} is still on; its seed is revealed when it ends.",
        "{titulo} #{game} sigue en juego; su semilla se revela al terminar.",
    ),
    "verify_failed": ("⚠️ Verification FAILED:", "⚠️ La verificación FALLÓ:"),
    # {calls} and {boards}: the count phrases n_calls and n_boards.
    "verified": (
        "✅ {title} #{game} verified: all {calls} and {boards} match the seed.",
        "✅ {titulo} #{game} verificada: {calls} y {boards} coinciden con la semilla.",
    ),
    "n_calls": (
        Plural("{count} call", "{count} calls"),
        Plural("{count} cantada", "{count} cantadas"),
    ),
    "n_boards": (
        Plural("{count} board", "{count} boards"),
        Plural("{count} tablero", "{count} tableros"),
    ),
    "seed_commitment": (
        "Seed `{seed}`, commitment `{commitment}`.",
        "Semilla `{seed}`, compromiso `{commitment}`.",
    ),
    # -- the table games (bot/table.py): challenges, turns, results, rematches ---------------
    # English templates name the game {title}; Spanish ones {titulo}, its Spanish name.
    "table_no_such_game": (
        "There is no {title} game #{game}.",
        "No existe la partida de {titulo} #{game}.",
    ),
    "table_you_busy": (
        "You are already in {title} game #{game}{where}: one {title} game at a time. "
        "Finish or resign it first.",
        "Ya estás en la partida de {titulo} #{game}{where}: una partida de {titulo} a la vez. "
        "Termínala o ríndete primero.",
    ),
    "table_member_busy": (
        "{member} is already in {title} game #{game}{where}: one {title} game at a time. "
        "Finish or resign it first.",
        "{member} ya está en la partida de {titulo} #{game}{where}: una partida de {titulo} a "
        "la vez. Tiene que terminarla o rendirse primero.",
    ),
    "table_server_only": (
        "Play in a server channel, not in DMs.",
        "Juega en un canal de un servidor, no por mensaje directo.",
    ),
    "table_bad_level": (
        "The bot plays at {levels}, not {level}.",
        "El bot juega en nivel {levels}, no {level}.",
    ),
    "table_not_yourself": (
        "You can't challenge yourself; leave `opponent` empty to play me.",
        "No puedes retarte a ti mismo; deja `rival` vacío para jugar contra mí.",
    ),
    "table_not_bots": (
        "Bots can't accept challenges; leave `opponent` empty to play me.",
        "Los bots no pueden aceptar retos; deja `rival` vacío para jugar contra mí.",
    ),
    "table_challenge": (
        "## {title} #{game}\n<@{host}> challenges {challenged} to {title} ({settings}).\n"
        "{players}; {first} moves first. Accept <t:{deadline}:R>, or decline.",
        "## {titulo} #{game}\n<@{host}> reta a {challenged} a una partida de {titulo} "
        "({settings}).\n{players}; empieza {first}. Acepta <t:{deadline}:R>, o rechaza.",
    ),
    "table_cannot_post": (
        "I could not post in <#{channel}> (a permission was taken away, the channel is gone or "
        "its thread closed, or AutoMod blocked me), so here is how {title} #{game} ended:",
        "No pude publicar en <#{channel}> (me quitaron un permiso, el canal ya no existe o su "
        "hilo se cerró, o el AutoMod me bloqueó), así que así terminó {titulo} #{game}:",
    ),
    "table_accept": ("Accept", "Aceptar"),
    "table_decline": ("Decline", "Rechazar"),
    "table_resign_button": ("Resign", "Rendirse"),
    "table_rematch_button": ("Rematch", "Revancha"),
    "table_versus": (" vs ", " contra "),
    "table_player": ("{who} ({mark})", "{who} ({mark})"),
    "table_bot_player": ("{who} ({mark}, {level} bot)", "{who} ({mark}, bot {level})"),
    "table_level_easy": ("easy", "fácil"),
    "table_level_normal": ("normal", "normal"),
    "table_level_perfect": ("perfect", "perfecto"),
    "table_level_hard": ("hard", "difícil"),
    "table_not_waiting": (
        "{title} #{game} is no longer waiting for an answer.",
        "{titulo} #{game} ya no espera respuesta.",
    ),
    "table_only_challenged": (
        "Only {who} can accept this challenge. Start your own with `/{kind} play`.",
        "Solo {who} puede aceptar este reto. Empieza el tuyo con `/{kind} play`.",
    ),
    "table_not_your_challenge": (
        "This challenge is not yours to answer.",
        "Este reto no es para ti.",
    ),
    "table_withdrew": (
        "## {title} #{game}\n{user} withdrew the challenge.",
        "## {titulo} #{game}\n{user} retiró el reto.",
    ),
    "table_declined": (
        "## {title} #{game}\n{user} declined.",
        "## {titulo} #{game}\n{user} rechazó el reto.",
    ),
    "table_expired": (
        "## {title} #{game}\nThe challenge to {who} expired unanswered.",
        "## {titulo} #{game}\nEl reto a {who} caducó sin respuesta.",
    ),
    "table_starts_on_accept": (
        "{title} #{game} starts when {who} accepts.",
        "{titulo} #{game} empieza cuando {who} acepte.",
    ),
    "table_over": ("{title} #{game} is over.", "{titulo} #{game} ya terminó."),
    "table_not_your_game": (
        "This is {first} and {second}'s game. Start your own with `/{kind} play`.",
        "Esta es la partida de {first} y {second}. Empieza la tuya con `/{kind} play`.",
    ),
    "table_not_your_turn": ("It's {who}'s turn.", "Le toca a {who}."),
    "table_changed_retry": (
        "The board changed just then; look again and retry.",
        "El tablero acaba de cambiar; míralo otra vez y vuelve a intentarlo.",
    ),
    "table_changed": (
        "The board changed just then; look again.",
        "El tablero acaba de cambiar; míralo otra vez.",
    ),
    "table_played": ("Played: {move}.", "Jugaste: {move}."),
    "table_not_played": (
        "{title} #{game} is not being played.",
        "{titulo} #{game} no está en juego.",
    ),
    "table_players_resign": ("Only the players can resign.", "Solo los jugadores pueden rendirse."),
    "table_resigned": ("You resigned {title} #{game}.", "Te rendiste en {titulo} #{game}."),
    "table_not_in_game": ("You are not in a {title} game.", "No estás en una partida de {titulo}."),
    "table_you_withdrew": (
        "You withdrew your challenge (#{game}).",
        "Retiraste tu reto (#{game}).",
    ),
    "table_draw": ("A draw", "Empate"),
    "table_wins": ("{winner} wins", "Gana {winner}"),
    "table_resign_win": ("{loser} resigned: {winner} wins", "{loser} se rindió: gana {winner}"),
    "table_time_win": (
        "{loser} ran out of time: {winner} wins",
        "A {loser} se le acabó el tiempo: gana {winner}",
    ),
    "table_rematch_players": (
        "Only the players of #{game} can ask for a rematch.",
        "Solo los jugadores de #{game} pueden pedir la revancha.",
    ),
    "table_still_on": ("{title} #{game} is still on.", "{titulo} #{game} sigue en juego."),
    "table_rematch_on": (
        "The rematch is already on: #{game}.",
        "La revancha ya está en marcha: #{game}.",
    ),
    # -- /help: the overview and a game's page around its own words (GameCog.help_keys) ------
    "help_overview_title": ("Game Night: how to play", "Noche de juegos: cómo se juega"),
    "help_overview_intro": (
        "Each game in a few words. `{command}` with a game's name gives its rules, prizes and "
        "commands.",
        "Cada juego en pocas palabras. `{command}` con el nombre de un juego da sus reglas, "
        "premios y comandos.",
    ),
    "help_overview_game": (
        "{summary}\nStart: `{start}` · Rules: `{more}`",
        "{summary}\nEmpieza: `{start}` · Reglas: `{more}`",
    ),
    "help_more_commands": ("More commands", "Más comandos"),
    "help_game_title": ("{name}: how to play", "{name}: cómo se juega"),
    "help_commands": ("Commands", "Comandos"),
    "help_commands_legend": (
        "Options in [brackets] may be left out.",
        "Las opciones entre [corchetes] se pueden omitir.",
    ),
    "help_no_such_game": (
        "There is no game called {game}. Pick one of: {games}.",
        "No hay ningún juego llamado {game}. Elige uno de: {games}.",
    ),
    # What the games' pictures share (each renderer's own words sit beside it,
    # bot/render/<game>/words.py): words drawn on them ("pic_") and their alt text ("alt_").
    "pic_game": ("Game {game}", "Partida {game}"),
    "pic_call_of": ("Call {seq} of {total}", "Cantada {seq} de {total}"),
    "pic_to_move": ("{who} to move", "Le toca a {who}"),
    "alt_row": ("row {row}: {items}", "fila {row}: {items}"),
    "alt_before": (" Before it: {items}.", " Antes: {items}."),
    # The engines' reasons (bot/reasons.py): each game's words hold its engine's codes. Claim
    # reasons end a sentence ("False claim by {user}: {reason}."), so they start in lower case
    # and end without a full stop.
    "number_list_more": ("{numbers} and {more} more", "{numbers} y {more} más"),
}


# Who registered each message key: the module that did may register it again (a cog reloaded
# imports its words anew); any other is refused.
_OWNERS: dict[str, str | None] = dict.fromkeys(MESSAGES, __name__)


def register_messages(
    messages: dict[str, tuple[Text, Text]],
    commands: dict[str, str] | None = None,
    *,
    options: dict[str, str] | None = None,
    owner: str | None = None,
) -> None:
    """Add a game's own messages, its commands' Spanish names and descriptions (``commands``)
    and its options' Spanish names where they differ from the command of that name
    (``options``), from its words beside the cog, so that a new game needs no edit here.

    ``owner`` names the registering module: the same module registering again replaces its
    own. A message key another module holds (or any, without an owner) is refused, and so is
    a Spanish word for a name or description already worded otherwise."""
    taken = sorted(
        key for key in messages if key in MESSAGES and (owner is None or _OWNERS.get(key) != owner)
    )
    if taken:
        raise ValueError(f"message keys already in use: {taken}")
    for known, added in ((COMMAND_TRANSLATIONS, commands), (OPTION_TRANSLATIONS, options)):
        differing = sorted(
            english
            for english, spanish in (added or {}).items()
            if known.get(english, spanish) != spanish
        )
        if differing:
            raise ValueError(f"worded otherwise already: {differing}")
    MESSAGES.update(messages)
    _OWNERS.update(dict.fromkeys(messages, owner))
    COMMAND_TRANSLATIONS.update(commands or {})
    OPTION_TRANSLATIONS.update(options or {})


def is_spanish(locale: LocaleLike) -> bool:
    """Whether ``locale`` is a Spanish one (``es-ES``, ``es-419``...)."""
    return locale is not None and str(locale).startswith("es")


def message(key: str, locale: LocaleLike = None, /, **values: Any) -> str:
    """The message ``key`` in the player's language (Spanish for Spanish locales); a
    :class:`Plural` message picks its form by the count it names (``values["count"]``
    unless its ``by`` names another placeholder)."""
    english, spanish = MESSAGES[key]
    text = spanish if is_spanish(locale) else english
    if isinstance(text, Plural):
        text = text.pick(int(values[text.by]))
    return text.format(**values)


class GameNightTranslator(app_commands.Translator):
    """Spanish names and descriptions for the slash commands."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The Spanish name or description of a command or option for Spanish locales; None
        (Discord shows the English) otherwise."""
        if locale not in SPANISH_LOCALES:
            return None
        if context.location is app_commands.TranslationContextLocation.parameter_name:
            option = OPTION_TRANSLATIONS.get(string.message)
            if option is not None:
                return option
        return COMMAND_TRANSLATIONS.get(string.message)
