"""The session at the board over the serial link (firmware/clockapp/session.py,
docs/SESSION.md): `selftest`, `result`, `incident`, `schedule`, `arrive`. Each changes
the clock or its log, so each is signed with the arbiter's key; each runs on every clock
given (--port repeated, or --all), as the other clock commands do."""

import datetime
import time
from argparse import ArgumentParser, Namespace
from typing import Any, TextIO

from chessclock.commands import clockrun as C
from chessclock.link import transport as L
from chessclock.link.view import selftest_text

RUNNING = ("1", "2")   # status `testing`: the lamp, then the levers (3: result shown)
RESULTS = ("1-0", "0-1", "1/2-1/2", "1/2", "*")


# ---- arguments ----------------------------------------------------------------------
def add_arguments_selftest(p: ArgumentParser) -> None:
    p.add_argument("--wait", type=float, default=0, metavar="S",
                   help="wait up to S seconds for the result (the levers must be pressed "
                   "at the clock within 15 s)")
    C.common_arguments(p)


def add_arguments_result(p: ArgumentParser) -> None:
    p.add_argument("result", choices=RESULTS, help="the game's result (ends the game if it "
                   "is not over)")
    C.common_arguments(p)


def add_arguments_incident(p: ArgumentParser) -> None:
    C.common_arguments(p)


def add_arguments_schedule(p: ArgumentParser) -> None:
    p.add_argument("at", metavar="HH:MM|off", help="time of day (this computer's local "
                   "time, today; tomorrow when past) at which White's clock starts, or `off`")
    p.add_argument("--default", default="60m", metavar="TIME",
                   help="default time counted from the start (S1 6.7: 60m; FIDE 2023: 0)")
    C.common_arguments(p)


def add_arguments_arrive(p: ArgumentParser) -> None:
    p.add_argument("side", choices=("white", "black"))
    C.common_arguments(p)


# ---- commands -----------------------------------------------------------------------
def run_selftest(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    if not 0 <= args.wait <= 120:   # also refuses nan
        raise L.ClockError(L.EXIT_INPUT, "--wait is 0 to 120 seconds")
    key = L.key_for(args)

    def fn(link: L.Link) -> dict[str, Any]:
        link.request("selftest", change=True)
        end = time.monotonic() + args.wait
        st = link.request("status")
        while args.wait and st.get("testing") in RUNNING and time.monotonic() < end:
            time.sleep(0.2)
            st = link.request("status")
        return st

    def render(st: dict[str, Any]) -> str:
        if st.get("testing") in RUNNING:
            return "self-test running: press both levers; `chessclock status` shows the result"
        return selftest_text(st.get("selftest", -1))
    return C.on_each(args, stdout, stderr, fn, key=key, render=render)


def run_result(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    return C.change(args, stdout, stderr, "result", args.result,
                     render=lambda f: "result %s logged; the game is %s" % (f["result"],
                                                                          f["state"]))


def run_incident(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    return C.change(args, stdout, stderr, "incident",
                     render=lambda f: "incident %s marked: %s" % (f["incident"], C.times(f)))


def parse_at(text: str, now: float | None = None) -> int:
    """'14:30' -> Unix seconds of the next 14:30 in this computer's local time zone (today,
    else tomorrow); 'off' -> 0. A person types the time of day they see on the wall; the
    clock and its log keep UTC (Unix seconds)."""
    t = text.strip().lower()
    if t == "off":
        return 0
    parts = t.split(":")
    try:
        if len(parts) not in (2, 3) or not all(p.isdigit() and len(p) <= 2 for p in parts):
            raise ValueError
        h, m = int(parts[0]), int(parts[1])
        s = int(parts[2]) if len(parts) == 3 else 0
        if h > 23 or m > 59 or s > 59:
            raise ValueError
    except ValueError:
        raise L.ClockError(L.EXIT_INPUT, "%r is not a time of day: use HH:MM (local time) or "
                           "off" % text[:40]) from None
    now = time.time() if now is None else now
    day = datetime.date.fromtimestamp(now)
    for _ in range(3):  # today, else tomorrow (a day on which that time exists, past DST)
        lt = (day.year, day.month, day.day, h, m, s, 0, 0, -1)
        at = int(time.mktime(lt))
        if at > now:
            return at
        day += datetime.timedelta(days=1)
    return at


def local_text(unix_s: int) -> str:
    """'2026-12-04 15:30:00 -03 (18:30:00 UTC)': a time of day as a person reads it, in this
    computer's zone, and in UTC as the log keeps it."""
    lt = time.localtime(unix_s)
    zone = time.strftime("%Z", lt) or time.strftime("UTC%z", lt)
    text = "%s %s" % (time.strftime("%Y-%m-%d %H:%M:%S", lt), zone)
    if lt.tm_gmtoff:
        text += " (%s UTC)" % time.strftime("%H:%M:%S", time.gmtime(unix_s))
    else:
        text += "" if zone.startswith("UTC") else " (UTC)"
    return text


def run_schedule(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    at = parse_at(args.at)
    default_ms = L.parse_ms(args.default, signed=False)
    if default_ms > 86400000 or default_ms % 1000:
        raise L.ClockError(L.EXIT_INPUT, "the default time is whole seconds, at most 24h")

    def render(f: dict[str, Any]) -> str:
        if f["sched"] == "0":
            return "scheduled start cleared"
        return "White's clock starts at %s; default time %s" % (
            local_text(int(f["sched"])), C.fmt_ms(int(f["default_s"]) * 1000))
    return C.change(args, stdout, stderr, "schedule", at, default_ms // 1000, render=render,
                     wall=True)


def run_arrive(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    return C.change(args, stdout, stderr, "arrive", args.side,
                     render=lambda f: "%s marked at the board" % args.side)
