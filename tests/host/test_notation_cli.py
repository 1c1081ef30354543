"""`chessclock control` and `chessclock set` on the notation rule: a PGN-shaped
spec is PGN in seconds; one no real event plays is refused unless --pgn; `simulate` replays
any valid PGN as written."""

import json

from cliutil import run_cli


def test_control_refuses_pgn_no_event_plays_quoting_it_with_the_likely_spelling():
    for spec, meant in (("90+30", "90m+30s"), ("15+10", "15m+10s"), ("15+10d", "15m d10s"),
                        ("40/120", "40/120m"), ("60+30", "60m+30s"), ("40/2", "40/2h")):
        code, out, err = run_cli(["control", spec])
        assert code == 2 and out == "", (spec, out)
        assert '"%s" as PGN (seconds) is ' % spec in err and "write %s" % meant in err, err
        assert "--pgn" in err and "\n" == err[-1] and err.count("\n") == 1, err


def test_control_pgn_flag_means_it_as_written():
    code, out, err = run_cli(["control", "90+30", "--pgn"])
    assert code == 0, err
    assert "readable: 1m30s+30s" in out and "PGN:      90+30" in out
    code, out, err = run_cli(["control", "90m+30s"])
    assert code == 0 and "each side: 90 min; +30 s per move from move 1" in out
    code, out, err = run_cli(["control", "300 + 5", "--json"])
    assert code == 0 and json.loads(out)["pgn"] == "300+5"
    code, out, err = run_cli(["control", "rapid", "--pgn"])  # --pgn: SPEC is PGN
    assert code == 2 and "rapid" in err


def test_set_refuses_before_sending_and_shows_what_it_would_send():
    code, out, err = run_cli(["set", "15+10", "--yes", "--port", "/nonexistent"])
    assert code == 2 and "write 15m+10s" in err and out == "", err
    # a plausible PGN goes on to the (missing) port after showing it in words
    code, out, err = run_cli(["set", "300+2", "--yes", "--port", "/nonexistent"])
    assert "300+2 (5m+2s) gives" in out and "5 min; +2 s per move" in out
    assert code != 0 and code != 2  # no such port: a port error, not bad input


def test_simulate_replays_any_valid_pgn_as_written(tmp_path):
    script = tmp_path / "game.txt"
    script.write_text("0 start\n1000 press white\n")
    code, out, err = run_cli(["simulate", "--control", "90+30", str(script)])
    assert code == 0, err
    final = json.loads(out.splitlines()[-1])
    assert final["white_ms"] == 90000 - 1000 + 30000 and final["black_ms"] == 90000
    code, out, err = run_cli(["simulate", "--control", "15 + 10", str(script)])
    assert code == 0 and json.loads(out.splitlines()[-1])["white_ms"] == 24000
