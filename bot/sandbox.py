"""``python -m bot sandbox``: a whole game night offline, in one process, with no Discord account.

The local Discord emulator (:mod:`emulator`) and the real bot (every cog, a throw-away SQLite
file) run together on loopback. Simulated members join the lobby, get their boards, watch the
calls and claim: honest players claim the prizes their boards complete, one or two bluffers
sometimes claim a prize they are one short of. The channel, the DMs and the private replies are
printed as they happen, and every image the bot sends is saved to a folder.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import random
import re
import secrets
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO

from bot.app import GameNightBot
from bot.calling import FALSE_CLAIM_LIMIT, MIN_INTERVAL
from bot.config import Settings
from bot.storage import BoardRow, GameRow, Storage
from emulator import (
    Attachment,
    Channel,
    DriverError,
    Emulator,
    Guild,
    InteractionFailedError,
    InteractionResult,
    Member,
    Message,
    run_bot,
)
from emulator.spec import default_spec_path, validation_unavailable
from engine.housie import HousieGame, Prize, Ticket, check_prize
from engine.loteria import LoteriaGame, Pattern, Tabla, check_claim

GAMES = ("loteria", "housie")
TITLES = {"loteria": "Lotería", "housie": "Housie"}
DEFAULT_PLAYERS = 6
MAX_PLAYERS = 24  # one name each below
DEFAULT_SPEED = 10.0
DEFAULT_IMAGES = Path("sandbox-images")
NAMES = (
    "Ana",
    "Bashir",
    "Chen",
    "Dolores",
    "Emeka",
    "Freya",
    "Gopal",
    "Hana",
    "Ignacio",
    "Jun",
    "Kofi",
    "Lucia",
    "Mateo",
    "Nadia",
    "Oskar",
    "Priya",
    "Quinn",
    "Rosa",
    "Sione",
    "Tomas",
    "Uma",
    "Vikram",
    "Wen",
    "Ximena",
)
LOTERIA_PRIZES = "line, corners, full"
HOUSIE_MAX_TICKETS = 2
# A bluffer one card short of the prize being played claims it anyway this often.
BLUFF_CHANCE = 0.35
# Seconds a person takes to notice a win, on the game's clock (scaled like the bot's timers).
REACTION_SECONDS = (0.8, 2.5)
REPLY_TIMEOUT = 15.0
SUMMARY_TIMEOUT = 10.0
EXIT_INTERRUPTED = 130


# -- options -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SandboxOptions:
    game: str = "loteria"
    players: int = DEFAULT_PLAYERS
    speed: float = DEFAULT_SPEED
    images: Path = DEFAULT_IMAGES
    seconds: float | None = None
    verbose: bool = False

    @property
    def title(self) -> str:
        return TITLES[self.game]

    @property
    def time_scale(self) -> float:
        """What the bot multiplies its timers by."""
        return 1.0 / self.speed


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be more than 0")
    return value


def _player_count(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= MAX_PLAYERS:
        raise argparse.ArgumentTypeError(f"{text!r}: choose 1 to {MAX_PLAYERS} players")
    return int(text)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot sandbox",
        description=(
            "Play a whole game night offline: a local Discord emulator, the real bot and a few "
            "simulated members who join, play and claim (some falsely). The channel is printed "
            "as it happens and every image the bot sends is saved. No Discord account needed."
        ),
        epilog=(
            "Example: python -m bot sandbox --game housie --players 4 --speed 20. "
            "Press Ctrl-C to stop at any time."
        ),
    )
    parser.add_argument(
        "--game", choices=GAMES, default="loteria", help="the game to play (default: loteria)"
    )
    parser.add_argument(
        "--players",
        type=_player_count,
        default=DEFAULT_PLAYERS,
        metavar="N",
        help=f"simulated members, the host included, 1 to {MAX_PLAYERS} (default: "
        f"{DEFAULT_PLAYERS})",
    )
    parser.add_argument(
        "--speed",
        type=_positive_float,
        default=DEFAULT_SPEED,
        metavar="X",
        help=f"run the game's clock X times faster than real time; the host picks one call "
        f"every {MIN_INTERVAL} s, so X=10 makes it one call every "
        f"{MIN_INTERVAL / DEFAULT_SPEED:g} s (default: {DEFAULT_SPEED:g})",
    )
    parser.add_argument(
        "--images",
        type=Path,
        default=DEFAULT_IMAGES,
        metavar="DIR",
        help="save every image the bot sends under DIR, in a new folder per run "
        f"(default: ./{DEFAULT_IMAGES}/)",
    )
    parser.add_argument(
        "--seconds",
        type=_positive_float,
        default=None,
        metavar="LIMIT",
        help="stop the game (as the host would) if it is still on LIMIT seconds after it starts",
    )
    parser.add_argument(
        "--verbose", action="store_true", help="also log what the bot and discord.py do"
    )
    return parser


def parse_options(argv: Sequence[str]) -> SandboxOptions:
    """Options from the command line; argparse exits (status 2) on bad ones."""
    parsed = build_parser().parse_args(list(argv))
    return SandboxOptions(
        game=parsed.game,
        players=parsed.players,
        speed=parsed.speed,
        images=parsed.images,
        seconds=parsed.seconds,
        verbose=parsed.verbose,
    )


# -- terminal output ---------------------------------------------------------------------------


def wants_colour(stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """ANSI colour only on a terminal, and never when NO_COLOR is set (https://no-color.org)."""
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR") or env.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class Style:
    """ANSI styling that becomes plain text when colour is off.

    Each style ends with its own "off" code rather than a full reset, so styles can nest.
    """

    _CODES: Mapping[str, tuple[str, str]] = {
        "bold": ("1", "22"),
        "dim": ("2", "22"),
        "red": ("31", "39"),
        "green": ("32", "39"),
        "yellow": ("33", "39"),
        "blue": ("34", "39"),
        "magenta": ("35", "39"),
        "cyan": ("36", "39"),
    }

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __call__(self, text: str, *names: str) -> str:
        if not self.enabled or not names:
            return text
        on = ";".join(self._CODES[name][0] for name in names)
        off = ";".join(dict.fromkeys(self._CODES[name][1] for name in names))
        return f"\x1b[{on}m{text}\x1b[{off}m"


_MENTION = re.compile(r"<@!?(\d+)>")
_CHANNEL = re.compile(r"<#(\d+)>")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_CODE = re.compile(r"`([^`\n]+)`")
_HEADING = re.compile(r"^#{1,3} +")


def format_content(
    text: str, style: Style, users: Mapping[int, str], channels: Mapping[int, str]
) -> list[str]:
    """Discord markdown as terminal lines: mentions by name, bold, code and headings styled."""

    def user(match: re.Match[str]) -> str:
        return style("@" + users.get(int(match[1]), match[1]), "cyan")

    def channel(match: re.Match[str]) -> str:
        return style("#" + channels.get(int(match[1]), match[1]), "cyan")

    lines = []
    for raw in text.splitlines() or [""]:
        heading = _HEADING.match(raw)
        line = raw[heading.end() :] if heading else raw
        line = _MENTION.sub(user, line)
        line = _CHANNEL.sub(channel, line)
        line = _BOLD.sub(lambda m: style(m[1], "bold"), line)
        line = _CODE.sub(lambda m: style(m[1], "yellow"), line)
        lines.append(style(line, "bold") if heading else line)
    return lines


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"


class Transcript:
    """Prints what members see as it happens and saves every image the bot sends."""

    def __init__(self, emu: Emulator, out: TextIO, style: Style, images: Path) -> None:
        self.emu = emu
        self.out = out
        self.style = style
        self.images = images
        self.saved: list[Path] = []
        self._shown: dict[int, str] = {}
        self._saved_ids: set[int] = set()
        self._started = time.monotonic()

    # Writing

    def _write(self, lines: Sequence[str]) -> None:
        encoding = getattr(self.out, "encoding", None) or "utf-8"
        for line in lines:
            # A terminal that cannot show an emoji gets a "?" rather than a crash.
            safe = line.encode(encoding, "replace").decode(encoding, "replace")
            self.out.write(safe + "\n")
        self.out.flush()

    def _stamp(self) -> str:
        return self.style(f"{time.monotonic() - self._started:6.1f}s", "dim")

    def note(self, text: str, *styles: str) -> None:
        """A line from the sandbox itself (not something seen in Discord)."""
        self._write([f"{self._stamp()} {self.style(text, *styles)}"])

    def action(self, who: str, what: str, aside: str = "") -> None:
        """Something a simulated member does (after what they have seen so far)."""
        self.flush()
        extra = f" {self.style(aside, 'dim')}" if aside else ""
        self._write([f"{self._stamp()} {self.style('▶ ' + who, 'green', 'bold')} {what}{extra}"])

    # Following the emulator

    def news(self) -> list[Message]:
        """Messages not shown yet or edited since, oldest first (loading placeholders wait)."""
        fresh = [
            message
            for channel in list(self.emu.channels.values())
            for message in channel.all_messages
            if not message.deleted
            and not message.loading
            and self._shown.get(message.id) != message.content
        ]
        return sorted(fresh, key=lambda message: message.id)

    def flush(self) -> None:
        for message in self.news():
            self.show(message)

    async def follow(self) -> None:
        """Print news until cancelled."""
        while True:
            with contextlib.suppress(TimeoutError):
                await self.emu.wait_until(self.news, 3600, lambda: "news")
            self.flush()

    def _where(self, message: Message) -> tuple[str, str, str]:
        """How to show where a message is, its colour, and a slug for image names."""
        channel = message.channel
        if channel.is_dm and channel.recipient is not None:
            name = channel.recipient.name
            return f"DM to {name}", "magenta", f"dm-{slug(name)}"
        if message.ephemeral_for is not None:
            viewer = self.emu.get_user(message.ephemeral_for)
            name = viewer.name if viewer else str(message.ephemeral_for)
            return f"#{channel.name}, only {name} sees", "dim", f"only-{slug(name)}"
        return f"#{channel.name}", "blue", slug(channel.name)

    def show(self, message: Message) -> None:
        users = {user_id: user.name for user_id, user in self.emu.users.items()}
        channels = {channel_id: channel.name for channel_id, channel in self.emu.channels.items()}
        where, colour, place = self._where(message)
        previous = self._shown.get(message.id)
        self._shown[message.id] = message.content
        lines = format_content(message.content, self.style, users, channels)
        label = f"[{where}] {message.author.name}:"
        if previous is not None:
            # An edit (the lobby's player count, say): show only the lines that changed.
            old = set(format_content(previous, self.style, users, channels))
            lines = [line for line in lines if line not in old] or ["(edited)"]
            label = f"[{where}] {message.author.name} (edited):"
        files = [self._save(message, place, attachment) for attachment in message.attachments]
        files = [name for name in files if name]
        if files:
            lines[-1] += " " + self.style("🖼 " + ", ".join(files), "dim")
        first_colour = self._tone(message.content, colour)
        indent = " " * 8
        head = f"{self._stamp()} {self.style(label, colour)} {self.style(lines[0], *first_colour)}"
        self._write([head, *(indent + self.style(line, *first_colour) for line in lines[1:])])

    @staticmethod
    def _tone(content: str, colour: str) -> tuple[str, ...]:
        if content.startswith("🎉"):
            return ("green",)
        if content.startswith("❌"):
            return ("red",)
        return ("dim",) if colour == "dim" else ()

    def _save(self, message: Message, place: str, attachment: Attachment) -> str:
        if attachment.id in self._saved_ids:
            return ""
        self._saved_ids.add(attachment.id)
        name = f"{len(self.saved) + 1:04d}-{place}-{slug(Path(attachment.filename).stem)}"
        path = self.images / (name + (Path(attachment.filename).suffix or ".png"))
        path.write_bytes(attachment.data)
        self.saved.append(path)
        return path.name


# -- simulated members ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Intent:
    """A claim a member is about to make: ``prize`` code, which board, and whether it's a bluff."""

    prize: str
    board_number: int | None
    bluff: bool


def loteria_cards_missing(tabla: Tabla, called: Sequence[int], pattern: Pattern) -> int:
    """The fewest uncalled cards between ``tabla`` and ``pattern``."""
    seen = set(called)
    return min(
        sum(
            1
            for cell, number in enumerate(tabla.numbers)
            if mask >> cell & 1 and number not in seen
        )
        for mask in pattern.masks
    )


def housie_numbers_missing(ticket: Ticket, called: Sequence[int], prize: Prize) -> int:
    """How many more of the ticket's numbers must be called for ``prize``."""
    needed = ticket.prize_numbers(prize)
    hits = len(needed & set(called))
    if prize is Prize.EARLY_FIVE:
        return max(0, 5 - hits)
    return len(needed) - hits


@dataclass
class SimulatedPlayer:
    """A member at the table. Honest players claim what they completed; a bluffer also claims,
    now and then, a prize they are one short of (up to ``bluffs_left`` times, once per prize)."""

    member: Member
    rng: random.Random
    bluffs_left: int = 0
    claims_by_button: bool = False
    claimed: set[str] = field(default_factory=set)
    bluffed: set[str] = field(default_factory=set)
    busy: bool = False

    @property
    def name(self) -> str:
        return self.member.name

    @property
    def bluffer(self) -> bool:
        return self.bluffs_left > 0

    def _maybe_bluff(self, prize: str, board_number: int | None, missing: int) -> Intent | None:
        if (
            self.bluffs_left > 0
            and prize not in self.bluffed
            and missing == 1
            and self.rng.random() < BLUFF_CHANCE
        ):
            return Intent(prize, board_number, bluff=True)
        return None

    def decide_loteria(self, game: GameRow, boards: Sequence[BoardRow]) -> Intent | None:
        state = LoteriaGame.from_state(game.state)
        pattern = state.current_prize
        if pattern is None or not boards or pattern.value in self.claimed:
            return None
        tabla = Tabla.from_state(boards[0].state)
        if check_claim(tabla, state.called, pattern, deck=state.deck).valid:
            return Intent(pattern.value, None, bluff=False)
        return self._maybe_bluff(
            pattern.value, None, loteria_cards_missing(tabla, state.called, pattern)
        )

    def decide_housie(self, game: GameRow, boards: Sequence[BoardRow]) -> Intent | None:
        state = HousieGame.from_state(game.state)
        live = [board for board in boards if not board.out]
        open_prizes = [p for p in state.claimable_prizes if p.value not in self.claimed]
        tickets = [(board.board_index + 1, Ticket.from_state(board.state)) for board in live]
        for prize in open_prizes:
            for number, ticket in tickets:
                if check_prize(ticket, state.called, prize).valid:
                    return Intent(prize.value, number, bluff=False)
        for prize in open_prizes:
            for number, ticket in tickets:
                missing = housie_numbers_missing(ticket, state.called, prize)
                intent = self._maybe_bluff(prize.value, number, missing)
                if intent is not None:
                    return intent
        return None


# -- the sandbox ---------------------------------------------------------------------------------


class SandboxError(Exception):
    """Something went wrong that the person running the sandbox should hear about."""


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
        return folder
    raise SandboxError(f"could not make a new folder under {parent}")


class Sandbox:
    """One run: the emulator, the bot, the members and the transcript."""

    emu: Emulator
    transcript: Transcript
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

    async def run(self) -> int:
        options = self.options
        images = new_run_folder(options.images, options.game)
        with tempfile.TemporaryDirectory(
            prefix="gamenight-sandbox-", ignore_cleanup_errors=True
        ) as temp:
            async with Emulator(strict=False, bot_name="Game Night") as emu:
                self.emu = emu
                self.transcript = Transcript(emu, self.out, self.style, images)
                self._introduce(images)
                guild = emu.add_guild("Sandbox")
                self.channel = guild.add_channel("game-night")
                self.players = self._seat_players(guild)
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
        return 1 if self.problems else 0

    def _introduce(self, images: Path) -> None:
        options = self.options
        note = self.transcript.note
        note(
            f"Game Night sandbox: {options.title} with {options.players} simulated members.", "bold"
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

    def _seat_players(self, guild: Guild) -> list[SimulatedPlayer]:
        count = self.options.players
        bluffers = 0 if count < 2 else 1 if count < 5 else 2
        closed_dms = 2 if count >= 3 else None  # one member shows where boards go without DMs
        bluffs = FALSE_CLAIM_LIMIT if self.options.game == "loteria" else 1
        players = []
        for index in range(count):
            name = NAMES[index]
            member = guild.add_member(name, dms_open=index != closed_dms)
            players.append(
                SimulatedPlayer(
                    member,
                    random.Random(self.rng.getrandbits(64)),
                    bluffs_left=bluffs if index >= count - bluffers else 0,
                    claims_by_button=index % 2 == 1,
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
        options = self.options
        kind = options.game
        host = self.players[0]

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
                await asyncio.wait_for(self.game_over(game_id), options.seconds)
            except TimeoutError:
                self.transcript.note(f"{options.seconds:g} s are up: the host stops the game.")
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
        self.transcript.action(host.name, f"uses /{kind} verify game:{game_id}")
        await self.answer(await host.member.slash(f"{kind} verify", game=game_id), "verify")
        await self.summarise(game_id)

    async def open_lobby(self, host: SimulatedPlayer) -> Message:
        kind = self.options.game
        options: dict[str, Any]
        if kind == "loteria":
            options = {"prizes": LOTERIA_PRIZES, "interval": MIN_INTERVAL}
        else:
            options = {"tickets": HOUSIE_MAX_TICKETS, "interval": MIN_INTERVAL}
        shown = " ".join(f"{name}:{value}" for name, value in options.items())
        self.transcript.action(host.name, f"uses /{kind} start {shown}")
        lobby = await self.answer(await host.member.slash(f"{kind} start", **options), "start")
        if lobby is None:
            raise SandboxError(f"/{kind} start got no answer")
        return lobby

    async def join(self, player: SimulatedPlayer, lobby: Message, game_id: int) -> None:
        kind = self.options.game
        self.transcript.action(player.name, "presses Join")
        reply = await self.answer(
            await player.member.click(lobby, f"gn:{kind}:join:{game_id}"), f"{player.name} joining"
        )
        counts = [c for c in (reply.custom_ids if reply else []) if ":tickets" in c]
        if reply is not None and counts:
            wanted = player.rng.randint(1, len(counts))
            word = "ticket" if wanted == 1 else "tickets"
            self.transcript.action(player.name, f"asks for {wanted} {word}")
            await self.answer(
                await player.member.click(reply, f"gn:{kind}:tickets{wanted}:{game_id}"),
                f"{player.name} choosing tickets",
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
        claim_id = f"gn:{self.options.game}:claim:{game_id}"
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
            if self.options.game == "loteria":
                intent = player.decide_loteria(game, boards)
            else:
                intent = player.decide_housie(game, boards)
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
        kind = self.options.game
        aside = "(a bluff)" if intent.bluff else ""
        what = f"{player.name}'s claim"
        claim_id = f"gn:{kind}:claim:{game_id}"
        if not player.claims_by_button:
            options: dict[str, Any]
            if kind == "loteria":
                options = {"pattern": intent.prize}
            else:
                options = {"prize": intent.prize, "ticket": intent.board_number}
            shown = " ".join(f"{name}:{value}" for name, value in options.items())
            self.transcript.action(player.name, f"uses /{kind} claim {shown}", aside)
            await self.answer(await player.member.slash(f"{kind} claim", **options), what)
            return
        label = next(
            (str(b.get("label")) for b in call.buttons if b.get("custom_id") == claim_id), "Claim"
        )
        if kind == "loteria":
            self.transcript.action(player.name, f"presses {label}", aside)
            await self.answer(await player.member.click(call, claim_id), what)
            return
        prize = Prize(intent.prize)
        self.transcript.action(player.name, f"presses {label}", aside)
        picker = await self.answer(await player.member.click(call, claim_id), what)
        choice = f"gn:{kind}:prize{list(Prize).index(prize)}:{game_id}"
        if picker is None or choice not in picker.custom_ids:
            return  # the prize went while they reached for the button
        self.transcript.action(player.name, f"picks {prize.display_name}", aside)
        await self.answer(await player.member.click(picker, choice), what)

    async def settle_claims(self) -> None:
        """Let claims already made get their verdicts, then stop the rest."""
        pending = list(self.claim_tasks)
        if pending:
            _, late = await asyncio.wait(pending, timeout=REPLY_TIMEOUT)
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)

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
            f"Game over after {len(draws)} calls: {valid} valid and {len(claims) - valid} false "
            f"claims; won by {won}.",
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
        folder = self.transcript.images
        note(f"{len(self.transcript.saved)} images saved in {folder}/", "bold")

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


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bot sandbox [options]``: 0 once the game is over, 1 if something went wrong,
    2 for bad options, 130 after Ctrl-C."""
    try:
        options = parse_options(sys.argv[1:] if argv is None else argv)
    except SystemExit as exit_request:  # --help, or bad options (argparse printed why)
        code = exit_request.code
        return code if isinstance(code, int) else 0 if code is None else 2
    out = sys.stdout
    style = Style(wants_colour(out))
    try:
        return asyncio.run(run_sandbox(options, out, style))
    except KeyboardInterrupt:
        print("\nStopped (Ctrl-C). The emulator and the bot are closed.", file=out)
        return EXIT_INTERRUPTED
    except SandboxError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
