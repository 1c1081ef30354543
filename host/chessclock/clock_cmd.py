"""The clock commands over the serial link: ports, info, status, watch, set, start, pause,
resume, adjust, moves, key, log-pull. Each runs on every port given (--port repeated, or
--all) concurrently; one failing clock never stops the others. Exit codes: see
chessclock/link.py and docs/PROTOCOL.md."""

import json
import os
import re
import struct
import sys
import time

from chessclock import link as L
from chessclock import timetext as T
from clockcore.framing import frame as log_record  # a pulled record, framed as on the clock

USB_IDS = {  # (vid, pid): what it is
    (0x2E8A, 0x0005): "Raspberry Pi Pico (MicroPython USB serial)",
    (0x2E8A, None): "Raspberry Pi (RP2040 USB serial)",
    (0x10C4, 0xEA60): "CP210x (ESP32 bridge)",
    (0x1A86, 0x7523): "CH340 (ESP32 bridge)",
    (0x1A86, 0x55D4): "CH9102 (ESP32 bridge)",
    (0x303A, 0x1001): "ESP32 native USB (USB serial/JTAG)",
    (0x0403, 0x6001): "FTDI FT232 (ESP32 bridge)",
}


# ---- arguments ----------------------------------------------------------------------------
def _common(p, key=True):
    p.add_argument("--port", action="append", default=[], metavar="PORT",
                   help="serial port of a clock (repeat for several)")
    p.add_argument("--all", action="store_true",
                   help="every clock found by `chessclock ports` (and $CHESSCLOCK_PORTS)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--timeout", type=float, default=1.0, help="seconds to wait for a reply")
    if key:
        p.add_argument("--key", metavar="FILE", help="the arbiter's key file (default: the "
                       "one `chessclock key use` chose, or $CHESSCLOCK_KEY)")


def add_arguments_ports(p):
    p.add_argument("--json", action="store_true", help="machine-readable output")


def add_arguments_info(p):
    _common(p, key=False)


def _boards(p):
    p.add_argument("--assign", action="append", default=[], metavar="BOARD=CLOCK",
                   help="board number of a clock (its id or port), e.g. --assign 3=sim-a; "
                   "repeat for several")
    p.add_argument("--pairings", metavar="FILE", help="the round's pairings (CSV or FIDE "
                   "TRF, as `chessclock hall`): boards and players of the clocks")


def add_arguments_status(p):
    _common(p, key=False)
    _boards(p)


def add_arguments_watch(p):
    _common(p, key=False)
    _boards(p)
    p.add_argument("--interval", type=float, default=0.5, help="seconds between refreshes")
    p.add_argument("--count", type=int, default=0, help="stop after N refreshes (0: never)")


def add_arguments_set(p):
    p.add_argument("control", metavar="CONTROL", help="PGN tag, readable notation or preset")
    p.add_argument("--yes", action="store_true", help="send without asking")
    p.add_argument("--pgn", action="store_true", help="CONTROL is a PGN tag in seconds, "
                   "meant as written even where no real event plays it (sent as pgn:CONTROL)")
    _common(p)


def add_arguments_start(p):
    p.add_argument("side", nargs="?", choices=("white", "black"),
                   help="whose clock runs first (default: White's)")
    _common(p)


def add_arguments_pause(p):
    _common(p)


def add_arguments_undo(p):
    p.description = (
        "The last press was not a move: take it back (arbiter's key). The turn goes back "
        "to the side that pressed, whose clock runs: the presser's, again (at the resume "
        "when paused). The presser's move count, increment, delay credit and stage go "
        "back; the time the opponent's clock ran since the press stays on it (`adjust` "
        "where the arbiter rules so). Only the last press, while the turn it started is "
        "still the current one (else the clock refuses).")
    _common(p)


add_arguments_end = add_arguments_pause
add_arguments_wallclock = add_arguments_pause


def add_arguments_settime(p):
    p.add_argument("side", choices=("white", "black"))
    p.add_argument("time", metavar="TIME", help="the side's time now: 5m, 4:30, 1:02:00")
    _common(p)


def add_arguments_stage(p):
    p.add_argument("side", choices=("white", "black"))
    p.add_argument("number", type=int, metavar="N", help="the stage, from 1")
    _common(p)


def add_arguments_addstage(p):
    p.add_argument("side", choices=("white", "black", "both"))
    p.add_argument("stage", metavar="STAGE",
                   help="one stage as the notation writes it, e.g. 15m or 30m+30s")
    _common(p)


def add_arguments_split(p):
    p.add_argument("elapsed", metavar="ELAPSED",
                   help="time since the scheduled start: 75m, 1h15m or 1:15:00 (with a unit)")
    p.add_argument("--visitor", required=True, choices=("white", "black"),
                   help="the late visitor's colour: charged 60%%, the home player 40%% "
                   "(RGC 12.1; `chessclock ruling late`)")
    _common(p)


def add_arguments_press(p):
    p.add_argument("lever", choices=("left", "right"), help="which lever (simulated clocks "
                   "from `chessclock sim-serve` only)")
    p.add_argument("--hold", type=int, default=80, metavar="MS", help="held for MS ms")
    _common(p, key=False)


def add_arguments_resume(p):
    p.add_argument("side", nargs="?", choices=("white", "black"),
                   help="run this side's clock (default: whose turn it is)")
    _common(p)


def signed_values(p):
    """Let a positional value start with a minus and a digit (-30s, -1:30) on parser p:
    argparse takes only plain numbers (-30) as negative values and anything else that starts
    with '-' as an option, so `adjust black -30s` lost its AMOUNT. p has no option that
    starts with a digit, so every "-DIGIT..." word on it is a value."""
    p._negative_number_matcher = re.compile(r"^-\d")


def add_arguments_adjust(p):
    p.add_argument("side", choices=("white", "black"))
    p.add_argument("amount", metavar="AMOUNT",
                   help="+2m, -30s, +1.5s, +1500ms, +1:30 (with a unit)")
    p.add_argument("--reason", metavar="TEXT", help="the ground of the correction, e.g. "
                   "\"illegal move\" (at most %d bytes; logged with it, shown in rulings "
                   "and the incident report)" % GROUND_MAX)
    p.add_argument("--article", metavar="TEXT", help="the rule applied, e.g. \"ACT 7\" "
                   "(with --reason)")
    _common(p)
    signed_values(p)


def add_arguments_moves(p):
    p.add_argument("side", choices=("white", "black"))
    p.add_argument("count", type=int, metavar="N")
    _common(p)


def add_arguments_add_increment(p):
    p.add_argument("amount", metavar="INC", help="the increment a move, e.g. 5s")
    p.add_argument("--side", choices=("both", "white", "black"), default="both",
                   help="who gets it (default: both, as FIDE Guidelines III)")
    _common(p)


def add_arguments_key(p):
    p.add_argument("action", choices=("new", "use", "set", "check"),
                   help="new FILE: make a key file; use FILE: use it from now on; set: put "
                   "the key on the clocks (no game in progress); check: does the clock "
                   "take the key")
    p.add_argument("file", nargs="?", metavar="FILE")
    p.add_argument("--old-key", metavar="FILE",
                   help="set: the key the clock has now (to replace it)")
    _common(p)


def add_arguments_log_pull(p):
    p.add_argument("--archive", default="chessclock-logs",
                   help="folder of the archive: ARCHIVE/CLOCK/GAME.log (default "
                   "chessclock-logs)")
    p.add_argument("--game", default=None,
                   help="name of the game in the archive (default: today's date)")
    p.add_argument("--clear", action="store_true",
                   help="clear the clock's log once all of it is in the archive")
    p.add_argument("--chunk", type=int, default=4096, help=argparse_suppress())
    _common(p)


def argparse_suppress():
    import argparse
    return argparse.SUPPRESS


# ---- helpers ------------------------------------------------------------------------------
def parse_ms(text: str, signed: bool = True) -> int:
    """A duration as chessclock.timetext reads it ('+2m' -> 120000, '-30s' -> -30000,
    '1500ms', '+1:30' -> 90000; a bare number has no unit and is refused), as a ClockError
    (bad input) when it is not one."""
    try:
        return T.parse_duration(text, signed)
    except T.DurationError as e:
        raise L.ClockError(L.EXIT_INPUT, str(e)) from None


def fmt_ms(ms: int | str) -> str:
    """m:ss, h:mm:ss from an hour (chessclock.timetext)."""
    return T.clock_text(ms)


def kind_of(vid, pid):
    """What a USB id is, when it is a clock's (else None)."""
    for (v, p), what in USB_IDS.items():
        if vid == v and (p is None or pid == p):
            return what
    return None


def find_ports():
    """[(device, description, serial)] of attached serial ports with a clock's USB ids,
    then the simulated clocks `chessclock sim-serve` runs on this computer."""
    from chessclock import simserve
    out = []
    try:
        from serial.tools import list_ports
        comports = list_ports.comports()
    except ImportError:
        comports = []
    for p in comports:
        what = kind_of(p.vid, p.pid)
        if what:
            out.append((p.device, what, p.serial_number or ""))
    for path, clock_id, pid in simserve.running_with_pid():
        out.append((path, "SIMULATED clock, not a board (chessclock sim-serve, process %d)"
                    % pid, clock_id))
    return out


def ports_of(args):
    ports = list(args.port)
    if args.all:
        ports += [d for d, _, _ in find_ports()]
        extra = os.environ.get("CHESSCLOCK_PORTS", "")
        ports += [p for p in extra.split(os.pathsep) if p]
    seen = []
    for p in ports:
        if p not in seen:
            seen.append(p)
    if not seen:
        raise L.ClockError(L.EXIT_INPUT, "no clock given",
                           "use --port PORT (see `chessclock ports`) or --all")
    return seen


def on_each(args, stdout, stderr, fn, key=None, render=None):
    """fn(link) on every port concurrently; prints one result per clock; exit code."""
    try:
        _check_timing(args)
        ports = ports_of(args)
    except L.ClockError as e:
        stderr.write("chessclock: %s\n" % e)
        return e.code
    results = gather(args, ports, fn, key)
    report(args, results, stdout, stderr, render)
    return exit_code(results)


def exit_code(results):
    return max([0] + [r["code"] for r in results if not r["ok"]])


def gather(args, ports, fn, key=None, done=None):
    """fn(link) on every port concurrently: [{"port", "ok", "result"} or {"port", "ok",
    "code", "error"}, with "simulated" (a sim-serve clock, not a board)] in the order of
    `ports`; done(port, row) as each finishes."""
    from concurrent.futures import ThreadPoolExecutor

    from chessclock import simserve

    def one(port):
        row = one_row(port)
        row["simulated"] = simserve.simulated(port)   # said wherever the row is shown
        if done is not None:
            done(port, row)
        return row

    def one_row(port):
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


def _typed(result):
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


def report(args, results, stdout, stderr, render=None):
    from chessclock import simserve
    if args.json:
        # one shape for one clock or many: a list of {"port", "ok", "result"|"error",
        # "simulated"}
        results = [dict(r, result=_typed(r["result"])) if r["ok"] else dict(r)
                   for r in results]
        for r in results:
            r.setdefault("simulated", simserve.simulated(r["port"]))
        stdout.write(json.dumps(results) + "\n")
        return
    if len(results) == 1:
        r = results[0]
        if r["ok"]:
            stdout.write((render or _plain)(r["result"]) + "\n")
        else:
            stderr.write("chessclock: %s\n" % r["error"])
        return
    labels = [r["port"] + (" (simulated)" if r.get("simulated", simserve.simulated(r["port"]))
                           else "") for r in results]
    width = max(len(x) for x in labels)
    for r, label in zip(results, labels, strict=True):
        text = (render or _plain)(r["result"]) if r["ok"] else "FAILED  " + r["error"]
        stdout.write("%-*s  %s\n" % (width, label, text.replace("\n", "; ")))


def _plain(fields):
    if isinstance(fields, dict):
        return " ".join("%s=%s" % kv for kv in fields.items())
    return str(fields)


def _err(stderr, e):
    stderr.write("chessclock: %s\n" % e)
    return e.code


# ---- commands -----------------------------------------------------------------------------
def run_ports(args, stdout, stderr):
    try:
        found = find_ports()
    except ImportError:
        return _err(stderr, L.ClockError(L.EXIT_FAILED, "pyserial is not installed"))
    from chessclock import simserve
    if args.json:
        stdout.write(json.dumps([{"port": d, "kind": w, "serial": s,
                                  "simulated": simserve.simulated(d)} for d, w, s in found])
                     + "\n")
    elif not found:
        stdout.write("no clock found (USB ids of the Pico, CP210x, CH340, CH9102, ESP32 "
                     "native USB, FTDI; no sim-serve running); is it plugged in?\n")
    for d, w, s in found if not args.json else ():
        stdout.write("%s  %s  %s\n" % (d, w, s))
    return 0


def run_info(args, stdout, stderr):
    def render(h):
        return "clock %s  board %s  firmware %s  protocol %s  key %s" % (
            h["clock"], h["board"], h["fw"], h["proto"], "set" if h["key"] == "1" else "none")
    return on_each(args, stdout, stderr, lambda link: link.request("hello"), render=render)


def _round_of(args):
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


def _named(status, hello, port, rnd):
    """A status with the clock's id, and its board and players when the round names it."""
    status = dict(status, clock=hello["clock"])
    if rnd is not None:
        board = rnd.board_for(hello["clock"], port)
        if board is not None:
            status["board"] = board
            p = rnd.pairing(board)
            if p and (p.get("white") or p.get("black")):
                status["players"] = "%s - %s" % (p.get("white") or "?", p.get("black") or "?")
    if "players" not in status and ("white" in status or "black" in status):
        # the pairing the clock was given (`chessclock pairings push`)
        status["players"] = "%s - %s" % (status.get("white") or "?", status.get("black") or "?")
    return status


def _table_out(rows, stdout):
    from chessclock import clock_view as V
    con = V.console(stdout)
    con.print(V.status_table(rows, V.title_for(rows), width=con.width))


def run_status(args, stdout, stderr):
    try:
        _check_timing(args)
        ports = ports_of(args)
        rnd = _round_of(args)
    except L.ClockError as e:
        return _err(stderr, e)

    def fn(link):
        return _named(link.request("status"), link.request("hello"), link.port, rnd)
    rows = gather(args, ports, fn)
    if args.json:
        report(args, rows, stdout, stderr)
    else:
        _table_out(rows, stdout)
        for r in rows:
            if not r["ok"]:
                stderr.write("chessclock: %s\n" % r["error"])
    return exit_code(rows)


def _check_timing(args):
    """--timeout and --interval: a number of seconds a person would wait."""
    for name in ("timeout", "interval"):
        v = getattr(args, name, None)
        if v is not None and not 0.01 <= v <= 3600:   # also refuses nan
            raise L.ClockError(L.EXIT_INPUT, "--%s is 0.01 to 3600 seconds" % name)


def run_watch(args, stdout, stderr):
    """The status table, refreshed every --interval until Ctrl-C (or --count readings):
    in place on a terminal, a table a reading into a pipe, a JSON list a line with --json."""
    from concurrent.futures import ThreadPoolExecutor
    try:
        _check_timing(args)
        ports = ports_of(args)
        rnd = _round_of(args)
    except L.ClockError as e:
        return _err(stderr, e)
    links: dict[str, L.Link] = {}
    hellos = {}

    def one(port):
        try:
            if port not in links:
                links[port] = L.Link(port, timeout=args.timeout)
                hellos[port] = links[port].request("hello")
            lk = links[port]
            return {"port": port, "ok": True,
                    "result": _named(lk.request("status"), hellos[port], port, rnd)}
        except L.ClockError as e:
            gone = links.pop(port, None)
            if gone is not None:
                gone.close()
            return {"port": port, "ok": False, "code": e.code, "error": str(e)}

    from chessclock import clock_view as V
    con = V.console(stdout)
    live = None
    if not args.json and con.is_terminal:
        from rich.live import Live
        live = Live(console=con, auto_refresh=False, transient=False)
        live.start()
    n = 0
    rows = None
    caption = "Ctrl-C stops" + ("" if args.count == 0 else " (or after %d reading%s)"
                                % (args.count, "" if args.count == 1 else "s"))
    try:
        with ThreadPoolExecutor(max_workers=min(32, len(ports))) as ex:
            while True:
                rows = list(ex.map(one, ports))
                if args.json:
                    report(args, rows, stdout, stderr)
                else:
                    table = V.status_table(rows, V.title_for(rows), caption, con.width)
                    if live is not None:
                        live.update(table, refresh=True)
                    else:
                        con.print(table)
                stdout.flush()
                n += 1
                if args.count and n >= args.count:
                    break
                time.sleep(args.interval)
    except KeyboardInterrupt:
        pass
    finally:
        if live is not None:
            live.stop()
        for lk in links.values():
            lk.close()
    # no clock answered at the last refresh: say so in the exit code too
    return 0 if rows is None or any(r["ok"] for r in rows) else L.EXIT_UNREACHABLE


def _key_or_exit(args, stderr):
    try:
        return L.key_for(args), 0
    except L.ClockError as e:
        return None, _err(stderr, e)


def send_wall_clock(link):
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


def _change(args, stdout, stderr, op, *op_args, render=None, wall=False):
    key, code = _key_or_exit(args, stderr)
    if code:
        return code

    def fn(link):
        if wall:
            send_wall_clock(link)
        return link.request(op, *op_args, change=True)
    return on_each(args, stdout, stderr, fn, key=key, render=render)


def run_set(args, stdout, stderr):
    from chessclock.control_cmd import configured, describe, for_clock, terminal_ask
    try:
        spec, control, preset = configured(args.control, args.pgn,
                                           terminal_ask(sys.stdin, stderr))
    except ValueError as e:
        stderr.write("chessclock: %s\n" % e)
        return L.EXIT_INPUT
    if preset is not None and not for_clock(preset):
        stderr.write("chessclock: %s is a correspondence ledger of days, not a clock's "
                     "control: keep it with `chessclock corr`\n" % preset.key)
        return L.EXIT_INPUT
    if not args.json:
        from clockcore.notation import describe_side
        try:
            control.validate()
        except ValueError as e:
            stderr.write("chessclock: %s: %s\n" % (args.control, e))
            return L.EXIT_INPUT
        d = describe(control, preset)
        stdout.write("%s (%s) gives\n" % (spec, d["readable"]))
        if control.symmetric():
            stdout.write("  each side: %s\n" % describe_side(control.white))
        else:
            stdout.write("  White: %s\n  Black: %s\n" % (describe_side(control.white),
                                                       describe_side(control.black)))
        if preset is not None and preset.move_limit:
            stdout.write("  the game ends when both sides have made %d moves\n"
                         % preset.move_limit)
    if not args.yes:
        if not sys.stdin.isatty():
            stderr.write("chessclock: not sent; add --yes to send it\n")
            return L.EXIT_INPUT
        stdout.write("send to the clock(s)? [y/N] ")
        stdout.flush()
        if sys.stdin.readline().strip().lower() not in ("y", "yes"):
            stdout.write("not sent\n")
            return 0
    return _change(args, stdout, stderr, "set", spec, wall=True)


def run_start(args, stdout, stderr):
    return _change(args, stdout, stderr, "start", *([args.side] if args.side else []),
                   wall=True)


def _undo_text(f: dict[str, str]) -> str:
    """The times after an undo and whose turn it is again (the side that pressed)."""
    turn = f.get("turn")
    return _times(f) + ("; %s to move" % turn if turn else "")


def run_undo(args, stdout, stderr):
    return _change(args, stdout, stderr, "undo", render=_undo_text)


def run_end(args, stdout, stderr):
    return _change(args, stdout, stderr, "end")


def run_wallclock(args, stdout, stderr):
    return _change(args, stdout, stderr, "wallclock", int(time.time()),
                   render=lambda f: "time of day set: %s UTC" % time.strftime(
                       "%Y-%m-%d %H:%M:%S", time.gmtime(int(f["wall"]))))


def run_settime(args, stdout, stderr):
    try:
        ms = parse_ms(args.time, signed=False)
    except L.ClockError as e:
        return _err(stderr, e)
    return _change(args, stdout, stderr, "settime", args.side, ms, render=_times)


def run_stage(args, stdout, stderr):
    if not 1 <= args.number <= 1000:
        return _err(stderr, L.ClockError(L.EXIT_INPUT, "a stage is numbered from 1"))
    return _change(args, stdout, stderr, "stage", args.side, args.number, render=_times)


def run_addstage(args, stdout, stderr):
    from clockcore import notation
    try:
        notation.parse_stage(args.stage)
    except ValueError as e:
        return _err(stderr, L.ClockError(L.EXIT_INPUT, "%r is not one stage: %s"
                                         % (args.stage[:40], e)))
    return _change(args, stdout, stderr, "addstage", args.side, args.stage, render=_times)


def run_split(args, stdout, stderr):
    try:
        ms = parse_ms(args.elapsed, signed=False)
    except L.ClockError as e:
        return _err(stderr, e)
    white_pct = 60 if args.visitor == "white" else 40
    return _change(args, stdout, stderr, "split", ms, white_pct, render=_times)


def run_press(args, stdout, stderr):
    if not 1 <= args.hold <= 60000:
        return _err(stderr, L.ClockError(L.EXIT_INPUT, "--hold is 1 to 60000 ms"))
    return on_each(args, stdout, stderr,
                   lambda lk: lk.request("sim", "press", args.lever, args.hold),
                   render=lambda f: "%s lever pressed" % args.lever)


def run_pause(args, stdout, stderr):
    return _change(args, stdout, stderr, "pause")


def run_resume(args, stdout, stderr):
    return _change(args, stdout, stderr, "resume", *([args.side] if args.side else []))


def _times(f):
    return "white %s (%s moves)  black %s (%s moves)  %s" % (
        fmt_ms(f["w"]), f["wmoves"], fmt_ms(f["b"]), f["bmoves"], f["state"])


GROUND_MAX = 40   # bytes of UTF-8 of a reason or an article (clockcore.events.GROUND_MAX)


def _ground(reason: str | None, article: str | None) -> list[str]:
    """The adjust request's ground arguments: [] or [REASON, ARTICLE] ("-": no article)."""
    if reason is None:
        if article is not None:
            raise L.ClockError(L.EXIT_INPUT, "--article goes with --reason (the ground)")
        return []
    out = []
    for name, text in (("--reason", reason), ("--article", article)):
        if text is None:
            out.append("-")
            continue
        text = " ".join(text.split())
        if not text or (name == "--article" and text == "-"):
            raise L.ClockError(L.EXIT_INPUT, "%s is empty" % name)
        if len(text.encode()) > GROUND_MAX or not text.isprintable():
            raise L.ClockError(L.EXIT_INPUT, "%s is at most %d bytes of printable text, "
                               "not %r" % (name, GROUND_MAX, text[:50]))
        out.append(text)
    return out


def run_adjust(args, stdout, stderr):
    try:
        ms = parse_ms(args.amount)
        ground = _ground(args.reason, args.article)
    except L.ClockError as e:
        return _err(stderr, e)
    return _change(args, stdout, stderr, "adjust", args.side, ms, *ground, render=_times)


def run_moves(args, stdout, stderr):
    if not 0 <= args.count <= 10000:
        return _err(stderr, L.ClockError(L.EXIT_INPUT, "a move count is 0 to 10000"))
    return _change(args, stdout, stderr, "moves", args.side, args.count, render=_times)


def run_add_increment(args, stdout, stderr):
    """+INC a move from now on (FIDE Guidelines III): one arbiter action on each clock."""
    try:
        ms = parse_ms(args.amount)
    except L.ClockError as e:
        return _err(stderr, e)
    if ms <= 0:
        return _err(stderr, L.ClockError(L.EXIT_INPUT, "the increment is a time above 0, "
                                         "e.g. 5s, not %r" % args.amount))
    return _change(args, stdout, stderr, "addinc", args.side, ms, render=_times)


def run_key(args, stdout, stderr):
    if args.action in ("new", "use"):
        if not args.file:
            return _err(stderr, L.ClockError(L.EXIT_INPUT, "key %s needs FILE" % args.action))
        path = os.path.abspath(args.file)
        if args.action == "new":
            if os.path.exists(path):
                return _err(stderr, L.ClockError(L.EXIT_INPUT, "%s exists: not overwritten"
                                                 % path))
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                with os.fdopen(fd, "w") as f:
                    f.write(os.urandom(32).hex() + "\n")
            except OSError as e:
                return _err(stderr, L.ClockError(L.EXIT_INPUT, "cannot write %s: %s"
                                                 % (path, e.strerror or e)))
            stdout.write("new key in %s (keep it secret; `chessclock key use %s`)\n"
                         % (path, args.file))
            return 0
        try:
            L.read_key(path)
        except L.ClockError as e:
            return _err(stderr, e)
        try:
            os.makedirs(L.config_dir(), exist_ok=True)
            with open(os.path.join(L.config_dir(), "key-path"), "w") as f:
                f.write(path + "\n")
        except OSError as e:
            return _err(stderr, L.ClockError(L.EXIT_INPUT, "cannot write %s: %s"
                                             % (L.config_dir(), e.strerror or e)))
        stdout.write("using the key in %s\n" % path)
        return 0
    key, code = _key_or_exit(args, stderr)
    if code:
        return code
    if args.action == "check":
        if key is None:
            return _err(stderr, L.ClockError(L.EXIT_INPUT, "no key chosen",
                                             "chessclock key use FILE"))
        return on_each(args, stdout, stderr, lambda lk: lk.request("verify", change=True),
                       key=key, render=lambda f: "the clock takes this key")
    # set
    if args.file:
        try:
            key = L.read_key(args.file)
        except L.ClockError as e:
            return _err(stderr, e)
    if key is None:
        return _err(stderr, L.ClockError(L.EXIT_INPUT, "no key to set",
                                         "make one: chessclock key new FILE; key use FILE"))
    old = None
    if args.old_key:
        try:
            old = L.read_key(args.old_key)
        except L.ClockError as e:
            return _err(stderr, e)
    def put(lk):
        try:
            r = lk.request("keyset", key.hex(), change=True)
        except L.ClockError as e:
            if e.code == L.EXIT_AUTH and old is None:
                raise L.ClockError(e.code, "%s: this clock has a key already" % lk.port,
                                   "replacing it needs the one it has: --old-key FILE") \
                    from None
            raise
        lk.key = key        # the new key signs from now on
        lk.nonce = None
        send_wall_clock(lk)
        return r
    return on_each(args, stdout, stderr, put, key=old, render=lambda f: "key set")


# ---- log pull -------------------------------------------------------------------------------
def unpack_records(blob):
    out = []
    i = 0
    while i + 2 <= len(blob):
        n = struct.unpack_from("<H", blob, i)[0]
        out.append(bytes(blob[i + 2:i + 2 + n]))
        i += 2 + n
    return out


# `status logclear=` after a keyless clock asked the person at it (firmware link.CLEAR_*).
_CLEAR_ASKED = "1"
_CLEAR_DONE = "2"
_CLEAR_WHY = {"3": "not confirmed on the clock (another button, or the time ran out)",
              "4": "the clock wrote to its log meanwhile: pull again",
              "5": "the clock could not remove it"}


def _await_clear(link: L.Link, seconds: int, path: str) -> None:
    """A clock without a key asked the person at it to hold MENU: wait for the answer.
    Raises ClockError when the log was not cleared."""
    deadline = time.monotonic() + seconds + 5
    state = _CLEAR_ASKED
    while state == _CLEAR_ASKED and time.monotonic() < deadline:
        time.sleep(0.25)
        state = link.request("status").get("logclear", "")
    if state != _CLEAR_DONE:
        why = _CLEAR_WHY.get(state, "no answer from the clock")
        raise L.ClockError(L.EXIT_FAILED, "log pulled to %s but not cleared: %s" % (path, why))


def pull(link, archive, game, clear=False, chunk=4096, progress=None, ack=True,
         on_clock=None, on_ask=None):
    """Pull a clock's log into ARCHIVE/CLOCK/GAME.log from where the last pull stopped
    (GAME.next holds the next sequence number), then the clock's signed head (an `HD`
    frame, for `log verify`); then acknowledge it (`logack`: the clock may remove those
    games when its log is full; on a keyed clock only with the arbiter's key). Returns a
    summary dict. progress(records so far) as it goes; on_clock(clock id) once known;
    on_ask(seconds) when a clock without a key asks for MENU held to clear its log."""
    import base64

    from chessclock.logtools import head_frame
    hello = link.request("hello")
    if on_clock is not None:
        on_clock(hello["clock"])
    clock = "".join(c if c.isalnum() or c in "-_" else "_" for c in hello["clock"])
    folder = os.path.join(archive, clock)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, game + ".log")
    state = os.path.join(folder, game + ".next")
    start = 0
    if os.path.exists(state):
        with open(state) as f:
            try:
                start = int(f.read().strip() or 0)
            except ValueError:
                raise L.ClockError(L.EXIT_INPUT, "%s is damaged" % state,
                                   "remove it and GAME.log to pull again") from None
    got = 0
    last = start - 1
    head = None
    with open(path, "ab") as out:
        for _ in range(5):   # the clock may write on while we read: pull up to its head
            while True:
                r = link.request("log", start, chunk)
                n = int(r["n"])
                if n:
                    recs = unpack_records(base64.b64decode(r["data"]))
                    if len(recs) != n:
                        raise L.ClockError(L.EXIT_FAILED, "log chunk damaged")
                    out.write(b"".join(log_record(p) for p in recs))
                    out.flush()
                    got += n
                    last = int(r["last"])
                start = int(r["next"])
                with open(state + ".tmp", "w") as f:
                    f.write("%d\n" % start)
                os.replace(state + ".tmp", state)
                if progress:
                    progress(got)
                if r["more"] == "0":
                    break
            head = r.get("head")
            if head is None or int(head.split(" ")[3]) <= last:
                break
        if head is not None:
            out.write(head_frame(head, r.get("hmac", "-")))
        os.fsync(out.fileno())
    result = {"clock": hello["clock"], "file": path, "records": got, "next": start,
              "signed": head is not None and r.get("hmac", "-") != "-", "acked": None}
    if ack and last >= 0:
        try:
            link.request("logack", last, change=True)
            result["acked"] = last
        except L.ClockError as e:
            result["ack_error"] = str(e)
    if clear:
        r = link.request("logclear", last, change=True)
        if "confirm" in r:   # no key: the arbiter confirms on the clock itself
            if on_ask is not None:
                on_ask(int(r["confirm"]))
            _await_clear(link, int(r["confirm"]), path)
        result["cleared"] = last
    return result


def _pull_line(r):
    text = "%d records -> %s" % (r["records"], r["file"])
    if not r.get("signed"):
        text += "  (the clock has no key: the log is not signed)"
    if r.get("acked") is not None:
        text += "  (acknowledged up to %d)" % r["acked"]
    elif r.get("ack_error"):
        text += "  (not acknowledged: the clock keeps these games; %s)" % r["ack_error"]
    if "cleared" in r:
        text += "  (log cleared up to %d)" % r["cleared"]
    return text


def run_log_pull(args, stdout, stderr):
    """Pull every clock's log; on a terminal a progress bar a clock (rich) on stderr."""
    key, code = _key_or_exit(args, stderr)
    if code:
        return code
    game = args.game or time.strftime("%Y-%m-%d")
    try:
        _check_timing(args)
        ports = ports_of(args)
    except L.ClockError as e:
        return _err(stderr, e)
    bars = None
    if not args.json and hasattr(stderr, "isatty") and stderr.isatty():
        from chessclock import clock_view as V
        bars = V.PullProgress(ports, V.console(stderr))

    def fn(link):
        port = link.port

        def ask(seconds: int) -> None:
            stderr.write("chessclock: %s has no arbiter key: hold MENU 2 s on the clock "
                         "within %d s to clear its log\n" % (port, seconds))
            stderr.flush()

        return pull(link, args.archive, game, args.clear, args.chunk,
                    progress=(lambda n: bars.records(port, n)) if bars else None,
                    on_clock=(lambda c: bars.named(port, c)) if bars else None,
                    on_ask=ask)

    if bars is None:
        results = gather(args, ports, fn, key)
    else:
        with bars:
            results = gather(args, ports, fn, key, done=bars.done)
    report(args, results, stdout, stderr, _pull_line)
    return exit_code(results)


# `chessclock log pull` is the same command as `chessclock log-pull`.
add_arguments_pull = add_arguments_log_pull
run_pull = run_log_pull
