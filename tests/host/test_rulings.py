"""`chessclock ruling`: rulings checked against worked examples from the Laws.

The event streams are real engine output (`simulate.replay`), as the clock's log export
gives them. Each test names the article it checks.
"""

import io
import json
import struct
import sys

import chess
import chess.pgn
import pytest
from cliutil import run_cli

from chessclock.ruling import deadpos
from chessclock.ruling import report as RR
from chessclock.ruling import rules as R
from chessclock.ruling.events import (
    RulingError,
    Source,
    load_events,
    parse_duration,
    parse_events,
)
from chessclock.ruling.facts import Facts, describe_correction
from chessclock.ruling.flag import rule_flag
from chessclock.ruling.late import rule_late
from chessclock.ruling.replace import rule_replace
from chessclock.sim import script as simulate
from clockcore import presets


def replay(spec, script, **opts):
    control, preset = presets.resolve(spec)
    options = {"freeze": True, "stage_on_flag": False, "inc_at_turn_start": False}
    if preset is not None:
        options.update(freeze=preset.freeze, stage_on_flag=preset.stage_on_flag,
                       inc_at_turn_start=preset.inc_at_turn_start)
    options.update(opts)
    return simulate.replay(control, script, **options), control


def rule(spec, script, rules="fide2023", fen=None, pgn=None, **opts):
    events, control = replay(spec, script, **opts)
    game = chess.pgn.read_game(io.StringIO(pgn)) if pgn else None
    board = chess.Board(fen) if fen else None
    return rule_flag(events, R.get(rules), control, spec, game=game, board=board)


# White flags at 5:01 in a 5-minute game; the clock freezes.
WHITE_FLAGS = """\
0 start
1000 press white
2000 press black
400000 end
"""

# No freeze: White flags at 5:01, plays on, Black flags at 10:09; nobody stopped the clocks.
BOTH_FLAGS = """\
0 start
1000 press white
2000 press black
310000 press white
700000 end
"""

# White flags at 5:01; the clocks are stopped (the claim) at 5:30 and resumed; White plays
# on and Black's flag falls later.
CLAIMED = """\
0 start
1000 press white
2000 press black
330000 pause
340000 resume
350000 press white
700000 end
"""

K_V_KR = "8/8/8/4k3/8/8/8/4K2r w - - 0 1"   # White to move, Black has a rook: Black can mate


def write_jsonl(path, events):
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    return str(path)


# ---------------------------------------------------------------- flag order

def test_fide_6_8_first_flag_recorded_and_loses_when_opponent_can_mate():
    """FIDE 6.8/6.9: the clock records the instant; the flagged side loses if the opponent
    can mate by some series of legal moves (here K+R)."""
    r = rule("5m", WHITE_FLAGS, fen=K_V_KR)
    assert r.lines[0][1] == "FIDE 6.8"
    assert "5:01.000" in r.lines[0][0]
    assert r.result == "0-1"
    assert r.mate["status"] == deadpos.Status.FOUND
    assert any(a == "FIDE 6.9" for _, a in r.lines)


def test_fide_6_9_without_position_rules_loss_but_says_position_unchecked():
    """FIDE 6.9: without the position, a loss on time subject to the dead-position rule."""
    r = rule("5m", WHITE_FLAGS)
    assert r.result == "0-1"
    assert "give --pgn or --fen" in r.text()


@pytest.mark.seed("FIDE Guidelines III.3.1", item="4.5")
def test_guidelines_III_3_1_fide_both_flags_order_recorded_first_flag_decides():
    """FIDE Guidelines III.3.1 only applies when the order cannot be established: the clock
    recorded it, so White (first) loses; the report says what III.3.1 would have given."""
    r = rule("5m", BOTH_FLAGS, fen=K_V_KR, freeze=False)
    assert r.result == "0-1"
    text = r.text()
    assert "order is recorded: white first" in text
    assert "would be drawn (the last period)" in text
    assert "FIDE Guidelines III.3.1" in text


def test_guidelines_III_3_1_not_last_period_play_would_continue():
    """Guidelines III.3.1(a): had the order not been known, both flags in a period other
    than the last would let play continue; the clock knows it: White (first) loses, and
    without a scoresheet the counter is only advisory (6.10.2)."""
    script = "0 start\n1000 press white\n2000 press black\n62000 press white\n200000 end\n"
    r = rule("2/60:60", script, fen=K_V_KR, freeze=False)
    text = r.text()
    assert "Black's flag fell too" in text
    assert "would continue (not the last period)" in text
    assert "advisory" in text and "MISSED" not in text
    assert r.result == "0-1"


@pytest.mark.seed("RAP 9", item="4.6")
def test_rap_9_both_flags_down_is_a_draw_whatever_the_order():
    """RAP 9 (FIDE 5-minute rules 1990): both flags down = draw, whatever the order."""
    r = rule("fide-5min-1990", BOTH_FLAGS, rules="rap1990", fen=K_V_KR, freeze=False)
    assert r.result == "1/2-1/2"
    assert ("Both flags are down: the game is drawn, whatever the order", "RAP 9") in r.lines


@pytest.mark.seed("ACT 11c", item="4.7")
def test_act_11c_flag_after_unclaimed_flag_is_a_draw():
    """ACT 11c (Active Chess 1987): a flag falling after the opponent's unclaimed flag is
    a draw."""
    r = rule("fide-active-1987", BOTH_FLAGS.replace("310000", "1810000")
             .replace("700000", "3700000"), rules="act1987", fen=K_V_KR)
    assert r.result == "1/2-1/2"
    assert any(a == "ACT 11c" and "had not been claimed" in t for t, a in r.lines)


@pytest.mark.seed("ACT 10", item="4.7")
def test_act_10_claim_with_own_flag_up_wins():
    """ACT 10 and 9c: the claim (clocks stopped with one's own flag up, the opponent's
    down) wins, even if the claimant's flag falls later."""
    script = CLAIMED.replace("330000", "1830000").replace("340000", "1840000") \
        .replace("350000", "1850000").replace("700000", "4000000")
    r = rule("fide-active-1987", script, rules="act1987", fen=K_V_KR)
    assert r.result == "0-1"
    assert any(a == "ACT 10" for _, a in r.lines)


@pytest.mark.seed("RAP 9", item="4.6")
def test_rap_9_claim_before_second_flag_wins():
    """RAP 9: the claimant stops the clocks with his flag up and the opponent's down."""
    r = rule("fide-5min-1990", CLAIMED, rules="rap1990", fen=K_V_KR, freeze=False)
    assert r.result == "0-1"
    assert any(a == "RAP 9" and "before the second flag" in t for t, a in r.lines)


# ---------------------------------------------------------------- moves made (6.4)

STAGE_FLAG = """\
0 start
1000 press white
2000 press black
3000 press white
4000 press black
100000 end
"""  # 3 moves in 60 s: White flags at 1:03 in stage 1 with 2 presses


def test_fide_6_4_scoresheet_shows_control_met_counter_advisory():
    """FIDE 6.4 with 6.3.1, 6.10.2 (S1 6.15, US 13C): the scoresheet shows White's 3 moves,
    the counter 2: the control was met, no loss; the counter is advisory."""
    pgn = "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 *"
    r = rule("3/60:60", STAGE_FLAG, pgn=pgn)
    assert r.moves_check == {"required": 3, "scoresheet": 3, "counter": 2}
    assert r.result == "*"
    assert "MET" in r.text()
    assert any("6.10.2" in a for _, a in r.lines)


def test_fide_6_4_scoresheet_shows_control_missed():
    """FIDE 6.4: the scoresheet shows only 2 moves by White: the control was missed."""
    pgn = "1. e4 e5 2. Nf3 Nc6 *"
    r = rule("3/60:60", STAGE_FLAG, pgn=pgn)
    assert r.moves_check["scoresheet"] == 2
    assert "MISSED" in r.text()
    assert r.result == "0-1"


def test_fide_6_2_1_move_not_completed_by_press_does_not_count():
    """FIDE 6.2.1: a move is completed by pressing the clock. White's 3rd move is on the
    scoresheet but the clock never got the press: not a completed move; under ACT 20 the
    move is made when the hand releases the piece, so it counts."""
    pgn = "1. e4 e5 2. Nf3 Nc6 3. Bc4 *"
    r = rule("3/60:60", STAGE_FLAG, pgn=pgn)
    assert r.moves_check["scoresheet"] == 2
    assert r.result == "0-1"
    r_act = rule("3/60:60", STAGE_FLAG, rules="act1987", pgn=pgn)
    assert r_act.moves_check["scoresheet"] == 3
    assert r_act.result == "*"


def test_fide_6_4_timeout_stage_pass_checked_against_scoresheet():
    """FIDE 6.4: in the clock's TIME mode the next stage is added at zero; if the whole
    scoresheet has fewer moves than the stage asked, the control was missed."""
    pgn = "1. e4 e5 2. Nf3 Nc6 *"
    r = rule("3/60:60", STAGE_FLAG, pgn=pgn, stage_on_flag=True, fen=None)
    assert r.result == "0-1"
    assert "missed" in r.text()


def test_fide_6_4_timeout_stage_pass_scoresheet_long_enough_arbiter_checks():
    """FIDE 6.4: in TIME mode, a counter short of the stage's moves proves nothing when the
    scoresheet has enough moves: the arbiter checks when they were made."""
    pgn = "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. c3 *"
    r = rule("3/60:60", STAGE_FLAG, pgn=pgn, stage_on_flag=True)
    assert r.result == "*"
    assert "the log cannot show" in r.text()


# ---------------------------------------------------------------- 6.9 dead positions

DEAD = [
    ("K v K", "8/8/8/4k3/8/8/8/4K3 w - - 0 1"),
    ("K+B v K", "8/8/8/4k3/8/8/8/3bK3 w - - 0 1"),
    ("K+N v K", "8/8/8/4k3/8/8/8/3nK3 w - - 0 1"),
    ("K+B v K+B same colour", "8/8/2b5/4k3/8/8/8/3BK3 w - - 0 1"),
    ("pawn wall", "8/4k3/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1"),
]


@pytest.mark.parametrize("name,fen", DEAD, ids=[d[0] for d in DEAD])
def test_fide_6_9_opponent_cannot_mate_by_any_series_draw(name, fen):
    """FIDE 6.9: White's flag fell, but Black cannot checkmate by any series of legal
    moves: a draw, PROVEN."""
    r = rule("5m", WHITE_FLAGS, fen=fen)
    assert r.mate["status"] == deadpos.Status.PROVEN, name
    assert r.result == "1/2-1/2"


def check_line(fen, line):
    b = chess.Board(fen)
    for san in line:
        b.push_san(san)
    return b.is_checkmate()


def test_fide_6_9_knight_v_pawn_not_dead_when_pawn_side_flags():
    """FIDE 6.9 (seed 13): K+N v K+P is not dead: the pawn side flags and the knight side
    can still mate (the pawn blocks its own king): loss; the line is given and checked."""
    fen = "k7/p7/8/8/8/8/8/3NK3 b - - 0 1"   # Black (K+P) to move: Black's flag fell
    script = WHITE_FLAGS.replace("2000 press black\n", "2000 press black\n3000 press white\n")
    r = rule("5m", script, fen=fen)
    assert r.lines[0][0].startswith("Black's flag fell first")
    assert r.mate["status"] == deadpos.Status.FOUND
    assert check_line(fen, r.mate["line"])
    assert r.result == "1-0"


def test_fide_6_9_knight_side_flags_pawn_side_can_mate():
    """FIDE 6.9: the knight side flags; the pawn can promote and mate: loss."""
    fen = "8/8/8/4k3/8/8/p7/3NK3 w - - 0 1"
    r = rule("5m", WHITE_FLAGS, fen=fen)
    assert r.mate["status"] == deadpos.Status.FOUND
    assert check_line(fen, r.mate["line"])
    assert r.result == "0-1"


@pytest.mark.seed("ACT 11d", item="4.4")
def test_act_11d_lone_knight_is_not_enough_material_draw():
    """ACT 11d and 13: the side with time has only K+N: not enough to mate: a draw, even
    though a helpmate exists (the old list rule)."""
    fen = "k7/p7/8/8/8/8/8/3NK3 b - - 0 1"
    script = WHITE_FLAGS.replace("2000 press black\n", "2000 press black\n3000 press white\n")
    r = rule("fide-active-1987", script.replace("400000", "4000000"), rules="act1987",
             fen=fen)
    assert r.result == "1/2-1/2"
    assert any(a == "ACT 11d and ACT 13" for _, a in r.lines)


@pytest.mark.seed("RAP 10f", item="4.4")
def test_rap_10f_knight_side_can_show_mate_wins():
    """RAP 10f: ... unless the player with time can show that mate is possible with his
    material: K+N v K+P, the helpmate is found: win."""
    fen = "k7/p7/8/8/8/8/8/3NK3 b - - 0 1"
    script = WHITE_FLAGS.replace("2000 press black\n", "2000 press black\n3000 press white\n")
    r = rule("fide-5min-1990", script, rules="rap1990", fen=fen)
    assert r.result == "1-0"
    assert r.mate["status"] == deadpos.Status.FOUND


@pytest.mark.seed("RAP 10e", item="4.3")
def test_rap_10e_listed_ending_same_colour_bishops_draw():
    """RAP 10e: K+B v K+B with bishops on the same colour is in the list of draws."""
    r = rule("fide-5min-1990", WHITE_FLAGS, rules="rap1990",
             fen="8/8/2b5/4k3/8/8/8/3BK3 w - - 0 1")
    assert r.result == "1/2-1/2"
    assert any("bishops on the same colour" in t for t, _ in r.lines)


def test_fide_6_9_opposite_colour_bishops_not_dead():
    """FIDE 6.9: K+B v K+B on opposite colours: a mate exists (the defender's bishop
    blocks): not dead."""
    fen = "8/8/3b4/4k3/8/8/8/3BK3 b - - 0 1"
    v = deadpos.can_mate(chess.Board(fen), chess.WHITE)
    assert v.status == deadpos.Status.FOUND
    assert check_line(fen, v.line)


def test_fide_6_9_search_bound_reports_undecided():
    """FIDE 6.9: a search that runs out of its bound says UNDECIDED, never a proof."""
    v = deadpos.can_mate(chess.Board("8/8/8/4k3/8/8/p7/3NK3 b - - 0 1"), chess.WHITE,
                         max_nodes=5)
    assert v.status == deadpos.Status.UNDECIDED
    assert "UNDECIDED" in v.describe()


@pytest.mark.parametrize("fen", ["8/8/8/4k3/8/8/8/4K3 w - - 0 1",
                                 "8/4k3/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1"],
                         ids=["K v K", "pawn wall"])
def test_fide_6_9_exhaustive_search_agrees_with_the_static_proofs(fen):
    """FIDE 6.9: the search alone, run to the end (every reachable position visited, no
    mate), proves what the static arguments prove."""
    status, line, nodes = deadpos._search(chess.Board(fen), chess.WHITE, 100000)
    assert status == deadpos.Status.PROVEN and line == [] and 1000 < nodes < 100000


# ---------------------------------------------------------------- late arrival (RGC 12.1)

def test_rgc_12_1_late_arrival_60_40_split_75_minutes():
    """RGC 12.1: elapsed 75 min: visitor -45 min, home -30 min; the engine's split agrees."""
    r = rule_late(75 * R.MIN, "white", R.FCERGC1990, presets.resolve("90m")[0])
    assert r.split == {"white": 45 * R.MIN, "black": 30 * R.MIN}
    assert r.times == {"white": 45 * R.MIN, "black": 60 * R.MIN}
    events, _ = replay("90m", "0 split %d 60\n0 start\n" % (75 * R.MIN))
    start = [e for e in events if e["type"] == "start"][0]
    assert (start["white_ms"], start["black_ms"]) == (r.times["white"], r.times["black"])


def test_rgc_12_1_visitor_black_and_cli():
    """RGC 12.1 via `chessclock ruling late --elapsed 75m --visitor black`."""
    code, out, err = run_cli(["ruling", "late", "--elapsed", "75m", "--visitor", "black",
                              "--rules", "fce-rgc1990", "--json"])
    assert code == 0, err
    d = json.loads(out)
    texts = " ".join(x["text"] for x in d["ruling"])
    assert "black -45:00.000, white -30:00.000" in texts
    assert "split 4500000 40" in texts
    assert all(x["article"] for x in d["ruling"])


def test_rgc_12_1_visitor_later_than_90_minutes_defaults():
    """RGC 12.1: the home player waits 90 min; later, the visitor loses."""
    r = rule_late(91 * R.MIN, "white", R.FCERGC1990)
    assert r.result == "0-1" and r.summary == "visitor defaults"


def test_fide_6_7_1_default_time_zero_unless_event_sets_it():
    """FIDE 6.7.1: default time 0 unless set; S1 6.7: 1 h."""
    assert R.FIDE2023.default_time_ms == 0
    assert R.ACT1987.default_time_ms == R.HOUR == R.RAP1990.default_time_ms
    r = rule_late(10 * R.MIN, "white", R.FIDE2023)
    assert r.result == "0-1" and r.summary == "white defaults"
    r = rule_late(10 * R.MIN, "white", R.FCERGC1990, default_ms=0)
    assert any("would lose" in t for t, _ in r.lines)


@pytest.mark.parametrize("text,ms", [("75m", 4500000), ("1h15m", 4500000), ("75:00", 4500000),
                                     ("1:15:00", 4500000), ("90s", 90000),
                                     ("250ms", 250)])
def test_durations(text, ms):
    assert parse_duration(text) == ms


def test_a_bare_number_is_refused_not_guessed():
    """`ruling late --elapsed 75` once meant 75 min while `split 75` meant 75 s: refused."""
    with pytest.raises(RulingError, match="no unit: write 75s or 75m"):
        parse_duration("75")


# ---------------------------------------------------------------- replacement (6.10.1, 7.1)

GAME = """\
0 start
10000 press white
25000 press black
31000 press white
40000 adjust black +120000
47000 press black
60000 pause
90000 resume
95000 press white
600000 end
"""


def test_fide_6_10_1_replacement_times_at_a_record():
    """FIDE 6.10.1 (S1 6.11): the replacement clock gets the times of the last consistent
    record (here #5, the +2 min correction)."""
    events, control = replay("300+2", GAME)
    events = parse_events("".join(json.dumps(e) + "\n" for e in events))
    r = rule_replace(events, R.FIDE2023, at_seq=5, control=control)
    e5 = events[4]
    assert e5["type"] == "adjust"
    assert r.state["times"] == {"white": e5["white_ms"], "black": e5["black_ms"]}
    assert r.state["moves"] == {"white": 2, "black": 1}
    assert r.state["running"] == "black"
    assert r.lines[0][1] == "FIDE 6.10.1 (S1 6.11)"


@pytest.mark.seed("S1 6.14", item="6.4")
def test_fide_7_1_replacement_times_at_an_instant_match_the_engine():
    """FIDE 7.1 (S1 6.14): times at an instant between records, carried forward from the
    last record; the engine, paused at that instant, shows the same."""
    events, control = replay("300+2", GAME)
    r = rule_replace(events, R.FIDE2023, at_ms=55000, control=control)
    check, _ = replay("300+2", "\n".join(GAME.splitlines()[:6]) + "\n55000 pause\n")
    pause = [e for e in check if e["type"] == "pause"][0]
    assert r.state["times"] == {"white": pause["white_ms"], "black": pause["black_ms"]}
    assert r.state["running"] == "white"


def test_fide_6_10_1_replacement_sequence_numbers_without_seq_fields():
    """FIDE 6.10.1: records without 'seq' (simulate output) are numbered from 1."""
    events, control = replay("300+2", GAME)
    r = rule_replace(events, R.FIDE2023, at_seq=2, control=control)
    assert r.state["times"] == {"white": events[1]["white_ms"], "black": events[1]["black_ms"]}
    assert r.state["seq"] == 2


def test_fide_7_1_replacement_with_simple_delay():
    """FIDE 7.1: with a simple delay the first seconds of a turn are not charged."""
    events, control = replay("300+5d", GAME)
    r = rule_replace(events, R.FIDE2023, at_ms=55000, control=control)
    check, _ = replay("300+5d", "\n".join(GAME.splitlines()[:6]) + "\n55000 pause\n")
    pause = [e for e in check if e["type"] == "pause"][0]
    assert r.state["times"] == {"white": pause["white_ms"], "black": pause["black_ms"]}


def test_replace_cli(tmp_path):
    events, _ = replay("300+2", GAME)
    f = write_jsonl(tmp_path / "g.jsonl", events)
    code, out, err = run_cli(["ruling", "replace", f, "--at-seq", "3", "--control", "300+2"])
    assert code == 0, err
    assert "Set the replacement clock: White 4:52.000, Black 4:47.000" in out
    code, _, err = run_cli(["ruling", "replace", f])
    assert code == 2 and "--at-seq" in err


# ---------------------------------------------------------------- picture, HTML, incident

def png_size(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_picture_png_has_a_point_per_move_and_marks(tmp_path):
    """The picture: time left after each move for both players, flags, stage passes, stops
    and corrections marked."""
    events, _ = replay("2/60+1:60", GAME.replace("adjust black +120000", "adjust black +60000")
                       .replace("400000 end", "400000 end"))
    out = tmp_path / "t.png"
    s = RR.plot(events, str(out))
    data = out.read_bytes()
    w, h = png_size(data)
    assert (w, h) == (900, 480) and len(data) > 10000
    presses = {side: sum(1 for e in events if e["type"] == "press" and e["side"] == side)
               for side in ("white", "black")}
    assert s["points"] == {side: presses[side] + 1 for side in presses}
    assert s["flags"] == 1 and s["stops"] == 1 and s["corrections"] == 1
    assert s["stages"] == 2
    import matplotlib.image as mpimg

    img = mpimg.imread(str(out))
    assert img.shape[:2] == (480, 900)
    assert img.std() > 0.01  # something was drawn


def test_picture_svg(tmp_path):
    events, _ = replay("300+2", GAME)
    out = tmp_path / "t.svg"
    s = RR.plot(events, str(out))
    assert s["format"] == "svg"
    assert out.read_text().lstrip().startswith("<?xml") and "<svg" in out.read_text()


def test_html_report_has_facts_ruling_and_picture(tmp_path):
    """The HTML page: facts, ruling (with articles) and the picture on one page."""
    events, _ = replay("5m", WHITE_FLAGS)
    f = write_jsonl(tmp_path / "flag.jsonl", events)
    html_path = tmp_path / "r.html"
    png = tmp_path / "p.png"
    code, out, err = run_cli(["ruling", f, "--control", "5m", "--fen", K_V_KR,
                              "--html", str(html_path), "--plot", str(png)])
    assert code == 0, err
    page = html_path.read_text()
    assert "White&#x27;s flag fell at game time 5:01.000" in page
    assert "FIDE 6.9" in page and "0-1" in page
    assert "data:image/png;base64," in page
    png_size(png.read_bytes())


@pytest.mark.seed("DISC 8.B.3.d", item="9.3")
def test_incident_report_lists_every_stop_penalty_adjustment(tmp_path):
    """Seed DISC 22.3/23.3/24.3 fields and 9.3: every stop, claim, penalty and adjustment
    is listed, from the log."""
    events, _ = replay("300+2", GAME)
    f = write_jsonl(tmp_path / "g.jsonl", events)
    out = tmp_path / "incident.md"
    code, _, err = run_cli(["ruling", f, "--control", "300+2", "--rules", "rap1990",
                            "--incident", str(out), "--event", "Open de Sitges",
                            "--place", "Sitges", "--match", "Round 3, board 2",
                            "--date", "1990-12-01", "--fen", K_V_KR])
    assert code == 0, err
    text = out.read_text()
    for field in ("Date: 1990-12-01", "Place: Sitges", "Event: Open de Sitges",
                  "Match / round: Round 3, board 2", "## Facts", "## Rule", "## Ruling",
                  "## How to appeal", "rulings are final (RAP 14)", "## Signatures",
                  "Witnesses", "Proof of delivery"):
        assert field in text, field
    # an adjustment of +2 min is listed as what it is, not as a penalty guessed from its
    # amount (its ground shows when the arbiter gave one: `adjust --reason --article`)
    assert "game time 0:40.000  adjustment: +2:00.000 to black" in text
    assert "penalty:" not in text
    assert ("game time 1:00.000  stop: clocks stopped (white running); resumed at game time "
            "1:30.000") in text
    assert "flag: black's flag fell" in text


def test_frozen_clock_at_flag_counts_as_the_stop():
    """RAP 9 with a clock that freezes at the flag: the clocks stopped at the flag."""
    r = rule("fide-5min-1990", CLAIMED, rules="rap1990", fen=K_V_KR, freeze=True)
    assert r.result == "0-1"
    assert any("froze at the flag" in t for t, _ in r.lines)


# ---------------------------------------------------------------- input and CLI

def test_jsonl_loader_reads_simulate_output_and_names_bad_lines(tmp_path):
    code, out, err = run_cli(["simulate", "--control", "5m", str(write_script(tmp_path))])
    assert code == 0, err
    p = tmp_path / "e.jsonl"
    p.write_text(out + "\n")
    events = load_events(str(p))
    assert events[0]["type"] == "start" and events[-1]["type"] == "final"
    p.write_text(out + "{not json\n")
    with pytest.raises(RulingError, match="line 7"):
        load_events(str(p))


def write_script(tmp_path):
    p = tmp_path / "s.txt"
    p.write_text(WHITE_FLAGS)
    return p


def test_cli_json_and_errors(tmp_path):
    events, _ = replay("5m", WHITE_FLAGS)
    f = write_jsonl(tmp_path / "flag.jsonl", events)
    code, out, err = run_cli(["ruling", f, "--control", "5m", "--fen", K_V_KR, "--json"])
    assert code == 0, err
    d = json.loads(out)
    assert d["result"] == "0-1" and d["rules"] == "fide2023"
    assert all(x["article"] for x in d["ruling"])
    code, _, err = run_cli(["ruling", str(tmp_path / "missing.jsonl")])
    assert code == 2 and "cannot read" in err
    code, _, err = run_cli(["ruling", f, "--control", "nonsense!"])
    assert code == 2 and "control" in err


def test_help_does_not_import_matplotlib():
    """`chessclock --help` stays fast: the parser never imports matplotlib."""
    import subprocess

    code = ("import sys; from chessclock import cli; cli.build_parser(); "
            "print('matplotlib' in sys.modules, 'chess' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["False", "False"]


def test_every_rule_set_cites_every_topic():
    topics = set(R.FIDE2023.articles)
    for rs in R.RULESETS.values():
        assert set(rs.articles) == topics, rs.key
        assert all(rs.articles.values())


def test_flag_in_an_earlier_stage_stays_first_after_the_side_plays_on():
    """FIDE 6.9 / 6.4, clock without freeze: White's flag fell in stage 1 (1 press of 2);
    White's 2nd press brought stage 2's time, then Black's flag fell: White's is first."""
    script = ("0 start\n20000 press white\n25000 press black\n70000 press white\n"
              "200000 end\n")
    events, control = replay("1m/2, 30s", script, freeze=False)
    assert [(e["side"], e["t_ms"]) for e in events if e["type"] == "flag"] == \
        [("white", 65000), ("black", 125000)]
    r = rule_flag(events, R.get("fide2023"), control, "1m/2, 30s")
    assert "White's flag fell first, at game time 1:05.000" in r.text(), r.text()
    assert "Stage 2 reached by white at game time 1:10.000 (cause: moves" in r.text()
    assert r.moves_check == {"required": 2, "scoresheet": None, "counter": 1}
    assert r.result == "0-1"


def test_corrections_name_the_opponents_increment_and_an_increment_alone():
    assert describe_correction({"type": "undo", "side": "white", "delta_ms": 0,
                                   "opponent_delta_ms": -2000}) == (
        "last press by white marked as not a move (0:00.000 taken back, and 0:02.000 from "
        "black's increment at turn start; its turn again)")
    assert describe_correction({"type": "add-stage", "side": "black", "added_ms": 0,
                                   "inc_ms": 5000}) == "from now on +0:05.000 a move for black"


def test_the_clock_running_after_an_undo_is_the_pressers_again():
    events = [{"type": "start", "t_ms": 0, "side": "white"},
              {"type": "press", "t_ms": 5000, "side": "white"},
              {"type": "undo", "t_ms": 6000, "side": "white", "delta_ms": 0},
              {"type": "pause", "t_ms": 7000, "side": "white"}]
    facts = Facts.of(events)
    assert [s["running"] for s in facts.stops] == ["white"]


def test_facts_and_rule_sets_are_values_that_do_not_change():
    """Facts, a rule set, a log's source and a helpmate verdict are frozen: a ruling reads
    them and cannot change them under another."""
    import dataclasses

    events = [{"type": "start", "t_ms": 500, "side": "white"},
              {"type": "flag", "t_ms": 9000, "side": "white", "stage": 1},
              {"type": "final", "t_ms": 9500}]
    facts = Facts.of(events)
    assert facts.t0 == 500 and len(facts.flags) == 1 and facts.final == events[2]
    assert [e["type"] for e in facts.events] == ["start", "flag"]
    verdict = deadpos.can_mate(chess.Board(K_V_KR), chess.BLACK)
    source = Source("game.jsonl", "jsonl", ["JSON Lines"], False)
    for value, name in ((facts, "t0"), (R.FIDE2023, "both_flags"), (verdict, "status"),
                        (source, "verified")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, name, None)


def test_the_answers_are_enums_whose_values_the_outputs_show(tmp_path):
    """The rule sets' answers, the result and the helpmate verdict are enums; the JSON and
    the text give their values, as words."""
    from chessclock.ruling.verdict import Result

    for rs in R.RULESETS.values():
        assert isinstance(rs.both_flags, R.BothFlags) and isinstance(rs.cannot_mate,
                                                                     R.CannotMate)
        assert isinstance(rs.illegal_kind, R.IllegalKind)
        assert isinstance(rs.unnoticed, R.Unnoticed) and isinstance(rs.both_kings,
                                                                    R.BothKings)
        assert rs.complaint_window is None or isinstance(rs.complaint_window,
                                                         R.ComplaintWindow)
        assert rs.move_made_at is None or isinstance(rs.move_made_at, R.MoveMadeAt)
    events, _ = replay("5m", WHITE_FLAGS)
    r = rule_flag(events, R.FIDE2023, board=chess.Board(K_V_KR))
    assert r.result is Result.BLACK_WINS
    assert isinstance(deadpos.can_mate(chess.Board(K_V_KR), chess.BLACK).status,
                      deadpos.Status)
    d = json.loads(json.dumps(r.as_dict()))
    assert d["result"] == "0-1" and d["mate"]["status"] == "found"
    assert "RESULT: 0-1  " in r.text()


def test_ruling_late_does_not_import_python_chess():
    """A late arrival needs no board: `chessclock ruling late` starts without python-chess
    (the forms on a board import it)."""
    import subprocess

    code = ("import sys; from chessclock import cli; "
            "cli.main(['ruling', 'late', '--elapsed', '30m', '--visitor', 'white']); "
            "print('chess' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out[-1] == "False"
