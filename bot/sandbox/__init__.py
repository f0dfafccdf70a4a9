"""``python -m bot sandbox``: a whole game night offline, in one process, with no Discord account.

The local Discord emulator (:mod:`emulator`) and the real bot (every cog, a throw-away SQLite
file) run together on loopback. Simulated members join the lobby, get their boards, watch the
calls and claim: honest players claim the prizes their boards complete, one or two bluffers
sometimes claim a prize they are one short of. The channel, the DMs and the private replies are
printed as they happen, and every image the bot sends is saved to a folder.

Its private modules, one topic each:

- ``_cli``: the command line (options, exit codes) and :func:`main`;
- ``_transcript``: what is printed (markdown as terminal text, colours, ``NO_COLOR``) and the
  saved images;
- ``_players``: the simulated members and how they decide to claim (:class:`Intent`);
- ``_orchestration``: one run, the emulator, the bot and the game driven from lobby to summary;
- ``_page``: the night as an HTML page beside the images;
- ``_voice``: with ``--voice``, what the bot says in the voice channel saved as WAV files.
"""

from bot.sandbox._cli import main
from bot.sandbox._players import Intent, SimulatedPlayer

__all__ = ["Intent", "SimulatedPlayer", "main"]
