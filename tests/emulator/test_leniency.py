"""Where the emulator was stricter than Discord: files numbered 10 and up, form fields beside
``payload_json`` (Reference: Uploading Files), and embed text whose surrounding whitespace
Discord trims before its length checks (Messages: Embed Limits)."""

from __future__ import annotations

import json
from typing import Any

import aiohttp

from emulator import Emulator
from emulator.rules import trim_embeds


async def upload(
    emu: Emulator, channel_id: int, parts: list[tuple[str, bytes | str, str | None]]
) -> tuple[int, Any]:
    """A multipart message post; each part is (name, value, filename or None)."""
    form = aiohttp.FormData(default_to_multipart=True)
    for name, value, filename in parts:
        if filename is None:
            form.add_field(name, value)
        else:
            form.add_field(name, value, filename=filename, content_type="image/png")
    async with (
        aiohttp.ClientSession() as session,
        session.post(
            f"{emu.api_base_url}/channels/{channel_id}/messages",
            data=form,
            headers={"Authorization": f"Bot {emu.token}"},
        ) as response,
    ):
        return response.status, await response.json()


async def test_files_may_be_numbered_ten_and_up():
    async with Emulator() as emu:
        channel = emu.add_guild("g").add_channel("general")
        payload = {
            "content": "two cards",
            "attachments": [
                {"id": 10, "filename": "ten.png", "description": "card ten"},
                {"id": 42, "filename": "forty-two.png"},
            ],
        }
        status, body = await upload(
            emu,
            channel.id,
            [
                ("payload_json", json.dumps(payload), None),
                ("files[10]", b"ten", "a.png"),
                ("files[42]", b"forty-two", "b.png"),
            ],
        )
        assert status == 200, body
        (message,) = channel.messages
        assert [(a.filename, a.data) for a in message.attachments] == [
            ("ten.png", b"ten"),
            ("forty-two.png", b"forty-two"),
        ]
        assert message.attachments[0].description == "card ten"


async def test_at_most_ten_files_each_named_once():
    async with Emulator() as emu:
        channel = emu.add_guild("g").add_channel("general")
        payload = ("payload_json", json.dumps({"content": "cards"}), None)
        ten = [payload, *((f"files[{n}]", b"x", f"{n}.png") for n in range(20, 30))]
        status, body = await upload(emu, channel.id, ten)
        assert status == 200, body
        status, body = await upload(emu, channel.id, [*ten, ("files[30]", b"x", "30.png")])
        assert (status, body["code"]) == (400, 50035)
        twice = [payload, ("files[0]", b"x", "a.png"), ("files[0]", b"y", "b.png")]
        status, body = await upload(emu, channel.id, twice)
        assert (status, body["code"]) == (400, 50035)
        (message,) = channel.messages
        assert len(message.attachments) == 10
        assert {f.kind for f in emu.take_failures()} == {"rule", "spec"}


async def test_form_fields_stand_for_json_params_without_payload_json():
    async with Emulator() as emu:
        channel = emu.add_guild("g").add_channel("general")
        # Discord's own example: content and tts as form fields, no payload_json.
        status, body = await upload(
            emu, channel.id, [("content", "Hello, World!", None), ("tts", "false", None)]
        )
        assert status == 200, body
        status, body = await upload(
            emu,
            channel.id,
            [
                ("content", "with a file", None),
                ("flags", "4", None),  # an integer field, given as text
                ("files[0]", b"png", "card.png"),
            ],
        )
        assert status == 200, body
        first, second = channel.messages
        assert first.content == "Hello, World!"
        assert second.content == "with a file"
        assert [a.filename for a in second.attachments] == ["card.png"]
        assert second.flags & 4  # SUPPRESS_EMBEDS, read as the number the spec wants


async def test_a_form_body_where_the_spec_accepts_one():
    async with Emulator() as emu:
        channel = emu.add_guild("g").add_channel("general")
        async with (
            aiohttp.ClientSession() as session,
            session.post(
                f"{emu.api_base_url}/channels/{channel.id}/messages",
                data={"content": "a form", "tts": "false"},  # x-www-form-urlencoded
                headers={"Authorization": f"Bot {emu.token}"},
            ) as response,
        ):
            assert response.status == 200, await response.text()
        assert [m.content for m in channel.messages] == ["a form"]


async def test_payload_json_wins_over_a_form_field():
    async with Emulator() as emu:
        channel = emu.add_guild("g").add_channel("general")
        status, _ = await upload(
            emu,
            channel.id,
            [("content", "form", None), ("payload_json", json.dumps({"content": "json"}), None)],
        )
        assert status == 200
        assert [m.content for m in channel.messages] == ["json"]


async def test_embed_text_is_trimmed_before_its_limits_are_checked():
    async with Emulator() as emu:
        channel = emu.add_guild("g").add_channel("general")
        padded_title = "  " + "t" * 256 + "\n\n  "  # 262 characters, 256 once trimmed
        embed = {
            "title": padded_title,
            "description": " " * 100 + "d" * 4096,
            "fields": [{"name": " name ", "value": "v" * 1024 + "   "}],
            "footer": {"text": "\tfooter\t"},
        }
        async with (
            aiohttp.ClientSession() as session,
            session.post(
                f"{emu.api_base_url}/channels/{channel.id}/messages",
                data=json.dumps({"embeds": [embed]}),
                headers={"Authorization": f"Bot {emu.token}", "Content-Type": "application/json"},
            ) as response,
        ):
            assert response.status == 200, await response.text()
        (stored,) = channel.messages[0].embeds
        assert stored["title"] == "t" * 256
        assert stored["description"] == "d" * 4096
        assert stored["fields"] == [{"name": "name", "value": "v" * 1024}]
        assert stored["footer"] == {"text": "footer"}


def test_trimming_leaves_other_fields_and_other_bodies_alone():
    body = {"content": "  kept  ", "embeds": [{"title": " t ", "url": " u "}]}
    assert trim_embeds(body) == {"content": "  kept  ", "embeds": [{"title": "t", "url": " u "}]}
    assert body["embeds"][0]["title"] == " t "  # a copy: what the bot sent is kept as sent
    plain = {"content": "no embeds"}
    assert trim_embeds(plain) is plain
