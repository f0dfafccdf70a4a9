"""``/help`` (``/ayuda`` to Spanish speakers): every game in a few words, or one game's rules,
prizes and commands with its pictures; privately, in the asker's language.

Nothing here names a game. The games are the loaded game cogs (``GameNightBot.games()``); each
gives its texts as message keys (``GameCog.help_keys``) and its pictures
(``GameCog.help_pictures``). The commands are read from the command tree, in the names and
descriptions Discord shows the asker, so a new game or a new command appears here untouched.
"""

from __future__ import annotations

import asyncio
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.attachments import attachment
from bot.games import GameCog
from bot.i18n import LocaleLike, message
from bot.render.common import Palette, Rendered
from bot.replies import UserError
from bot.throttle import HELP_PICTURES_RATE, Lane
from engine.errors import quoted

if TYPE_CHECKING:
    from bot.app import GameNightBot

# Discord's limits on embeds (its developer docs, "Embed Limits").
EMBEDS_PER_MESSAGE = 10
EMBED_CHARACTERS = 6000  # titles, descriptions, fields and footers of one message together
DESCRIPTION_LIMIT = 4096
FIELDS_PER_EMBED = 25
FIELD_VALUE_LIMIT = 1024
AUTOCOMPLETE_LIMIT = 25
COLOUR = discord.Colour.from_rgb(*Palette.BOARD)
SUBCOMMAND, SUBCOMMAND_GROUP = 1, 2  # option types in a command's payload
AnyCommand = app_commands.Command[Any, ..., Any] | app_commands.Group


def fold(text: str) -> str:
    """Lower case without accents or anything but letters and digits: "Lotería" == "loteria"."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if ch.isalnum() and not unicodedata.combining(ch))


def localized(item: dict[str, Any], key: str, locale: LocaleLike) -> str:
    """``item[key]`` as Discord shows it in ``locale``: its localisation, or else the default."""
    return str((item.get(f"{key}_localizations") or {}).get(str(locale), item[key]))


@dataclass(frozen=True, slots=True)
class Usage:
    """One command as a user types it, in one language."""

    path: str  # the English path, e.g. "loteria start": how the code names it
    command: str  # e.g. "/loteria empezar"
    options: str  # e.g. "[premios] [intervalo]": <required>, [optional]
    description: str

    @property
    def line(self) -> str:
        typed = f"{self.command} {self.options}" if self.options else self.command
        return f"`{typed}`: {self.description}"


def usages(payload: dict[str, Any], locale: LocaleLike) -> list[Usage]:
    """Every command a top-level command's payload holds: itself, or its subcommands."""
    found: list[Usage] = []

    def walk(item: dict[str, Any], path: list[str], shown: list[str]) -> None:
        path, shown = [*path, item["name"]], [*shown, localized(item, "name", locale)]
        options = item.get("options") or []
        nested = [o for o in options if o.get("type") in {SUBCOMMAND, SUBCOMMAND_GROUP}]
        for child in nested:
            walk(child, path, shown)
        if nested:
            return
        words = [
            f"<{localized(o, 'name', locale)}>"
            if o.get("required")
            else f"[{localized(o, 'name', locale)}]"
            for o in options
        ]
        found.append(
            Usage(
                " ".join(path),
                "/" + " ".join(shown),
                " ".join(words),
                localized(item, "description", locale),
            )
        )

    walk(payload, [], [])
    return found


def whole_lines(lines: Sequence[str], limit: int) -> str:
    """As many of ``lines`` as fit in ``limit`` characters, never half a line."""
    kept: list[str] = []
    for line in lines:
        if len("\n".join([*kept, line])) > limit:
            break
        kept.append(line)
    return "\n".join(kept)


@dataclass
class Page:
    """One message of an answer: its embeds and the pictures they show."""

    embeds: list[discord.Embed] = field(default_factory=list)
    pictures: list[Rendered] = field(default_factory=list)


def paginate(embeds: Sequence[tuple[discord.Embed, Rendered | None]]) -> list[Page]:
    """Embeds (each with the picture it shows, if any) as messages within Discord's limits."""
    pages = [Page()]
    for embed, picture in embeds:
        page = pages[-1]
        size = sum(len(e) for e in page.embeds)
        if page.embeds and (
            len(page.embeds) == EMBEDS_PER_MESSAGE or size + len(embed) > EMBED_CHARACTERS
        ):
            page = Page()
            pages.append(page)
        page.embeds.append(embed)
        if picture is not None:
            page.pictures.append(picture)
    return pages


def described(
    title: str, paragraphs: Iterable[str], *, separator: str = "\n\n"
) -> list[discord.Embed]:
    """``paragraphs`` in as few embeds as fit, the first titled; a paragraph is never split
    (each is far shorter than an embed's description)."""
    limit = DESCRIPTION_LIMIT
    embeds: list[discord.Embed] = []
    text = ""
    for paragraph in paragraphs:
        joined = f"{text}{separator}{paragraph}" if text else paragraph
        if text and len(joined) > limit:
            embeds.append(discord.Embed(description=text, colour=COLOUR))
            joined = paragraph
        text = joined[:limit]
    embeds.append(discord.Embed(description=text, colour=COLOUR))
    embeds[0].title = title
    return embeds


class Help(commands.Cog):
    def __init__(self, bot: GameNightBot) -> None:
        self.bot = bot

    # -- what there is -------------------------------------------------------------------------

    def game_cogs(self) -> list[GameCog[Any]]:
        """The loaded games, the calling games (the bot's heart) first, else in loading order."""
        cogs = [cog for cog in self.bot.cogs.values() if isinstance(cog, GameCog)]
        return sorted(cogs, key=lambda cog: not cog.calling)

    def find_game(self, typed: str, locale: LocaleLike) -> GameCog[Any]:
        """The game named ``typed``: its kind (autocomplete's value) or either of its names."""
        wanted = fold(typed)
        for cog in self.game_cogs():
            if wanted in {fold(cog.kind), fold(cog.title), fold(cog.title_es)}:
                return cog
        names = ", ".join(cog.game_kind().name(locale) for cog in self.game_cogs())
        raise UserError("help_no_such_game", game=quoted(typed), games=names)

    @staticmethod
    def roots(cog: commands.Cog) -> list[AnyCommand]:
        """The top-level commands of ``cog`` (a group cog's group, or its own commands)."""
        found: dict[str, AnyCommand] = {}
        for command in cog.walk_app_commands():
            root = command.root_parent or command
            found.setdefault(root.name, root)
        return list(found.values())

    async def payload(self, root: AnyCommand) -> dict[str, Any]:
        """What the bot gives Discord for ``root``: names, options and descriptions with their
        translations."""
        tree = self.bot.tree
        if tree.translator is None:
            return root.to_dict(tree)
        return await root.get_translated_payload(tree, tree.translator)

    async def usages_of(self, roots: Iterable[AnyCommand], locale: LocaleLike) -> list[Usage]:
        """The commands under ``roots`` with their names, options and descriptions in
        ``locale``, as Discord shows them there."""
        return [usage for root in roots for usage in usages(await self.payload(root), locale)]

    async def game_usages(self, cog: GameCog[Any], locale: LocaleLike) -> list[Usage]:
        """The game's commands: the one that starts a game first, then its own, then those
        every game of its family shares (pause, resign...)."""
        own = {
            command.qualified_name
            for command in cog.walk_app_commands()
            if isinstance(command, app_commands.Command)
            and command.callback.__module__ == type(cog).__module__
        }
        start = cog.game_kind().start.removeprefix("/")
        found = await self.usages_of(self.roots(cog), locale)
        return sorted(found, key=lambda usage: (usage.path != start, usage.path not in own))

    # -- the command ---------------------------------------------------------------------------

    @app_commands.command(
        name="help", description=_("How to play: each game's rules, prizes and commands")
    )
    @app_commands.describe(game=_("The game to explain; leave empty for all of them"))
    async def help(self, interaction: discord.Interaction[Any], game: str | None = None) -> None:
        locale = interaction.locale  # a private answer: the asker's language
        if game is None:
            await self.send(interaction, await self.overview(locale))
            return
        cog = self.find_game(game, locale)
        # A game's help draws its pictures: a cooldown per member, and the server's line of heavy
        # work (bot.throttle); the overview above is words only.
        self.bot.cooldowns.hit("help game", HELP_PICTURES_RATE, interaction)
        async with self.bot.heavy.turn(
            interaction.guild_id,
            Lane.OTHER,
            acknowledge=lambda: interaction.response.defer(ephemeral=True, thinking=True),
        ):
            pictures = await asyncio.to_thread(cog.help_pictures, locale)
        await self.send(interaction, await self.game_help(cog, locale, pictures))

    @help.autocomplete("game")
    async def game_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        typed = fold(current[:100])
        return [
            app_commands.Choice(name=cog.game_kind().name(interaction.locale), value=cog.kind)
            for cog in self.game_cogs()
            if any(typed in fold(name) for name in (cog.kind, cog.title, cog.title_es))
        ][:AUTOCOMPLETE_LIMIT]

    @staticmethod
    async def send(interaction: discord.Interaction[Any], pages: Sequence[Page]) -> None:
        for page in pages:
            files = [attachment(picture) for picture in page.pictures]
            if not interaction.response.is_done():
                await interaction.response.send_message(
                    embeds=page.embeds, files=files, ephemeral=True
                )
            else:
                await interaction.followup.send(embeds=page.embeds, files=files, ephemeral=True)

    # -- the answers ---------------------------------------------------------------------------

    async def summary(self, cog: GameCog[Any], locale: LocaleLike) -> str:
        """The game's summary, or else its command's own description."""
        if cog.help_keys:
            return message(cog.help_keys[0], locale)
        roots = self.roots(cog)
        if not roots:
            return cog.game_kind().name(locale)
        return localized(await self.payload(roots[0]), "description", locale)

    async def help_usage(self, locale: LocaleLike, game: str) -> str:
        """``/help game:<game>`` as the asker types it (``/ayuda partida:Tómbola`` in Spanish)."""
        payload = await self.payload(self.help)
        option = localized(payload["options"][0], "name", locale)
        return f"/{localized(payload, 'name', locale)} {option}:{game}"

    async def overview(self, locale: LocaleLike) -> list[Page]:
        """Every game: what it is, how to start one, how to read its rules; then the rest."""
        games = self.game_cogs()
        intro = message(
            "help_overview_intro",
            locale,
            command=await self.help_usage(locale, ""),
        )
        embeds: list[tuple[discord.Embed, Rendered | None]] = []
        embed = discord.Embed(
            title=message("help_overview_title", locale), description=intro, colour=COLOUR
        )
        game_roots: set[str] = set()
        for cog in games:
            if len(embed.fields) == FIELDS_PER_EMBED:
                embeds.append((embed, None))
                embed = discord.Embed(colour=COLOUR)
            found = await self.game_usages(cog, locale)
            game_roots |= {root.name for root in self.roots(cog)}
            start = cog.game_kind().start.removeprefix("/")
            started = next((u.command for u in found if u.path == start), f"/{start}")
            value = message(
                "help_overview_game",
                locale,
                summary=await self.summary(cog, locale),
                start=started,
                more=await self.help_usage(locale, cog.game_kind().name(locale)),
            )
            embed.add_field(
                name=cog.game_kind().name(locale), value=value[:FIELD_VALUE_LIMIT], inline=False
            )
        others = [
            command
            for command in self.bot.tree.get_commands()
            if isinstance(command, app_commands.Command | app_commands.Group)
            and command.name not in game_roots
        ]
        lines = [usage.line for usage in await self.usages_of(others, locale)]
        if lines:
            if len(embed.fields) == FIELDS_PER_EMBED:
                embeds.append((embed, None))
                embed = discord.Embed(colour=COLOUR)
            value = whole_lines(lines, FIELD_VALUE_LIMIT)
            embed.add_field(name=message("help_more_commands", locale), value=value, inline=False)
        embeds.append((embed, None))
        return paginate(embeds)

    async def game_help(
        self, cog: GameCog[Any], locale: LocaleLike, pictures: Sequence[Rendered]
    ) -> list[Page]:
        """One game: its summary and sections, its pictures, then its commands."""
        name = cog.game_kind().name(locale)
        sections = [await self.summary(cog, locale)]
        sections += [message(key, locale) for key in cog.help_keys[1:]]
        rules = described(message("help_game_title", locale, name=name), sections)
        embeds: list[tuple[discord.Embed, Rendered | None]] = [(e, None) for e in rules[:-1]]
        last, pictured = rules[-1], list(pictures)
        if pictured:  # the first picture under the rules that speak of it
            last.set_image(url=f"attachment://{pictured[0].filename}")
        embeds.append((last, pictured[0] if pictured else None))
        for picture in pictured[1:]:
            extra = discord.Embed(colour=COLOUR).set_image(url=f"attachment://{picture.filename}")
            embeds.append((extra, picture))
        lines = [message("help_commands_legend", locale)]
        lines += [usage.line for usage in await self.game_usages(cog, locale)]
        commands_embeds = described(message("help_commands", locale), lines, separator="\n")
        embeds += [(e, None) for e in commands_embeds]
        return paginate(embeds)


async def setup(bot: GameNightBot) -> None:
    await bot.add_cog(Help(bot))
