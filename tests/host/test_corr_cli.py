"""`chessclock corr` end to end: a ledger database in a temporary folder, --today injected."""

import json
import sqlite3

import pytest
from cliutil import run_cli


@pytest.fixture
def db(tmp_path):
    path = str(tmp_path / "ledger.sqlite3")

    def corr(*argv, today="2026-03-20"):
        return run_cli(["corr", "--db", path, "--today", today] + list(argv))

    for argv in (["event", "E", "--start", "2026-03-02", "--end", "2026-12-31",
                  "--name", "CXEB Email 2026", "--tz", "America/Sao_Paulo"],
                 ["game", "E", "g", "--white", "Ana", "--black", "Bruno"],
                 ["move", "E", "g", "1", "e4", "--sent", "2026-03-04"],
                 ["move", "E", "g", "1...", "c5", "--received", "2026-03-05",
                  "--sent", "2026-03-09"]):
        code, out, err = corr(*argv)
        assert code == 0, err
    corr.path = path
    return corr


def count(path):
    with sqlite3.connect(path) as c:
        return c.execute("SELECT count(*) FROM records").fetchone()[0]


BAD = [
    (["move", "E", "g", "2", "Nf3", "--sent", "2026-02-30", "--received", "2026-03-10"],
     "not a day of the calendar"),
    (["move", "E", "g", "2", "Nf3", "--sent", "12/03/2026"], "is not a date"),
    (["move", "E", "g", "3", "d4", "--sent", "2026-03-12"], "out of order"),
    (["move", "E", "g", "2", "Nf3", "--received", "2026-03-12", "--sent", "2026-03-11"],
     "before its move was received"),
    (["move", "E", "g", "2", "Nf3", "--received", "2026-03-08", "--sent", "2026-03-11"],
     "before it was sent"),
    (["move", "E", "g", "2", "Nf3", "--sent", "2026-03-25"], "after today"),
    (["move", "E", "g", "zwei", "Nf3", "--sent", "2026-03-12"], "not a move number"),
    (["move", "X", "g", "2", "Nf3", "--sent", "2026-03-12"], "no event 'X'"),
    (["move", "E", "h", "2", "Nf3", "--sent", "2026-03-12"], "has no game 'h'"),
    (["move", "E", "g", "2", "--sent", "2026-03-12", "--today", "2026-13-01"], "--today"),
    (["event", "E", "--start", "2026-03-02"], "exists already"),
    (["event", "F", "--start", "2026-03-02", "--tz", "Mars/Olympus"], "not a time zone"),
    (["event", "F", "--start", "2026-03-02", "--theme", "1.e4 e5 2.Ke3"], "not a legal move"),
    (["event", "F", "--start", "2026-03-02", "--end", "2026-01-01"], "before --start"),
    (["leave", "E", "Ana", "--from", "2026-04-01", "--to", "2026-05-15"], "days of leave"),
    (["leave", "E", "Zoe", "--from", "2026-04-01", "--to", "2026-04-02"], "plays no game"),
    (["contest", "E", "g", "3", "--date", "2026-03-12"], "no claim 3"),
    (["fine", "E", "g", "5", "--reason", "illegal", "--date", "2026-03-12"],
     "not in the ledger"),
    (["ack", "E", "g", "1", "--received", "2026-03-10"], "only the last move"),
    (["import", "E", "g", "/nonexistent/moves.csv"], "No such file"),
]


@pytest.mark.parametrize("argv,message", BAD, ids=[m for _, m in BAD])
def test_bad_input_is_one_line_exit_2_and_nothing_written(db, argv, message):
    before = count(db.path)
    code, out, err = db(*argv)
    assert code == 2
    assert message in err
    assert err.count("\n") == 1 and err.startswith("chessclock corr: ")
    assert "Traceback" not in err and out == ""
    assert count(db.path) == before


def test_a_bad_row_in_an_import_writes_none_of_the_file(db, tmp_path):
    f = tmp_path / "moves.csv"
    f.write_text("move,san,received,sent\n2,Nf3,2026-03-10,2026-03-12\n"
                 "2...,d6,2026-03-13,2026-03-1x\n")
    before = count(db.path)
    code, out, err = db("import", "E", "g", str(f))
    assert code == 2 and "moves.csv line 3: sent" in err and count(db.path) == before


@pytest.mark.seed("CXEB comment on Art. 6", item="11.12")
def test_the_ledger_is_append_only(db):
    with sqlite3.connect(db.path) as c:
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            c.execute("UPDATE records SET data = '{}' WHERE kind = 'move'")
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            c.execute("DELETE FROM records")


@pytest.mark.seed("CXEB comment on Art. 6", item="11.12")
def test_a_correction_is_a_new_record_and_the_old_move_stays(db):
    assert db("move", "E", "g", "2", "Nf3", "--received", "2026-03-10",
              "--sent", "2026-03-12")[0] == 0
    n = count(db.path)
    code, out, err = db("correct", "E", "g", "--from", "2", "--date", "2026-03-13",
                        "--reason", "agreed to replay (Art. 6 comment)")
    assert code == 0 and count(db.path) == n + 1
    code, out, _ = db("ledger", "E", "g", "--json")
    data = json.loads(out)
    assert [m["move"] for m in data["moves"]] == ["1", "1..."] and data["voided"] == ["2"]
    assert db("move", "E", "g", "2", "Nc3", "--received", "2026-03-10",
              "--sent", "2026-03-14")[0] == 0


def test_import_mail_client_csv_dates_in_the_event_time_zone(db, tmp_path):
    # Thunderbird-style export of sent mail: 01:30 UTC on 13 Mar is still 12 Mar in Sao Paulo.
    f = tmp_path / "sent.csv"
    f.write_text("Date,From,To,Subject,Received\n"
                 '"Fri, 13 Mar 2026 01:30:00 +0000",ana@x,bruno@x,"Game g: 2. Nf3",2026-03-10\n')
    code, out, err = db("import", "E", "g", str(f))
    assert code == 0, err
    data = json.loads(db("ledger", "E", "g", "--json")[1])
    m = data["moves"][-1]
    assert (m["move"], m["san"], m["sent"], m["counted"]) == ("2", "Nf3", "2026-03-12", 2)


def test_import_pgn_with_date_comments(db, tmp_path):
    f = tmp_path / "g.pgn"
    f.write_text('[Event "x"]\n\n1. e4 {sent 2026-03-04} c5 {received 2026-03-05 sent '
                 '2026-03-09} 2. Nf3 {received 2026-03-10 sent 2026-03-12} d6 {sent '
                 "2026-03-14} *\n")
    code, out, err = db("import", "E", "g", str(f))
    assert code == 0, err and "2 moves imported" in out
    data = json.loads(db("ledger", "E", "g", "--json")[1])
    # 2... gave no receipt date: set from the average transit (1 day) to 13 Mar (Art. 14).
    m = data["moves"][-1]
    assert (m["received"], m["received_estimated"], m["counted"]) == ("2026-03-13", True, 1)
    f.write_text('[Event "x"]\n\n1. e4 {sent 2026-03-04} c5 {received 2026-03-05 sent '
                 "2026-03-08} *\n")
    code, out, err = db("import", "E", "g", str(f))
    assert code == 2 and "recorded already with other dates" in err


def test_status_one_screen(db):
    db("game", "E", "h", "--white", "Caio", "--black", "Dora")
    db("game", "E", "k", "--white", "Eva", "--black", "Ana")
    # g: Ana received 1... on 10 Mar and is thinking: 10 days by 20 Mar, within 40.
    db("ack", "E", "g", "1...", "--received", "2026-03-10")
    # h: Caio's 1 went on 3 Mar, no reply: reiterate from 18 Mar (Art. 15).
    db("move", "E", "h", "1", "d4", "--sent", "2026-03-03")
    # k: Eva took 19 days on 1 with no notice: 12 + 7*2 = 26 (Art. 13); Ana has not
    # confirmed receipt yet.
    db("move", "E", "k", "1", "e4", "--sent", "2026-03-21", today="2026-03-21")
    code, out, err = db("status", "E", today="2026-03-21")
    assert code == 0, err
    assert "Over time: nobody" in out
    assert "reiterate 1 (REITERAÇÃO)" in out and "Caio" in out
    assert "announce" not in out
    code, out, err = db("status", "E", "--json", today="2026-04-20")
    data = json.loads(out)
    rows = {r["game"]: r for r in data["games"]}
    # g on 20 Apr: Ana thinking 41 days since 10 Mar: 12 + 29*2 = 70, plus 2 before: 72 > 40.
    assert rows["g"]["white_days"] == "72 (c1 72/40) OVER"
    assert rows["k"]["white_days"] == "26 (c1 26/40)"
    assert rows["g"]["owes"] == "Ana" and rows["g"]["white_days"].endswith("OVER")
    assert rows["k"]["owes"].startswith("Ana (not confirmed)")
    assert [i["game"] for i in data["due"] if i["art"] == "Art. 16"] == ["g"]


@pytest.mark.seed("CXEB Art. 3 §2", item="11.1")
def test_email_text_and_claim_file_via_the_command(db):
    db("move", "E", "g", "2", "Nf3", "--received", "2026-03-10", "--sent", "2026-03-12")
    code, out, err = db("email", "E", "g")
    assert code == 0 and "Totals: Ana 4 days, Bruno 4 days" in out
    code, out, err = db("claim", "E", "g", "--by", "black", "--date", "2026-03-13")
    assert code == 0 and "none found in the ledger" in out
    code, out, err = db("claim-file", "E", "g", "1")
    assert code == 0 and "The ledger finds no excess of Ana" in out
    assert "Contest due by 2026-03-28" in out


def test_package_writes_its_files(db, tmp_path):
    out_dir = tmp_path / "pkg"
    code, out, err = db("package", "E", "--out", str(out_dir), today="2027-01-20")
    assert code == 0, err
    # 30 days after 31 Dec, the recess excluded: work resumes 4 Jan 2027, so 2 Feb.
    assert "by 2027-02-02" in out
    assert json.loads((out_dir / "package.json").read_text())["adjudication"] == ["g"]
    assert "{received 2026-03-05 sent 2026-03-09" in (out_dir / "E.pgn").read_text()
