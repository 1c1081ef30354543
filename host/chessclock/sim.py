"""`chessclock sim`: the real firmware app on the simulator board, in a terminal.

Interactive (default): both displays drawn as seven-segment digits, keys as levers and
buttons, the app's own loop in real time. Headless (`--script FILE`): simulated time, the
script's inputs, a JSON line per `show`: for tests and for trying a scenario exactly.

Keys: a = left lever, l = right lever, space = start/pause, m = menu, M = menu held 2.5 s
(arbiter menu), + / - = plus / minus, P = plus held 2.5 s (an incident mark), q = quit.
--selftest: PLUS held at power-on, the self-test (docs/SESSION.md).
"""

import json
import os
import select
import sys
import time

SEGMENTS = {  # three rows of three characters per digit
    "0": (" _ ", "| |", "|_|"), "1": ("   ", "  |", "  |"), "2": (" _ ", " _|", "|_ "),
    "3": (" _ ", " _|", " _|"), "4": ("   ", "|_|", "  |"), "5": (" _ ", "|_ ", " _|"),
    "6": (" _ ", "|_ ", "|_|"), "7": (" _ ", "  |", "  |"), "8": (" _ ", "|_|", "|_|"),
    "9": (" _ ", "|_|", " _|"), " ": ("   ", "   ", "   "), "-": ("   ", " _ ", "   "),
}
KEYS = {"a": ("lever", 0), "l": ("lever", 1), " ": ("button", 1), "m": ("button", 2),
        "M": ("hold", 2), "+": ("button", 4), "=": ("button", 4), "-": ("button", 8),
        "P": ("hold", 4)}


def big(text):
    """Seven-segment rendering of a time like '4:59' or '19.9' (letters drawn plain)."""
    rows = ["", "", ""]
    for ch in text:
        if ch in ":.":
            mark = (" ", ".", ".") if ch == ":" else (" ", " ", ".")
            for i in range(3):
                rows[i] += mark[i]
            continue
        seg = SEGMENTS.get(ch)
        if seg is None:
            seg = ("   ", " " + ch + " ", "   ")
        for i in range(3):
            rows[i] += seg[i]
    return rows


def describe(view):
    if view is None:
        return {}
    return {"time": bytes(view.time).decode().strip(),
            "text": bytes(view.text).decode().strip() if view.text_on else None,
            "running": view.running, "flag": view.flag, "delay_ds": view.delay_ds,
            "periods": view.periods, "moves": view.moves, "stage": view.stage,
            "paused": view.paused, "battery_low": view.battery_low, "white": view.white,
            "test": view.test}


LED_NAMES = {0: "left", 1: "right"}   # board.running_led -> the lit LED's side


def screen(board, app):
    """The terminal picture of both displays (and the running-side LED above each)."""
    out = []
    panels = []
    for lever, disp in enumerate((board.left, board.right)):
        v = disp.view
        if v is None:
            panels.append(["", "", "", "", ""])
            continue
        text = (bytes(v.text) if v.text_on else bytes(v.time)).decode().strip()
        head = (("(@) " if board.running_led == lever else "( ) ")
                + ("WHITE" if v.white else "BLACK") + ("  <<< RUNNING" if v.running else ""))
        rows = big(text)
        notes = []
        if v.flag:
            notes.append("FLAG (%s)" % ("1st" if v.flag == 1 else "2nd"))
        if v.delay_ds >= 0:
            notes.append("delay %d.%d" % (v.delay_ds // 10, v.delay_ds % 10))
        if v.periods >= 0:
            notes.append("byo x%d" % v.periods)
        if v.moves >= 0:
            notes.append("moves %d" % v.moves)
        if v.stage:
            notes.append("stage %d" % v.stage)
        if v.paused:
            notes.append("PAUSED")
        if v.battery_low:
            notes.append("LOW BATTERY")
        if v.test:
            notes.append("SELF-TEST: every segment lit")
        panels.append([head] + rows + ["  ".join(notes)])
    for i in range(5):
        out.append("  %-34s  |  %-34s" % (panels[0][i], panels[1][i]))
    out.append("")
    out.append("  buzzer: %s    control: %s" % ("((( %d Hz )))" % board.freq if board.freq
                                                 else "-", app.settings.spec))
    out.append("  keys: a/l levers, space start/pause, m menu, M hold menu (arbiter), "
               "+/- plus/minus, P hold plus (incident), q quit")
    return "\x1b[K\n".join(out)  # clear each line's tail: shorter lines leave no debris


def _make(storage, tick0=0, selftest=False):
    from boards.sim import BUTTONS, SimBoard
    from clockapp.app import App
    from clockapp.board import BTN_PLUS
    os.makedirs(storage, exist_ok=True)
    board = SimBoard(storage, tick0=tick0)
    if selftest:   # PLUS held at power-on, let go 0.3 s later
        board.buttons = BTN_PLUS
        board.at(300000, BUTTONS, 0)
    return board, App(board)


def interactive(storage, stdout, selftest=False):
    import termios
    import tty

    board, app = _make(storage, selftest=selftest)
    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    start = time.monotonic_ns() // 1000
    last_draw = ""
    try:
        tty.setcbreak(fd)
        stdout.write("\x1b[2J")
        while True:
            app.step()
            now = time.monotonic_ns() // 1000 - start
            ready, _, _ = select.select([sys.stdin], [], [], 0.001)
            if ready:
                ch = sys.stdin.read(1)
                if ch == "q":
                    break
                kind, what = KEYS.get(ch, (None, None))
                if kind == "lever":
                    board.press_lever(what, now, hold_us=80000)
                elif kind == "button":
                    board.press_buttons(what, now, hold_us=120000)
                elif kind == "hold":
                    board.press_buttons(what, now, hold_us=2500000)
            board.advance_to(max(board.t, time.monotonic_ns() // 1000 - start))
            picture = screen(board, app)
            if picture != last_draw:
                stdout.write("\x1b[H" + picture + "\x1b[J")
                stdout.flush()
                last_draw = picture
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)
        stdout.write("\n")
    return 0


def headless(storage, script_text, stdout, stderr, selftest=False):
    """Script lines: `<ms> lever left|right [hold_ms]`, `<ms> button NAME [hold_ms]`,
    `<ms> show`, `<ms> power-cut` (restart the board on the same storage). A `show` line:
    {"t_ms", "led": the lit running-side LED "left"|"right"|null, "left", "right"}."""
    from boards.sim import run_until
    from clockapp.board import BUTTON_NAMES

    board, app = _make(storage, selftest=selftest)
    for n, raw in enumerate(script_text.splitlines(), 1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        try:
            t_us = int(words[0]) * 1000
            action = words[1]
        except (ValueError, IndexError):
            stderr.write("line %d: expected '<ms> <action> ...'\n" % n)
            return 2
        run_until(app, board, t_us)
        if action == "lever" and len(words) >= 3 and words[2] in ("left", "right"):
            hold = int(words[3]) * 1000 if len(words) > 3 else 80000
            board.press_lever(0 if words[2] == "left" else 1, board.t, hold_us=hold)
        elif action == "button" and len(words) >= 3 and words[2] in BUTTON_NAMES:
            hold = int(words[3]) * 1000 if len(words) > 3 else 100000
            board.press_buttons(1 << BUTTON_NAMES.index(words[2]), board.t, hold_us=hold)
        elif action == "show":
            stdout.write(json.dumps({"t_ms": board.t // 1000,
                                     "led": LED_NAMES.get(board.running_led),
                                     "left": describe(board.left.view),
                                     "right": describe(board.right.view)}) + "\n")
        elif action == "power-cut":
            board, app = _make(storage, tick0=board.ticks_us())
        else:
            stderr.write("line %d: unknown action %r\n" % (n, raw.strip()))
            return 2
    return 0


def add_arguments(p):
    p.add_argument("--storage", default=os.path.join("build", "sim-storage"),
                   help="folder standing in for the board's flash (default build/sim-storage)")
    p.add_argument("--script", metavar="FILE",
                   help="run headless in simulated time from a script ('-': stdin)")
    p.add_argument("--serial", action="store_true",
                   help="serve the clock on a pseudo-terminal instead and print its port, "
                        "for the other chessclock commands (same as `chessclock sim-serve`)")
    p.add_argument("--clock-id", default="sim", help="with --serial: the clock id it reports")
    p.add_argument("--selftest", action="store_true",
                   help="power on with PLUS held: the self-test (press both levers)")
    p.add_argument("--micropython", action="store_true",
                   help="with --serial: the firmware side under the MicroPython unix port")


def run(args, stdout, stderr):
    here = os.path.dirname(os.path.abspath(__file__))
    firmware = os.path.join(os.path.dirname(os.path.dirname(here)), "firmware")
    if os.path.isdir(os.path.join(firmware, "boards")) and firmware not in sys.path:
        sys.path.insert(0, firmware)  # boards/ is not installed with the package
    if args.serial:
        from chessclock import simserve
        return simserve.run(args, stdout, stderr)
    if args.script:
        text = sys.stdin.read() if args.script == "-" else open(args.script).read()
        return headless(args.storage, text, stdout, stderr, args.selftest)
    if not sys.stdin.isatty():
        stderr.write("chessclock sim: needs a terminal (or --script FILE)\n")
        return 2
    return interactive(args.storage, stdout, args.selftest)
