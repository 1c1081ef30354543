"""`chessclock ruling`: what the log shows and what the Laws say about it.

Its forms:

    chessclock ruling FLAGFILE [--control SPEC] [--rules R] [--pgn GAME.pgn] [--fen FEN]
                      [--json] [--plot out.png|out.svg] [--html report.html]
                      [--incident out.txt|out.md --event E --place P --match M]
    chessclock ruling late --elapsed 75m --visitor white [--control SPEC] [--rules R]
    chessclock ruling replace FLAGFILE (--at-seq N | --at TIME) [--control SPEC]
    chessclock ruling illegal-move | both-kings | draw-claim | complaint | playoff ...
                      (on the board and the play-off)

FLAGFILE is the clock's log (`chessclock log pull`: verified first) or JSON Lines of clock
events (the output of `chessclock simulate` or of `chessclock log export --format jsonl`:
marked unverified). The ruling states the facts from the log, then applies the selected rule
set, each line citing its article. The clock counts presses, not moves: the move counter is
advisory and the scoresheet (--pgn) decides whether a control was met. This module reads the
command line and writes the answer; the rulings are in the package chessclock.ruling.
"""

import argparse
import datetime as dt
import importlib.util
import json
from typing import IO, TYPE_CHECKING

from chessclock import gamenames
from chessclock.competition import deadlines as D
from chessclock.link import transport as K
from chessclock.ruling import report as RR
from chessclock.ruling import rules as R
from chessclock.ruling.events import (
    SIDES,
    Event,
    RulingError,
    Source,
    load_source,
    parse_duration,
    resolve_control,
)
from chessclock.ruling.late import rule_late
from chessclock.ruling.replace import rule_replace
from chessclock.ruling.verdict import DEMO_SOURCES, Ruling, note_cited

if TYPE_CHECKING:   # python-chess loads only for the forms on a board (see _run_board)
    import chess
    import chess.pgn

BOARD_FORMS = ("illegal-move", "both-kings", "draw-claim", "complaint", "playoff")


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of all forms; those on the board in a group of their own."""
    p.usage = ("chessclock ruling FLAGFILE [options]\n"
               "       chessclock ruling late --elapsed TIME --visitor white|black [options]\n"
               "       chessclock ruling replace FLAGFILE (--at-seq N | --at TIME) [options]\n"
               "       chessclock ruling illegal-move (--pgn F | --fen FEN) --move e1f2 "
               "[options]\n"
               "       chessclock ruling both-kings --fen FEN [--retracted FEN]\n"
               "       chessclock ruling draw-claim (--pgn F | --fen FEN) [--ground G] "
               "[--moves N] [--move M]\n"
               "       chessclock ruling complaint FLAGFILE --at TIME [--by SIDE]\n"
               "       chessclock ruling playoff [FLAGFILE] (--pgn F | --fen FEN) [--limit N]")
    p.add_argument("what", nargs="+", metavar="FLAGFILE",
                   help="the clock's log (`chessclock log pull`: verified first), or JSON "
                        "Lines of clock events (simulate output, log export: marked "
                        "unverified); or late, replace FLAGFILE, illegal-move, both-kings, "
                        "draw-claim, complaint FLAGFILE, playoff")
    p.add_argument("--key", metavar="FILE", help="the arbiter's key, to check the log's "
                   "signature (default: `chessclock key use`'s, or $CHESSCLOCK_KEY)")
    p.add_argument("--unverified", action="store_true",
                   help="rule on a log that fails verification (marked in large letters)")
    p.add_argument("--game", type=int, default=None, metavar="N",
                   help="which game of the log, from 1 (default: the last played)")
    p.add_argument("--control", metavar="SPEC", help="the time control (else the log's)")
    p.add_argument("--rules", default=None, choices=sorted(R.RULESETS),
                   help="rule set (default fide2023; for playoff br-knockout)")
    p.add_argument("--pgn", metavar="GAME.pgn", help="the scoresheet the arbiter has: the "
                   "game's moves up to the flag, as PGN")
    p.add_argument("--fen", help="the position at the flag (if no PGN)")
    p.add_argument("--json", action="store_true", help="print the ruling as JSON")
    p.add_argument("--appealed-on", metavar="YYYY-MM-DD", help="the ruling was appealed on "
                   "this date: to which body, and in time? (the ruling's date: --date, else "
                   "today)")
    p.add_argument("--cites", action="append", choices=sorted(DEMO_SOURCES),
                   help="the claim cites a demonstration board, a screen or the move "
                        "counter (no claim may rest on them: S1 6.15); repeat for more")
    p.add_argument("--nodes", type=int, default=None,
                   help="helpmate search bound in positions")
    p.add_argument("--plot", metavar="OUT.png|OUT.svg", help="draw time left per move")
    p.add_argument("--html", metavar="REPORT.html", help="one page: facts, ruling, picture")
    p.add_argument("--incident", metavar="OUT.txt|OUT.md", help="write an incident report")
    p.add_argument("--event", default="", help="incident report: the event")
    p.add_argument("--place", default="", help="incident report: the place")
    p.add_argument("--match", default="", help="incident report: the match or round")
    p.add_argument("--date", default="", help="incident report: the date (else the log's)")
    p.add_argument("--arbiter", default="", help="incident report: the arbiter's name")
    p.add_argument("--pairings", metavar="FILE", help="the round's pairings (CSV or FIDE "
                   "TRF): the players of --board N when the log does not name them")
    p.add_argument("--board", type=int, default=None, metavar="N",
                   help="with --pairings: the board the clock was on")
    p.add_argument("--round", default=None, metavar="N", help="with --pairings (TRF): "
                   "the round (default: the last one paired)")
    p.add_argument("--elapsed", metavar="TIME", help="late: time since the scheduled start: "
                   "75m, 1h15m or 1:15:00 (with a unit)")
    p.add_argument("--visitor", choices=SIDES, help="late: the late (visiting) player's "
                   "colour")
    p.add_argument("--home-town", metavar="TOWN", help="late (RGC 12.2): the town of the home "
                   "player's club")
    p.add_argument("--visitor-town", metavar="TOWN", help="late (RGC 12.2): the town of the "
                   "visitor's club")
    p.add_argument("--default-time", metavar="TIME",
                   help="late: the event's default time, e.g. 60m")
    p.add_argument("--at-seq", type=int, metavar="N", help="replace: state after record N")
    p.add_argument("--at", metavar="TIME", help="replace: state at this clock time; "
                   "complaint: when the complaint was made (clock time): 20m, 0:40, 1:02:00")
    _add_board_arguments(p)


def _add_board_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("on the board (illegal-move, both-kings, draw-claim, "
                             "complaint, playoff)")
    g.add_argument("--move", metavar="MOVE", help="illegal-move: the move played, in "
                   "coordinates (e1f2, e7e8q); draw-claim: the intended move written")
    g.add_argument("--count", type=int, default=1, metavar="N",
                   help="illegal-move: the player's illegal move number N (default 1)")
    g.add_argument("--blitz", action="store_true", help="illegal-move: a blitz game")
    g.add_argument("--claim", choices=("before-touch", "after-touch"),
                   help="illegal-move (RAP 8c): the opponent claimed before/after touching "
                        "a piece")
    g.add_argument("--king-captured", choices=("before-press", "after-press"),
                   help="illegal-move (RAP 8c): the king was taken before/after the press")
    g.add_argument("--noticed", choices=("now", "later"), default="now",
                   help="illegal-move: noticed at once (default) or only later")
    g.add_argument("--retracted", metavar="FEN", help="both-kings (ACT 21): the position "
                   "after taking back a move of each side")
    g.add_argument("--ground", default="moves", choices=R.DRAW_CLAIM_GROUNDS,
                   help="draw-claim: the ground (default: moves without capture or pawn "
                        "move)")
    g.add_argument("--moves", type=int, default=None, metavar="N", dest="claim_moves",
                   help="draw-claim: N moves of each player (default: the rule set's: "
                        "br-knockout 5, FIDE 50)")
    g.add_argument("--found", choices=("correct", "incorrect"),
                   help="draw-claim (ACT 14): the arbiter's finding on the claim")
    g.add_argument("--own-flag", choices=("up", "fallen"),
                   help="draw-claim (ACT 14): the claimant's own flag (the claim is made "
                        "with it up)")
    g.add_argument("--by", choices=SIDES, help="complaint: who complained")
    g.add_argument("--limit", type=int, default=None, metavar="N",
                   help="playoff: moves a side that count (default 10)")


def _board_input(args: argparse.Namespace) -> tuple["chess.pgn.Game | None", "chess.Board"]:
    """(game or None, board) from --pgn / --fen."""
    from chessclock.ruling import position  # python-chess: only the forms on a board load it

    if args.pgn and args.fen:
        raise RulingError("give --pgn or --fen, not both")
    game = position.read_pgn(args.pgn) if args.pgn else None
    if game is None and args.fen is None:
        raise RulingError("give the position: --pgn GAME.pgn (the scoresheet) or --fen FEN")
    return game, position.board_from(game, args.fen)


def _run_board(what: list[str], ruleset: R.RuleSet, args: argparse.Namespace,
               stdout: IO[str]) -> int:
    """The forms on the board (and the play-off): illegal-move, both-kings, draw-claim,
    complaint, playoff."""
    # python-chess: only the forms on a board load it
    from chessclock.ruling import claims, illegal, position

    form = what[0]
    if form not in ("complaint", "playoff") and len(what) != 1:
        raise RulingError("%s takes no file: the position comes from --pgn or --fen" % form)
    if form == "playoff" and len(what) > 2:
        raise RulingError("playoff takes at most one FLAGFILE (the play-off's clock log)")
    events: list[Event] = []
    if form == "illegal-move":
        if not args.move:
            raise RulingError("illegal-move takes --move (the move played, e.g. e1f2)")
        if args.count < 1:
            raise RulingError("--count %d: the illegal move's number, 1 or more" % args.count)
        _, board = _board_input(args)
        position.legal_position(board)
        r = illegal.rule_illegal(board, position.parse_move(board, args.move), ruleset,
                                 args.count, args.blitz, args.claim, args.king_captured,
                                 args.noticed, args.nodes)
    elif form == "both-kings":
        _, board = _board_input(args)
        position.one_king_each(board)
        retracted = position.retracted_board(args.retracted) if args.retracted else None
        r = illegal.rule_both_kings(board, ruleset, retracted)
    elif form == "draw-claim":
        game, board = _board_input(args)
        position.legal_position(board)
        r = claims.rule_draw_claim(board, ruleset, args.ground, args.claim_moves, args.move,
                                   args.found, from_fen=game is None,
                                   own_flag=args.own_flag)
    elif form == "complaint":
        if len(what) != 2 or not args.at:
            raise RulingError("complaint takes FLAGFILE and --at TIME (when the complaint "
                              "was made)")
        events, source = _source(what[1], args)
        r = claims.rule_complaint(events, ruleset, parse_duration(args.at), args.by)
        r.source = source
    else:
        events, r = _run_playoff(what, ruleset, args)
    _write_result(r, args, stdout)
    if args.incident:  # a record of the case, e.g. one referred to the organisers
        try:
            RR.write_incident(args.incident, events, r, event=args.event, place=args.place,
                              match=args.match, date=args.date, arbiter=args.arbiter)
        except OSError as e:
            raise _not_written(e) from None
    return 0


def _run_playoff(what: list[str], ruleset: R.RuleSet, args: argparse.Namespace
                 ) -> tuple[list[Event], Ruling]:
    """The play-off's ruling: its final position, and its clock's log if given."""
    from chessclock.ruling import playoff, position  # python-chess (see _run_board)

    game = position.read_pgn(args.pgn) if args.pgn else None
    if game is not None and args.fen:
        raise RulingError("give --pgn or --fen, not both")
    board = playoff.fen_board(args.fen) if args.fen and game is None else None
    if game is None and board is None:
        raise RulingError("playoff takes the final position: --pgn PLAYOFF.pgn or "
                          "--fen FEN")
    source = None
    events: list[Event] = []
    if len(what) == 2:
        events, source = _source(what[1], args)
    r = playoff.rule_playoff(ruleset, game, board,
                             R.PLAYOFF_MOVES if args.limit is None else args.limit,
                             events or None)
    r.source = source
    return events, r


def _source(path: str, args: argparse.Namespace) -> tuple[list[Event], Source]:
    """The events of FLAGFILE, verified with the arbiter's key (--key, else the one in use)."""
    try:
        key = K.key_for(args)
    except K.ClockError as e:
        raise RulingError(str(e)) from None
    return load_source(path, key, args.game, args.unverified)


def _names(r: Ruling, events: list[Event], args: argparse.Namespace) -> None:
    """Who played: the clock's log names them (`chessclock pairings push`); else board
    --board of --pairings FILE."""
    if args.board is not None and not args.pairings:
        raise RulingError("--board N goes with --pairings FILE (the round's pairings)")
    p = gamenames.from_events(events)
    if p is not None:
        r.pairing, r.pairing_from = p, "from the clock's log"
        return
    if args.pairings:
        if args.board is None:
            raise RulingError("the log names no board: give --board N with --pairings")
        try:
            r.pairing = gamenames.from_file(args.pairings, args.board, args.round)
        except ValueError as e:
            raise RulingError("--pairings: %s" % e) from None
        r.pairing_from = "from %s, not from the clock" % args.pairings


def _headers(r: Ruling, game: "chess.pgn.Game | None") -> dict[str, str] | None:
    """PGN headers for the reports: the scoresheet's, the pairing's where it has none."""
    h = dict(gamenames.pgn_headers(r.pairing)) if r.pairing else {}
    for k, v in (game.headers.items() if game is not None else ()):
        if v not in ("", "?") or k not in h:
            h[k] = v
    return h or None


def note_appeal(r: Ruling, filed: str | None, ruled: str | None) -> None:
    """--appealed-on: whether the ruling was appealed, to which body, and in time (the
    rule set's own appeal: ACT 15, RAP 14 final, DISC 23.10, the event's regulations)."""
    if filed is None:
        return
    try:
        on = D.parse_date(filed, "--appealed-on")
        day = dt.date.today()
        if ruled:
            try:
                day = dt.date.fromisoformat(ruled.strip())
            except ValueError:
                raise RulingError("--date %r: with --appealed-on, the ruling's date is "
                                  "YYYY-MM-DD" % ruled[:30]) from None
        if on < day:
            raise RulingError("--appealed-on %s is before the ruling (%s)" % (on, day))
        a = D.appeal(r.ruleset.key, day, on)
    except D.DeadlineError as e:
        raise RulingError(str(e)) from None
    r.appeal = a
    r.facts.append("Appeal filed %s against the ruling of %s" % (a["filed"], a["from"]))
    r.rule("Appeal: %s (%s)" % (a["appealed"], "the last day was %s" % a["last_day"]
                                if a["last_day"] else a["count"]), article=a["article"])


def _write_result(r: Ruling, args: argparse.Namespace, stdout: IO[str]) -> None:
    note_cited(r, args.cites)
    note_appeal(r, args.appealed_on, args.date)
    if args.json:
        stdout.write(json.dumps(r.as_dict(), indent=1) + "\n")
    else:
        stdout.write(r.text())


def _write_reports(args: argparse.Namespace, events: list[Event], r: Ruling,
                   game: "chess.pgn.Game | None") -> None:
    """--plot, --html and --incident, each when asked for."""
    if args.plot and not str(args.plot).lower().endswith((".png", ".svg")):
        raise RulingError("--plot %s: the picture is a .png or a .svg file" % args.plot)
    try:
        if args.plot:
            RR.plot(events, args.plot)
        if args.html:
            RR.write_html(args.html, events, r, event=args.event, headers=_headers(r, game))
        if args.incident:
            RR.write_incident(args.incident, events, r, event=args.event, place=args.place,
                              match=args.match, date=args.date, arbiter=args.arbiter,
                              headers=_headers(r, game))
    except OSError as e:
        raise _not_written(e) from None
    except ValueError as e:   # matplotlib: an extension it cannot write
        raise RulingError("cannot draw: %s" % e) from None


def _not_written(e: OSError) -> RulingError:
    return RulingError("cannot write %s: %s" % (e.filename or "the report", e.strerror or e))


def run(args: argparse.Namespace, stdout: IO[str], stderr: IO[str]) -> int:
    try:
        return _run(args, stdout)
    except RulingError as e:
        stderr.write("chessclock ruling: %s\n" % e)
        return 2


def _run(args: argparse.Namespace, stdout: IO[str]) -> int:
    if (args.plot or args.html) and importlib.util.find_spec("matplotlib") is None:
        raise RulingError("--plot and --html draw with matplotlib, which is not installed: "
                          "pip install 'chessclock[plot]'")  # an extra: 170 MB for one option
    what = args.what
    ruleset = R.get(args.rules or ("br-knockout" if what[0] == "playoff" else "fide2023"))
    if what[0] in BOARD_FORMS:
        return _run_board(what, ruleset, args, stdout)
    if what[0] == "late":
        _write_result(_run_late(what, ruleset, args), args, stdout)
        return 0
    if what[0] == "replace":
        if len(what) != 2 or (args.at_seq is None) == (args.at is None):
            raise RulingError("replace takes FLAGFILE and one of --at-seq N or --at TIME")
        events, source = _source(what[1], args)
        control, _, preset = resolve_control(args.control, events)
        at_ms = parse_duration(args.at) if args.at else None
        r = rule_replace(events, ruleset, args.at_seq, at_ms, control, preset)
        r.source = source
        _names(r, events, args)
        _write_result(r, args, stdout)
        return 0
    if len(what) != 1:
        raise RulingError("give one FLAGFILE (or 'late', or 'replace FLAGFILE')")
    from chessclock.ruling import flag, position  # python-chess (see _run_board)

    events, source = _source(what[0], args)
    control, spec, _ = resolve_control(args.control, events)
    game = position.read_pgn(args.pgn) if args.pgn else None
    board = position.board_from(None, args.fen) if args.fen and game is None else None
    if board is not None:
        position.legal_position(board)
    r = flag.rule_flag(events, ruleset, control, spec, game=game, board=board,
                       max_nodes=args.nodes)
    r.source = source
    _names(r, events, args)
    _write_result(r, args, stdout)
    if args.plot or args.html or args.incident:
        _write_reports(args, events, r, game)
    return 0


def _run_late(what: list[str], ruleset: R.RuleSet, args: argparse.Namespace) -> Ruling:
    if len(what) != 1 or not args.elapsed or not args.visitor:
        raise RulingError("late takes --elapsed TIME and --visitor white|black")
    control, _, _ = resolve_control(args.control)
    default = parse_duration(args.default_time) if args.default_time else None
    towns = None
    if (args.home_town is None) != (args.visitor_town is None):
        raise RulingError("give both --home-town and --visitor-town (the clubs' towns)")
    if args.home_town is not None:
        if not args.home_town.strip() or not args.visitor_town.strip():
            raise RulingError("--home-town and --visitor-town name a town")
        towns = (args.home_town, args.visitor_town)
    return rule_late(parse_duration(args.elapsed), args.visitor, ruleset, control, default,
                     towns)
