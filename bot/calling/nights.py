"""Game nights planned ahead: ``/<game> schedule``, ``schedules`` and ``unschedule`` for the
calling games, and the loop that keeps them.

A night is a row of ``schedules`` (``bot.storage``): at ``starts_at - lobby_minutes`` the bot
posts the lobby in the channel; at ``starts_at`` it starts the game if anyone joined (else calls
it off); a weekly night then plans the next one, a week later. Each step moves the row by
compare-and-set, so a step is taken once, and the loop reads the rows again after a restart.
A night is announced as a Discord scheduled event (external, "#channel") when the bot may create
events (Create Events) and the server has room for one (Discord allows 100 to come); the event
is started with the game, completed at its end, deleted when called off. Discord itself starts
an external event at its start time and completes it at its end time, so the bot looks at the
event before moving it and leaves alone one Discord has moved already.

Planning needs what starting a game needs (the server's host role, when it has one), and is
limited: ``NIGHTS_PER_SERVER`` nights to come in a server, ``NIGHTS_PER_MEMBER`` of them planned
by one member. A night whose channel was deleted is called off for good, weekly or not. A weekly
night plans its next week in the same write that closes it, before anything is said on Discord,
and only while its host may still host in the server (asked of Discord each week) and its
channel is there; otherwise the series ends, once, with a word to the host (or to the channel,
when the host has left the server).

Times are typed as in ``bot.when`` and read in the server's time zone (UTC unless the server's
settings say otherwise). ``GameNightBot.now()`` is the clock the loop reads.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import datetime
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.calling.base import (
    CLAIMS_CHOICES,
    CLAIMS_DESCRIPTION,
    CLAIMS_OPTION,
    VOICE_DESCRIPTION,
    VOICE_OPTION,
)
from bot.calling.caller import CallerCog
from bot.calling.live import CheckT, GameT
from bot.calling.options import CLAIM_MODES
from bot.games import LEASE_WAIT, PostRefusal, post_refusal
from bot.permissions import can_change_own_events, can_create_events, require_posting
from bot.replies import UserError, answer, defer_private, defer_public
from bot.storage import (
    ChannelBusyError,
    GameRow,
    GameStatus,
    LeaseLostError,
    NightLimitError,
    ScheduleRow,
    ScheduleStatus,
    ServerSettings,
)
from bot.when import WhenError, parse_when, zone_named
from engine.errors import quoted

if TYPE_CHECKING:
    from bot.app import GameNightBot

log = logging.getLogger(__name__)

LOBBY_MINUTES_DEFAULT = 10
LOBBY_MINUTES_MOST = 120
EVENT_HOURS = 2  # how long the Discord event says a night lasts
WEEK = 7 * 24 * 3600.0
IDLE_CHECK = 60.0  # seconds between looks when nothing is due sooner (clock changes, restarts)
# Guild Scheduled Event Status; once completed or canceled an event's status is final.
EVENT_SCHEDULED, EVENT_ACTIVE, EVENT_COMPLETED, EVENT_CANCELED = 1, 2, 3, 4
# Discord's answer when a server has its most events to come (scheduled or active): 400 / 30038.
MAX_SERVER_EVENTS = 100
EVENTS_FULL = 30038
# Nights still to come (waiting or with their lobby open), of every game: Discord allows a
# server 100 scheduled events, and each night posts in public and may DM its host, every week
# if weekly. A weekly night's next week replaces it, so it never counts twice.
NIGHTS_PER_SERVER = 25
NIGHTS_PER_MEMBER = 5  # planned by one member in one server


def member_may_host(member: discord.Member, settings: ServerSettings) -> bool:
    """Whether ``member`` (as read from Discord now) may host games in the server, by the rule
    ``bot.games.may_host`` applies to an interaction: anyone when no host role is set or the
    role was deleted since, else members with the role or with Manage Server."""
    role_id = settings.host_role_id
    if role_id is None:
        return True
    granted = member.guild_permissions  # the owner and Administrator hold every permission
    if granted.manage_guild or granted.administrator:
        return True
    # The role ids Discord sent (Member.roles drops those the cache does not know).
    if role_id in member._roles:
        return True
    guild = member.guild
    return guild.get_role(guild.id) is not None and guild.get_role(role_id) is None


class GameNights(CallerCog[GameT, CheckT]):
    """The planned nights of one calling game, over its lobby, its caller and its end."""

    def __init__(self, bot: GameNightBot) -> None:
        super().__init__(bot)
        self.nights_wake = asyncio.Event()
        self.nights_task: asyncio.Task[None] | None = None
        # This game's nights still to come in this client's servers, as the nights' loop last
        # read them (plus those planned since): what a plan is first answered from.
        self.nights_held: dict[int, ScheduleRow] = {}
        self.nights_reserved: list[tuple[int, int]] = []  # (server, host) of plans being stored

    # -- the loop ------------------------------------------------------------------------------

    def start_nights(self) -> None:
        """Start the loop that opens and starts this game's planned nights."""
        self.nights_wake = asyncio.Event()
        self.nights_task = asyncio.create_task(self._nights(), name=f"{self.kind}-nights")

    def stop_nights(self) -> None:
        """Stop that loop (the bot is stopping; the nights stay stored)."""
        if self.nights_task is not None:
            self.nights_task.cancel()

    def runs(self, schedule: ScheduleRow) -> bool:
        """Whether this client runs the night's server: it is on one of the client's shards (a
        fleet's client runs some; every other process of the fleet leaves the night alone)."""
        return self.bot.runs_guild(schedule.guild_id)

    async def hosts(self, schedule: ScheduleRow) -> bool:
        """Whether this client runs the night's server and the server is there (its shard
        connected, the bot still in it)."""
        return self.runs(schedule) and await self.bot.server(schedule.guild_id) is not None

    @staticmethod
    def next_step_at(schedule: ScheduleRow) -> float:
        """When the night's next step is due: its lobby's opening, or its start."""
        return (
            schedule.lobby_at if schedule.status is ScheduleStatus.WAITING else schedule.starts_at
        )

    async def _nights(self) -> None:
        while not self.is_closing():
            # Cleared before the look, not after it: a wake-up (a night planned, the clock
            # moved) that comes while the loop looks is not lost.
            self.nights_wake.clear()
            try:
                pending = [
                    s for s in await self.storage.pending_schedules(self.kind) if self.runs(s)
                ]
                self.nights_held = {schedule.id: schedule for schedule in pending}
                now = self.bot.now()
                stepped = False
                for schedule in (s for s in pending if self.next_step_at(s) <= now):
                    # As a game's timer does: a fleet's client waits for that server's shard
                    # only (one taking over several connects them seconds apart).
                    await self.bot.wait_until_shard_ready(schedule.guild_id)
                    if await self.hosts(schedule):
                        await self.take_step(schedule)
                        stepped = True
                if stepped:
                    continue
                # (A night due in a server the bot is not in is looked at again at the next.)
                later = [self.next_step_at(s) for s in pending if self.next_step_at(s) > now]
                delay = max(0.0, min(IDLE_CHECK, min(later, default=now + IDLE_CHECK) - now))
            except asyncio.CancelledError:
                raise
            except LeaseLostError as error:  # a fleet's client whose shard moved: it stops soon
                log.warning("the %s game nights' loop: %s; waiting", self.kind, error)
                delay = LEASE_WAIT
            except Exception:
                log.exception("the %s game nights' loop failed; looking again soon", self.kind)
                delay = IDLE_CHECK
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.nights_wake.wait(), delay)

    async def take_step(self, schedule: ScheduleRow) -> None:
        """Open the night's lobby, or start its game, whichever is due."""
        if schedule.status is ScheduleStatus.WAITING:
            await self.open_night(schedule)
        else:
            await self.begin_night(schedule)

    async def open_night(self, schedule: ScheduleRow) -> None:
        """Post the night's lobby: the night moves from waiting to lobby once."""
        if not await self.storage.update_schedule(
            schedule.id, expect=ScheduleStatus.WAITING, status=ScheduleStatus.LOBBY
        ):
            return
        seed = self.bot.new_seed()
        # The server's settings as they are when the lobby opens, not when the night was planned.
        settings = await self.storage.server_settings(schedule.guild_id)
        try:
            state, options = self.scheduled_game(
                seed, settings.defaults(self.kind), guild_id=schedule.guild_id
            )
        except UserError as unplayable:  # the server's default prizes name one deleted since
            locale = await self.public_locale(schedule.guild_id)
            await self.miss(schedule, "night_missed_prizes", reason=unplayable.text(locale))
            return
        # How its wins are found and where its calls are spoken: as planned (``schedule``'s
        # ``claims`` and ``voice``), else the server's way.
        options = self.with_chosen(options, schedule.options, settings.defaults(self.kind))
        locale = await self.public_locale(schedule.guild_id)
        options = dataclasses.replace(
            options, guild_locale=locale, night=schedule.id, event_id=schedule.event_id
        )
        try:
            game = await self.storage.create_game(
                kind=self.kind,
                guild_id=schedule.guild_id,
                channel_id=schedule.channel_id,
                host_id=schedule.host_id,
                seed=seed,
                options=options.to_stored(),
                state=state,
                alone_among=tuple(k.kind for k in self.bot.games() if k.calling),
            )
        except ChannelBusyError as busy:
            await self.miss(schedule, "night_missed_busy", game=busy.existing.id)
            return
        # The night knows its game before the lobby is posted (written before announced).
        await self.storage.update_schedule(
            schedule.id, expect=ScheduleStatus.LOBBY, game_id=game.id
        )
        note = self.say("night_lobby_note", locale, night=schedule.id, at=int(schedule.starts_at))
        try:
            message_id = await self.post_lobby(game, note)
        except discord.HTTPException as error:
            refusal = post_refusal(error)
            if refusal is None:  # Discord failed for now: the loop tries again
                raise
            await self.store_game(game.id, status=GameStatus.CANCELLED)
            if refusal is PostRefusal.GONE:  # the channel was deleted: no week after this one
                gone = "night_weekly_channel_gone" if schedule.weekly else "night_channel_gone"
                await self.miss(schedule, gone, goes_on=False)
            else:  # shut to the bot (a permission, a closed thread, AutoMod): weeks go on
                await self.miss(schedule, "night_missed_channel")
            return
        await self.store_game(game.id, lobby_message_id=message_id)

    async def miss(
        self, schedule: ScheduleRow, key: str, *, goes_on: bool = True, **values: Any
    ) -> None:
        """The night's lobby could not open: say so to the host. A weekly night goes on unless
        ``goes_on`` is false (its channel is gone): then it is called off for good."""
        ending = await self.series_end(schedule) if goes_on else None
        moved, following = await self.storage.close_schedule(
            schedule,
            expect=ScheduleStatus.LOBBY,
            status=ScheduleStatus.MISSED if goes_on else ScheduleStatus.CANCELLED,
            next_starts_at=self.next_week(schedule) if goes_on and ending is None else None,
        )
        if not moved:
            return
        locale = await self.public_locale(schedule.guild_id)
        text = self.say(key, locale, night=schedule.id, channel=schedule.channel_id, **values)
        await self.bot.tell(schedule.host_id, text)
        await self.delete_event(schedule)
        await self.after_night(schedule, following, ending)

    async def begin_night(self, schedule: ScheduleRow) -> None:
        """Start the night's game if anyone joined; otherwise call it off. A weekly night's next
        week is written with the night's close, before anything goes to Discord. A night whose
        channel was deleted with its lobby open is called off for good, weekly or not."""
        guild = await self.bot.server(schedule.guild_id)
        if guild is not None and await self.channel_gone(guild, schedule.channel_id):
            if schedule.game_id is not None:
                await self.store_game(
                    schedule.game_id, status=GameStatus.CANCELLED, expect_status=GameStatus.LOBBY
                )
            gone = "night_weekly_channel_gone" if schedule.weekly else "night_channel_gone"
            await self.miss(schedule, gone, goes_on=False)
            return
        ending = await self.series_end(schedule)
        moved, following = await self.storage.close_schedule(
            schedule,
            expect=ScheduleStatus.LOBBY,
            status=ScheduleStatus.DONE,
            next_starts_at=self.next_week(schedule) if ending is None else None,
        )
        if not moved:
            return
        game = await self.storage.get_game(schedule.game_id) if schedule.game_id else None
        if game is not None and game.status is GameStatus.LOBBY:
            if await self.storage.count_players(game.id):
                if await self.store_game(
                    game.id, status=GameStatus.RUNNING, expect_status=GameStatus.LOBBY
                ):
                    self.start_running(game.id)
                    await self.move_event(schedule.guild_id, schedule.event_id, EVENT_ACTIVE)
            else:
                await self.store_game(
                    game.id,
                    status=GameStatus.CANCELLED,
                    options=dataclasses.replace(
                        self.options_of(game), nobody_came=True
                    ).to_stored(),
                    expect_status=GameStatus.LOBBY,
                )
                self.start_running(game.id)  # the lobby says the night was called off
                await self.delete_event(schedule)
        await self.after_night(schedule, following, ending)

    def next_week(self, schedule: ScheduleRow) -> float | None:
        """When a weekly night's next one starts: a week later (weeks later, if the bot was
        down); None for a night planned once."""
        if not schedule.weekly:
            return None
        starts_at = schedule.starts_at + WEEK
        while starts_at <= self.bot.now():  # the bot was down for weeks
            starts_at += WEEK
        return starts_at

    # -- a weekly series -----------------------------------------------------------------------

    async def series_end(self, schedule: ScheduleRow) -> str | None:
        """Why a weekly night should not be planned again, as the message key that says so:
        its host left the server or may no longer host there; None while it goes on (and for
        a night planned once). Discord is asked each time: the bot has no members intent, so
        the host is read over REST (one request a week per series). When Discord cannot answer
        now, the series goes on: only a sure answer ends it. (A deleted channel ends a series
        where it is found: :meth:`begin_night`, :meth:`open_night`.)"""
        if not schedule.weekly:
            return None
        guild = await self.bot.server(schedule.guild_id)
        if guild is None:
            return None
        try:
            member = await guild.fetch_member(schedule.host_id)
        except discord.NotFound:
            return "night_series_host_left"
        except (discord.HTTPException, OSError) as error:
            log.info("could not read the host of night %s (%s); it goes on", schedule.id, error)
            return None
        settings = await self.storage.server_settings(guild.id)
        return None if member_may_host(member, settings) else "night_series_host_role"

    @staticmethod
    async def channel_gone(guild: discord.Guild, channel_id: int) -> bool:
        """Whether the night's channel (or thread) was deleted: not in the bot's cache (which
        CHANNEL_DELETE keeps) and Discord answers 404 for it."""
        if guild.get_channel_or_thread(channel_id) is not None:
            return False
        try:
            await guild.fetch_channel(channel_id)
        except discord.NotFound:
            return True
        except (discord.HTTPException, OSError):  # unsure (hidden from the bot, or no answer)
            return False
        return False

    async def after_night(
        self, schedule: ScheduleRow, following: ScheduleRow | None, ending: str | None
    ) -> None:
        """What follows a night closed: its next week announced, or the series' end said once."""
        if following is not None:
            no_event = await self.create_event(following)
            if no_event == "night_no_event_full" and schedule.event_id is not None:
                # The week before had its event: say once why this one has none.
                await self.bot.tell(
                    schedule.host_id,
                    self.say(
                        "night_event_full_weekly",
                        await self.public_locale(schedule.guild_id),
                        night=following.id,
                        at=int(following.starts_at),
                        limit=MAX_SERVER_EVENTS,
                    ),
                )
            self.nights_wake.set()
        elif ending is not None:
            await self.end_series(schedule, ending)

    async def end_series(self, schedule: ScheduleRow, key: str) -> None:
        """Tell who should know that a weekly night will not come back: its host, or, when the
        host has left the server (a DM would likely be refused), the night's channel."""
        log.info("weekly %s night %s ends: %s", self.kind, schedule.id, key)
        locale = await self.public_locale(schedule.guild_id)
        settings = await self.storage.server_settings(schedule.guild_id)
        text = self.say(
            key,
            locale,
            night=schedule.id,
            host=schedule.host_id,
            role=settings.host_role_id or 0,
        )
        if key != "night_series_host_left":
            await self.bot.tell(schedule.host_id, text)
            return
        try:
            await self.bot.get_partial_messageable(schedule.channel_id).send(
                text, allowed_mentions=discord.AllowedMentions.none()
            )
        except (discord.HTTPException, OSError) as error:
            log.info("could not say in its channel that night %s ends: %s", schedule.id, error)

    # -- the Discord event ---------------------------------------------------------------------

    async def create_event(self, schedule: ScheduleRow) -> str | None:
        """Announce the night as a Discord scheduled event; None when done, else the message
        key that says why there is none (no Create Events, the server full, Discord refused)."""
        guild = await self.bot.server(schedule.guild_id)
        if guild is None or not can_create_events(guild.me.guild_permissions):
            return "night_no_event"
        channel = guild.get_channel(schedule.channel_id)
        where = f"#{channel.name}" if channel is not None else "Discord"
        locale = await self.public_locale(schedule.guild_id)
        start = datetime.datetime.fromtimestamp(schedule.starts_at, datetime.UTC)
        try:
            event = await guild.create_scheduled_event(
                name=self.say("night_event_name", locale)[:100],
                description=self.say("night_event_description", locale, channel=where)[:1000],
                start_time=start,
                end_time=start + datetime.timedelta(hours=EVENT_HOURS),
                entity_type=discord.EntityType.external,
                location=where[:100],
                privacy_level=discord.PrivacyLevel.guild_only,
            )
        except discord.HTTPException as error:
            if error.code == EVENTS_FULL:
                log.info("no event for night %s: the server has its most events", schedule.id)
                return "night_no_event_full"
            log.warning("could not create the event of night %s: %s", schedule.id, error)
            return "night_no_event_failed"
        except OSError as error:
            log.warning("could not create the event of night %s: %s", schedule.id, error)
            return "night_no_event_failed"
        await self.storage.update_schedule(schedule.id, expect=schedule.status, event_id=event.id)
        return None

    async def move_event(self, guild_id: int | None, event_id: int | None, wanted: int) -> None:
        """Move the night's Discord event on to ``wanted`` (active, or completed), unless it is
        there or past it already: Discord starts and completes an external event by itself at
        its times, and refuses a status change after its own (400). The bot looks first, and
        once more if Discord moved the event between the look and the change; never more, and
        never louder than INFO: an event is a courtesy."""
        if guild_id is None or event_id is None:
            return
        guild = await self.bot.server(guild_id)
        if guild is None or not can_change_own_events(guild.me.guild_permissions):
            return
        for look in range(2):
            try:
                event = await self.bot.http.get_scheduled_event(
                    guild_id, event_id, with_user_count=False
                )
            except discord.NotFound:  # deleted in Discord meanwhile
                return
            except (discord.HTTPException, OSError) as error:
                log.info("could not read event %s: %s", event_id, error)
                return
            status = int(event["status"])
            if status >= wanted:  # there already, finished, or canceled: nothing to do
                log.debug("event %s is at status %s already", event_id, status)
                return
            try:
                # Only the moves Discord allows: scheduled -> active -> completed.
                for step in (EVENT_ACTIVE, EVENT_COMPLETED):
                    if status < step <= wanted:
                        await self.bot.http.edit_scheduled_event(guild_id, event_id, status=step)
            except discord.NotFound:
                return
            except discord.HTTPException as error:
                if error.status == 400 and look == 0:  # Discord moved it meanwhile: look again
                    continue
                log.info("could not move event %s to status %s: %s", event_id, wanted, error)
            except OSError as error:
                log.info("could not move event %s to status %s: %s", event_id, wanted, error)
            return

    async def delete_event(self, schedule: ScheduleRow) -> None:
        """Remove the night's Discord event, if it has one (whatever its status)."""
        if schedule.event_id is None:
            return
        guild = await self.bot.server(schedule.guild_id)
        if guild is None or not can_change_own_events(guild.me.guild_permissions):
            return
        try:
            await self.bot.http.delete_scheduled_event(schedule.guild_id, schedule.event_id)
        except (discord.HTTPException, OSError) as error:
            log.info("could not delete the event of night %s: %s", schedule.id, error)

    async def game_ended(self, game: GameRow) -> None:
        """A night's game has ended: its Discord event is completed."""
        await super().game_ended(game)
        if self.options_of(game).night is not None:
            await self.night_ended(game)

    async def night_ended(self, game: GameRow) -> None:
        """A night's game is over: its Discord event is completed (if Discord has not)."""
        event_id = self.options_of(game).event_id
        if event_id is not None:
            await self.move_event(game.guild_id, event_id, EVENT_COMPLETED)

    # -- commands ------------------------------------------------------------------------------

    async def public_locale(self, guild_id: int) -> str:
        """The language of the server's games in public (``/gamenight settings language``)."""
        guild = await self.bot.server(guild_id)
        settings = await self.storage.server_settings(guild_id)
        return settings.public_locale(guild.preferred_locale if guild is not None else "")

    @staticmethod
    def zone_of(settings: ServerSettings) -> datetime.tzinfo:
        """The server's time zone (``/gamenight settings time_zone``; UTC unless set)."""
        try:
            return zone_named(settings.time_zone)
        except WhenError:  # a name this machine's time zone database no longer knows
            return datetime.UTC

    async def schedule_night(
        self,
        interaction: discord.Interaction[Any],
        when: str,
        lobby: int,
        weekly: bool,
        claims: str | None = None,
        voice: int | None = None,
    ) -> None:
        """``/<game> schedule``: plan a night at ``when`` (the server's zone), announce it;
        ``claims``: how its game's wins are found (None: the server's way when it opens);
        ``voice``: the voice channel its calls are spoken in (None: the server's default)."""
        if interaction.guild_id is None or interaction.channel_id is None:
            raise UserError("no_dm_games")
        if not 1 <= lobby <= LOBBY_MINUTES_MOST:
            raise UserError("out_of_range", option="lobby", low=1, high=LOBBY_MINUTES_MOST)
        if claims is not None and claims not in CLAIM_MODES:
            raise UserError("claims_bad_mode", modes=", ".join(CLAIM_MODES))
        require_posting(interaction)
        settings = await self.host_settings(interaction)  # the host role, when the server has one
        zone = self.zone_of(settings)
        now = datetime.datetime.fromtimestamp(self.bot.now(), datetime.UTC)
        try:
            moment = parse_when(when, now, zone)
        except WhenError as error:
            raise UserError(error.key, when=quoted(when), zone=str(zone)) from None
        # The plan is announced in public: acknowledged publicly unless the limits, as counted
        # from memory with the plans being stored, may refuse it (then privately, and the
        # database counts). Plans are stored in the order they came, so that those counted
        # within the limits are stored first.
        guild_id, host_id = interaction.guild_id, interaction.user.id
        place = self.bot.in_order.place(("nights", guild_id))
        within = self.within_limits_in_memory(guild_id, host_id)
        reservation = (guild_id, host_id)
        if within:
            self.nights_reserved.append(reservation)
        try:
            await (defer_public if within else defer_private)(interaction)
            async with place:
                try:  # counted and added at once: a burst of plans cannot pass the limits
                    schedule = await self.storage.add_schedule(
                        kind=self.kind,
                        guild_id=guild_id,
                        channel_id=interaction.channel_id,
                        host_id=host_id,
                        starts_at=moment.timestamp(),
                        lobby_minutes=lobby,
                        weekly=weekly,
                        options={
                            name: value
                            for name, value in ((CLAIMS_OPTION, claims), (VOICE_OPTION, voice))
                            if value is not None
                        },
                        server_limit=NIGHTS_PER_SERVER,
                        member_limit=NIGHTS_PER_MEMBER,
                    )
                except NightLimitError as full:
                    raise self.refusal(f"nights_limit_{full.scope}", limit=full.limit) from None
                self.nights_held[schedule.id] = schedule
        finally:
            place.leave()
            if within:
                self.nights_reserved.remove(reservation)
        no_event = await self.create_event(schedule)
        self.nights_wake.set()
        locale = settings.public_locale(interaction.guild_locale)
        text = self.say(
            "night_planned_weekly" if weekly else "night_planned",
            locale,
            night=schedule.id,
            at=int(schedule.starts_at),
            lobby=lobby,
            channel=schedule.channel_id,
        )
        text += "\n" + self.say(no_event or "night_event", locale, limit=MAX_SERVER_EVENTS)
        await answer(interaction, text, ephemeral=False)

    def within_limits_in_memory(self, guild_id: int, host_id: int) -> bool:
        """Whether one more night in server ``guild_id`` by ``host_id`` stays within the limits,
        counting the nights to come that every calling game holds in memory, and the plans
        being stored that were counted within them."""
        cogs = [cog for cog in self.bot.cogs.values() if isinstance(cog, GameNights)]
        hosts = [
            night.host_id
            for cog in cogs
            for night in cog.nights_held.values()
            if night.guild_id == guild_id and night.status.is_pending
        ]
        hosts += [host for cog in cogs for guild, host in cog.nights_reserved if guild == guild_id]
        return len(hosts) < NIGHTS_PER_SERVER and hosts.count(host_id) < NIGHTS_PER_MEMBER

    async def list_nights(self, interaction: discord.Interaction[Any]) -> None:
        """``/<game> schedules``: this server's planned nights of this game, privately."""
        if interaction.guild_id is None:
            raise UserError("server_only")
        # A private answer: acknowledged before the database is asked.
        await defer_private(interaction)
        nights = await self.storage.pending_schedules(self.kind, interaction.guild_id)
        locale = interaction.locale
        if not nights:
            raise self.refusal("nights_none")
        lines = [self.say("nights_header", locale)]
        lines += [
            self.say(
                "nights_line_weekly" if night.weekly else "nights_line",
                locale,
                night=night.id,
                at=int(night.starts_at),
                channel=night.channel_id,
                host=night.host_id,
            )
            for night in nights[:20]
        ]
        await answer(interaction, "\n".join(lines), ephemeral=True)

    async def cancel_night(self, interaction: discord.Interaction[Any], night: int) -> None:
        """``/<game> unschedule``: call a planned night off (its host or Manage Server).

        A night held in memory is refused at once when it is not the member's to call off, and
        acknowledged publicly otherwise; any other is acknowledged privately, and the database
        says."""
        is_manager = getattr(
            getattr(interaction.user, "guild_permissions", None), "manage_guild", False
        )
        held = self.nights_held.get(night)
        if held is not None and held.guild_id == interaction.guild_id:
            if interaction.user.id != held.host_id and not is_manager:
                raise UserError("host_only", host=held.host_id)
            await defer_public(interaction)
        else:
            await defer_private(interaction)
        schedule = await self.storage.get_schedule(night)
        if (
            schedule is None
            or schedule.kind != self.kind
            or schedule.guild_id != interaction.guild_id
            or not schedule.status.is_pending
        ):
            raise self.refusal("night_unknown", night=night)
        if interaction.user.id != schedule.host_id and not is_manager:
            raise UserError("host_only", host=schedule.host_id)
        if not await self.storage.update_schedule(
            schedule.id, expect=schedule.status, status=ScheduleStatus.CANCELLED
        ):
            raise self.refusal("night_unknown", night=night)
        self.nights_held.pop(schedule.id, None)
        if schedule.game_id is not None:
            await self.store_game(
                schedule.game_id, status=GameStatus.CANCELLED, expect_status=GameStatus.LOBBY
            )
            self.start_running(schedule.game_id)  # the lobby says it is off
        await self.delete_event(schedule)
        self.nights_wake.set()
        await answer(
            interaction,
            self.say(
                "night_cancelled",
                await self.public_locale(schedule.guild_id),
                night=night,
                user=interaction.user.mention,
            ),
            ephemeral=False,
        )

    @app_commands.command(
        name="schedule", description=_("Plan a game night: a lobby before, the game on time")
    )
    @app_commands.describe(
        when=_("When: today 20:00, friday 8pm, in 2 hours, or a date and time"),
        lobby=_("Minutes the lobby opens before the start (1-120)"),
        weekly=_("The same time every week"),
        claims=CLAIMS_DESCRIPTION,
        voice=VOICE_DESCRIPTION,
    )
    @app_commands.choices(claims=CLAIMS_CHOICES)
    async def schedule_command(
        self,
        interaction: discord.Interaction[Any],
        when: app_commands.Range[str, 1, 100],
        lobby: app_commands.Range[int, 1, LOBBY_MINUTES_MOST] = LOBBY_MINUTES_DEFAULT,
        weekly: bool = False,
        claims: str | None = None,
        voice: discord.VoiceChannel | discord.StageChannel | None = None,
    ) -> None:
        """``/<game> schedule``."""
        await self.schedule_night(
            interaction, when, lobby, weekly, claims, None if voice is None else voice.id
        )

    @app_commands.command(name="schedules", description=_("The game nights planned here"))
    async def schedules_command(self, interaction: discord.Interaction[Any]) -> None:
        """``/<game> schedules``."""
        await self.list_nights(interaction)

    @app_commands.command(name="unschedule", description=_("Call off a planned game night"))
    @app_commands.describe(night=_("The game night's number (see schedules)"))
    async def unschedule_command(
        self, interaction: discord.Interaction[Any], night: app_commands.Range[int, 1]
    ) -> None:
        """``/<game> unschedule``."""
        await self.cancel_night(interaction, night)
