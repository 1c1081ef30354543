"""`chessclock log verify|show|export`: the clock's event log on the arbiter's laptop.

FILE is a log as stored on the clock (`log.bin`: storage.py's framed records) or as
`chessclock log pull` saves it (the same framing). The record format is
clockcore/eventlog.py (docs/EVENT-LOG.md).

verify: every frame's CRC, the sequence numbers and the hash chain, then each game replayed
through the engine (clockcore.engine.Clock with the header's control and options): every
engine event the log recorded must be one the engine produces, at the same instant, with
the same times and counters. Exit 0 when all holds, 1 otherwise (each problem printed).
"""

import csv
import io
import json

from chessclock.simulate import Replay
from clockcore import engine as E
from clockcore import eventlog as L
from clockcore.control import Stage

DRIVERS = (0, 1, 5, 6, 7, 8, 9, 12, 13, 14, 15)   # events an action causes
SPONTANEOUS = (3, 4, 10, 11, 16)                  # events time (or an action) brings


class Result:
    def __init__(self):
        self.records = []
        self.problems = []   # what makes verify fail
        self.notes = []      # what an arbiter should know (torn write dropped, cut, ...)
        self.games = []      # [Game]
        self.events = []     # export dicts, in log order


class Game:
    def __init__(self, rec):
        self.header = rec.header
        self.first_seq = rec.seq
        self.plies = []      # [(side, clk_ms, emt_ms, seq)]
        self.replay = None


class _Engine:
    """One game's replay: a simulate.Replay (its dicts) plus the values eventlog records."""

    def __init__(self, header):
        self.r = Replay(header["control"], inc_at_turn_start=header["inc_at_turn_start"],
                        stage_on_flag=header["stage_on_flag"], freeze=header["freeze"])
        self.clock = self.r.clock
        self.clock.listener = self.on_event
        self.queue = []

    def on_event(self, ev, side, t, arg):
        self.r.on_event(ev, side, t, arg)
        x = [0, 0, 0, 0, 0, 0]
        L.extras_into(self.clock, ev, side, 0, x)
        self.queue.append((ev, side, t, arg, self.clock.main[0], self.clock.main[1], x,
                           self.r.out[-1]))


def _mismatch(rec, got):
    """Why the engine's event `got` is not the recorded `rec`, or None."""
    ev, side, t, arg, w, b, x, _ = got
    if ev != rec.code:
        return "the engine gives %s, the log %s" % (E.EVENT_NAMES[ev], rec.name())
    if side != rec.side:
        return "side %d, the engine gives %d" % (rec.side, side)
    if t != rec.t:
        return "at %d ms, the engine gives %d ms" % (rec.t, t)
    if (w, b) != (rec.w, rec.b):
        return "times %d/%d ms, the engine gives %d/%d ms" % (rec.w, rec.b, w, b)
    k = 0
    for name in L.fields(rec.code):
        if name == "arg":
            if rec.fields["arg"] != arg:
                return "arg %d, the engine gives %d" % (rec.fields["arg"], arg)
            continue
        if name != "reason" and rec.fields[name] != x[k]:
            return "%s %d, the engine gives %d" % (name, rec.fields[name], x[k])
        k += 1
    return None


def _act(c, rec):
    t = rec.t
    s = rec.side
    code = rec.code
    if code == 0:
        c.start(t, s)
    elif code == 1:
        c.press(s, t)
    elif code == 5:
        c.pause(t)
    elif code == 6:
        c.resume(t, s)
    elif code == 7:
        c.adjust(s, rec.arg, t)
    elif code == 8:
        c.set_moves(s, rec.arg, t)
    elif code == 9:
        c.end(t)
    elif code == 12:
        c.undo_press(t)
    elif code == 13:
        c.set_stage(s, rec.arg, t)
    elif code == 14:
        f = rec.fields
        c.add_stage(s, Stage(rec.arg, f["moves"], f["inc_ms"], f["delay_ms"],
                             f["delay_kind"]), t)
    elif code == 15:
        c.set_time(s, rec.arg, t)


def _rec_main(rec, s):
    return rec.w if s == 0 else rec.b


def _adopt(c, rec, res):
    """A restoring boot: the clock's saved state replaces the replay's (a power cut)."""
    snap = rec.snapshot
    diffs = []
    for s, name in ((0, "white"), (1, "black")):
        if c.moves[s] != snap[name + "_moves"]:
            diffs.append("%s moves %d -> %d" % (name, c.moves[s], snap[name + "_moves"]))
    if diffs:
        res.notes.append("seq %d: power restored; the saved state differs from the log "
                         "(events of the last write lost in the cut): %s"
                         % (rec.seq, ", ".join(diffs)))
    c.main[0] = rec.w
    c.main[1] = rec.b
    for name in L.SNAPSHOT:
        if name.startswith("flag_order"):
            c.flag_order[int(name[-1])] = snap[name]
        else:
            setattr(c, name, snap[name])
    for s, pre in ((0, "white_"), (1, "black_")):
        for name in L.SNAPSHOT_SIDE:
            getattr(c, name)[s] = snap[pre + name]
        # out of time: saved since the log has it; before, a flag down and no time
        out = snap.get(pre + "out")
        c.out[s] = bool(out) if out is not None else c.flag_at[s] >= 0 and _rec_main(rec, s) == 0
    c.undo_opp_gain = snap.get("undo_opp_gain", 0)


def _app_dict(rec):
    d = {"t_ms": rec.t, "type": rec.name()}
    if rec.side != E.NOBODY:
        d["side"] = E.SIDE_NAMES[rec.side]
    if rec.code == L.EV_BOOT:
        d["restored"] = rec.arg == 1
    elif rec.code == L.EV_HEADER:
        h = rec.header
        d.update({"clock_id": h["clock_id"], "firmware": h["firmware"], "spec": h["spec"],
                  "time_control": _tc(h["control"]), "white_left": h["white_left"],
                  "wall_s": h["wall_s"], "freeze": h["freeze"],
                  "stage_on_flag": h["stage_on_flag"],
                  "inc_at_turn_start": h["inc_at_turn_start"]})
    elif rec.code == 2:
        d["state"] = E.STATE_NAMES[rec.arg] if 0 <= rec.arg < 5 else rec.arg
    else:
        d["arg"] = rec.arg
    d["white_ms"] = rec.w
    d["black_ms"] = rec.b
    return d


def _tc(control):
    from clockcore import notation

    try:
        return notation.format_pgn(control)
    except ValueError:
        return notation.format_readable(control)


def verify(data, allow_torn_end=False):
    """Check a log file's bytes; a Result (problems empty when it verifies)."""
    res = Result()
    frames, bad = L.unframe(data)
    reader = L.Reader()
    end = len(data)
    for off, n in bad:
        if off + n == end:
            msg = ("the last %d bytes (from byte %d) are not a complete record: a write cut "
                   "by a power failure, or changed bytes" % (n, off))
            (res.notes if allow_torn_end else res.problems).append(msg)
        else:
            res.notes.append("bytes %d-%d are no valid record (a torn write); checked by "
                             "the chain across them" % (off, off + n - 1))
    game = None
    eng = None
    broken = False
    for off, payload in frames:
        try:
            rec = reader.decode(payload)
        except ValueError as e:
            res.problems.append("byte %d: %s" % (off, e))
            reader.chain = None
            eng = None
            continue
        rec.offset = off
        res.records.append(rec)
        if rec.link is False:
            res.problems.append("seq %d (byte %d): the chain or sequence is broken: a record "
                                "before it was changed, removed or reordered" % (rec.seq, off))
        elif rec.link is None and not res.problems and len(res.records) == 1:
            res.notes.append("the log starts at seq %d (older games removed): its first "
                             "record anchors the chain" % rec.seq)
        if rec.code == L.EV_HEADER:
            if eng is not None and eng.queue:
                _left_over(eng, res)
            game = Game(rec)
            res.games.append(game)
            broken = False
            try:
                eng = _Engine(rec.header)
            except ValueError as e:
                res.problems.append("seq %d: the header's control does not run: %s"
                                    % (rec.seq, e))
                eng = None
                broken = True
            if eng is not None and (eng.clock.main[0], eng.clock.main[1]) != (rec.w, rec.b):
                res.problems.append("seq %d: header times %d/%d, the control gives %d/%d"
                                    % (rec.seq, rec.w, rec.b, eng.clock.main[0],
                                       eng.clock.main[1]))
            game.replay = eng
            res.events.append(dict(_app_dict(rec), seq=rec.seq))
            continue
        if eng is None or broken:
            res.events.append(dict(_app_dict(rec), seq=rec.seq))
            if rec.code < 32 and not broken:
                res.problems.append("seq %d: a clock event with no game header before it"
                                    % rec.seq)
            continue
        err = _step(eng, game, rec, res)
        if err:
            res.problems.append("seq %d (byte %d) %s at %d ms: %s"
                                % (rec.seq, off, rec.name(), rec.t, err))
            broken = True
    if eng is not None and not broken and eng.queue:
        _left_over(eng, res)
    return res


def _left_over(eng, res):
    names = ", ".join("%s at %d ms" % (E.EVENT_NAMES[q[0]], q[2]) for q in eng.queue)
    res.problems.append("the engine gives events the log lacks: %s" % names)
    eng.queue = []


def _step(eng, game, rec, res):
    c = eng.clock
    q = eng.queue
    code = rec.code
    if code >= 32:
        if q:
            return "the engine gives %s first" % E.EVENT_NAMES[q[0][0]]
        if code == L.EV_BOOT and rec.arg == 1:
            _adopt(c, rec, res)
        res.events.append(dict(_app_dict(rec), seq=rec.seq))
        return None
    if code == 2:  # an ignored press changes nothing: the clock's state and times then
        if q:
            return "the engine gives %s first" % E.EVENT_NAMES[q[0][0]]
        c.tick(rec.t)
        if q:
            return "the engine gives %s first" % E.EVENT_NAMES[q[0][0]]
        if (c.main[0], c.main[1]) != (rec.w, rec.b) or c.state != rec.arg:
            return "state %d, times %d/%d; the engine has %d, %d/%d" % (
                rec.arg, rec.w, rec.b, c.state, c.main[0], c.main[1])
        res.events.append(dict(_app_dict(rec), seq=rec.seq))
        return None
    used = -1
    if not q:
        try:
            if code in DRIVERS:
                if code == 1:
                    c.tick(rec.t)
                    if q:
                        return "the engine gives %s first" % E.EVENT_NAMES[q[0][0]]
                    if c.state == E.RUNNING and c.turn == rec.side:
                        used = c.turn_used
                _act(c, rec)
            else:
                c.tick(rec.t)
        except ValueError as e:
            return "the engine refuses it: %s" % e
    if not q:
        return "the engine gives no such event"
    got = q.pop(0)
    why = _mismatch(rec, got)
    if why:
        return why
    d = dict(got[7])
    d["seq"] = rec.seq
    if code in L.CORRECTIONS:
        r = rec.fields.get("reason", 0)
        d["reason"] = L.REASONS[r] if 0 <= r < len(L.REASONS) else r
    if code == 1:
        if used >= 0:
            d["emt_ms"] = used
        game.plies.append((rec.side, rec.w if rec.side == 0 else rec.b, used, rec.seq))
    elif code == 12 and game.plies and game.plies[-1][0] == rec.side:
        game.plies.pop()
    res.events.append(d)
    return None


# ---- output --------------------------------------------------------------------------
def _hms(ms, frac=True):
    s, r = divmod(max(ms, 0), 1000)
    h, s2 = divmod(s, 3600)
    m, s3 = divmod(s2, 60)
    out = "%d:%02d:%02d" % (h, m, s3)
    if r and frac:
        out += (".%03d" % r).rstrip("0")
    return out


def table(res):
    lines = ["%8s %12s  %-13s %-5s %12s %12s %5s  %s"
             % ("seq", "t", "event", "side", "white", "black", "moves", "details")]
    for d in res.events:
        side = d.get("side", "")
        moves = d.get("moves", "")
        skip = ("seq", "t_ms", "type", "side", "white_ms", "black_ms", "moves")
        details = " ".join("%s=%s" % (k, v) for k, v in d.items() if k not in skip)
        lines.append("%8d %12s  %-13s %-5s %12s %12s %5s  %s"
                     % (d["seq"], _hms(d["t_ms"]), d["type"], side, _hms(d["white_ms"]),
                        _hms(d["black_ms"]), moves, details))
    return "\n".join(lines) + "\n"


CSV_FIELDS = ("seq", "t_ms", "type", "side", "white_ms", "black_ms", "moves", "stage",
              "credit_ms", "emt_ms", "added_ms", "presses_in_stage", "delta_ms", "reason",
              "state", "arg")


def to_csv(res):
    out = io.StringIO()
    w = csv.DictWriter(out, fieldnames=list(CSV_FIELDS) + ["details"], lineterminator="\n")
    w.writeheader()
    for d in res.events:
        row = {k: d[k] for k in CSV_FIELDS if k in d}
        extra = {k: v for k, v in d.items() if k not in CSV_FIELDS}
        if extra:
            row["details"] = json.dumps(extra, sort_keys=True)
        w.writerow(row)
    return out.getvalue()


def to_jsonl(res):
    return "".join(json.dumps(d) + "\n" for d in res.events)


def to_pgn(game, moves_pgn=None):
    """The game as PGN: [%clk] (time left after the move) and [%emt] (time used on it) per
    move, TimeControl tag; merged with a PGN's moves when given (else null moves)."""
    import chess.pgn

    if moves_pgn is not None:
        pg = chess.pgn.read_game(io.StringIO(moves_pgn))
        if pg is None:
            raise ValueError("no game in the PGN given")
        moves = list(pg.mainline_moves())
        out = chess.pgn.Game()
        for k, v in pg.headers.items():
            out.headers[k] = v
        out.setup(pg.board())
    else:
        out = chess.pgn.Game()
        moves = None
    h = game.header
    out.headers["TimeControl"] = _tc_pgn(h["control"])
    out.headers["Annotator"] = "chessclock %s, clock %s" % (h["firmware"], h["clock_id"])
    node = out
    n = len(game.plies) if moves is None else min(len(game.plies), len(moves))
    for i in range(n):
        side, clk, emt, _ = game.plies[i]
        mv = chess.Move.null() if moves is None else moves[i]
        node = node.add_variation(mv)
        c = "[%%clk %s]" % _hms(clk)
        if emt >= 0:
            c += " [%%emt %s]" % _hms(emt)
        node.comment = c
    if moves is not None and len(moves) > n:
        for mv in moves[n:]:
            node = node.add_variation(mv)
    return str(out) + "\n"


def _tc_pgn(control):
    from clockcore import notation

    try:
        return notation.format_pgn(control)
    except ValueError:
        return "?"


# ---- the command ---------------------------------------------------------------------
def _read(path, stderr):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        stderr.write("chessclock log: cannot read %s: %s\n" % (path, e))
        return None


def add_arguments_verify(p):
    p.add_argument("file", metavar="FILE", help="log.bin from the clock or `log pull`")
    p.add_argument("--allow-torn-end", action="store_true",
                   help="accept an incomplete last record (a flash read from a clock whose "
                        "power failed during the last write)")


def run_verify(args, stdout, stderr):
    data = _read(args.file, stderr)
    if data is None:
        return 2
    res = verify(data, args.allow_torn_end)
    for n in res.notes:
        stdout.write("note: %s\n" % n)
    for p in res.problems:
        stdout.write("FAIL: %s\n" % p)
    presses = sum(1 for r in res.records if r.code == 1)
    stdout.write("%s: %d records, %d games, %d presses replayed: %s\n"
                 % (args.file, len(res.records), len(res.games), presses,
                    "FAILED" if res.problems else "verified"))
    return 1 if res.problems else 0


def add_arguments_show(p):
    p.add_argument("file", metavar="FILE", help="log.bin from the clock or `log pull`")


def run_show(args, stdout, stderr):
    data = _read(args.file, stderr)
    if data is None:
        return 2
    res = verify(data, True)
    stdout.write(table(res))
    for p in res.problems:
        stdout.write("FAIL: %s\n" % p)
    return 1 if res.problems else 0


def add_arguments_export(p):
    p.add_argument("file", metavar="FILE", help="log.bin from the clock or `log pull`")
    p.add_argument("--format", choices=("jsonl", "csv", "pgn"), default="jsonl")
    p.add_argument("--pgn", metavar="GAME.pgn", help="the game's moves, merged into PGN")
    p.add_argument("--game", type=int, default=0,
                   help="PGN: which game of the log, from 1 (default: the last)")


def run_export(args, stdout, stderr):
    data = _read(args.file, stderr)
    if data is None:
        return 2
    res = verify(data, True)
    for p in res.problems:
        stderr.write("chessclock log export: warning: %s\n" % p)
    if args.format == "jsonl":
        stdout.write(to_jsonl(res))
    elif args.format == "csv":
        stdout.write(to_csv(res))
    else:
        if not res.games:
            stderr.write("chessclock log export: no game in %s\n" % args.file)
            return 2
        if not 0 <= args.game <= len(res.games):
            stderr.write("chessclock log export: the log has %d games\n" % len(res.games))
            return 2
        game = res.games[args.game - 1] if args.game else res.games[-1]
        text = None
        if args.pgn:
            try:
                with open(args.pgn, encoding="utf-8") as f:
                    text = f.read()
            except OSError as e:
                stderr.write("chessclock log export: cannot read %s: %s\n" % (args.pgn, e))
                return 2
        try:
            stdout.write(to_pgn(game, text))
        except ValueError as e:
            stderr.write("chessclock log export: %s\n" % e)
            return 2
    return 1 if res.problems else 0
