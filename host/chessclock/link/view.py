"""What an arbiter sees of clocks in a terminal: the table of `chessclock status` and
`watch` (a row a clock: board, clock, both times with the running side and flags marked,
moves, state, what needs a look), and the progress of `log pull` over many clocks.

rich draws the tables, colours and progress bars (no escape codes by hand): on a terminal
in colour, into a pipe or a file as plain text. Every mark has a word or a sign as well as
a colour (RUNNING side `▶`, `FLAG`), so it reads the same without colour.
"""

import time
from collections.abc import Mapping
from typing import IO, Any

from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table
from rich.text import Text

from chessclock.log.records import ST_NAMES, rap_10g


def selftest_text(bits: int | str) -> str:
    """A self-test's result in words (eventlog.ST_* bits; -1: none run since boot)."""
    bits = int(bits)
    if bits < 0:
        return "no self-test since power-on"
    if bits == 0:
        return "self-test passed"
    return "self-test FAILED: " + ", ".join(
        n for i, n in enumerate(ST_NAMES) if bits & (1 << i))


RUN_STYLE = "bold black on green"
FLAG_STYLE = "bold white on red"


def console(stream: IO[str], width: int | None = None) -> Console:
    """A rich Console writing to `stream` (colour only when it is a terminal)."""
    return Console(file=stream, width=width, highlight=False, soft_wrap=False)


def _i(fields: Mapping[str, Any], name: str, default: int = -1) -> int:
    try:
        return int(fields.get(name, default))
    except (TypeError, ValueError):
        return default


def fmt_clock(ms: int | str) -> str:
    """A clock's time as the display shows it: m:ss, h:mm:ss from an hour."""
    from chessclock.timetext import clock_text

    return clock_text(max(0, int(ms)))


def _flags(fields: Mapping[str, Any]) -> dict[str, str]:
    """{side: 'FLAG' or 'FLAG 1st'/'FLAG 2nd'} of the flags that fell."""
    at = {side: _i(fields, p + "flag") for side, p in (("white", "w"), ("black", "b"))}
    fell = sorted((t, side) for side, t in at.items() if t >= 0)
    if len(fell) == 1:
        return {fell[0][1]: "FLAG"}
    return {side: "FLAG %s" % ("1st" if i == 0 else "2nd") for i, (_, side) in
            enumerate(fell)}


def side_cell(fields: Mapping[str, Any], side: str) -> Text:
    """A side's time and moves; the running side `▶` in green, a fallen flag in red."""
    p = side[0]
    text = Text(fmt_clock(_i(fields, p, 0)))
    text.append(" (%d)" % _i(fields, p + "moves", 0), style="dim")
    flag = _flags(fields).get(side)
    running = fields.get("run") == side and fields.get("state") == "running"
    if running:
        text = Text("▶ ") + text
        text.stylize(RUN_STYLE)
    if flag:
        text.append(" " + flag, style=FLAG_STYLE)
    return text


def notes(fields: Mapping[str, Any]) -> str:
    """What needs the arbiter's eye, in words: battery, key refusals, the log full, sealing."""
    out = []
    if fields.get("batlow") == "1":
        soc, mv = _i(fields, "soc"), _i(fields, "bat")
        out.append("LOW BATTERY" + (" %d %%" % soc if soc >= 0 else
                                    " %d mV" % mv if mv >= 0 else ""))
    if _i(fields, "refused", 0) > 0:
        out.append("%d key refusals" % _i(fields, "refused", 0))
    if fields.get("logwarn") == "1":
        out.append("log full: pull it")
    if fields.get("menu") == "1":
        out.append("in the menu")
    if fields.get("seal") == "sealing":   # adjournment (docs/ADJOURNMENT.md)
        out.append("SEALING by %s%s" % (fields.get("sealer", "?"), ", 15:00 PASSED"
                                        if fields.get("sealalert") == "1" else ""))
    elif fields.get("seal") == "sealed":
        out.append("ADJOURNED (sealed by %s)" % fields.get("sealer", "?"))
    if _i(fields, "selftest") > 0:   # the session at the board (chessclock/commands/session.py)
        out.append(selftest_text(fields["selftest"]))
    if fields.get("spec") in ("fide-5min-1990", "5min-1990") and fields.get("state") == "paused":
        # RAP 10g at the stop (docs/SESSION.md)
        w, b = _i(fields, "w"), _i(fields, "b")
        who = [n for n, own, opp in (("white", w, b), ("black", b, w)) if rap_10g(own, opp)]
        out.append("draw claim (RAP 10g) open to: %s" % (" and ".join(who) or "nobody"))
    if _i(fields, "default", 0):      # for the arbiter only: nothing shows on the clock
        out.append("DEFAULT TIME PASSED: " + " and ".join(
            n for i, n in enumerate(("white", "black")) if _i(fields, "default", 0) & (1 << i)))
    return ", ".join(out)


NARROW = 110   # below this many columns the table leaves out ports and players


def status_table(rows: list[Any], title: str | None = None,
                 caption: str | None = None, width: int | None = None) -> Table:
    """The table of clocks. rows: dicts {"port", "ok", "result" (status fields, with
    "clock" its id and "board" its board number when known) | "error", "simulated"}.
    `width`: the terminal's; a narrow one gets the table without ports, players and
    borders (simulated clocks are then named under it)."""
    narrow = width is not None and width < NARROW
    sims = [r["result"].get("clock") if r["ok"] else r["port"] for r in rows
            if r.get("simulated")]
    if narrow and sims:   # no Port column: the sim-serve clocks are named under the table
        caption = "%s%s: simulated, not boards" % (caption + "; " if caption else "",
                                                   ", ".join(str(s) for s in sims))
    boards = any(r["ok"] and r["result"].get("board") is not None for r in rows)
    players = not narrow and any(r["ok"] and r["result"].get("players") for r in rows)
    t = Table(title=title, caption=caption, caption_justify="left", header_style="bold",
              show_lines=False, expand=False, box=box.SIMPLE_HEAD if narrow else
              box.HEAVY_HEAD)
    if boards:
        t.add_column("Board", justify="right", no_wrap=True)
    t.add_column("Clock", no_wrap=True)
    if not narrow:
        t.add_column("Port", style="dim", overflow="fold")
    if players:
        t.add_column("Players", no_wrap=True)
    t.add_column("State", no_wrap=True)
    t.add_column("White (moves)", no_wrap=True)
    t.add_column("Black (moves)", no_wrap=True)
    t.add_column("Notes", overflow="fold", min_width=8 if narrow else 14)
    for r in rows:
        cells: list[str | Text] = []
        res = r.get("result") if r["ok"] else {}
        if boards:
            cells.append(str(res.get("board") or "-"))
        cells.append(res.get("clock") or (r["port"] if narrow else "?"))
        if not narrow:   # a sim-serve clock, not a board (chessclock/sim/serve.py)
            cells.append(r["port"] + (" (simulated)" if r.get("simulated") else ""))
        if players:
            cells.append(res.get("players") or "")
        if not r["ok"]:
            cells += [Text("NO ANSWER", style=FLAG_STYLE), "", "",
                      Text(r["error"], style="red")]
        else:
            state = res.get("state", "?")
            cells += [Text(state, style="bold" if state == "running" else ""),
                      side_cell(res, "white"), side_cell(res, "black"),
                      Text(notes(res), style="yellow")]
        t.add_row(*cells)
    return t


def title_for(rows: list[Any], now: float | None = None) -> str:
    """'3 clocks, 2 answering, 14:02:31' (the local time of this reading)."""
    answering = sum(1 for r in rows if r["ok"])
    when = time.strftime("%H:%M:%S", time.localtime(now))
    return "%d clock%s, %d answering, %s" % (len(rows), "" if len(rows) == 1 else "s",
                                            answering, when)


class PullProgress:
    """`log pull` of many clocks: a bar a clock (records pulled), then done or failed.
    On a terminal it redraws in place; elsewhere only the final state is printed."""

    def __init__(self, ports: list[str], con: Console) -> None:
        self.progress = Progress(TextColumn("{task.fields[name]:<24}"), BarColumn(),
                                 MofNCompleteColumn(), TextColumn("{task.fields[what]}"),
                                 console=con, transient=False)
        self.tasks = {p: self.progress.add_task("", total=None, name=p, what="waiting")
                      for p in ports}

    def __enter__(self) -> "PullProgress":
        self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.stop()

    def named(self, port: str, clock: str) -> None:
        self.progress.update(self.tasks[port], name="%s (%s)" % (clock, port)
                             if clock and clock != port else port)

    def records(self, port: str, n: int) -> None:
        self.progress.update(self.tasks[port], completed=n, what="pulling")

    def done(self, port: str, result: dict[str, Any]) -> None:
        t = self.tasks[port]
        if result["ok"]:
            n = result["result"]["records"]
            self.progress.update(t, total=n, completed=n, what="%d records, done" % n)
        else:
            self.progress.update(t, total=1, completed=0, what="FAILED")
