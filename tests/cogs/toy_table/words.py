"""Race to ten's words, in English and Spanish, and its commands' Spanish: registered through
``bot.i18n.register_messages`` when the cog is imported, as a real game's are."""

from __future__ import annotations

from bot.i18n import Text, register_messages

WORDS: dict[str, tuple[Text, Text]] = {
    "race_said": ("+{step}: the total is {total}", "+{step}: el total es {total}"),
    "race_not_a_step": ("Add 1 or 2, not {move}.", "Suma 1 o 2, no {move}."),
    "race_refused": (
        "You cannot add {move} now (the total is {total}).",
        "No puedes sumar {move} ahora (el total es {total}).",
    ),
    "race_settings": ("first to {target}", "el primero en llegar a {target}"),
    "race_to_move": (
        "Total **{total}**: {who} to move, by <t:{deadline}:T>.",
        "Total **{total}**: le toca a {who}, antes de <t:{deadline}:T>.",
    ),
    "race_result": ("🏁 {title} #{game}: **{verdict}**.", "🏁 {titulo} #{game}: **{verdict}**."),
    "race_help_summary": (
        "Add 1 or 2 in turn; whoever reaches ten wins.",
        "Sumad 1 o 2 por turnos; gana quien llegue a diez.",
    ),
    "race_help_rules": (
        "Land on 1, 4 or 7 and the win is yours.",
        "Cae en 1, 4 o 7 y la victoria es tuya.",
    ),
}
COMMANDS = {
    "race": "carrera",
    "Race to ten, against a member or the bot": "Carrera a diez, contra un miembro o contra mí",
    "Challenge a member, or play the bot": "Reta a un miembro, o juega contra mí",
    "Resign your race": "Abandona tu carrera",
}


register_messages(WORDS, COMMANDS, owner=__name__)  # again at each load of the cog: its own
