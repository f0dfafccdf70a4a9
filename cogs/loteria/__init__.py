"""``/loteria``: Mexican bingo with a cantor on a timer. The rules live in ``engine.loteria``."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from PIL import Image

import cogs.loteria.words  # noqa: F401  (its words, registered on import)
from bot.calling import (
    DEFAULT_INTERVAL,
    DEFAULT_MAX_PLAYERS,
    FALSE_CLAIM_LIMIT,
    MAX_INTERVAL,
    MAX_PLAYERS_LIMIT,
    MIN_INTERVAL,
    SPOKEN_LOCALES,
    CallingGameCog,
    CallingOptions,
    Verdict,
    option,
    speakable,
)
from bot.components import GameButton
from bot.game_settings import GameOption, GameSettings, register_game_settings
from bot.i18n import LocaleLike, is_spanish, message
from bot.render import Rendered
from bot.render import loteria as render
from bot.render.loteria import help as render_help
from bot.render.loteria import results as render_results
from bot.replies import UserError, check_range
from bot.storage import BoardRow, GameDefaults, GameRow, PlayerRow, WinnerRow
from bot.throttle import BOARD_VIEW_RATE, member_cooldown
from bot.voice.phrase import Phrase
from bot.voice.voices import Language
from cogs.loteria import samples
from cogs.loteria.verses import Verse, verse_of_card
from engine.errors import GameError, quoted
from engine.loteria import (
    DECK_SIZE,
    DECKS,
    ClaimResult,
    LoteriaGame,
    Pattern,
    Tabla,
    check_claim,
)

if TYPE_CHECKING:
    from bot.app import GameNightBot

PATTERN_CHOICES = [
    app_commands.Choice(name=_(pattern.english), value=pattern.value) for pattern in Pattern
]
DEFAULT_PLAN = "line, full"
DEFAULT_DECK = "classic"  # when neither the host nor the server (/gamenight settings) chooses
DECK_CHOICES = (("Classic", "classic"), ("Family", "family"))  # (name, a name of DECKS)
PRIZE_PLANS = (
    "line",
    "full",
    "line, full",
    "line, corners, full",
    "corners, centre, full",
    "line, square, corners, full",
)


VERSES_ON, VERSES_OFF, VERSES_RIDDLE = "on", "off", "riddle"
VERSE_MODES = (VERSES_ON, VERSES_OFF, VERSES_RIDDLE)


@dataclass(frozen=True, kw_only=True)
class LoteriaOptions(CallingOptions):
    """Lotería's options: those of every calling game, and how the cantor sings."""

    verses: str | None = option(str)  # VERSES_ON, VERSES_OFF or VERSES_RIDDLE


def verses_mode(game: GameRow) -> str:
    # Games started before verses existed have no such option: they are called plainly.
    return LoteriaOptions.from_stored(game.options).verses or VERSES_OFF


def quote_verse(sung: Verse, locale: LocaleLike) -> str:
    """The verse as a Discord quote: in Spanish, and in English servers its rendering too."""
    lines = [f"> *{line}*" for line in sung.lines("es")]
    if not is_spanish(locale):
        lines += [f"> {line}" for line in sung.lines("en")]
    return "\n".join(lines)


def parse_prizes(text: str) -> tuple[Pattern, ...]:
    """``"line -> corners -> full"`` (or commas, ``>``, spaces) as patterns, each at most once."""
    words = [word for word in re.split(r"[\s,>→\-]+", text.strip().lower()) if word]
    if not words:
        raise UserError("loteria_no_prizes")
    prizes = []
    for word in words:
        try:
            prizes.append(Pattern.parse(word))
        except GameError:
            raise UserError(
                "loteria_bad_prize",
                word=quoted(word),
                choices=", ".join(p.value for p in Pattern),
            ) from None
    if len(set(prizes)) != len(prizes):
        raise UserError("loteria_prize_twice")
    return tuple(prizes)


@app_commands.guild_only()
class Loteria(
    CallingGameCog[LoteriaGame, ClaimResult],
    name="Lotería",
    group_name="loteria",
    group_description=_("Play Lotería, the Mexican bingo"),
):
    kind = "loteria"
    title = "Lotería"
    title_es = "Lotería"
    engine = LoteriaGame
    exhausted_reason = "reason_deck_out"
    show_command = "tabla"
    link_fields: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "deck": (DEFAULT_DECK, *(deck for deck in DECKS if deck != DEFAULT_DECK))
    }
    sandbox_start: ClassVar[Mapping[str, Any]] = {
        "prizes": "line, corners, full",
        "interval": MIN_INTERVAL,
    }
    sandbox_bluffs = FALSE_CLAIM_LIMIT  # the second false claim takes a player out
    sandbox_default = True

    # -- words and pictures --------------------------------------------------------------------

    def prize_name(self, prize: str, locale: LocaleLike = None) -> str:
        pattern = Pattern(prize)
        return pattern.spanish if is_spanish(locale) else f"{pattern.english} ({pattern.spanish})"

    def board_number(self, board: BoardRow) -> int:
        return board.deal_index + 1  # a player's one tabla is numbered by its deal

    def render_boards(
        self,
        game: GameRow,
        boards: Sequence[BoardRow],
        called: Sequence[int],
        locale: LocaleLike = None,
    ) -> list[Rendered]:
        state = self.state_of(game)
        return [
            render.render_tabla(
                Tabla.from_state(board.state),
                state.deck,
                game_id=str(game.id),
                tabla_number=board.deal_index + 1,
                called=tuple(called),
                locale=locale,
            )
            for board in boards
        ]

    def render_result(
        self,
        game: GameRow,
        winners: Sequence[WinnerRow],
        boards: Sequence[BoardRow],
        players: Sequence[PlayerRow],
    ) -> list[Rendered]:
        state = self.state_of(game)
        locale = self.channel_locale(game)
        wins = []
        for won in self.won_boards(winners, boards, players, locale):
            winner = won.winner
            tabla = Tabla.from_state(won.board.state)
            pattern = Pattern(winner.prize)
            # The cells that won, as the claim found them (the last card's line first).
            result = check_claim(tabla, state.called[: winner.step], pattern)
            if not result.valid:
                continue
            wins.append(
                render_results.LoteriaWin(
                    name=won.name,
                    prize=self.prize_name(winner.prize, locale),
                    pattern=pattern,
                    seq=winner.step,
                    tabla=tabla,
                    cells=result.cells,
                    shared=won.shared,
                )
            )
        return render_results.render_loteria_result(
            wins, state.deck, game_id=str(game.id), called=state.called, locale=locale
        )

    def replay_frame(
        self, game: GameRow, called: Sequence[int], locale: LocaleLike
    ) -> Image.Image | None:
        return render.caller_board_frame(called, self.state_of(game).deck, locale=locale)

    def spoken_call(self, game: GameRow, value: int, seq: int, language: Language) -> list[Phrase]:
        """As the cantor sings it: the card's name (in English, its Spanish name and then its
        English one), then its verse when verses are on; in riddle mode the verse first and the
        name last (the answer, said when the riddle is revealed)."""
        card = self.state_of(game).deck.card(value)
        named = card.spanish if language == "es" else f"{card.spanish}. {card.english}"
        name = Phrase(speakable(named) + ".", language)
        mode = verses_mode(game)
        if mode == VERSES_OFF:
            return [name]
        lines = verse_of_card(card).lines(SPOKEN_LOCALES[language])
        verse = Phrase(speakable(" ".join(lines)), language)
        return [verse, name] if mode == VERSES_RIDDLE else [name, verse]

    def render_call(self, game: GameRow, value: int, seq: int) -> tuple[str, list[Rendered]]:
        state = self.state_of(game)
        card = state.deck.card(value)
        # The stored state is at or past this call (a call is stored before it is announced).
        earlier = state.called[: seq - 1]
        locale = self.channel_locale(game)
        sung = verse_of_card(card) if verses_mode(game) != VERSES_OFF else None
        image = render.render_call(
            card,
            state.deck,
            recent=earlier[-5:],
            call_number=seq,
            total=DECK_SIZE,
            verse=sung.text(locale) if sung else None,
            locale=locale,
        )
        return self.call_text(game, value, seq), [image]

    def call_text(self, game: GameRow, value: int, seq: int) -> str:
        """The card, what is being played for now (or that every prize is won) and its verse."""
        state = self.state_of(game)
        card = state.deck.card(value)
        locale = self.channel_locale(game)
        prize = state.current_prize
        playing = (
            self.say("playing_for", locale, prize=self.prize_name(prize.value, locale))
            if prize
            else self.say("playing_nothing_left", locale)
        )
        text = self.say(
            "call_line",
            locale,
            spanish=card.spanish,
            english=card.english,
            seq=seq,
            total=DECK_SIZE,
            playing=playing,
        )
        if verses_mode(game) != VERSES_OFF:
            text += "\n" + quote_verse(verse_of_card(card), locale)
        return text

    def riddle(self, game: GameRow, value: int, seq: int) -> str | None:
        """In riddle mode the verse comes alone first; the card follows a few seconds later."""
        if verses_mode(game) != VERSES_RIDDLE:
            return None
        card = self.state_of(game).deck.card(value)
        locale = self.channel_locale(game)
        header = self.say("riddle_line", locale, seq=seq, total=DECK_SIZE)
        return f"{header}\n{quote_verse(verse_of_card(card), locale)}"

    def claim_button(self, game: GameRow) -> GameButton:
        return GameButton.make(
            self.kind, "claim", game.id, "¡Lotería!", discord.ButtonStyle.success
        )

    def render_win(
        self,
        game: GameRow,
        verdict: Verdict[ClaimResult],
        called: Sequence[int],
        locale: LocaleLike,
    ) -> Rendered:
        return render.render_tabla(
            Tabla.from_state(verdict.board.state),
            self.state_of(game).deck,
            game_id=str(game.id),
            tabla_number=verdict.board.deal_index + 1,
            called=tuple(called),
            winning_cells=verdict.check.cells,
            pattern=Pattern.parse(verdict.prize),
            locale=locale,
        )

    def options_of(self, game: GameRow) -> LoteriaOptions:
        return LoteriaOptions.from_stored(game.options)

    def scheduled_game(
        self, seed: bytes, defaults: GameDefaults, *, guild_id: int | None = None
    ) -> tuple[str, LoteriaOptions]:
        """A planned night plays what the start command would with no options given."""
        plan = parse_prizes(defaults.prizes or DEFAULT_PLAN)
        state = LoteriaGame.new(seed, plan, defaults.deck or DEFAULT_DECK)
        options = LoteriaOptions(
            interval=defaults.interval or DEFAULT_INTERVAL,
            max_players=DEFAULT_MAX_PLAYERS,
            require_last=False,
            verses=VERSES_ON,
        )
        return state.to_state(), options

    def verify_values(self, game: GameRow) -> dict[str, str]:
        return {"deck": self.state_of(game).deck_name}

    @classmethod
    def claim_options(cls, prize: str, board_number: int) -> dict[str, Any]:
        return {"pattern": prize}

    def default_prizes(self, text: str, *, guild_id: int | None = None) -> str:
        return ", ".join(pattern.value for pattern in parse_prizes(text))

    def describe_prizes(
        self, stored: str | None, locale: LocaleLike, *, guild_id: int | None = None
    ) -> str:
        plan = parse_prizes(stored or DEFAULT_PLAN)
        return " → ".join(self.prize_name(pattern.value, locale) for pattern in plan)

    def prize_suggestions(
        self, typed: str, locale: LocaleLike, *, guild_id: int | None = None
    ) -> list[tuple[str, str]]:
        return [(plan, plan) for plan in self.plans_for(typed)]

    @staticmethod
    def plans_for(typed: str) -> list[str]:
        """The usual prize plans starting with what was typed (all of them if none does)."""
        typed = typed.strip().lower()
        return [plan for plan in PRIZE_PLANS if plan.startswith(typed)] or list(PRIZE_PLANS)

    def describe_options(self, game: GameRow) -> str:
        state = self.state_of(game)
        locale = self.channel_locale(game)
        return self.say(
            "loteria_options",
            locale,
            prizes=" → ".join(self.prize_name(p.value, locale) for p in state.prizes),
            interval=self.options_of(game).interval,
            deck=self.say(f"deck_{state.deck_name}", locale),
            most=self.options_of(game).max_players,
        )

    # -- commands ------------------------------------------------------------------------------

    @app_commands.command(name="start", description=_("Open a Lotería lobby in this channel"))
    @app_commands.describe(
        prizes=_("Prizes in order, e.g. line, corners, full"),
        interval=_("Seconds between cards (5-120)"),
        deck=_("Classic deck or family deck"),
        max_players=_("Most players who can join"),
        slept_rule=_("A win must include the last card called"),
        verses=_("The cantor's verse with each card, or first as a riddle"),
    )
    @app_commands.choices(
        deck=[app_commands.Choice(name=_(name), value=value) for name, value in DECK_CHOICES],
        verses=[
            app_commands.Choice(name=_("On"), value=VERSES_ON),
            app_commands.Choice(name=_("Off"), value=VERSES_OFF),
            app_commands.Choice(
                name=_("Riddle: the verse first, the card after"), value=VERSES_RIDDLE
            ),
        ],
    )
    async def start(
        self,
        interaction: discord.Interaction[Any],
        prizes: str | None = None,
        interval: app_commands.Range[int, MIN_INTERVAL, MAX_INTERVAL] | None = None,
        deck: str | None = None,
        max_players: app_commands.Range[int, 1, MAX_PLAYERS_LIMIT] = DEFAULT_MAX_PLAYERS,
        slept_rule: bool = False,
        verses: str = VERSES_ON,
    ) -> None:
        settings = await self.host_settings(interaction)
        # What the host leaves out, the server's defaults fill (/gamenight settings).
        defaults = settings.defaults(self.kind)
        prizes = prizes if prizes is not None else defaults.prizes or DEFAULT_PLAN
        interval = interval if interval is not None else defaults.interval or DEFAULT_INTERVAL
        deck = deck if deck is not None else defaults.deck or DEFAULT_DECK
        if deck not in DECKS:
            raise UserError("loteria_bad_deck")
        if verses not in VERSE_MODES:
            raise UserError("loteria_bad_verses")
        check_range("interval", interval, MIN_INTERVAL, MAX_INTERVAL)
        check_range("max_players", max_players, 1, MAX_PLAYERS_LIMIT)
        plan = parse_prizes(prizes)
        seed = self.bot.new_seed()
        state = LoteriaGame.new(seed, plan, deck)
        await self.open_lobby(
            interaction,
            seed=seed,
            state=state.to_state(),
            options=LoteriaOptions(
                interval=interval,
                max_players=max_players,
                require_last=slept_rule,
                verses=verses,
            ),
            settings=settings,
        )

    @start.autocomplete("prizes")
    async def prizes_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=plan, value=plan) for plan in self.plans_for(current)]

    @app_commands.command(name="join", description=_("Join the Lotería game in this channel"))
    async def join_command(self, interaction: discord.Interaction[Any]) -> None:
        # Every answer is private: acknowledged before the database is asked.
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.join(interaction, await self.game_here(interaction), boards=1)

    @app_commands.command(
        name="tabla", description=_("Show your tabla with the called cards marked")
    )
    @member_cooldown(BOARD_VIEW_RATE)
    async def tabla(self, interaction: discord.Interaction[Any]) -> None:
        await self.show_boards(interaction)

    @app_commands.command(name="claim", description=_("¡Lotería! Claim the prize being played"))
    @app_commands.describe(pattern=_("The pattern you completed"))
    @app_commands.choices(pattern=PATTERN_CHOICES)
    async def claim_command(
        self, interaction: discord.Interaction[Any], pattern: str | None = None
    ) -> None:
        await self.claim(interaction, None, pattern, None)

    # -- /help ---------------------------------------------------------------------------------

    help_keys = (
        "help_loteria_summary",
        "help_loteria_round",
        "help_loteria_decks",
        "help_loteria_prizes",
        "help_loteria_claims",
    )

    def help_pictures(self, locale: LocaleLike) -> list[Rendered]:
        return [render_help.render_loteria_patterns(locale)]

    # -- its pictures, ahead of a game and as samples ------------------------------------------

    warm_up_pictures = staticmethod(render.warm_up)
    sample_pictures = staticmethod(samples.sample_pictures)


def deck_setting_line(deck: str | None, locale: LocaleLike, builtin: str) -> str:
    """The server's deck, as /gamenight settings shows it (``builtin``: the command's own)."""
    name = message(f"deck_{deck or DEFAULT_DECK}", locale)
    return message("settings_deck", locale, deck=name, deck_mark=builtin if deck is None else "")


# What Lotería adds to /gamenight settings: its plans in the prizes option's description, and
# the deck a host who does not choose one gets.
register_game_settings(
    GameSettings(
        Loteria.kind,
        prizes="loteria_settings_prizes",
        options=(
            GameOption(
                "deck",
                "The Lotería deck when the host does not choose one",
                DECK_CHOICES,
                "loteria_bad_deck",
                deck_setting_line,
            ),
        ),
    )
)


async def setup(bot: GameNightBot) -> None:
    await bot.add_cog(Loteria(bot))
