"""The voice machinery's words for a game's host: why a game's calls are not spoken, in English
and Spanish. Registered with ``bot.i18n`` when the machinery is imported."""

from __future__ import annotations

from bot.i18n import Text, register_messages

MESSAGES: dict[str, tuple[Text, Text]] = {
    "voice_off": (
        "🔇 Voice is off on this bot (its operator can turn it on), so the calls are in text only.",
        "🔇 La voz está apagada en este bot (quien lo administra puede activarla): los cantos "
        "van solo por escrito.",
    ),
    "voice_missing_permissions": (
        "🔇 I can't speak in <#{channel}>: I'm missing {permissions} there. The calls go on in "
        "text; ask someone who manages the server to allow them.",
        "🔇 No puedo hablar en <#{channel}>: me falta {permissions} ahí. Los cantos siguen por "
        "escrito; pide a alguien que administre el servidor que los permita.",
    ),
    "voice_busy": (
        "🔇 I'm already speaking in <#{channel}> for another game on this server, so this game's "
        "calls are in text only.",
        "🔇 Ya estoy hablando en <#{channel}> para otra partida de este servidor: los cantos de "
        "esta van solo por escrito.",
    ),
    "voice_not_joined": (
        "🔇 I could not join <#{channel}> (Discord did not let me in in time); the calls go on "
        "in text.",
        "🔇 No pude entrar en <#{channel}> (Discord no me dejó a tiempo); los cantos siguen por "
        "escrito.",
    ),
    "voice_channel_gone": (
        "🔇 I can't find the voice channel <#{channel}> any more (deleted, or I can't see it), so "
        "the calls are in text only.",
        "🔇 Ya no encuentro el canal de voz <#{channel}> (borrado, o no lo veo): los cantos van "
        "solo por escrito.",
    ),
}

register_messages(MESSAGES, owner=__name__)
