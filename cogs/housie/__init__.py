"""``/housie``: 90-ball Housie / Tambola. The rules live in ``engine.housie``."""

from __future__ import annotations

import asyncio
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from PIL import Image

import cogs.housie.words  # noqa: F401  (its words, registered on import)
from bot.attachments import attachment
from bot.call_names import CALLS_CLASSIC, CALLS_PLAIN, nickname
from bot.calling import (
    DEFAULT_INTERVAL,
    DEFAULT_MAX_PLAYERS,
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
from bot.i18n import LocaleLike, is_spanish
from bot.reasons import reason_text
from bot.render import Rendered
from bot.render import housie as render
from bot.render.housie import help as render_help
from bot.render.housie import results as render_results
from bot.replies import UserError, answer, check_range, defer_public, send_ephemeral
from bot.storage import BoardRow, GameDefaults, GameRow, GameStatus, PlayerRow, WinnerRow
from bot.throttle import BOARD_VIEW_RATE, Lane, member_cooldown
from bot.voice.phrase import Phrase
from bot.voice.voices import Language
from cogs.housie import samples
from engine import housie
from engine.errors import GameError, quoted
from engine.housie import HousieGame, Prize, PrizeCheck, Ticket, check_prize

if TYPE_CHECKING:
    from bot.app import GameNightBot

TOTAL_NUMBERS = 90
SPANISH_PRIZE_NAMES = {prize: render.prize_name(prize, "es") for prize in Prize}
# The prizes a host (or a server's defaults) switches on; Full House is always played.
PRIZE_SWITCHES: dict[str, tuple[Prize, ...]] = {
    "early_five": (Prize.EARLY_FIVE,),
    "lines": (Prize.TOP_LINE, Prize.MIDDLE_LINE, Prize.BOTTOM_LINE),
    "corners": (Prize.FOUR_CORNERS,),
    "extra_houses": (Prize.SECOND_HOUSE, Prize.THIRD_HOUSE),
}
DEFAULT_SWITCHES = ("early_five", "lines", "corners")  # the start command's own defaults
ONLY_FULL_HOUSE = "full_house"
# How a switch is named in English and Spanish, then other ways to write it (accents, case and
# "_" aside).
SWITCH_WORDS: dict[str, tuple[str, ...]] = {
    "early_five": ("early five", "cinco primeros"),
    "lines": ("lines", "líneas"),
    "corners": ("corners", "esquinas", "four corners", "cuatro esquinas"),
    "extra_houses": ("extra houses", "casas extra"),
    ONLY_FULL_HOUSE: ("full house", "cartón lleno"),  # always played: accepted, changes nothing
}
FILLER_WORDS = frozenset({"and", "y", "e"})
SUGGESTED_SWITCHES = (
    ("early_five", "lines", "corners"),
    ("early_five", "lines", "corners", "extra_houses"),
    ("lines", "corners"),
    ("early_five", "lines"),
    ("lines",),
    (),
)
BOARD_EVERY = 10
MAX_TICKETS = 6


@dataclass(frozen=True, kw_only=True)
class HousieOptions(CallingOptions):
    """Housie's options: those of every calling game, the most tickets a player may take and
    how the numbers are called."""

    max_tickets: int | None = option(int)
    calls: str | None = option(str)  # CALLS_CLASSIC or CALLS_PLAIN


@app_commands.guild_only()
class Housie(
    CallingGameCog[HousieGame, PrizeCheck],
    name="Housie",
    group_name="housie",
    group_description=_("Play Housie (Tambola), 90-ball bingo"),
):
    kind = "housie"
    title = "Housie"
    title_es = "Tómbola"
    engine = HousieGame
    exhausted_reason = "reason_numbers_out"
    show_command = "ticket"
    most_boards = MAX_TICKETS
    sandbox_start: ClassVar[Mapping[str, Any]] = {"tickets": 2, "interval": MIN_INTERVAL}
    sandbox_bluffs = 1  # a bogey costs a ticket

    # -- words and pictures --------------------------------------------------------------------

    def board_code(self, game: GameRow, board: Ticket) -> str:
        """Each ticket carries a code signed with the bot's key (``/housie check``)."""
        return housie.encode_ticket_code(board, game.id, self.bot.settings.signing_key)

    def prize_name(self, prize: str, locale: LocaleLike = None) -> str:
        if is_spanish(locale):
            return SPANISH_PRIZE_NAMES[Prize(prize)]
        return Prize(prize).display_name

    def render_boards(
        self,
        game: GameRow,
        boards: Sequence[BoardRow],
        called: Sequence[int],
        locale: LocaleLike = None,
    ) -> list[Rendered]:
        return [
            render.render_ticket(
                Ticket.from_state(board.state),
                game_id=str(game.id),
                code=board.code,
                called=called,
                ticket_number=board.board_index + 1,
                out=board.out,
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
        called = self.called(game)
        locale = self.channel_locale(game)
        wins = []
        for won in self.won_boards(winners, boards, players, locale):
            winner = won.winner
            ticket = Ticket.from_state(won.board.state)
            result = check_prize(ticket, called[: winner.step], Prize(winner.prize))
            if not result.valid:
                continue
            wins.append(
                render_results.HousieWin(
                    name=won.name,
                    prize=self.prize_name(winner.prize, locale),
                    seq=winner.step,
                    ticket=ticket,
                    numbers=result.numbers,
                    ticket_number=won.board.board_index + 1,
                    shared=won.shared,
                )
            )
        return render_results.render_housie_result(
            wins, game_id=str(game.id), called=called, locale=locale
        )

    def spoken_call(self, game: GameRow, value: int, seq: int, language: Language) -> list[Phrase]:
        """As a caller says it: the number, its nickname, the number again (with classic
        calls; the number alone with plain ones)."""
        if (self.options_of(game).calls or CALLS_PLAIN) != CALLS_CLASSIC:
            return [Phrase(f"{value}.", language)]
        return called_with_nickname(f"{value}.", value, language)

    def render_call(self, game: GameRow, value: int, seq: int) -> tuple[str, list[Rendered]]:
        locale = self.channel_locale(game)
        classic = (self.options_of(game).calls or CALLS_PLAIN) == CALLS_CLASSIC
        name = nickname(value, locale) if classic else None
        text = self.say("housie_call", locale, value=value, seq=seq, total=TOTAL_NUMBERS)
        if name:
            text += f" · *{name}*"
        earlier = self.called(game)[: seq - 1]
        pictures = [
            render.render_housie_call(
                value, recent=earlier, call_number=seq, nickname=name, locale=locale
            )
        ]
        if seq % BOARD_EVERY == 0:
            pictures.append(render.render_caller_board(self.called(game)[:seq], locale=locale))
            text += "\n" + self.say("housie_board_after", locale, seq=seq)
        return text, pictures

    def replay_frame(
        self, game: GameRow, called: Sequence[int], locale: LocaleLike
    ) -> Image.Image | None:
        return render.caller_board_frame(called, locale=locale)

    def prize_opens(self, game: GameRow, prize: str, winners: Sequence[WinnerRow]) -> int | None:
        """Housie's prizes are played together from the first call, but a house after the
        first, played from the call the house before it was won on."""
        needs = Prize(prize).needs
        if needs is None:
            return 0
        return next((w.step for w in winners if w.prize == needs.value), None)

    def eligible_boards(
        self, boards: list[BoardRow], winners: Sequence[WinnerRow], prize: str
    ) -> list[BoardRow]:
        """A ticket that won a full house cannot win the second or third one too."""
        if not Prize(prize).is_house:
            return boards
        houses = {w.board_id for w in winners if Prize(w.prize).is_house}
        return [board for board in boards if board.id not in houses]

    def render_win(
        self,
        game: GameRow,
        verdict: Verdict[PrizeCheck],
        called: Sequence[int],
        locale: LocaleLike,
    ) -> Rendered:
        board = verdict.board
        return render.render_ticket(
            Ticket.from_state(board.state),
            game_id=str(game.id),
            code=board.code,
            called=called,
            winning=verdict.check.numbers,
            prize=Prize(verdict.prize),
            ticket_number=board.board_index + 1,
            locale=locale,
        )

    async def false_claim(
        self, game: GameRow, user: discord.abc.User, verdict: Verdict[PrizeCheck]
    ) -> str:
        """A bogey takes that ticket out for the rest of the game (the one that came closest to
        the prize: ``CallingGameCog.judge``); prizes it won stay won."""
        await self.storage.set_board_out(verdict.board.id)
        self.board_out_in_memory(verdict.board)
        locale = self.channel_locale(game)
        prize = self.prize_name(verdict.prize, locale)
        return self.say(
            "housie_bogey",
            locale,
            user=user.mention,
            prize=prize,
            reason=reason_text(verdict.reason, verdict.code, verdict.values, locale, prize=prize),
            ticket=verdict.board.board_index + 1,
        )

    @classmethod
    def claim_options(cls, prize: str, board_number: int) -> dict[str, Any]:
        return {"prize": prize, "ticket": board_number}

    @classmethod
    def prize_pick(cls, prize: str) -> str | None:
        return cls.prize_action(prize)

    @staticmethod
    def prize_action(prize: str) -> str:
        """The action of the button that claims ``prize`` (``on_button`` reads it back)."""
        return f"prize{list(Prize).index(Prize(prize))}"

    def parse_prize_input(self, text: str) -> Prize:
        """The prize a player typed: its code, or its name in English or Spanish."""
        try:
            return Prize.parse(text)
        except GameError:
            pass
        wanted = _fold(text)
        for prize, name in SPANISH_PRIZE_NAMES.items():
            if _fold(name) == wanted:
                return prize
        raise UserError("housie_not_a_prize", prize=quoted(text))

    def options_of(self, game: GameRow) -> HousieOptions:
        return HousieOptions.from_stored(game.options)

    def scheduled_game(
        self, seed: bytes, defaults: GameDefaults, *, guild_id: int | None = None
    ) -> tuple[str, HousieOptions]:
        """A planned night plays what the start command would with no options given."""
        switches = DEFAULT_SWITCHES if defaults.prizes is None else parse_switches(defaults.prizes)
        state = HousieGame.new(prizes_of(switches), seed)
        options = HousieOptions(
            interval=defaults.interval or DEFAULT_INTERVAL,
            max_players=DEFAULT_MAX_PLAYERS,
            max_tickets=1,
            require_last=False,
            calls=CALLS_CLASSIC,
        )
        return state.to_state(), options

    def default_prizes(self, text: str, *, guild_id: int | None = None) -> str:
        return switches_text(parse_switches(text))

    def describe_prizes(
        self, stored: str | None, locale: LocaleLike, *, guild_id: int | None = None
    ) -> str:
        switches = DEFAULT_SWITCHES if stored is None else parse_switches(stored)
        return ", ".join(self.prize_name(prize.value, locale) for prize in prizes_of(switches))

    def prize_suggestions(
        self, typed: str, locale: LocaleLike, *, guild_id: int | None = None
    ) -> list[tuple[str, str]]:
        offered = [
            (
                ", ".join(switch_name(s, locale) for s in switches or (ONLY_FULL_HOUSE,)),
                switches_text(switches),
            )
            for switches in SUGGESTED_SWITCHES
        ]
        wanted = _fold(typed)
        return [pair for pair in offered if wanted in _fold(pair[0])] or offered

    def describe_options(self, game: GameRow) -> str:
        locale = self.channel_locale(game)
        prizes = ", ".join(self.prize_name(p.value, locale) for p in self.state_of(game).prizes)
        return self.say(
            "housie_options",
            locale,
            prizes=prizes,
            interval=self.options_of(game).interval,
            most=self.options_of(game).max_tickets,
        )

    def answers_privately(self, action: str) -> bool:
        return (
            super().answers_privately(action) or action == "claim" or action.startswith("tickets")
        )

    async def on_button(
        self, interaction: discord.Interaction[Any], action: str, game_id: int
    ) -> None:
        if action.startswith("prize") and action[5:].isdigit():
            prizes = list(Prize)
            index = int(action[5:])
            if index >= len(prizes):
                raise UserError("button_gone")
            await self.claim(interaction, game_id, prizes[index].value, None)
            return
        if not self.answers_privately(action):
            await super().on_button(interaction, action, game_id)
            return
        game = await self.button_game(interaction, game_id)  # (acknowledged already)
        if action == "join" and self.most_tickets(game) > 1:
            await self.offer_ticket_counts(interaction, game)
        elif action.startswith("tickets") and action[7:].isdigit():
            await self.join(interaction, game, boards=self.ticket_count(game, int(action[7:])))
        elif action == "claim":
            await self.offer_prizes(interaction, game)
        else:
            await super().on_button(interaction, action, game_id)

    async def offer_ticket_counts(
        self, interaction: discord.Interaction[Any], game: GameRow
    ) -> None:
        if game.status is not GameStatus.LOBBY:
            raise self.refusal("joins_closed", game=game.id)
        view = discord.ui.View(timeout=None)
        for count in range(1, self.most_tickets(game) + 1):
            view.add_item(
                GameButton.make(
                    self.kind, f"tickets{count}", game.id, str(count), discord.ButtonStyle.primary
                )
            )
        await send_ephemeral(
            interaction, self.say("housie_how_many", interaction.locale), view=view
        )

    async def offer_prizes(self, interaction: discord.Interaction[Any], game: GameRow) -> None:
        if not game.status.is_live:
            raise self.refusal("game_over", game=game.id)
        if await self.storage.get_player(game.id, interaction.user.id) is None:
            raise self.refusal("not_playing", game=game.id)
        offered = await self.prizes_offered(game)
        if not offered:
            raise UserError("all_won")
        view = discord.ui.View(timeout=None)
        for value in offered:
            view.add_item(
                GameButton.make(
                    self.kind,
                    self.prize_action(value),
                    game.id,
                    self.prize_name(value, interaction.locale),
                    discord.ButtonStyle.success,
                )
            )
        await send_ephemeral(
            interaction, self.say("housie_which_prize", interaction.locale), view=view
        )

    def prizes_offered_now(self, game: GameRow) -> list[str]:
        """:meth:`prizes_offered` from what the bot holds in memory (for autocomplete)."""
        live = self.live.get(game.id)
        seen = live.announced if live is not None else None
        winners = live.winners if live is not None and live.winners is not None else []
        offered = {*self.open_prizes(game), *(w.prize for w in winners if w.step == seen)}
        return [prize.value for prize in self.state_of(game).prizes if prize.value in offered]

    async def prizes_offered(self, game: GameRow) -> list[str]:
        """The prizes a claim may name now, in the order they are listed: those still played,
        and those won on the latest call (a claim on it shares them until the game ends, a few
        seconds after its last prize)."""
        offered = {*self.open_prizes(game), *await self.shareable_prizes(game)}
        return [prize.value for prize in self.state_of(game).prizes if prize.value in offered]

    def most_tickets(self, game: GameRow) -> int:
        """The most tickets a player of ``game`` may take."""
        return self.options_of(game).max_tickets or 1

    def ticket_count(self, game: GameRow, wanted: int) -> int:
        most = self.most_tickets(game)
        if not 1 <= wanted <= most:
            raise UserError("housie_ticket_count", most=most)
        return wanted

    # -- commands ------------------------------------------------------------------------------

    @app_commands.command(name="start", description=_("Open a Housie lobby in this channel"))
    @app_commands.describe(
        tickets=_("Most tickets a player may take (1-6)"),
        interval=_("Seconds between numbers (5-120)"),
        early_five=_("Play Early Five"),
        lines=_("Play Top, Middle and Bottom Line"),
        corners=_("Play Four Corners"),
        extra_houses=_("Also play 2nd and 3rd Full House"),
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
        tickets: app_commands.Range[int, 1, MAX_TICKETS] = 1,
        interval: app_commands.Range[int, MIN_INTERVAL, MAX_INTERVAL] | None = None,
        early_five: bool | None = None,
        lines: bool | None = None,
        corners: bool | None = None,
        extra_houses: bool | None = None,
        max_players: app_commands.Range[int, 1, MAX_PLAYERS_LIMIT] = DEFAULT_MAX_PLAYERS,
        slept_rule: bool = False,
        calls: str = CALLS_CLASSIC,
    ) -> None:
        settings = await self.host_settings(interaction)
        # What the host leaves out, the server's defaults fill (/gamenight settings).
        defaults = settings.defaults(self.kind)
        interval = interval if interval is not None else defaults.interval or DEFAULT_INTERVAL
        chosen = DEFAULT_SWITCHES if defaults.prizes is None else parse_switches(defaults.prizes)
        switched = {
            "early_five": early_five,
            "lines": lines,
            "corners": corners,
            "extra_houses": extra_houses,
        }
        on = [
            switch
            for switch, given in switched.items()
            if (switch in chosen if given is None else given)
        ]
        if calls not in {CALLS_CLASSIC, CALLS_PLAIN}:
            raise UserError("housie_bad_calls")
        check_range("tickets", tickets, 1, MAX_TICKETS)
        check_range("interval", interval, MIN_INTERVAL, MAX_INTERVAL)
        check_range("max_players", max_players, 1, MAX_PLAYERS_LIMIT)
        seed = self.bot.new_seed()
        try:
            state = HousieGame.new(prizes_of(on), seed)
        except GameError as error:
            raise UserError(str(error)) from None
        await self.open_lobby(
            interaction,
            seed=seed,
            state=state.to_state(),
            options=HousieOptions(
                interval=interval,
                max_players=max_players,
                max_tickets=tickets,
                require_last=slept_rule,
                calls=calls,
            ),
            settings=settings,
        )

    @app_commands.command(name="join", description=_("Join the Housie game in this channel"))
    @app_commands.describe(tickets=_("How many tickets you want"))
    async def join_command(
        self,
        interaction: discord.Interaction[Any],
        tickets: app_commands.Range[int, 1, MAX_TICKETS] = 1,
    ) -> None:
        # Every answer is private: acknowledged before the database is asked.
        await interaction.response.defer(ephemeral=True, thinking=True)
        game = await self.game_here(interaction)
        await self.join(interaction, game, boards=self.ticket_count(game, tickets))

    @app_commands.command(
        name="ticket", description=_("Show your tickets with the called numbers marked")
    )
    @member_cooldown(BOARD_VIEW_RATE)
    async def ticket_command(self, interaction: discord.Interaction[Any]) -> None:
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
            self.say("housie_board_now", locale, game=game.id, count=len(called)),
            ephemeral=False,
            files=[attachment(image)],
        )

    @app_commands.command(name="claim", description=_("Claim a prize"))
    @app_commands.describe(prize=_("The prize you completed"), ticket=_("Which of your tickets"))
    async def claim_command(
        self,
        interaction: discord.Interaction[Any],
        prize: str,
        ticket: app_commands.Range[int, 1, MAX_TICKETS] | None = None,
    ) -> None:
        if ticket is not None:
            check_range("ticket", ticket, 1, MAX_TICKETS)
        wanted = self.parse_prize_input(prize)
        await self.claim(interaction, None, wanted.value, ticket)

    @claim_command.autocomplete("prize")
    async def prize_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        # From memory only: an autocomplete is answered without asking the database.
        game = self.remembered_in_channel(interaction.channel_id)
        values = self.prizes_offered_now(game) if game else [p.value for p in Prize]
        typed = current.strip().lower()[:100]
        return [
            app_commands.Choice(name=self.prize_name(value, interaction.locale), value=value)
            for value in values
            if typed in self.prize_name(value, interaction.locale).lower()
            or typed in self.prize_name(value).lower()
            or typed == value.lower()
        ][:25]

    @app_commands.command(
        name="check", description=_("Check a ticket code: valid, which game, or tampered")
    )
    @app_commands.describe(code=_("The code printed under the ticket"))
    async def check_command(self, interaction: discord.Interaction[Any], code: str) -> None:
        try:
            ticket, game_id = housie.decode_ticket_code(code, self.bot.settings.signing_key)
        except GameError as error:
            raise UserError("housie_code_bad", error=error) from None
        # A private answer: acknowledged before the database is asked.
        await interaction.response.defer(ephemeral=True, thinking=True)
        # Codes from another server's games are not this server's to confirm.
        game = await self.storage.get_game(game_id)
        if game is None or game.kind != self.kind or game.guild_id != interaction.guild_id:
            raise UserError("housie_code_elsewhere")
        rows = " / ".join(" ".join(str(n) for n in row if n) for row in ticket.rows)
        await send_ephemeral(
            interaction, self.say("housie_code_good", interaction.locale, game=game_id, rows=rows)
        )

    # -- /help ---------------------------------------------------------------------------------

    help_keys = (
        "help_housie_summary",
        "help_housie_round",
        "help_housie_prizes",
        "help_housie_claims",
    )

    def help_pictures(self, locale: LocaleLike) -> list[Rendered]:
        names = {prize: self.prize_name(prize.value, locale) for prize in Prize}
        return [render_help.render_housie_prizes(locale, names)]

    # -- its pictures, ahead of a game and as samples ------------------------------------------

    warm_up_pictures = staticmethod(render.warm_up)
    sample_pictures = staticmethod(samples.sample_pictures)


def prizes_of(switches: Sequence[str]) -> tuple[Prize, ...]:
    """The prizes played with ``switches`` on, in the order they are played."""
    on = set(switches)
    prizes = [prize for switch, group in PRIZE_SWITCHES.items() if switch in on for prize in group]
    houses = [p for p in prizes if p.is_house]
    return (*[p for p in prizes if not p.is_house], Prize.FULL_HOUSE, *houses)


def parse_switches(text: str) -> tuple[str, ...]:
    """The prize switches named in ``text`` ("early five, lines and corners", "líneas y
    esquinas", "early_five, extra_houses"), in their usual order; "full house" alone: none."""
    words = [word for word in _words(text) if word not in FILLER_WORDS]
    if not words:
        raise UserError("housie_no_default_prizes")
    phrases = sorted(
        (
            (tuple(_words(name)), switch)
            for switch, names in SWITCH_WORDS.items()
            for name in (switch, *names)
        ),
        key=lambda pair: -len(pair[0]),  # the longest first: "four corners" before "corners"
    )
    found: set[str] = set()
    index = 0
    while index < len(words):
        match = next(
            (
                (phrase, switch)
                for phrase, switch in phrases
                if tuple(words[index : index + len(phrase)]) == phrase
            ),
            None,
        )
        if match is None:
            raise UserError(
                "housie_bad_default_prize",
                word=quoted(words[index]),
                choices=", ".join(
                    f"{SWITCH_WORDS[switch][0]} ({SWITCH_WORDS[switch][1]})"
                    for switch in PRIZE_SWITCHES
                ),
            )
        found.add(match[1])
        index += len(match[0])
    return tuple(switch for switch in PRIZE_SWITCHES if switch in found)


def switches_text(switches: Sequence[str]) -> str:
    """How default prize switches are stored (``parse_switches`` reads it back)."""
    return ", ".join(switches) or ONLY_FULL_HOUSE


def switch_name(switch: str, locale: LocaleLike) -> str:
    english, spanish = SWITCH_WORDS[switch][:2]
    return spanish if is_spanish(locale) else english


def _words(text: str) -> list[str]:
    """Lower-case words without accents; "_", "-", commas and the like separate them."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return [word for word in re.split(r"[^a-z0-9]+", plain) if word]


def _fold(text: str) -> str:
    """Lower case without accents, spaces or dashes: "Cartón lleno" == "carton-lleno"."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if ch.isalnum() and not unicodedata.combining(ch))


# What Housie adds to /gamenight settings: its prizes in the prizes option's description.
register_game_settings(GameSettings(Housie.kind, prizes="housie_settings_prizes"))


async def setup(bot: GameNightBot) -> None:
    await bot.add_cog(Housie(bot))
