"""chessclock.timetext: the one duration parser and the one time formatter of the host.
Every command that reads a duration reads it here (adjust, split, settime, add-increment,
schedule --default, the hall's page, ruling late/replace/complaint)."""

import pytest
from cliutil import run_cli

from chessclock import timetext as T
from chessclock.link import transport
from chessclock.ruling import events as ruling_input

GOOD = [
    ("75m", 4500000), ("1h15m", 4500000), ("1h 15m", 4500000), ("1H15M", 4500000),
    ("90s", 90000), ("1.5s", 1500), ("0.25s", 250), ("1.500s", 1500), ("250ms", 250),
    ("2min", 120000), ("30sec", 30000), ("1m30s", 90000), ("1h0m1s", 3600000 + 1000),
    ("1m500ms", 60500), ("0s", 0), ("0:00", 0), ("0", 0), ("0.0", 0),
    ("1:30", 90000), ("75:00", 4500000), ("1:15:00", 4500000), ("0:45", 45000),
    (" 5m ", 300000), ("99h59m59s", 100 * 3600000 - 1000),
]


@pytest.mark.parametrize("text,ms", GOOD)
def test_durations_read(text, ms):
    assert T.parse_duration(text) == ms


@pytest.mark.parametrize("text,ms", [("+2m", 120000), ("-30s", -30000), ("+1500ms", 1500),
                                     ("+1:30", 90000), ("-0.5s", -500), ("- 1m", -60000)])
def test_signed_durations(text, ms):
    assert T.parse_duration(text, signed=True) == ms


# (text, signed, a piece of the one-line message)
BAD = [
    ("45", False, "no unit: write 45s or 45m"),
    ("+45", True, "no unit: write 45s or 45m"),
    ("1.5", False, "no unit"),
    ("0.5", False, "no unit"),
    ("", False, "not a time"),
    ("   ", False, "not a time"),
    ("+", True, "not a time"),
    ("+2m", False, "no sign"),
    ("-30s", False, "no sign"),
    ("1h30", False, "'30' needs a unit"),
    ("5x", False, "unknown unit 'x'"),
    ("5 days", False, "unknown unit 'days'"),
    ("1e5s", False, "unknown unit 'e'"),
    ("nan", False, "not a time"),
    ("inf", False, "not a time"),
    ("m", False, "not a time"),
    ("30s1m", False, "largest to smallest"),
    ("1m1m", False, "largest to smallest"),
    ("1.5m", False, "only seconds may have decimals"),
    ("0.5h", False, "only seconds may have decimals"),
    ("1.2345s", False, "finer than a millisecond"),
    ("1..5s", False, "not a time"),
    (".5s", False, "not a time"),
    ("5.s", False, "not a time"),
    ("1:75", False, "two digits below 60"),
    ("1:5", False, "two digits below 60"),
    ("1:00:60", False, "two digits below 60"),
    ("1:2:3:4", False, "m:ss or h:mm:ss"),
    ("1::00", False, "m:ss or h:mm:ss"),
    ("a:00", False, "m:ss or h:mm:ss"),
    ("-1:00", False, "no sign"),
    ("100h", False, "more than any clock holds"),
    ("100:00:00", False, "more than any clock holds"),
    ("6000m", False, "more than any clock holds"),
    ("1" + "0" * 30 + "ms", False, "not a time a clock holds"),
    ("9" * 5000, False, "not a time a clock holds"),
]


@pytest.mark.parametrize("text,signed,why", BAD)
def test_bad_durations_are_refused_in_one_line(text, signed, why):
    with pytest.raises(T.DurationError) as e:
        T.parse_duration(text, signed)
    msg = str(e.value)
    assert why in msg and "\n" not in msg and len(msg) < 200


def test_not_text_is_refused():
    with pytest.raises(T.DurationError):
        T.parse_duration(45)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["45", "1.5m", "1:75"])
def test_every_command_refuses_the_same(text):
    """The clock commands and the rulings give the same message for the same text."""
    with pytest.raises(transport.ClockError) as a:
        transport.parse_ms(text, signed=False)
    with pytest.raises(ruling_input.RulingError) as b:
        ruling_input.parse_duration(text)
    assert str(b.value) in str(a.value)


def test_cli_refuses_a_bare_number_with_a_clear_error():
    code, out, err = run_cli(["ruling", "late", "--elapsed", "75", "--visitor", "white"])
    assert code == 2 and "no unit: write 75s or 75m" in err and "Traceback" not in err
    code, out, err = run_cli(["adjust", "white", "+45", "--port", "/dev/no-such-clock"])
    assert code == 2 and "no unit: write 45s or 45m" in err


@pytest.mark.parametrize("ms,kw,text", [
    (0, {}, "0:00"), (59999, {}, "0:59"), (754000, {}, "12:34"), (3723000, {}, "1:02:03"),
    (-1500, {}, "-0:01"), (1500, {"millis": True}, "0:01.500"),
    (3723004, {"millis": True}, "1:02:03.004"), (-60000, {"millis": True}, "-1:00.000"),
    (61000, {"hours": True}, "0:01:01"), (61250, {"hours": True, "millis": True, "trim": True},
                                          "0:01:01.25"),
    (61000, {"hours": True, "millis": True, "trim": True}, "0:01:01"),
    (61000, {"hours": True, "millis": True}, "0:01:01.000"),
])
def test_clock_text(ms, kw, text):
    assert T.clock_text(ms, **kw) == text


@pytest.mark.parametrize("ms", [0, 1, 999, 1000, 59999, 60000, 3599999, 3600000, 4500000,
                                 100 * 3600000 - 1])
def test_what_is_written_reads_back(ms):
    """clock_text with milliseconds is a duration parse_duration reads (whole seconds)."""
    text = T.clock_text(ms)
    assert T.parse_duration(text) == ms // 1000 * 1000
