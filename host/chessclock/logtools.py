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
from clockcore import events as EV
from clockcore import framing as F
from clockcore import logread as LR
from clockcore.control import Stage

DRIVERS = (0, 1, 5, 6, 7, 8, 9, 12, 13, 14, 15)   # events an action causes
SPONTANEOUS = (3, 4, 10, 11, 16)                  # events time (or an action) brings


HEAD_MAGIC = b"HD"


class Result:
    def __init__(self):
        self.records = []
        self.problems = []   # what makes verify fail
        self.notes = []      # what an arbiter should know (torn write dropped, cut, ...)
        self.games = []      # [Game]
        self.events = []     # export dicts, in log order
        self.heads = []      # [Head] the clock's signed heads found in the file, in order
        self.auth = None     # the head that authenticates the log (a Head) when it does
        self.auth_problems = []  # why the log is not authenticated (see verify())

    def played(self):
        """Games in which a clock was started (not every control set)."""
        return [g for g in self.games if g.started]

    def status(self):
        """One phrase: what the verification established."""
        if self.problems:
            return "FAILED"
        if self.auth_problems:
            return "INTACT, NOT AUTHENTICATED"
        return "AUTHENTIC"


class Head:
    """The clock's signed head (`chessclock log pull` stores the one of each pull, framed
    as b"HD" + length + CRC-32 + "TEXT MAC")."""

    def __init__(self, offset, text, mac):
        self.offset = offset
        self.text = text
        self.mac = mac
        parts = text.split(" ")
        if len(parts) != 7 or parts[0] != "ccl-head" or parts[1] != "1":
            raise ValueError("not a signed head")
        self.clock = parts[2]
        self.seq = int(parts[3])
        self.chain = bytes.fromhex(parts[4])
        self.t = int(parts[5])
        self.wall = int(parts[6])

    def check(self, key):
        """True when `mac` is the clock's HMAC with this arbiter key (32 bytes)."""
        import hmac

        from clockcore import protocol as P
        if self.mac == "-" or key is None:
            return False
        log_key = P.hmac_sha256(key, b"chessclock log head key")
        want = P.hmac_sha256(log_key, self.text.encode()).hex()
        return hmac.compare_digest(want, self.mac.lower())

    def describe(self):
        when = ("wall clock %s UTC" % _utc(self.wall)) if self.wall >= 0 else \
            "wall clock unknown"
        return "clock %s, up to seq %d, clock time %s, %s" % (
            self.clock, self.seq, _hms(self.t, False), when)


def _utc(wall_s):
    import datetime
    try:
        return datetime.datetime.fromtimestamp(wall_s, datetime.timezone.utc).strftime(
            "%Y-%m-%d %H:%M:%S")
    except (OverflowError, OSError, ValueError):
        return "?"


def _iso(wall_s):
    import datetime
    try:
        return datetime.datetime.fromtimestamp(wall_s, datetime.timezone.utc).strftime(
            "%Y-%m-%dT%H:%M:%SZ")
    except (OverflowError, OSError, ValueError):
        return None


def head_frame(text, mac):
    """The bytes `log pull` appends for a signed head: a frame (clockcore/framing.py) with
    the magic b"HD" in the log file."""
    return F.frame(("%s %s" % (text, mac)).encode("ascii"), HEAD_MAGIC)


def find_heads(data):
    """[(offset, length, Head)] of the valid signed-head frames in a log file's bytes."""
    out = []
    pos = data.find(HEAD_MAGIC)
    while pos >= 0:
        end = F.frame_end(data, pos, HEAD_MAGIC)
        if end:
            try:
                text, mac = bytes(data[pos + F.HEADER_SIZE:end]).decode("ascii").rsplit(" ", 1)
                out.append((pos, end - pos, Head(pos, text, mac)))
                pos = data.find(HEAD_MAGIC, end)
                continue
            except ValueError:
                pass
        pos = data.find(HEAD_MAGIC, pos + 1)
    return out


def _minus_heads(bad, heads):
    """Bad regions (bytes in no log record) less the signed-head frames in them."""
    out = []
    for off, n in bad:
        end = off + n
        pos = off
        for h_off, h_len, _ in heads:
            if h_off == pos and h_off + h_len <= end:
                pos = h_off + h_len
        # anything else in the region is bytes in no frame
        if pos < end:
            out.append((pos, end - pos))
    return out


class Game:
    def __init__(self, rec):
        self.header = rec.header
        self.first_seq = rec.seq
        self.started = False
        self.flagged = False
        self.ended = False
        self.number = 0      # from 1, in the log
        self.flag_side = -1  # the side whose flag fell first
        self.utc_start = None  # ISO UTC of the start (else of the header), when known
        if rec.header["wall_s"] > 0:
            self.utc_start = _iso(rec.header["wall_s"])
        self.plies = []      # [(side, clk_ms, emt_ms, seq)]
        self.before = (0, 0)  # moves (White, Black) made before the log's first ply: an
                              # adjourned game loaded from an earlier session (record 51)
        self.replay = None
        self.result = None   # the result entered on the clock or by the host ("1-0", ...)
        self.pairing = None  # the round's pairing the clock logged (code 62): board, names


class _Engine:
    """One game's replay: a simulate.Replay (its dicts) plus the values eventlog records."""

    def __init__(self, header):
        self.r = Replay(header["control"], inc_at_turn_start=header["inc_at_turn_start"],
                        stage_on_flag=header["stage_on_flag"], freeze=header["freeze"],
                        move_limit=header.get("move_limit", 0))
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
        return "the engine gives %s, the log %s" % (LR.NAMES[ev], rec.name())
    if side != rec.side:
        return "side %d, the engine gives %d" % (rec.side, side)
    if t != rec.t:
        return "at %d ms, the engine gives %d ms" % (rec.t, t)
    if (w, b) != (rec.w, rec.b):
        return "times %d/%d ms, the engine gives %d/%d ms" % (rec.w, rec.b, w, b)
    k = 0
    for name in EV.fields(rec.code):
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
    if code == EV.EV_START:
        c.start(t, s)
    elif code == EV.EV_PRESS:
        c.press(s, t)
    elif code == EV.EV_PAUSE:
        c.pause(t)
    elif code == EV.EV_RESUME:
        c.resume(t, s)
    elif code == EV.EV_ADJUST:
        c.adjust(s, rec.arg, t)
    elif code == EV.EV_SET_MOVES:
        c.set_moves(s, rec.arg, t)
    elif code == EV.EV_END:
        c.end(t)
    elif code == EV.EV_UNDO:
        c.undo_press(t)
    elif code == EV.EV_SET_STAGE:
        c.set_stage(s, rec.arg, t)
    elif code == EV.EV_ADD_STAGE:
        f = rec.fields
        c.add_stage(s, Stage(rec.arg, f["moves"], f["inc_ms"], f["delay_ms"],
                             f["delay_kind"]), t)
    elif code == EV.EV_SET_TIME:
        c.set_time(s, rec.arg, t)


def _rec_main(rec, s):
    return rec.w if s == 0 else rec.b


def _adopt_adjourned(c, rec):
    """An adjourned game loaded (51): the header gave its control; the sealed state and
    the stages an arbiter added before the adjournment replace the replay's."""
    snap = rec.snapshot
    for s, pre in ((0, "white_"), (1, "black_")):
        c.stages[s] = list(c.sides[s].stages) + [Stage(*v) for v in snap[pre + "stages_added"]]
        if not 0 <= snap[pre + "stage"] < len(c.stages[s]):
            raise ValueError("its stage %d is not in its control" % (snap[pre + "stage"] + 1))
    _adopt(c, rec, None)


def _adopt(c, rec, res):
    """A restoring boot: the clock's saved state replaces the replay's (a power cut)."""
    snap = rec.snapshot
    diffs = []
    for s, name in ((0, "white"), (1, "black")):
        if c.moves[s] != snap[name + "_moves"]:
            diffs.append("%s moves %d -> %d" % (name, c.moves[s], snap[name + "_moves"]))
    if diffs and res is not None:
        res.notes.append("seq %d: power restored; the saved state differs from the log "
                         "(events of the last write lost in the cut): %s"
                         % (rec.seq, ", ".join(diffs)))
    c.main[0] = rec.w
    c.main[1] = rec.b
    for name in LR.SNAPSHOT:
        if name.startswith("flag_order"):
            c.flag_order[int(name[-1])] = snap[name]
        else:
            setattr(c, name, snap[name])
    for s, pre in ((0, "white_"), (1, "black_")):
        for name in LR.SNAPSHOT_SIDE:
            getattr(c, name)[s] = snap[pre + name]
        # out of time: saved since the log has it; before, a flag down and no time
        out = snap.get(pre + "out")
        c.out[s] = bool(out) if out is not None else c.flag_at[s] >= 0 and _rec_main(rec, s) == 0
    c.undo_opp_gain = snap.get("undo_opp_gain", 0)


NO_ARTICLE = "-"   # a ground given without the rule's article (`adjust --reason` alone)
RAP_SPECS = ("fide-5min-1990", "5min-1990")   # the 1990 5-minute rules (RAP 10g)

REFUSALS = {8: "a change without the arbiter's key", 9: "a wrong key or mac, or no session",
            10: "a replayed request"}


def _app_dict(rec):
    d = {"t_ms": rec.t, "type": rec.name()}
    if rec.side != E.NOBODY:
        d["side"] = E.SIDE_NAMES[rec.side]
    if rec.code == EV.EV_BOOT:
        d["restored"] = rec.arg == EV.BOOT_RESTORED
        if rec.arg == EV.BOOT_RESTORE_FAILED:   # a saved game the clock could not read
            d["restore_failed"] = True
    elif rec.code == EV.EV_HEADER:
        h = rec.header
        d.update({"clock_id": h["clock_id"], "firmware": h["firmware"], "spec": h["spec"],
                  "time_control": _tc(h["control"]), "white_left": h["white_left"],
                  "wall_s": h["wall_s"], "freeze": h["freeze"],
                  "stage_on_flag": h["stage_on_flag"],
                  "inc_at_turn_start": h["inc_at_turn_start"]})
        if h.get("move_limit"):
            d["move_limit"] = h["move_limit"]
    elif rec.code == EV.EV_IGNORED:
        d["state"] = E.STATE_NAMES[rec.arg] if 0 <= rec.arg < 5 else rec.arg
    elif rec.code == EV.EV_AUTH_FAIL:
        d["refused"] = REFUSALS.get(rec.arg, "error %d" % rec.arg)
        d["count"] = rec.fields.get("count", 1)
    elif rec.code in (EV.EV_SEAL_START, EV.EV_ADJOURNED_LOADED):   # docs/ADJOURNMENT.md
        d["session"] = rec.arg
    elif rec.code in (EV.EV_SEAL_ALERT, EV.EV_SEALED, EV.EV_SEAL_CANCEL):
        d["sealing_ms"] = rec.arg
    elif rec.code in SESSION_CODES:
        _session_fields(rec, d)
    elif rec.code == EV.EV_PAIRING:   # `chessclock pairings push`
        d.update(rec.pairing)
    elif rec.code == EV.EV_PAIRING_CLEARED:
        d["board"] = rec.arg
    else:
        d["arg"] = rec.arg
    if rec.digest is not None:
        d["snapshot_sha256"] = rec.digest.hex()
    if rec.code == EV.EV_ADJOURNED_LOADED:
        snap = rec.snapshot
        d["to_move"] = E.SIDE_NAMES[snap["turn"]] if snap["turn"] in (0, 1) else snap["turn"]
        d["white_moves"] = snap["white_moves"]
        d["black_moves"] = snap["black_moves"]
    d["white_ms"] = rec.w
    d["black_ms"] = rec.b
    return d


# The session at the board (firmware/clockapp/session.py, docs/SESSION.md).
ST_NAMES = ("left lever", "right lever", "battery low", "no battery reading", "display",
            "cut short by the game's start")
BY_NAMES = LR.BY   # events.BY_*: who resumed
SESSION_CODES = (EV.EV_SELF_TEST, EV.EV_RESULT, EV.EV_INCIDENT, EV.EV_RESUMED_BY, EV.EV_ARBITER,
                 EV.EV_SCHEDULE, EV.EV_DEFAULT_TIME, EV.EV_ARRIVAL, EV.EV_LOW_TIME)


def selftest_failures(bits):
    """The names of a self-test's failure bits (eventlog.ST_*)."""
    return [name for i, name in enumerate(ST_NAMES) if bits & (1 << i)]


def _session_fields(rec, d):
    f = rec.fields
    a = rec.arg
    if rec.code == EV.EV_SELF_TEST:
        d["passed"] = a == 0
        d["failures"] = ", ".join(selftest_failures(a)) or "none"
        d["battery_mv"] = f.get("mv", -1)
        d["battery_pct"] = f.get("pct", -1)
    elif rec.code == EV.EV_RESULT:
        d["result"] = EV.RESULTS[a] if 0 <= a < len(EV.RESULTS) else "?"
        d["by"] = "host" if f.get("by") == EV.R_HOST else "clock"
    elif rec.code == EV.EV_INCIDENT:
        d["incident"] = a
        d["white_moves"] = f.get("wmoves", 0)
        d["black_moves"] = f.get("bmoves", 0)
    elif rec.code == EV.EV_RESUMED_BY:
        d["by"] = BY_NAMES[a] if 0 <= a < len(BY_NAMES) else a
    elif rec.code == EV.EV_ARBITER:
        d["menu"] = "opened" if a else "closed"
    elif rec.code == EV.EV_SCHEDULE:
        if a:
            d["scheduled_utc"] = _iso(a)
        else:
            d["scheduled_utc"] = "cleared"
        d["default_s"] = f.get("default_s", 0)
    elif rec.code == EV.EV_DEFAULT_TIME:
        d["default_s"] = a
    elif rec.code == EV.EV_ARRIVAL:
        d["after_start_ms"] = a
    elif rec.code == EV.EV_LOW_TIME:
        d["mark_ms"] = a


def rap_10g(own_ms, opp_ms):
    """RAP 10g (FIDE 5-minute rules, 1990): a player may claim a draw in an obviously drawn
    position with at least 30 s left, or with less than 30 s but more than the opponent."""
    return own_ms >= 30000 or own_ms > opp_ms


def _tc(control):
    from clockcore import notation

    try:
        return notation.format_pgn(control)
    except ValueError:
        return notation.format_readable(control)


def verify(data, allow_torn_end=False, key=None):
    """Check a log file's bytes; a Result. `problems` empty: the log is intact (every CRC,
    the sequence and the chain from its start, every game replays). `auth_problems` empty
    as well: it is authentic, i.e. the clock signed (with the arbiter's key `key`) a head
    that ends it, so nothing was changed, added or cut off after that head."""
    res = Result()
    heads = find_heads(data)
    res.heads = [h for _, _, h in heads]
    frames, bad = F.unframe(data)
    bad = _minus_heads(bad, heads)
    reader = LR.Reader()
    end = len(data)
    first_off = frames[0][0] if frames else end
    for off, n in bad:
        if off + n == end:
            msg = ("the last %d bytes (from byte %d) are not a complete record: a write cut "
                   "by a power failure, or changed bytes" % (n, off))
            (res.notes if allow_torn_end else res.problems).append(msg)
        elif off < first_off:
            res.problems.append("bytes %d-%d before the first record are no valid record: "
                                "the start of the log is damaged" % (off, off + n - 1))
        else:
            res.notes.append("bytes %d-%d are no valid record (a torn write); checked by "
                             "the chain across them" % (off, off + n - 1))
    game = None
    eng = None
    broken = False
    wall_ref = None     # (t, unix seconds) on this boot's time line, when the host gave it
    utc = {}
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
        if rec.code == EV.EV_BOOT:
            wall_ref = None     # a new time line
        elif rec.code == EV.EV_HEADER and rec.header["wall_s"] > 0:
            wall_ref = (rec.t, rec.header["wall_s"])
        elif rec.code == EV.EV_WALL_CLOCK:
            wall_ref = (rec.t, rec.arg)
        if wall_ref is not None:
            utc[rec.seq] = _iso(wall_ref[1] + (rec.t - wall_ref[0]) // 1000)
        if rec.link is False:
            res.problems.append("seq %d (byte %d): the chain or sequence is broken: a record "
                                "before it was changed, removed or reordered" % (rec.seq, off))
        elif len(res.records) == 1 and rec.seq != 0:
            if rec.anchor:
                res.notes.append("the log starts at seq %d (older games removed): its first "
                                 "header carries the chain before it" % rec.seq)
            else:
                res.problems.append("the log starts at seq %d, not at its beginning nor at "
                                    "a game: records before it are missing or damaged"
                                    % rec.seq)
        if rec.code == EV.EV_HEADER:
            if eng is not None and eng.queue:
                _left_over(eng, res)
            game = Game(rec)
            res.games.append(game)
            game.number = len(res.games)
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
        if game is not None:
            if rec.code == EV.EV_START:
                game.started = True
                game.utc_start = utc.get(rec.seq) or game.utc_start
            elif rec.code == EV.EV_FLAG and not game.flagged:
                game.flagged = True
                game.flag_side = rec.side
            elif rec.code == EV.EV_END:
                game.ended = True
            elif rec.code == EV.EV_RESULT and 0 <= rec.arg < len(EV.RESULTS):
                game.result = EV.RESULTS[rec.arg]
            elif rec.code == EV.EV_PAIRING:   # the last one given names the game's players
                game.pairing = rec.pairing
            elif rec.code == EV.EV_PAIRING_CLEARED:
                game.pairing = None
        if eng is None or broken:
            res.events.append(dict(_app_dict(rec), seq=rec.seq))
            if rec.code < EV.FIRST_APP_CODE and not broken:
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
    paused_at = None
    for d in res.events:
        if d["seq"] in utc:
            d["utc"] = utc[d["seq"]]
        # the stops for rulings (seed 5.1): how long each pause lasted, on its resume
        if d["type"] == "pause":
            paused_at = d["t_ms"]
        elif d["type"] in ("resume", "header", "boot"):
            if d["type"] == "resume" and paused_at is not None:
                d["paused_ms"] = d["t_ms"] - paused_at
            paused_at = None
    if not res.records:
        res.problems.append("no log record in it: not a clock's log (or an empty one)")
    elif res.records[0].seq != 0 and res.records[0].anchor:
        cut = res.records[0].seq
        if not any(r.code == EV.EV_LOG_PRUNED and r.arg == cut for r in res.records):
            res.problems.append("the log starts at seq %d but the clock recorded no removal "
                                "of older games up to there" % cut)
    _authenticate(res, heads, key)
    return res


def _authenticate(res, heads, key):
    """Is the log the clock's own, whole up to its last signed head?"""
    ap = res.auth_problems
    if not heads:
        ap.append("no signed head from the clock in the file: nothing proves that no "
                  "record was changed, added or cut off (pull it with `chessclock log pull`)")
        return
    by_seq = {}
    for r in res.records:
        by_seq.setdefault(r.seq, r)
    for _, _, h in heads:   # each head must match the record it names
        r = by_seq.get(h.seq)
        if h.seq >= 0 and (r is None or r.chain != h.chain):
            ap.append("the clock's head at byte %d names seq %d, which this file %s"
                      % (h.offset, h.seq, "lacks" if r is None else "holds changed"))
    last = heads[-1][2]
    if res.records:
        end_seq = res.records[-1].seq
        if last.seq > end_seq or (last.seq >= 0 and last.seq not in by_seq):
            ap.append("the clock's log went on to seq %d; this file ends at seq %d: records "
                      "are missing at the end (a cut log)" % (last.seq, end_seq))
        after = [r for r in res.records if r.offset > last.offset]
        if after:
            ap.append("%d records after the clock's last signed head are not covered by it"
                      % len(after))
    for g in res.games:
        if g.header["clock_id"] != last.clock:
            ap.append("game %d was set on clock %s, but the head is signed by clock %s"
                      % (g.number, g.header["clock_id"], last.clock))
            break
    if last.mac == "-":
        ap.append("the clock had no arbiter key when it was pulled: its head is not signed, "
                  "so the log is intact but not authenticated")
    elif key is None:
        ap.append("no arbiter key to check the clock's signature with (--key FILE or "
                  "`chessclock key use FILE`)")
    elif not last.check(key):
        ap.append("the clock's signature on its head does not match this arbiter key: "
                  "another key, or the head was changed")
    if not ap:
        res.auth = last


def _left_over(eng, res):
    names = ", ".join("%s at %d ms" % (LR.NAMES[q[0]], q[2]) for q in eng.queue)
    res.problems.append("the engine gives events the log lacks: %s" % names)
    eng.queue = []


def _step(eng, game, rec, res):
    c = eng.clock
    q = eng.queue
    code = rec.code
    if code >= EV.FIRST_APP_CODE:
        if q:
            return "the engine gives %s first" % LR.NAMES[q[0][0]]
        if code == EV.EV_BOOT and rec.arg == EV.BOOT_RESTORED:
            _adopt(c, rec, res)
        elif code == EV.EV_ADJOURNED_LOADED:
            try:
                _adopt_adjourned(c, rec)
            except ValueError as e:
                return "the adjourned game does not fit its header: %s" % e
            game.started = True
            game.before = (rec.snapshot["white_moves"], rec.snapshot["black_moves"])
        res.events.append(dict(_app_dict(rec), seq=rec.seq))
        return None
    if code == EV.EV_IGNORED:  # an ignored press changes nothing: the clock's state and times then
        if q:
            return "the engine gives %s first" % LR.NAMES[q[0][0]]
        c.tick(rec.t)
        if q:
            return "the engine gives %s first" % LR.NAMES[q[0][0]]
        if (c.main[0], c.main[1]) != (rec.w, rec.b) or c.state != rec.arg:
            return "state %d, times %d/%d; the engine has %d, %d/%d" % (
                rec.arg, rec.w, rec.b, c.state, c.main[0], c.main[1])
        res.events.append(dict(_app_dict(rec), seq=rec.seq))
        return None
    used = -1
    if not q:
        try:
            if code in DRIVERS:
                if code == EV.EV_PRESS:
                    c.tick(rec.t)
                    if q:
                        return "the engine gives %s first" % LR.NAMES[q[0][0]]
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
    if code in EV.CORRECTIONS:
        r = rec.fields.get("reason", 0)
        d["reason"] = LR.REASONS[r] if 0 <= r < len(LR.REASONS) else r
        if rec.ground is not None:   # the arbiter's ground, given with the correction
            d["reason"] = rec.ground[0]
            if rec.ground[1] != NO_ARTICLE:
                d["article"] = rec.ground[1]
    if code == EV.EV_PAUSE and game.header["spec"] in RAP_SPECS:
        # RAP 10g: who may claim a draw with the clocks as they stopped (seed 7.2)
        d["draw_claim_30s"] = ",".join(
            n for s, n in ((0, "white"), (1, "black"))
            if rap_10g(_rec_main(rec, s), _rec_main(rec, 1 - s))) or "nobody"
    if code == EV.EV_PRESS:
        if used >= 0:
            d["emt_ms"] = used
        game.plies.append((rec.side, rec.w if rec.side == 0 else rec.b, used, rec.seq))
    elif code == EV.EV_UNDO and game.plies and game.plies[-1][0] == rec.side:
        game.plies.pop()
    res.events.append(d)
    return None


# ---- output --------------------------------------------------------------------------
def _hms(ms, frac=True):
    """h:mm:ss and, with `frac`, the milliseconds that are not 0 (PGN's [%clk])."""
    from chessclock.timetext import clock_text

    return clock_text(max(ms, 0), millis=frac, hours=True, trim=True)


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
    move, TimeControl tag, Date/UTCDate/UTCTime from the clock's wall clock, Result and
    Termination "time forfeit" after a flag; merged with a PGN's moves when given. Without
    moves (a clock-only PGN) no move is invented (null moves are refused by most readers):
    the presses' times go into the game's comment."""
    import chess.pgn

    from chessclock import pgnout

    if moves_pgn is not None:
        pg = chess.pgn.read_game(io.StringIO(moves_pgn))
        if pg is None or pg.errors:
            raise ValueError("the PGN given is not a game%s"
                             % (": %s" % pg.errors[0] if pg is not None and pg.errors else ""))
        moves = list(pg.mainline_moves())
        out = pgnout.new_game({k: pgnout.unescape(v) for k, v in pg.headers.items()})
        out.setup(pg.board())
    else:
        out = pgnout.new_game()
        moves = None
    h = game.header
    if game.pairing:   # the round's pairing the clock was given; a scoresheet's own win
        from chessclock import gamenames
        for k, v in gamenames.pgn_headers(game.pairing).items():
            if out.headers.get(k, "?") in ("?", ""):
                out.headers[k] = v
    out.headers["TimeControl"] = _tc_pgn(h["control"])
    out.headers["Annotator"] = "chessclock %s, clock %s" % (h["firmware"], h["clock_id"])
    if game.utc_start:
        day, tod = game.utc_start[:10].replace("-", "."), game.utc_start[11:19]
        if "?" in out.headers.get("Date", "?"):
            out.headers["Date"] = day
        out.headers["UTCDate"] = day
        out.headers["UTCTime"] = tod
    if game.result is not None and game.result != "*":
        # entered on the clock or by the host (ACT 12, RAP 11): the arbiter's word
        out.headers["Result"] = game.result
        if game.flag_side >= 0 and game.result == ("0-1" if game.flag_side == 0 else "1-0"):
            out.headers["Termination"] = "time forfeit"
    elif game.flag_side >= 0:
        if out.headers.get("Result", "*") == "*":
            out.headers["Result"] = "0-1" if game.flag_side == 0 else "1-0"
        out.headers["Termination"] = "time forfeit"
    node: chess.pgn.GameNode = out
    # A game resumed from an adjournment: its earlier sessions' moves carry no clock here
    skip = game.before[0] + game.before[1]
    if moves is not None:
        for mv in moves[:skip]:
            node = node.add_variation(mv)
        moves = moves[skip:]
    n = len(game.plies) if moves is None else min(len(game.plies), len(moves))
    if moves is None:
        words = []
        white_n = game.before[0]
        for i in range(n):
            side, clk, emt, _ = game.plies[i]
            if side == 0:
                white_n += 1
            words.append("%s%s %s%s" % ("%d. " % white_n if side == 0 else "",
                                        "White" if side == 0 else "Black", _hms(clk),
                                        " (%s)" % _hms(emt) if emt >= 0 else ""))
        out.comment = ("Clock only, no moves (export with --pgn SCORESHEET for them): time left "
                       "after each press (time it took): " + "; ".join(words)) if words \
            else "Clock only: no press recorded"
    for i, mv in enumerate((moves or [])[:n]):   # no moves: the comment above says it
        side, clk, emt, _ = game.plies[i]
        node = pgnout.add_ply(node, mv, clk, emt)
    if moves is not None and len(moves) > n:
        for mv in moves[n:]:
            node = node.add_variation(mv)
    return pgnout.write(out, columns=None, end="\n")


def _tc_pgn(control):
    from clockcore import notation

    try:
        return notation.format_pgn(control)
    except ValueError:
        return "?"


# ---- the command ---------------------------------------------------------------------
def _read(path, stderr, prog="chessclock log"):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        stderr.write("%s: cannot read %s: %s\n" % (prog, path, e.strerror or e))
        return None


def add_key_arguments(p):
    p.add_argument("--key", metavar="FILE", help="the arbiter's key file, to check the "
                   "clock's signature (default: the one `chessclock key use` chose, or "
                   "$CHESSCLOCK_KEY)")


def key_of(args):
    """The arbiter's key for checking signatures (None when none is chosen); ClockError
    when the file given is not a key."""
    from chessclock import link as K
    return K.key_for(args)


def add_arguments_verify(p):
    p.add_argument("file", metavar="FILE", help="a log from `chessclock log pull` (or the "
                   "clock's log.bin, with --intact-only)")
    p.add_argument("--allow-torn-end", action="store_true",
                   help="accept an incomplete last record (a flash read from a clock whose "
                        "power failed during the last write)")
    p.add_argument("--intact-only", action="store_true",
                   help="check only that the log is intact, not that the clock signed it "
                        "(a log.bin read off the flash, a clock without a key)")
    add_key_arguments(p)


def verify_file(args, stderr, prog="chessclock log"):
    """(data, Result) of args.file, or (None, exit code) after one line on stderr."""
    data = _read(args.file, stderr, prog)
    if data is None:
        return None, 2
    from chessclock import link as K
    try:
        key = key_of(args)
    except K.ClockError as e:
        stderr.write("%s: %s\n" % (prog, e))
        return None, 2
    return data, verify(data, getattr(args, "allow_torn_end", False), key)


def verification_lines(res, path, intact_only=False):
    """What the verification established, in words (for every report)."""
    out = []
    played = len(res.played())
    presses = sum(1 for r in res.records if r.code == EV.EV_PRESS)
    out.append("%s: %d records, %d game%s played (%d control%s set), %d press%s replayed"
               % (path, len(res.records), played, "" if played == 1 else "s",
                  len(res.games), "" if len(res.games) == 1 else "s", presses,
                  "" if presses == 1 else "es"))
    for p in res.problems:
        out.append("FAIL: %s" % p)
    if not intact_only:
        for p in res.auth_problems:
            out.append("NOT AUTHENTICATED: %s" % p)
    if res.auth is not None:
        out.append("signed by the clock: %s" % res.auth.describe())
    status = res.status()
    if intact_only and status == "INTACT, NOT AUTHENTICATED":
        status = "INTACT (authenticity not checked: --intact-only)"
    out.append("verification: %s" % status)
    return out


def run_verify(args, stdout, stderr):
    data, res = verify_file(args, stderr)
    if data is None:
        return res
    for n in res.notes:
        stdout.write("note: %s\n" % n)
    for line in verification_lines(res, args.file, args.intact_only):
        stdout.write(line + "\n")
    if res.problems or (res.auth_problems and not args.intact_only):
        return 1
    return 0


def add_arguments_show(p):
    p.add_argument("file", metavar="FILE", help="log.bin from the clock or `log pull`")


def _not_a_log(res, path, stderr, prog):
    if not res.records:
        stderr.write("%s: %s is not a clock's log (no log record in it)\n" % (prog, path))
        return True
    return False


def run_show(args, stdout, stderr):
    data = _read(args.file, stderr)
    if data is None:
        return 2
    res = verify(data, True)
    if _not_a_log(res, args.file, stderr, "chessclock log show"):
        return 2
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
    if _not_a_log(res, args.file, stderr, "chessclock log export"):
        return 2
    if args.format != "pgn" and args.game:
        stderr.write("chessclock log export: --game is for --format pgn\n")
        return 2
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
            stderr.write("chessclock log export: --game %d: the log has %d games (1 to %d)\n"
                         % (args.game, len(res.games), len(res.games)))
            return 2
        game = res.games[args.game - 1] if args.game else res.games[-1]
        text = None
        if args.pgn:
            try:
                with open(args.pgn, encoding="utf-8") as f:
                    text = f.read()
            except OSError as e:
                stderr.write("chessclock log export: cannot read %s: %s\n"
                             % (args.pgn, e.strerror or e))
                return 2
            except UnicodeDecodeError:
                stderr.write("chessclock log export: %s is not a scoresheet (not UTF-8 "
                             "text)\n" % args.pgn)
                return 2
        try:
            stdout.write(to_pgn(game, text))
        except ValueError as e:
            stderr.write("chessclock log export: %s\n" % e)
            return 2
    return 1 if res.problems else 0
