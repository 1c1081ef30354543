"""The clock commands over the serial link: ports, info, status, watch, set, start, pause,
resume, adjust, moves, key, log-pull. Each runs on every port given (--port repeated, or
--all) concurrently; one failing clock never stops the others. Exit codes: see
chessclock/link/transport.py and docs/PROTOCOL.md."""

import json
import re
import sys
import time
from argparse import ArgumentParser, Namespace
from typing import Any, TextIO

from chessclock.commands import clockrun as C
from chessclock.link import transport as L
from chessclock.link.ports import find_ports, ports_of
from chessclock.log.pull import pull

# ---- arguments ----------------------------------------------------------------------------


def add_arguments_ports(p: ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="machine-readable output")


def add_arguments_info(p: ArgumentParser) -> None:
    C.common_arguments(p, key=False)


def add_arguments_status(p: ArgumentParser) -> None:
    C.common_arguments(p, key=False)
    C.board_arguments(p)


def add_arguments_watch(p: ArgumentParser) -> None:
    C.common_arguments(p, key=False)
    C.board_arguments(p)
    p.add_argument("--interval", type=float, default=0.5, help="seconds between refreshes")
    p.add_argument("--count", type=int, default=0, help="stop after N refreshes (0: never)")


def add_arguments_set(p: ArgumentParser) -> None:
    p.add_argument("control", metavar="CONTROL", help="PGN tag, readable notation or preset")
    p.add_argument("--yes", action="store_true", help="send without asking")
    p.add_argument("--pgn", action="store_true", help="CONTROL is a PGN tag in seconds, "
                   "meant as written even where no real event plays it (sent as pgn:CONTROL)")
    C.common_arguments(p)


def add_arguments_start(p: ArgumentParser) -> None:
    p.add_argument("side", nargs="?", choices=("white", "black"),
                   help="whose clock runs first (default: White's)")
    C.common_arguments(p)


def add_arguments_pause(p: ArgumentParser) -> None:
    C.common_arguments(p)


def add_arguments_undo(p: ArgumentParser) -> None:
    p.description = (
        "The last press was not a move: take it back (arbiter's key). The turn goes back "
        "to the side that pressed, whose clock runs: the presser's, again (at the resume "
        "when paused). The presser's move count, increment, delay credit and stage go "
        "back; the time the opponent's clock ran since the press stays on it (`adjust` "
        "where the arbiter rules so). Only the last press, while the turn it started is "
        "still the current one (else the clock refuses).")
    C.common_arguments(p)


add_arguments_end = add_arguments_pause
add_arguments_wallclock = add_arguments_pause


def add_arguments_settime(p: ArgumentParser) -> None:
    p.add_argument("side", choices=("white", "black"))
    p.add_argument("time", metavar="TIME", help="the side's time now: 5m, 4:30, 1:02:00")
    C.common_arguments(p)


def add_arguments_stage(p: ArgumentParser) -> None:
    p.add_argument("side", choices=("white", "black"))
    p.add_argument("number", type=int, metavar="N", help="the stage, from 1")
    C.common_arguments(p)


def add_arguments_addstage(p: ArgumentParser) -> None:
    p.add_argument("side", choices=("white", "black", "both"))
    p.add_argument("stage", metavar="STAGE",
                   help="one stage as the notation writes it, e.g. 15m or 30m+30s")
    C.common_arguments(p)


def add_arguments_split(p: ArgumentParser) -> None:
    p.add_argument("elapsed", metavar="ELAPSED",
                   help="time since the scheduled start: 75m, 1h15m or 1:15:00 (with a unit)")
    p.add_argument("--visitor", required=True, choices=("white", "black"),
                   help="the late visitor's colour: charged 60%%, the home player 40%% "
                   "(RGC 12.1; `chessclock ruling late`)")
    C.common_arguments(p)


def add_arguments_press(p: ArgumentParser) -> None:
    p.add_argument("lever", choices=("left", "right"), help="which lever (simulated clocks "
                   "from `chessclock sim-serve` only)")
    p.add_argument("--hold", type=int, default=80, metavar="MS", help="held for MS ms")
    C.common_arguments(p, key=False)


def add_arguments_resume(p: ArgumentParser) -> None:
    p.add_argument("side", nargs="?", choices=("white", "black"),
                   help="run this side's clock (default: whose turn it is)")
    C.common_arguments(p)


def signed_values(p: ArgumentParser) -> None:
    """Let a positional value start with a minus and a digit (-30s, -1:30) on parser p:
    argparse takes only plain numbers (-30) as negative values and anything else that starts
    with '-' as an option, so `adjust black -30s` lost its AMOUNT. p has no option that
    starts with a digit, so every "-DIGIT..." word on it is a value."""
    p._negative_number_matcher = re.compile(r"^-\d")


def add_arguments_adjust(p: ArgumentParser) -> None:
    p.add_argument("side", choices=("white", "black"))
    p.add_argument("amount", metavar="AMOUNT",
                   help="+2m, -30s, +1.5s, +1500ms, +1:30 (with a unit)")
    p.add_argument("--reason", metavar="TEXT", help="the ground of the correction, e.g. "
                   "\"illegal move\" (at most %d bytes; logged with it, shown in rulings "
                   "and the incident report)" % GROUND_MAX)
    p.add_argument("--article", metavar="TEXT", help="the rule applied, e.g. \"ACT 7\" "
                   "(with --reason)")
    C.common_arguments(p)
    signed_values(p)


def add_arguments_moves(p: ArgumentParser) -> None:
    p.add_argument("side", choices=("white", "black"))
    p.add_argument("count", type=int, metavar="N")
    C.common_arguments(p)


def add_arguments_add_increment(p: ArgumentParser) -> None:
    p.add_argument("amount", metavar="INC", help="the increment a move, e.g. 5s")
    p.add_argument("--side", choices=("both", "white", "black"), default="both",
                   help="who gets it (default: both, as FIDE Guidelines III)")
    C.common_arguments(p)


def add_arguments_log_pull(p: ArgumentParser) -> None:
    p.add_argument("--archive", default="chessclock-logs",
                   help="folder of the archive: ARCHIVE/CLOCK/GAME.log (default "
                   "chessclock-logs)")
    p.add_argument("--game", default=None,
                   help="name of the game in the archive (default: today's date)")
    p.add_argument("--clear", action="store_true",
                   help="clear the clock's log once all of it is in the archive")
    p.add_argument("--chunk", type=int, default=4096, help=C.argparse_suppress())
    C.common_arguments(p)


# ---- helpers ------------------------------------------------------------------------------


# ---- commands -----------------------------------------------------------------------------
def run_ports(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    try:
        found = find_ports()
    except ImportError:
        raise L.ClockError(L.EXIT_FAILED, "pyserial is not installed") from None
    from chessclock.sim import serve as simserve
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


def run_info(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    def render(h: dict[str, str]) -> str:
        return "clock %s  board %s  firmware %s  protocol %s  key %s" % (
            h["clock"], h["board"], h["fw"], h["proto"], "set" if h["key"] == "1" else "none")
    return C.on_each(args, stdout, stderr, lambda link: link.request("hello"), render=render)


def _table_out(rows: list[C.Row], stdout: TextIO) -> None:
    from chessclock.link import view as V
    con = V.console(stdout)
    con.print(V.status_table(rows, V.title_for(rows), width=con.width))


def run_status(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    C.check_timing(args)
    ports = ports_of(args)
    rnd = C.round_of(args)

    def fn(link: L.Link) -> dict[str, Any]:
        return C.named(link.request("status"), link.request("hello"), link.port, rnd)
    rows = C.gather(args, ports, fn)
    if args.json:
        C.report(args, rows, stdout, stderr)
    else:
        _table_out(rows, stdout)
        for r in rows:
            if not r["ok"]:
                stderr.write("chessclock: %s\n" % r["error"])
    return C.exit_code(rows)


def run_watch(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """The status table, refreshed every --interval until Ctrl-C (or --count readings):
    in place on a terminal, a table a reading into a pipe, a JSON list a line with --json."""
    from concurrent.futures import ThreadPoolExecutor
    C.check_timing(args)
    ports = ports_of(args)
    rnd = C.round_of(args)
    links: dict[str, L.Link] = {}
    hellos = {}

    def one(port: str) -> C.Row:
        try:
            if port not in links:
                links[port] = L.Link(port, timeout=args.timeout)
                hellos[port] = links[port].request("hello")
            lk = links[port]
            return {"port": port, "ok": True,
                    "result": C.named(lk.request("status"), hellos[port], port, rnd)}
        except L.ClockError as e:
            gone = links.pop(port, None)
            if gone is not None:
                gone.close()
            return {"port": port, "ok": False, "code": e.code, "error": str(e)}

    from chessclock.link import view as V
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
                    C.report(args, rows, stdout, stderr)
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


def run_set(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from chessclock.timecontrol import configured, describe, for_clock, terminal_ask
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
    return C.change(args, stdout, stderr, "set", spec, wall=True)


def run_start(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    return C.change(args, stdout, stderr, "start", *([args.side] if args.side else []),
                   wall=True)


def _undo_text(f: dict[str, str]) -> str:
    """The times after an undo and whose turn it is again (the side that pressed)."""
    turn = f.get("turn")
    return C.times(f) + ("; %s to move" % turn if turn else "")


def run_undo(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    return C.change(args, stdout, stderr, "undo", render=_undo_text)


def run_end(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    return C.change(args, stdout, stderr, "end")


def run_wallclock(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    return C.change(args, stdout, stderr, "wallclock", int(time.time()),
                   render=lambda f: "time of day set: %s UTC" % time.strftime(
                       "%Y-%m-%d %H:%M:%S", time.gmtime(int(f["wall"]))))


def run_settime(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    ms = L.parse_ms(args.time, signed=False)
    return C.change(args, stdout, stderr, "settime", args.side, ms, render=C.times)


def run_stage(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    if not 1 <= args.number <= 1000:
        raise L.ClockError(L.EXIT_INPUT, "a stage is numbered from 1")
    return C.change(args, stdout, stderr, "stage", args.side, args.number, render=C.times)


def run_addstage(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from clockcore import notation
    try:
        notation.parse_stage(args.stage)
    except ValueError as e:
        raise L.ClockError(L.EXIT_INPUT, "%r is not one stage: %s"
                           % (args.stage[:40], e)) from None
    return C.change(args, stdout, stderr, "addstage", args.side, args.stage, render=C.times)


def run_split(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    ms = L.parse_ms(args.elapsed, signed=False)
    white_pct = 60 if args.visitor == "white" else 40
    return C.change(args, stdout, stderr, "split", ms, white_pct, render=C.times)


def run_press(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    if not 1 <= args.hold <= 60000:
        raise L.ClockError(L.EXIT_INPUT, "--hold is 1 to 60000 ms")
    return C.on_each(args, stdout, stderr,
                   lambda lk: lk.request("sim", "press", args.lever, args.hold),
                   render=lambda f: "%s lever pressed" % args.lever)


def run_pause(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    return C.change(args, stdout, stderr, "pause")


def run_resume(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    return C.change(args, stdout, stderr, "resume", *([args.side] if args.side else []))


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


def run_adjust(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    ms = L.parse_ms(args.amount)
    ground = _ground(args.reason, args.article)
    return C.change(args, stdout, stderr, "adjust", args.side, ms, *ground, render=C.times)


def run_moves(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    if not 0 <= args.count <= 10000:
        raise L.ClockError(L.EXIT_INPUT, "a move count is 0 to 10000")
    return C.change(args, stdout, stderr, "moves", args.side, args.count, render=C.times)


def run_add_increment(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """+INC a move from now on (FIDE Guidelines III): one arbiter action on each clock."""
    ms = L.parse_ms(args.amount)
    if ms <= 0:
        raise L.ClockError(L.EXIT_INPUT, "the increment is a time above 0, "
                           "e.g. 5s, not %r" % args.amount)
    return C.change(args, stdout, stderr, "addinc", args.side, ms, render=C.times)


# ---- log pull -------------------------------------------------------------------------------


def _pull_line(r: dict[str, Any]) -> str:
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


def run_log_pull(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Pull every clock's log; on a terminal a progress bar a clock (rich) on stderr."""
    key = L.key_for(args)
    game = args.game or time.strftime("%Y-%m-%d")
    C.check_timing(args)
    ports = ports_of(args)
    bars = None
    if not args.json and hasattr(stderr, "isatty") and stderr.isatty():
        from chessclock.link import view as V
        bars = V.PullProgress(ports, V.console(stderr))

    def fn(link: L.Link) -> dict[str, Any]:
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
        results = C.gather(args, ports, fn, key)
    else:
        with bars:
            results = C.gather(args, ports, fn, key, done=bars.done)
    C.report(args, results, stdout, stderr, _pull_line)
    return C.exit_code(results)


# `chessclock log pull` is the same command as `chessclock log-pull`.
add_arguments_pull = add_arguments_log_pull
run_pull = run_log_pull
