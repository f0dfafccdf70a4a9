"""Discord's rules, enforced: what Discord would reject is answered as Discord would and recorded
as a failure that fails the test (unless the test takes it as expected)."""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import discord
import pytest

from emulator import Emulator, EmulatorFailureError, InteractionFailedError, run_bot
from emulator.model import Permission
from tests.emulator.minimal_bot import MinimalBot


def make_world(emu: Emulator):
    guild = emu.add_guild("Game Night")
    general = guild.add_channel("general")
    alice = guild.add_member("alice", manage_guild=True)
    bob = guild.add_member("bob", dms_open=False)
    return general, alice, bob


async def raw(
    emu: Emulator,
    method: str,
    path: str,
    *,
    body: Any = None,
    form: aiohttp.FormData | None = None,
    auth: bool = True,
) -> tuple[int, str, Any]:
    """A request as a bot would send it; returns status, Content-Type and decoded JSON."""
    headers = {"Authorization": f"Bot {emu.token}"} if auth else {}
    data: Any = form
    if body is not None:
        headers["Content-Type"] = "application/json"
        data = json.dumps(body)
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, emu.api_base_url + path, data=data, headers=headers) as response,
    ):
        text = await response.text()
        content_type = response.headers.get("Content-Type", "")
        return response.status, content_type, json.loads(text) if text else None


async def test_a_request_the_spec_rejects_is_caught(emulator, tmp_path):
    general, alice, _ = make_world(emulator)
    bot = MinimalBot(tmp_path / "bot.sqlite3")
    async with run_bot(emulator, bot):
        reply = await (await alice.slash("badembed")).reply()
        assert reply.content == "could not send that"
    [error] = bot.errors
    assert isinstance(error, discord.HTTPException)
    assert (error.status, error.code) == (400, 50035)
    [failure] = emulator.take_failures("spec")
    assert "embeds/0/title" in str(failure)
    assert "too long" in str(failure)
    assert all(m.embeds == [] for m in general.messages)


async def test_a_double_acknowledgement_is_caught(emulator, tmp_path):
    _, alice, _ = make_world(emulator)
    bot = MinimalBot(tmp_path / "bot.sqlite3")
    async with run_bot(emulator, bot):
        result = await alice.slash("twice")
        assert (await result.reply()).content == "first answer"
        await emulator.wait_until(lambda: bot.raw_answers, 5, lambda: "the second answer")
    [(status, body)] = bot.raw_answers
    assert status == 400
    assert body["code"] == 40060
    [failure] = emulator.take_failures("double_ack")
    assert "twice" in str(failure)
    assert result.content == "first answer"


async def test_a_late_acknowledgement_is_caught(tmp_path):
    # Discord allows 3 s; a shorter deadline keeps the test fast and checks the same rule.
    async with Emulator(ack_timeout=0.1) as emu:
        _, alice, _ = make_world(emu)
        bot = MinimalBot(tmp_path / "bot.sqlite3")
        bot.slow_delay = 0.25
        async with run_bot(emu, bot):
            result = await alice.slash("slow")
            with pytest.raises(InteractionFailedError, match="This interaction failed"):
                await result.reply()
            await emu.wait_until(lambda: bot.errors, 5, lambda: "the bot's late answer")
        [error] = bot.errors
        assert isinstance(error, discord.NotFound)
        assert error.code == 10062
        assert [f.kind for f in emu.take_failures()] == ["interaction_failed", "late_ack"]


async def test_a_dm_to_a_member_with_closed_dms_is_caught(emulator, tmp_path):
    _, _, bob = make_world(emulator)
    bot = MinimalBot(tmp_path / "bot.sqlite3")
    async with run_bot(emulator, bot):
        reply = await (await bob.slash("card")).reply()
        assert reply.content == "I cannot DM you: please open your DMs"
        assert reply.ephemeral
    [error] = bot.errors
    assert isinstance(error, discord.Forbidden)
    assert error.code == 50007
    assert bob.dms == []
    [failure] = emulator.take_failures("dm_closed")
    assert "bob" in str(failure)


async def test_leaving_the_emulator_with_failures_fails_the_test():
    emu = Emulator()

    async def unauthorized_request() -> int:
        async with emu:
            status, _, _ = await raw(emu, "GET", "/users/@me", auth=False)
            return status

    with pytest.raises(EmulatorFailureError, match="unauthorized"):
        await unauthorized_request()
    assert [r.status for r in emu.requests] == [401]


async def test_json_answers_carry_exactly_application_json(emulator):
    status, content_type, body = await raw(emulator, "GET", "/users/@me")
    assert status == 200
    assert content_type == "application/json"
    assert body["id"] == str(emulator.bot_user.id)
    status, content_type, _ = await raw(emulator, "GET", "/users/@me", auth=False)
    assert (status, content_type) == (401, "application/json")
    assert [f.kind for f in emulator.take_failures()] == ["unauthorized"]


@pytest.mark.parametrize(
    ("method", "path", "reason"),
    [
        ("GET", "/no/such/route", "no such route"),
        ("DELETE", "/users/@me", "method not allowed"),
        ("GET", "/users/not-a-snowflake", "user_id"),
        ("GET", "/channels/1/messages?limit=500", "limit"),
        ("GET", "/channels/1/messages?colour=blue", "unknown query parameter"),
    ],
)
async def test_routes_methods_and_parameters_are_checked(emulator, method, path, reason):
    status, _, _ = await raw(emulator, method, path)
    assert status in (400, 404)
    [failure] = emulator.take_failures("spec")
    assert reason in str(failure)


def rows_of_buttons(rows: int, per_row: int, prefix: str = "b") -> list[dict[str, Any]]:
    return [
        {
            "type": 1,
            "components": [
                {"type": 2, "style": 1, "label": "x", "custom_id": f"{prefix}{r}-{i}"}
                for i in range(per_row)
            ],
        }
        for r in range(rows)
    ]


@pytest.mark.parametrize(
    ("body", "expected_code", "reason"),
    [
        ({"content": "x" * 2001}, 50035, "2000 or fewer"),
        ({"content": "", "embeds": []}, 50006, "empty message"),
        ({"components": rows_of_buttons(6, 1)}, 50035, "at most 5 action rows"),
        ({"components": rows_of_buttons(1, 6)}, 50035, "components/0/components"),
        (
            {"components": rows_of_buttons(1, 2, prefix="same")[:1] * 2},
            50035,
            "used twice",
        ),
        (
            {
                "content": "hi",
                "components": [{"type": 2, "style": 1, "label": "x", "custom_id": "a"}],
            },
            50035,
            "components/0/type: 2 is not one of",
        ),
    ],
)
async def test_message_limits_are_enforced(emulator, body, expected_code, reason):
    general, _, _ = make_world(emulator)
    status, _, answer = await raw(emulator, "POST", f"/channels/{general.id}/messages", body=body)
    assert status == 400
    assert answer["code"] == expected_code
    [failure] = emulator.take_failures("rule", "spec")
    assert reason in str(failure)
    assert general.messages == []


async def test_custom_id_longer_than_100_is_rejected(emulator):
    general, _, _ = make_world(emulator)
    row = {"type": 1, "components": [{"type": 2, "style": 1, "label": "x", "custom_id": "c" * 101}]}
    status, _, _ = await raw(
        emulator, "POST", f"/channels/{general.id}/messages", body={"components": [row]}
    )
    assert status == 400
    [failure] = emulator.take_failures()
    assert "custom_id" in str(failure)


async def test_attachments_over_10_mib_are_rejected(emulator):
    general, _, _ = make_world(emulator)
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", json.dumps({"content": "big"}), content_type="application/json")
    form.add_field("files[0]", b"\0" * (10 * 1024 * 1024 + 1), filename="big.bin")
    status, _, answer = await raw(emulator, "POST", f"/channels/{general.id}/messages", form=form)
    assert status == 413
    assert answer["code"] == 40005
    assert [f.kind for f in emulator.take_failures()] == ["rule"]


async def test_payload_json_of_a_multipart_upload_is_validated(emulator):
    general, _, _ = make_world(emulator)
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", json.dumps({"content": 5}), content_type="application/json")
    form.add_field("files[0]", b"hello", filename="hello.txt")
    status, _, _ = await raw(emulator, "POST", f"/channels/{general.id}/messages", form=form)
    assert status == 400
    [failure] = emulator.take_failures("spec")
    assert "content" in str(failure)


async def test_a_multipart_upload_keeps_bytes_and_alt_text(emulator):
    general, _, _ = make_world(emulator)
    form = aiohttp.FormData(quote_fields=False)
    payload = {
        "content": "files",
        "attachments": [{"id": 0, "filename": "a.txt", "description": "alt A"}],
    }
    form.add_field("payload_json", json.dumps(payload), content_type="application/json")
    form.add_field("files[0]", b"AAA", filename="a.txt")
    form.add_field("files[1]", b"BBB", filename="b.txt")
    status, _, answer = await raw(emulator, "POST", f"/channels/{general.id}/messages", form=form)
    assert status == 200
    [message] = general.messages
    assert [(a.filename, a.data, a.description) for a in message.attachments] == [
        ("a.txt", b"AAA", "alt A"),
        ("b.txt", b"BBB", None),
    ]
    assert [a["filename"] for a in answer["attachments"]] == ["a.txt", "b.txt"]


async def test_a_wrong_callback_type_is_caught(emulator):
    _, alice, _ = make_world(emulator)
    interaction = await interaction_for_a_raw_client(emulator, alice)
    # An autocomplete result (8) is not a valid answer to a slash command.
    status, _, answer = await raw(
        emulator,
        "POST",
        f"/interactions/{interaction.id}/{interaction.token}/callback",
        body={"type": 8, "data": {"choices": []}},
        auth=False,
    )
    assert status == 400
    assert answer["code"] == 50035
    assert [f.kind for f in emulator.take_failures()] == ["bad_callback"]
    assert not interaction.acknowledged
    # The rejected answer did not use up the acknowledgement: a valid one still works.
    status, _, _ = await raw(
        emulator,
        "POST",
        f"/interactions/{interaction.id}/{interaction.token}/callback",
        body={"type": 4, "data": {"content": "pong"}},
        auth=False,
    )
    assert status == 204
    assert (await interaction.reply()).content == "pong"


async def test_an_interaction_the_bot_ignores_fails_the_test():
    emu = Emulator()

    async def ignored_interaction() -> None:
        async with emu:
            _, alice, _ = make_world(emu)
            await interaction_for_a_raw_client(emu, alice)

    with pytest.raises(EmulatorFailureError, match="unanswered"):
        await ignored_interaction()


async def test_posting_where_the_bot_may_not_send_is_caught(emulator):
    guild = emulator.add_guild("g")
    closed = guild.add_channel("announcements", bot_can_send=False)
    status, _, answer = await raw(
        emulator, "POST", f"/channels/{closed.id}/messages", body={"content": "hi"}
    )
    assert (status, answer["code"]) == (403, 50013)
    assert [f.kind for f in emulator.take_failures()] == ["missing_permissions"]
    assert closed.payload()["permission_overwrites"][0]["deny"] == str(1 << 11)


async def test_a_send_messages_deny_given_as_bot_denied_holds(emulator):
    guild = emulator.add_guild("g")
    closed = guild.add_channel("announcements", bot_denied=Permission.SEND_MESSAGES)
    assert not closed.bot_can_send
    status, _, answer = await raw(
        emulator, "POST", f"/channels/{closed.id}/messages", body={"content": "hi"}
    )
    assert (status, answer["code"]) == (403, 50013)
    assert [f.kind for f in emulator.take_failures()] == ["missing_permissions"]
    # bot_can_send=False adds Send Messages to the other bits denied, and keeps them.
    both = guild.add_channel("no-files", bot_can_send=False, bot_denied=Permission.ATTACH_FILES)
    assert both.bot_denied == Permission.SEND_MESSAGES | Permission.ATTACH_FILES
    with pytest.raises(ValueError, match="contradicts"):
        guild.add_channel("both", bot_can_send=True, bot_denied=Permission.SEND_MESSAGES)


async def interaction_for_a_raw_client(emu: Emulator, member):
    """A slash command delivered to a bare websocket client (no discord.py), to answer by hand."""
    emu.replace_commands(None, [{"name": "ping", "description": "Answers pong"}])
    async with aiohttp.ClientSession() as session, session.ws_connect(emu.gateway_url) as socket:
        assert (await socket.receive_json())["op"] == 10  # HELLO
        await socket.send_json({"op": 2, "d": {"token": emu.token, "intents": 0, "properties": {}}})
        await emu.wait_for_bot()
        result = await member.slash("ping")
        while (await socket.receive_json()).get("t") != "INTERACTION_CREATE":
            pass
    return result


async def test_the_bot_route_needs_authorization_but_webhooks_do_not(emulator):
    status, _, _ = await raw(
        emulator, "GET", f"/webhooks/{emulator.application_id}/nope/messages/@original", auth=False
    )
    assert status == 404
    assert [f.kind for f in emulator.take_failures()] == ["unknown_webhook"]


async def test_an_enforced_nonce_makes_a_repeated_send_return_the_first_message(emulator):
    general, _, _ = make_world(emulator)
    path = f"/channels/{general.id}/messages"
    body = {"content": "card 5 of 54", "nonce": "g1c5", "enforce_nonce": True}
    _, _, first = await raw(emulator, "POST", path, body=body)
    _, _, again = await raw(emulator, "POST", path, body=body)
    assert again["id"] == first["id"]
    assert again["nonce"] == "g1c5"
    assert [m.content for m in general.messages] == ["card 5 of 54"]
    # Without enforce_nonce, or with another nonce, a new message is made.
    await raw(emulator, "POST", path, body={**body, "enforce_nonce": False})
    await raw(emulator, "POST", path, body={**body, "nonce": "g1c6"})
    assert len(general.messages) == 3


async def test_a_repeated_nonce_of_a_deleted_message_is_unknown_message(emulator):
    """Discord does not make a message again for the nonce of one deleted since: it answers
    404 / 10008 Unknown Message (discord-api-docs#6647, discord.py#10116)."""
    general, _, _ = make_world(emulator)
    path = f"/channels/{general.id}/messages"
    body = {"content": "card 5 of 54", "nonce": "g1c5", "enforce_nonce": True}
    _, _, first = await raw(emulator, "POST", path, body=body)
    status, _, _ = await raw(emulator, "DELETE", f"{path}/{first['id']}")
    assert status == 204
    status, _, answer = await raw(emulator, "POST", path, body=body)
    assert (status, answer["code"]) == (404, 10008)
    assert general.messages == []
    assert emulator.failures == []  # Discord's answer, not a rule the bot broke
    # Another nonce (or none enforced) posts as usual.
    await raw(emulator, "POST", path, body={**body, "nonce": "g1c5r1"})
    assert [m.content for m in general.messages] == ["card 5 of 54"]
