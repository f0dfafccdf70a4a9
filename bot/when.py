"""When a game night is: the times hosts type, read in the server's time zone.

Accepted (English or Spanish words, any case):

- a Discord timestamp, as the client writes it: ``<t:1764532800>`` or ``<t:1764532800:F>``, or the
  bare number of seconds since 1970;
- an ISO 8601 time: ``2026-11-30 20:00``, ``2026-11-30T20:00:00-06:00`` (a time without an offset
  is in the server's zone);
- a day and a time: ``today 20:00``, ``tomorrow 19:30``, ``hoy 8pm``, ``mañana 21:15``, or a
  weekday: ``friday 20:00``, ``viernes 20:00`` (the next one; today's only if still to come);
- a time alone: ``20:00``, ``8pm``, ``8:30 pm`` (today if still to come, else tomorrow);
- a delay: ``in 2 hours``, ``in 90 minutes``, ``in 1h30m``, ``+45m``, ``en 2 horas``,
  ``en 30 minutos``.

``parse_when`` returns an aware UTC datetime, or raises ``WhenError`` (a ``ValueError``) whose
message key says what was wrong; so does ``zone_named`` for a time zone. Nothing a member can
type makes either raise anything else (numbers past the calendar, names that are folders of the
time zone database, control characters: ``tests/bot/test_when.py`` feeds them any text).
"""

from __future__ import annotations

import re
import unicodedata
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

DAYS_AHEAD_LIMIT = 366  # a game night at most a year away
_AHEAD_SECONDS = DAYS_AHEAD_LIMIT * 86400


class WhenError(ValueError):
    """A time that cannot be read (``key`` names the message that says why)."""

    def __init__(self, key: str, text: str) -> None:
        super().__init__(f"{key}: {text!r}")
        self.key = key
        self.text = text


_WEEKDAYS = {
    name: index
    for index, names in enumerate(
        [
            ("monday", "mon", "lunes", "lun"),
            ("tuesday", "tue", "martes", "mar"),
            ("wednesday", "wed", "miercoles", "mie"),
            ("thursday", "thu", "jueves", "jue"),
            ("friday", "fri", "viernes", "vie"),
            ("saturday", "sat", "sabado", "sab"),
            ("sunday", "sun", "domingo", "dom"),
        ]
    )
    for name in names
}
_TODAY = {"today", "tonight", "hoy", "esta noche"}
_TOMORROW = {"tomorrow", "manana"}
_UNITS = {
    "d": 86400, "day": 86400, "days": 86400, "dia": 86400, "dias": 86400,
    "h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600, "hora": 3600, "horas": 3600,
    "m": 60, "min": 60, "mins": 60, "minute": 60, "minutes": 60, "minuto": 60, "minutos": 60,
}  # fmt: skip
_DISCORD_STAMP = re.compile(r"<t:(-?\d+)(?::[tTdDfFR])?>")
_CLOCK = re.compile(r"(\d{1,2})(?:[:.h](\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?")
_DELAY_PART = re.compile(r"(\d+)\s*([a-z]+)")
# What an IANA time zone name is made of ("America/Argentina/Buenos_Aires", "Etc/GMT+6"): the
# rest (a path, "..", NUL, 300 characters) is refused before the time zone database is asked.
_ZONE_NAME = re.compile(r"[A-Za-z0-9_+\-]{1,30}(?:/[A-Za-z0-9_+\-]{1,30}){0,3}")


def zone_named(name: str) -> tzinfo:
    """The IANA time zone ``name`` (``America/Mexico_City``); ``WhenError`` if unknown."""
    if name.upper() == "UTC":
        return UTC
    if not _ZONE_NAME.fullmatch(name):
        raise WhenError("when_bad_zone", name)
    try:
        return ZoneInfo(name)
    # A folder of the database ("America") is an OSError, a file that is not a zone a ValueError.
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise WhenError("when_bad_zone", name) from None


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(plain.split())


def _clock(text: str) -> time | None:
    found = _CLOCK.fullmatch(text)
    if not found:
        return None
    hour, minutes, half = int(found[1]), found[2], found[3]
    if minutes is None and half is None:
        return None  # a bare number is not a time of day ("20" could be anything)
    minute = int(minutes or 0)
    if half:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if half.startswith("p") else 0)
    if not (0 <= hour <= 23 and 0 <= minute <= 59):
        return None
    return time(hour, minute)


def parse_when(text: str, now: datetime, zone: tzinfo = UTC) -> datetime:
    """The moment ``text`` names, as an aware UTC datetime; it must be after ``now``."""
    raw = text.strip()
    if not raw or len(raw) > 100:
        raise WhenError("when_unreadable", raw[:40])
    local_now = now.astimezone(zone)
    moment = _read(raw, local_now, zone)
    if moment is None:
        raise WhenError("when_unreadable", raw)
    try:
        moment = moment.astimezone(UTC)
    except OverflowError:  # a written date at an end of the calendar, moved past it by its zone
        raise WhenError("when_too_far" if moment.year > now.year else "when_past", raw) from None
    if moment <= now:
        raise WhenError("when_past", raw)
    if moment - now > timedelta(days=DAYS_AHEAD_LIMIT):
        raise WhenError("when_too_far", raw)
    return moment


def _read(raw: str, local_now: datetime, zone: tzinfo) -> datetime | None:
    stamp = _DISCORD_STAMP.fullmatch(raw)
    if stamp or (raw.isdecimal() and len(raw) >= 9):
        seconds = int(stamp[1] if stamp else raw)
        # Checked before it becomes a date: most numbers are outside the calendar.
        _check_ahead(seconds - local_now.timestamp(), raw)
        return datetime.fromtimestamp(seconds, UTC)
    iso = _iso(raw, zone)
    if iso is not None:
        return iso
    folded = _fold(raw)
    delay = _delay(folded)
    if delay is not None:
        _check_ahead(delay, raw)
        return local_now + timedelta(seconds=delay)
    words = folded.replace(" at ", " ").replace(" a las ", " ").split(" ", 1)
    day_word, rest = (words[0], words[1]) if len(words) == 2 else ("", folded)
    if day_word in _TODAY or folded.startswith("esta noche"):
        return _on(local_now.date(), rest.removeprefix("noche ").strip(), zone)
    if day_word in _TOMORROW:
        return _on(local_now.date() + timedelta(days=1), rest, zone)
    if day_word in _WEEKDAYS:
        ahead = (_WEEKDAYS[day_word] - local_now.weekday()) % 7
        candidate = _on(local_now.date() + timedelta(days=ahead), rest, zone)
        if candidate is not None and candidate <= local_now:
            candidate = _on(local_now.date() + timedelta(days=ahead + 7), rest, zone)
        return candidate
    alone = _on(local_now.date(), folded, zone)
    if alone is not None and alone <= local_now:
        alone = _on(local_now.date() + timedelta(days=1), folded, zone)
    return alone


def _check_ahead(seconds: float, raw: str) -> None:
    """Refuse a moment ``seconds`` from now that is not in the coming year."""
    if seconds <= 0:
        raise WhenError("when_past", raw)
    if seconds > _AHEAD_SECONDS:
        raise WhenError("when_too_far", raw)


def _on(day: date, clock_text: str, zone: tzinfo) -> datetime | None:
    clock = _clock(clock_text.strip())
    if clock is None:
        return None
    return datetime.combine(day, clock, zone)


def _iso(raw: str, zone: tzinfo) -> datetime | None:
    try:
        parsed = datetime.fromisoformat(raw)
    except ValueError:
        return None
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=zone)


def _delay(folded: str) -> int | None:
    """The seconds a delay ("in 2 hours", "+45m") says, or None if ``folded`` is not one."""
    for prefix in ("in ", "en ", "+"):
        if folded.startswith(prefix):
            body = folded.removeprefix(prefix).replace(" y ", " ").replace(" and ", " ")
            break
    else:
        return None
    parts = _DELAY_PART.findall(body)
    if not parts or _DELAY_PART.sub("", body).strip():
        return None
    seconds = 0
    for amount, unit in parts:
        if unit not in _UNITS:
            return None
        seconds += int(amount) * _UNITS[unit]
    return seconds or None
