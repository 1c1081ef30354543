"""The real firmware app on the simulator board, drawn in a terminal (`chessclock sim`).

Interactive (default): both displays drawn as seven-segment digits, keys as levers and
buttons, the app's own loop in real time. Headless (`--script FILE`): simulated time, the
script's inputs, a JSON line per `show`: for tests and for trying a scenario exactly.

Keys: a = left lever, l = right lever, space = start/pause, m = menu, M = menu held 2.5 s
(arbiter menu), + / - = plus / minus, I = plus held 2.5 s (an incident mark), q = stop
(saves the game, as a clock switched off between moves), P = a power cut (stops dead and
boots again from what the flash holds).
Keys typed faster than a press lasts are queued one after the other: each one counts.
--selftest: PLUS held at power-on, the self-test (docs/SESSION.md).
"""

import json
import os
import select
import sys
import time
from typing import Any, TextIO

SEGMENTS = {  # three rows of three characters per digit
    "0": (" _ ", "| |", "|_|"), "1": ("   ", "  |", "  |"), "2": (" _ ", " _|", "|_ "),
    "3": (" _ ", " _|", " _|"), "4": ("   ", "|_|", "  |"), "5": (" _ ", "|_ ", " _|"),
    "6": (" _ ", "|_ ", "|_|"), "7": (" _ ", "  |", "  |"), "8": (" _ ", "|_|", "|_|"),
    "9": (" _ ", "|_|", " _|"), " ": ("   ", "   ", "   "), "-": ("   ", " _ ", "   "),
}
KEYS = {"a": ("lever", 0), "l": ("lever", 1), " ": ("button", 1), "m": ("button", 2),
        "M": ("hold", 2), "+": ("button", 4), "=": ("button", 4), "-": ("button", 8),
        "I": ("hold", 4)}


def big(text: str) -> list[str]:
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


def describe(view: Any) -> dict[str, Any]:
    if view is None:
        return {}
    return {"time": bytes(view.time).decode().strip(),
            "text": bytes(view.text).decode().strip() if view.text_on else None,
            "running": view.running, "flag": view.flag, "delay_ds": view.delay_ds,
            "periods": view.periods, "moves": view.moves, "stage": view.stage,
            "paused": view.paused, "battery_low": view.battery_low, "white": view.white,
            "test": view.test, "board": view.pair[0] if getattr(view, "pair", None) else 0}


LED_NAMES = {0: "left", 1: "right"}   # board.running_led -> the lit LED's side


# What each menu item does, in words, under the displays (the display shows 4-8 letters).
ITEM_WORDS = {
    "PrSt": "a preset", "FAv": "a favourite", "SEt": "a control by hand (minutes, then "
    "increment)", "SAvE": "save this control as a favourite", "SWAP": "which lever is "
    "White's", "Snd": "sound", "SEcS": "seconds always (no tenths)", "MovS": "show the move "
    "counter", "SIdE": "the side to correct", "+2": "+2 minutes to that side", "tImE":
    "that side's time, 10 s a press", "MovE": "that side's move counter", "StAG": "that "
    "side's stage", "Undo": "the last press was not a move", "InC": "an increment for both "
    "from now on", "rES": "resume, that side's clock running", "End": "end the game", "nEW":
    "a new game with this control (throws this one away)"}


# A question the clock asks the person at it (menu.ask), in words.
CONFIRM_WORDS = {"CLr?": "erase the clock's log? (asked over the cable; this clock has no "
                         "arbiter key)"}


def menu_lines(app: Any) -> list[str]:
    """The open menu under the displays: its items (the current one in brackets), the
    item's value in full (a preset's whole name), and the keys that work now."""
    from clockapp.menu import CONFIRM, EDITABLE, SETUP
    m = app.menu
    if m.active() and m.mode == CONFIRM:   # a question asked over the cable (menu.ask)
        return ["  QUESTION: %s %s" % (m.items()[0], CONFIRM_WORDS.get(m.items()[0], "")),
                "  keys: M (hold menu 2 s) says yes; any other key says no"]
    if not m.active():
        return ["  keys: a/l levers, space start/pause, m set-up menu (before a game), "
                "M hold menu: arbiter menu (paused or ended),",
                "        +/- plus/minus, I incident mark, q stop and save, P power cut"]
    items = m.items()
    name = items[m.item]
    value = m.value_text()
    out = ["  %s: %s" % ("SET-UP MENU" if m.mode == SETUP else "ARBITER MENU",
                         " ".join(("[%s]" % n) if i == m.item else n
                                  for i, n in enumerate(items))),
           "  %s%s: %s%s" % ("editing " if m.editing else "", name, ITEM_WORDS.get(name, ""),
                             ("  = " + value) if value else "")]
    if m.armed:
        keys = "space again: throw this game away and start anew; any other key keeps it"
    elif m.editing:
        keys = "+/- change it, space takes it, m back"
    else:
        keys = "+/- next/previous item, space %s, m closes the menu" % (
            "edits it" if name in EDITABLE else "does it")
    out.append("  keys: " + keys + ", q stop and save")
    return out


def screen(board: Any, app: Any) -> str:
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
        pair = getattr(v, "pair", None)
        if v.idle and pair:   # the round's pairing, at set-up
            notes.append("BOARD %d  %s" % (pair[0], pair[1 if v.white else 2].decode()))
        ctl = getattr(v, "ctl", None)
        if v.idle and ctl:    # the side's control, for the players to check before the start
            notes.append(ctl.decode())
        panels.append([head] + rows + ["  ".join(notes)])
    for i in range(5):
        out.append("  %-34s  |  %-34s" % (panels[0][i], panels[1][i]))
    out.append("")
    out.append("  buzzer: %s    control: %s" % ("((( %d Hz )))" % board.freq if board.freq
                                                 else "-", app.settings.spec))
    out += menu_lines(app)
    return "\x1b[K\n".join(out)  # clear each line's tail: shorter lines leave no debris


def _make(storage: str, tick0: int = 0, selftest: bool = False) -> tuple[Any, Any]:
    from boards.sim import BUTTONS, SimBoard
    from clockapp.app import App
    from clockapp.board import BTN_PLUS
    os.makedirs(storage, exist_ok=True)
    board = SimBoard(storage, tick0=tick0)
    if selftest:   # PLUS held at power-on, let go 0.3 s later
        board.buttons = BTN_PLUS
        board.at(300000, BUTTONS, 0)
    return board, App(board)


GAP_US = 60000      # released this long between two queued presses (> the debounce)


class Session:
    """The simulator in a terminal without the terminal: keys in, pictures out, so that
    the interactive loop is a thin shell around it (and tests drive it by hand).

    Keys typed faster than a press lasts are queued: each press starts when the one before
    it on the same input has been released for GAP_US, so a quick `+++` moves three items
    and no key is lost. `q` stops cleanly: the log and the game are written to the flash
    first, as a clock switched off between moves. `P` cuts the power: what was not written
    yet is lost and the board boots again from the flash."""

    def __init__(self, storage: str, selftest: bool = False) -> None:
        self.storage = storage
        self.board, self.app = _make(storage, selftest=selftest)
        self.free = {}      # input -> board time (us) when its last queued press ends
        self.note = ""      # one line about the last stop or power cut

    def key(self, ch: str, now_us: int) -> str | None:
        """One key at board time now_us: 'quit' for q, else None."""
        if ch == "q":
            self.stop()
            return "quit"
        if ch == "P":
            self.power_cut()
            return None
        kind, what = KEYS.get(ch, (None, None))
        if kind is None:
            return None
        hold = {"lever": 80000, "button": 120000, "hold": 2500000}[kind]
        slot = ("lever", what) if kind == "lever" else "buttons"
        at = max(now_us, self.free.get(slot, 0))
        self.free[slot] = at + hold + GAP_US
        if kind == "lever":
            self.board.press_lever(what, at, hold_us=hold)
        else:
            self.board.press_buttons(what, at, hold_us=hold)
        return None

    def run_to(self, now_us: int) -> None:
        """The app's loop up to board time now_us (at least one pass)."""
        from boards.sim import run_until
        self.app.step()
        run_until(self.app, self.board, now_us)

    def stop(self) -> None:
        """A clean stop: every event on the flash, the game saved to come back paused."""
        app = self.app
        app.flush()
        from clockcore import engine as E
        if app.clock.state != E.IDLE:
            app.save_state()
        self.note = "stopped: saved in %s" % self.storage

    def power_cut(self) -> None:
        """The power fails now: no flush, no save; the board boots again on its flash."""
        t = self.board.ticks_us()
        self.board, self.app = _make(self.storage, tick0=t)
        self.free = {}
        self.note = "power cut: the clock booted again from its flash"
        return t

    def picture(self) -> str:
        text = screen(self.board, self.app)
        return text + ("\x1b[K\n  " + self.note if self.note else "")


def interactive(storage: str, stdout: TextIO, selftest: bool = False) -> int:
    import termios
    import tty

    session = Session(storage, selftest)
    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    start = time.monotonic_ns() // 1000
    base = 0            # board time at `start` (a power cut starts a new board at 0)
    last_draw = ""
    try:
        tty.setcbreak(fd)
        stdout.write("\x1b[2J")
        while True:
            now = time.monotonic_ns() // 1000 - start - base
            ready, _, _ = select.select([fd], [], [], 0.001)
            # every key typed since the last pass (sys.stdin.read(1) would leave the rest
            # in Python's buffer, unseen by select: quick keys were lost)
            keys = os.read(fd, 64).decode("utf-8", "replace") if ready else ""
            quit_ = False
            for ch in keys:
                if ch == "P":
                    session.power_cut()
                    base = time.monotonic_ns() // 1000 - start
                    now = 0
                elif session.key(ch, now) == "quit":
                    quit_ = True
                    break
            if quit_:
                stdout.write("\x1b[H" + session.picture() + "\x1b[J")
                break
            session.run_to(max(session.board.t, now))
            picture = session.picture()
            if picture != last_draw:
                stdout.write("\x1b[H" + picture + "\x1b[J")
                stdout.flush()
                last_draw = picture
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)
        stdout.write("\n")
    return 0


def headless(storage: str, script_text: str, stdout: TextIO, stderr: TextIO,
             selftest: bool = False) -> int:
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

