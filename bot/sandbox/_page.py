"""The night as one page: ``index.html`` beside the saved images, the channel and each member's
DMs laid out as Discord shows them: messages in order with their author and time, pictures
inline with their alt text, buttons and selects drawn, private replies marked as seen by one
member only; with ``--voice``, what the bot said in the voice channel as an audio player beside
the call it goes with. Self-contained: the pictures (and recordings) are relative links to the files beside it, the style is
in the page, there is no script, and nothing is fetched from the network.

Every text on it is escaped: member names, channel names and message contents are user input.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from html import escape
from pathlib import Path
from typing import Any

from bot.sandbox._transcript import Transcript, slug
from emulator import Channel, Emulator, Message
from emulator.model import DISCORD_EPOCH_MS

PAGE_NAME = "index.html"

# Discord's button styles (primary, secondary, success, danger, link, premium) as CSS classes.
BUTTON_STYLES = {1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link", 6: "premium"}
SELECT_TYPES = {3, 5, 6, 7, 8}
AVATAR_COLOURS = ("#5865f2", "#57f287", "#eb459e", "#ed4245", "#faa61a", "#3ba55d", "#9b59b6")

# The page's own few words, in the night's language (Discord's, around the bot's messages).
WORDS = {
    "en": {
        "used": "used",
        "only": "Only {name} can see this (a private reply)",
        "dms": "direct messages",
        "messages": "messages",
        "edited": "(edited)",
        "spoken": "Said in the voice channel",
    },
    "es": {
        "used": "usó",
        "only": "Solo {name} puede ver esto (una respuesta privada)",
        "dms": "mensajes directos",
        "messages": "mensajes",
        "edited": "(editado)",
        "spoken": "Dicho en el canal de voz",
    },
}

_USER = re.compile(r"&lt;@!?(\d+)&gt;")
_CHANNEL = re.compile(r"&lt;#(\d+)&gt;")
_STAMP = re.compile(r"&lt;t:(-?\d+)(?::([tTdDfFR]))?&gt;")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_UNDERLINE = re.compile(r"__(.+?)__")
_ITALIC = re.compile(r"(?<![*\w])[*_](?![\s*_])(.+?)(?<![\s*_])[*_](?![*\w])")
_STRIKE = re.compile(r"~~(.+?)~~")
_CODE = re.compile(r"`([^`\n]+)`")
_LINK = re.compile(r"(https?://[^\s<>&]+)")
_HEADING = re.compile(r"^(#{1,3}) +")

STYLE = """
:root { color-scheme: dark; }
* { box-sizing: border-box; }
body { margin: 0; background: #313338; color: #dbdee1; line-height: 1.375;
  font: 16px/1.375 "gg sans", "Noto Sans", "Helvetica Neue", Helvetica, Arial, sans-serif; }
header.night { padding: 16px; background: #2b2d31; border-bottom: 1px solid #1f2023; }
header.night h1 { margin: 0 0 4px; font-size: 20px; color: #f2f3f5; }
header.night p { margin: 0; color: #949ba4; font-size: 14px; }
nav ul { list-style: none; margin: 8px 0 0; padding: 0; display: flex; flex-wrap: wrap; gap: 6px; }
nav a { display: inline-block; padding: 2px 8px; border-radius: 4px; background: #404249;
  color: #dbdee1; text-decoration: none; font-size: 14px; }
section.place { max-width: 960px; margin: 0 auto; padding: 8px 0 24px; }
section.place > h2 { margin: 0; padding: 12px 16px; font-size: 16px; color: #f2f3f5;
  border-bottom: 1px solid #1f2023; position: sticky; top: 0; background: #313338; z-index: 1; }
section.place > h2 .hash { color: #80848e; margin-right: 4px; }
ol.messages { list-style: none; margin: 0; padding: 0; }
li.message { display: flex; gap: 12px; padding: 6px 16px; min-width: 0; }
li.message:hover { background: #2e3035; }
li.message.ephemeral { background: rgba(88, 101, 242, 0.08); border-left: 2px solid #5865f2; }
.avatar { flex: 0 0 40px; width: 40px; height: 40px; border-radius: 50%; display: flex;
  align-items: center; justify-content: center; color: #fff; font-weight: 600; }
.body { flex: 1 1 auto; min-width: 0; }
.head { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0 8px; }
.author { font-weight: 600; color: #f2f3f5; }
.tag { background: #5865f2; color: #fff; font-size: 10px; font-weight: 600; padding: 1px 4px;
  border-radius: 3px; text-transform: uppercase; }
time, .edited { color: #949ba4; font-size: 12px; }
.content { white-space: pre-wrap; overflow-wrap: anywhere; }
.content .line { display: block; min-height: 1.375em; }
.content h3.heading { margin: 4px 0; font-size: 20px; color: #f2f3f5; }
.content h4.heading { margin: 4px 0; font-size: 18px; color: #f2f3f5; }
.content h5.heading { margin: 4px 0; font-size: 16px; color: #f2f3f5; }
.content .subtext { font-size: 13px; color: #949ba4; }
.content blockquote { margin: 0; padding-left: 10px; border-left: 4px solid #4e5058; }
.mention { background: rgba(88, 101, 242, 0.3); color: #c9cdfb; border-radius: 3px; padding: 0 2px; }
code { background: #2b2d31; border: 1px solid #1f2023; border-radius: 4px; padding: 0 3px;
  font-size: 85%; font-family: Consolas, "Andale Mono", monospace; overflow-wrap: anywhere; }
a { color: #00a8fc; }
figure.picture { margin: 6px 0 0; max-width: 520px; }
figure.picture img { display: block; max-width: 100%; height: auto; border-radius: 8px; }
figure.picture figcaption { font-size: 12px; color: #949ba4; margin-top: 2px; }
figure.picture figcaption b { background: #1e1f22; color: #dbdee1; border-radius: 3px;
  padding: 0 3px; margin-right: 4px; font-size: 10px; }
.embed { margin-top: 6px; padding: 8px 12px; background: #2b2d31; border-left: 4px solid #1e1f22;
  border-radius: 4px; max-width: 520px; overflow-wrap: anywhere; }
.embed .title { font-weight: 600; color: #f2f3f5; }
.row { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 8px; }
.button { display: inline-flex; align-items: center; gap: 4px; min-height: 32px; min-width: 32px;
  padding: 2px 16px; border-radius: 8px; font-size: 14px; font-weight: 500; color: #fff;
  justify-content: center; max-width: 100%; overflow-wrap: anywhere; }
.button.primary { background: #5865f2; }
.button.secondary { background: #4e5058; }
.button.success { background: #248046; }
.button.danger { background: #da373c; }
.button.link, .button.premium { background: #4e5058; }
.button.disabled { opacity: 0.5; }
.select { display: flex; justify-content: space-between; gap: 8px; width: 100%; max-width: 400px;
  min-height: 40px; padding: 8px; background: #1e1f22; border: 1px solid #1e1f22;
  border-radius: 4px; color: #949ba4; font-size: 14px; }
.select .count { color: #6d6f78; white-space: nowrap; }
.used { font-size: 13px; color: #949ba4; margin-bottom: 2px; overflow-wrap: anywhere; }
.used .command { color: #c9cdfb; }
.only { margin-top: 4px; font-size: 12px; color: #949ba4; }
footer { max-width: 960px; margin: 0 auto; padding: 16px; color: #949ba4; font-size: 13px; }
"""
# Only on a page with recordings (``--voice``): a page without them stays as it was.
VOICE_STYLE = """
figure.voice { margin: 6px 0 0; max-width: 520px; }
figure.voice audio { display: block; width: 100%; }
figure.voice figcaption { font-size: 12px; color: #949ba4; margin-top: 2px; overflow-wrap: anywhere; }
"""


def message_time(message: Message) -> datetime:
    """When a message was sent, read from its id (a snowflake), in local time."""
    return datetime.fromtimestamp(
        ((message.id >> 22) + DISCORD_EPOCH_MS) / 1000, tz=UTC
    ).astimezone()


def avatar_colour(user_id: int) -> str:
    digest = hashlib.sha256(str(user_id).encode()).digest()
    return AVATAR_COLOURS[digest[0] % len(AVATAR_COLOURS)]


class Markdown:
    """Discord's markdown as HTML, the text escaped first: mentions by name, bold, italics,
    underline, strike-through, code, headings, small text, quotes, timestamps and links."""

    def __init__(self, users: Mapping[int, str], channels: Mapping[int, str]) -> None:
        self.users = users
        self.channels = channels

    def inline(self, text: str) -> str:
        html = escape(text, quote=True)
        codes: list[str] = []

        def keep_code(match: re.Match[str]) -> str:
            codes.append(f"<code>{match[1]}</code>")
            return f"\x00{len(codes) - 1}\x00"

        html = _CODE.sub(keep_code, html)  # nothing inside code is formatted
        html = _USER.sub(self._user, html)
        html = _CHANNEL.sub(self._channel, html)
        html = _STAMP.sub(_stamp, html)
        html = _LINK.sub(r'<a href="\1" rel="noreferrer">\1</a>', html)
        html = _BOLD.sub(r"<strong>\1</strong>", html)
        html = _UNDERLINE.sub(r"<u>\1</u>", html)
        html = _STRIKE.sub(r"<s>\1</s>", html)
        html = _ITALIC.sub(r"<em>\1</em>", html)
        return re.sub("\x00(\\d+)\x00", lambda match: codes[int(match[1])], html)

    def _user(self, match: re.Match[str]) -> str:
        name = self.users.get(int(match[1]), match[1])
        return f'<span class="mention">@{escape(name)}</span>'

    def _channel(self, match: re.Match[str]) -> str:
        name = self.channels.get(int(match[1]), match[1])
        return f'<span class="mention">#{escape(name)}</span>'

    def block(self, text: str) -> str:
        lines = []
        for raw in text.split("\n"):
            heading = _HEADING.match(raw)
            if heading:
                level = len(heading[1]) + 2  # Discord's # is a little smaller than a page's h1
                body = self.inline(raw[heading.end() :])
                lines.append(f'<h{level} class="heading">{body}</h{level}>')
            elif raw.startswith("-# "):
                lines.append(f'<span class="line subtext">{self.inline(raw[3:])}</span>')
            elif raw.startswith("> "):
                lines.append(f"<blockquote>{self.inline(raw[2:])}</blockquote>")
            else:
                lines.append(f'<span class="line">{self.inline(raw)}</span>')
        return "".join(lines)


def _stamp(match: re.Match[str]) -> str:
    moment = datetime.fromtimestamp(int(match[1]), tz=UTC).astimezone()
    return f'<time datetime="{moment.isoformat()}">{moment:%H:%M:%S}</time>'


def _components(components: Iterable[dict[str, Any]], inline: Callable[[str], str]) -> str:
    rows = []
    for row in components:
        children = row.get("components", []) if row.get("type") == 1 else [row]
        drawn = [_component(child, inline) for child in children]
        rows.append(f'<div class="row">{"".join(drawn)}</div>')
    return "".join(rows)


def _component(component: dict[str, Any], inline: Callable[[str], str]) -> str:
    kind = component.get("type")
    if kind == 2:
        style = BUTTON_STYLES.get(int(component.get("style", 2)), "secondary")
        disabled = " disabled" if component.get("disabled") else ""
        emoji = component.get("emoji") or {}
        parts = [escape(str(emoji["name"]))] if emoji.get("name") else []
        label = str(component.get("label") or "").strip("\u200b")
        if label:
            parts.append(inline(label))
        if style == "link":
            parts.append("↗")
        return f'<span class="button {style}{disabled}" role="button">{" ".join(parts)}</span>'
    if kind in SELECT_TYPES:
        placeholder = inline(str(component.get("placeholder") or "Make a selection"))
        options = component.get("options")
        count = f'<span class="count">{len(options)} ▾</span>' if options else "▾"
        return f'<span class="select" role="listbox">{placeholder}{count}</span>'
    return ""


def _embeds(embeds: Sequence[dict[str, Any]], block: Callable[[str], str]) -> str:
    drawn = []
    for embed in embeds:
        parts = []
        if embed.get("title"):
            parts.append(f'<div class="title">{block(str(embed["title"]))}</div>')
        if embed.get("description"):
            parts.append(f"<div>{block(str(embed['description']))}</div>")
        for item in embed.get("fields", []):
            parts.append(f'<div class="title">{block(str(item.get("name", "")))}</div>')
            parts.append(f"<div>{block(str(item.get('value', '')))}</div>")
        drawn.append(f'<div class="embed">{"".join(parts)}</div>')
    return "".join(drawn)


class PageWriter:
    """One sandbox run's page, from the emulator's messages and the transcript's saved files."""

    def __init__(self, emu: Emulator, transcript: Transcript, title: str, lang: str) -> None:
        self.emu = emu
        self.transcript = transcript
        self.title = title
        self.lang = lang
        users = {user_id: user.name for user_id, user in emu.users.items()}
        channels = {channel_id: channel.name for channel_id, channel in emu.channels.items()}
        self.markdown = Markdown(users, channels)
        self.folder = transcript.images
        self.words = WORDS.get(lang, WORDS["en"])

    def messages(self, channel: Channel) -> list[Message]:
        """The messages of ``channel`` the transcript printed, as they are now, oldest first."""
        shown = set(self.transcript.shown)
        return [
            m
            for m in sorted(channel.all_messages, key=lambda m: m.id)
            if m.id in shown and not m.deleted and not m.loading
        ]

    def places(self) -> list[tuple[str, str, Channel]]:
        """Each channel with messages, then each member's DMs: (anchor, heading, channel)."""
        guilds = [c for c in self.emu.channels.values() if not c.is_dm]
        dms = sorted(
            (c for c in self.emu.channels.values() if c.is_dm and c.recipient is not None),
            key=lambda c: c.recipient.name if c.recipient else "",
        )
        found = []
        for channel in guilds:
            if self.messages(channel):
                heading = f'<span class="hash">#</span>{escape(channel.name)}'
                found.append((f"channel-{slug(channel.name)}-{channel.id}", heading, channel))
        for channel in dms:
            if self.messages(channel) and channel.recipient is not None:
                name = escape(channel.recipient.name)
                heading = f'<span class="hash">@</span>{name} · {self._dm_word()}'
                found.append((f"dm-{slug(channel.recipient.name)}-{channel.id}", heading, channel))
        return found

    def _dm_word(self) -> str:
        return self.words["dms"]

    def message_html(self, message: Message) -> str:
        author = message.author
        classes = "message ephemeral" if message.ephemeral_for is not None else "message"
        moment = message_time(message)
        head = [f'<span class="author">{escape(author.name)}</span>']
        if author.bot:
            head.append('<span class="tag">bot</span>')
        head.append(f'<time datetime="{moment.isoformat()}">{moment:%H:%M:%S}</time>')
        if message.edited_at:
            head.append(f'<span class="edited">{self.words["edited"]}</span>')
        body = []
        used = message.interaction_metadata or {}
        if used.get("name"):
            user = used.get("user") or {}
            who = escape(str(user.get("global_name") or user.get("username") or ""))
            body.append(
                f'<div class="used">@{who} {self.words["used"]} '
                f'<span class="command">/{escape(str(used["name"]))}</span></div>'
            )
        body.append(f'<div class="head">{"".join(head)}</div>')
        if message.content:
            body.append(f'<div class="content">{self.markdown.block(message.content)}</div>')
        body.append(_embeds(message.embeds, self.markdown.block))
        for attachment in message.attachments:
            path = self.transcript.file_of(message, attachment)
            alt = attachment.description or attachment.filename
            src = escape(path.relative_to(self.folder).as_posix(), quote=True)
            body.append(
                f'<figure class="picture"><img src="{src}" alt="{escape(alt, quote=True)}">'
                f"<figcaption><b>ALT</b>{escape(alt)}</figcaption></figure>"
            )
        spoken = self.transcript.spoken.get(message.id)
        if spoken is not None:
            src = escape(spoken.path.relative_to(self.folder).as_posix(), quote=True)
            said = " · ".join(phrase.text for phrase in spoken.phrases) or self.words["spoken"]
            body.append(
                f'<figure class="voice"><audio controls preload="none" src="{src}"></audio>'
                f"<figcaption>🔊 {escape(said)} ({spoken.seconds:.1f} s)</figcaption></figure>"
            )
        body.append(_components(message.components, self.markdown.inline))
        if message.ephemeral_for is not None:
            viewer = self.emu.get_user(message.ephemeral_for)
            name = escape(viewer.name if viewer else str(message.ephemeral_for))
            only = self.words["only"].format(name=name)
            body.append(f'<div class="only">{only}</div>')
        initial = escape(author.name[:1].upper() or "?")
        avatar = f'<div class="avatar" style="background:{avatar_colour(author.id)}" aria-hidden="true">{initial}</div>'
        return (
            f'<li class="{classes}" id="m{message.id}" data-author="{escape(author.name, quote=True)}">'
            f'{avatar}<div class="body">{"".join(body)}</div></li>'
        )

    def html(self) -> str:
        places = self.places()
        count = sum(len(self.messages(channel)) for _, _, channel in places)
        nav = "".join(
            f'<li><a href="#{anchor}">{heading}</a></li>' for anchor, heading, _ in places
        )
        sections = []
        for anchor, heading, channel in places:
            items = "".join(self.message_html(m) for m in self.messages(channel))
            sections.append(
                f'<section class="place" id="{anchor}"><h2>{heading}</h2>'
                f'<ol class="messages">{items}</ol></section>'
            )
        title = escape(f"Game Night sandbox: {self.title}")
        when = datetime.now().astimezone()
        style = STYLE + VOICE_STYLE if self.transcript.spoken else STYLE
        return (
            f'<!doctype html>\n<html lang="{escape(self.lang, quote=True)}">\n<head>\n'
            '<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{title}</title>\n<style>{style}</style>\n</head>\n<body>\n"
            f'<header class="night"><h1>{title}</h1>'
            f'<p><time datetime="{when.isoformat()}">{when:%Y-%m-%d %H:%M}</time> · '
            f'<span class="count" data-messages="{count}">{count} {self.words["messages"]}</span></p>'
            f"<nav><ul>{nav}</ul></nav></header>\n<main>{''.join(sections)}</main>\n"
            "<footer>Played offline by <code>python -m bot sandbox</code>: the real bot against "
            "a local Discord emulator. The pictures are the files beside this page.</footer>\n"
            "</body>\n</html>\n"
        )


def write_page(emu: Emulator, transcript: Transcript, title: str, lang: str) -> Path:
    """Write the night's page beside its images; returns its path."""
    transcript.flush()
    page = transcript.images / PAGE_NAME
    page.write_text(PageWriter(emu, transcript, title, lang).html(), encoding="utf-8")
    return page
