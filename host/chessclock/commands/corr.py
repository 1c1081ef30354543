"""`chessclock corr ACTION ...`: the correspondence ledger on the command line.

Writes (event, game, move, ack, notice, fine, leave, remind, claim, contest, decide, result,
correct, holiday, import) append records after the whole ledger was recomputed with them;
reads (status, due, ledger, email, pgn, claim-file, package) print text, a table or --json.
Every refusal is one line on stderr and exit 2; nothing is written then. A ledger changed
outside chessclock (its hash chain does not match) is reported by every command that reads
the event, one line and exit 3; `verify` lists every problem, `repair` sets aside records
that keep an event from being computed, with a new record.
"""

import argparse
from argparse import ArgumentParser, Namespace
from collections.abc import Callable
from typing import TextIO

from chessclock.corr.actions import run_action
from chessclock.corr.dates import CorrError
from chessclock.corr.model import (
    FINE_REASONS,
    SIDES,
    WITHDRAW_REASONS,
)


def _common() -> ArgumentParser:
    # Accepted before or after the action: `corr --today D status EV` or `corr status EV --today D`.
    c = argparse.ArgumentParser(add_help=False)
    c.add_argument("--db", default=argparse.SUPPRESS,
                   help="ledger database (default $CHESSCLOCK_CORR_DB or ./corr.sqlite3)")
    c.add_argument("--today", default=argparse.SUPPRESS,
                   help="the date taken as today, YYYY-MM-DD (default: today in the event's "
                        "time zone)")
    c.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                   help="JSON output")
    return c


def add_arguments(p: ArgumentParser) -> None:
    common = _common()
    for a in common._actions:
        if a.option_strings:
            p._add_action(a)
    sub = p.add_subparsers(dest="corr_cmd", metavar="ACTION")
    sub.required = True

    def cmd(name: str, help_text: str) -> ArgumentParser:
        return sub.add_parser(name, help=help_text, description=help_text, parents=[common])

    _setup_actions(cmd)
    _move_actions(cmd)
    _claim_actions(cmd)
    _director_actions(cmd)
    _ledger_actions(cmd)


def _setup_actions(cmd: Callable[[str, str], ArgumentParser]) -> None:
    """event, holiday, game."""
    s = cmd("event", "create an event (a phase of a tournament): dates, time zone, theme")
    s.add_argument("event")
    s.add_argument("--start", required=True, help="official start date (Art. 12 §1)")
    s.add_argument("--end", help="official end date (Art. 31)")
    s.add_argument("--name")
    s.add_argument("--phase", default="")
    s.add_argument("--tz", default="UTC", help="the event's time zone, e.g. America/Sao_Paulo")
    s.add_argument("--theme", default="",
                   help="thematic opening in SAN, e.g. '1.e4 c5 2.Nf3' (Art. 12 §3)")
    s.add_argument("--holiday", action="append", default=[],
                   help="a day post offices close (repeatable): the recess ends on the first "
                        "working day")
    s = cmd("holiday", "add days post offices close (the director's holiday calendar)")
    s.add_argument("event")
    s.add_argument("dates", nargs="+")
    s = cmd("game", "add a game to an event")
    s.add_argument("event")
    s.add_argument("game")
    s.add_argument("--white", required=True)
    s.add_argument("--black", required=True)
    s.add_argument("--notation", default="auto", choices=("auto", "pt", "en"),
                   help="the piece letters the players write: pt (R D T B C, Art. 2), en "
                        "(K Q R B N, by agreement, Art. 2 § único) or auto (either)")


def _move_actions(cmd: Callable[[str, str], ArgumentParser]) -> None:
    """move, ack, notice, fine, leave, remind."""
    s = cmd("move", "record a move sent: its date and the date its predecessor was received")
    s.add_argument("event")
    s.add_argument("game")
    s.add_argument("move", help="12 for White's 12th move, 12... for Black's; the move may "
                                "follow at once, as in 12...Cf6")
    s.add_argument("san", nargs="?", default="",
                   help="the move as written, in Portuguese (Cf6, Art. 2) or English (Nf6)")
    s.add_argument("--repeats", help="the opponent's last move as this message repeats it "
                                     "(Art. 4 II): checked against the ledger")
    s.add_argument("--sent", required=True)
    s.add_argument("--received", help="when the opponent's move arrived (omit: Art. 14)")
    s.add_argument("--conditional", action="store_true", help="an accepted conditional move")
    s.add_argument("--propose", metavar="MOVES",
                   help="conditional moves sent with this one, the opponent's reply first, "
                        "e.g. '5...Cc6 6.Bb5' (Art. 9)")
    s.add_argument("--accept", metavar="MOVES",
                   help="this reply accepts the opponent's conditional moves: it repeats the "
                        "sequence accepted, e.g. '5...Cc6 6.Bb5' (Art. 9 §1); the proposer's "
                        "moves in it are recorded too, on the same date")
    s = cmd("ack", "record that the last move sent was received (no reply yet)")
    s.add_argument("event")
    s.add_argument("game")
    s.add_argument("move")
    s.add_argument("--received", required=True)
    s = cmd("notice", "the mover announced needing more than 12 days (Art. 13)")
    s.add_argument("event")
    s.add_argument("game")
    s.add_argument("--date", required=True)
    s = cmd("fine", "fine an impossible, incomplete, illegal or invalid move (Art. 7-8)")
    s.add_argument("event")
    s.add_argument("game")
    s.add_argument("move")
    s.add_argument("--reason", required=True, choices=FINE_REASONS)
    s.add_argument("--date", required=True)
    s.add_argument("--conditional", action="store_true", help="a conditional move: no fine")
    s.add_argument("--late", action="store_true", help="not pointed out at once: no fine")
    s.add_argument("--both", action="store_true", help="Art. 8: both players fined")
    s = cmd("leave", "a player's leave in this phase (Art. 28-30)")
    s.add_argument("event")
    s.add_argument("player")
    s.add_argument("--from", dest="start", required=True)
    s.add_argument("--to", dest="end", required=True)
    s.add_argument("--kind", default="normal", choices=("normal", "special", "outage"))
    s.add_argument("--notified", help="date the opponents and director were told (Art. 29)")
    s.add_argument("--retroactive", action="store_true", help="special leave, force majeure")
    s = cmd("remind", "the last move was resent or reiterated (Art. 15)")
    s.add_argument("event")
    s.add_argument("game")
    s.add_argument("kind", choices=("resend", "reiterate"))
    s.add_argument("--date", required=True)


def _claim_actions(cmd: Callable[[str, str], ArgumentParser]) -> None:
    """claim, contest, decide, result, correct."""
    s = cmd("claim", "an excess claim sent to the director (Art. 17-20)")
    s.add_argument("event")
    s.add_argument("game")
    s.add_argument("--by", required=True, choices=SIDES)
    s.add_argument("--date", required=True)
    s.add_argument("--notified", help="date the opponent received the notice (default --date)")
    s = cmd("contest", "the opponent contests a claim (Art. 21)")
    s.add_argument("event")
    s.add_argument("game")
    s.add_argument("claim", type=int)
    s.add_argument("--date", required=True)
    s = cmd("decide", "the director's decision on a claim (Art. 21-22)")
    s.add_argument("event")
    s.add_argument("game")
    s.add_argument("claim", type=int)
    g = s.add_mutually_exclusive_group(required=True)
    g.add_argument("--upheld", action="store_true")
    g.add_argument("--unfounded", action="store_true")
    s.add_argument("--date", required=True)
    s = cmd("result", "the game's result")
    s.add_argument("event")
    s.add_argument("game")
    s.add_argument("result", choices=("1-0", "0-1", "1/2-1/2", "0-0"))
    s.add_argument("--date", required=True)
    s.add_argument("--reason", default="")
    s = cmd("correct", "void moves from MOVE on (kept in the ledger, marked void; Art. 8)")
    s.add_argument("event")
    s.add_argument("game")
    s.add_argument("--from", dest="start", required=True)
    s.add_argument("--date", required=True)
    s.add_argument("--reason", required=True)


def _director_actions(cmd: Callable[[str, str], ArgumentParser]) -> None:
    """ask, answer, withdraw, verify, repair, import."""
    s = cmd("ask", "the director asked a player about their games: 7 days to answer (Art. 23)")
    s.add_argument("event")
    s.add_argument("player")
    s.add_argument("--date", required=True, help="the day the request was sent")
    s.add_argument("--about", default="", help="what the director asked")
    s = cmd("answer", "the player answered the director's request (Art. 23 § único)")
    s.add_argument("event")
    s.add_argument("player")
    s.add_argument("--date", required=True)
    s = cmd("withdraw", "a player abandoned or was eliminated: finished results stand, every "
                        "remaining game is lost (Art. 27)")
    s.add_argument("event")
    s.add_argument("player")
    s.add_argument("--date", required=True)
    s.add_argument("--reason", required=True, choices=WITHDRAW_REASONS)
    s = cmd("verify", "check the event's records against their hash chain and head")
    s.add_argument("event")
    s = cmd("repair", "set aside, with a new record, records that keep the event from being "
                      "read (kept in the ledger)")
    s.add_argument("event")
    s.add_argument("--date", required=True)
    s.add_argument("--reason", required=True)
    s = cmd("import", "record moves from a CSV (e-mail export) or a PGN with date comments")
    s.add_argument("event")
    s.add_argument("game")
    s.add_argument("file")
    s.add_argument("--format", choices=("csv", "pgn"), help="default: from the file name")


def _ledger_actions(cmd: Callable[[str, str], ArgumentParser]) -> None:
    """What is read: status, due, ledger, email, pgn, claim-file, package."""
    s = cmd("status", "one screen: who is over time, who owes a reply, what is due today")
    s.add_argument("event")
    s = cmd("due", "what is due today (and overdue) in every game of an event")
    s.add_argument("event")
    s = cmd("ledger", "a game's moves with days received, sent, counted and charged")
    s.add_argument("event")
    s.add_argument("game")
    s = cmd("email", "the text for the e-mail carrying a move (Art. 3)")
    s.add_argument("event")
    s.add_argument("game")
    s.add_argument("move", nargs="?")
    s = cmd("pgn", "a game as PGN with the dates of every move")
    s.add_argument("event")
    s.add_argument("game")
    s = cmd("claim-file", "the file for the director on an excess claim (Art. 17 §1)")
    s.add_argument("event")
    s.add_argument("game")
    s.add_argument("claim", type=int)
    s = cmd("package", "end of event: last acknowledged moves, adjudication, PGN (Art. 31-42)")
    s.add_argument("event")
    s.add_argument("--out", help="write package.txt, package.json and EVENT.pgn here")


# ---- running -------------------------------------------------------------------
def run(args: Namespace, out: TextIO, err: TextIO) -> int:
    try:
        return run_action(args, out, err)
    except CorrError:   # LedgerDamaged (exit 3) and bad input (2): chessclock.cli says it
        raise
    except OSError as e:
        err.write("chessclock corr: %s: %s\n" % (getattr(e, "filename", "") or "", e.strerror or e))
        return 2
    except Exception as e:  # a bug: still one line, and the transaction was not committed
        err.write("chessclock corr: internal error, please report it: %s: %s\n"
                  % (type(e).__name__, str(e).splitlines()[0] if str(e) else ""))
        return 1


