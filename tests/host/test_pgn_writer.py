"""The one PGN writer (chessclock.pgnout) behind `log export --format pgn` and the hall's
broadcast: a player's name cannot add or end a tag, [%clk] has one format, and the
broadcast's Result is what results.csv says."""

import io
import re
import types

import chess
import chess.pgn
import pytest

from chessclock import pgnout
from chessclock.hall import broadcast, pairings
from chessclock.log.export import to_pgn
from chessclock.log.records import Game
from clockcore import presets

EVIL = 'X"] [Result "1-0'
TAG = re.compile(r'^\[([A-Za-z0-9_]+) "((?:[^"\\]|\\.)*)"\]$')


def tags(text):
    """The tag pairs of one PGN game, read by the standard's grammar: a line a tag."""
    out = []
    for line in text.splitlines():
        if not line.startswith("["):
            break
        m = TAG.match(line)
        assert m, "not one tag on this line: %r" % line
        out.append((m.group(1), re.sub(r"\\(.)", r"\1", m.group(2))))
    return out


def log_game(plies, pairing=None):
    """A chessclock.log.records.Game as `log verify` makes it, without the log behind it."""
    rec = types.SimpleNamespace(seq=1, header={
        "wall_s": 0, "control": presets.resolve("300+2")[0], "firmware": "t",
        "clock_id": "c1"})
    g = Game(rec)
    g.plies = plies
    g.pairing = pairing
    return g


@pytest.mark.parametrize("name", [EVIL, 'A\\"] [Result "0-1', "Line\n[Result \"1-0\"]",
                                  "Tab\tCR\r", 'Ann "the rook" Ames'])
def test_a_name_stays_in_its_own_tag(name):
    rnd = pairings.Round("Open", 2)
    rnd.add(1, name, "Bob")
    hall = broadcast.game_pgn(rnd.headers(1), {"plies": [(1, 299000)]})
    log = to_pgn(log_game([(0, 299000, 1000, 5)],
                                   {"white": name, "black": "Bob", "board": 1}),
                          "[Event \"t\"]\n\n1. e4 *\n")
    for text in (hall, log):
        t = tags(text)
        assert [k for k, _ in t].count("Result") == 1
        assert dict(t)["Result"] == "*"
        assert dict(t)["White"] == "".join(c if c >= " " else " " for c in name)
        g = chess.pgn.read_game(io.StringIO(text))
        assert g.headers["Result"] == "*" and g.headers["Black"] == "Bob"


def test_clk_has_one_format_in_log_export_and_broadcast():
    ms = [5425500, 300000, 59999, 7]
    hall = broadcast.game_pgn({}, {"plies": [(i + 1, c) for i, c in enumerate(ms)]})
    log = to_pgn(log_game([(i % 2, c, 10, i) for i, c in enumerate(ms)]),
                          "[Event \"t\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n")
    clk = re.compile(r"\[%clk ([0-9:.]+)\]")
    assert clk.findall(hall) == clk.findall(log) == ["1:30:25.5", "0:05:00", "0:00:59.999",
                                                     "0:00:00.007"]


@pytest.mark.parametrize("body, result", [
    ({"fo": "w", "wf": 4000}, "0-1"),
    ({"fo": "bw", "wf": 4000, "bf": 3000}, "1-0"),
    ({"res": "1/2-1/2", "fo": "w", "wf": 4000}, "1/2-1/2"),
    ({"fo": ""}, "*"),
])
def test_broadcast_result_is_what_results_csv_says(body, result):
    rnd = pairings.Round("Open", 1)
    rnd.add(1, "Ann", "Bob")
    rows = pairings.results(rnd, {1: dict(body, clk="c")})
    text = broadcast.game_pgn(rnd.headers(1), dict(body, plies=[(1, 1000)]))
    assert rows[0]["result"] == result
    assert chess.pgn.read_game(io.StringIO(text)).headers["Result"] == result


def test_a_scoresheets_escaped_tag_is_written_back_as_it_was():
    sheet = '[Event "t"]\n[White "Ann \\"the rook\\" Ames"]\n\n1. e4 *\n'
    text = to_pgn(log_game([(0, 299000, 1000, 5)]), sheet)
    assert '[White "Ann \\"the rook\\" Ames"]' in text.splitlines()


def test_escape_is_one_line():
    assert pgnout.escape('a"b\\c\nd') == 'a\\"b\\\\c d'
