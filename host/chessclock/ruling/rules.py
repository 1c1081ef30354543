"""Rule sets as data: what the Laws say about flags, moves, material, defaults, appeals.

Five rule sets, selectable with `chessclock ruling --rules`:

- `fide2023`: FIDE Laws of Chess, in force from 1 January 2023, with the Guidelines.
- `act1987`: FIDE Active Chess rules (1987/88), as printed in FCE Butlletí 54 (seed S2, ACT).
- `rap1990`: FIDE 5-minute ("partides ràpides") rules (1990), same source (seed S2, RAP).
- `br-knockout`: an undated Brazilian knockout rule sheet (seed S3): illegal move loses,
  the "last 5 moves" draw claim, a play-off of at most 10 moves each decided by the king or
  by material points; what it does not cover goes to the Organising Committee ("referred").
- `fce-rgc1990`: the FCE general competition regulations (seed S2, RGC): the default time,
  the late visitor's 60/40 split, the club's town; the game itself under the FIDE Laws
  (RGC 1.1).

The older sets cover only what they cover; the rest fell under the FIDE Laws of the time,
whose text the seeds give in the 2005 edition (seed S1, cited "S1 6.x"). The FCE general
regulations (RGC) give the late-arrival split (RGC 12.1): only `fce-rgc1990` applies it;
each rule set answers with its own rules and says when a question is outside them. Article
numbers of the 2023 Laws follow `shared/seed-requirements.md` §13 (6.4 flag check, 6.7
default time, 6.8 flag fall, 6.9 time loss or dead position, 6.10 faulty clock or wrong
setting, 6.11 interruptions, 7.x irregularities, Guidelines III.3.1 for both flags); check
them against the official text before quoting a report in an appeal.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from chessclock.ruling.events import RulingError

MIN = 60000
HOUR = 60 * MIN

class BothFlags(StrEnum):
    """How both flags down are ruled."""

    FIRST_LOSES = "first-loses"     # the clock shows the order; the first flag decides
    DRAW = "draw"                   # both down = draw, whatever the order (RAP 9)
    LATER_UNCLAIMED_DRAW = "later-unclaimed-draw"  # a flag after an unclaimed one (ACT 11c)
    REFERRED = "referred"           # the rules say nothing: the organisers decide (S3)


class CannotMate(StrEnum):
    """Who "cannot mate" when the other flag falls."""

    ANY_SERIES = "any-series"       # FIDE 6.9: no series of legal moves mates (helpmate)
    MATERIAL_LIST = "material-list"  # ACT 11d: the side's material is in the list
    LIST_UNLESS_SHOWN = "list-unless-shown"  # RAP 10f: ... unless it shows mate is possible


class MoveMadeAt(StrEnum):
    """When a move is made."""

    RELEASE = "release"             # the hand leaves the piece (ACT 20, RAP 17)
    PRESS = "press"                 # completed by the press of the clock (FIDE 6.2.1)


class IllegalKind(StrEnum):
    """What an illegal move costs (seed-requirements §6.5)."""

    PLUS2_THEN_LOSS = "plus2-then-loss"  # FIDE 7.5.5: +2 min (blitz +1), the 2nd loses
    PLUS2_ON_CLAIM = "plus2-on-claim"    # ACT 22b: +2 min on claim, arbiter's discretion
    CLAIM_WIN = "claim-win"              # RAP 8c: wins if claimed before touching a piece
    LOSS = "loss"                        # S3 item 3: the illegal move loses


class Unnoticed(StrEnum):
    """An illegal move neither player noticed at the time (§6.7)."""

    RESTORE = "restore"             # FIDE 7.5.1: the position before the irregularity
    STANDS = "stands"               # ACT 21, RAP 18: it stands, no claim rests on it
    REFERRED = "referred"           # S3: not covered


class BothKings(StrEnum):
    """Both kings in check."""

    RESTORE = "restore"             # FIDE 7.5.1: it came from an illegal move: reinstate
    RETRACT = "retract-or-draw"     # ACT 21: retract a move each, else draw
    ARBITER = "arbiter"             # RAP 18 leaves it standing; the arbiter decides (RAP 14)
    REFERRED = "referred"           # S3: not covered


class ComplaintWindow(StrEnum):
    """When a complaint about the clock's setting comes too late (seed §2.8); a rule set
    without one (FIDE 6.10.2: the arbiter corrects it when it is found) has None."""

    BOTH = "both"                   # once each player has made a first move (ACT 4)
    OWN = "own"                     # once the complainant has (RAP 3)
    REFERRED = "referred"           # the rules say nothing (S3)


# The grounds of a draw claim: no capture or pawn move for N moves (FIDE 9.3, S3's last 5
# moves), a repetition, a perpetual check (ACT 14a, RAP 10d), no practical chances (ACT 14b).
DRAW_CLAIM_GROUNDS = ("moves", "repetition", "perpetual", "no-chances")

# The Organising Committee decides what S3 does not cover (its last numbered item).
REFERRED_TEXT = ("not covered by the rules: referred to the Organising Committee "
                 "(S3: «Casos omissões serão resolvidos pela Comissão Organizadora»)")

# Play-off material points (S3 4.1); the king is "infinitely valuable": taking it wins.
PLAYOFF_POINTS = {"P": 1, "N": 3, "B": 3, "R": 5, "Q": 9}
PLAYOFF_MOVES = 10


@dataclass(frozen=True, eq=False)   # each rule set is one of its kind: equal if the same
class RuleSet:
    """A rule set as data: for each question a ruling asks, this set's answer (one of the
    constants above) and the article it cites."""

    key: str
    title: str
    source: str
    both_flags: BothFlags
    cannot_mate: CannotMate
    # material (besides the king) with which a side "has not enough to mate" (old lists)
    lone_material: tuple[str, ...]
    dead_endings: tuple[str, ...]
    illegal_move: str
    default_time_ms: int
    default_note: str
    appeal: str
    articles: Mapping[str, str]    # topic -> article, e.g. "time_loss" -> "FIDE 6.9"
    notes: tuple[str, ...] = ()
    illegal_kind: IllegalKind = IllegalKind.PLUS2_THEN_LOSS
    unnoticed: Unnoticed = Unnoticed.RESTORE
    both_kings: BothKings = BothKings.RESTORE
    # The "no capture, no pawn move" draw: the claim after N moves of each player, and
    # the automatic draw after M (FIDE 9.6.2: 75); the same check, N a parameter.
    draw_claim_moves: int | None = 50
    draw_auto_moves: int | None = None
    false_claim_ms: int | None = None   # time to the opponent for a false claim
    complaint_window: ComplaintWindow | None = None   # None: no deadline (FIDE 6.10.2)
    playoff: bool = False                # a drawn game goes to a play-off (S3 4.1)
    false_claim_grounds: tuple[str, ...] | None = None  # the false claim's time: these only
    move_made_at: MoveMadeAt | None = None   # None: the rules do not say
    # RGC 12.1: a visitor from another town, delayed by public transport, may start up
    # to 90 min late, the time elapsed charged 60/40 (only the FCE regulations say so)
    late_split: bool = False

    def art(self, topic: str) -> str:
        """The article for a topic, e.g. art('time_loss') -> 'FIDE 6.9'."""
        return self.articles[topic]

    def __repr__(self) -> str:
        return "RuleSet(%r)" % self.key


FIDE2023 = RuleSet(
    key="fide2023",
    title="FIDE Laws of Chess (2023)",
    source="FIDE Handbook E.01, Laws of Chess, effective 1 January 2023, with Guidelines",
    both_flags=BothFlags.FIRST_LOSES,
    cannot_mate=CannotMate.ANY_SERIES,
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
        "illegal_move": "FIDE 7.5.1, 7.5.5 (blitz: Appendix B.3, +1 min)",
        "unnoticed_illegal": "FIDE 7.5.1 (the position before the irregularity)",
        "both_kings": "FIDE 7.5.1 (the position before the irregularity)",
        "draw_claim": "FIDE 9.3 (claim), 9.6.2 (75 moves: automatic)",
        "repetition": "FIDE 9.2",
        "false_claim": "FIDE 9.5.3",
        "setting_complaint": "FIDE 6.10.2",
        "practical_chances": "FIDE Guidelines III.5 (games without increment: the arbiter "
                             "decides a claim that the opponent cannot win by normal means)",
        "playoff": "the event's regulations (tie-breaks are not in the Laws)",
        "demo_board": "FIDE 6.12.2 (S1 6.15)",
        "referred": "FIDE Laws, Preface (the arbiter decides what the Laws do not cover)",
    },
    notes=("Guidelines III (games without increment) apply to standard and rapid play, "
           "not blitz.",),
    illegal_kind=IllegalKind.PLUS2_THEN_LOSS, unnoticed=Unnoticed.RESTORE,
    both_kings=BothKings.RESTORE, draw_claim_moves=50, draw_auto_moves=75,
    false_claim_ms=2 * MIN, complaint_window=None,
    move_made_at=MoveMadeAt.PRESS,
)

ACT1987 = RuleSet(
    key="act1987",
    title="FIDE Active Chess rules (1987/88)",
    source="FCE Butlletí no. 54 (Dec 1990), FIDE Active Chess (seed S2, ACT); the FIDE "
           "Laws of the time (seed S1) for what ACT does not cover",
    both_flags=BothFlags.LATER_UNCLAIMED_DRAW,
    cannot_mate=CannotMate.MATERIAL_LIST,
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
        "illegal_move": "ACT 22b",
        "unnoticed_illegal": "ACT 21",
        "both_kings": "ACT 21",
        "draw_claim": "ACT 19 (the FIDE Laws of the time: the 50-move claim)",
        "practical_chances": "ACT 14a-b and NOTE",
        "repetition": "ACT 19 (the FIDE Laws of the time)",
        "false_claim": "ACT 14 (+2 min to the opponent of a false claimant)",
        "setting_complaint": "ACT 4",
        "playoff": "the event's regulations (ACT has no play-off)",
        "demo_board": "S1 6.15",
        "referred": "ACT 15 (the arbiter interprets; appeal to the Appeals Committee)",
    },
    notes=("The claim is made by stopping both clocks with one's own flag up (ACT 10); the "
           "arbiter does not signal flag falls (ACT 17).",),
    illegal_kind=IllegalKind.PLUS2_ON_CLAIM, unnoticed=Unnoticed.STANDS,
    both_kings=BothKings.RETRACT, draw_claim_moves=50, false_claim_ms=2 * MIN,
    false_claim_grounds=("perpetual", "no-chances"), complaint_window=ComplaintWindow.BOTH,
    move_made_at=MoveMadeAt.RELEASE,
)

RAP1990 = RuleSet(
    key="rap1990",
    title="FIDE 5-minute rules (1990)",
    source="FCE Butlletí no. 54 (Dec 1990), FIDE rules for 5-minute games (seed S2, RAP); "
           "the FIDE Laws of the time (seed S1) for what RAP does not cover",
    both_flags=BothFlags.DRAW,
    cannot_mate=CannotMate.LIST_UNLESS_SHOWN,
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
        "illegal_move": "RAP 8c",
        "unnoticed_illegal": "RAP 18",
        "both_kings": "RAP 18 and RAP 14",
        "draw_claim": "RAP 13 (the FIDE Laws of the time: the 50-move claim)",
        "repetition": "RAP 10d",
        "false_claim": "RAP 13 (the FIDE Laws of the time; RAP sets no penalty)",
        "setting_complaint": "RAP 3",
        "practical_chances": "RAP 10g (an obviously drawn position, with 30 s or more)",
        "playoff": "the event's regulations (RAP has no play-off)",
        "demo_board": "S1 6.15",
        "referred": "RAP 14 (the arbiter decides, finally)",
    },
    notes=("The claimant stops the clocks with his own flag up and the opponent's down "
           "(RAP 9); the arbiter does not signal flag falls (RAP 15).",),
    illegal_kind=IllegalKind.CLAIM_WIN, unnoticed=Unnoticed.STANDS,
    both_kings=BothKings.ARBITER, draw_claim_moves=50, complaint_window=ComplaintWindow.OWN,
    move_made_at=MoveMadeAt.RELEASE,
)

BRKNOCKOUT = RuleSet(
    key="br-knockout",
    title="Brazilian knockout rule sheet (seed S3)",
    source="undated Brazilian knockout championship rules (seed S3, 'Federação dos Planetas "
           "Unidos'); the Organising Committee decides what it does not cover",
    both_flags=BothFlags.REFERRED,
    cannot_mate=CannotMate.MATERIAL_LIST,
    lone_material=("", "B", "N"),
    dead_endings=("K v K", "K v K+B", "K v K+N"),
    illegal_move="an illegal move (not getting out of check, exposing one's own king, "
                 "moving or capturing wrongly) loses (S3 item 3)",
    default_time_ms=0,
    default_note="the rules set no default time: referred to the Organising Committee",
    appeal="the Organising Committee (S3: «Casos omissões serão resolvidos pela Comissão "
           "Organizadora»)",
    articles={
        "flag_fall": "S3 'Relógios e Cronômetros' (the opponent announces it)",
        "moves_check": "S3 (sudden death: all moves in the time)",
        "time_loss": "S3 'Relógios e Cronômetros'",
        "cannot_mate": "S3 'Relógios e Cronômetros'; S3 'Ocorrerá empate' 1",
        "both_flags": "S3 (not covered)",
        "order_unknown": "S3 (not covered)",
        "counter": "S1 6.15 (no claim may rest on the move counter)",
        "wrong_setting": "S3 (not covered)",
        "faulty_clock": "S3 (not covered)",
        "irregularity": "S3 (not covered)",
        "interruption": "S3 (not covered)",
        "default": "S3 (not covered)",
        "late_split": "RGC 12.1 (FCE regulations; not part of S3)",
        "penalty": "S3 (not covered)",
        "claim": "S3 'Relógios e Cronômetros'",
        "move_time": "S3 'Relógios e Cronômetros' (the player moves, then presses the clock)",
        "illegal_move": "S3 item 3 (3.1-3.4)",
        "unnoticed_illegal": "S3 (not covered)",
        "both_kings": "S3 (not covered)",
        "draw_claim": "S3 'Ocorrerá empate' 4 (5 lances)",
        "repetition": "S3 'Ocorrerá empate' 5",
        "false_claim": "S3 (not covered)",
        "setting_complaint": "S3 (not covered)",
        "practical_chances": "S3 (not covered)",
        "playoff": "S3 4.1",
        "demo_board": "S3 (not covered; the FIDE Laws of the time: S1 6.15)",
        "referred": "S3 (Casos omissos: Comissão Organizadora)",
    },
    notes=("The game's duration is set by the organisers from the entrants and the boards "
           "(S3); a drawn game goes to a play-off of at most 10 moves each (S3 4.1: the "
           "clock preset br-playoff).",),
    illegal_kind=IllegalKind.LOSS, unnoticed=Unnoticed.REFERRED, both_kings=BothKings.REFERRED,
    draw_claim_moves=5, complaint_window=ComplaintWindow.REFERRED, playoff=True,
)

FCERGC1990 = RuleSet(
    key="fce-rgc1990",
    title="FCE general competition regulations (1990), the FIDE Laws for the game",
    source="FCE Butlletí no. 54 (Dec 1990), Reglamentació General de Competicions (seed S2, "
           "RGC) and disciplinary rules (DISC); what RGC does not specify, the FIDE "
           "regulations (RGC 1.1), read here as the FIDE Laws of Chess (2023)",
    both_flags=FIDE2023.both_flags,
    cannot_mate=FIDE2023.cannot_mate,
    lone_material=(),
    dead_endings=(),
    illegal_move=FIDE2023.illegal_move,
    default_time_ms=HOUR,
    default_note="a player loses an hour after the official start without having been "
                 "replaced (RGC 12.1), also at the resumption of an adjourned game (RGC 12.4)",
    appeal="the Appeals Committee of the competition, the same day (DISC 22.4-22.5: at least "
           "2 h to file); in the ordinary procedure the Competition Committee (DISC 23.4: at "
           "least 2 days), then the FCE Executive Council (DISC 23.10: 10 calendar days)",
    articles=dict(FIDE2023.articles, **{
        "default": "RGC 12.1",
        "late_split": "RGC 12.1",
        "referred": "RGC 1.1 (what RGC does not specify: the FIDE regulations)",
    }),
    notes=("RGC 1.1: what these regulations do not specify is looked up in the FIDE "
           "regulations.",),
    illegal_kind=FIDE2023.illegal_kind, unnoticed=FIDE2023.unnoticed,
    both_kings=FIDE2023.both_kings, draw_claim_moves=50, draw_auto_moves=75,
    false_claim_ms=2 * MIN, complaint_window=None, move_made_at=MoveMadeAt.PRESS,
    late_split=True,
)

RULESETS = {r.key: r for r in (FIDE2023, ACT1987, RAP1990, BRKNOCKOUT, FCERGC1990)}

# RGC 12.1: a visitor delayed by public transport may start; the home player waits 90 min;
# the time elapsed is charged 60 % to the visitor, 40 % to the home player.
LATE_VISITOR_PERCENT = 60
LATE_WAIT_MS = 90 * MIN


def get(key: str) -> RuleSet:
    """The rule set named `key` (`--rules`)."""
    try:
        return RULESETS[key]
    except KeyError:
        raise RulingError("unknown rule set %r (known: %s)"
                          % (key, ", ".join(RULESETS))) from None
