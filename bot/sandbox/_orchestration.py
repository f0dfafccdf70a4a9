"""One sandbox run: the emulator, the real bot on a throw-away SQLite file, and the simulated
members seated in a server and driven through a whole game: lobby, join, start, claims as the
calls come, a stop if the time limit is up, verify, summary. The run says first whether requests
are validated against Discord's OpenAPI description (it needs jsonschema, the ``emulator`` extra,
and the description's file) and, if not, why.

Also what a run is asked for (:class:`SandboxOptions`), how it logs, and its folder of images.
With ``voice`` the members sit in a voice channel the host names at the start, and what the bot
says there is saved beside the pictures (:mod:`bot.sandbox._voice`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import importlib
import logging
import random
import re
import secrets
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO

from bot.app import GameNightBot, discover_extensions
from bot.calling import MIN_INTERVAL, CallingGameCog
from bot.config import Settings
from bot.games import GameCog
from bot.i18n import message
from bot.plurals import counted
from bot.sandbox._page import write_page
from bot.sandbox._players import NAMES, REACTION_SECONDS, Intent, SimulatedPlayer
from bot.sandbox._transcript import Style, Transcript
from bot.sandbox._voice import (
    VOICE_CHANNEL,
    CallPost,
    assign_spans,
    save_spoken,
    voice_unavailable,
)
from bot.storage import GameRow, Storage
from bot.table import TableGameCog
from emulator import (
    Channel,
    DriverError,
    Emulator,
    Guild,
    InteractionFailedError,
    InteractionResult,
    Message,
    run_bot,
)
from emulator.spec import default_spec_path, validation_unavailable

DEFAULT_PLAYERS = 6
DEFAULT_SPEED = 10.0
DEFAULT_IMAGES = Path("sandbox-images")
REPLY_TIMEOUT = 15.0
SUMMARY_TIMEOUT = 10.0
# The bot says its farewell after the end summary, then leaves the voice channel.
LEAVE_VOICE_TIMEOUT = 60.0
EVERY_GAME = "all"  # --game all: a short night of each game
SHORT_NIGHT_SECONDS = 40.0  # a calling game's time limit in a night of every game, unless told
MOST_PRESSES = 400  # a table game that needs more is going round in circles
# The sandbox's languages: the server's locale and its members', as Discord names them.
LOCALES = {"en": "en-US", "es": "es-ES"}


def _game_cogs() -> list[type[GameCog[Any]]]:
    cogs: list[type[GameCog[Any]]] = []
    for name in discover_extensions():
        module = importlib.import_module(name)
        cogs.extend(
            value
            for value in vars(module).values()
            if isinstance(value, type)
            and issubclass(value, GameCog)
            and value.__module__ == module.__name__
        )
    return cogs


@functools.cache
def calling_games() -> dict[str, type[CallingGameCog]]:
    """The calling games of the cogs found on disk, by kind: what a sandbox night may play."""
    return {cog.kind: cog for cog in _game_cogs() if issubclass(cog, CallingGameCog)}


@functools.cache
def table_games() -> dict[str, type[TableGameCog]]:
    """The table games of the cogs found on disk that say how a sandbox plays them, by kind."""
    return {
        cog.kind: cog
        for cog in _game_cogs()
        if issubclass(cog, TableGameCog) and cog.sandbox_plan is not None
    }


def sandbox_games() -> list[str]:
    """Every game a sandbox night may play: the calling games, then the table games."""
    return [*sorted(calling_games()), *sorted(table_games())]


def default_game() -> str:
    """The game a sandbox night plays unless told: the one whose cog says so, else the first."""
    games = calling_games()
    return next((kind for kind, cog in games.items() if cog.sandbox_default), min(games))


def game_title(kind: str, lang: str = "en") -> str:
    """A game's title in the sandbox's language."""
    games: dict[str, type[GameCog[Any]]] = {**calling_games(), **table_games()}
    cog = games[kind]
    return cog.title_es if lang == "es" else cog.title


@dataclass(frozen=True)
class SandboxOptions:
    """What a run is asked for (the command line fills it in)."""

    game: str = field(default_factory=default_game)
    players: int = DEFAULT_PLAYERS
    speed: float = DEFAULT_SPEED
    images: Path = DEFAULT_IMAGES
    seconds: float | None = None
    verbose: bool = False
    lang: str = "en"
    voice: bool = False  # the calls spoken in a voice channel, saved as WAV files

    @property
    def games(self) -> list[str]:
        """The games of the night, in the order played."""
        return sandbox_games() if self.game == EVERY_GAME else [self.game]

    @property
    def title(self) -> str:
        return ", ".join(game_title(kind, self.lang) for kind in self.games)

    @property
    def locale(self) -> str:
        """The server's and the members' locale."""
        return LOCALES[self.lang]

    def time_limit(self) -> float | None:
        """A calling game's time limit: the one asked for, else a short one in a night of
        every game."""
        if self.seconds is not None or self.game != EVERY_GAME:
            return self.seconds
        return SHORT_NIGHT_SECONDS

    @property
    def time_scale(self) -> float:
        """What the bot multiplies its timers by."""
        return 1.0 / self.speed


class SandboxError(Exception):
    """Something went wrong that the person running the sandbox should hear about."""


class SandboxSetupError(SandboxError):
    """The sandbox cannot start where it was asked to (its images' folder, a temporary folder):
    nothing ran; the message says what to change."""


@contextlib.contextmanager
def sandbox_logging(verbose: bool) -> Iterator[None]:
    """Warnings from the bot to stderr; discord.py and the emulator only when ``verbose`` (the
    sandbox reports the emulator's findings itself). Levels are restored afterwards."""
    root = logging.getLogger()
    added: logging.Handler | None = None
    if not root.handlers:
        added = logging.StreamHandler(sys.stderr)
        added.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
        root.addHandler(added)
    quiet = ("discord", "emulator")
    saved = {name: logging.getLogger(name).level for name in ("", *quiet)}
    root.setLevel(logging.INFO if verbose else logging.WARNING)
    if not verbose:
        for name in quiet:
            logging.getLogger(name).setLevel(logging.ERROR)
    try:
        yield
    finally:
        for name, level in saved.items():
            logging.getLogger(name).setLevel(level)
        if added is not None:
            root.removeHandler(added)


def new_run_folder(parent: Path, game: str) -> Path:
    """A fresh folder under ``parent`` for this run's images (earlier runs are kept)."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    for attempt in range(1000):
        folder = parent / (f"{stamp}-{game}" + (f"-{attempt + 1}" if attempt else ""))
        try:
            folder.mkdir(parents=True)
        except FileExistsError:
            continue
        except OSError as error:  # a file on the way, a folder this user may not write...
            raise SandboxSetupError(
                f"cannot make a folder for the images under {parent} "
                f"({error.strerror or error}); choose another with --images DIR"
            ) from None
        return folder
    raise SandboxSetupError(
        f"cannot make a new folder for the images under {parent}; choose another with --images DIR"
    )


class Sandbox:
    """One run: the emulator, the bot, the members and the transcript."""

    emu: Emulator
    transcript: Transcript
    guild: Guild
    channel: Channel
    players: list[SimulatedPlayer]
    storage: Storage

    def __init__(self, options: SandboxOptions, out: TextIO, style: Style) -> None:
        self.options = options
        self.out = out
        self.style = style
        self.rng = random.Random()  # how the simulated members behave; the game has its own seed
        self.problems: list[str] = []
        self.claim_tasks: set[asyncio.Task[None]] = set()
        self.kind = options.games[0]  # the game being played
        self.page: Path | None = None
        self.voice_channel: Channel | None = None  # with --voice: where the members sit

    @property
    def cog(self) -> type[CallingGameCog]:
        """The calling game being played: what its members need to know of it."""
        return calling_games()[self.kind]

    async def run(self) -> int:
        options = self.options
        if options.voice:
            self.check_voice()
        images = new_run_folder(options.images, options.game)
        try:
            return await self._run(images)
        finally:
            # Also after a failure or Ctrl-C: the page shows what happened until then.
            if hasattr(self, "transcript"):
                self.page = write_page(self.emu, self.transcript, options.title, options.lang)
                self.transcript.note(f"The night as a page: {self.page}", "bold")

    async def _run(self, images: Path) -> int:
        options = self.options
        try:
            scratch = tempfile.TemporaryDirectory(
                prefix="gamenight-sandbox-", ignore_cleanup_errors=True
            )
        except OSError as error:  # no temporary folder this user may write (TMPDIR, /tmp...)
            raise SandboxSetupError(
                f"cannot make a temporary folder for the throw-away database ({error}); set "
                "TMPDIR to a folder this user may write"
            ) from None
        with scratch as temp:
            # As strict as Discord (its rate limits, the invalid-request ban, the gateway's
            # limits, the rules of commands): what the sandbox shows is what a server would see.
            async with Emulator.as_strict_as_discord(strict=False, bot_name="Game Night") as emu:
                self.emu = emu
                self.transcript = Transcript(emu, self.out, self.style, images)
                self._introduce(images)
                guild = emu.add_guild("Sandbox", locale=options.locale)
                self.guild = guild
                self.channel = guild.add_channel("game-night")
                self.players = self._seat_players(guild)
                if options.voice:
                    self.voice_channel = guild.add_voice_channel(VOICE_CHANNEL)
                    for player in self.players:
                        player.member.join_voice(self.voice_channel)
                    self.transcript.note(
                        f"Everyone sits in the voice channel 🔊{VOICE_CHANNEL}.", "dim"
                    )
                settings = Settings(
                    token=emu.token,
                    database_path=Path(temp) / "sandbox.sqlite3",
                    signing_key=secrets.token_bytes(32),
                    dev_guild_id=None,
                    api_base_url=emu.api_base_url,
                    gateway_url=emu.gateway_url,
                    log_level="INFO" if options.verbose else "WARNING",
                )
                async with Storage.open(settings.database_path) as storage:
                    self.storage = storage
                    bot = GameNightBot(
                        settings, storage, time_scale=options.time_scale, guild_ready_timeout=0.05
                    )
                    self.bot = bot
                    async with run_bot(emu, bot, timeout=30):
                        self.transcript.note("The bot is connected to the emulator.", "dim")
                        follower = asyncio.create_task(self.transcript.follow())
                        try:
                            await self.play_night()
                        finally:
                            follower.cancel()
                            await asyncio.gather(follower, return_exceptions=True)
                            self.transcript.flush()
                self._report_failures()
                saved = counted(len(self.transcript.saved), "image", "images")
                self.transcript.note(f"{saved} saved in {self.transcript.images}/", "bold")
                if options.voice:
                    spoken = self.transcript.spoken.values()
                    calls = counted(sum(s.call for s in spoken), "spoken call", "spoken calls")
                    self.transcript.note(
                        f"{calls} saved as WAV files beside their pictures "
                        f"({counted(len(spoken), 'recording', 'recordings')} in all).",
                        "bold",
                    )
        return 1 if self.problems else 0

    def _introduce(self, images: Path) -> None:
        options = self.options
        note = self.transcript.note
        note(
            f"Game Night sandbox: {options.title} with {self.member_count()} simulated members "
            f"(language: {options.locale}).",
            "bold",
        )
        seconds = MIN_INTERVAL / options.speed
        note(
            f"The host picks a call every {MIN_INTERVAL} s; at {options.speed:g}x speed that is "
            f"every {seconds:g} s here.",
            "dim",
        )
        if self.emu.validation_enabled:
            note(
                "Requests are checked against Discord's OpenAPI spec "
                f"(API v{self.emu.spec.api_version if self.emu.spec else '?'}; validation on).",
                "dim",
            )
        else:
            why = validation_unavailable() or (
                f"Discord's OpenAPI spec was not found at {default_spec_path()}"
            )
            note(
                f"Requests are not validated ({why}); that is fine for trying the bot.",
                "dim",
            )
        note(f"Images go to {images}/", "dim")
        if options.voice:
            note(
                "The bot speaks the calls in a voice channel; each call's audio is saved as a "
                "WAV file beside its picture and plays from the page.",
                "dim",
            )

    def _seat_players(self, guild: Guild) -> list[SimulatedPlayer]:
        count = self.member_count()
        bluffers = 0 if count < 2 else 1 if count < 5 else 2
        closed_dms = 2 if count >= 3 else None  # one member shows where boards go without DMs
        bluffs = self.cog.sandbox_bluffs if self.kind in calling_games() else 0
        players = []
        for index in range(count):
            name = NAMES[index]
            member = guild.add_member(
                name, dms_open=index != closed_dms, locale=self.options.locale
            )
            players.append(
                SimulatedPlayer(
                    member,
                    random.Random(self.rng.getrandbits(64)),
                    bluffs_left=bluffs if index >= count - bluffers else 0,
                    claims_by_button=index % 2 == 1,
                    may_bluff=index >= count - bluffers,
                )
            )
        names = ", ".join(p.name for p in players)
        self.transcript.note(f"Members: {names}; {players[0].name} hosts.", "dim")
        liars = [p.name for p in players if p.bluffer]
        if liars:
            verb = "claims" if len(liars) == 1 else "claim"
            self.transcript.note(
                f"{' and '.join(liars)} sometimes {verb} a prize they don't have.", "dim"
            )
        if closed_dms is not None:
            self.transcript.note(
                f"{players[closed_dms].name} has DMs from server members turned off.", "dim"
            )
        return players

    def member_count(self) -> int:
        """The members of the night: as asked, or as many as its table games seat."""
        games = self.options.games
        if any(kind in calling_games() for kind in games):
            return self.options.players
        return max(self.seated_by(kind) for kind in games)

    @staticmethod
    def seated_by(kind: str) -> int:
        """How many members a table game seats in a sandbox night."""
        plan = table_games()[kind].sandbox_plan
        return 1 if plan is None else plan.members

    def check_voice(self) -> None:
        """``--voice`` needs the voice machinery and a calling game: else nothing runs."""
        why = voice_unavailable()
        if why is not None:
            raise SandboxSetupError(f"--voice: the bot cannot speak here: {why}")
        if not any(kind in calling_games() for kind in self.options.games):
            raise SandboxSetupError(
                f"--voice: {self.options.title} has no calls to speak; choose a game of calls"
            )

    # -- acting ---------------------------------------------------------------------------------

    async def answer(self, started: InteractionResult, what: str) -> Message | None:
        """The bot's answer to an interaction, or None (recorded as a problem) if none came."""
        try:
            return await started.reply(REPLY_TIMEOUT)
        except (TimeoutError, InteractionFailedError) as error:
            self.problems.append(f"{what}: {error}")
            self.transcript.note(f"⚠ {what}: {error}", "red")
            return None

    async def play_night(self) -> None:
        """Each game of the night in turn."""
        for kind in self.options.games:
            self.kind = kind
            if len(self.options.games) > 1:
                self.transcript.note(f"Next: {game_title(kind, self.options.lang)}.", "bold")
            if kind in calling_games():
                await self.play_calling()
            else:
                await self.play_table(table_games()[kind])

    async def play_calling(self) -> None:
        """A calling game: lobby, join, start, claims as the calls come, verify, summary."""
        kind = self.kind
        host = self.players[0]
        limit = self.options.time_limit()
        for player in self.players:
            player.new_game(self.cog.sandbox_bluffs)

        started = asyncio.get_running_loop().time()
        lobby = await self.open_lobby(host)
        match = re.search(rf"gn:{kind}:join:(\d+)", " ".join(lobby.custom_ids))
        if match is None:
            raise SandboxError(f"the lobby has no Join button: {lobby.custom_ids}")
        game_id = int(match[1])
        for player in self.players:
            await self.join(player, lobby, game_id)
        table = asyncio.create_task(self.watch_calls(game_id))
        try:
            self.transcript.action(host.name, "presses Start")
            await self.answer(await host.member.click(lobby, f"gn:{kind}:start:{game_id}"), "Start")
            try:
                await asyncio.wait_for(self.game_over(game_id), limit)
            except TimeoutError:
                self.transcript.note(f"{limit:g} s are up: the host stops the game.")
                self.transcript.action(host.name, f"uses /{kind} stop")
                await self.answer(await host.member.slash(f"{kind} stop"), "stop")
                await asyncio.wait_for(self.game_over(game_id), SUMMARY_TIMEOUT)
            table.cancel()
            await self.settle_claims()
        finally:
            # Also the way out on Ctrl-C: nothing left running when the bot closes.
            table.cancel()
            for task in self.claim_tasks:
                task.cancel()
            await asyncio.gather(table, *self.claim_tasks, return_exceptions=True)
        await self.wait_for_summary(game_id)
        await self.record_voice(game_id, started)  # (the farewell heard before the verify)
        self.transcript.action(host.name, f"uses /{kind} verify game:{game_id}")
        await self.answer(await host.member.slash(f"{kind} verify", game=game_id), "verify")
        await self.summarise(game_id)

    async def open_lobby(self, host: SimulatedPlayer) -> Message:
        kind = self.kind
        options = dict(self.cog.sandbox_start)
        shown = " ".join(f"{name}:{value}" for name, value in options.items())
        if self.voice_channel is not None:
            options["voice"] = self.voice_channel
            shown += f" voice:🔊{self.voice_channel.name}"
        self.transcript.action(host.name, f"uses /{kind} start {shown}")
        lobby = await self.answer(await host.member.slash(f"{kind} start", **options), "start")
        if lobby is None:
            raise SandboxError(f"/{kind} start got no answer")
        return lobby

    async def join(self, player: SimulatedPlayer, lobby: Message, game_id: int) -> None:
        kind = self.kind
        self.transcript.action(player.name, "presses Join")
        reply = await self.answer(
            await player.member.click(lobby, f"gn:{kind}:join:{game_id}"), f"{player.name} joining"
        )
        # A game that offers a choice on joining (how many boards): one of its buttons.
        offered = [b for b in (reply.buttons if reply else []) if b.get("custom_id")]
        if reply is not None and offered:
            chosen = player.rng.choice(offered)
            label = str(chosen.get("label"))
            if label.isdigit():
                label += " " + message(f"{kind}_board", self.options.locale, count=int(label))
            self.transcript.action(player.name, f"asks for {label}")
            await self.answer(
                await player.member.click(reply, str(chosen["custom_id"])),
                f"{player.name} choosing",
            )

    async def game_over(self, game_id: int) -> GameRow:
        while True:
            game = await self.storage.get_game(game_id)
            if game is None:
                raise SandboxError(f"game {game_id} disappeared from the database")
            if not game.status.is_live:
                return game
            await asyncio.sleep(0.1)

    async def wait_for_summary(self, game_id: int) -> None:
        """The end summary reveals the seed; wait until it is in the channel."""
        game = await self.storage.get_game(game_id)
        assert game is not None
        assert game.seed is not None
        seed = game.seed.hex()
        try:
            await self.emu.wait_until(
                lambda: any(seed in m.content for m in self.channel.messages),
                SUMMARY_TIMEOUT,
                lambda: "the end summary with the seed",
            )
        except TimeoutError as error:
            self.problems.append(str(error))
            self.transcript.note(f"⚠ {error}", "red")

    # -- the table ------------------------------------------------------------------------------

    async def watch_calls(self, game_id: int) -> None:
        """On every call, each member who is free looks at their boards and may claim."""
        claim_id = f"gn:{self.kind}:claim:{game_id}"
        seen: set[int] = set()

        def new_calls() -> list[Message]:
            return [
                m for m in self.channel.messages if m.id not in seen and claim_id in m.custom_ids
            ]

        while True:
            try:
                calls = await self.emu.wait_until(new_calls, 3600, lambda: "a call")
            except TimeoutError:
                continue
            seen.update(m.id for m in calls)
            for player in self.players:
                if not player.busy:
                    player.busy = True
                    task = asyncio.create_task(self.take_turn(player, game_id, calls[-1]))
                    self.claim_tasks.add(task)
                    task.add_done_callback(self.claim_tasks.discard)

    async def take_turn(self, player: SimulatedPlayer, game_id: int, call: Message) -> None:
        try:
            game = await self.storage.get_game(game_id)
            if game is None or not game.status.is_live:
                return
            seat = await self.storage.get_player(game_id, player.member.id)
            if seat is None or seat.out:
                return
            boards = await self.storage.boards(game_id, player.member.id)
            # The calls the bot counts as seen: those whose message it has stored. A simulated
            # member reacts within milliseconds at the sandbox's speeds, before the bot has had
            # Discord's answer to its post (a person is slower); the draw after them is not
            # posted yet. A claim on more would be judged without them, and be false.
            draws = await self.storage.draws(game_id)
            seen = max((d.seq for d in draws if d.message_id is not None), default=0)
            intent = player.decide(self.cog.engine, game, boards, seen)
            if intent is None:
                return
            low, high = REACTION_SECONDS
            await asyncio.sleep(player.rng.uniform(low, high) * self.options.time_scale)
            if intent.bluff:
                player.bluffs_left -= 1
                player.bluffed.add(intent.prize)
            else:
                player.claimed.add(intent.prize)
            await self.claim(player, game_id, call, intent)
        except (DriverError, InteractionFailedError) as error:
            self.problems.append(f"{player.name}'s claim: {error}")
            self.transcript.note(f"⚠ {player.name}'s claim: {error}", "red")
        finally:
            player.busy = False

    async def claim(
        self, player: SimulatedPlayer, game_id: int, call: Message, intent: Intent
    ) -> None:
        kind = self.kind
        aside = "(a bluff)" if intent.bluff else ""
        what = f"{player.name}'s claim"
        claim_id = f"gn:{kind}:claim:{game_id}"
        if not player.claims_by_button:
            options = self.cog.claim_options(intent.prize, intent.board_number)
            shown = " ".join(f"{name}:{value}" for name, value in options.items())
            self.transcript.action(player.name, f"uses /{kind} claim {shown}", aside)
            await self.answer(await player.member.slash(f"{kind} claim", **options), what)
            return
        label = next(
            (str(b.get("label")) for b in call.buttons if b.get("custom_id") == claim_id), "Claim"
        )
        pick = self.cog.prize_pick(intent.prize)
        self.transcript.action(player.name, f"presses {label}", aside)
        picker = await self.answer(await player.member.click(call, claim_id), what)
        if pick is None:
            return  # the button claimed at once
        choice = f"gn:{kind}:{pick}:{game_id}"
        if picker is None or choice not in picker.custom_ids:
            return  # the prize went while they reached for the button
        name = next(str(b.get("label")) for b in picker.buttons if b.get("custom_id") == choice)
        self.transcript.action(player.name, f"picks {name}", aside)
        await self.answer(await player.member.click(picker, choice), what)

    async def settle_claims(self) -> None:
        """Let claims already made get their verdicts, then stop the rest."""
        pending = list(self.claim_tasks)
        if pending:
            _, late = await asyncio.wait(pending, timeout=REPLY_TIMEOUT)
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)

    # -- the voice ------------------------------------------------------------------------------

    async def record_voice(self, game_id: int, started: float) -> None:
        """With ``--voice``: once the bot has said its farewell and left, what it said in the
        game (since ``started``, the loop's clock) saved as WAV files beside the pictures, each
        call's named after its picture, the rest (wins, farewell) after the message it goes
        with."""
        if self.voice_channel is None:
            return
        call = self.emu.voice(self.guild)
        try:
            await self.emu.wait_until(
                lambda: call.channel is None or None,
                LEAVE_VOICE_TIMEOUT,
                lambda: "the bot leaving the voice channel after its farewell",
            )
        except TimeoutError as error:
            self.problems.append(str(error))
            self.transcript.note(f"⚠ {error}", "red")
        self.transcript.flush()
        game = await self.storage.get_game(game_id)
        cog = self.bot.get_cog(self.cog.__cog_name__)
        if game is None or not isinstance(cog, CallingGameCog):
            raise SandboxError(f"game {game_id} or its cog is gone")
        bot_id = self.emu.bot_user.id
        posts = []
        for draw in await self.storage.draws(game_id):
            post = self.find_message(draw.message_id)
            if post is not None:
                before, after = cog.call_phrases(game, draw.value, draw.seq)
                phrases = (*before, *after)
                made = [await self.bot.voices.speech(phrase) for phrase in phrases]
                frames = tuple(None if m is None else len(m.frames) for m in made)
                posts.append(CallPost(post, phrases, frames, after=len(after)))
        called = {post.message.id for post in posts}
        others = [
            m
            for m in self.channel.messages
            if m.author.id == bot_id and m.created >= started and m.id not in called
        ]
        spans = [span for span in call.spans() if span[0].arrived >= started]
        heard = assign_spans(spans, posts, others)
        paths = {group.message.id: self.audio_path(group.message, group.call) for group in heard}
        for spoken in save_spoken(call, heard, paths):
            self.transcript.spoken[spoken.message_id] = spoken
        if posts and not any(group.call for group in heard):
            self.problems.append("no call was heard in the voice channel")
            self.transcript.note("⚠ No call was heard in the voice channel.", "red")

    def audio_path(self, message: Message, call: bool) -> Path:
        """Where what was said with ``message`` goes: beside its first picture, named after it
        (``-said`` added for what is not a call), else after the message."""
        pictures = [self.transcript.file_of(message, a) for a in message.attachments]
        stem = pictures[0].stem if pictures else f"voice-{message.id}"
        return self.transcript.images / f"{stem}{'' if call else '-said'}.wav"

    # -- the end --------------------------------------------------------------------------------

    async def summarise(self, game_id: int) -> None:
        self.transcript.flush()
        names = {p.member.id: p.name for p in self.players}
        claims = await self.storage.claims(game_id)
        winners = await self.storage.winners(game_id)
        draws = await self.storage.draws(game_id)
        valid = sum(claim.valid for claim in claims)
        won = ", ".join(sorted({names.get(w.user_id, str(w.user_id)) for w in winners})) or "nobody"
        note = self.transcript.note
        note(
            f"Game over after {counted(len(draws), 'call', 'calls')}: {valid} valid and "
            f"{counted(len(claims) - valid, 'false claim', 'false claims')}; won by {won}.",
            "bold",
        )
        by_dm = [p.name for p in self.players if p.member.dms_open]
        if by_dm:
            note(f"Boards went by DM to {', '.join(by_dm)}.", "dim")
        for player in self.players:
            if not player.member.dms_open:
                note(
                    f"{player.name}'s DMs are closed, so their board came in a reply only "
                    "they could see.",
                    "dim",
                )

    # -- a table game ---------------------------------------------------------------------------

    async def play_table(self, cog: type[TableGameCog]) -> None:
        """A table game, played as its cog says (``TableGameCog.sandbox_plan``): the host starts
        it, against another member, the bot or alone; each member presses what the cog says
        they would (``sandbox_press``) on the game's message until it is over."""
        plan = cog.sandbox_plan
        assert plan is not None  # table_games() holds only the games with a plan
        live_cog = self.bot.get_cog(cog.__cog_name__)
        if not isinstance(live_cog, TableGameCog):
            raise SandboxError(f"the bot did not load {cog.__cog_name__}")
        kind = self.kind
        host = self.players[0]
        options: dict[str, Any] = dict(plan.start)
        shown = " ".join(f"{name}:{value}" for name, value in options.items())
        if plan.opponent is not None and len(self.players) > 1:
            options[plan.opponent] = self.players[1].member
            shown = f"{plan.opponent}:@{self.players[1].name} {shown}".strip()
        self.transcript.action(host.name, f"uses /{kind} play {shown}".rstrip())
        await self.answer(
            await host.member.slash(f"{kind} {cog.start_subcommand}", **options), "play"
        )
        games = await self.storage.live_games_of_player(host.member.id, kind)
        if not games:
            raise SandboxError(f"/{kind} {cog.start_subcommand} started no game")
        game_id = games[-1].id
        try:
            presses = await asyncio.wait_for(
                self.play_table_moves(live_cog, game_id), self.options.seconds
            )
        except TimeoutError:
            self.transcript.note(f"{self.options.seconds:g} s are up: the members stop playing.")
            presses = -1
        await self.quiet()
        await self.summarise_table(game_id, presses)

    async def play_table_moves(self, cog: TableGameCog, game_id: int) -> int:
        """Members press until the game is over; returns how many presses it took."""
        by_id = {player.member.id: player for player in self.players}
        presses = 0
        while presses < MOST_PRESSES:
            game = await self.storage.get_game(game_id)
            if game is None or not game.status.is_live:
                return presses
            press = cog.sandbox_press(game, self.rng)
            shown = self.find_message(game.lobby_message_id)
            if press is None or shown is None:
                await asyncio.sleep(0.05)  # the bot's turn, or its message is on the way
                continue
            player = by_id.get(press.user_id)
            if player is None:
                raise SandboxError(f"game {game_id} waits for user {press.user_id}, not seated")
            low, high = REACTION_SECONDS
            await asyncio.sleep(player.rng.uniform(low, high) * self.options.time_scale)
            presses += 1
            if press.values:
                self.transcript.action(player.name, f"picks {press.said or press.values[0]}")
                started = await player.member.select(shown, press.custom_id, list(press.values))
            else:
                label = press.said or self.label_of(shown, press.custom_id)
                self.transcript.action(player.name, f"presses {label}")
                started = await player.member.click(shown, press.custom_id)
            await self.answer(started, f"{player.name}'s move")
            await self.changed(game)
        raise SandboxError(f"game {game_id} is not over after {MOST_PRESSES} presses")

    def find_message(self, message_id: int | None) -> Message | None:
        """The channel's message ``message_id``, if it is there (and not deleted)."""
        if message_id is None:
            return None
        return next(
            (m for m in self.channel.all_messages if m.id == message_id and not m.deleted), None
        )

    @staticmethod
    def label_of(shown: Message, custom_id: str) -> str:
        component = shown.component(custom_id) or {}
        return str(component.get("label") or custom_id)

    async def changed(self, before: GameRow) -> None:
        """Wait until the stored game is no longer ``before`` (the press was played)."""

        async def differs() -> None:
            while True:
                now = await self.storage.get_game(before.id)
                if now is None or (now.status, now.state, now.options) != (
                    before.status,
                    before.state,
                    before.options,
                ):
                    return
                await asyncio.sleep(0.02)

        try:
            await asyncio.wait_for(differs(), REPLY_TIMEOUT)
        except TimeoutError:
            raise SandboxError(f"game {before.id} did not change after a press") from None

    async def quiet(self) -> None:
        """Let the bot finish what it posts after a game (its result, a picture)."""
        seen = (-1, -1)
        for _ in range(50):
            now = sum(len(channel.all_messages) for channel in self.emu.channels.values())
            edits = sum(
                m.edits for channel in self.emu.channels.values() for m in channel.all_messages
            )
            waiting = any(result.response_type is None for result in self.emu.interactions)
            if (now, edits) == seen and not waiting:
                return
            seen = (now, edits)
            await asyncio.sleep(0.2)

    async def summarise_table(self, game_id: int, presses: int) -> None:
        self.transcript.flush()
        names = {p.member.id: p.name for p in self.players}
        game = await self.storage.get_game(game_id)
        winners = await self.storage.winners(game_id)
        won = ", ".join(sorted({names.get(w.user_id, str(w.user_id)) for w in winners}))
        status = game.status.value if game is not None else "gone"
        moves = "" if presses < 0 else f" after {counted(presses, 'press', 'presses')}"
        self.transcript.note(
            f"Game {status}{moves}: "
            + (f"won by {won}." if won else "no member won (a draw, the bot, or unsolved)."),
            "bold",
        )

    def _report_failures(self) -> None:
        # A member with closed DMs makes the bot's DM fail on purpose; the bot falls back.
        self.emu.take_failures("dm_closed")
        for failure in self.emu.take_failures():
            self.problems.append(str(failure))
            self.transcript.note(
                f"⚠ The emulator says the bot broke a Discord rule: {failure}", "red"
            )


async def run_sandbox(options: SandboxOptions, out: TextIO, style: Style) -> int:
    with sandbox_logging(options.verbose):
        return await Sandbox(options, out, style).run()
