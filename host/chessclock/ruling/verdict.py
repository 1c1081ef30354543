"""The Ruling a ruling builds, and the steps every ruling shares: citing an article,
referring a case the rules do not cover, what a press time shows, the command that gives a
side time, the sources no claim may rest on."""

from collections.abc import Callable
from enum import StrEnum
from typing import Any

from chessclock.gamenames import describe
from chessclock.ruling.events import UNVERIFIED_BANNER, Source, fmt
from chessclock.ruling.rules import REFERRED_TEXT, MoveMadeAt, RuleSet

BOARD_FACTS = "FACTS (from the scoresheet or the position given)"


class Result(StrEnum):
    """A ruling's result, as a scoresheet writes it."""

    WHITE_WINS = "1-0"
    BLACK_WINS = "0-1"
    DRAW = "1/2-1/2"
    BOTH_LOSE = "0-0"             # both players default
    OPEN = "*"                    # the game goes on, or the ruling settles no result
    REFERRED = "referred"         # the rules are silent: the organisers decide (S3)


class Ruling:
    """A ruling: the facts, the lines (text, article), the result. Some kinds carry more,
    set only by them (as_dict lists those that are set)."""

    split: dict[str, int] | None    # late: each side's share of the elapsed time (None: default)
    times: dict[str, int]           # late: the times to set after the split
    state: dict[str, Any]           # replace: state_at's answer
    points: dict[str, Any]          # playoff
    in_time: bool                   # complaint
    illegal: dict[str, Any]         # illegal-move
    appeal: dict[str, Any]          # --appealed-on: the body, the deadline, in time

    def __init__(self, ruleset: RuleSet) -> None:
        self.ruleset = ruleset
        self.facts: list[str] = []
        self.lines: list[tuple[str, str]] = []    # (text, article)
        self.result = Result.OPEN
        self.summary = ""
        self.mate: dict[str, Any] | None = None  # MateVerdict dict
        self.moves_check: dict[str, Any] | None = None
        self.source: Source | None = None  # the file and its verification
        self.referred: str | None = None   # why the case goes to the organisers (S3)
        self.facts_title = "FACTS (from the clock's log)"
        self.pairing: dict[str, Any] | None = None  # who played (gamenames), when known
        self.pairing_from = ""
        # an instant in words: Facts.when once the log is read
        self.when: Callable[[int | None], str] = fmt

    def rule(self, text: str, topic: str | None = None, article: str | None = None) -> None:
        self.lines.append((text, article or (self.ruleset.art(topic) if topic else "")))

    def as_dict(self) -> dict[str, Any]:
        return {"rules": self.ruleset.key, "facts": self.facts,
                "ruling": [{"text": t, "article": a} for t, a in self.lines],
                "result": self.result, "summary": self.summary, "mate": self.mate,
                "moves_check": self.moves_check, "referred": self.referred,
                "verification": self.source.as_dict() if self.source else None,
                "pairing": self.pairing,
                **{k: getattr(self, k) for k in ("split", "times", "state", "points",
                                                 "in_time", "illegal", "appeal")
                   if hasattr(self, k)}}

    def verification_lines(self) -> list[str]:
        if self.source is None:
            return []
        out = []
        if not self.source.verified:
            out += list(UNVERIFIED_BANNER)
        out.append("VERIFICATION")
        out += ["  - " + x for x in self.source.lines]
        return out

    def text(self) -> str:
        out = self.verification_lines()
        if self.pairing:
            out.append("GAME")
            out.append("  - %s (%s)" % (describe(self.pairing), self.pairing_from))
        out.append(self.facts_title)
        out += ["  - " + f for f in self.facts]
        out.append("RULING (%s)" % self.ruleset.title)
        out += ["  - %s [%s]" % (t, a) if a else "  - " + t for t, a in self.lines]
        if self.referred:
            out.append("REFERRED TO THE ORGANISING COMMITTEE: %s" % self.referred)
        out.append("RESULT: %s  %s%s" % (self.result, self.summary,
                                          "  (UNVERIFIED)" if self.source is not None
                                          and not self.source.verified else ""))
        return "\n".join(out) + "\n"


def win(side: str) -> Result:
    """The result when `side` wins."""
    return Result.WHITE_WINS if side == "white" else Result.BLACK_WINS


def board_ruling(ruleset: RuleSet) -> Ruling:
    """A ruling whose facts come from the board (the scoresheet or a position)."""
    r = Ruling(ruleset)
    r.facts_title = BOARD_FACTS
    return r


def refer(r: Ruling, why: str) -> Ruling:
    """Record a case the rules do not cover as referred to the organisers (S3)."""
    r.referred = why
    r.result = Result.REFERRED
    r.rule("%s: %s" % (why, REFERRED_TEXT), "referred")
    r.summary = "referred to the Organising Committee: %s" % why
    return r


def press_time_note(r: Ruling, what: str) -> None:
    """The clock logs when a lever was pressed; the rule set says when a move is made."""
    rs = r.ruleset
    if rs.move_made_at == MoveMadeAt.RELEASE:
        text = ("%s rests on a press time: the log records when the lever was pressed, not "
                "when the hand left the piece, which is when a move is made; the move was "
                "made at or before the press" % what)
    elif rs.move_made_at == MoveMadeAt.PRESS:
        text = ("%s rests on a press time: a move is completed by pressing the clock, "
                "which is what the log records" % what)
    else:
        text = ("%s rests on a press time: the log records when the lever was pressed; "
                "the rules do not say when a move is made (the player moves, then presses)"
                % what)
    r.rule(text, "move_time")


def adjust_command(side: str, ms: int, reason: str | None = None,
                   article: str | None = None) -> str:
    """The command that gives `side` ms more, with its ground (--reason, --article) when
    known, so that the log carries it."""
    out = "chessclock adjust %s +%s" % (side, "%dm" % (ms // 60000) if ms % 60000 == 0
                                        else "%ds" % (ms // 1000))
    if reason:
        out += ' --reason "%s"' % reason
        article = (article or "").split(" (")[0].strip()   # the article, not its gloss
        if article and len(article.encode()) <= 40:        # what the clock keeps of it
            out += ' --article "%s"' % article
    return out


DEMO_SOURCES = {
    "demo-board": "a demonstration board",
    "screen": "a screen or monitor showing the position or the moves",
    "move-counter": "the clock's move counter",
}


def note_cited(r: Ruling, cites: list[str] | None) -> None:
    """A claim that cites a demonstration board, a screen or the move counter: no claim may
    rest on what they show (S1 6.15; FIDE 6.12.2); the board and the scoresheet decide."""
    for c in cites or ():
        r.facts.append("The claim cites %s" % DEMO_SOURCES[c])
        r.rule("No claim may rest on what %s shows: the ruling rests on the scoresheet, "
               "the board and the clock's times, not on it" % DEMO_SOURCES[c], "demo_board")
