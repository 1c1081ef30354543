# A time control: what each side gets, stage by stage. Pure data plus validation;
# the engine (engine.py) decides what happens with it, notation.py reads and writes it.
# Portable: runs on MicroPython and CPython. All times are integer milliseconds.

from clockcore import const

# How a side's clock runs.
MODE_COUNTDOWN = const(0)  # stages, increments, delays, byo-yomi
MODE_HOURGLASS = const(1)  # time used by the mover is added to the opponent
MODE_UPCOUNT = const(2)    # counts up from the first stage's time, never flags

# Delay kinds for a stage.
DELAY_NONE = const(0)
DELAY_SIMPLE = const(1)     # US delay: the first `delay_ms` of each turn is not counted
DELAY_BRONSTEIN = const(2)  # on the press, get back min(time used this turn, delay_ms)

# Small ints on 32-bit MicroPython ports stay below 2**30; one game's milliseconds must fit.
MAX_MS = const(0x3FFFFFFF)

# The tables of modes and delay kinds, by number: validate() takes what they list, and
# tests/core/test_events.py runs each through every codec (a new one is added here).
MODE_NAMES = ("countdown", "hourglass", "upcount")
DELAY_NAMES = ("none", "simple", "bronstein")


class Stage:
    """One period: `time_ms` for `moves` moves (0 = the rest of the game), with its own
    increment or delay. A last stage with a move count repeats (old "20 moves per hour")."""

    def __init__(self, time_ms, moves=0, inc_ms=0, delay_ms=0, delay_kind=DELAY_NONE):
        self.time_ms = time_ms
        self.moves = moves
        self.inc_ms = inc_ms
        self.delay_ms = delay_ms
        self.delay_kind = delay_kind if delay_ms else DELAY_NONE

    def __eq__(self, other):
        return (isinstance(other, Stage) and self.time_ms == other.time_ms
                and self.moves == other.moves and self.inc_ms == other.inc_ms
                and self.delay_ms == other.delay_ms and self.delay_kind == other.delay_kind)

    def __ne__(self, other):
        return not self.__eq__(other)

    def __repr__(self):
        return "Stage(%d, moves=%d, inc_ms=%d, delay_ms=%d, delay_kind=%d)" % (
            self.time_ms, self.moves, self.inc_ms, self.delay_ms, self.delay_kind)


def check_stage(s, where="stage"):
    """Raise ValueError naming what is wrong with one stage on its own: a new game's
    control (SideControl.validate) and a restored game's stage lists (gamestate) alike."""
    for name in ("time_ms", "moves", "inc_ms", "delay_ms"):
        v = getattr(s, name)
        if not isinstance(v, int) or v < 0 or v > MAX_MS:
            raise ValueError("%s: %s must be a whole number from 0 to %d, not %r"
                             % (where, name, MAX_MS, v))
    if not isinstance(s.delay_kind, int) or not 0 <= s.delay_kind < len(DELAY_NAMES):
        raise ValueError("%s: unknown delay kind %r" % (where, s.delay_kind))
    if s.delay_ms and s.inc_ms:
        raise ValueError("%s: an increment and a delay cannot both apply" % where)


class SideControl:
    """Everything one side's clock needs. Overtime (byo-yomi) starts when the last stage's
    main time runs out: `byo_periods` periods of `byo_ms`; a period is kept (restarted) after
    `byo_moves` moves inside it: 1 is Japanese byo-yomi, more is Canadian."""

    def __init__(self, stages, mode=MODE_COUNTDOWN, byo_periods=0, byo_ms=0, byo_moves=1):
        self.stages = list(stages)
        self.mode = mode
        self.byo_periods = byo_periods
        self.byo_ms = byo_ms
        self.byo_moves = byo_moves

    def __eq__(self, other):
        return (isinstance(other, SideControl) and self.stages == other.stages
                and self.mode == other.mode and self.byo_periods == other.byo_periods
                and self.byo_ms == other.byo_ms and self.byo_moves == other.byo_moves)

    def __ne__(self, other):
        return not self.__eq__(other)

    def __repr__(self):
        return "SideControl(%r, mode=%d, byo_periods=%d, byo_ms=%d, byo_moves=%d)" % (
            self.stages, self.mode, self.byo_periods, self.byo_ms, self.byo_moves)

    def validate(self, who="control"):
        """Raise ValueError naming what is wrong; return self when the control can run."""
        st = self.stages
        if not isinstance(self.mode, int) or not 0 <= self.mode < len(MODE_NAMES):
            raise ValueError("%s: unknown mode %r" % (who, self.mode))
        if not st:
            raise ValueError("%s: no stage" % who)
        for i in range(len(st)):
            s = st[i]
            where = "%s, stage %d" % (who, i + 1)
            check_stage(s, where)
            if i < len(st) - 1 and s.moves == 0:
                raise ValueError("%s: only the last stage can be for the rest of the game"
                                 % where)
        for name in ("byo_periods", "byo_ms", "byo_moves"):
            v = getattr(self, name)
            if not isinstance(v, int) or v < 0 or v > MAX_MS:
                raise ValueError("%s: %s must be a whole number from 0 to %d, not %r"
                                 % (who, name, MAX_MS, v))
        if self.mode != MODE_COUNTDOWN:
            if len(st) != 1:
                raise ValueError("%s: %s takes one stage" % (who, MODE_NAMES[self.mode]))
            s = st[0]
            if s.moves or s.inc_ms or s.delay_ms or self.byo_periods:
                raise ValueError("%s: %s takes a time only (no moves, increment, delay or "
                                 "byo-yomi)" % (who, MODE_NAMES[self.mode]))
            if self.mode == MODE_HOURGLASS and s.time_ms == 0:
                raise ValueError("%s: hourglass needs some time" % who)
            return self
        if self.byo_periods:
            if self.byo_ms == 0:
                raise ValueError("%s: byo-yomi periods need a length" % who)
            if self.byo_moves < 1:
                raise ValueError("%s: byo-yomi needs at least one move per period" % who)
            if st[-1].moves:
                raise ValueError("%s: byo-yomi follows a last stage for the rest of the game"
                                 % who)
        elif self.byo_ms:
            raise ValueError("%s: byo-yomi length given without periods" % who)
        if st[0].time_ms == 0 and not self.byo_periods and not st[0].delay_ms:
            raise ValueError("%s, stage 1: no time to play with" % who)
        for i in range(len(st)):
            if st[i].moves and st[i].time_ms == 0 and i == len(st) - 1:
                raise ValueError("%s, stage %d: a repeating stage needs time" % (who, i + 1))
        return self


class Control:
    """A whole time control: White's and Black's (equal unless given apart). `known` is
    False for PGN "?" (the control is not known: it can be stored, not run)."""

    def __init__(self, white, black=None, known=True):
        self.white = white
        self.black = white if black is None else black
        self.known = known

    def side(self, i):
        return self.black if i else self.white

    def symmetric(self):
        return self.white == self.black

    def __eq__(self, other):
        return (isinstance(other, Control) and self.known == other.known
                and (not self.known or (self.white == other.white
                                        and self.black == other.black)))

    def __ne__(self, other):
        return not self.__eq__(other)

    def __repr__(self):
        if not self.known:
            return "Control(unknown)"
        if self.symmetric():
            return "Control(%r)" % (self.white,)
        return "Control(%r, %r)" % (self.white, self.black)

    def validate(self):
        if not self.known:
            raise ValueError("the time control is unknown ('?'): nothing to run")
        self.white.validate("white" if not self.symmetric() else "control")
        self.black.validate("black")
        if (self.white.mode == MODE_HOURGLASS) != (self.black.mode == MODE_HOURGLASS):
            raise ValueError("hourglass needs both sides in hourglass mode")
        return self


UNKNOWN = Control(None, None, known=False)


# The one field order of a control in bytes: the event log's header (clockcore/eventlog.py)
# writes these (the saved game, clockapp/gamestate.py, spells the same order out: a save
# builds no tuple), and both read them back with SideControl(stages, *side) and
# Stage(*stage), whose arguments are in this order; tests/core/test_events.py round-trips
# every mode and delay kind through both.
def side_ints(sc):
    """A side's control but its stages: mode, byo_periods, byo_ms, byo_moves."""
    return (sc.mode, sc.byo_periods, sc.byo_ms, sc.byo_moves)


def stage_ints(st):
    """A stage: time_ms, moves, inc_ms, delay_ms, delay_kind."""
    return (st.time_ms, st.moves, st.inc_ms, st.delay_ms, st.delay_kind)


def sudden_death(time_ms, inc_ms=0):
    return Control(SideControl([Stage(time_ms, inc_ms=inc_ms)]))
