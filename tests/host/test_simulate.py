"""`chessclock simulate`: the fixed interface from the engine issue, end to end."""

import json
import subprocess
import sys

from cliutil import run_cli


def sim(argv, script=None):
    code, out, err = run_cli(["simulate"] + argv, stdin=script)
    return code, [json.loads(x) for x in out.splitlines()], err


SCRIPT = """\
# Black lever starts? no: the arbiter starts White's clock
0 start
10000 press white      # White thinks 10 s
25000 press black
400000 end
"""


def test_flag_is_reported_at_the_exact_instant_with_no_script_line_there():
    code, ev, err = sim(["--control", "300+2"], SCRIPT)
    assert code == 0, err
    assert [e["type"] for e in ev] == ["start", "press", "press", "flag", "end", "final"]
    press_w, press_b, flag = ev[1], ev[2], ev[3]
    assert (press_w["t_ms"], press_w["side"], press_w["white_ms"]) == (10000, "white", 292000)
    assert press_b["black_ms"] == 287000 and press_b["credit_ms"] == 2000
    # White runs from 25 s with 292 s left: the flag falls at 317 s.
    assert flag == {"t_ms": 317000, "type": "flag", "side": "white", "stage": 1,
                    "presses_in_stage": 1, "moves": 1, "white_ms": 0, "black_ms": 287000}
    final = ev[-1]
    assert final["t_ms"] == 400000
    assert (final["white_ms"], final["black_ms"]) == (0, 287000)
    assert (final["white_moves"], final["black_moves"]) == (1, 1)
    assert final["running"] is None
    assert final["flags"] == [{"side": "white", "t_ms": 317000}]


def test_final_line_reports_the_running_side_and_ends_at_last_line_time():
    code, ev, err = sim(["--control", "fide-rapid"], "0 start\n5000 press white\n9000 pause\n"
                        "20000 resume\n21000 end\n")
    assert code == 0, err
    assert [e["type"] for e in ev] == ["start", "press", "pause", "resume", "end", "final"]
    # 15 min + 10 s: White 900 - 5 + 10 = 905 s; Black ran 4 s + 1 s
    assert ev[-1]["white_ms"] == 905000 and ev[-1]["black_ms"] == 895000
    code, ev, err = sim(["--control", "fide-rapid"], "0 start\n5000 press white\n9000 pause\n")
    assert ev[-1]["running"] is None and ev[-1]["t_ms"] == 9000
    code, ev, err = sim(["--control", "fide-rapid"], "0 start\n5000 press white\n")
    assert ev[-1]["running"] == "black"


def test_options_increment_at_turn_start_next_stage_on_flag_and_no_freeze():
    code, ev, _ = sim(["--control", "180+2", "--increment-at", "turn-start"], "0 start\n")
    assert ev[0]["white_ms"] == 182000
    script = "0 start\n1000 press white\n2000 press black\n4000 press white\n5000 press black\n"
    script += "100000 end\n"
    code, ev, _ = sim(["--control", "2/10:5", "--next-stage", "flag"], script)
    stage = [e for e in ev if e["type"] == "stage"]
    assert stage == [{"t_ms": 12000, "type": "stage", "side": "white", "stage": 2,
                      "added_ms": 5000, "cause": "timeout", "white_ms": 5000,
                      "black_ms": 8000}]
    code, ev, _ = sim(["--control", "10s", "--no-freeze"],
                      "0 start\n4000 press white\n30000 press black\n60000 end\n")
    flags = ev[-1]["flags"]
    assert flags == [{"side": "black", "t_ms": 14000}, {"side": "white", "t_ms": 36000}]


def test_preset_options_apply_unless_overridden():
    # FIDE Active 1987: a claim needs one's own flag up, so the clock keeps running.
    script = "0 start\n100 press white\n1900000 press black\n4000000 end\n"
    code, ev, _ = sim(["--control", "fide-active-1987"], script)
    assert ev[-1]["flags"] == [{"side": "black", "t_ms": 1800100},
                               {"side": "white", "t_ms": 1900000 + 1800000 - 100}]
    assert ev[-1]["black_moves"] == 1
    code, ev, _ = sim(["--control", "fide-active-1987", "--freeze"], script)
    assert ev[-1]["flags"] == [{"side": "black", "t_ms": 1800100}]
    assert [e["type"] for e in ev][-4:] == ["flag", "ignored", "end", "final"]


def test_arbiter_actions_and_ignored_presses():
    script = """\
0 start
1000 press black       # not Black's turn: ignored, logged
2000 press white
3000 pause
3000 press black       # lever during a pause
3500 adjust white +120000
3600 set-moves black 5
4000 resume
5000 end
"""
    code, ev, err = sim(["--control", "5m+3s"], script)
    assert code == 0, err
    types = [e["type"] for e in ev]
    assert types == ["start", "ignored", "press", "pause", "ignored", "adjust", "set-moves",
                     "resume", "end", "final"]
    assert ev[1]["side"] == "black" and ev[1]["state"] == "running"
    assert ev[4]["state"] == "paused"
    assert ev[5]["white_ms"] == 300000 - 2000 + 3000 + 120000
    assert ev[-1]["black_moves"] == 5
    assert ev[-1]["black_ms"] == 300000 - 1000 - 1000


def test_simple_delay_and_byo_yomi_show_their_state():
    code, ev, _ = sim(["--control", "G/90;d5"], "0 start\n2000 press white\n")
    assert ev[1]["white_ms"] == 5400000 and ev[1]["delay_ms"] == 5000
    code, ev, _ = sim(["--control", "1m + byo 3x10s"], "0 start\n75000 end\n")
    assert [e["type"] for e in ev] == ["start", "overtime", "period", "end", "final"]
    assert ev[2]["white_periods"] == 2 and ev[-1]["white_ms"] == 5000


def test_wrong_control_exits_nonzero_and_prints_nothing():
    code, ev, err = sim(["--control", "40/"], "0 start\n")
    assert code == 2 and ev == []
    assert "40/" in err


def test_wrong_script_lines_are_named_and_nothing_is_printed():
    cases = [
        ("0 start\n5 jump\n", "line 2: unknown action 'jump'"),
        ("0 start\n5000 press\n", "line 2: press takes"),
        ("0 start\n5000 press green\n", "line 2: expected white or black"),
        ("10 start\n5 press white\n", "line 2: time 5 is before"),
        ("0 start\nsoon press white\n", "line 2: the time in ms must be"),
        ("0 start\n10 adjust white 5\n", "line 2: the change must be +ms or -ms"),
        ("# only a comment\n0 start\n10 adjust white -999999999\n", "line 3:"),
    ]
    for script, message in cases:
        code, ev, err = sim(["--control", "300"], script)
        assert code == 2 and ev == [], script
        assert message in err, (message, err)


def test_script_from_a_file_and_the_console_entry_point(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text(SCRIPT)
    res = subprocess.run([sys.executable, "-m", "chessclock.cli", "simulate", "--control",
                          "300+2", str(path)], capture_output=True, text=True, check=False)
    assert res.returncode == 0, res.stderr
    ev = [json.loads(x) for x in res.stdout.splitlines()]
    assert ev[-1]["flags"] == [{"side": "white", "t_ms": 317000}]
    res = subprocess.run([sys.executable, "-m", "chessclock.cli", "simulate", "--control",
                          "300", str(tmp_path / "missing.txt")], capture_output=True,
                         text=True, check=False)
    assert res.returncode == 2 and res.stdout == ""
    assert "cannot read the script" in res.stderr


# ---- engine deviations, replayed ------------------------------------------------

def test_byo_yomi_after_a_multi_stage_control_flag_in_stage_one():
    script = "0 start\n20000 press white\n25000 press black\n100000 end\n"
    code, ev, err = sim(["--control", "1m/2, 30s, byo 3x10s"], script)
    assert code == 0, err
    assert [e["type"] for e in ev] == ["start", "press", "press", "flag", "end", "final"]
    assert ev[3]["t_ms"] == 65000 and ev[3]["stage"] == 1 and ev[3]["presses_in_stage"] == 1
    assert ev[-1]["flags"] == [{"side": "white", "t_ms": 65000}]
    # without freeze: White's 2nd press still brings stage 2's 30 s, then byo-yomi
    script = ("0 start\n20000 press white\n25000 press black\n70000 press white\n"
              "80000 press black\n112000 end\n")
    code, ev, err = sim(["--control", "1m/2, 30s, byo 3x10s", "--no-freeze"], script)
    assert code == 0, err
    assert [e["type"] for e in ev] == ["start", "press", "press", "flag", "press", "stage",
                                       "press", "stage", "overtime", "end", "final"]
    assert ev[5]["added_ms"] == 30000 and ev[5]["white_ms"] == 30000
    assert ev[8]["t_ms"] == 110000 and ev[8]["white_periods"] == 3
    assert ev[-1]["flags"] == [{"side": "white", "t_ms": 65000}]


def test_time_mode_time_out_is_the_stage_flag_with_its_presses():
    script = "0 start\n20000 press white\n25000 press black\n70000 end\n"
    code, ev, err = sim(["--control", "1m/2, 30s", "--next-stage", "flag"], script)
    assert code == 0, err
    flag, stage = ev[3], ev[4]
    assert (flag["type"], flag["t_ms"], flag["stage"], flag["presses_in_stage"]) == \
        ("flag", 65000, 1, 1)
    assert (stage["type"], stage["t_ms"], stage["cause"], stage["white_ms"]) == \
        ("stage", 65000, "timeout", 30000)
    assert ev[-1]["state"] == "ended" and ev[-1]["white_ms"] == 25000


def test_five_minute_1990_preset_lets_both_flags_fall():
    script = "0 start\n1000 press white\n402000 press black\n800000 end\n"
    code, ev, err = sim(["--control", "fide-5min-1990"], script)
    assert code == 0, err
    assert ev[-1]["flags"] == [{"side": "black", "t_ms": 301000},
                               {"side": "white", "t_ms": 701000}]


def test_increment_alone_as_one_arbiter_action():
    base = "0 start\n10000 press white\n20000 pause\n"
    after = "21000 resume\n25000 press black\n30000 press white\n31000 end\n"
    outs = []
    for action in ("20000 add-stage both 0m+5s\n", "20000 add-increment both 5000\n"):
        code, ev, err = sim(["--control", "5m"], base + action + after)
        assert code == 0, err
        added = [e for e in ev if e["type"] == "add-stage"]
        assert [(e["side"], e["added_ms"], e["inc_ms"]) for e in added] == \
            [("white", 0, 5000), ("black", 0, 5000)]
        presses = [e for e in ev if e["type"] == "press"]
        assert [p["credit_ms"] for p in presses] == [0, 5000, 5000]
        outs.append((ev[-1]["white_ms"], ev[-1]["black_ms"]))
    # White 300 - 10 - 5 + 5 s; Black 300 - 10 - 4 + 5 - 1 s (running at the end)
    assert outs == [(290000, 290000)] * 2
    for bad, message in (("20000 add-increment both 0\n", "more than 0 ms"),
                         ("20000 add-increment both\n", "add-increment takes"),
                         ("20000 add-stage both 0m\n", "no time")):
        code, ev, err = sim(["--control", "5m"], base + bad)
        assert code == 2 and ev == [] and message in err, err


def test_undo_takes_back_the_opponents_increment_at_turn_start():
    script = "0 start\n5000 press white\n6000 pause\n6000 undo\n"
    code, ev, err = sim(["--control", "3m+2s", "--increment-at", "turn-start"], script)
    assert code == 0, err
    undo = ev[3]
    assert undo == {"t_ms": 6000, "type": "undo", "side": "white", "delta_ms": 0,
                    "opponent_delta_ms": -2000, "white_ms": 177000, "black_ms": 179000}
    assert ev[-1]["white_moves"] == 0
