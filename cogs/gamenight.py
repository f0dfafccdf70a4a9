"""``/gamenight``: a server's settings (``settings``, for Manage Server) and a member's data
(``forget-me``); and the retention purge of old games (``GAMENIGHT_RETENTION_DAYS``).

Discord applies ``default_member_permissions`` to top-level commands only, and ``forget-me`` is
for every member, so ``/gamenight`` is shown to everyone and ``settings`` checks Manage Server on
the bot's side.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import logging
import time
import unicodedata
import zoneinfo
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands, tasks

from bot import game_settings
from bot.calling import (
    CLAIM_MODES,
    CLAIMS_CHOICES,
    CLAIMS_DESCRIPTION,
    CLAIMS_MANUAL,
    DEFAULT_INTERVAL,
    MAX_INTERVAL,
    MIN_INTERVAL,
    VOICE_IN_GAME_LANGUAGE,
    VOICE_LANGUAGE_CHOICES,
    VOICE_LANGUAGES,
    VOICE_OFF,
    CallingGameCog,
)
from bot.components import GameButton, Press, drop_route, route_presses
from bot.games import is_server_manager
from bot.i18n import LocaleLike, is_spanish, message, register_messages
from bot.plurals import counted
from bot.replies import UserError, check_range
from bot.storage import ServerLanguage, ServerSettings
from bot.when import WhenError, zone_named
from engine.errors import quoted

if TYPE_CHECKING:
    from bot.app import GameNightBot

log = logging.getLogger(__name__)

DAY = 24 * 3600.0
CONFIRM_SECONDS = 300  # how long a forget-me confirmation can be answered
FORGET_PREFIX = "forget"  # its answers' custom ids: gn:forget:<yes|no>:<member>:<until>
AUTOCOMPLETE_LIMIT = 25

LANGUAGE_CHOICES = [
    app_commands.Choice(
        name=_("Follow the server's language in Discord"), value=ServerLanguage.DISCORD.value
    ),
    app_commands.Choice(name=_("English"), value=ServerLanguage.ENGLISH.value),
    app_commands.Choice(name=_("Spanish"), value=ServerLanguage.SPANISH.value),
]


class GameNight(
    commands.GroupCog,
    name="GameNight",
    group_name="gamenight",
    group_description=_("Game Night in this server: its settings, and your data"),
):
    def __init__(self, bot: GameNightBot) -> None:
        self.bot = bot
        self.purges = 0  # retention purges made since start-up
        # ``settings`` is built now, with the games' own options, and stays first in the group.
        group = self.app_command
        assert group is not None  # a GroupCog's
        others = group.commands
        for command in others:
            group.remove_command(command.name)
        group.add_command(self.settings_command())
        for command in others:
            group.add_command(command)
        self.__cog_app_commands__ = [*group.commands]

    async def cog_load(self) -> None:
        # The forget-me answers: ``gn:forget:<yes|no>:<member>:<until>``.
        route_presses(self.bot, FORGET_PREFIX, self.on_forget_press, context=lambda _: "forget-me")
        # In a fleet, the client that runs shard 0 purges (one per fleet, whoever holds it).
        if self.bot.settings.retention_days is not None and self.bot.runs_guild(None):
            self.purge_daily.start()  # the first purge now, at start-up

    async def cog_unload(self) -> None:
        drop_route(self.bot, FORGET_PREFIX)
        self.purge_daily.cancel()

    async def on_forget_press(self, interaction: discord.Interaction[Any], press: Press) -> None:
        if press.action not in {"yes", "no"} or not press.arg.isdigit():
            raise UserError("button_gone")
        await self.answer_forget(interaction, press.action == "yes", press.subject, int(press.arg))

    # -- retention -----------------------------------------------------------------------------

    @tasks.loop(hours=24)
    async def purge_daily(self) -> None:
        """Purge at start-up, then every day; a failure is logged and tried again next time."""
        try:
            await self.purge_old_games()
        except Exception:
            log.exception("could not purge old games; trying again tomorrow")
        self.purges += 1

    async def purge_old_games(self) -> int:
        """Delete the games over for longer than ``GAMENIGHT_RETENTION_DAYS``."""
        days = self.bot.settings.retention_days
        if days is None:
            return 0
        purged = await self.bot.storage.purge_over_games(time.time() - days * DAY)
        if purged:
            log.info(
                "deleted %s that ended more than %s ago",
                counted(purged, "game", "games"),
                counted(days, "day", "days"),
            )
        return purged

    # -- settings ------------------------------------------------------------------------------

    def calling_cogs(self) -> list[CallingGameCog]:
        """The loaded games whose start commands take server defaults."""
        return [cog for cog in self.bot.cogs.values() if isinstance(cog, CallingGameCog)]

    def game_cog(self, typed: str) -> CallingGameCog:
        """The calling game named ``typed`` (its kind, or its name in English or Spanish)."""
        wanted = _fold(typed)
        for cog in self.calling_cogs():
            if wanted in {_fold(cog.kind), _fold(cog.title), _fold(cog.title_es)}:
                return cog
        raise UserError("settings_no_such_game", game=quoted(typed), games=self.game_list(None))

    def game_list(self, locale: LocaleLike) -> str:
        return ", ".join(
            f"`{cog.kind}` ({cog.game_kind().name(locale)})" for cog in self.calling_cogs()
        )

    def settings_command(self) -> app_commands.Command[Any, ..., None]:
        """``/gamenight settings``: the options every server has, then each game's own
        (``bot.game_settings``, registered when its cog was imported, before this cog loads),
        with the prizes option described from what each game's default prizes are."""
        own = game_settings.options()
        english, spanish = game_settings.prizes_description()
        register_messages({}, {english: spanish}, owner=__name__)
        descriptions = {
            "language": _("The language of games' public messages"),
            "host_role": _("Who may start games: a role, or @everyone for everybody"),
            "game": _("The game the interval, prizes and claims are for"),
            "interval": _("Default seconds between calls (5-120)"),
            "near_misses": _("Tell players by DM how close they came to a prize (default on)"),
            "prizes": _(english),
            "claims": CLAIMS_DESCRIPTION,
            "voice": _("A voice channel where the bot speaks the calls of this game by default"),
            "voice_language": _("What the calls are spoken in (off: no voice channel by default)"),
            "time_zone": _(
                "The time zone planned game nights are read in, e.g. America/Mexico_City"
            ),
        } | {option.name: _(option.description) for option in own}
        choices = {
            "language": LANGUAGE_CHOICES,
            "claims": CLAIMS_CHOICES,
            "voice_language": VOICE_LANGUAGE_CHOICES,
        } | {
            option.name: [
                app_commands.Choice(name=_(name), value=value) for name, value in option.choices
            ]
            for option in own
        }
        shared = inspect.signature(GameNight.settings)
        parameters = [
            *(p for p in shared.parameters.values() if p.kind is not p.VAR_KEYWORD),
            *(
                inspect.Parameter(
                    option.name,
                    inspect.Parameter.KEYWORD_ONLY,
                    default=None,
                    annotation="str | None",
                )
                for option in own
            ),
        ]

        async def settings(
            cog: GameNight, interaction: discord.Interaction[Any], /, **values: Any
        ) -> None:
            await cog.settings(interaction, **values)

        # A method of this cog to discord.py (it passes the cog first), with every option.
        settings.__qualname__ = GameNight.settings.__qualname__
        setattr(settings, "__signature__", shared.replace(parameters=parameters))  # noqa: B010
        app_commands.describe(**descriptions)(settings)
        app_commands.choices(**choices)(settings)
        command = app_commands.Command(
            name="settings",
            description=_("Show or change the bot's settings in this server (Manage Server)"),
            callback=settings,
            parent=self.app_command,
        )
        command.binding = self
        command.autocomplete("game")(self.game_autocomplete)
        command.autocomplete("time_zone")(self.time_zone_autocomplete)
        command.autocomplete("prizes")(self.prizes_autocomplete)
        return command

    async def settings(
        self,
        interaction: discord.Interaction[Any],
        language: str | None = None,
        host_role: discord.Role | None = None,
        game: str | None = None,
        interval: app_commands.Range[int, MIN_INTERVAL, MAX_INTERVAL] | None = None,
        prizes: str | None = None,
        time_zone: str | None = None,
        near_misses: bool | None = None,
        claims: str | None = None,
        voice: discord.VoiceChannel | discord.StageChannel | None = None,
        voice_language: str | None = None,
        **game_options: str | None,
    ) -> None:
        """``/gamenight settings``, shown or changed (its command: ``settings_command``)."""
        guild_id = interaction.guild_id
        if guild_id is None:
            raise UserError("server_only")
        if not is_server_manager(interaction):
            raise UserError("need_manage_server")
        change = self.settings_change(
            language,
            host_role,
            game,
            interval,
            prizes,
            time_zone,
            near_misses=near_misses,
            claims=claims,
            voice=None if voice is None else voice.id,
            voice_language=voice_language,
            guild_id=guild_id,
            **game_options,
        )
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = interaction.locale
        if change is None:
            shown = await self.bot.storage.server_settings(guild_id)
            text = self.describe(shown, interaction, locale)
        else:
            shown = await self.bot.storage.change_server_settings(guild_id, change)
            self.bot.known_settings[guild_id] = shown  # what interactions are answered from
            text = "\n".join(
                [message("settings_saved", locale), self.describe(shown, interaction, locale)]
            )
        await interaction.followup.send(text, ephemeral=True)

    def settings_change(
        self,
        language: str | None,
        host_role: discord.Role | None,
        game: str | None,
        interval: int | None,
        prizes: str | None,
        time_zone: str | None = None,
        *,
        near_misses: bool | None = None,
        claims: str | None = None,
        voice: int | None = None,
        voice_language: str | None = None,
        guild_id: int | None = None,
        **game_options: str | None,
    ) -> Callable[[ServerSettings], ServerSettings] | None:
        """The change the options ask for (None: they ask for none), every value checked first
        (a bad one is refused and nothing changes); ``game_options``: the games' own
        (``bot.game_settings``), by name; ``guild_id``: the server changed (a game's default
        prizes may be its own, as Bingo's custom patterns)."""
        if language is not None and language not in {choice.value for choice in ServerLanguage}:
            raise UserError("settings_bad_language")
        chosen = [
            (game_of.kind, option, value)
            for game_of in game_settings.registered()
            for option in game_of.options
            if (value := game_options.get(option.name)) is not None
        ]
        for _kind, option, value in chosen:
            if value not in {allowed for _, allowed in option.choices}:
                raise UserError(option.refusal)
        if host_role is not None and host_role.managed:
            raise UserError("settings_role_managed", role=host_role.id)
        zone_name: str | None = None
        if time_zone is not None:
            try:
                zone_name = str(zone_named(_zone_spelled(time_zone.strip())))
            except WhenError:
                raise UserError("when_bad_zone", when=quoted(time_zone)) from None
        kind: str | None = None
        stored_prizes: str | None = None
        if claims is not None and claims not in CLAIM_MODES:
            raise UserError("claims_bad_mode", modes=", ".join(CLAIM_MODES))
        if voice_language is not None and voice_language not in {*VOICE_LANGUAGES, VOICE_OFF}:
            raise UserError("settings_bad_voice_language")
        game_values = (interval, prizes, near_misses, claims, voice, voice_language)
        if game is None:
            if any(value is not None for value in game_values):
                raise UserError("settings_which_game", games=self.game_list(None))
        else:
            cog = self.game_cog(game)
            kind = cog.kind
            if all(value is None for value in game_values):
                raise cog.refusal("settings_game_needs_value")
            if interval is not None:
                check_range("interval", interval, MIN_INTERVAL, MAX_INTERVAL)
            if prizes is not None:
                # The start command's refusals (the server's own prizes as it holds them).
                stored_prizes = cog.default_prizes(prizes, guild_id=guild_id)
        asked = (language, host_role, kind, zone_name)
        if all(value is None for value in asked) and not chosen:
            return None

        def change(current: ServerSettings) -> ServerSettings:
            updated = current
            if language is not None:
                updated = dataclasses.replace(updated, language=ServerLanguage(language))
            if host_role is not None:
                everyone = host_role.is_default()
                updated = dataclasses.replace(
                    updated, host_role_id=None if everyone else host_role.id
                )
            if zone_name is not None:
                updated = dataclasses.replace(updated, time_zone=zone_name)
            if kind is not None:
                before = updated.defaults(kind)
                updated = updated.with_defaults(
                    kind,
                    dataclasses.replace(
                        before,
                        interval=before.interval if interval is None else interval,
                        prizes=before.prizes if stored_prizes is None else stored_prizes,
                        near_misses=before.near_misses if near_misses is None else near_misses,
                        claims=before.claims if claims is None else claims,
                        voice=(
                            None
                            if voice_language == VOICE_OFF
                            else before.voice
                            if voice is None
                            else voice
                        ),
                        voice_language=(
                            before.voice_language
                            if voice_language in {None, VOICE_OFF}
                            else voice_language
                        ),
                    ),
                )
            for option_kind, option, value in chosen:
                before = updated.defaults(option_kind)
                updated = updated.with_defaults(
                    option_kind, game_settings.with_option(before, option, value)
                )
            return updated

        return change

    def describe(
        self, settings: ServerSettings, interaction: discord.Interaction[Any], locale: LocaleLike
    ) -> str:
        """The server's settings, in ``locale``."""
        lines = [message("settings_header", locale)]
        if settings.language is ServerLanguage.DISCORD:
            now = "es" if is_spanish(interaction.guild_locale) else "en"
            language = message(f"language_name_{now}", locale)
            lines.append(message("settings_language_discord", locale, language=language))
        else:
            lines.append(message(f"settings_language_{settings.language.value}", locale))
        lines.append(message("settings_language_note", locale))
        role_id = settings.host_role_id
        guild = interaction.guild
        if role_id is None:
            lines.append(message("settings_hosts_everyone", locale))
        elif guild is not None and guild.get_role(guild.id) and guild.get_role(role_id) is None:
            lines.append(message("settings_hosts_role_gone", locale))
        else:
            lines.append(message("settings_hosts_role", locale, role=role_id))
        lines.append(message("settings_time_zone", locale, zone=settings.time_zone))
        builtin = message("settings_builtin", locale)
        for cog in self.calling_cogs():
            defaults = settings.defaults(cog.kind)
            lines.append(
                message(
                    "settings_game",
                    locale,
                    game=cog.game_kind().name(locale),
                    interval=defaults.interval or DEFAULT_INTERVAL,
                    interval_mark=builtin if defaults.interval is None else "",
                    prizes=cog.describe_prizes(
                        defaults.prizes, locale, guild_id=interaction.guild_id
                    ),
                    prizes_mark=builtin if defaults.prizes is None else "",
                    claims=message(f"claims_mode_{defaults.claims or CLAIMS_MANUAL}", locale),
                    claims_mark=builtin if defaults.claims is None else "",
                )
                + (
                    message(
                        "settings_voice",
                        locale,
                        channel=defaults.voice,
                        language=message(
                            f"voice_language_{defaults.voice_language or VOICE_IN_GAME_LANGUAGE}",
                            locale,
                        ),
                    )
                    if defaults.voice is not None
                    else ""
                )
                + (
                    message("settings_no_near_misses", locale)
                    if defaults.near_misses is False
                    else ""
                )
            )
            for option in game_settings.of_game(cog.kind).options:
                value = game_settings.option_value(defaults, option)
                lines.append(option.line(value, locale, builtin))
        days = self.bot.settings.retention_days
        if days is None:
            lines.append(message("settings_no_retention", locale))
        else:
            lines.append(message("settings_retention", locale, count=days))
        lines.append(message("settings_how", locale))
        return "\n".join(lines)

    async def game_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        typed = _fold(current)
        return [
            app_commands.Choice(name=cog.game_kind().name(interaction.locale), value=cog.kind)
            for cog in self.calling_cogs()
            if typed in _fold(cog.kind) or typed in _fold(cog.game_kind().name(interaction.locale))
        ]

    async def time_zone_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=name, value=name) for name in zones_matching(current)][
            :AUTOCOMPLETE_LIMIT
        ]

    async def prizes_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        game = getattr(interaction.namespace, "game", None)
        if not game:
            return []
        try:
            cog = self.game_cog(str(game))
        except UserError:
            return []
        return [
            app_commands.Choice(name=name[:100], value=value[:100])
            for name, value in cog.prize_suggestions(
                current[:100], interaction.locale, guild_id=interaction.guild_id
            )
        ][:AUTOCOMPLETE_LIMIT]

    # -- forget-me -----------------------------------------------------------------------------

    @app_commands.command(name="forget-me", description=_("Remove your data from finished games"))
    async def forget_me(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        user_id = interaction.user.id
        locale = interaction.locale
        games = await self.bot.storage.member_games(user_id)
        live = message("forget_live", locale, count=games.live) if games.live else ""
        if not games.over:
            text = "\n".join(filter(None, [message("forget_nothing", locale), live]))
            await interaction.followup.send(text, ephemeral=True)
            return
        until = int(time.time()) + CONFIRM_SECONDS
        view = discord.ui.View(timeout=None)
        view.add_item(
            GameButton.make(
                FORGET_PREFIX,
                "yes",
                user_id,
                message("forget_button_yes", locale),
                discord.ButtonStyle.danger,
                arg=until,
            )
        )
        view.add_item(
            GameButton.make(
                FORGET_PREFIX,
                "no",
                user_id,
                message("forget_button_no", locale),
                discord.ButtonStyle.secondary,
                arg=until,
            )
        )
        confirm = message("forget_confirm", locale, count=games.over)
        text = "\n\n".join(filter(None, [confirm, live]))
        await interaction.followup.send(text, view=view, ephemeral=True)

    async def answer_forget(
        self, interaction: discord.Interaction[Any], forget: bool, user_id: int, until: int
    ) -> None:
        """The member answered their confirmation: forget them now, or keep everything."""
        if interaction.user.id != user_id:
            raise UserError("forget_not_yours")
        locale = interaction.locale
        if not forget:
            await interaction.response.edit_message(
                content=message("forget_kept", locale), view=None
            )
            return
        if time.time() > until:
            await interaction.response.edit_message(
                content=message("forget_expired", locale), view=None
            )
            return
        await interaction.response.defer()  # the database may take a while: acknowledge first
        count = await self.bot.storage.forget_member(user_id)
        log.info("a member asked to be forgotten: %d finished games changed", count)
        await interaction.edit_original_response(
            content=message("forget_done", locale, count=count), view=None
        )


def zones_matching(typed: str) -> list[str]:
    """Time zones offered for what was typed ("mexico" finds America/Mexico_City): those whose
    city starts with it first, then whose name does, then any containing it."""
    wanted = _fold(typed)
    names = sorted(_suggested_zones())
    ranked = (
        [name for name in names if _fold(name.rsplit("/", 1)[-1]).startswith(wanted)],
        [name for name in names if _fold(name).startswith(wanted)],
        [name for name in names if wanted in _fold(name)],
    )
    return list(dict.fromkeys(name for group in ranked for name in group))[:AUTOCOMPLETE_LIMIT]


@functools.cache
def _suggested_zones() -> frozenset[str]:
    # The regions' own zones: the old aliases (US/Central, Mexico/BajaNorte) are accepted when
    # typed but not offered.
    return frozenset(name for name in _zone_names() if name.split("/", 1)[0] in _ZONE_REGIONS) | {
        "UTC"
    }


_ZONE_REGIONS = frozenset(
    [
        "Africa",
        "America",
        "Antarctica",
        "Asia",
        "Atlantic",
        "Australia",
        "Europe",
        "Indian",
        "Pacific",
    ]
)


def _zone_spelled(typed: str) -> str:
    """The zone's own spelling of a name typed in any case ("america/mexico_city")."""
    for name in _zone_names():
        if name.casefold() == typed.casefold():
            return name
    return typed


@functools.cache
def _zone_names() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones() | {"UTC"})


def _fold(text: str) -> str:
    """Lower case without accents or spaces: "Lotería" == "loteria"."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if ch.isalnum() and not unicodedata.combining(ch))


async def setup(bot: GameNightBot) -> None:
    await bot.add_cog(GameNight(bot))
