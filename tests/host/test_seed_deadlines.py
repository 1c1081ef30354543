"""Worked examples of `chessclock deadline`: the FCE disciplinary deadlines (seed S2, DISC),
the results call (RGC 5.5.1) and where a ruling is appealed (per rule set; S0 Art. 42-43).
The dates are counted by hand in the comments (2026-12-04 is a Friday)."""

import json

import pytest
from cliutil import run_cli


def deadline(*argv):
    code, out, err = run_cli(["deadline", *argv, "--json"])
    assert code == 0, err
    return json.loads(out)


@pytest.mark.seed("DISC 26.2", item="9.6")
def test_disc_26_2_five_working_days_from_the_day_after():
    # notified Fri 4 Dec: Mon 7, Tue 8, Wed 9, Thu 10, Fri 11
    assert deadline("general", "--from", "2026-12-04")["last_day"] == "2026-12-11"
    # Tue 8 Dec a holiday: Mon 7, Wed 9, Thu 10, Fri 11, Mon 14
    assert deadline("general", "--from", "2026-12-04", "--holiday",
                    "2026-12-08")["last_day"] == "2026-12-14"
    # Saturdays counted: Sat 5, Mon 7, Tue 8, Wed 9, Thu 10
    assert deadline("general", "--from", "2026-12-04", "--saturdays")["last_day"] == \
        "2026-12-10"


@pytest.mark.seed("DISC 23.10", item="9.6")
def test_disc_23_calendar_days():
    assert deadline("executive-appeal", "--from", "2026-12-04")["last_day"] == "2026-12-14"
    assert deadline("annexes", "--from", "2026-12-05")["last_day"] == "2026-12-07"
    assert deadline("committee", "--from", "2026-12-05")["last_day"] == "2026-12-10"
    assert deadline("committee-meets", "--from", "2026-12-05")["last_day"] == "2026-12-13"


@pytest.mark.seed("DISC 25.9b", item="9.6")
def test_disc_25_9b_the_evidence_phase_is_5_to_20_working_days(tmp_path):
    hol = tmp_path / "hol.txt"
    hol.write_text("# holidays\n2026-12-08\n2026-12-25\n")
    d = deadline("evidence", "--from", "2026-12-04", "--holidays", str(hol))
    # 5 working days: Dec 7, 9, 10, 11, 14 (the 8th a holiday); 20: Dec 7 9 10 11 14 15 16
    # 17 18 21 22 23 24 (13), 28 29 30 31 (17), Jan 1 (not a holiday in this file), 4, 5
    assert (d["first_day"], d["last_day"]) == ("2026-12-14", "2027-01-05")


@pytest.mark.seed("RGC 5.5.1", item="9.6")
def test_rgc_5_5_1_results_by_1pm_of_the_first_working_day():
    # a match on Saturday 5 Dec: Monday 7 at 13:00
    assert deadline("results", "--from", "2026-12-05")["last_day"] == "2026-12-07 13:00"


@pytest.mark.seed("DISC 12.5", item="9.6")
def test_disc_12_5_suspensions_in_whole_days_from_the_day_after():
    d = deadline("suspension", "--from", "2026-12-04", "--days", "30")
    assert (d["first_day"], d["last_day"]) == ("2026-12-05", "2027-01-03")
    d = deadline("suspension", "--from", "2026-01-30", "--months", "1")
    assert (d["first_day"], d["last_day"]) == ("2026-01-31", "2026-02-28")
    d = deadline("prescription", "--from", "2026-03-31", "--severity", "serious")
    assert d["last_day"] == "2027-03-31"


@pytest.mark.seed("ACT 15", item="5.2")
def test_whether_a_ruling_was_appealed_and_to_which_body():
    d = deadline("appeal", "--rules", "act1987", "--from", "2026-12-04", "--filed",
                 "2026-12-04")
    assert d["in_time"] is True and "Appeals Committee" in d["body"]
    d = deadline("appeal", "--rules", "rap1990", "--from", "2026-12-04", "--filed",
                 "2026-12-04")
    assert d["in_time"] is False and "final" in d["appealed"]
    d = deadline("appeal", "--rules", "fce-rgc1990", "--from", "2026-12-04", "--filed",
                 "2026-12-15")
    assert d["last_day"] == "2026-12-14" and d["in_time"] is False


@pytest.mark.seed("S0 Art. 42-43", item="5.2")
def test_s0_art_42_43_fifteen_days_to_the_body_above_the_decider():
    d = deadline("appeal", "--rules", "cxeb", "--from", "2026-12-04", "--decided-by",
                 "director", "--filed", "2026-12-19")
    assert d["last_day"] == "2026-12-19" and d["in_time"] is True
    assert "General Director" in d["body"]
    d = deadline("appeal", "--rules", "cxeb", "--from", "2026-12-04", "--decided-by",
                 "general-director-playing")
    assert "President" in d["body"]


@pytest.mark.parametrize("argv,message", [
    (["general"], "--from"),
    (["general", "--from", "4/12/2026"], "YYYY-MM-DD"),
    (["general", "--from", "2026-02-30"], "YYYY-MM-DD"),
    (["general", "--from", "2026-12-04", "--holiday", "xmas"], "--holiday"),
    (["general", "--from", "2026-12-04", "--holidays", "/no/such/file"], "--holidays"),
    (["suspension", "--from", "2026-12-04"], "one of --days"),
    (["suspension", "--from", "2026-12-04", "--days", "0"], "--days 0"),
    (["suspension", "--from", "2026-12-04", "--days", "3", "--months", "1"], "one of"),
    (["prescription", "--from", "2026-12-04", "--severity", "grave"], "--severity"),
    (["appeal", "--from", "2026-12-04"], "--rules"),
    (["appeal", "--from", "2026-12-04", "--rules", "cxeb"], "--decided-by"),
    (["appeal", "--from", "2026-12-04", "--rules", "act1987", "--decided-by", "director"],
     "cxeb"),
    (["general", "--from", "2026-12-04", "--filed", "2026-12-05"], "deadline appeal"),
])
def test_deadline_bad_input(argv, message, tmp_path):
    code, out, err = run_cli(["deadline", *argv])
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


@pytest.mark.seed("ACT 15", item="5.2")
def test_a_ruling_records_whether_it_was_appealed_and_to_which_body(tmp_path):
    fen = ["--fen", "4k3/8/8/8/8/8/8/R3K2r w - - 0 1"]
    rep = tmp_path / "incident.md"
    code, out, err = run_cli(["ruling", "draw-claim", *fen, "--rules", "act1987", "--ground",
                              "no-chances", "--own-flag", "up", "--date", "2026-12-04",
                              "--appealed-on", "2026-12-04", "--json", "--incident",
                              str(rep)])
    assert code == 0, err
    r = json.loads(out)
    assert r["appeal"]["in_time"] is True and "Appeals Committee" in r["appeal"]["body"]
    assert r["ruling"][-1]["article"] == "ACT 15"
    assert "Appealed: filed 2026-12-04; appealed to the Appeals Committee" in rep.read_text()
    # RAP 14: the arbiter's decision is final
    code, out, err = run_cli(["ruling", "draw-claim", *fen, "--rules", "rap1990", "--date",
                              "2026-12-04", "--appealed-on", "2026-12-05", "--json"])
    r = json.loads(out)
    assert r["appeal"]["in_time"] is False and "final" in r["appeal"]["appealed"]
    # without --appealed-on: no appeal recorded
    code, out, err = run_cli(["ruling", "draw-claim", *fen, "--json"])
    assert "appeal" not in json.loads(out)


@pytest.mark.parametrize("argv,message", [
    (["--appealed-on", "soon"], "YYYY-MM-DD"),
    (["--appealed-on", "2026-12-04", "--date", "4 Dec"], "--date"),
    (["--appealed-on", "2026-12-03", "--date", "2026-12-04"], "before the ruling"),
])
def test_appealed_on_bad_input(argv, message):
    code, out, err = run_cli(["ruling", "draw-claim", "--fen",
                              "4k3/8/8/8/8/8/8/R3K2r w - - 0 1", *argv])
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1
