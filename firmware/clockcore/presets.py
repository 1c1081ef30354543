"""Named time controls with the clock behaviour their rules ask for.

Portable: runs on MicroPython and CPython. `resolve(spec)` is what a user's SPEC means:
a preset name (key or alias, any case) first, else notation.parse(spec).

The presets are a compact table, read by find(); a Preset is built when one is first asked
for, then kept (a clock builds the one it plays). PRESETS, every one of them built, is for
the host's lists and the tests; their titles and sources are in clockcore/presetinfo.py,
which a clock never loads.
"""

from clockcore import const
from clockcore.control import Control, SideControl, Stage, sudden_death

MIN = const(60000)
HOUR = const(3600000)
DAY = const(86400000)


class Preset:
    """A named control and the clock options its rules ask for (shared/CLOCK-RULES.md):
    freeze           after a flag in the last stage both clocks stop (False: keep running so
                     the other flag can fall, for rules whose ruling needs the second flag:
                     a claim needs one's own flag up (Active 1987), both flags down is a
                     draw (5-minute 1990)); every preset with both_flags_draw keeps running
    stage_on_flag    the next stage's time is added when the side's time reaches zero, not
                     on the press completing the stage's moves
    inc_at_turn_start  the increment is credited at the start of each turn, not on the press
    audible_flag     sound at flag fall (never in competition: a sound signals a flag)
    both_flags_draw  both flags down is a draw whatever the order
    ledger           correspondence: a day-based ledger, not a running clock (its times may
                     exceed what control.validate() allows for a running clock)
    move_limit       N > 0: the game ends when both sides have made N moves (presses): a
                     play-off of at most N moves each (seed S3 4.1)
    title, source    what it is, and the rule it follows (a shipped preset's: presetinfo.py)
    """

    def __init__(self, key, title, control, aliases=(), source="", freeze=True,
                 stage_on_flag=False, inc_at_turn_start=False, audible_flag=False,
                 both_flags_draw=False, ledger=False, move_limit=0):
        self.key = key
        self._title = title     # None: the shipped preset's, from presetinfo.py
        self._make = control  # a function: controls are built when used, not at import
        self.aliases = tuple(aliases)
        self._source = source
        self.freeze = freeze
        self.stage_on_flag = stage_on_flag
        self.inc_at_turn_start = inc_at_turn_start
        self.audible_flag = audible_flag
        self.both_flags_draw = both_flags_draw
        self.ledger = ledger
        self.move_limit = move_limit

    @property
    def control(self):
        """A new Control each time (callers may keep or change it)."""
        return self._make()

    @property
    def title(self):
        if self._title is not None:
            return self._title
        from clockcore.presetinfo import TEXTS
        return TEXTS[self.key][0]

    @property
    def source(self):
        if self._title is not None:
            return self._source
        from clockcore.presetinfo import TEXTS
        return TEXTS[self.key][1]

    def names(self):
        return (self.key,) + self.aliases

    def __repr__(self):
        return "Preset(%r)" % self.key


_NO_FREEZE = const(1)    # Preset.freeze False
_BOTH_DRAW = const(2)    # Preset.both_flags_draw
_LEDGER = const(4)       # Preset.ledger

# The shipped presets, in the order the menu offers them, as two compact tables (one
# object each on the heap, not a tuple a row and a stage). _NAMES: " key alias ... |" a
# preset. _ROWS, a preset after the other: options (the bits above), move limit, White's
# stage count and stages, Black's stage count (0: White's) and stages; a stage is five
# ints: time in seconds, moves, increment in seconds, delay in seconds, delay kind.
# Titles and sources: presetinfo.py, by key.
_NAMES = (" fide-classical classical standard | fide-rapid rapid | fide-blitz blitz |"
          " armageddon fide-armageddon | us-g90-d5 g90d5 g90-d5 | fide-5min-1990 5min-1990 |"
          " fide-active-1987 active-1987 | fide-active-1987-inc active-1987-inc |"
          " fce-six-hour six-hour | wc-2008-first wc-2008 |"
          " cxeb-correspondence correspondence | fce-finish-15 finish-15 |"
          " br-playoff playoff-10 |")
_SIMPLE = const(1)   # control.DELAY_SIMPLE: a literal keeps _ROWS one constant
_ROWS = (
    0, 0, 2, 5400, 40, 30, 0, 0, 1800, 0, 30, 0, 0, 0,    # fide-classical
    0, 0, 1, 900, 0, 10, 0, 0, 0,                           # fide-rapid
    0, 0, 1, 180, 0, 2, 0, 0, 0,                            # fide-blitz
    # +2 s only from move 61: a 0-time last stage carries the increment
    0, 0, 2, 300, 60, 0, 0, 0, 0, 0, 2, 0, 0, 2, 240, 60, 0, 0, 0, 0, 0, 2, 0, 0,
    0, 0, 1, 5400, 0, 0, 5, _SIMPLE, 0,                     # us-g90-d5
    # both flags down is a draw: the second flag must be able to fall
    _NO_FREEZE | _BOTH_DRAW, 0, 1, 300, 0, 0, 0, 0, 0,     # fide-5min-1990
    # a win on time needs the claimant's own flag still up
    _NO_FREEZE, 0, 1, 1800, 0, 0, 0, 0, 0,                  # fide-active-1987
    _NO_FREEZE, 0, 1, 1800, 0, 10, 0, 0, 0,                 # fide-active-1987-inc
    0, 0, 2, 7200, 40, 0, 0, 0, 3600, 20, 0, 0, 0, 0,      # fce-six-hour
    0, 0, 1, 7200, 40, 0, 0, 0, 0,                          # wc-2008-first
    _LEDGER, 0, 1, 3456000, 10, 0, 0, 0, 0,                 # cxeb-correspondence: 40 days
    0, 0, 1, 900, 0, 0, 0, 0, 0,                            # fce-finish-15
    # The seed gives no time for the play-off (seed-requirements §14): 5 min each is this
    # preset's choice; the clock ends the game at the press giving both sides 10 moves.
    0, 10, 1, 300, 0, 0, 0, 0, 0,                           # br-playoff
)
COUNT = _NAMES.count("|")


def _side(at):
    """The SideControl of the stages at _ROWS[at] (their count first)."""
    stages = []
    for k in range(_ROWS[at]):
        i = at + 1 + 5 * k
        r = _ROWS
        stages.append(Stage(r[i] * 1000, r[i + 1], r[i + 2] * 1000, r[i + 3] * 1000, r[i + 4]))
    return SideControl(stages)


def _names(i):
    """The i-th preset's key and aliases, as one string (words between spaces)."""
    at = 0
    for _ in range(i):
        at = _NAMES.find("|", at) + 1
    return _NAMES[at:_NAMES.find("|", at)]


_BUILT = {}   # key -> its Preset, once built: one object per preset, as find() gives it


def _build(i):
    words = _names(i).split()
    key = words[0]
    p = _BUILT.get(key)
    if p is None:
        at = 0
        for _ in range(i):   # past the rows before: options, limit, then two sides
            at += 2
            at += 1 + 5 * _ROWS[at]
            at += 1 + 5 * _ROWS[at]
        opts = _ROWS[at]
        white = at + 2
        black = white + 1 + 5 * _ROWS[white]
        if not _ROWS[black]:
            black = white

        def make():
            return Control(_side(white), _side(black) if black != white else None)

        p = Preset(key, None, make, words[1:], freeze=not opts & _NO_FREEZE,
                   both_flags_draw=bool(opts & _BOTH_DRAW), ledger=bool(opts & _LEDGER),
                   move_limit=_ROWS[at + 1])
        _BUILT[key] = p
    return p


def key_at(i):
    """The key of the i-th preset (the menu's order)."""
    names = _names(i)
    return names[1:names.find(" ", 1)]


def __getattr__(name):
    """PRESETS: every preset, built when asked for (a clock uses find and key_at)."""
    if name == "PRESETS":
        return tuple([_build(i) for i in range(COUNT)])
    raise AttributeError(name)


def find(name):
    """The preset called `name` (key or alias, any case, surrounding spaces ignored)."""
    if not isinstance(name, str):
        return None
    name = name.strip().lower()
    if not name or " " in name or "|" in name:
        return None
    at = _NAMES.find(" " + name + " ")
    if at < 0:
        return None
    return _build(_NAMES.count("|", 0, at))


def _whole(text):
    """A count written plainly ("1" to "999", no sign, no leading zero), else -1."""
    if not 0 < len(text) < 4 or text[0] == "0":
        return -1
    n = 0
    for ch in text:
        d = "0123456789".find(ch)
        if d < 0:
            return -1
        n = n * 10 + d
    return n


def quick(spec):
    """The Control of the plainest typed controls, "Nm" and "Nm+Ns" (N from 1 to 999, "+0s"
    too: what the set-up menu writes), read without the notation parser (~17 KB of a
    32-bit board's heap); None for anything else. notation.parse reads them the same way
    (tests/core/test_presets.py checks every one the menu can write)."""
    if not isinstance(spec, str):
        return None
    k = spec.find("m")
    if k < 0:
        return None
    minutes = _whole(spec[:k])
    rest = spec[k + 1:]
    inc = 0
    if rest:
        if rest[0] != "+" or rest[-1] != "s":
            return None
        inc = 0 if rest == "+0s" else _whole(rest[1:-1])
    if minutes < 0 or inc < 0:
        return None
    return sudden_death(minutes * MIN, inc * 1000)


def resolve(spec):
    """(Control, Preset or None) for what a user typed: a preset name, else a notation."""
    p = find(spec)
    if p is not None:
        return p.control, p
    c = quick(spec)
    if c is not None:
        return c, None
    from clockcore import notation  # only for typed controls: keeps the parser off the heap

    return notation.parse(spec), None
