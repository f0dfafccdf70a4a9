"""``/gamenight forget-me`` end to end: a confirmation, then the member's personal data gone from
finished games, which still verify; live games keep them until they end."""

from __future__ import annotations

import sys

import pytest

from bot.storage import GameStatus, anonymous_holder
from emulator import Emulator
from engine.fairness import draw_order
from engine.loteria import Pattern, tablas_at
from tests.cogs.helpers import button_id, first_completion, grace_over, run_calls

pytestmark = pytest.mark.backends()

SEED = bytes(range(32))


def line_calls(seed: bytes, players: int) -> list[int]:
    """For each deal position, the call that first completes a line on its tabla."""
    order = draw_order(seed, 54)
    calls = []
    for tabla in tablas_at(seed, 0, players):
        found = first_completion(Pattern.LINE.masks, [tabla.marks(order[:n]) for n in range(1, 55)])
        assert found is not None
        calls.append(found)
    return calls


def answer_id(message, answer: str) -> str:
    return next(cid for cid in message.custom_ids if cid.startswith(f"gn:forget:{answer}:"))


async def test_a_winner_is_forgotten_and_the_game_still_verifies(
    emulator: Emulator, start_bot, monkeypatch: pytest.MonkeyPatch
):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    lounge = guild.add_channel("lounge")
    host = guild.add_member("host")
    players = [guild.add_member(name) for name in ("alice", "bob", "carol")]
    # A public address, so that the game's verification comes with a link players can open.
    bot = await start_bot(
        time_scale=100,
        seed_source=lambda: SEED,
        settings_changes={"public_url": "https://games.example"},
    )
    cog = bot.get_cog("Lotería")

    lobby = await (await host.slash("loteria start", prizes="line")).reply()
    for player in players:
        await (await player.click(lobby, button_id(lobby, "join"))).reply()
    await (await host.click(lobby, button_id(lobby, "start"))).reply()
    (game,) = await bot.storage.live_games("loteria")
    calls = line_calls(SEED, len(players))
    winner = players[calls.index(min(calls))]
    loser = next(p for p in players if p is not winner)
    await run_calls(cog, game.id, 1)
    false = await (await loser.slash("loteria claim")).reply()
    assert "False claim" in false.content
    await run_calls(cog, game.id, min(calls) - 1)
    won = await (await winner.slash("loteria claim")).reply()
    assert "wins on call" in won.content
    grace_over(monkeypatch)
    assert not await cog.call_next(game.id)  # every prize won: the game ends
    finished = await bot.storage.get_game(game.id)
    assert finished is not None
    assert finished.status is GameStatus.FINISHED
    # The winner is in a game that is still on, too.
    other_lobby = await (await host.slash("housie start", in_channel=lounge)).reply()
    await (await winner.click(other_lobby, button_id(other_lobby, "join"))).reply()
    (live,) = await bot.storage.live_games("housie")
    stats = await (await host.slash("stats")).reply()
    assert winner.mention in stats.content
    boards_before = await bot.storage.boards(game.id)

    asked = await (await winner.slash("gamenight forget-me")).reply()
    assert asked.ephemeral
    assert "removes you from **1 finished game** in every server" in asked.content
    assert "You are in **1 game that is still on**" in asked.content
    assert [b["label"] for b in asked.buttons] == ["Forget me", "Keep my data"]
    kept = await (await winner.click(asked, answer_id(asked, "no"))).reply()
    assert kept.content == "Nothing was removed."
    assert winner.id in {p.user_id for p in await bot.storage.players(game.id)}

    asked = await (await winner.slash("gamenight forget-me")).reply()
    done = await (await winner.click(asked, answer_id(asked, "yes"))).reply()
    assert done.content == "Done: you were removed from 1 finished game."
    assert done.custom_ids == []

    # Nothing of theirs is left in the finished game, under their id or their name.
    seat = next(i for i, p in enumerate(players) if p is winner)
    anonymous = anonymous_holder(seat)
    stored_players = await bot.storage.players(game.id)
    assert winner.id not in {p.user_id for p in stored_players}
    assert winner.name not in {p.display_name for p in stored_players}
    assert {(p.user_id, p.display_name, p.locale) for p in stored_players if p.seat == seat} == {
        (anonymous, "", "")
    }
    boards_after = await bot.storage.boards(game.id)
    assert winner.id not in {b.user_id for b in boards_after}
    assert sorted((b.deal_index, b.state) for b in boards_after) == sorted(
        (b.deal_index, b.state) for b in boards_before
    )
    assert [(w.prize, w.user_id, w.step) for w in await bot.storage.winners(game.id)] == [
        ("line", anonymous, min(calls))
    ]
    assert winner.id not in {c.user_id for c in await bot.storage.claims(game.id)}
    assert loser.id in {c.user_id for c in await bot.storage.claims(game.id)}
    assert winner.id in {p.user_id for p in await bot.storage.players(live.id)}

    # The game still verifies, link and all; /stats no longer counts the win.
    verified = await (await host.slash("loteria verify", game=game.id)).reply()
    assert f"verified: all {min(calls)} calls and 3 boards match the seed" in verified.content
    assert "in your browser](https://games.example/verify/verify.html#v=1" in verified.content
    stats = await (await host.slash("stats")).reply()
    assert winner.mention not in stats.content
    assert loser.mention in stats.content
    assert ": 1 win" not in stats.content  # nobody left on the board has a win
    summary = next(m for m in channel.messages if "is over" in m.content)
    assert winner.mention in summary.content  # what was posted in the channel stays


async def test_a_table_game_forgets_its_player_and_offers_no_rematch(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    alice = guild.add_member("alice", locale="es-ES")
    bob = guild.add_member("bob")
    bot = await start_bot()

    challenge = await (await alice.slash("tictactoe play", opponent=bob.user)).reply()
    await (await bob.click(challenge, challenge.custom_ids[0])).reply()
    await (await bob.slash("tictactoe resign")).reply()
    result = await channel.wait_for_message(
        lambda m: any(":rematch:" in cid for cid in m.custom_ids), timeout=5
    )
    game = await bot.storage.get_game(1)
    assert game is not None
    assert game.status is GameStatus.FINISHED

    asked = await (await alice.slash("gamenight forget-me")).reply()
    assert "Esto te borra de **1 partida terminada**" in asked.content
    assert [b["label"] for b in asked.buttons] == ["Olvídame", "Conservar mis datos"]
    done = await (await alice.click(asked, answer_id(asked, "yes"))).reply()
    assert done.content == "Hecho: se te borró de 1 partida terminada."

    forgotten = await bot.storage.get_game(game.id)
    assert forgotten is not None
    assert alice.id not in forgotten.options["seats"]
    assert "alice" not in forgotten.options["names"]
    assert bob.id in forgotten.options["seats"]
    assert forgotten.host_id < 0
    rematch_id = next(cid for cid in result.custom_ids if ":rematch:" in cid)
    refused = await (await bob.click(result, rematch_id)).reply()
    assert refused.ephemeral
    assert "asked to be forgotten" in refused.content
    assert await bot.storage.live_games("tictactoe") == []
    stats = await (await bob.slash("stats")).reply()
    assert alice.mention not in stats.content


async def test_a_confirmation_expires_and_nothing_is_removed(
    emulator: Emulator, start_bot, monkeypatch: pytest.MonkeyPatch
):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    alice = guild.add_member("alice")
    newcomer = guild.add_member("newcomer")
    bot = await start_bot()
    solo = await (await alice.slash("triangle play")).reply()
    await (await alice.click(solo, next(c for c in solo.custom_ids if ":quit:" in c))).reply()
    (player,) = await bot.storage.players(1)
    assert player.user_id == alice.id

    nothing = await (await newcomer.slash("gamenight forget-me")).reply()
    assert nothing.content == "No finished game holds anything about you."
    assert nothing.custom_ids == []

    # The module the bot loaded (load_extension imports a fresh copy of it).
    loaded = sys.modules[type(bot.get_cog("GameNight")).__module__]
    monkeypatch.setattr(loaded, "CONFIRM_SECONDS", -1)
    asked = await (await alice.slash("gamenight forget-me")).reply()
    late = await (await alice.click(asked, answer_id(asked, "yes"))).reply()
    assert late.content == "This confirmation has expired: use `/gamenight forget-me` again."
    assert (await bot.storage.players(1))[0].user_id == alice.id
