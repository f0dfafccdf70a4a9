"""A local Discord emulator on loopback for end-to-end tests and the offline sandbox.

The unmodified discord.py client connects to it (see :mod:`emulator.endpoints`); tests drive it
as people using Discord would::

    async with Emulator() as emu:
        guild = emu.add_guild("Game Night")
        general = guild.add_channel("general")
        alice = guild.add_member("alice", manage_guild=True)
        async with run_bot(emu, client):
            reply = await (await alice.slash("ping")).reply()
"""

from emulator.driver import Guild, Member
from emulator.faults import AutoModBlock, Fault
from emulator.gateway import GatewayLimits
from emulator.interactions import (
    CallbackType,
    InteractionFailedError,
    InteractionResult,
    InteractionType,
)
from emulator.model import Attachment, Channel, DriverError, Failure, Message, Permission, User
from emulator.ratelimit import InvalidRequestLimit, RateLimits, RouteLimit
from emulator.rest import RequestRecord
from emulator.server import Emulator, EmulatorFailureError
from emulator.testing import run_bot
from emulator.voice import VoiceCall, VoiceFrame

__all__ = [
    "Attachment",
    "AutoModBlock",
    "CallbackType",
    "Channel",
    "DriverError",
    "Emulator",
    "EmulatorFailureError",
    "Failure",
    "Fault",
    "GatewayLimits",
    "Guild",
    "InteractionFailedError",
    "InteractionResult",
    "InteractionType",
    "InvalidRequestLimit",
    "Member",
    "Message",
    "Permission",
    "RateLimits",
    "RequestRecord",
    "RouteLimit",
    "User",
    "VoiceCall",
    "VoiceFrame",
    "run_bot",
]
