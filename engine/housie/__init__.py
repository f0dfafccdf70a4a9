"""Housie / Tambola (90-ball bingo): tickets, uniform strips, prize checks, signed codes, the game.

Everything public is importable from here (``from engine.housie import HousieGame``). The modules,
in the order they build on each other:

``tickets``
    The 3 x 9 ticket, its rules (``Ticket``, ``TicketError``, ``TicketRule``) and text form.
``sampling``
    Counting and uniform sampling: how many tickets and strips there are, ticket ranks, and the
    exact uniform strip sampler (``generate_strip``); the mathematics lives here.
``prizes``
    The prizes (``Prize``) and how a claim is judged (``check_prize``, ``Calls``).
``codes``
    Signed ticket codes (``encode_ticket_code``, ``decode_ticket_code``).
``game``
    A called game (``HousieGame``) and dealing its tickets from the seed (``tickets_at``, and
    ``TicketDealer`` for a live game).
"""

from engine.housie.codes import (
    CODE_ALPHABET,
    MAX_CODE_LENGTH,
    MIN_KEY_BYTES,
    TAG_BITS,
    CodeReason,
    TicketCodeError,
    decode_ticket_code,
    encode_ticket_code,
)
from engine.housie.game import (
    MAX_TICKETS,
    HousieGame,
    TicketDealer,
    deal_strips,
    ticket_for_seat,
    tickets_at,
)
from engine.housie.prizes import (
    DEFAULT_PRIZES,
    Calls,
    Prize,
    PrizeCheck,
    PrizeReason,
    check_prize,
    prize_numbers,
)
from engine.housie.sampling import (
    TICKETS_PER_STRIP,
    generate_strip,
    generate_ticket,
    layout_count,
    strip_count,
    strip_ticket_type_odds,
    ticket_count,
    ticket_from_rank,
    ticket_rank,
    ticket_type_odds,
)
from engine.housie.tickets import (
    COLUMN_FIRST,
    COLUMN_LAST,
    COLUMN_SIZE,
    COLUMNS,
    HIGHEST_NUMBER,
    MAX_PER_COLUMN,
    NUMBERS_PER_ROW,
    NUMBERS_PER_TICKET,
    ROWS,
    Ticket,
    TicketError,
    TicketRule,
    column_of,
)

__all__ = [
    "CODE_ALPHABET",
    "COLUMNS",
    "COLUMN_FIRST",
    "COLUMN_LAST",
    "COLUMN_SIZE",
    "DEFAULT_PRIZES",
    "HIGHEST_NUMBER",
    "MAX_CODE_LENGTH",
    "MAX_PER_COLUMN",
    "MAX_TICKETS",
    "MIN_KEY_BYTES",
    "NUMBERS_PER_ROW",
    "NUMBERS_PER_TICKET",
    "ROWS",
    "TAG_BITS",
    "TICKETS_PER_STRIP",
    "Calls",
    "CodeReason",
    "HousieGame",
    "Prize",
    "PrizeCheck",
    "PrizeReason",
    "Ticket",
    "TicketCodeError",
    "TicketDealer",
    "TicketError",
    "TicketRule",
    "check_prize",
    "column_of",
    "deal_strips",
    "decode_ticket_code",
    "encode_ticket_code",
    "generate_strip",
    "generate_ticket",
    "layout_count",
    "prize_numbers",
    "strip_count",
    "strip_ticket_type_odds",
    "ticket_count",
    "ticket_for_seat",
    "ticket_from_rank",
    "ticket_rank",
    "ticket_type_odds",
    "tickets_at",
]
