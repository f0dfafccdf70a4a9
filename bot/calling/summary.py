"""The end of a calling game in words: the summary within Discord's limits (a crowded game's
winners condensed, then named in full), its picture, the verification link, and the word to
the host when Discord refuses a post for good."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence

import discord

from bot.attachments import attachment
from bot.calling.live import (
    MESSAGE_LIMIT,
    SHOWN_PER_PRIZE,
    VERIFY_LINK_LIMIT,
    WINNER_MESSAGES,
    CheckT,
    GameT,
    short_error,
)
from bot.calling.lobby import LobbyCog
from bot.components import GameButton
from bot.games import PostRefusal, post_refusal
from bot.i18n import LocaleLike, is_spanish
from bot.render import Rendered
from bot.render.replay import ATTACH_LIMIT
from bot.storage import (
    GameRow,
    WinnerRow,
)
from bot.throttle import Lane
from bot.verify_link import verify_fragment, verify_url

log = logging.getLogger(__name__)

ATTACHMENTS_LIMIT = 10  # attachments on one message (Discord's limit)


def replay_fits(pictures: Sequence[Rendered], replay: Rendered) -> bool:
    """Whether ``replay`` fits on the summary's message beside ``pictures``: one attachment
    more, and all of them together well within what Discord takes of a bot."""
    size = sum(len(picture.png) for picture in pictures) + len(replay.png)
    return len(pictures) < ATTACHMENTS_LIMIT and size <= ATTACH_LIMIT


class SummaryCog(LobbyCog[GameT, CheckT]):
    """The end-of-game summary of a calling game."""

    def summary_texts(
        self,
        game: GameRow,
        reason: str,
        announced: int,
        winners: Sequence[WinnerRow],
        link: str | None,
    ) -> list[str]:
        """The end-of-game summary as messages within Discord's 2,000 characters: the first
        always holds the header, the calls, the winners (each named, or per prize the first
        few and how many more when that would not fit), the seed and the verification hint;
        when the winners were condensed, the next ones name them all (at most
        ``WINNER_MESSAGES`` of them)."""
        locale = self.channel_locale(game)
        assert game.seed is not None
        head = [
            self.say("over_header", locale, game=game.id, reason=self.say(reason, locale)),
            self.say("calls_count", locale, count=announced),
        ]
        seed = self.say("seed_reveal", locale, seed=game.seed.hex(), game=game.id)
        tail = [seed] if link is None else [seed, link]
        if not winners:
            return ["\n".join([*head, self.say("no_winners", locale), *tail])]
        every_one = [
            self.say(
                "winner_line",
                locale,
                prize=self.prize_name(w.prize, locale),
                user=w.user_id,
                seq=w.step,
            )
            for w in winners
        ]
        whole = "\n".join([*head, self.say("winners", locale), *every_one, *tail])
        if len(whole) <= MESSAGE_LIMIT:
            return [whole]
        groups: dict[tuple[str, int], list[int]] = {}
        for w in winners:
            groups.setdefault((w.prize, w.step), []).append(w.user_id)
        pages, left_out = self._winner_pages(game, groups)
        if left_out:
            intro = self.say("winners_most_below", locale, count=len(winners), left=left_out)
        else:
            intro = self.say("winners_below", locale, count=len(winners))
        first = self._condensed_summary(game, [*head, intro], tail, groups)
        if first is None and link is not None:
            # A crowded game's verification link leaves no room: the page's address only.
            page = self.bot.verify_page()
            short = [seed, self.say("verify_page_only", locale, page=page)] if page else [seed]
            first = self._condensed_summary(game, [*head, intro], short, groups)
        if first is None:  # (cannot happen with Discord's limits and these words)
            first = "\n".join([*head, *tail])[:MESSAGE_LIMIT]
        return [first, *pages]

    def _condensed_summary(
        self,
        game: GameRow,
        head: list[str],
        tail: list[str],
        groups: Mapping[tuple[str, int], Sequence[int]],
    ) -> str | None:
        """``head``, each prize's first few winners (fewer until it fits, none at the last) and
        ``tail``, as one message; None if even that is too long."""
        for shown in range(SHOWN_PER_PRIZE, -1, -1):
            lines = [
                self._group_line(game, prize, seq, users[:shown], len(users) - shown)
                for (prize, seq), users in groups.items()
            ]
            text = "\n".join([*head, *lines, *tail])
            if len(text) <= MESSAGE_LIMIT:
                return text
        text = "\n".join([*head, *tail])
        return text if len(text) <= MESSAGE_LIMIT else None

    def _group_line(
        self, game: GameRow, prize: str, seq: int, users: Sequence[int], more: int
    ) -> str:
        """One prize's winners on one line: those of ``users`` named, and ``more`` counted."""
        locale = self.channel_locale(game)
        named = ", ".join(f"<@{user}>" for user in users)
        if not named:
            named = self.say("winners_n", locale, count=more)
        elif more > 0:
            named = self.say("winners_and_more", locale, users=named, count=more)
        prize_name = self.prize_name(prize, locale)
        return self.say("winners_group", locale, prize=prize_name, seq=seq, users=named)

    def _winner_pages(
        self, game: GameRow, groups: Mapping[tuple[str, int], Sequence[int]]
    ) -> tuple[list[str], int]:
        """Every winner, prize by prize, over as many messages as they need, and how many were
        left out: at most ``WINNER_MESSAGES`` are posted (the last says how many more won)."""
        locale = self.channel_locale(game)
        room = MESSAGE_LIMIT - 200  # each page's heading and the count of those left out
        pages: list[list[str]] = [[]]
        named: list[int] = [0]  # winners named on each page
        used = 0  # characters on the last page so far
        for (prize, seq), users in groups.items():
            prefix = self.say(
                "winners_group", locale, prize=self.prize_name(prize, locale), seq=seq, users=""
            )
            line = ""
            for user in users:
                longer = f"{line}, <@{user}>" if line else f"{prefix}<@{user}>"
                if used + len(longer) > room:  # the page is full: on to the next one
                    if line:
                        pages[-1].append(line)
                    pages.append([])
                    named.append(0)
                    used = 0
                    longer = f"{prefix}<@{user}>"
                line = longer
                named[-1] += 1
            pages[-1].append(line)
            used += len(line) + 1
        left_out = sum(named[WINNER_MESSAGES:])
        listed = pages[:WINNER_MESSAGES]
        texts = []
        for number, lines in enumerate(listed, start=1):
            heading = self.say("winners_page", locale, game=game.id, page=number, pages=len(listed))
            last = [self.say("winners_left_out", locale, count=left_out)] if left_out else []
            texts.append("\n".join([heading, *lines, *(last if number == len(listed) else [])]))
        return texts, left_out

    async def post_summary(
        self,
        game: GameRow,
        texts: Sequence[str],
        winners: Sequence[WinnerRow],
        replay: Rendered | None = None,
    ) -> None:
        """Post the end-of-game summary (``texts``, from :meth:`summary_texts`), the winners'
        picture with its first message, and the game's ``replay`` with them when it fits
        Discord's limits (else a Replay button under the message draws it on demand); that
        message alone if the pictures cannot be drawn or are refused (the summary reveals the
        seed: it must go out)."""
        pictures: list[Rendered] = []
        if winners:
            boards = await self.storage.boards(game.id)
            players = await self.storage.players(game.id)
            try:
                pictures = await self.bot.heavy.run(
                    game.guild_id, Lane.CALL, self.render_result, game, winners, boards, players
                )
            except Exception:  # the picture is a bonus; the summary must not wait on it
                log.exception("could not draw the winners of game %s", game.id)
        channel = self.bot.get_partial_messageable(game.channel_id)
        first, *rest = texts
        view: discord.ui.View | None = None
        if replay is not None:
            if replay_fits(pictures, replay):
                pictures = [*pictures, replay]
            else:
                view = self.replay_view(game)
        attempts = [[attachment(p) for p in pictures], []] if pictures else [[]]
        refused: discord.HTTPException | None = None
        for files in attempts:
            try:
                if view is None:
                    await channel.send(first, files=files)
                else:
                    await channel.send(first, files=files, view=view)
                refused = None
                break
            except discord.HTTPException as error:
                log.warning("could not post the summary of game %s", game.id, exc_info=True)
                refused = error
                if post_refusal(error) is PostRefusal.GONE:
                    return
        if refused is not None:
            if post_refusal(refused) is not None:  # refused for good (AutoMod, a permission...)
                await self.tell_host_refused(game, "host_summary_refused", refused)
            return
        for text in rest:
            try:
                await channel.send(text)
            except discord.HTTPException:
                log.warning("could not post the winners of game %s", game.id, exc_info=True)
                return

    def replay_view(self, game: GameRow) -> discord.ui.View:
        """The Replay button under a summary whose replay did not fit on it."""
        view = discord.ui.View(timeout=None)
        label = self.say("button_replay", self.channel_locale(game))
        view.add_item(
            GameButton.make(self.kind, "replay", game.id, label, discord.ButtonStyle.secondary)
        )
        return view

    async def tell_host_refused(
        self, game: GameRow, key: str, error: discord.HTTPException
    ) -> None:
        """Discord refused a post of ``game`` for good (a call, its summary): its host hears
        ``key``, with Discord's code and words, by DM or else at their next interaction."""
        await self.bot.tell(
            game.host_id,
            self.say(
                key,
                self.channel_locale(game),
                game=game.id,
                channel=game.channel_id,
                code=error.code,
                error=short_error(error.text),
            ),
        )

    async def verify_line(self, game: GameRow, calls: int, locale: LocaleLike) -> str | None:
        """A link to the verification page with the game filled in (in the link's fragment,
        which browsers keep to themselves), or where to find the page when the link would be
        too long for a message; None when players cannot open the page (no public address:
        the seed and ``/<game> verify`` are what they have)."""
        assert game.seed is not None
        page = self.bot.verify_page()
        if page is None:
            return None
        boards = await self.storage.boards(game.id)
        fragment = verify_fragment(
            rules=self.link_rules(),
            seed=game.seed,
            prizes=list(self.state_of(game).prize_codes),
            boards=[(board.user_id, board.deal_index) for board in boards],
            calls=calls,
            game_id=game.id,
            language="es" if is_spanish(locale) else "en",
            **self.verify_values(game),
        )
        url = verify_url(page, fragment)
        if len(url) > VERIFY_LINK_LIMIT:
            return self.say("verify_page_only", locale, page=page)
        return self.say("verify_link", locale, url=url)
