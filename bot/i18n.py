"""English and Spanish: slash-command localisations and player-facing Lotería messages."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

SPANISH_LOCALES = frozenset({discord.Locale.spain_spanish, discord.Locale.latin_american_spanish})

# Command, option and choice names and descriptions: English source -> Spanish.
COMMAND_TRANSLATIONS: dict[str, str] = {}

# Player-facing messages: key -> (English, Spanish). Formatted with str.format(**values).
MESSAGES: dict[str, tuple[str, str]] = {}


def is_spanish(locale: discord.Locale | str | None) -> bool:
    return locale is not None and str(locale).startswith("es")


def message(key: str, locale: discord.Locale | str | None = None, /, **values: Any) -> str:
    """The message ``key`` in the player's language (Spanish for Spanish locales)."""
    english, spanish = MESSAGES[key]
    return (spanish if is_spanish(locale) else english).format(**values)


class GameNightTranslator(app_commands.Translator):
    """Spanish names and descriptions for the slash commands."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if locale not in SPANISH_LOCALES:
            return None
        return COMMAND_TRANSLATIONS.get(string.message)
