"""Rendered pictures as Discord attachments."""

from __future__ import annotations

import io

import discord

from bot.render import Rendered


class _Attachment(discord.File):
    """A ``discord.File`` that lets go of its picture as soon as it is closed.

    ``discord.File.close`` puts the buffer's own bound ``close`` back on the buffer as an
    attribute, so the buffer refers to itself and its bytes wait for the cyclic garbage
    collector: tens of kilobytes per picture sent, piling up between collections.
    """

    __slots__ = ()

    def close(self) -> None:
        super().close()
        vars(self.fp).pop("close", None)  # break the cycle: the class's close is the same one


def attachment(rendered: Rendered) -> discord.File:
    """A rendered picture as an attachment, its alt text as the description (screen readers)."""
    return _Attachment(
        io.BytesIO(rendered.png), filename=rendered.filename, description=rendered.alt_text
    )
