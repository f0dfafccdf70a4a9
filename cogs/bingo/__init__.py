"""``/bingo``: 75-ball Bingo with a pattern book, a caller on a timer. The rules live in
``engine.bingo``."""

from __future__ import annotations

import asyncio
import dataclasses
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from PIL import Image

import cogs.bingo.words  # noqa: F401  (its words, registered on import)
from bot.attachments import attachment
from bot.call_names import CALLS_CLASSIC, CALLS_PLAIN, nickname
from bot.calling import (
    DEFAULT_INTERVAL,
    DEFAULT_MAX_PLAYERS,
    FALSE_CLAIM_LIMIT,
    MAX_INTERVAL,
    MAX_PLAYERS_LIMIT,
    MIN_INTERVAL,
    CallingGameCog,
    CallingOptions,
    Verdict,
    called_with_nickname,
    option,
)
from bot.components import GameButton
from bot.game_settings import GameSettings, register_game_settings
from bot.i18n import LocaleLike, message
from bot.reasons import reason_text
from bot.render import Rendered
from bot.render import bingo as render
from bot.render.bingo import help as render_help
from bot.render.bingo import results as render_results
from bot.replies import UserError, answer, check_range, defer_public
from bot.storage import BoardRow, GameDefaults, GameRow, PlayerRow, WinnerRow
from bot.throttle import BOARD_VIEW_RATE, Lane, member_cooldown
from bot.verify_link import LinkRules
from bot.voice.phrase import Phrase
from bot.voice.voices import Language
from cogs.bingo import samples
from cogs.bingo.patterns import PATTERNS_IN_LINK, CustomPatterns, link_values, shown
from engine.bingo import (
    HIGHEST_NUMBER,
    PATTERN_BOOK,
    BingoGame,
    Card,
    ClaimResult,
    Pattern,
    call_name,
    check_claim,
)
from engine.errors import quoted

if TYPE_CHECKING:
    from bot.app import GameNightBot

DEFAULT_PATTERNS = "line, blackout"  # when neither the host nor the server chooses
# Plans offered while the host types nothing yet (each a list of built-in codes).
PATTERN_PLANS = (
    "line, blackout",
    "line",
    "blackout",
    "line, x, blackout",
    "corners, line, blackout",
    "stamp, small_diamond, frame, blackout",
    "letter_t, letter_l, letter_h, blackout",
)
BOARD_EVERY = 10  # the caller's board goes with every tenth call
LOBBY_PATTERNS_ONE_BY_ONE = 4  # up to this many patterns: a picture each; more: one book
SEPARATORS = re.compile(r"[\s,>→]+")  # what may stand between codes ("-" and "_" are in codes)
NO_CUSTOM_PATTERNS: Mapping[str, Pattern] = MappingProxyType({})


@dataclass(frozen=True, kw_only=True)
class BingoOptions(CallingOptions):
    """Bingo's options: those of every calling game and how the numbers are called."""

    calls: str | None = option(str)  # CALLS_CLASSIC or CALLS_PLAIN (None: a game stored before)


def parse_patterns(text: str, custom: Mapping[str, Pattern]) -> tuple[Pattern, ...]:
    """``"line, x, blackout"`` (or ``>``, ``→``, spaces) as the patterns to play, in order, each
    at most once: the built-ins by code, and the server's ``custom`` patterns (by code; a custom
    code never shadows a built-in's). Refuses privately, naming the codes, a code that is
    neither, and a code named twice."""
    codes = pattern_codes(text)
    if not codes:
        raise UserError("bingo_no_patterns")
    patterns = []
    for code in codes:
        pattern = PATTERN_BOOK.get(code) or custom.get(code)
        if pattern is None:
            choices = ", ".join(f"`{known}`" for known in [*PATTERN_BOOK, *custom])
            raise UserError("bingo_bad_pattern", word=quoted(code), choices=choices)
        if pattern in patterns:
            raise UserError("bingo_pattern_twice", code=f"`{code}`")
        patterns.append(pattern)
    return tuple(patterns)


def pattern_codes(text: str) -> list[str]:
    """The codes of a list of patterns as typed or stored (``"line, x > blackout"``)."""
    return [code for code in SEPARATORS.split(text.strip().lower()) if code]


def pattern_suggestions(typed: str, custom: Mapping[str, Pattern]) -> list[str]:
    """What to offer while ``typed`` is being typed into ``patterns``: the usual plans when
    nothing is typed yet; else what was typed with its last code completed (each code that starts
    with it and is not named already), or followed by one more code once it is complete."""
    known = [*PATTERN_BOOK, *custom]
    if not typed.strip():
        return list(PATTERN_PLANS)
    codes = [code for code in SEPARATORS.split(typed.strip().lower()) if code]
    ended = bool(SEPARATORS.fullmatch(typed[-1:]))
    done, last = (codes, "") if ended else (codes[:-1], codes[-1])
    if last in known and not ended:
        done, last = codes, ""  # a whole code: offer the next one
    head = ", ".join(done)
    return [
        f"{head}, {code}" if head else code
        for code in known
        if code.startswith(last) and code not in done
    ]


@app_commands.guild_only()
class Bingo(
    CustomPatterns,
    CallingGameCog[BingoGame, ClaimResult],
    name="Bingo",
    group_name="bingo",
    group_description=_("Play 75-ball Bingo with a pattern book"),
):
    """The ``/bingo`` group: the calling base over ``engine.bingo``, its patterns played in
    sequence."""

    kind = "bingo"
    title = "Bingo"
    title_es = "Bingo"
    engine = BingoGame
    exhausted_reason = "bingo_numbers_out"
    show_command = "card"
    sandbox_start: ClassVar[Mapping[str, Any]] = {
        "patterns": "line, x, blackout",
        "interval": MIN_INTERVAL,
    }
    sandbox_bluffs = FALSE_CLAIM_LIMIT  # the second false claim takes a player out

    # -- words and pictures --------------------------------------------------------------------

    def patterns_of(self, game: GameRow) -> tuple[Pattern, ...]:
        """The patterns ``game`` plays, in order."""
        return self.state_of(game).patterns

    def prize_name(self, prize: str, locale: LocaleLike = None) -> str:
        builtin = PATTERN_BOOK.get(prize)
        if builtin is not None:
            return render.pattern_name(builtin, locale)
        return self.custom_name(prize)

    def default_plan(self, stored: str | None, guild_id: int | None) -> tuple[Pattern, ...]:
        """The patterns a server's defaults (``/gamenight settings``, as stored) play: its own
        as the bot holds them. One of its own deleted since is refused, naming it and how to
        change the defaults (the start command with no patterns given, a planned night)."""
        if stored is None:
            return parse_patterns(DEFAULT_PATTERNS, NO_CUSTOM_PATTERNS)
        custom = self.server_patterns(guild_id)
        for code in pattern_codes(stored):
            if code not in PATTERN_BOOK and code not in custom:
                raise UserError("bingo_default_pattern_gone", name=shown(self.custom_name(code)))
        return parse_patterns(stored, custom)

    def pattern_label(self, game: GameRow, code: str, locale: LocaleLike) -> str:
        """The name of ``game``'s pattern ``code`` in ``locale`` (a custom one as it was named)."""
        return render.pattern_name(self.state_of(game).pattern(code), locale)

    @classmethod
    def link_rules(cls) -> LinkRules:
        """The verification link carries the game's custom patterns whole (``patterns``)."""
        return dataclasses.replace(super().link_rules(), custom_prizes=PATTERNS_IN_LINK)

    def verify_values(self, game: GameRow) -> dict[str, str]:
        return link_values(self.patterns_of(game))

    def board_number(self, board: BoardRow) -> int:
        return board.deal_index + 1  # a player's one card is numbered by its deal

    def render_boards(
        self,
        game: GameRow,
        boards: Sequence[BoardRow],
        called: Sequence[int],
        locale: LocaleLike = None,
    ) -> list[Rendered]:
        playing = self.state_of(game).current_prize
        return [
            render.render_card(
                Card.from_state(board.state),
                game_id=str(game.id),
                card_number=self.board_number(board),
                called=called,
                pattern=playing,
                locale=locale,
            )
            for board in boards
        ]

    def render_call(self, game: GameRow, value: int, seq: int) -> tuple[str, list[Rendered]]:
        locale = self.channel_locale(game)
        # The stored state is at or past this call (a call is stored before it is announced).
        earlier = self.called(game)[: seq - 1]
        pictures = [
            render.render_call(
                value,
                recent=earlier[-5:],
                call_number=seq,
                total=HIGHEST_NUMBER,
                nickname=self.call_nickname(game, value),
                locale=locale,
            )
        ]
        text = self.call_text(game, value, seq)
        if seq % BOARD_EVERY == 0:
            pictures.append(render.render_caller_board([*earlier, value], locale=locale))
            text += "\n" + self.say("bingo_board_after", locale, seq=seq)
        return text, pictures

    def spoken_call(self, game: GameRow, value: int, seq: int, language: Language) -> list[Phrase]:
        """As a bingo caller says it: the letter and the number, with classic calls its
        nickname and the letter and number again."""
        called = call_name(value).replace("-", " ") + "."
        if (self.options_of(game).calls or CALLS_PLAIN) != CALLS_CLASSIC:
            return [Phrase(called, language)]
        return called_with_nickname(called, value, language)

    def call_nickname(self, game: GameRow, value: int) -> str | None:
        """The number's traditional nickname in the channel's language ("Legs eleven" for 11),
        when the host chose classic calls (the default; a game stored before the option was
        called plainly)."""
        if (self.options_of(game).calls or CALLS_PLAIN) != CALLS_CLASSIC:
            return None
        return nickname(value, self.channel_locale(game))

    def call_text(self, game: GameRow, value: int, seq: int) -> str:
        """The call by name ("B-7"), its nickname with classic calls, and what is being played
        for now (or that all is won)."""
        locale = self.channel_locale(game)
        called_as = self.call_nickname(game, value)
        playing_now = self.state_of(game).current_prize
        playing = (
            self.say("bingo_playing_for", locale, pattern=render.pattern_name(playing_now, locale))
            if playing_now
            else self.say("bingo_playing_nothing_left", locale)
        )
        return self.say(
            "bingo_call_line",
            locale,
            name=call_name(value),
            nickname=f" · *{called_as}*" if called_as else "",
            seq=seq,
            total=HIGHEST_NUMBER,
            playing=playing,
        )

    def claim_button(self, game: GameRow) -> GameButton:
        label = self.say("bingo_claim_button", self.channel_locale(game))
        return GameButton.make(self.kind, "claim", game.id, label, discord.ButtonStyle.success)

    def render_win(
        self,
        game: GameRow,
        verdict: Verdict[ClaimResult],
        called: Sequence[int],
        locale: LocaleLike,
    ) -> Rendered:
        return render.render_card(
            Card.from_state(verdict.board.state),
            game_id=str(game.id),
            card_number=self.board_number(verdict.board),
            called=called,
            winning=verdict.check.cells,
            pattern=self.state_of(game).pattern(verdict.prize),
            locale=locale,
        )

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
            card = Card.from_state(won.board.state)
            pattern = state.pattern(winner.prize)
            # The cells that won, as the claim found them (one with the last number first).
            result = check_claim(card, state.called[: winner.step], pattern)
            if not result.valid:
                continue
            wins.append(
                render_results.BingoWin(
                    name=won.name,
                    prize=render.pattern_name(pattern, locale),
                    pattern=pattern,
                    seq=winner.step,
                    card=card,
                    card_number=self.board_number(won.board),
                    cells=result.cells,
                    shared=won.shared,
                )
            )
        return render_results.render_bingo_result(
            wins, game_id=str(game.id), called=state.called, locale=locale
        )

    def replay_frame(
        self, game: GameRow, called: Sequence[int], locale: LocaleLike
    ) -> Image.Image | None:
        return render.caller_board_frame(called, locale=locale)

    def lobby_pictures(self, game: GameRow) -> list[Rendered]:
        """The patterns to be played: a small picture each, or one book of them when many."""
        patterns = self.patterns_of(game)
        locale = self.channel_locale(game)
        if len(patterns) <= LOBBY_PATTERNS_ONE_BY_ONE:
            return [render.render_pattern(pattern, locale=locale) for pattern in patterns]
        return [render.render_pattern_book(patterns, locale=locale)]

    async def false_claim(
        self, game: GameRow, user: discord.abc.User, verdict: Verdict[ClaimResult]
    ) -> str:
        """As every calling game's (a second false claim takes the player out), the pattern named
        in the channel's language rather than the engine's English."""
        player = await self.storage.record_false_claim(game.id, user.id, limit=FALSE_CLAIM_LIMIT)
        self.player_in_memory(player)
        locale = self.channel_locale(game)
        consequence = self.say("false_out" if player.out else "false_warn", locale)
        shown = (
            {"name": self.pattern_label(game, verdict.prize, locale)}
            if "name" in verdict.values
            else {}
        )
        reason = reason_text(verdict.reason, verdict.code, verdict.values, locale, **shown)
        return self.say(
            "false_claim", locale, user=user.mention, reason=reason, consequence=consequence
        )

    def options_of(self, game: GameRow) -> BingoOptions:
        return BingoOptions.from_stored(game.options)

    def scheduled_game(
        self, seed: bytes, defaults: GameDefaults, *, guild_id: int | None = None
    ) -> tuple[str, BingoOptions]:
        """A planned night plays what the start command would with no options given: the
        server's default patterns, its own among them."""
        plan = self.default_plan(defaults.prizes, guild_id)
        options = BingoOptions(
            interval=defaults.interval or DEFAULT_INTERVAL,
            max_players=DEFAULT_MAX_PLAYERS,
            require_last=False,
            calls=CALLS_CLASSIC,
        )
        return BingoGame.new(seed, plan).to_state(), options

    @classmethod
    def claim_options(cls, prize: str, board_number: int) -> dict[str, Any]:
        return {"pattern": prize}

    def default_prizes(self, text: str, *, guild_id: int | None = None) -> str:
        """The built-ins and the server's own patterns, by code, as the start command reads
        them."""
        custom = self.server_patterns(guild_id)
        return ", ".join(pattern.code for pattern in parse_patterns(text, custom))

    def describe_prizes(
        self, stored: str | None, locale: LocaleLike, *, guild_id: int | None = None
    ) -> str:
        """The patterns by name; one of the server's own deleted since, said so."""
        custom = self.server_patterns(guild_id)
        names = []
        for code in pattern_codes(stored or DEFAULT_PATTERNS):
            pattern = PATTERN_BOOK.get(code) or custom.get(code)
            if pattern is None:
                gone = shown(self.custom_name(code))
                names.append(message("bingo_pattern_deleted", locale, name=gone))
            else:
                name = render.pattern_name(pattern, locale)
                names.append(name if pattern.is_builtin else shown(name))
        return " → ".join(names)

    def prize_suggestions(
        self, typed: str, locale: LocaleLike, *, guild_id: int | None = None
    ) -> list[tuple[str, str]]:
        offered = pattern_suggestions(typed, self.server_patterns(guild_id))
        return [(plan, plan) for plan in offered[:25]]

    def describe_options(self, game: GameRow) -> str:
        locale = self.channel_locale(game)
        options = self.options_of(game)
        return self.say(
            "bingo_options",
            locale,
            patterns=" → ".join(
                render.pattern_name(pattern, locale) for pattern in self.patterns_of(game)
            ),
            interval=options.interval,
            most=options.max_players,
        )

    # -- commands ------------------------------------------------------------------------------

    @app_commands.command(name="start", description=_("Open a Bingo lobby in this channel"))
    @app_commands.describe(
        patterns=_("Patterns in order, e.g. line, x, blackout"),
        interval=_("Seconds between numbers (5-120)"),
        max_players=_("Most players who can join"),
        slept_rule=_("A win must include the last number called"),
        calls=_("Call the numbers plainly, or with their traditional names"),
    )
    @app_commands.choices(
        calls=[
            app_commands.Choice(name=_("Classic: with their names"), value=CALLS_CLASSIC),
            app_commands.Choice(name=_("Plain: the numbers only"), value=CALLS_PLAIN),
        ]
    )
    async def start(
        self,
        interaction: discord.Interaction[Any],
        patterns: str | None = None,
        interval: app_commands.Range[int, MIN_INTERVAL, MAX_INTERVAL] | None = None,
        max_players: app_commands.Range[int, 1, MAX_PLAYERS_LIMIT] = DEFAULT_MAX_PLAYERS,
        slept_rule: bool = False,
        calls: str = CALLS_CLASSIC,
    ) -> None:
        settings = await self.host_settings(interaction)
        # What the host leaves out, the server's defaults fill (/gamenight settings).
        defaults = settings.defaults(self.kind)
        interval = interval if interval is not None else defaults.interval or DEFAULT_INTERVAL
        check_range("interval", interval, MIN_INTERVAL, MAX_INTERVAL)
        check_range("max_players", max_players, 1, MAX_PLAYERS_LIMIT)
        if calls not in {CALLS_CLASSIC, CALLS_PLAIN}:
            raise UserError("bingo_bad_calls")
        plan = (
            self.default_plan(defaults.prizes, interaction.guild_id)
            if patterns is None
            else parse_patterns(patterns, self.server_patterns(interaction.guild_id))
        )
        seed = self.bot.new_seed()
        await self.open_lobby(
            interaction,
            seed=seed,
            state=BingoGame.new(seed, plan).to_state(),
            options=BingoOptions(
                interval=interval, max_players=max_players, require_last=slept_rule, calls=calls
            ),
            settings=settings,
        )

    @start.autocomplete("patterns")
    async def patterns_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        offered = pattern_suggestions(current[:100], self.server_patterns(interaction.guild_id))
        return [app_commands.Choice(name=plan, value=plan) for plan in offered if len(plan) <= 100][
            :25
        ]

    @app_commands.command(name="join", description=_("Join the Bingo game in this channel"))
    async def join_command(self, interaction: discord.Interaction[Any]) -> None:
        # Every answer is private: acknowledged before the database is asked.
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.join(interaction, await self.game_here(interaction), boards=1)

    @app_commands.command(
        name="card", description=_("Show your card with the called numbers daubed")
    )
    @member_cooldown(BOARD_VIEW_RATE)
    async def card_command(self, interaction: discord.Interaction[Any]) -> None:
        await self.show_boards(interaction)

    @app_commands.command(name="board", description=_("Show the caller's board of called numbers"))
    @member_cooldown(BOARD_VIEW_RATE)
    async def board_command(self, interaction: discord.Interaction[Any]) -> None:
        self.known_here(interaction)  # no game here: refused at once, privately
        # A burst of views must not hold up the caller, nor other servers: the server's line.
        async with self.bot.heavy.turn(
            interaction.guild_id, Lane.VIEW, acknowledge=lambda: defer_public(interaction)
        ):
            game = await self.game_here(interaction)
            called = await self.seen_calls(game)
            locale = self.channel_locale(game)  # a public answer, as the calls
            image = await asyncio.to_thread(render.render_caller_board, called, locale=locale)
        await answer(
            interaction,
            self.say("bingo_board_now", locale, game=game.id, count=len(called)),
            ephemeral=False,
            files=[attachment(image)],
        )

    @app_commands.command(name="claim", description=_("BINGO! Claim the pattern being played"))
    @app_commands.describe(pattern=_("The pattern you completed"))
    async def claim_command(
        self, interaction: discord.Interaction[Any], pattern: str | None = None
    ) -> None:
        await self.claim(interaction, None, pattern.strip().lower() if pattern else None, None)

    @claim_command.autocomplete("pattern")
    async def pattern_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        # From memory only: an autocomplete is answered without asking the database.
        game = self.remembered_in_channel(interaction.channel_id or 0)
        if game is None:
            return []
        typed = current.strip().lower()[:100]
        # The pattern played now, and those won on the latest call (a claim on it shares them).
        live = self.live.get(game.id)
        seen = live.announced if live is not None else None
        winners = live.winners if live is not None and live.winners is not None else []
        offered = {
            *self.state_of(game).claimable_codes,
            *(w.prize for w in winners if w.step == seen),
        }
        choices = []
        for pattern in (p for p in self.patterns_of(game) if p.code in offered):
            name = render.pattern_name(pattern, interaction.locale)
            if typed in name.lower() or pattern.code.startswith(typed):
                choices.append(app_commands.Choice(name=name[:100], value=pattern.code))
        return choices[:25]

    # -- /help ---------------------------------------------------------------------------------

    help_keys = (
        "help_bingo_summary",
        "help_bingo_round",
        "help_bingo_patterns",
        "help_bingo_claims",
        "help_bingo_custom",
    )

    def help_pictures(self, locale: LocaleLike) -> list[Rendered]:
        return [render_help.render_bingo_patterns(locale)]

    # -- its pictures, ahead of a game and as samples ------------------------------------------

    warm_up_pictures = staticmethod(render.warm_up)
    sample_pictures = staticmethod(samples.sample_pictures)


# What Bingo adds to /gamenight settings: its patterns in the prizes option's description.
register_game_settings(GameSettings(Bingo.kind, prizes="bingo_settings_prizes"))


async def setup(bot: GameNightBot) -> None:
    await bot.add_cog(Bingo(bot))
