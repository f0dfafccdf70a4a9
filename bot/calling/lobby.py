"""A calling game's lobby and its deal: the lobby message and its edits, joining (boards dealt,
stored, then sent by DM or shown), leaving, the boards shown again, a lobby called off."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Sequence
from typing import Any

import discord

from bot.attachments import attachment
from bot.calling.base import CallingBase
from bot.calling.live import (
    CANNOT_MESSAGE_USER,
    LOBBY_EDIT_INTERVAL,
    MAX_PLAYERS_LIMIT,
    STALLED_STATUS,
    CheckT,
    GameT,
    LiveGame,
    commitment_text,
    lobby_edit_interval,
)
from bot.calling.options import CallingOptions
from bot.components import GameButton
from bot.i18n import LocaleLike, message
from bot.permissions import require_posting
from bot.render import Rendered
from bot.replies import (
    UserError,
    answer,
    defer_private,
    defer_public,
    send_ephemeral,
)
from bot.storage import (
    ChannelBusyError,
    DealExhaustedError,
    DealMovedError,
    Delivery,
    GameRow,
    GameStatus,
    LeaseLostError,
    PlayerRow,
    ServerSettings,
)
from bot.throttle import Lane

log = logging.getLogger(__name__)


class LobbyCog(CallingBase[GameT, CheckT]):
    """The lobby and the deal of a calling game."""

    async def post_lobby(self, game: GameRow, note: str) -> int:
        """Posts the lobby of ``game`` with ``note`` under it; returns the message's id."""
        self.new_in_memory(game)
        channel = self.bot.get_partial_messageable(game.channel_id)
        pictures = await asyncio.to_thread(self.lobby_pictures, game)
        extra: dict[str, Any] = {"files": [attachment(p) for p in pictures]} if pictures else {}
        posted = await channel.send(
            f"{await self.lobby_text(game)}\n{note}", view=self.lobby_view(game), **extra
        )
        return posted.id

    async def open_lobby(
        self,
        interaction: discord.Interaction[Any],
        *,
        seed: bytes,
        state: str,
        options: CallingOptions,
        settings: ServerSettings,
    ) -> GameRow:
        """Open the lobby; ``settings`` (from :meth:`host_settings`) give its language."""
        if interaction.guild_id is None or interaction.channel_id is None:
            raise UserError("no_dm_games")
        require_posting(interaction)
        locale = settings.public_locale(interaction.guild_locale)
        # How wins are found and where the calls are spoken: the host's ``claims`` and
        # ``voice`` (every start command has them), or the server's defaults.
        options = self.with_chosen(options, interaction.extras, settings.defaults(self.kind))
        options = dataclasses.replace(options, guild_locale=locale)
        # The lobby is the answer, and the database may be slow: acknowledge first. Publicly,
        # unless the channel seems to have its game already (or another start came first and
        # is not done): then privately, and the database says (a refusal stays private).
        # Starts in one channel reach the database in the order they came.
        place = self.bot.in_order.place(("channel", interaction.channel_id))
        try:
            if place.behind or self.channel_busy_in_memory(interaction.channel_id):
                await defer_private(interaction)
            else:
                await defer_public(interaction)
            async with place:
                try:
                    game = await self.storage.create_game(
                        kind=self.kind,
                        guild_id=interaction.guild_id,
                        channel_id=interaction.channel_id,
                        host_id=interaction.user.id,
                        seed=seed,
                        options=options.to_stored(),
                        state=state,
                        # One calling game per channel.
                        alone_among=tuple(k.kind for k in self.bot.games() if k.calling),
                    )
                except ChannelBusyError as busy:
                    other = self.bot.game_kind(busy.existing.kind)
                    title = other.title if other else busy.existing.kind
                    raise UserError("channel_busy", other=title, game=busy.existing.id) from None
                self.new_in_memory(game)
        finally:
            place.leave()
        pictures = await asyncio.to_thread(self.lobby_pictures, game)
        message = await answer(
            interaction,
            await self.lobby_text(game),
            ephemeral=False,
            view=self.lobby_view(game),
            files=[attachment(picture) for picture in pictures],
        )
        assert message is not None
        await self.store_game(game.id, lobby_message_id=message.id)
        return game

    def channel_busy_in_memory(self, channel_id: int) -> bool:
        """Whether the bot holds a live calling game (of any kind) in the channel."""
        return any(
            cog.remembered_in_channel(channel_id) is not None
            for cog in self.bot.cogs.values()
            if isinstance(cog, CallingBase)
        )

    def lobby_view(self, game: GameRow) -> discord.ui.View:
        """The lobby's buttons in the channel's language: Join, Leave, Start and Cancel while it is
        open; none once the game has started or ended."""
        view = discord.ui.View(timeout=None)
        if game.status is GameStatus.LOBBY:
            locale = self.channel_locale(game)
            for action, style in (
                ("join", discord.ButtonStyle.success),
                ("leave", discord.ButtonStyle.secondary),
                ("start", discord.ButtonStyle.primary),
                ("cancel", discord.ButtonStyle.danger),
            ):
                label = message(f"button_{action}", locale)
                view.add_item(GameButton.make(self.kind, action, game.id, label, style))
        return view

    async def lobby_text(self, game: GameRow) -> str:
        """The lobby message: host, options, the players and how many boards are dealt."""
        players = await self.storage.players(game.id)
        delivered = sum(player.delivered for player in players)
        waiting = sum(player.delivery is Delivery.UNDELIVERED for player in players)
        locale = self.channel_locale(game)
        count = len(players)
        players_line = self.say("players_line", locale, count=count)
        if players:
            dealt = self.say(f"{self.kind}_dealt", locale)  # agrees with the game's boards
            players_line += self.say(
                "dealt_progress", locale, word=dealt, dealt=delivered, count=count
            )
        if waiting:
            players_line += self.say(
                "undelivered_progress", locale, count=waiting, show=self.show_command
            )
        lines = [
            self.say("lobby_header", locale, game=game.id, host=game.host_id),
            self.describe_options(game),
            self.say(f"status_{game.status.value}", locale, board=self.board_word(1, locale)),
            players_line,
            self.say("commitment_line", locale, commitment=commitment_text(game)),
        ]
        options = self.options_of(game)
        stalled = options.stalled
        if game.status is GameStatus.PAUSED and stalled:
            key = STALLED_STATUS.get(str(stalled), "status_stalled_refused")
            lines.insert(3, self.say(key, locale, channel=game.channel_id))
        if options.nobody_came:
            lines.insert(3, self.say("night_nobody_came", locale))
        if options.auto_claims:
            lines.insert(2, self.say("lobby_claims_auto", locale))
        if options.voice is not None:
            lines.insert(2, self.say("lobby_voice", locale, channel=options.voice))
        return "\n".join(lines)

    def touch_lobby(self, game_id: int, *, urgent: bool = False) -> None:
        """Ask for a lobby refresh; edits happen at most every LOBBY_EDIT_INTERVAL seconds, less
        often when many lobbies are busy (see lobby_edit_interval) unless ``urgent`` (the game
        started, was cancelled or ended: its buttons must go)."""
        live = self.live_game(game_id)
        live.lobby_dirty = True
        if urgent:
            live.lobby_urgent.set()
        if self.closing:
            return
        if live.lobby_task is None or live.lobby_task.done():
            live.lobby_task = asyncio.create_task(self._lobby_refresher(live))

    def lobbies_refreshing(self) -> int:
        """Lobbies of this game with a refresher running (edited lately or about to be)."""
        return sum(
            1 for live in self.live.values() if live.lobby_task and not live.lobby_task.done()
        )

    async def _lobby_refresher(self, live: LiveGame) -> None:
        while live.lobby_dirty:
            live.lobby_dirty = False
            live.lobby_urgent.clear()
            try:
                await self.refresh_lobby(live.game_id)
            except discord.HTTPException:
                log.warning("could not edit the lobby of game %s", live.game_id, exc_info=True)
            await asyncio.sleep(LOBBY_EDIT_INTERVAL)
            refreshing = sum(
                cog.lobbies_refreshing()
                for cog in self.bot.cogs.values()
                if isinstance(cog, LobbyCog)
            )
            longer = lobby_edit_interval(refreshing) - LOBBY_EDIT_INTERVAL
            if longer > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(live.lobby_urgent.wait(), longer)
        await self.release_if_over(live.game_id)

    async def refresh_lobby(self, game_id: int) -> None:
        """Edits the lobby message to the game as stored now."""
        game = await self.storage.get_game(game_id)
        self.remember(game)  # a change made elsewhere (an end, a stall) reaches the memory too
        if game is None or game.lobby_message_id is None:
            return
        channel = self.bot.get_partial_messageable(game.channel_id)
        await channel.get_partial_message(game.lobby_message_id).edit(
            content=await self.lobby_text(game), view=self.lobby_view(game)
        )

    async def join(
        self, interaction: discord.Interaction[Any], game: GameRow, *, boards: int
    ) -> None:
        """Seats the member (their boards dealt and stored first) and deals them by DM, or shows
        them the boards privately when their DMs are closed."""
        if game.status is not GameStatus.LOBBY:
            raise self.refusal("joins_closed", game=game.id)
        max_players = self.options_of(game).max_players or MAX_PLAYERS_LIMIT
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        live = self.live_game(game.id)
        user_id = interaction.user.id
        if user_id in live.delivering:
            raise self.refusal("being_dealt", board=self.board_word(1, interaction.locale))
        async with live.lock:
            fresh = await self.storage.get_game(game.id)
            self.remember(fresh)
            if fresh is None or fresh.status is not GameStatus.LOBBY:
                raise self.refusal("joins_closed", game=game.id)
            player = await self.seat(interaction, fresh, boards, max_players)
        if player is None:
            existing = await self.storage.get_player(game.id, user_id)
            if existing is None:
                raise UserError("game_full", count=max_players)
            if existing.delivered or user_id in live.delivering:
                key = "already_joined" if existing.delivery is Delivery.DM else "already_shown"
                raise self.refusal(
                    key, board=self.board_word(1, interaction.locale), show=self.show_command
                )
            player = existing  # stored but never delivered: deliver it now
        self.touch_lobby(game.id)
        await self.deliver_boards(interaction, fresh, player)

    async def seat(
        self, interaction: discord.Interaction[Any], game: GameRow, boards: int, most: int
    ) -> PlayerRow | None:
        """Seat the member and store their boards (under the game's lock); None if they are
        seated already or the game is full.

        The boards are dealt in a worker thread before the write, from the game's dealer (no
        replay of earlier seats): the event loop and the database's transaction never wait for
        the deal, whatever the seat.
        """
        user_id = interaction.user.id
        if await self.storage.get_player(game.id, user_id) is not None:
            return None
        if await self.storage.count_players(game.id) >= most:
            return None
        for _attempt in range(2):  # again only if the deal moved under us (it should not)
            first = game.next_deal
            if first + boards > self.deal_limit:
                raise self.refusal("deal_exhausted", count=self.deal_limit)
            dealt = await asyncio.to_thread(self.deal, game, first, boards)
            try:
                seated = await self.storage.add_player(
                    game.id,
                    user_id,
                    display_name=interaction.user.display_name,
                    locale=str(interaction.locale),
                    boards=dealt,
                    dealt_from=first,
                    max_players=most,
                    board_count=boards,
                    deal_limit=self.deal_limit,
                )
                if seated is not None:
                    self.player_in_memory(seated)
                return seated
            except DealExhaustedError as exhausted:
                raise self.refusal("deal_exhausted", count=exhausted.limit) from None
            except DealMovedError:
                refreshed = await self.storage.get_game(game.id)
                assert refreshed is not None
                game = refreshed
        raise RuntimeError(f"the deal of game {game.id} keeps moving")

    async def deliver_boards(
        self, interaction: discord.Interaction[Any], game: GameRow, player: PlayerRow
    ) -> None:
        """DM the player's boards; if their DMs are closed or the DM fails, show them here."""
        live = self.live_game(game.id)
        live.delivering.add(player.user_id)
        try:
            boards = await self.storage.boards(game.id, player.user_id)
            if live.boards is not None:
                live.boards[player.user_id] = boards
            locale = interaction.locale
            images = await asyncio.to_thread(self.render_boards, game, boards, (), locale)
            phrase = self.board_phrase(len(images), locale)
            outcome = await self.send_boards_by_dm(game, interaction.user, locale, images)
            if outcome is Delivery.DM:
                await self.storage.set_delivery(game.id, player.user_id, Delivery.DM)
                self.touch_lobby(game.id)
                await interaction.followup.send(
                    self.say("joined_dm", locale, game=game.id, boards=phrase), ephemeral=True
                )
                return
            key = "joined_no_dm" if outcome is Delivery.UNDELIVERED else "joined_dm_failed"
            self.bot.metrics.dm_fallbacks.labels(self.kind).inc()
            delivery = Delivery.UNDELIVERED
            try:
                await interaction.followup.send(
                    self.say(key, locale, game=game.id, boards=phrase, show=self.show_command),
                    files=[attachment(image) for image in images],
                    ephemeral=True,
                )
                delivery = Delivery.REPLY
            finally:
                await self.storage.set_delivery(game.id, player.user_id, delivery)
                self.touch_lobby(game.id)
        finally:
            live.delivering.discard(player.user_id)

    async def send_boards_by_dm(
        self,
        game: GameRow,
        user: discord.abc.Snowflake,
        locale: LocaleLike,
        images: Sequence[Rendered],
    ) -> Delivery:
        """DM ``images``: ``Delivery.DM`` when sent, ``UNDELIVERED`` when the member's DMs are
        closed, ``PENDING`` when Discord failed (after discord.py's own retries).

        DMs found closed (50007) are remembered (``Storage.set_dms_closed``), so that no restart
        DMs the member again unasked (``_redeliver_boards``); a DM that works forgets it."""
        text = self.say(
            "dm_boards",
            locale,
            count=len(images),
            boards=self.board_phrase(len(images), locale),
            game=game.id,
            channel=game.channel_id,
        )
        refused: discord.Forbidden | None = None
        async with self.dm_slots:
            try:
                await self.bot.send_dm(user, text, files=[attachment(i) for i in images])
            except discord.Forbidden as forbidden:
                refused = forbidden
            except (discord.HTTPException, OSError) as error:
                log.warning("could not DM the boards of game %s to %s: %s", game.id, user.id, error)
                return Delivery.PENDING
        if refused is None:
            if await self.storage.dms_closed(user.id):
                await self.storage.set_dms_closed(user.id, closed=False)
            return Delivery.DM
        if refused.code == CANNOT_MESSAGE_USER:
            await self.storage.set_dms_closed(user.id, closed=True)
        return Delivery.UNDELIVERED

    def redeliver_later(self, game_id: int) -> None:
        """Re-sends, once the bot is ready, the boards of game ``game_id`` that never reached their
        players."""
        live = self.live_game(game_id)
        if live.redeal_task is None or live.redeal_task.done():
            live.redeal_task = asyncio.create_task(self._redeliver(game_id))

    async def _redeliver(self, game_id: int) -> None:
        """After a restart: DM the boards that were stored but never reached their players."""
        try:
            await self._redeliver_boards(game_id)
        except LeaseLostError:
            log.info(
                "%s game %s: its shard moved to another process mid-delivery", self.kind, game_id
            )

    async def _redeliver_boards(self, game_id: int) -> None:
        game = await self.storage.get_game(game_id)
        if game is not None:
            await self.bot.wait_until_shard_connected(game.guild_id)
            game = await self.storage.get_game(game_id)
        if game is None or not game.status.is_live:
            return
        live = self.live_game(game_id)
        resent = False
        # DMs found closed are not tried again unasked: each refusal counts toward Discord's
        # invalid-request limit. Such a member gets their board at their next interaction
        # (Join again, or the show command), which may try a DM again.
        closed = await self.storage.closed_dms_in_game(game_id)
        for player in await self.storage.undelivered_players(game_id):
            if self.is_closing():
                return
            if player.user_id in live.delivering:
                continue
            if player.user_id in closed:
                if player.delivery is Delivery.PENDING:
                    await self.storage.set_delivery(game_id, player.user_id, Delivery.UNDELIVERED)
                    resent = True
                continue
            boards = await self.storage.boards(game_id, player.user_id)
            if not boards:
                continue
            images = await asyncio.to_thread(self.render_boards, game, boards, (), player.locale)
            await self.storage.check_fence(game_id)  # (another process may deliver them now)
            outcome = await self.send_boards_by_dm(
                game, discord.Object(player.user_id), player.locale, images
            )
            # A player whose DMs stay shut is shown their board at their next interaction.
            delivery = Delivery.DM if outcome is Delivery.DM else Delivery.UNDELIVERED
            await self.storage.set_delivery(game_id, player.user_id, delivery)
            resent = True
        if resent:
            self.touch_lobby(game_id)

    async def leave(self, interaction: discord.Interaction[Any], game: GameRow) -> None:
        """Takes the member out of the lobby, their boards with them."""
        if game.status is not GameStatus.LOBBY:
            raise UserError("cant_leave_started")
        live = self.live_game(game.id)
        async with live.lock:
            removed = await self.storage.remove_player(game.id, interaction.user.id)
            for held in (live.players, live.boards):
                if held is not None:
                    held.pop(interaction.user.id, None)
        if not removed:
            raise UserError("not_in_game")
        self.touch_lobby(game.id)
        await send_ephemeral(interaction, self.say("left", interaction.locale, game=game.id))

    async def show_boards(self, interaction: discord.Interaction[Any]) -> None:
        """Shows the member their boards privately, marked with the calls the channel has seen.

        A crowd of views is answered a few at a time in the server's line of heavy work
        (``bot.throttle``): with all of them in flight at once, every turn of the event loop would
        run hundreds of their steps and the caller's timer would wait behind them
        (bench/bench_call_pace.py), and another server's views behind them too
        (bench/bench_flood.py)."""
        # Acknowledge first, every answer here being private: under load (many games calling,
        # a restart resuming them all) the database and the render can each take their turn
        # for longer than Discord's 3 s (bench/bench_load.py).
        async with self.bot.heavy.turn(
            interaction.guild_id,
            Lane.VIEW,
            acknowledge=lambda: interaction.response.defer(ephemeral=True, thinking=True),
        ):
            game = await self.game_here(interaction)
            player = await self.storage.get_player(game.id, interaction.user.id)
            boards = await self.storage.boards(game.id, interaction.user.id)
            if player is None or not boards:
                raise self.refusal("not_playing", game=game.id)
            seen = await self.seen_calls(game)
            locale = interaction.locale
            images = await asyncio.to_thread(self.render_boards, game, boards, seen, locale)
        await interaction.followup.send(
            self.say(
                "your_boards",
                locale,
                boards=self.board_phrase(len(images), locale),
                game=game.id,
                calls=len(seen),
            ),
            files=[attachment(image) for image in images],
            ephemeral=True,
        )
        if not player.delivered:
            await self.storage.set_delivery(game.id, player.user_id, Delivery.REPLY)
            self.touch_lobby(game.id)

    async def cancel_game(self, interaction: discord.Interaction[Any], game: GameRow) -> None:
        """Calls the lobby off (host or Manage Server) before the game starts."""
        await self.require_controller(interaction, game)
        async with self.live_game(game.id).lock:
            cancelled = await self.store_game(
                game.id, status=GameStatus.CANCELLED, expect_status=GameStatus.LOBBY
            )
            self.forget_dealer(game.id)
        if not cancelled:
            raise UserError("only_lobby_cancel")
        await send_ephemeral(interaction, self.say("cancelled", interaction.locale, game=game.id))
        self.touch_lobby(game.id, urgent=True)
