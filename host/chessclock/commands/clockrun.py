"""What the clock commands share: their common arguments, an operation run on every clock
given (--port repeated, or --all) concurrently, and its report (one line a clock, or JSON).
One failing clock never stops the others; the exit status is the worst clock's
(chessclock/link/transport.py)."""

import json
import time
from argparse import ArgumentParser, Namespace
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from chessclock import timetext as T
from chessclock.link import transport as L
from chessclock.link.ports import ports_of

if TYPE_CHECKING:
    from chessclock.hall import pairings

Row = dict[str, Any]                       # one clock's outcome: port, ok, result or error
Op = Callable[[L.Link], Any]               # what is done on each clock
Render = Callable[[Any], str] | None       # a result as text (None: its fields)


def common_arguments(p: ArgumentParser, key: bool = True) -> None:
    p.add_argument("--port", action="append", default=[], metavar="PORT",
                   help="serial port of a clock (repeat for several)")
    p.add_argument("--all", action="store_true",
                   help="every clock found by `chessclock ports` (and $CHESSCLOCK_PORTS)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--timeout", type=float, default=1.0, help="seconds to wait for a reply")
    if key:
        p.add_argument("--key", metavar="FILE", help="the arbiter's key file (default: the "
                       "one `chessclock key use` chose, or $CHESSCLOCK_KEY)")


def board_arguments(p: ArgumentParser) -> None:
    p.add_argument("--assign", action="append", default=[], metavar="BOARD=CLOCK",
                   help="board number of a clock (its id or port), e.g. --assign 3=sim-a; "
                   "repeat for several")
    p.add_argument("--pairings", metavar="FILE", help="the round's pairings (CSV or FIDE "
                   "TRF, as `chessclock hall`): boards and players of the clocks")


def argparse_suppress() -> str:
    import argparse
    return argparse.SUPPRESS


def fmt_ms(ms: int | str) -> str:
    """m:ss, h:mm:ss from an hour (chessclock.timetext)."""
    return T.clock_text(ms)


def on_each(args: Namespace, stdout: TextIO, stderr: TextIO, fn: Op, key: bytes | None = None,
            render: Render = None) -> int:
    """fn(link) on every port concurrently; prints one result per clock; exit code."""
    check_timing(args)
    ports = ports_of(args)
    results = gather(args, ports, fn, key)
    report(args, results, stdout, stderr, render)
    return exit_code(results)


def exit_code(results: list[Row]) -> int:
    return max([0] + [r["code"] for r in results if not r["ok"]])


def gather(args: Namespace, ports: Sequence[str], fn: Op, key: bytes | None = None,
           done: Callable[[str, Row], None] | None = None) -> list[Row]:
    """fn(link) on every port concurrently: [{"port", "ok", "result"} or {"port", "ok",
    "code", "error"}, with "simulated" (a sim-serve clock, not a board)] in the order of
    `ports`; done(port, row) as each finishes."""
    from concurrent.futures import ThreadPoolExecutor

    from chessclock.sim import serve as simserve

    def one(port: str) -> Row:
        row = one_row(port)
        row["simulated"] = simserve.simulated(port)   # said wherever the row is shown
        if done is not None:
            done(port, row)
        return row

    def one_row(port: str) -> Row:
        try:
            with L.Link(port, key=key, timeout=args.timeout) as link:
                return {"port": port, "ok": True, "result": fn(link)}
        except L.ClockError as e:
            return {"port": port, "ok": False, "code": e.code, "error": str(e)}
        except Exception as e:  # a bug: this clock fails, the others go on
            return {"port": port, "ok": False, "code": L.EXIT_FAILED,
                    "error": "unexpected %s: %s" % (type(e).__name__, e)}

    with ThreadPoolExecutor(max_workers=min(32, len(ports))) as ex:
        return list(ex.map(one, ports))


# --json field names: those of `chessclock simulate` and `log export` (white_ms, ...).
JSON_NAMES = {"t": "t_ms", "w": "white_ms", "b": "black_ms", "wmoves": "white_moves",
              "bmoves": "black_moves", "wstage": "white_stage", "bstage": "black_stage",
              "wflag": "white_flag_ms", "bflag": "black_flag_ms",
              "wperiods": "white_periods", "bperiods": "black_periods", "run": "running",
              "delay": "delay_ms", "bat": "battery_mv", "batlow": "battery_low",
              "soc": "battery_pct", "wall": "wall_s"}


TEXT_FIELDS = ("clock", "spec", "players", "fw", "white", "black")   # never read as numbers


def typed(result: Any) -> Any:
    """Protocol values arrive as text: numbers become numbers for --json, and the
    protocol's short names the names `simulate` and `log export` use. A status also gets
    `flags` in `simulate`'s final shape: [{"side", "t_ms"}] in the order they fell."""
    if not isinstance(result, dict):
        return result
    out = {}
    for k, v in result.items():
        if isinstance(v, str) and k not in TEXT_FIELDS and v.lstrip("-").isdigit() \
                and len(v) < 20:
            v = int(v)
        if k == "run" and v == "-":
            v = None
        out[JSON_NAMES.get(k, k)] = v
    if "white_flag_ms" in out and "black_flag_ms" in out:
        fell = [(out[s + "_flag_ms"], s) for s in ("white", "black")
                if isinstance(out[s + "_flag_ms"], int) and out[s + "_flag_ms"] >= 0]
        out["flags"] = [{"side": s, "t_ms": t} for t, s in sorted(fell)]
    return out


def report(args: Namespace, results: list[Row], stdout: TextIO, stderr: TextIO,
           render: Render = None) -> None:
    from chessclock.sim import serve as simserve
    if args.json:
        # one shape for one clock or many: a list of {"port", "ok", "result"|"error",
        # "simulated"}
        results = [dict(r, result=typed(r["result"])) if r["ok"] else dict(r)
                   for r in results]
        for r in results:
            r.setdefault("simulated", simserve.simulated(r["port"]))
        stdout.write(json.dumps(results) + "\n")
        return
    if len(results) == 1:
        r = results[0]
        if r["ok"]:
            stdout.write((render or plain)(r["result"]) + "\n")
        else:
            stderr.write("chessclock: %s\n" % r["error"])
        return
    labels = [r["port"] + (" (simulated)" if r.get("simulated", simserve.simulated(r["port"]))
                           else "") for r in results]
    width = max(len(x) for x in labels)
    for r, label in zip(results, labels, strict=True):
        text = (render or plain)(r["result"]) if r["ok"] else "FAILED  " + r["error"]
        stdout.write("%-*s  %s\n" % (width, label, text.replace("\n", "; ")))


def plain(fields: Any) -> str:
    if isinstance(fields, dict):
        return " ".join("%s=%s" % kv for kv in fields.items())
    return str(fields)


def round_of(args: Namespace) -> "pairings.Round | None":
    """The boards of --pairings and --assign (a hall.pairings Round), or None."""
    if not (getattr(args, "pairings", None) or getattr(args, "assign", None)):
        return None
    from chessclock.hall import pairings
    try:
        rnd = pairings.load(args.pairings) if args.pairings else pairings.Round()
        for a in args.assign:
            n, eq, clock = a.partition("=")
            if not eq or not clock.strip():
                raise pairings.PairingError("--assign %s: write BOARD=CLOCK, e.g. 3=sim-a"
                                            % a[:40])
            rnd.assign_clock(clock.strip(), pairings._board_no(n, "--assign"))
    except pairings.PairingError as e:
        raise L.ClockError(L.EXIT_INPUT, str(e)) from None
    return rnd


def named(status: dict[str, str], hello: dict[str, str], port: str,
          rnd: "pairings.Round | None") -> dict[str, Any]:
    """A status with the clock's id, and its board and players when the round names it."""
    out: dict[str, Any] = dict(status, clock=hello["clock"])
    if rnd is not None:
        board = rnd.board_for(hello["clock"], port)
        if board is not None:
            out["board"] = board
            p = rnd.pairing(board)
            if p and (p.get("white") or p.get("black")):
                out["players"] = "%s - %s" % (p.get("white") or "?", p.get("black") or "?")
    if "players" not in out and ("white" in out or "black" in out):
        # the pairing the clock was given (`chessclock pairings push`)
        out["players"] = "%s - %s" % (out.get("white") or "?", out.get("black") or "?")
    return out


def check_timing(args: Namespace) -> None:
    """--timeout and --interval: a number of seconds a person would wait."""
    for name in ("timeout", "interval"):
        v = getattr(args, name, None)
        if v is not None and not 0.01 <= v <= 3600:   # also refuses nan
            raise L.ClockError(L.EXIT_INPUT, "--%s is 0.01 to 3600 seconds" % name)


def send_wall_clock(link: L.Link) -> bool:
    """Give the clock the host's time of day (Unix seconds, UTC): its log and PGN then have
    real dates. A clock that refuses it (a game in progress on a clock without a key) still
    takes the command that follows if it may."""
    try:
        link.request("wallclock", int(time.time()), change=True)
        return True
    except L.ClockError as e:
        if e.code == L.EXIT_UNREACHABLE:
            raise
        return False


def change(args: Namespace, stdout: TextIO, stderr: TextIO, op: str, *op_args: object,
           render: Render = None, wall: bool = False) -> int:
    key = L.key_for(args)

    def fn(link: L.Link) -> dict[str, str]:
        if wall:
            send_wall_clock(link)
        return link.request(op, *op_args, change=True)
    return on_each(args, stdout, stderr, fn, key=key, render=render)


def times(f: dict[str, str]) -> str:
    return "white %s (%s moves)  black %s (%s moves)  %s" % (
        fmt_ms(f["w"]), f["wmoves"], fmt_ms(f["b"]), f["bmoves"], f["state"])
