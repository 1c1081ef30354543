"""A round's pairings in, what the clocks decided out.

In: CSV (a header row; columns board, white, black and optionally clock, round, event,
date, white_id, black_id; `clock` names the clock on that board: its id, its port or
STATION/CLOCK), or FIDE TRF-16 (what Swiss-Manager and Vega exchange: the 012 line is the
event, every 001 line a player with a block of ten characters a round from column 92;
the round's boards in FIDE order: the higher score of the pair first, then the sum, then
the better-ranked player). Clocks without a `clock` column are given with --assign
BOARD=CLOCK.

Out: per board the clock's facts (which flag fell first, when) and the result they point
to, as CSV and as TRF 001 lines with this round's block filled (an arbiter merges them
into the tournament file after confirming each: a flag loses unless the opponent cannot
mate, FIDE Art. 6.9; `chessclock ruling` decides that from the log and the scoresheet).
"""

import csv
import io
from typing import Any

from chessclock.errors import InputError

SCORE = {"1": 1.0, "+": 1.0, "W": 1.0, "U": 1.0, "F": 1.0, "=": 0.5, "D": 0.5, "H": 0.5}


class PairingError(InputError):
    pass


class Round:
    def __init__(self, event: Any = "", round_no: Any = "", date: str = "") -> None:
        self.event = event
        self.round = str(round_no)
        self.date = date
        self.boards = {}        # board number -> {"white", "black", "wid", "bid"}
        self.assign = {}        # clock name (id, port, station/clock) -> board number
        self.players = {}       # TRF start rank -> its 001 line (for the TRF out)

    def add(self, board: int, white: str, black: str, wid: str = "", bid: str = "",
            clock: str = "") -> None:
        if board in self.boards:
            raise PairingError("board %d is paired twice" % board)
        self.boards[board] = {"white": white, "black": black, "wid": wid, "bid": bid}
        if clock:
            self.assign_clock(clock, board)

    def assign_clock(self, clock: str, board: int) -> None:
        if clock in self.assign and self.assign[clock] != board:
            raise PairingError("clock %s is on board %d and board %d"
                               % (clock, self.assign[clock], board))
        self.assign[clock] = board

    def board_for(self, clk: str, port: Any = None, station: str | None = None) -> int | None:
        for name in (clk, port, "%s/%s" % (station, clk)):
            if name and name in self.assign:
                return self.assign[name]
        return None

    def pairing(self, board: int) -> dict[str, Any] | None:
        return self.boards.get(board)

    def headers(self, board: int) -> dict[str, str]:
        """PGN headers of a board's game."""
        p = self.boards.get(board) or {}
        return {"Event": self.event or "?", "Round": self.round or "?",
                "Board": str(board), "White": p.get("white") or "?",
                "Black": p.get("black") or "?", "Date": _pgn_date(self.date)}


def _pgn_date(text: str) -> str:
    text = (text or "").strip().replace("-", ".").replace("/", ".")
    return text if len(text) == 10 else "????.??.??"


def _board_no(text: str, where: str) -> int:
    try:
        n = int(str(text).strip())
    except ValueError:
        raise PairingError("%s: board %r is not a number" % (where, text)) from None
    if n < 1:
        raise PairingError("%s: board %d: boards count from 1" % (where, n))
    return n


# ---- in ----------------------------------------------------------------------------------
# Column names as the pairing programs write them -> ours (Swiss-Manager's pairing list
# export: "Bo.;White;Black", semicolons).
ALIASES = {"bo.": "board", "bo": "board", "brd": "board", "brd.": "board", "table": "board",
           "rd.": "round", "rd": "round"}


def _dialect(text: str) -> Any:
    """The CSV's separator: the first of `;`, tab, `,` in its header line (Swiss-Manager
    writes `;`)."""
    head = text.lstrip().split("\n", 1)[0]
    for sep in (";", "\t", ","):
        if sep in head:
            return sep
    return ","


def read_csv(text: str, event: Any = "", round_no: Any = "") -> Round:
    try:
        rows = list(csv.DictReader(io.StringIO(text), delimiter=_dialect(text)))
    except csv.Error as e:
        raise PairingError("not a pairing CSV (%s)" % e) from None
    if not rows:
        raise PairingError("no pairing in the CSV (a header row, then a row a board)")
    cols = {}
    for c in rows[0].keys():
        if c:
            name = c.strip().lower()
            cols.setdefault(ALIASES.get(name, name), c)
    for need in ("board", "white", "black"):
        if need not in cols:
            raise PairingError("the CSV has no %r column (it has: %s)"
                               % (need, ", ".join(cols) or "none"))

    def get(row: Any, name: str) -> str:
        c = cols.get(name)
        v = row.get(c) if c else ""
        return v.strip() if isinstance(v, str) else ""

    first = rows[0]
    r = Round(event or get(first, "event"), round_no or get(first, "round"), get(first, "date"))
    for i, row in enumerate(rows, start=2):
        if not any(isinstance(v, str) and v.strip() for v in row.values()):
            continue   # a row of empty cells (";;;" at the end of a Swiss-Manager list)
        r.add(_board_no(get(row, "board").rstrip("."), "line %d" % i), get(row, "white"),
              get(row, "black"), get(row, "white_id"), get(row, "black_id"), get(row, "clock"))
    if not r.boards:
        raise PairingError("no pairing in the CSV (a header row, then a row a board)")
    return r


def _col(line: str, a: int, b: int) -> str:
    """Columns a..b (1-based, inclusive) of a TRF line."""
    return line[a - 1:b].strip()


def _block(line: str, rnd: Any) -> Any:
    """Round rnd's (opponent, colour, result) of a 001 line, or None."""
    start = 92 + (rnd - 1) * 10
    if len(line) < start:
        return None
    opp = line[start - 1:start + 3].strip()
    colour = line[start + 4:start + 5].strip().lower()
    result = line[start + 6:start + 7].strip().upper()
    return opp, colour, result


def read_trf(text: str, round_no: Any = None) -> Round:
    players = {}
    event = date = ""
    for n, line in enumerate(text.splitlines(), start=1):
        code = line[:3]
        if code == "012":
            event = line[4:].strip()
        elif code == "042":
            date = line[4:].strip()
        elif code == "001":
            try:
                rank = int(_col(line, 5, 8))
            except ValueError:
                raise PairingError("TRF line %d: no start rank in columns 5-8" % n) from None
            players[rank] = line
    if not players:
        raise PairingError("no player (001 line) in the TRF file")
    rounds = max((len(line) - 91 + 9) // 10 for line in players.values())
    if round_no is None:   # the last round anyone is paired in
        round_no = 0
        for rnd in range(1, rounds + 1):
            if any((_block(line, rnd) or ("", "", ""))[1] in ("w", "b")
                   for line in players.values()):
                round_no = rnd
        if not round_no:
            raise PairingError("the TRF file pairs nobody: give --round N")
    r = Round(event, round_no, date)
    r.players = players
    pairs = []
    for rank, line in players.items():
        blk = _block(line, int(round_no))
        if not blk or blk[1] != "w":
            continue
        try:
            opp = int(blk[0])
        except ValueError:
            continue
        if opp not in players:
            raise PairingError("TRF: player %d meets %d, who is not in the file"
                               % (rank, opp))
        pairs.append((rank, opp))
    if not pairs:
        raise PairingError("nobody has White in round %s of the TRF file" % round_no)

    def before(rank: int) -> Any:
        s = 0.0
        for rnd in range(1, int(round_no)):
            blk = _block(players[rank], rnd)
            s += SCORE.get(blk[2], 0.0) if blk else 0.0
        return s

    def order(pair: Any) -> Any:
        a, b = before(pair[0]), before(pair[1])
        return (-max(a, b), -(a + b), min(pair))

    for board, (w, b) in enumerate(sorted(pairs, key=order), start=1):
        r.add(board, _col(players[w], 15, 47), _col(players[b], 15, 47), str(w), str(b))
    return r


def load(path: str, fmt: str | None = None, event: Any = "", round_no: Any = None) -> Round:
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise PairingError("cannot read %s (%s)" % (path, e.strerror)) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:   # Swiss-Manager and Vega on Windows write cp1252
        text = raw.decode("cp1252", errors="replace")
    text = text.replace("\r\n", "\n").replace("\r", "\n")   # as universal newlines read it
    fmt = fmt or ("trf" if path.lower().endswith((".trf", ".txt")) or
                  text.lstrip().startswith("012") else "csv")
    if fmt == "trf":
        r = read_trf(text, round_no)
        if event:
            r.event = event
        return r
    return read_csv(text, event, round_no or "")


# ---- out -----------------------------------------------------------------------------------
def _ms_text(ms: int) -> str:
    from chessclock.timetext import clock_text

    return clock_text(max(0, int(ms)), millis=True, hours=True)


def decided(body: dict[str, Any]) -> Any:
    """What a clock's message says about the game: (result, reason) or ("*", "")."""
    res = body.get("res") or ""
    if res in ("1-0", "0-1", "1/2-1/2"):   # entered on the clock or by the host (ACT 12)
        return res, "entered on the clock"
    order = body.get("fo") or ""
    if not order:
        return "*", ""
    first = order[0]
    side = "White" if first == "w" else "Black"
    at = body.get(first + "f", -1)
    reason = "%s's flag fell first (at %s on the clock's time line)" % (side, _ms_text(at))
    if len(order) > 1:
        reason += "; both flags fell"
    return ("0-1" if first == "w" else "1-0"), reason + (
        ": lost on time unless the opponent cannot mate (Art. 6.9)")


def results(rnd: Any, bodies_by_board: dict[int, dict[str, Any]]) -> list[dict[str, Any]]:
    """[row dict] a board: round, board, players, result, reason, clock."""
    rows = []
    boards = sorted(set(rnd.boards) | set(bodies_by_board)) if rnd else sorted(bodies_by_board)
    for n in boards:
        body = bodies_by_board.get(n) or {}
        # the file's pairing, else what the clock was given (`chessclock pairings push`)
        p = (rnd.pairing(n) if rnd else None) or {"white": body.get("wn", ""),
                                                   "black": body.get("bn", "")}
        result, reason = decided(body) if body else ("*", "no clock reported")
        rows.append({"round": rnd.round if rnd else "", "board": n,
                     "white": p.get("white", ""), "black": p.get("black", ""),
                     "white_id": p.get("wid", ""), "black_id": p.get("bid", ""),
                     "result": result, "reason": reason, "clock": body.get("clk", ""),
                     "white_moves": body.get("wm", ""), "black_moves": body.get("bm", "")})
    return rows


FORMULA = ("=", "+", "-", "@", "\t", "\r")   # a spreadsheet reads these as a formula


def cell(value: Any) -> str:
    """A CSV cell a spreadsheet shows as text: one that starts like a formula
    (`=HYPERLINK(...)`, `+`, `-`, `@`, tab, CR) gets a `'` before it (OWASP's advice), and
    a line break inside it becomes a space (the row stays one line)."""
    if not isinstance(value, str):
        return value
    if value.startswith(FORMULA):
        value = "'" + value
    return value.replace("\r", " ").replace("\n", " ")


def results_csv(rows: list[dict[str, Any]]) -> Any:
    out = io.StringIO()
    fields = ["round", "board", "white", "black", "white_id", "black_id", "result", "reason",
              "clock", "white_moves", "black_moves"]
    w = csv.DictWriter(out, fieldnames=fields, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: cell(v) for k, v in r.items()})
    return out.getvalue()


def _with_points(line: str) -> str:
    """The 001 line with its points (columns 81-84) the sum of its rounds' results."""
    rounds = (len(line) - 91 + 9) // 10
    pts = sum(SCORE.get(blk[2], 0.0) for blk in (_block(line, n) for n in range(1, rounds + 1))
              if blk)
    return line[:80] + "%4.1f" % pts + line[84:]


def results_trf(rnd: Any, rows: list[dict[str, Any]]) -> Any:
    """TRF 001 lines of the players of decided games, this round's block filled (the
    player's own line when the pairings came as TRF, else a line with the name only)."""
    out = []
    rno = int(rnd.round) if rnd and str(rnd.round).isdigit() else 1
    for r in rows:
        if r["result"] == "*":
            continue
        wr, br = {"1-0": ("1", "0"), "0-1": ("0", "1")}.get(r["result"], ("=", "="))
        for me, opp, colour, res, name in ((r["white_id"], r["black_id"], "w", wr, r["white"]),
                                           (r["black_id"], r["white_id"], "b", br, r["black"])):
            try:
                rank, orank = int(me), int(opp)
            except ValueError:
                continue   # no start ranks (CSV without ids): the CSV says it
            base = (rnd.players.get(rank) if rnd else None) or \
                ("001 %4d%s%-33s" % (rank, " " * 6, name[:33]))
            start = 92 + (rno - 1) * 10
            base = base.ljust(start - 1)
            block = "%4d %s %s" % (orank, colour, res)
            line = base[:start - 1] + block + base[start - 1 + len(block):].rstrip()
            out.append(_with_points(line))
    return "\n".join(out) + ("\n" if out else "")
