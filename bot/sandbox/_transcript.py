"""What the sandbox prints: Discord's markdown as terminal lines (mentions by name, bold, code,
headings), ANSI colour only on a terminal and never under ``NO_COLOR`` (https://no-color.org),
and the :class:`Transcript` that follows the emulator, printing the channel, the DMs and the
private replies as they happen and saving every image the bot sends.
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from emulator import Attachment, Emulator, Message

if TYPE_CHECKING:
    from bot.sandbox._voice import Spoken


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
        self.files: dict[int, Path] = {}  # each saved attachment's file, by attachment id
        self.spoken: dict[int, Spoken] = {}  # with --voice: what was said, by message id
        self._shown: dict[int, str] = {}
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

    @property
    def shown(self) -> list[int]:
        """The ids of the messages printed so far, oldest first."""
        return sorted(self._shown)

    def file_of(self, message: Message, attachment: Attachment) -> Path:
        """The saved file of one of ``message``'s attachments (saved now if it was not)."""
        if attachment.id not in self.files:
            self._save(message, self._where(message)[2], attachment)
        return self.files[attachment.id]

    def _save(self, message: Message, place: str, attachment: Attachment) -> str:
        if attachment.id in self.files:
            return ""
        name = f"{len(self.saved) + 1:04d}-{place}-{slug(Path(attachment.filename).stem)}"
        path = self.images / (name + (Path(attachment.filename).suffix or ".png"))
        path.write_bytes(attachment.data)
        self.saved.append(path)
        self.files[attachment.id] = path
        return path.name
