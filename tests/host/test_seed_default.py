"""A default time the clock logged (`default-time`: the side absent when it passed) in the
flag ruling and the incident report: FIDE 6.7.1, S1 6.7, RGC 12.1 and 12.4 (also at the
resumption of an adjourned game)."""

import json

import pytest
from cliutil import run_cli
from test_rulings import replay

# Black never comes: White moves at 5 s; the default time (60 s here) passes at 60 s with
# Black absent; Black's flag falls at 5 s + 120 s.
SCRIPT = "0 start\n5000 press white\n130000 pause\n"


def log(tmp_path, with_default=True, arrival=False):
    events, _ = replay("2m", SCRIPT)
    marks = []
    if with_default:
        marks.append({"t_ms": 60000, "type": "default-time", "side": "black",
                      "default_s": 60, "utc": "2026-12-05T10:01:00Z"})
    if arrival:
        marks.append({"t_ms": 70000, "type": "arrival", "side": "black",
                      "after_start_ms": 70000})
    out = sorted(events + marks, key=lambda e: (e["type"] == "final", e["t_ms"]))
    p = tmp_path / "game.jsonl"
    p.write_text("".join(json.dumps(e) + "\n" for e in out))
    return str(p)


def rule(path, *argv):
    code, out, err = run_cli(["ruling", path, "--unverified", "--json", *argv])
    assert code == 0, err
    return json.loads(out)


@pytest.mark.seed("RGC 12.4", item="2.4")
@pytest.mark.parametrize("rules,article", [("fide2023", "FIDE 6.7.1"), ("act1987", "S1 6.7"),
                                           ("fce-rgc1990", "RGC 12.1")])
def test_the_flag_ruling_rests_on_a_logged_default_time(tmp_path, rules, article):
    r = rule(log(tmp_path), "--rules", rules)
    assert r["result"] == "1-0" and r["summary"] == "black defaults"
    texts = [x["text"] for x in r["ruling"]]
    assert any("default time passing" in t for t in texts)
    assert [x["article"] for x in r["ruling"]] == [article]
    assert any("Default time (1:00.000) passed" in f for f in r["facts"])
    # without the default-time record it is a flag ruling
    r = rule(log(tmp_path, with_default=False), "--rules", rules)
    assert "defaults" not in r["summary"]


@pytest.mark.seed("S3", item="2.4")
def test_s3_sets_no_default_time_so_a_logged_one_is_referred(tmp_path):
    r = rule(log(tmp_path), "--rules", "br-knockout")
    assert r["result"] == "referred" and "no default time" in r["referred"]


@pytest.mark.seed("RGC 12.4", item="9.1")
def test_the_incident_report_lists_the_default_time_and_the_arrival(tmp_path):
    out = tmp_path / "incident.md"
    rule(log(tmp_path, arrival=True), "--rules", "fce-rgc1990", "--incident", str(out))
    text = out.read_text()
    assert "default time" in text and "black not at the board" in text
    assert "Black marked at the board" in text
