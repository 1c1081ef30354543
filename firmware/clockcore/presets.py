"""Named time controls with the clock behaviour their rules ask for.

Portable: runs on MicroPython and CPython. `resolve(spec)` is what a user's SPEC means:
a preset name (key or alias, any case) first, else notation.parse(spec).
"""

from clockcore.control import DELAY_SIMPLE, Control, SideControl, Stage, sudden_death

MIN = 60000
HOUR = 3600000
DAY = 86400000


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
    source           the rule it follows
    """

    def __init__(self, key, title, control, aliases=(), source="", freeze=True,
                 stage_on_flag=False, inc_at_turn_start=False, audible_flag=False,
                 both_flags_draw=False, ledger=False, move_limit=0):
        self.key = key
        self.title = title
        self._make = control  # a function: controls are built when used, not at import
        self.aliases = tuple(aliases)
        self.source = source
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

    def names(self):
        return (self.key,) + self.aliases

    def __repr__(self):
        return "Preset(%r)" % self.key


def _one(*stages):
    return Control(SideControl(list(stages)))


def _armageddon(white_ms, black_ms):
    # +2 s only from move 61: a 0-time last stage carries the increment
    return Control(SideControl([Stage(white_ms, 60), Stage(0, inc_ms=2000)]),
                   SideControl([Stage(black_ms, 60), Stage(0, inc_ms=2000)]))


PRESETS = (
    Preset("fide-classical", "FIDE classical: 90 min/40 moves + 30 min, +30 s from move 1",
           lambda: _one(Stage(90 * MIN, 40, inc_ms=30000), Stage(30 * MIN, inc_ms=30000)),
           aliases=("classical", "standard"),
           source="FIDE Laws 2023 Art. 6; Handbook C.02"),
    Preset("fide-rapid", "FIDE rapid: 15 min + 10 s", lambda: _one(Stage(15 * MIN, inc_ms=10000)),
           aliases=("rapid",), source="FIDE Laws 2023 Appendix A (Rapid)"),
    Preset("fide-blitz", "FIDE blitz: 3 min + 2 s", lambda: _one(Stage(3 * MIN, inc_ms=2000)),
           aliases=("blitz",), source="FIDE Laws 2023 Appendix B (Blitz)"),
    Preset("armageddon", "Armageddon: White 5 min, Black 4 min, +2 s from move 61",
           lambda: _armageddon(5 * MIN, 4 * MIN), aliases=("fide-armageddon",),
           source="FIDE World Blitz Championship 2018 regulations, Armageddon tie-break"),
    Preset("us-g90-d5", "US: G/90 with 5 s delay",
           lambda: _one(Stage(90 * MIN, delay_ms=5000, delay_kind=DELAY_SIMPLE)),
           aliases=("g90d5", "g90-d5"),
           source="US Chess Official Rules (7th ed.), sudden death with delay"),
    Preset("fide-5min-1990", "FIDE 5-minute chess (1990): 5 min sudden death",
           lambda: _one(Stage(5 * MIN)), aliases=("5min-1990",), both_flags_draw=True,
           freeze=False,  # both flags down is a draw: the second flag must be able to fall
           source="FCE Butlletí 54 (1990), RAP 1, 9"),
    Preset("fide-active-1987", "FIDE active chess (1987): 30 min sudden death",
           lambda: _one(Stage(30 * MIN)), aliases=("active-1987",),
           freeze=False,  # a win on time needs the claimant's own flag still up
           source="ACT 1-2, 9c"),
    Preset("fide-active-1987-inc", "FIDE active chess (1987), Fischer clock: 30 min + 10 s",
           lambda: _one(Stage(30 * MIN, inc_ms=10000)), aliases=("active-1987-inc",), freeze=False,
           source="ACT 22"),
    Preset("fce-six-hour", "FCE: 40 moves in 2 h, then 20 moves per hour",
           lambda: _one(Stage(2 * HOUR, 40), Stage(1 * HOUR, 20)), aliases=("six-hour",),
           source="RGC 5.3.1.1"),
    Preset("wc-2008-first", "World Championship 2008, first control: 40 moves in 120 min",
           lambda: _one(Stage(120 * MIN, 40)), aliases=("wc-2008",),
           source="S1 commentary 6.2b"),
    Preset("cxeb-correspondence", "Correspondence: 10 moves in 40 days, repeating",
           lambda: _one(Stage(40 * DAY, 10)), aliases=("correspondence",), ledger=True,
           source="CXEB Art. 12"),
    Preset("fce-finish-15", "FCE finish: 15 min sudden death", lambda: _one(Stage(15 * MIN)),
           aliases=("finish-15",), source="RGC 10.1"),
    # The seed gives no time for the play-off (seed-requirements §14): 5 min each is this
    # preset's choice; the clock ends the game at the press giving both sides 10 moves.
    Preset("br-playoff", "Knockout play-off: at most 10 moves each, 5 min each",
           lambda: _one(Stage(5 * MIN)), aliases=("playoff-10",), move_limit=10,
           source="S3 4.1 (Brazilian knockout rules)"),
)


def find(name):
    """The preset called `name` (key or alias, any case, surrounding spaces ignored)."""
    if not isinstance(name, str):
        return None
    name = name.strip().lower()
    for p in PRESETS:
        if name in p.names():
            return p
    return None


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
