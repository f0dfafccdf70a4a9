"""The games' voice: calls spoken in a server's voice channel (docs/ARCHITECTURE.md).

``voices`` (the languages and voice models, read with the settings), ``pcm`` (WAV in,
discord.py's PCM out), ``engines`` (espeak-ng and Piper), ``speech`` (a phrase as Opus frames),
``cache`` (the phrases on disk), ``phrase`` (what a game says: ``Phrase``, the ``spoken_call``
hook), ``speaker`` (one game's voice in a channel) and ``machinery`` (``Voices``: on or off,
phrases made ahead, a speaker per server). Nothing is imported here: ``bot.config`` reads
``voices`` without the rest.
"""
