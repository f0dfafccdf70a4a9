"""A minimal discord.py bot for the emulator's own tests (deliberately not the project's cogs).

It runs in the test process, or as a separate process (``python -m tests.emulator.minimal_bot
--db FILE --instance NAME``, pointed at the emulator by ``DISCORD_API_BASE_URL``,
``DISCORD_GATEWAY_URL`` and ``DISCORD_TOKEN``), sharing its lobbies through a SQLite file.
Some commands break Discord's rules on purpose, to show the emulator catches them.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
from pathlib import Path
from typing import Any

import aiohttp
import aiosqlite
import discord
from discord import app_commands
from PIL import Image

from emulator.endpoints import use_endpoints

GUESSES = ["apple", "apricot", "banana", "cherry"]


def card_png() -> bytes:
    image = Image.new("RGB", (40, 30), (200, 30, 30))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


class LobbyStore:
    """Lobby messages and who joined them, in SQLite so another process can take over."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._db: aiosqlite.Connection | None = None

    async def open(self) -> None:
        self._db = await aiosqlite.connect(self.path)
        await self._db.execute("CREATE TABLE IF NOT EXISTS lobby (message_id INTEGER PRIMARY KEY)")
        await self._db.execute(
            "CREATE TABLE IF NOT EXISTS player (message_id INTEGER, name TEXT, "
            "PRIMARY KEY (message_id, name))"
        )
        await self._db.commit()

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

    async def add_lobby(self, message_id: int) -> None:
        assert self._db is not None
        await self._db.execute("INSERT INTO lobby VALUES (?)", (message_id,))
        await self._db.commit()

    async def join(self, message_id: int, name: str) -> list[str] | None:
        assert self._db is not None
        async with self._db.execute(
            "SELECT 1 FROM lobby WHERE message_id = ?", (message_id,)
        ) as rows:
            if await rows.fetchone() is None:
                return None
        await self._db.execute("INSERT OR IGNORE INTO player VALUES (?, ?)", (message_id, name))
        await self._db.commit()
        async with self._db.execute(
            "SELECT name FROM player WHERE message_id = ? ORDER BY name", (message_id,)
        ) as rows:
            return [row[0] for row in await rows.fetchall()]


class LobbyView(discord.ui.View):
    """Persistent: registered at start-up so any process can answer clicks on old lobbies."""

    def __init__(self, bot: MinimalBot) -> None:
        super().__init__(timeout=None)
        self.bot = bot

    @discord.ui.button(label="Join", custom_id="lobby:join", style=discord.ButtonStyle.primary)
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        assert interaction.message is not None
        players = await self.bot.store.join(interaction.message.id, interaction.user.name)
        if players is None:
            await interaction.response.send_message("That lobby is closed.", ephemeral=True)
            return
        await interaction.response.edit_message(
            content=f"Lobby (answered by {self.bot.instance}): {', '.join(players)}"
        )

    @discord.ui.button(label="Refresh", custom_id="lobby:refresh")
    async def refresh(
        self, interaction: discord.Interaction, button: discord.ui.Button[Any]
    ) -> None:
        # A silent defer (callback 6), then an edit of the lobby through the @original route.
        await interaction.response.defer()
        await asyncio.sleep(0.01)
        await interaction.edit_original_response(content="Lobby (refreshed)")


class FruitView(discord.ui.View):
    @discord.ui.select(
        custom_id="fruit",
        options=[discord.SelectOption(label=name, value=name) for name in GUESSES],
        max_values=2,
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.edit_message(
            content=f"picked {', '.join(select.values)}", view=None
        )


class AskModal(discord.ui.Modal, title="A question"):
    answer: discord.ui.TextInput[Any] = discord.ui.TextInput(
        label="Your answer", custom_id="answer"
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"answer: {self.answer.value}")


class MinimalBot(discord.Client):
    def __init__(self, db_path: Path, *, instance: str = "A", guild_id: int | None = None) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.tree = app_commands.CommandTree(self)
        self.store = LobbyStore(db_path)
        self.instance = instance
        self.guild_id = guild_id
        self.slow_delay = 0.0
        self.errors: list[Exception] = []
        self.raw_answers: list[tuple[int, Any]] = []
        self.seen_messages: list[discord.Message] = []
        self.edited_message_ids: list[int] = []
        self.timers: set[asyncio.Task[None]] = set()
        self._add_commands()

        @self.tree.error
        async def on_app_command_error(
            interaction: discord.Interaction, error: app_commands.AppCommandError
        ) -> None:
            self.errors.append(error)

    async def setup_hook(self) -> None:
        await self.store.open()
        self.add_view(LobbyView(self))
        if self.guild_id is not None:
            guild = discord.Object(self.guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py waits 5 s before re-identifying (Discord's identify limit); the emulator
        has no such limit, so tests of invalid sessions need not wait."""

    async def close(self) -> None:
        for task in self.timers:
            task.cancel()
        await super().close()
        await self.store.close()

    async def on_message(self, message: discord.Message) -> None:
        self.seen_messages.append(message)

    async def on_raw_message_edit(self, payload: discord.RawMessageUpdateEvent) -> None:
        self.edited_message_ids.append(payload.message_id)

    def _add_commands(self) -> None:
        tree = self.tree

        @tree.command(description="Answers pong")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong")

        @tree.command(description="Repeats text")
        @app_commands.describe(text="what to say", times="how many times")
        async def echo(interaction: discord.Interaction, text: str, times: int = 1) -> None:
            try:
                await interaction.response.send_message(text * times)
            except discord.HTTPException as error:
                self.errors.append(error)

        @tree.command(description="Opens a lobby people can join")
        async def lobby(interaction: discord.Interaction) -> None:
            channel = interaction.channel
            assert isinstance(channel, discord.TextChannel)
            message = await channel.send(
                f"Lobby (opened by {self.instance}): nobody yet", view=LobbyView(self)
            )
            await self.store.add_lobby(message.id)
            # Answer last, so a test that waits for this answer finds the lobby stored.
            await interaction.response.send_message("Lobby opened", ephemeral=True)

        @tree.command(description="Thinks, then answers")
        async def later(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await asyncio.sleep(0.01)
            await interaction.edit_original_response(content="thought about it")
            await interaction.followup.send("and one more thing")

        @tree.command(description="Thinks in public, then hides its refusal (not documented)")
        async def hide(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            # The placeholder deleted unfilled, then a private follow-up: what Discord does with
            # it is not documented (it answered 10008 once).
            await interaction.delete_original_response()
            try:
                await interaction.followup.send("only you see this", ephemeral=True)
            except discord.HTTPException as error:
                self.errors.append(error)

        @tree.command(description="DMs you a card")
        async def card(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            picture = discord.File(io.BytesIO(card_png()), "card.png", description="Your red card")
            try:
                await interaction.user.send("Here is your card", file=picture)
            except discord.Forbidden as error:
                self.errors.append(error)
                await interaction.followup.send(
                    "I cannot DM you: please open your DMs", ephemeral=True
                )
                return
            await interaction.followup.send("Check your DMs", ephemeral=True)

        @tree.command(description="Counts down in the channel on a timer")
        async def countdown(interaction: discord.Interaction, start: int) -> None:
            channel = interaction.channel
            assert isinstance(channel, discord.TextChannel)
            await interaction.response.send_message(f"Counting down from {start}")

            async def tick() -> None:
                for number in range(start, 0, -1):
                    await asyncio.sleep(0.02)
                    await channel.send(f"{number}...")
                await channel.send("Liftoff!")

            task = asyncio.create_task(tick())
            self.timers.add(task)
            task.add_done_callback(self.timers.discard)

        @tree.command(description="Answers after a delay")
        async def slow(interaction: discord.Interaction) -> None:
            await asyncio.sleep(self.slow_delay)
            try:
                await interaction.response.send_message("sorry, I was slow")
            except discord.HTTPException as error:
                self.errors.append(error)

        @tree.command(description="Answers twice (breaks the one-acknowledgement rule)")
        async def twice(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("first answer")
            # discord.py refuses a second response itself, so send it as raw HTTP.
            url = f"{discord.http.Route.BASE}/interactions/{interaction.id}/{interaction.token}/callback"
            async with (
                aiohttp.ClientSession() as session,
                session.post(
                    url, json={"type": 4, "data": {"content": "second answer"}}
                ) as response,
            ):
                self.raw_answers.append((response.status, await response.json()))

        @tree.command(description="Sends an embed whose title is too long for Discord")
        async def badembed(interaction: discord.Interaction) -> None:
            try:
                await interaction.response.send_message(embed=discord.Embed(title="x" * 300))
            except discord.HTTPException as error:
                self.errors.append(error)
                await interaction.response.send_message("could not send that")

        @tree.command(description="Pick fruit")
        async def pick(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(
                "pick some fruit", view=FruitView(), ephemeral=True
            )

        @tree.command(description="Asks a question in a modal")
        async def ask(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(AskModal())

        @tree.command(description="Guess a fruit")
        async def guess(interaction: discord.Interaction, fruit: str) -> None:
            await interaction.response.send_message(f"you guessed {fruit}", ephemeral=True)

        @guess.autocomplete("fruit")
        async def guess_autocomplete(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name=f, value=f) for f in GUESSES if f.startswith(current)]

        @tree.command(description="For server managers only")
        @app_commands.default_permissions(manage_guild=True)
        async def admin(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("admin ok", ephemeral=True)


async def _main(db_path: Path, instance: str) -> None:
    use_endpoints(os.environ["DISCORD_API_BASE_URL"], os.environ["DISCORD_GATEWAY_URL"])
    bot = MinimalBot(db_path, instance=instance)
    async with bot:
        await bot.start(os.environ["DISCORD_TOKEN"])


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--instance", default="B")
    arguments = parser.parse_args()
    asyncio.run(_main(arguments.db, arguments.instance))
