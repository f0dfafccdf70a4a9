"""Bingo's custom patterns: ``/bingo pattern create|list|delete``, kept per server.

A server's patterns are its records of Bingo's kind in storage (``Storage.put_server_record``:
name -> value), keyed by the pattern's code (made from its name, :func:`pattern_code`) and
holding the engine's text form (``Pattern.to_text``: code, name and every placement). The cog
holds them in memory (:class:`CustomPatterns`), loaded at start-up and kept current by its own
writes, so a start command and its autocomplete find them without asking the database. A game
stores its patterns whole in its state, so a pattern deleted later changes no game.

Drawing one on buttons: an ephemeral message with a 5x5 grid of :class:`bot.components.GameButton`
(Discord's 5 rows of 5). Everything the drawing is rides in the buttons' custom ids and the
message (``gn:bingopattern:<action>:<creator>:<arg>``: the cells marked and how it counts in
the ids, its name on the message's first line), so a press after a restart carries on where the
drawing was. The centre cell is free, so its button is Save.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

import cogs.bingo.words  # noqa: F401  (its words, registered on import)
from bot.attachments import attachment
from bot.components import GameButton, Press, drop_route, route_presses
from bot.games import GameCog
from bot.i18n import LocaleLike, message
from bot.render import Rendered
from bot.render.bingo import pattern_name, render_pattern, render_pattern_book
from bot.replies import UserError, answer, defer_private
from bot.storage import RecordLimitError
from bot.verify_link import CustomPrizes
from engine.bingo import (
    CELLS,
    CODE_LIMIT,
    FREE_BIT,
    FREE_CELL,
    NAME_FORBIDDEN,
    NAME_LIMIT,
    PATTERN_BOOK,
    SIDE,
    Pattern,
    drawing_mask,
)
from engine.errors import GameError

if TYPE_CHECKING:
    from bot.app import GameNightBot

log = logging.getLogger(__name__)

# The most custom patterns one server keeps.
PATTERN_LIMIT = 25
# The drawing's buttons: ``gn:bingopattern:cell:<creator>:<cell><how><mask>`` toggles a cell,
# ``gn:bingopattern:save:<creator>:<how><mask>`` saves (``how``: 1 turned any way round, 2
# anywhere on the card, 3 both; ``mask``: the cells marked, 7 hex digits).
PRESS_PREFIX = "bingopattern"
AUTOCOMPLETE_LIMIT = 25
# Characters written with a backslash in a message, so that a name shows as typed (Discord's
# markdown escapes any ASCII punctuation so).
_MARKDOWN = frozenset("\\*_~`|<>#-[]():@!.+=/,'\"{}&;")
_UNESCAPE = re.compile(r"\\([^0-9A-Za-z\s])")
_CELL_ARG = re.compile(r"(?P<cell>\d\d)(?P<how>[0-3])(?P<mask>[0-9a-f]{7})")
_SAVE_ARG = re.compile(r"(?P<how>[0-3])(?P<mask>[0-9a-f]{7})")
_ROTATIONS, _ANYWHERE = 1, 2


def fold(text: str) -> str:
    """``text`` without accents and case, for names compared as people read them."""
    plain = unicodedata.normalize("NFKD", text)
    return "".join(c for c in plain if not unicodedata.combining(c)).casefold()


def pattern_code(name: str) -> str:
    """The code of a custom pattern named ``name``: its letters and digits, unaccented and
    lower-case, runs of anything else made one ``_`` (``"Corazón roto!"`` -> ``corazon_roto``),
    at most ``CODE_LIMIT`` long; a name with no such letter gets a code from its hash. Two names
    of one code are one name (``Heart`` and ``heart!``)."""
    words = re.findall(r"[a-z0-9]+", fold(name))
    code = "_".join(words)[:CODE_LIMIT].strip("_")
    if not code:
        code = "p" + hashlib.sha256(name.encode()).hexdigest()[:10]
    return code


def shown(name: str) -> str:
    """A pattern's name for a message: shown as typed, never as markdown or a mention."""
    return "".join("\\" + c if c in _MARKDOWN else c for c in name)


def _unescaped(text: str) -> str:
    return _UNESCAPE.sub(r"\1", text)


def builtin_names() -> dict[str, str]:
    """Every built-in pattern's code and its names in English and Spanish, folded -> code: the
    names a custom pattern may not take."""
    taken: dict[str, str] = {}
    for code, pattern in PATTERN_BOOK.items():
        for name in (code, pattern.name, pattern_name(pattern, "en"), pattern_name(pattern, "es")):
            taken[fold(name)] = code
            taken[pattern_code(name)] = code
    return taken


def checked_name(typed: str) -> str:
    """The name a member typed, trimmed, or a refusal: too long, holding a character the
    patterns' text form reserves, or a built-in's name."""
    name = " ".join(typed.split())
    if len(name) > NAME_LIMIT:
        raise UserError("bingo_custom_name_long", limit=NAME_LIMIT, length=len(name))
    if not name or not name.isprintable() or any(c in NAME_FORBIDDEN for c in name):
        raise UserError("bingo_custom_name_bad", characters=" ".join(NAME_FORBIDDEN))
    taken = builtin_names()
    if fold(name) in taken or pattern_code(name) in taken:
        raise UserError("bingo_custom_name_builtin", name=shown(name))
    return name


@dataclass(frozen=True, slots=True)
class Drawing:
    """A pattern being drawn on buttons: who draws it, its name, the cells marked (a cell mask
    without the free centre) and how it counts (turned any way round, anywhere on the card)."""

    creator: int
    name: str
    mask: int = 0
    rotations: bool = False
    anywhere: bool = False

    @property
    def how(self) -> int:
        return (_ROTATIONS if self.rotations else 0) | (_ANYWHERE if self.anywhere else 0)

    def toggled(self, cell: int) -> Drawing:
        """The drawing with ``cell`` marked, or unmarked if it was."""
        return Drawing(
            self.creator, self.name, self.mask ^ (1 << cell), self.rotations, self.anywhere
        )

    def pattern(self) -> Pattern:
        """The pattern drawn (``GameError`` when no cell but the free centre is marked)."""
        return Pattern.custom(
            pattern_code(self.name),
            self.name,
            self.mask & ~FREE_BIT,
            rotations=self.rotations,
            anywhere=self.anywhere,
        )

    def content(self, locale: LocaleLike) -> str:
        """The drawing's message: its name on the first line (read back at each press), then
        what to do."""
        counts = []
        if self.rotations:
            counts.append(message("bingo_custom_rotations", locale))
        if self.anywhere:
            counts.append(message("bingo_custom_anywhere", locale))
        how = "".join(" " + text for text in counts)
        marked = bin(self.mask & ~FREE_BIT).count("1")
        return f"**{shown(self.name)}**\n" + message(
            "bingo_custom_drawing", locale, count=marked, how=how
        )

    def view(self, locale: LocaleLike) -> discord.ui.View:
        """The 5x5 grid: a button per cell (green when marked), the free centre's saving."""
        view = discord.ui.View(timeout=None)
        state = f"{self.how}{self.mask:07x}"
        for cell in range(CELLS):
            row, column = divmod(cell, SIDE)
            if cell == FREE_CELL:
                button = GameButton.make(
                    PRESS_PREFIX,
                    "save",
                    self.creator,
                    message("bingo_custom_save_button", locale),
                    discord.ButtonStyle.primary,
                    arg=state,
                    row=row,
                )
            else:
                marked = bool(self.mask >> cell & 1)
                button = GameButton.make(
                    PRESS_PREFIX,
                    "cell",
                    self.creator,
                    "BINGO"[column],
                    discord.ButtonStyle.success if marked else discord.ButtonStyle.secondary,
                    arg=f"{cell:02d}{state}",
                    emoji="✖️" if marked else None,
                    row=row,
                )
            view.add_item(button)
        return view

    @classmethod
    def from_press(cls, interaction: discord.Interaction[Any], press: Press) -> tuple[Drawing, int]:
        """The drawing a press was made on, and the cell pressed (``FREE_CELL`` for Save): its
        cells and how it counts from the custom id, its name from the message's first line."""
        parts = (_CELL_ARG if press.action == "cell" else _SAVE_ARG).fullmatch(press.arg)
        content = interaction.message.content if interaction.message is not None else ""
        first = content.split("\n", 1)[0]
        if parts is None or not (
            len(first) > 4 and first.startswith("**") and first.endswith("**")
        ):
            raise UserError("bingo_custom_drawing_gone")
        cell = int(parts["cell"]) if press.action == "cell" else FREE_CELL
        if not 0 <= cell < CELLS:
            raise UserError("bingo_custom_drawing_gone")
        how = int(parts["how"])
        drawing = cls(
            press.subject,
            _unescaped(first[2:-2]),
            int(parts["mask"], 16) & ~FREE_BIT,
            bool(how & _ROTATIONS),
            bool(how & _ANYWHERE),
        )
        return drawing, cell


def linked_pattern_code(text: str) -> str:
    """The code of a custom pattern as a verification link carries it (its text form), or a
    ``ValueError`` (``GameError`` is one): the link's reading of the game's own prizes."""
    pattern = Pattern.from_text(text)
    if pattern.is_builtin:
        raise GameError(f"{pattern.code} is a built-in pattern, named by its code alone")
    return pattern.code


# A game's custom patterns in its verification link: under ``patterns``, each in its text form
# (the page recomputes the game with them: docs/FAIRNESS.md).
PATTERNS_IN_LINK = CustomPrizes("patterns", linked_pattern_code)


def link_values(patterns: Sequence[Pattern]) -> dict[str, str]:
    """The verification link's field of a game's custom ``patterns`` (none: no field)."""
    texts = [pattern.to_text() for pattern in patterns if not pattern.is_builtin]
    return {PATTERNS_IN_LINK.key: ",".join(texts)} if texts else {}


def picture(pattern: Pattern, locale: LocaleLike) -> Rendered:
    """The small picture of one pattern."""
    return render_pattern(pattern, locale=locale)


class CustomPatterns(GameCog[Any]):
    """What Bingo's cog adds for its servers' own patterns: ``/bingo pattern create|list|delete``,
    the presses of the drawing's buttons, and each server's patterns held in memory
    (:meth:`server_patterns`, for the start command and its autocomplete). Bingo's cog inherits
    it before the calling base, whose load and unload run after its own."""

    pattern_limit: ClassVar[int] = PATTERN_LIMIT  # the most patterns a server keeps

    pattern_group = app_commands.Group(
        name="pattern", description=_("This server's own Bingo patterns")
    )

    def __init__(self, bot: GameNightBot) -> None:
        super().__init__(bot)
        # Each server's patterns, code -> pattern: loaded at start-up, kept by the bot's writes.
        self.custom_patterns: dict[int, dict[str, Pattern]] = {}

    async def cog_load(self) -> None:
        """The servers' patterns are held before the game's own start-up."""
        await self.load_custom_patterns()
        await super().cog_load()

    async def cog_unload(self) -> None:
        """The drawing's buttons stop being routed, then the game's own unload."""
        self.drop_custom_patterns()
        await super().cog_unload()

    # -- memory --------------------------------------------------------------------------------

    async def load_custom_patterns(self) -> None:
        """Hold every server's patterns and route the drawing's buttons (at the cog's load)."""
        route_presses(
            self.bot, PRESS_PREFIX, self.on_pattern_press, context=lambda _: "custom pattern"
        )
        held: dict[int, dict[str, Pattern]] = {}
        for guild_id, records in (await self.storage.all_server_records(self.kind)).items():
            held[guild_id] = self._patterns_of(guild_id, records)
        self.custom_patterns = held

    def drop_custom_patterns(self) -> None:
        """Stop routing the drawing's buttons (the cog is unloaded)."""
        drop_route(self.bot, PRESS_PREFIX)

    @staticmethod
    def _patterns_of(guild_id: int, records: Mapping[str, str]) -> dict[str, Pattern]:
        patterns: dict[str, Pattern] = {}
        for code, text in records.items():
            try:
                patterns[code] = Pattern.from_text(text)
            except GameError:  # (a built-in added since took its code: the built-in wins)
                log.warning("server %s: custom pattern %r cannot be read", guild_id, code)
        return patterns

    def server_patterns(self, guild_id: int | None) -> Mapping[str, Pattern]:
        """The server's custom patterns as the bot holds them, code -> pattern, by code."""
        if guild_id is None:
            return {}
        return self.custom_patterns.get(guild_id, {})

    def custom_name(self, code: str) -> str:
        """The name of custom pattern ``code`` as a server holding it named it (a code is its
        name's letters, so servers' names of one code differ in case and marks at most), or,
        once no server holds it, its code read as words (``corazon_roto``: "Corazon roto"): a
        prize's name, which the calling base asks for with no game to read it from."""
        for patterns in self.custom_patterns.values():
            pattern = patterns.get(code)
            if pattern is not None:
                return pattern.name
        return code.replace("_", " ").strip().capitalize() or code

    async def _refresh(self, guild_id: int) -> dict[str, Pattern]:
        """The server's patterns as the database has them (another process of a fleet may have
        written them), held again."""
        records = await self.storage.server_records(guild_id, self.kind)
        patterns = self._patterns_of(guild_id, records)
        self.custom_patterns[guild_id] = patterns
        return patterns

    def _check_room(self, guild_id: int, name: str) -> None:
        """Refuse from memory a name the server has taken, or a server with no room left."""
        held = self.server_patterns(guild_id)
        taken = held.get(pattern_code(name))
        if taken is not None:  # named as it was (its code is the same: "dot!" is "Dot")
            raise UserError("bingo_custom_name_taken", name=shown(taken.name))
        if len(held) >= self.pattern_limit:
            raise UserError("bingo_custom_full", limit=self.pattern_limit)

    async def _save(self, guild_id: int, pattern: Pattern) -> None:
        """Store the pattern (the database decides what memory predicted), and hold it."""
        try:
            added = await self.storage.put_server_record(
                guild_id, self.kind, pattern.code, pattern.to_text(), limit=self.pattern_limit
            )
        except RecordLimitError:
            await self._refresh(guild_id)
            raise UserError("bingo_custom_full", limit=self.pattern_limit) from None
        if not added:
            taken = (await self._refresh(guild_id)).get(pattern.code, pattern)
            raise UserError("bingo_custom_name_taken", name=shown(taken.name))
        held = {**self.server_patterns(guild_id), pattern.code: pattern}
        self.custom_patterns[guild_id] = dict(sorted(held.items()))

    # -- /bingo pattern create -----------------------------------------------------------------

    @pattern_group.command(
        name="create", description=_("Draw a pattern of this server's own (hosts)")
    )
    @app_commands.describe(
        name=_("The pattern's name"),
        cells=_("5 rows of 5 X or . such as X...X .X.X. ..X.. .X.X. X...X; leave empty to draw it"),
        any_way_round=_("It also counts turned a quarter, a half or three quarters round"),
        anywhere=_("It also counts moved anywhere on the card"),
    )
    async def create_pattern(
        self,
        interaction: discord.Interaction[Any],
        name: app_commands.Range[str, 1, 100],
        cells: app_commands.Range[str, 1, 100] | None = None,
        any_way_round: bool = False,
        anywhere: bool = False,
    ) -> None:
        """``/bingo pattern create name [cells] [any_way_round] [anywhere]``."""
        if interaction.guild_id is None:
            raise UserError("server_only")
        guild_id = interaction.guild_id
        await self.host_settings(interaction)
        checked = checked_name(name)
        self._check_room(guild_id, checked)
        locale = interaction.locale
        drawing = Drawing(interaction.user.id, checked, 0, any_way_round, anywhere)
        if cells is None:
            await interaction.response.send_message(
                drawing.content(locale), view=drawing.view(locale), ephemeral=True
            )
            return
        try:
            mask = drawing_mask(cells)
        except GameError:
            raise UserError("bingo_custom_bad_cells", cells=shown(cells[:40])) from None
        pattern = self._drawn(Drawing(drawing.creator, checked, mask, any_way_round, anywhere))
        await defer_private(interaction)
        await self._save(guild_id, pattern)
        rendered = await asyncio.to_thread(picture, pattern, locale)
        await answer(
            interaction,
            self._saved_text(pattern, locale),
            ephemeral=True,
            files=[attachment(rendered)],
        )

    @staticmethod
    def _drawn(drawing: Drawing) -> Pattern:
        if not drawing.mask & ~FREE_BIT:
            raise UserError("bingo_custom_empty")
        return drawing.pattern()

    @staticmethod
    def _saved_text(pattern: Pattern, locale: LocaleLike) -> str:
        return message(
            "bingo_custom_saved",
            locale,
            name=shown(pattern.name),
            code=pattern.code,
            count=len(pattern.masks),
        )

    async def on_pattern_press(self, interaction: discord.Interaction[Any], press: Press) -> None:
        """A press on a drawing's grid: only its creator's count; a cell toggles (the grid and
        the picture drawn again), the centre saves."""
        if press.action not in {"cell", "save"}:
            raise UserError("button_gone")
        if interaction.user.id != press.subject:
            raise UserError("bingo_custom_not_yours")
        if interaction.guild_id is None:
            raise UserError("server_only")
        drawing, cell = Drawing.from_press(interaction, press)
        locale = interaction.locale
        if press.action == "cell":
            if cell == FREE_CELL:
                raise UserError("button_gone")
            toggled = drawing.toggled(cell)
            files: list[discord.File] = []
            if toggled.mask & ~FREE_BIT:
                rendered = await asyncio.to_thread(picture, toggled.pattern(), locale)
                files.append(attachment(rendered))
            await interaction.response.edit_message(
                content=toggled.content(locale), attachments=files, view=toggled.view(locale)
            )
            return
        guild_id = interaction.guild_id
        pattern = self._drawn(drawing)
        self._check_room(guild_id, drawing.name)
        await interaction.response.defer()  # the database may take a while
        await self._save(guild_id, pattern)
        rendered = await asyncio.to_thread(picture, pattern, locale)
        await interaction.edit_original_response(
            content=self._saved_text(pattern, locale),
            attachments=[attachment(rendered)],
            view=None,
        )

    # -- /bingo pattern list -------------------------------------------------------------------

    @pattern_group.command(name="list", description=_("This server's own Bingo patterns"))
    async def list_patterns(self, interaction: discord.Interaction[Any]) -> None:
        """``/bingo pattern list``: the server's patterns, their names and codes, in one picture."""
        if interaction.guild_id is None:
            raise UserError("server_only")
        locale = interaction.locale
        await defer_private(interaction)
        patterns = list((await self._refresh(interaction.guild_id)).values())
        if not patterns:
            await answer(interaction, message("bingo_custom_none", locale), ephemeral=True)
            return
        rendered = await asyncio.to_thread(render_pattern_book, patterns, locale=locale)
        names = ", ".join(f"**{shown(p.name)}** (`{p.code}`)" for p in patterns)
        text = message(
            "bingo_custom_list", locale, count=len(patterns), limit=self.pattern_limit, names=names
        )
        await answer(interaction, text, ephemeral=True, files=[attachment(rendered)])

    # -- /bingo pattern delete -----------------------------------------------------------------

    @pattern_group.command(
        name="delete", description=_("Delete one of this server's patterns (hosts)")
    )
    @app_commands.describe(name=_("The pattern to delete"))
    async def delete_pattern(
        self, interaction: discord.Interaction[Any], name: app_commands.Range[str, 1, 100]
    ) -> None:
        """``/bingo pattern delete name``: games already played with it keep it whole."""
        if interaction.guild_id is None:
            raise UserError("server_only")
        guild_id = interaction.guild_id
        await self.host_settings(interaction)
        locale = interaction.locale
        held = self.server_patterns(guild_id)
        code = name if name in held else pattern_code(name)
        known = held.get(code)
        await defer_private(interaction)
        deleted = await self.storage.delete_server_record(guild_id, self.kind, code)
        await self._refresh(guild_id)
        if not deleted:
            raise UserError("bingo_custom_unknown", name=shown(name))
        text = message("bingo_custom_deleted", locale, name=shown(known.name if known else name))
        await answer(interaction, text, ephemeral=True)

    @delete_pattern.autocomplete("name")
    async def pattern_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """The server's patterns whose name or code holds what was typed (from memory)."""
        return custom_choices(self.server_patterns(interaction.guild_id), current)


def custom_choices(patterns: Mapping[str, Pattern], current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete choices among a server's patterns: those whose name or code holds
    ``current`` (accents and case aside), each shown by name with its code as the value."""
    wanted = fold(current.strip())
    return [
        app_commands.Choice(name=f"{pattern.name} ({code})"[:100], value=code)
        for code, pattern in patterns.items()
        if wanted in fold(pattern.name) or wanted in code
    ][:AUTOCOMPLETE_LIMIT]
