"""Reading the times hosts type for a game night, in the server's time zone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bot.when import DAYS_AHEAD_LIMIT, WhenError, parse_when, zone_named

# A Tuesday evening in Mexico City (UTC-6): 18:00 local.
NOW = datetime(2026, 11, 24, 0, 0, tzinfo=UTC)
MEXICO = zone_named("America/Mexico_City")


def local(text: str, zone=MEXICO) -> datetime:
    return parse_when(text, NOW, zone).astimezone(zone)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("today 20:00", datetime(2026, 11, 23, 20, 0)),
        ("hoy 8pm", datetime(2026, 11, 23, 20, 0)),
        ("Esta noche 21:15", datetime(2026, 11, 23, 21, 15)),
        ("tomorrow 19:30", datetime(2026, 11, 24, 19, 30)),
        ("mañana a las 7:05 pm", datetime(2026, 11, 24, 19, 5)),
        ("20:00", datetime(2026, 11, 23, 20, 0)),  # still to come today
        ("9am", datetime(2026, 11, 24, 9, 0)),  # past today: tomorrow
        ("friday 20:00", datetime(2026, 11, 27, 20, 0)),
        ("Viernes 20:00", datetime(2026, 11, 27, 20, 0)),
        ("monday at 18:00", datetime(2026, 11, 30, 18, 0)),  # today (Monday) 18:00 has passed
        ("2026-11-30 20:00", datetime(2026, 11, 30, 20, 0)),
    ],
)
def test_days_and_times_in_the_servers_zone(text, expected):
    assert local(text).replace(tzinfo=None) == expected


@pytest.mark.parametrize(
    ("text", "delay"),
    [
        ("in 2 hours", timedelta(hours=2)),
        ("in 90 minutes", timedelta(minutes=90)),
        ("in 1h30m", timedelta(hours=1, minutes=30)),
        ("+45m", timedelta(minutes=45)),
        ("en 2 horas y 10 minutos", timedelta(hours=2, minutes=10)),
        ("En 1 dia", timedelta(days=1)),
    ],
)
def test_delays(text, delay):
    assert parse_when(text, NOW, MEXICO) == NOW + delay


def test_exact_moments_ignore_the_zone():
    assert parse_when("<t:1796000000:F>", NOW) == datetime.fromtimestamp(1796000000, UTC)
    assert parse_when("1796000000", NOW) == datetime.fromtimestamp(1796000000, UTC)
    assert parse_when("2026-11-30T20:00:00-06:00", NOW, UTC) == datetime(
        2026, 12, 1, 2, 0, tzinfo=UTC
    )


def test_the_zone_decides_a_wall_clock_time():
    assert parse_when("tomorrow 20:00", NOW, UTC) == datetime(2026, 11, 25, 20, 0, tzinfo=UTC)
    assert parse_when("tomorrow 20:00", NOW, MEXICO) == datetime(2026, 11, 25, 2, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("whenever", "when_unreadable"),
        ("20", "when_unreadable"),
        ("25:00", "when_unreadable"),
        ("13pm", "when_unreadable"),
        ("in 3 fortnights", "when_unreadable"),
        ("", "when_unreadable"),
        ("x" * 500, "when_unreadable"),
        ("2026-11-01 20:00", "when_past"),
        ("<t:100>", "when_past"),
        ("in 400 days", "when_too_far"),
        # Numbers and dates past the ends of the calendar (they used to be tracebacks).
        ("99999999999999999999", "when_too_far"),
        ("<t:99999999999999999999>", "when_too_far"),
        ("<t:-99999999999>", "when_past"),
        ("in 99999999999999999 days", "when_too_far"),
        ("+99999999999999999999m", "when_too_far"),
        ("9999-12-31 23:59-14:00", "when_too_far"),
        ("0001-01-01 00:00+14:00", "when_past"),
        ("²³⁴⁵⁶⁷⁸⁹⁰", "when_unreadable"),
    ],
)
def test_what_cannot_be_a_game_night(text, key):
    with pytest.raises(WhenError) as refused:
        parse_when(text, NOW, MEXICO)
    assert refused.value.key == key


def test_unknown_zones_are_refused():
    with pytest.raises(WhenError) as refused:
        zone_named("Mars/Olympus_Mons")
    assert refused.value.key == "when_bad_zone"
    assert zone_named("utc") is UTC


@pytest.mark.parametrize(
    "name", ["America", "a" * 300, "../../../etc/passwd", "UTC\x00", "America/", "/", "", " "]
)
def test_names_that_are_no_time_zone_are_refused(name):
    """A folder of the time zone database, a path, a NUL or 300 characters: each is refused by
    key (they used to escape as OSError or ValueError)."""
    with pytest.raises(WhenError) as refused:
        zone_named(name)
    assert refused.value.key == "when_bad_zone"


def outcome(reader, *args):
    """What ``reader`` made of ``args``, or the key of its refusal: anything else it raises
    fails the test."""
    try:
        return reader(*args), None
    except WhenError as refused:
        return None, refused.key


ZONE_TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=40) | st.from_regex(
    r"[A-Za-z/_.\-+0-9]{0,40}", fullmatch=True
)
WHEN_TEXT = (
    st.text(st.characters(exclude_categories=("Cs",)), max_size=100)
    | st.from_regex(r"(<t:)?-?[0-9]{1,30}(:[tTdDfFR])?>?", fullmatch=True)
    | st.from_regex(r"(in |en |\+)[0-9]{1,25} ?(d|days|h|hours|m|minutes)", fullmatch=True)
    | st.datetimes(timezones=st.timezones()).map(datetime.isoformat)
)


@settings(max_examples=300)
@given(name=ZONE_TEXT)
@example(name="America")
@example(name="Etc")
def test_any_time_zone_name_is_a_zone_or_refused_by_key(name):
    zone, refusal = outcome(zone_named, name)
    if zone is None:
        assert refusal == "when_bad_zone"
    else:
        assert zone.utcoffset(NOW.replace(tzinfo=None)) is not None


@settings(max_examples=300)
@given(text=WHEN_TEXT, zone=st.sampled_from([UTC, MEXICO, zone_named("Pacific/Kiritimati")]))
@example(text="<t:99999999999999999999>", zone=UTC)
@example(text="9999-12-31T23:59:59-14:00", zone=UTC)
def test_any_text_is_a_time_in_the_coming_year_or_refused_by_key(text, zone):
    moment, refusal = outcome(parse_when, text, NOW, zone)
    if moment is None:
        assert refusal in {"when_unreadable", "when_past", "when_too_far"}
    else:
        assert NOW < moment <= NOW + timedelta(days=DAYS_AHEAD_LIMIT)
