"""A log verified: every frame's CRC, the sequence numbers and the hash chain, then each game
replayed through the engine (clockcore.engine.Clock with the header's control and options):
every engine event the log recorded must be one the engine produces, at the same instant,
with the same times and counters; the clock's signed head, checked with the arbiter's key,
authenticates it."""


from typing import Any

from chessclock.log.records import (
    DRIVERS,
    NO_ARTICLE,
    RAP_SPECS,
    Game,
    Head,
    Result,
    app_dict,
    find_heads,
    iso_utc,
    minus_heads,
    rap_10g,
)
from chessclock.sim.script import Replay
from clockcore import engine as E
from clockcore import eventlog as L
from clockcore import events as EV
from clockcore import framing as F
from clockcore import logread as LR
from clockcore.control import Stage


class _Engine:
    """One game's replay: a simulate.Replay (its dicts) plus the values eventlog records."""

    def __init__(self, header: dict[str, Any]) -> None:
        self.r = Replay(header["control"], inc_at_turn_start=header["inc_at_turn_start"],
                        stage_on_flag=header["stage_on_flag"], freeze=header["freeze"],
                        move_limit=header.get("move_limit", 0))
        self.clock = self.r.clock
        self.clock.listener = self.on_event
        self.queue = []

    def on_event(self, ev: int, side: int, t: int, arg: int) -> None:
        self.r.on_event(ev, side, t, arg)
        x = [0, 0, 0, 0, 0, 0]
        L.extras_into(self.clock, ev, side, 0, x)
        self.queue.append((ev, side, t, arg, self.clock.main[0], self.clock.main[1], x,
                           self.r.out[-1]))


def _mismatch(rec: Any, got: tuple[Any, ...]) -> str | None:
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


def _act(c: Any, rec: Any) -> None:
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


def _rec_main(rec: Any, s: int) -> int:
    return rec.w if s == 0 else rec.b


def _adopt_adjourned(c: Any, rec: Any) -> None:
    """An adjourned game loaded (51): the header gave its control; the sealed state and
    the stages an arbiter added before the adjournment replace the replay's."""
    snap = rec.snapshot
    for s, pre in ((0, "white_"), (1, "black_")):
        c.stages[s] = list(c.sides[s].stages) + [Stage(*v) for v in snap[pre + "stages_added"]]
        if not 0 <= snap[pre + "stage"] < len(c.stages[s]):
            raise ValueError("its stage %d is not in its control" % (snap[pre + "stage"] + 1))
    _adopt(c, rec, None)


def _adopt(c: Any, rec: Any, res: Result | None) -> None:
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


def verify(data: bytes, allow_torn_end: bool = False, key: bytes | None = None) -> Result:
    """Check a log file's bytes; a Result. `problems` empty: the log is intact (every CRC,
    the sequence and the chain from its start, every game replays). `auth_problems` empty
    as well: it is authentic, i.e. the clock signed (with the arbiter's key `key`) a head
    that ends it, so nothing was changed, added or cut off after that head."""
    res = Result()
    heads = find_heads(data)
    res.heads = [h for _, _, h in heads]
    frames, bad = F.unframe(data)
    _bad_regions(res, minus_heads(bad, heads), frames[0][0] if frames else len(data),
                 len(data), allow_torn_end)
    utc = _replay(res, frames)
    _after_replay(res, utc)
    _authenticate(res, heads, key)
    return res


def _bad_regions(res: Result, bad: list[tuple[int, int]], first_off: int, end: int,
                 allow_torn_end: bool) -> None:
    """Bytes in no record: a torn last write, a damaged start, or a torn write inside."""
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


def _replay(res: Result, frames: list[tuple[int, bytes]]) -> dict[int, str | None]:
    """Every record decoded, chained and replayed game by game; {seq: ISO UTC} of the
    records whose wall-clock time is known."""
    reader = LR.Reader()
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
        wall_ref = _wall_ref(rec, wall_ref)
        if wall_ref is not None:
            utc[rec.seq] = iso_utc(wall_ref[1] + (rec.t - wall_ref[0]) // 1000)
        _check_chain(res, rec, off)
        if rec.code == EV.EV_HEADER:
            if eng is not None and eng.queue:
                _left_over(eng, res)
            game, eng = _new_game(res, rec)
            broken = eng is None
            continue
        if game is not None:
            _mark(game, rec, utc)
        if eng is None or broken:
            res.events.append(dict(app_dict(rec), seq=rec.seq))
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
    return utc


def _wall_ref(rec: Any, wall_ref: tuple[int, int] | None) -> tuple[int, int] | None:
    """(t, unix seconds) that dates the records from `rec` on, on its boot's time line."""
    if rec.code == EV.EV_BOOT:
        return None     # a new time line
    if rec.code == EV.EV_HEADER and rec.header["wall_s"] > 0:
        return (rec.t, rec.header["wall_s"])
    if rec.code == EV.EV_WALL_CLOCK:
        return (rec.t, rec.arg)
    return wall_ref


def _check_chain(res: Result, rec: Any, off: int) -> None:
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


def _new_game(res: Result, rec: Any) -> tuple[Game, _Engine | None]:
    """(Game, its _Engine or None when its control does not run) from a header record."""
    game = Game(rec)
    res.games.append(game)
    game.number = len(res.games)
    try:
        eng = _Engine(rec.header)
    except ValueError as e:
        res.problems.append("seq %d: the header's control does not run: %s" % (rec.seq, e))
        eng = None
    if eng is not None and (eng.clock.main[0], eng.clock.main[1]) != (rec.w, rec.b):
        res.problems.append("seq %d: header times %d/%d, the control gives %d/%d"
                            % (rec.seq, rec.w, rec.b, eng.clock.main[0], eng.clock.main[1]))
    game.replay = eng
    res.events.append(dict(app_dict(rec), seq=rec.seq))
    return game, eng


def _mark(game: Any, rec: Any, utc: dict[int, str | None]) -> None:
    """What a record says of its game: started, flagged, ended, result, players."""
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


def _after_replay(res: Result, utc: dict[int, str | None]) -> None:
    """Wall-clock times and pause lengths on the events; a log with no record, or cut
    without the clock's record of it, is a problem."""
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


def _authenticate(res: Result, heads: list[tuple[int, int, Head]], key: bytes | None) -> None:
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


def _left_over(eng: Any, res: Result) -> None:
    names = ", ".join("%s at %d ms" % (LR.NAMES[q[0]], q[2]) for q in eng.queue)
    res.problems.append("the engine gives events the log lacks: %s" % names)
    eng.queue = []


def _step(eng: Any, game: Any, rec: Any, res: Result) -> str | None:
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
        res.events.append(dict(app_dict(rec), seq=rec.seq))
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
        res.events.append(dict(app_dict(rec), seq=rec.seq))
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


def verification_lines(res: Result, path: str, intact_only: bool = False) -> list[str]:
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

