"""A clock replayed from a script of presses through the engine (`chessclock simulate`).

Arbiters use it to answer "what would the clock have shown"; the tests use it too. The
interface is fixed (see the README): scripts written against it must keep working.

A script has one action per line, `<ms> <action> [args]`, `#` starting a comment. The whole
script and the control are checked before anything runs, and the output is only printed
when the replay completed, so an error never leaves output that looks like a run.
"""


from typing import Any

from chessclock.errors import InputError
from clockcore import engine as E
from clockcore.control import DELAY_SIMPLE
from clockcore.logread import NAMES

SIDES = {"white": E.WHITE, "black": E.BLACK}
STAGE_CAUSES = ("moves", "timeout", "arbiter")


class ScriptError(InputError):
    """A script line that cannot be run; the message names the line."""


def _side(word: str, line_no: int, allow_both: bool = False) -> int:
    if allow_both and word == "both":
        return E.NOBODY
    if word not in SIDES:
        raise ScriptError("line %d: expected white or black%s, got %r"
                          % (line_no, " or both" if allow_both else "", word))
    return SIDES[word]


MAX_DIGITS = 15   # any time in ms a game can have, and far beyond


def _int(word: str, line_no: int, what: str, signed: bool = False) -> int:
    # A change must carry its sign, so that `adjust white 5` is not read as "set to 5".
    body = word[1:] if signed and word[:1] in ("+", "-") else ("" if signed else word)
    if not body.isascii() or not body.isdigit():
        raise ScriptError("line %d: %s must be %s, got %r"
                          % (line_no, what, "+ms or -ms" if signed else "a whole number",
                             word[:40]))
    if len(body) > MAX_DIGITS:   # int() of a megabyte of digits is refused (or slow)
        raise ScriptError("line %d: %s has %d digits: at most %d (%s...)"
                          % (line_no, what, len(body), MAX_DIGITS, word[:20]))
    return int(word)


def _stage_from(spec: str, line_no: int) -> Any:
    from clockcore import notation  # only scripts that add stages need the parser

    try:
        return notation.parse_stage(spec)
    except ValueError as e:
        raise ScriptError("line %d: %s" % (line_no, e)) from None


# action: (argument count, builder turning words into the call on the clock)
def _parse_action(action: str, args: list[str], line_no: int) -> Any:
    n = len(args)

    def need(count: int, usage: str) -> None:
        if n != count:
            raise ScriptError("line %d: %s takes %s" % (line_no, action, usage))

    if action in ("seal", "seal-cancel"):   # adjournment (docs/ADJOURNMENT.md)
        need(0, "no arguments")
        return (action,)
    if action == "sealed":
        if n > 1:
            raise ScriptError("line %d: sealed takes at most the sealed move's text or hash "
                              "(no spaces)" % line_no)
        if n and (len(args[0]) > 100 or not args[0].isprintable()):
            raise ScriptError("line %d: the sealed move is at most 100 printable characters"
                              % line_no)
        return (action, args[0] if n else "")
    if action in ("start", "pause", "end", "undo"):
        need(0, "no arguments")
        return (action,)
    if action == "resume":
        if n > 1:
            raise ScriptError("line %d: resume takes at most a side" % line_no)
        return (action, _side(args[0], line_no) if n else E.NOBODY)
    if action == "press":
        need(1, "white or black")
        return (action, _side(args[0], line_no))
    if action == "adjust":
        need(2, "a side and +ms or -ms")
        return (action, _side(args[0], line_no), _int(args[1], line_no, "the change", True))
    if action in ("set-moves", "set-time"):
        need(2, "a side and a number")
        return (action, _side(args[0], line_no), _int(args[1], line_no, "the value"))
    if action == "set-stage":
        need(2, "a side and a stage number (from 1)")
        n_stage = _int(args[1], line_no, "the stage")
        if n_stage < 1:
            raise ScriptError("line %d: stages count from 1" % line_no)
        return (action, _side(args[0], line_no), n_stage - 1)
    if action == "add-stage":
        if n < 2:
            raise ScriptError("line %d: add-stage takes white, black or both and a stage"
                              % line_no)
        return (action, _side(args[0], line_no, True), _stage_from(" ".join(args[1:]), line_no))
    if action == "add-increment":  # "+5 s a move from now on" (FIDE Guidelines III)
        need(2, "white, black or both and the increment in ms")
        inc = _int(args[1], line_no, "the increment")
        if inc == 0:
            raise ScriptError("line %d: an increment is more than 0 ms" % line_no)
        return (action, _side(args[0], line_no, True), inc)
    if action == "split":
        need(2, "the elapsed ms and White's share in percent")
        return (action, _int(args[0], line_no, "the elapsed time"),
                _int(args[1], line_no, "White's share"))
    raise ScriptError("line %d: unknown action %r" % (line_no, action))


def parse_script(text: str) -> list[tuple[int, int, Any]]:
    """Return [(line_no, t_ms, action-tuple)]; raise ScriptError naming the bad line."""
    steps = []
    last = 0
    for line_no, raw in enumerate(text.splitlines(), 1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        if len(words) < 2:
            raise ScriptError("line %d: expected '<ms> <action> [args]', got %r"
                              % (line_no, raw.strip()))
        t = _int(words[0], line_no, "the time in ms")
        if t < last:
            raise ScriptError("line %d: time %d is before the previous line's %d"
                              % (line_no, t, last))
        last = t
        steps.append((line_no, t, _parse_action(words[1].lower(), words[2:], line_no)))
    return steps


class Replay:
    """Runs a parsed script on a Clock and collects the events as dicts."""

    def __init__(self, control: Any, **options: Any) -> None:
        self.out = []
        self.clock = E.Clock(control, self.on_event, **options)
        sides = (control.white, control.black)
        self.has_delay = any(st.delay_kind == DELAY_SIMPLE for sc in sides for st in sc.stages)
        self.has_byo = any(sc.byo_periods for sc in sides)
        # Seal mode (clockapp/seal.py does the same on the clock): None, or [phase (1
        # sealing, 2 sealed), sealer, since, alerted, session]
        self.seal: Any = None
        self.session = 1
        self.spec = ""
        self.sealed_data = None   # the sealed snapshot's bytes (for --export-adjourned)

    def on_event(self, ev: int, side: int, t: int, arg: int) -> None:
        c = self.clock
        rec = {"t_ms": t, "type": NAMES[ev]}
        if side != E.NOBODY:
            rec["side"] = E.SIDE_NAMES[side]
        if ev == E.EV_PRESS:
            rec["credit_ms"] = arg
            rec["moves"] = c.moves[side]
        elif ev == E.EV_IGNORED:
            rec["state"] = E.STATE_NAMES[arg]
        elif ev == E.EV_STAGE:
            rec["stage"] = c.stage[side] + 1
            rec["added_ms"] = arg
            rec["cause"] = STAGE_CAUSES[c.stage_cause]
        elif ev == E.EV_FLAG:
            rec["stage"] = c.stage[side] + 1
            rec["presses_in_stage"] = arg
            rec["moves"] = c.moves[side]
        elif ev in (E.EV_ADJUST, E.EV_UNDO):
            rec["delta_ms"] = arg if ev == E.EV_ADJUST else -arg
            if ev == E.EV_UNDO and c.undo_taken_opp:  # the opponent's turn-start increment
                rec["opponent_delta_ms"] = -c.undo_taken_opp
        elif ev == E.EV_SET_MOVES:
            rec["moves"] = arg
        elif ev == E.EV_SET_STAGE:
            rec["stage"] = arg + 1
        elif ev == E.EV_ADD_STAGE:
            rec["stage"] = c.stage[side] + 1
            rec["added_ms"] = arg
            st = c.current_stage(side)
            if st.inc_ms:
                rec["inc_ms"] = st.inc_ms
        elif ev in (E.EV_OVERTIME, E.EV_PERIOD):
            rec["periods"] = arg
        elif ev == E.EV_LIMIT:  # both sides made the move limit: the play-off ends
            rec["move_limit"] = arg
            rec["moves"] = c.moves[side]
        self._times(rec)
        self.out.append(rec)

    def _times(self, rec: Any) -> None:
        c = self.clock
        rec["white_ms"] = c.main[E.WHITE]
        rec["black_ms"] = c.main[E.BLACK]
        if self.has_delay:
            rec["delay_ms"] = c.delay_left
        if self.has_byo:
            rec["white_periods"] = c.periods[E.WHITE]
            rec["black_periods"] = c.periods[E.BLACK]

    def ignored(self, t: int, action: str) -> None:
        rec = {"t_ms": t, "type": "ignored", "action": action,
               "state": E.STATE_NAMES[self.clock.state]}
        self._times(rec)
        self.out.append(rec)

    def _seal_event(self, t: int, kind: str, side: int, **fields: Any) -> None:
        rec = {"t_ms": t, "type": kind, "side": E.SIDE_NAMES[side]}
        rec.update(fields)
        self._times(rec)
        self.out.append(rec)

    def due(self, t: int) -> None:
        """The 15-minute seal alert (P6) when it falls at or before t, at its instant."""
        from chessclock.adjourned import S  # the firmware's seal module
        ALERT_MS = S.ALERT_MS
        sl = self.seal
        if sl is not None and sl[0] == 1 and not sl[3] and t >= sl[2] + ALERT_MS:
            self.clock.tick(sl[2] + ALERT_MS)
            sl[3] = True
            self._seal_event(sl[2] + ALERT_MS, "seal-alert", sl[1], sealing_ms=ALERT_MS)

    def seal_step(self, t: int, name: str, move: str) -> None:
        import hashlib

        from chessclock.adjourned import S  # the firmware's seal module
        c = self.clock
        sl = self.seal
        c.tick(t)
        if name == "seal":
            if sl is not None or c.state != E.RUNNING:
                raise ValueError("seal needs a running clock and no seal already")
            self.seal = [1, c.turn, t, False, self.session]
            self._seal_event(t, "seal-start", c.turn, session=self.session)
            return
        if sl is None or sl[0] != 1:
            raise ValueError("%s without seal mode" % name)
        if name == "seal-cancel":
            self.seal = None
            self._seal_event(t, "seal-cancel", sl[1], sealing_ms=t - sl[2])
            return
        S.check_move(move)
        if c.state != E.RUNNING or c.turn != sl[1]:
            raise ValueError("the sealer's clock is not running")
        c.press(sl[1], t)       # the sealed move counts as the sealer's move
        c.pause(t)              # both clocks stop at the hand-in
        sl[0] = 2
        meta = {"spec": self.spec, "white_left": True,
                "seal": [2, sl[1], 0, 1 if sl[3] else 0, sl[4]], "clock": "simulate",
                "seal_seq": -1}
        if move:
            meta["seal_move"] = move
        data, digest = S.snapshot(c, meta)
        self.sealed_data = data
        self._seal_event(t, "sealed", sl[1], sealing_ms=t - sl[2],
                         snapshot_sha256=hashlib.sha256(data).hexdigest(),
                         to_move=E.SIDE_NAMES[c.turn])

    def step(self, t: int, act: Any) -> None:
        c = self.clock
        name = act[0]
        done = True
        if self.seal is not None:
            self.due(t)
        if name in ("seal", "sealed", "seal-cancel"):
            self.seal_step(t, name, act[1] if len(act) > 1 else "")
            return
        if name == "start":
            done = c.start(t)
        elif name == "press":
            c.press(act[1], t)  # the engine reports ignored presses itself
        elif name == "pause":
            done = c.pause(t)
        elif name == "resume":
            c.tick(t)
            done = c.resume(t, act[1])
        elif name == "end":
            done = c.end(t)
        elif name == "undo":
            done = c.undo_press(t)
        elif name == "adjust":
            c.adjust(act[1], act[2], t)
        elif name == "set-moves":
            c.set_moves(act[1], act[2], t)
        elif name == "set-time":
            c.set_time(act[1], act[2], t)
        elif name == "set-stage":
            c.set_stage(act[1], act[2], t)
        elif name == "add-stage":
            c.add_stage(act[1], act[2], t)
        elif name == "add-increment":
            c.add_increment(act[1], act[2], t)
        elif name == "split":
            c.split(act[1], act[2], t)
        if not done:
            self.ignored(t, name)
        sl = self.seal
        if sl is not None and sl[0] == 1 and c.state in (E.FROZEN, E.ENDED):
            self.seal = None    # a flag or the end: nothing to seal (as the clock does)
            self._seal_event(t, "seal-cancel", sl[1], sealing_ms=t - sl[2])
        elif sl is not None and sl[0] == 2 and c.state != E.PAUSED:
            if c.state == E.RUNNING:   # resumed: the next session
                self.session += 1
            self.seal = None

    def final(self, t: int) -> None:
        c = self.clock
        if self.seal is not None:
            self.due(t)
        c.tick(t)
        flags = [{"side": E.SIDE_NAMES[s], "t_ms": c.flag_at[s]}
                 for s in c.flag_order if s != E.NOBODY]
        running = c.running()
        self.out.append({
            "type": "final", "t_ms": t,
            "white_ms": c.main[E.WHITE], "black_ms": c.main[E.BLACK],
            "white_moves": c.moves[E.WHITE], "black_moves": c.moves[E.BLACK],
            "running": None if running == E.NOBODY else E.SIDE_NAMES[running],
            "flags": flags, "state": E.STATE_NAMES[c.state],
        })


def replay(control: Any, script_text: str, adjourned: bytes | None = None, spec: str = "",
           keep: list[Any] | None = None, **options: Any) -> list[dict[str, Any]]:
    """Run a script; return the list of event dicts, the final one last. adjourned: an
    adjourned game's snapshot bytes to start from (control and options then are its own);
    keep: a list that receives the Replay (for the sealed snapshot)."""
    steps = parse_script(script_text)
    if adjourned is not None:
        r = _from_adjourned(adjourned)
    else:
        r = Replay(control, **options)
        r.spec = spec
    if keep is not None:
        keep.append(r)
    t = 0
    for line_no, t, act in steps:
        try:
            r.step(t, act)
        except ValueError as e:  # e.g. an adjustment below zero
            raise ScriptError("line %d: %s" % (line_no, e)) from None
    r.final(t)
    return r.out


def _from_adjourned(data: bytes) -> Replay:
    """A Replay that starts from an adjourned game's snapshot (paused, the side to move
    ready to start), with a first `adjourned-loaded` line as the clock logs it."""
    import hashlib

    from chessclock import adjourned as A
    from clockcore.control import Control
    gamestate = A.gamestate
    fields = A.summary(data)
    clock, meta = gamestate.decode(data)
    r = Replay(Control(clock.sides[0], clock.sides[1]))
    clock.listener = r.on_event
    r.clock = clock
    r.spec = fields["spec"]
    r.session = fields["session"]
    r.seal = [2, clock.turn, 0, False, r.session]
    rec = {"t_ms": 0, "type": "adjourned-loaded", "session": r.session,
           "snapshot_sha256": hashlib.sha256(data).hexdigest(),
           "to_move": E.SIDE_NAMES[clock.turn],
           "white_moves": clock.moves[0], "black_moves": clock.moves[1]}
    r._times(rec)
    r.out.append(rec)
    return r

