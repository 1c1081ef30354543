"""The engine over a log's events: the clock's state at a record or at an instant as the
firmware's own engine (clockcore.engine.Clock) computes it, for `ruling replace`.

The events are the dicts `chessclock simulate` writes and `chessclock log export` gives
(simulate.Replay's shape). The arbiter's and players' actions among them (start, press,
pause, resume, the corrections) drive a Clock with the game's control and options; the
events time brings (flag, stage, overtime, period, unflag) come from the engine. Each
engine record of the log is matched with the event the engine gives at the same instant;
where they disagree (another control or options than the game's, a power cut, a record
with too little to replay it) the log's times are kept from there and the disagreement is
reported, never hidden.
"""

from typing import Any

from clockcore import engine as E
from clockcore import events as EV
from clockcore import presets
from clockcore.control import MODE_UPCOUNT, Control, Stage
from clockcore.logread import NAMES

SIDES = {"white": E.WHITE, "black": E.BLACK}
OPTION_NAMES = ("inc_at_turn_start", "stage_on_flag", "freeze", "move_limit")
# `chessclock simulate`'s defaults (its options_for): what a log with no header was played with
DEFAULT_OPTIONS = {"inc_at_turn_start": False, "stage_on_flag": False, "freeze": True,
                   "move_limit": 0}
# The engine's events a log records with the times; "ignored" presses change nothing.
ENGINE_NAMES = {code: name for code, name in NAMES.items() if code < EV.FIRST_APP_CODE}
ENGINE_TYPES = frozenset(ENGINE_NAMES.values()) - {"ignored"}

Event = dict[str, Any]


def options_of(events: list[Event], preset: Any = None) -> dict[str, Any]:
    """The clock options of the game: the log's header (`log export`), else the preset's
    (a clockcore preset, or a dict of the options), else simulate's defaults."""
    options = dict(DEFAULT_OPTIONS)
    if isinstance(preset, dict):   # the options themselves
        options.update(preset)
    elif preset is not None:
        options.update({k: getattr(preset, k) for k in OPTION_NAMES if hasattr(preset, k)})
    for e in events:  # the last header: a log may hold several games
        if e.get("type") == "header":
            options.update({k: e[k] for k in OPTION_NAMES if k in e})
    return options


def _side(e: Event) -> int:
    return SIDES.get(e.get("side") or "", E.NOBODY)


def _drive(c: E.Clock, e: Event) -> bool:
    """Apply the action a record stands for; False when it is not an action."""
    typ, t, s = e["type"], int(e["t_ms"]), _side(e)
    if typ == "start":
        c.start(t, E.WHITE if s == E.NOBODY else s)
    elif typ == "press":
        c.press(s, t)
    elif typ == "pause":
        c.pause(t)
    elif typ == "resume":
        c.resume(t, s)
    elif typ == "adjust":
        c.adjust(s, int(e["delta_ms"]), t)
    elif typ == "set-time":
        c.set_time(s, int(e[e["side"] + "_ms"]), t)
    elif typ == "set-moves":
        c.set_moves(s, int(e["moves"]), t)
    elif typ == "set-stage":
        c.set_stage(s, int(e["stage"]) - 1, t)
    elif typ == "add-stage":  # the log keeps its time and increment (a delay is not kept)
        c.add_stage(s, Stage(int(e.get("added_ms", 0)), 0, int(e.get("inc_ms", 0))), t)
    elif typ == "undo":
        c.undo_press(t)
    elif typ == "end":
        c.end(t)
    else:
        return False
    return True


class LogReplay:
    """A Clock driven by a log's events, one record at a time (`step`)."""

    def __init__(self, control: Control, options: dict[str, Any]) -> None:
        self.control = control
        self.options = options
        self.clock = E.Clock(control, self._heard, **options)
        self.heard: list[tuple[str, str | None, int, dict[str, Any]]] = []
        self.notes: list[str] = []   # where the engine and the log disagree

    def _heard(self, ev: int, side: int, t: int, arg: int) -> None:
        if ev != EV.EV_IGNORED:
            self.heard.append((ENGINE_NAMES[ev], E.SIDE_NAMES[side] if side != E.NOBODY
                               else None, t, self.state(t)))

    def state(self, t: int) -> dict[str, Any]:
        """The engine's state now (`t` the instant it stands for)."""
        c = self.clock
        run = c.running()
        return {"t_ms": t, "times": {"white": c.main[0], "black": c.main[1]},
                "moves": {"white": c.moves[0], "black": c.moves[1]},
                "stage": {"white": c.stage[0] + 1, "black": c.stage[1] + 1},
                "running": None if run == E.NOBODY else E.SIDE_NAMES[run]}

    def step(self, e: Event, seq: Any) -> dict[str, Any]:
        """Bring the engine through record `e` (numbered `seq`): the engine's state at it."""
        t = int(e["t_ms"])
        if e["type"] == "header":           # a game set on the clock: a new game
            self._new_game(e)
        if e["type"] not in ENGINE_TYPES:   # an app's record (boot, seal, session, ...)
            self._bring_to(t)
            return self.state(t)
        try:
            if not _drive(self.clock, e):
                self._bring_to(t)
        except (ValueError, KeyError, TypeError) as x:
            self.notes.append("record #%s (%s at %d ms): the engine cannot replay it (%s)"
                              % (seq, e["type"], t, x))
        found = None
        for i, (typ, side, when, st) in enumerate(self.heard):
            if typ == e["type"] and side == e.get("side") and when == t:
                found = st
                for skipped in self.heard[:i]:
                    self.notes.append("the engine gives %s%s at %d ms, which the log does "
                                      "not have" % (skipped[0], " " + skipped[1]
                                                    if skipped[1] else "", skipped[2]))
                del self.heard[:i + 1]
                break
        logged = {"white": e["white_ms"], "black": e["black_ms"]}
        if found is None:
            self.notes.append("record #%s (%s at %d ms): the engine does not give it"
                              % (seq, e["type"], t))
            return self._adopt(logged, t)
        if found["times"] != logged:
            self.notes.append("record #%s (%s at %d ms): the log has White %d, Black %d ms, "
                              "the engine %d, %d ms" % (seq, e["type"], t, logged["white"],
                                                        logged["black"],
                                                        found["times"]["white"],
                                                        found["times"]["black"]))
            return self._adopt(logged, t)
        return found

    def _new_game(self, header: Event) -> None:
        """A fresh Clock for the game a header (`log export`) sets: its control when it
        names one the presets read (else the one given), its options."""
        control = self.control
        spec = header.get("spec") or header.get("control")
        if isinstance(spec, str):
            try:
                control, _ = presets.resolve(spec)
            except ValueError:
                pass
        options = dict(self.options)
        options.update({k: header[k] for k in OPTION_NAMES if k in header})
        self.clock = E.Clock(control, self._heard, **options)
        self.heard.clear()

    def _bring_to(self, t: int) -> None:
        """tick(t), and the time-out of a side whose time a correction at t left at 0: the
        engine's tick finds it only once time passes t, and it logs it at t. This is that
        tick's own step (Clock.tick: main time reaches 0 at an exact instant)."""
        c = self.clock
        c.tick(t)
        s = c.turn
        if (c.state == E.RUNNING and c.last == t and c.main[s] == 0 and not c.out[s]
                and c.delay_left == 0 and c.sides[s].mode != MODE_UPCOUNT):
            c._time_out(s, t)

    def _adopt(self, logged: dict[str, int], t: int) -> dict[str, Any]:
        """The log's times replace the engine's (the log is the evidence)."""
        self.clock.main[0] = int(logged["white"])
        self.clock.main[1] = int(logged["black"])
        self.heard.clear()
        return self.state(t)

    def at(self, t: int) -> dict[str, Any]:
        """The engine's state at instant `t` (after every record replayed so far)."""
        self.clock.tick(t)
        return self.state(t)
