"""Rule sets as data: what the Laws say about flags, moves, material, defaults, appeals.

Three rule sets, selectable with `chessclock ruling --rules`:

- `fide2023`: FIDE Laws of Chess, in force from 1 January 2023, with the Guidelines.
- `act1987`: FIDE Active Chess rules (1987/88), as printed in FCE Butlletí 54 (seed S2, ACT).
- `rap1990`: FIDE 5-minute ("partides ràpides") rules (1990), same source (seed S2, RAP).

The older sets cover only what they cover; the rest fell under the FIDE Laws of the time,
whose text the seeds give in the 2005 edition (seed S1, cited "S1 6.x"). The FCE general
regulations (RGC) give the late-arrival split (RGC 12.1). Article numbers of the 2023 Laws
follow `shared/seed-requirements.md` §13 (6.4 flag check, 6.7 default time, 6.8 flag fall,
6.9 time loss or dead position, 6.10 faulty clock or wrong setting, 6.11 interruptions,
7.x irregularities, Guidelines III.3.1 for both flags); check them against the official
text before quoting a report in an appeal.
"""

MIN = 60000
HOUR = 60 * MIN

# How both flags down are ruled.
BOTH_FIRST_LOSES = "first-loses"          # the clock shows the order; the first flag decides
BOTH_DRAW = "draw"                        # both down = draw, whatever the order (RAP 9)
BOTH_LATER_UNCLAIMED_DRAW = "later-unclaimed-draw"  # a flag after an unclaimed one (ACT 11c)

# Who "cannot mate" when the other flag falls.
MATE_ANY_SERIES = "any-series"            # FIDE 6.9: no series of legal moves mates (helpmate)
MATE_MATERIAL_LIST = "material-list"      # ACT 11d: the side's material is in the list
MATE_LIST_UNLESS_SHOWN = "list-unless-shown"  # RAP 10f: ... unless it shows mate is possible


class RuleSet:
    def __init__(self, key, title, source, both_flags, cannot_mate, lone_material,
                 dead_endings, illegal_move, default_time_ms, default_note, appeal,
                 articles, notes=()):
        self.key = key
        self.title = title
        self.source = source
        self.both_flags = both_flags
        self.cannot_mate = cannot_mate
        # material (besides the king) with which a side "has not enough to mate" (old lists)
        self.lone_material = tuple(lone_material)
        self.dead_endings = tuple(dead_endings)
        self.illegal_move = illegal_move
        self.default_time_ms = default_time_ms
        self.default_note = default_note
        self.appeal = appeal
        self.articles = dict(articles)
        self.notes = tuple(notes)

    def art(self, topic):
        """The article for a topic, e.g. art('time_loss') -> 'FIDE 6.9'."""
        return self.articles[topic]

    def __repr__(self):
        return "RuleSet(%r)" % self.key


FIDE2023 = RuleSet(
    key="fide2023",
    title="FIDE Laws of Chess (2023)",
    source="FIDE Handbook E.01, Laws of Chess, effective 1 January 2023, with Guidelines",
    both_flags=BOTH_FIRST_LOSES,
    cannot_mate=MATE_ANY_SERIES,
    lone_material=(),
    dead_endings=(),
    illegal_move="first completed illegal move: +2 min to the opponent (+1 min in blitz); "
                 "the second loses (FIDE 7.5.5)",
    default_time_ms=0,
    default_note="0 unless the regulations of the event set it (FIDE 6.7.1); arriving after "
                 "it loses unless the regulations or the arbiter decide otherwise",
    appeal="to the appeals committee of the event, as its regulations provide "
           "(FIDE Laws, Preface; seed DISC 22.4: at least 2 h to file)",
    articles={
        "flag_fall": "FIDE 6.8",
        "moves_check": "FIDE 6.4 (with 6.3.1)",
        "time_loss": "FIDE 6.9",
        "cannot_mate": "FIDE 6.9 (and 5.2.2, dead position)",
        "both_flags": "FIDE 6.9 and Guidelines III.3.1",
        "order_unknown": "FIDE Guidelines III.3.1",
        "counter": "FIDE 6.10.2 (the arbiter adjusts the move counter; no claim may rest on "
                   "it: S1 6.15, US 13C)",
        "wrong_setting": "FIDE 6.10.2",
        "faulty_clock": "FIDE 6.10.1 (S1 6.11)",
        "irregularity": "FIDE 7.1 (S1 6.14)",
        "interruption": "FIDE 6.11",
        "default": "FIDE 6.7.1",
        "late_split": "RGC 12.1 (FCE regulations)",
        "penalty": "FIDE 12.9",
        "claim": "FIDE 6.8",
        "move_time": "FIDE 6.2.1 (a move is completed by pressing the clock)",
    },
    notes=("Guidelines III (games without increment) apply to standard and rapid play, "
           "not blitz.",),
)

ACT1987 = RuleSet(
    key="act1987",
    title="FIDE Active Chess rules (1987/88)",
    source="FCE Butlletí no. 54 (Dec 1990), FIDE Active Chess (seed S2, ACT); the FIDE "
           "Laws of the time (seed S1) for what ACT does not cover",
    both_flags=BOTH_LATER_UNCLAIMED_DRAW,
    cannot_mate=MATE_MATERIAL_LIST,
    lone_material=("", "B", "N"),
    dead_endings=("K v K", "K v K+B", "K v K+N", "K+B v K+B, bishops on the same colour"),
    illegal_move="+2 min to the opponent, on his claim, at the arbiter's discretion (ACT 22); "
                 "an illegal move neither player noticed stands (ACT 21)",
    default_time_ms=HOUR,
    default_note="1 h after the start (S1 6.7; RGC 12.4), unless the event sets otherwise",
    appeal="rulings can be appealed (ACT 15), to the competition committee (seed DISC 22.4: "
           "at least 2 h to file)",
    articles={
        "flag_fall": "ACT 9c",
        "moves_check": "S1 6.10",
        "time_loss": "ACT 9c, 10",
        "cannot_mate": "ACT 11d and ACT 13",
        "both_flags": "ACT 11c",
        "order_unknown": "ACT 11c",
        "counter": "S1 6.15 (no claim may rest on the move counter)",
        "wrong_setting": "ACT 4",
        "faulty_clock": "S1 6.11",
        "irregularity": "S1 6.14",
        "interruption": "ACT 15",
        "default": "S1 6.7",
        "late_split": "RGC 12.1 (FCE regulations)",
        "penalty": "ACT 22",
        "claim": "ACT 10",
        "move_time": "ACT 20 (a move is made when the hand releases the piece)",
    },
    notes=("The claim is made by stopping both clocks with one's own flag up (ACT 10); the "
           "arbiter does not signal flag falls (ACT 17).",),
)

RAP1990 = RuleSet(
    key="rap1990",
    title="FIDE 5-minute rules (1990)",
    source="FCE Butlletí no. 54 (Dec 1990), FIDE rules for 5-minute games (seed S2, RAP); "
           "the FIDE Laws of the time (seed S1) for what RAP does not cover",
    both_flags=BOTH_DRAW,
    cannot_mate=MATE_LIST_UNLESS_SHOWN,
    lone_material=("", "B", "N"),
    dead_endings=("K v K", "K v K+B", "K v K+N", "K+B v K+B, bishops on the same colour"),
    illegal_move="an illegal move (leaving the king in check included) loses if the "
                 "opponent claims before touching a piece; the king may be captured, and "
                 "capturing it before the press of the clock is a draw (RAP 8c)",
    default_time_ms=HOUR,
    default_note="1 h after the start (S1 6.7; RGC 12.4), unless the event sets otherwise",
    appeal="rulings are final (RAP 14)",
    articles={
        "flag_fall": "RAP 9",
        "moves_check": "S1 6.10",
        "time_loss": "RAP 9",
        "cannot_mate": "RAP 10f and RAP 10e",
        "both_flags": "RAP 9",
        "order_unknown": "RAP 9",
        "counter": "S1 6.15 (no claim may rest on the move counter)",
        "wrong_setting": "RAP 3",
        "faulty_clock": "S1 6.11",
        "irregularity": "S1 6.14",
        "interruption": "RAP 14",
        "default": "S1 6.7",
        "late_split": "RGC 12.1 (FCE regulations)",
        "penalty": "S1 13.4",
        "claim": "RAP 9",
        "move_time": "RAP 17 (a move is made when the hand releases the piece)",
    },
    notes=("The claimant stops the clocks with his own flag up and the opponent's down "
           "(RAP 9); the arbiter does not signal flag falls (RAP 15).",),
)

RULESETS = {r.key: r for r in (FIDE2023, ACT1987, RAP1990)}

# RGC 12.1: a visitor delayed by public transport may start; the home player waits 90 min;
# the time elapsed is charged 60 % to the visitor, 40 % to the home player.
LATE_VISITOR_PERCENT = 60
LATE_WAIT_MS = 90 * MIN


def get(key):
    try:
        return RULESETS[key]
    except KeyError:
        raise ValueError("unknown rule set %r (known: %s)"
                         % (key, ", ".join(RULESETS))) from None
