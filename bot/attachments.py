"""Rendered pictures as Discord attachments."""

from __future__ import annotations

import io

import discord

from bot.render import Rendered


def attachment(rendered: Rendered) -> discord.File:
    """A rendered picture as an attachment, its alt text as the description (screen readers)."""
    return discord.File(
        io.BytesIO(rendered.png), filename=rendered.filename, description=rendered.alt_text
    )
