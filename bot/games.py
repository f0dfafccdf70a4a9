"""What every game cog shares, once: the storage, words in the players' languages, the in-memory
companions of live games, shutdown and the retry loop around Discord (a game's button presses
reach its cog through ``bot.components``). Both families build on it: the calling games
(``bot.calling``) and the table games (``bot.table``).

The game kinds the bot knows are not listed anywhere: they are the loaded :class:`GameCog`\\ s
(``GameNightBot.games()``), each naming its ``kind`` and titles, so adding a game touches its
engine, its renderer, its cog and its tests, and nothing else.
"""

from __future__ import annotations

import asyncio
import dataclasses
import enum
import logging
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

import discord
from discord.ext import commands

from bot.components import drop_route
from bot.i18n import LocaleLike, is_spanish, message
from bot.replies import UserError
from bot.storage import GameRow, GameStatus, LeaseLostError, ServerSettings, Storage

if TYPE_CHECKING:
    from bot.app import GameNightBot
    from bot.render.common import Rendered

log = logging.getLogger(__name__)

SHUTDOWN_GRACE = 5.0  # seconds a stopping bot gives each game's tasks to finish what they do
LEASE_WAIT = 1.0  # seconds a game task refused by its shard's lease waits before looking again
RETRY_CEILING = 60.0  # the longest wait between two tries of a failing game task
ENDED_REMEMBERED = 1000  # games seen ending that each cog keeps in mind (GameCog.ended)

# Discord's JSON error codes the games tell apart (Topics: Opcodes and Status Codes).
UNKNOWN_CHANNEL = 10003  # the channel (or thread) was deleted
UNKNOWN_MESSAGE = 10008  # the message was deleted (or a nonce repeat of a deleted one)
THREAD_ARCHIVED = 50083  # "Tried to perform an operation on an archived thread"
AUTOMOD_CODES = frozenset({200000, 200001})  # a message (or its title) blocked by AutoMod


class PostRefusal(enum.StrEnum):
    """Why Discord refused a game's post for good: no retry mends it, someone must act. The
    values are stored in a paused game's ``stalled`` option."""

    GONE = "channel_gone"  # 404 / 10003: the channel was deleted; nothing can be done
    PERMISSIONS = "cannot_post"  # 403: a permission was taken away
    THREAD = "thread_closed"  # the game's thread was archived or locked
    AUTOMOD = "automod"  # the server's AutoMod blocked the message
    REFUSED = "refused"  # any other 4xx (an invalid body, a deleted message...)


def post_refusal(error: BaseException) -> PostRefusal | None:
    """What a failed request to Discord means for a game: None when retrying may mend it (a
    5xx, a 429 discord.py did not wait out, the network), else why it is refused for good.
    Decided by the JSON error code where Discord gives one: a 404 is "channel gone" only for
    Unknown Channel, not for Unknown Message and the like."""
    if not isinstance(error, discord.HTTPException):
        return None
    if error.status == 429 or error.status >= 500:
        return None
    if error.code == UNKNOWN_CHANNEL:
        return PostRefusal.GONE
    if error.code == THREAD_ARCHIVED:
        return PostRefusal.THREAD
    if error.code in AUTOMOD_CODES:
        return PostRefusal.AUTOMOD
    if error.status == 403:
        return PostRefusal.PERMISSIONS
    return PostRefusal.REFUSED


@dataclass(frozen=True, slots=True)
class GameKind:
    """One kind of game the bot hosts, as its cog declares it."""

    kind: str  # the games table's kind; also the key of /stats
    title: str  # its name in English messages
    title_es: str  # its name in Spanish messages
    calling: bool  # a calling game (Lotería, Housie): one per channel at a time
    start: str  # the command that starts one, e.g. "/loteria start"

    def name(self, locale: LocaleLike) -> str:
        """The game's name in ``locale``'s language."""
        return self.title_es if is_spanish(locale) else self.title


class LiveEntry(Protocol):
    """The in-memory companion of a live game: its lock, a wake-up event and its tasks."""

    game_id: int
    lock: asyncio.Lock
    wake: asyncio.Event

    def tasks(self) -> Iterable[asyncio.Task[None] | None]:
        """The game's tasks (``None`` for one not started), to finish at shutdown."""


LiveT = TypeVar("LiveT", bound=LiveEntry)


def is_server_manager(interaction: discord.Interaction[Any]) -> bool:
    """Whether the member has Manage Server (or Administrator), as Discord says with the
    interaction."""
    permissions = interaction.permissions
    return permissions.manage_guild or permissions.administrator


def may_host(interaction: discord.Interaction[Any], settings: ServerSettings) -> bool:
    """Whether the member may start games in the server: anyone when no host role is set (or
    the role was deleted since), else members with the role or with Manage Server."""
    role_id = settings.host_role_id
    if role_id is None or is_server_manager(interaction):
        return True
    member = interaction.user
    # The role ids Discord sent with the interaction (Member.roles drops those of a server not
    # cached yet).
    if isinstance(member, discord.Member) and role_id in member._roles:
        return True
    guild = interaction.guild
    roles_known = guild is not None and guild.get_role(guild.id) is not None  # @everyone's
    return roles_known and guild is not None and guild.get_role(role_id) is None


class GameCog(commands.Cog, Generic[LiveT]):
    """The machinery every game cog shares; subclasses declare ``kind``, ``title``, ``title_es``
    and ``calling``, and build their live entries with :meth:`new_live`."""

    kind: ClassVar[str]
    title: ClassVar[str]
    title_es: ClassVar[str]
    calling: ClassVar[bool] = False
    start_subcommand: ClassVar[str]  # the subcommand of /<kind> that starts a game

    def __init__(self, bot: GameNightBot) -> None:
        self.bot = bot
        self.live: dict[int, LiveT] = {}
        # The live games of this kind that this client runs, as last read or written: what an
        # interaction is first answered from, before anything is asked of the database (which
        # then decides). Loaded with the games at start-up, kept current by the bot's writes.
        self.known: dict[int, GameRow] = {}
        # Games of this kind seen ending lately, with their server: a question about one (its
        # verification) is likely answered, publicly.
        self.ended: dict[int, int | None] = {}
        self.closing = False

    @classmethod
    def game_kind(cls) -> GameKind:
        """This cog's game as the registry lists it."""
        start = f"/{cls.kind} {cls.start_subcommand}"
        return GameKind(cls.kind, cls.title, cls.title_es, cls.calling, start)

    @classmethod
    def button_prefix(cls) -> str:
        """The prefix of this game's buttons' custom ids (``bot.components``): its kind, unless
        the game says otherwise."""
        return cls.kind

    @property
    def storage(self) -> Storage:
        """The bot's storage (``bot.storage``)."""
        return self.bot.storage

    # -- language ------------------------------------------------------------------------------

    def say(self, key: str, locale: LocaleLike, /, **values: Any) -> str:
        """Message ``key`` of ``bot.i18n.MESSAGES`` in ``locale``, naming this game."""
        return message(key, locale, **self.title_values(), **values)

    def refusal(self, key: str, /, **values: Any) -> UserError:
        """A refusal naming this game, shown in the language of whoever is refused."""
        return UserError(key, **self.title_values(), **values)

    def title_values(self) -> dict[str, str]:
        """The game's names as message placeholders: ``{title}`` in English, ``{titulo}`` in
        Spanish (a Spanish template may also use ``{title}``), and its ``{kind}``."""
        return {"title": self.title, "titulo": self.title_es, "kind": self.kind}

    @staticmethod
    def channel_locale(game: GameRow) -> str:
        """The server's language, for messages everyone in the channel reads."""
        return str(game.options.get("guild_locale", ""))

    # -- the server's settings -----------------------------------------------------------------

    async def server_settings(self, guild_id: int | None) -> ServerSettings:
        """The ``/gamenight settings`` of server ``guild_id`` (the defaults outside a server),
        from memory (``GameNightBot.settings_of``)."""
        return self.bot.settings_of(guild_id)

    async def host_settings(self, interaction: discord.Interaction[Any]) -> ServerSettings:
        """The settings a game opened by ``interaction`` follows (its public messages speak
        ``public_locale``; its start options default to ``defaults(kind)``), once the member
        may host in the server (:func:`may_host`); anyone else is refused privately, the host
        role named. From memory: it may come before the acknowledgement."""
        settings = await self.server_settings(interaction.guild_id)
        if not may_host(interaction, settings):
            raise UserError("host_role_only", role=settings.host_role_id)
        return settings

    # -- the games in memory -------------------------------------------------------------------

    def remember(self, game: GameRow | None) -> None:
        """Hold ``game`` as it now stands while it is live; forget it once it is over."""
        if game is None or game.kind != self.kind:
            return
        if game.status.is_live:
            self.known[game.id] = game
            return
        self.known.pop(game.id, None)
        self.ended[game.id] = game.guild_id
        while len(self.ended) > ENDED_REMEMBERED:
            del self.ended[next(iter(self.ended))]

    def remembered(self, game_id: int) -> GameRow | None:
        """Live game ``game_id`` of this kind as the bot last knew it (None: not live here)."""
        return self.known.get(game_id)

    def remembered_in_channel(self, channel_id: int | None) -> GameRow | None:
        """The live game of this kind in the channel as the bot last knew it (the latest)."""
        found = [game for game in self.known.values() if game.channel_id == channel_id]
        return max(found, key=lambda game: game.id) if found else None

    async def store_game(
        self,
        game_id: int,
        *,
        status: GameStatus | None = None,
        state: str | None = None,
        options: dict[str, Any] | None = None,
        lobby_message_id: int | None = None,
        expect_status: GameStatus | None = None,
        expect_state: str | None = None,
    ) -> bool:
        """``Storage.update_game``, and the game in memory changed alike when it was."""
        changed = await self.storage.update_game(
            game_id,
            status=status,
            state=state,
            options=options,
            lobby_message_id=lobby_message_id,
            expect_status=expect_status,
            expect_state=expect_state,
        )
        known = self.known.get(game_id)
        if changed and known is not None:
            now = time.time()
            self.remember(
                dataclasses.replace(
                    known,
                    status=known.status if status is None else status,
                    state=known.state if state is None else state,
                    options=known.options if options is None else dict(options),
                    lobby_message_id=lobby_message_id or known.lobby_message_id,
                    started_at=known.started_at or (now if status is GameStatus.RUNNING else None),
                    finished_at=now if status is not None and not status.is_live else None,
                )
            )
        return changed

    # -- live games ----------------------------------------------------------------------------

    def new_live(self, game_id: int) -> LiveT:
        """A fresh in-memory companion for game ``game_id``."""
        raise NotImplementedError

    def live_game(self, game_id: int) -> LiveT:
        """The in-memory companion of live game ``game_id``, made on first use."""
        live = self.live.get(game_id)
        if live is None:
            live = self.live[game_id] = self.new_live(game_id)
        return live

    def release(self, game_id: int) -> None:
        """Forget a game that is over once its tasks are done (the one asking excepted):
        finished games do not stay in memory for the life of the process."""
        live = self.live.get(game_id)
        if live is None:
            return
        current = asyncio.current_task()
        if any(t is not None and t is not current and not t.done() for t in live.tasks()):
            return
        if not self.may_release(live):
            return
        del self.live[game_id]

    def may_release(self, live: LiveT) -> bool:
        """Whether nothing else still needs ``live`` (its tasks done); games may add conditions."""
        return True

    async def release_if_over(self, game_id: int) -> None:
        """Forgets the companion of ``game_id`` once the game is no longer live."""
        game = await self.storage.get_game(game_id)
        self.remember(game)
        if game is None or not game.status.is_live:
            self.known.pop(game_id, None)
            self.release(game_id)

    def is_closing(self) -> bool:
        # A method, not the attribute: mypy would narrow ``closing`` across awaits.
        """Whether the cog is unloading (no new work may start)."""
        return self.closing

    async def cog_unload(self) -> None:
        """Let each game's tasks finish what they are doing (a call stored and announced, a
        deadline handled), then stop them."""
        self.closing = True
        drop_route(self.bot, self.button_prefix())
        waiting = [
            task
            for live in self.live.values()
            for task in live.tasks()
            if task is not None and not task.done() and self.waits_at_shutdown(live, task)
        ]
        for live in self.live.values():
            live.wake.set()
            for task in live.tasks():
                if task is not None and not self.waits_at_shutdown(live, task):
                    task.cancel()
        if waiting:
            _, pending = await asyncio.wait(waiting, timeout=SHUTDOWN_GRACE)
            for task in pending:
                task.cancel()

    def waits_at_shutdown(self, live: LiveT, task: asyncio.Task[None]) -> bool:
        """Whether a stopping bot lets ``task`` finish (else it is cancelled at once)."""
        return True

    # -- the game's own task -------------------------------------------------------------------

    async def keep_running(self, game_id: int, step: Callable[[], Awaitable[bool]]) -> None:
        """Run ``step`` until it returns False or the bot stops: the loop behind every game's
        timer. Discord having a bad moment (5xx, 429, the network) is a warning and a retry
        with backoff; a refusal no retry can mend (any other 4xx, :func:`post_refusal`: a
        permission taken, the channel deleted, a thread archived or locked, AutoMod) is handed
        to :meth:`cannot_post` and ends the loop; a bug is logged and retried."""
        game = await self.storage.get_game(game_id)
        await self.bot.wait_until_shard_connected(game.guild_id if game is not None else None)
        failures = 0
        while not self.closing:
            try:
                if not await step():
                    break
                failures = 0
            except asyncio.CancelledError:
                raise
            except discord.HTTPException as error:
                if post_refusal(error) is not None:
                    await self.cannot_post(game_id, error)
                    break
                failures += 1
                log.warning("%s game %s: %s; retrying", self.kind, game_id, error)
                await asyncio.sleep(min(RETRY_CEILING, 2.0**failures) * self.bot.time_scale)
            except LeaseLostError as error:
                # A fleet's client whose lease lapsed: the fleet stops this client if another
                # process took the shard; if not, the game goes on once the lease is renewed.
                log.warning("%s game %s: %s; waiting", self.kind, game_id, error)
                await asyncio.sleep(LEASE_WAIT)
            except Exception as error:
                failures += 1
                if isinstance(error, OSError):
                    log.warning("%s game %s: %s; retrying", self.kind, game_id, error)
                else:
                    log.exception("%s game %s failed; retrying", self.kind, game_id)
                await asyncio.sleep(min(RETRY_CEILING, 2.0**failures) * self.bot.time_scale)
        await self.release_if_over(game_id)

    async def cannot_post(self, game_id: int, error: discord.HTTPException) -> None:
        """The game's channel refused the bot for good (see :meth:`keep_running`;
        :meth:`refusal_in` says why)."""
        log.warning("%s game %s cannot post in its channel: %s", self.kind, game_id, error)

    def refusal_in(self, channel_id: int, error: discord.HTTPException) -> PostRefusal:
        """Why ``error`` (a refusal for good) stops a game in ``channel_id``: as
        :func:`post_refusal`, except that a 403 in a thread the bot knows is locked or archived
        is the thread's doing, not a permission taken away (Discord answers a post in a locked
        thread with Missing Permissions)."""
        refusal = post_refusal(error) or PostRefusal.REFUSED
        if refusal is PostRefusal.PERMISSIONS:
            channel = self.bot.get_channel(channel_id)
            if isinstance(channel, discord.Thread) and (channel.locked or channel.archived):
                return PostRefusal.THREAD
        return refusal

    # -- /help ---------------------------------------------------------------------------------

    # The game's texts in /help, as message keys of bot.i18n.MESSAGES: the first is its summary
    # in the overview, the others the sections of ``/help game:<kind>``, in order. Its commands
    # are listed from the command tree, so they need no key.
    help_keys: ClassVar[tuple[str, ...]] = ()

    def help_pictures(self, locale: LocaleLike) -> list[Rendered]:
        """Pictures for ``/help game:<kind>`` that explain the rules better than words, labelled
        in ``locale`` (none by default). Pure and CPU-bound: /help runs it in a thread."""
        return []

    # -- the game's pictures, before and outside a game ----------------------------------------

    @staticmethod
    def warm_up_pictures() -> None:
        """Build ahead what the game's first pictures would otherwise wait for (palettes, pieces
        kept), nothing by default. Called at start-up in a worker thread, for every game cog
        the bot loads, before any is loaded (``bot.app.game_cogs``): no bot, no cog instance."""

    @staticmethod
    def sample_pictures() -> list[tuple[str, Rendered]]:
        """One example of each of the game's pictures as ``(file name, picture)``, from fixed
        values, for ``python -m bot.render --sample`` (none by default)."""
        return []
