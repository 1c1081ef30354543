"""The ledger's integrity (`chessclock corr`): two writers at once, edits made outside
chessclock, damaged records, and the repair that keeps the history. Each attack found
against the ledger is kept here as a test."""

import json
import multiprocessing
import os
import sqlite3
import sys

import pytest
from cliutil import run_cli


def _corr(path, *argv, today="2026-03-20"):
    return run_cli(["corr", "--db", path, "--today", today] + list(argv))


def _setup(path):
    for argv in (["event", "E", "--start", "2026-03-02", "--end", "2026-12-31"],
                 ["game", "E", "g", "--white", "Ana", "--black", "Bruno"],
                 ["move", "E", "g", "1", "e4", "--sent", "2026-03-04"]):
        code, _, err = _corr(path, *argv)
        assert code == 0, err


def _moves(path, ply):
    with sqlite3.connect(path) as c:
        return [json.loads(d) for (d,) in c.execute(
            "SELECT data FROM records WHERE kind = 'move'") if json.loads(d)["ply"] == ply]


def _writer(path, san, barrier, outfile):
    # A separate process: its own interpreter state and its own SQLite connection.
    from chessclock import cli

    with open(outfile, "w") as f:
        sys.stdout = sys.stderr = f
        barrier.wait()
        code = cli.main(["corr", "--db", path, "--today", "2026-03-20", "move", "E", "g",
                         "1...", san, "--received", "2026-03-05", "--sent", "2026-03-09"])
        f.flush()
    os._exit(code)


def test_two_writers_at_once_record_one_move(tmp_path):
    """Two `corr move` for the same move released together (a barrier) in separate
    processes: exactly one is recorded, the other is refused and writes nothing; the
    event stays readable after every round."""
    ctx = multiprocessing.get_context("fork")
    for rnd in range(20):
        path = str(tmp_path / ("r%d.sqlite3" % rnd))
        _setup(path)
        barrier = ctx.Barrier(2)
        outs = [str(tmp_path / ("r%d-%d.txt" % (rnd, i))) for i in (0, 1)]
        procs = [ctx.Process(target=_writer, args=(path, san, barrier, o))
                 for san, o in zip(("c5", "e5"), outs, strict=True)]
        for p in procs:
            p.start()
        for p in procs:
            p.join(60)
        codes = sorted(p.exitcode for p in procs)
        texts = [open(o).read() for o in outs]
        assert codes == [0, 2], (rnd, codes, texts)
        refused = next(t for p, t in zip(procs, texts, strict=True) if p.exitcode == 2)
        assert "out of order" in refused and "Traceback" not in refused
        assert len(_moves(path, 2)) == 1, (rnd, texts)
        for argv in (["status", "E"], ["ledger", "E", "g"]):
            code, _, err = _corr(path, *argv)
            assert code == 0, (rnd, argv, err)


# ---- edits made outside chessclock: the hash chain -------------------------------------
@pytest.fixture
def ledger(tmp_path):
    path = str(tmp_path / "ledger.sqlite3")
    _setup(path)
    code, _, err = _corr(path, "move", "E", "g", "1...", "c5", "--received", "2026-03-05",
                         "--sent", "2026-03-09")
    assert code == 0, err
    return path


def _sql(path, *statements):
    with sqlite3.connect(path) as c:
        c.execute("DROP TRIGGER IF EXISTS records_no_update")
        c.execute("DROP TRIGGER IF EXISTS records_no_delete")
        c.execute("DROP TRIGGER IF EXISTS chain_no_update")
        c.execute("DROP TRIGGER IF EXISTS chain_no_delete")
        for s in statements:
            c.execute(s)


LAST_MOVE = "(SELECT max(seq) FROM records WHERE kind = 'move')"
EDITS = [
    ("changed date", ["UPDATE records SET data = replace(data, '2026-03-09', '2026-03-06') "
                      "WHERE seq = %s" % LAST_MOVE], "was changed after it was written"),
    ("deleted last move", ["DELETE FROM records WHERE seq = %s" % LAST_MOVE],
     "was deleted: it is in the chain"),
    ("deleted last move and its chain row",
     ["DELETE FROM chain WHERE seq = %s" % LAST_MOVE,
      "DELETE FROM records WHERE seq = %s" % LAST_MOVE], "the head says 4 records"),
    ("deleted a middle record", ["DELETE FROM records WHERE kind = 'game'"],
     "record 2 was deleted"),
    ("slipped-in record", ["INSERT INTO records (event, game, kind, data, entered) VALUES "
                           "('E', 'g', 'fine', '{\"ply\": 2, \"reason\": \"illegal\", "
                           "\"date\": \"2026-03-10\"}', '2026-03-10')"],
     "is not in the chain: added outside chessclock"),
]


@pytest.mark.parametrize("what,statements,message", EDITS, ids=[e[0] for e in EDITS])
def test_an_edit_outside_chessclock_is_reported_by_every_read(ledger, what, statements,
                                                              message):
    """With the triggers dropped, an edit made with SQL tools: `ledger`, `status` and the
    next write say what is wrong, one line, exit 3; `verify` lists it."""
    assert _corr(ledger, "verify", "E")[0] == 0
    _sql(ledger, *statements)
    for argv in (["ledger", "E", "g"], ["status", "E"], ["pgn", "E", "g"],
                 ["move", "E", "g", "2", "Nf3", "--received", "2026-03-10",
                  "--sent", "2026-03-12"]):
        code, out, err = _corr(ledger, *argv)
        assert code == 3, (argv, out, err)
        assert message in err and "outside chessclock" in err and err.count("\n") == 1
        assert out == "" and "Traceback" not in err
    code, out, err = _corr(ledger, "verify", "E")
    assert code == 3 and message in out and "problem" in err


def test_verify_an_intact_ledger_gives_its_head(ledger):
    code, out, err = _corr(ledger, "verify", "E", "--json")
    data = json.loads(out)
    assert code == 0 and data["intact"] and data["records"] == 4 and len(data["head"]) == 64
    code, out, err = _corr(ledger, "move", "E", "g", "2", "Nf3", "--received", "2026-03-10",
                           "--sent", "2026-03-12")
    assert code == 0, err
    again = json.loads(_corr(ledger, "verify", "E", "--json")[1])
    assert again["records"] == 5 and again["head"] != data["head"]


def _legacy(path, tmp_path, *extra):
    """The same records in a ledger as written before the chain: the records table only,
    then `extra` rows (seq, event, game, kind, data, entered) as an old writer left them."""
    old = str(tmp_path / "old.sqlite3")
    with sqlite3.connect(old) as c:
        c.execute("CREATE TABLE records (seq INTEGER PRIMARY KEY AUTOINCREMENT, event TEXT "
                  "NOT NULL, game TEXT, kind TEXT NOT NULL, data TEXT NOT NULL, entered TEXT "
                  "NOT NULL)")
        c.execute("ATTACH DATABASE ? AS new", (path,))
        c.execute("INSERT INTO records SELECT * FROM new.records")
        for row in extra:
            c.execute("INSERT INTO records (event, game, kind, data, entered) "
                      "VALUES (?, ?, ?, ?, ?)", row)
    return old


def test_a_ledger_without_the_chain_is_migrated_once(ledger, tmp_path):
    old = _legacy(ledger, tmp_path)
    code, out, err = _corr(old, "ledger", "E", "g")
    assert code == 0 and "without a hash chain" in err and "its 4 records" in err
    code, out, err = _corr(old, "ledger", "E", "g")
    assert code == 0 and err == ""
    assert _corr(old, "verify", "E")[0] == 0
    _sql(old, "UPDATE records SET entered = '2026-03-01' WHERE kind = 'game'")
    assert _corr(old, "ledger", "E", "g")[0] == 3


def test_repair_sets_aside_the_second_record_of_a_move_and_keeps_it(ledger, tmp_path):
    """The damage two writers at once left before the write transaction: two records of
    move 2. Every read fails (out of order); `repair` appends a record that sets the
    second aside; it stays in the database and the chain."""
    dup = ("E", "g", "move", json.dumps({"ply": 2, "san": "e5", "sent": "2026-03-09",
                                         "received": "2026-03-05", "conditional": False}),
           "2026-03-20")
    old = _legacy(ledger, tmp_path, dup)
    for argv in (["status", "E"], ["ledger", "E", "g"],
                 ["correct", "E", "g", "--from", "1...", "--date", "2026-03-20",
                  "--reason", "x"]):
        code, out, err = _corr(old, *argv)
        assert code == 2 and "out of order" in err, (argv, err)
    code, out, err = _corr(old, "repair", "E", "--date", "2026-03-20",
                           "--reason", "two writers at once")
    assert code == 0 and "set aside record 5 (move, game g)" in out, err
    with sqlite3.connect(old) as c:
        kinds = [k for (k,) in c.execute("SELECT kind FROM records ORDER BY seq")]
    assert kinds == ["event", "game", "move", "move", "move", "repair"]
    data = json.loads(_corr(old, "ledger", "E", "g", "--json")[1])
    assert [m["san"] for m in data["moves"]] == ["e4", "c5"] and data["set_aside"] == [5]
    assert _corr(old, "status", "E")[0] == 0 and _corr(old, "verify", "E")[0] == 0
    code, out, err = _corr(old, "repair", "E", "--date", "2026-03-20", "--reason", "again")
    assert code == 0 and "nothing to repair" in out


MALFORMED = [
    ("not JSON", "{\"ply\": 2, ", "its data is not JSON"),
    ("a list", "[2, \"e5\"]", "not a JSON object"),
    ("no sent", "{\"ply\": 2, \"san\": \"e5\"}", "field 'sent' is missing"),
    ("ply as text", "{\"ply\": \"2\", \"sent\": \"2026-03-09\"}", "field 'ply' is malformed"),
    ("bad date", "{\"ply\": 2, \"sent\": \"2026-02-30\"}", "not a day of the calendar"),
    ("huge ply", "{\"ply\": %s, \"sent\": \"2026-03-09\"}" % ("9" * 400),
     "field 'ply' is malformed"),
]


@pytest.mark.parametrize("what,data,message", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_a_malformed_record_is_one_line_and_can_be_set_aside(ledger, tmp_path, what, data,
                                                              message):
    old = _legacy(ledger, tmp_path, ("E", "g", "move", data, "2026-03-20"))
    code, out, err = _corr(old, "ledger", "E", "g")
    assert code == 2 and message in err and "record 5 (move)" in err, err
    assert err.count("\n") == 2 and "Traceback" not in err   # the migration line + this one
    assert "internal error" not in err
    code, out, err = _corr(old, "repair", "E", "--date", "2026-03-20", "--reason", what)
    assert code == 0 and "set aside record 5" in out, err
    assert _corr(old, "ledger", "E", "g")[0] == 0


BAD_FILES = [
    ("latin-1 CSV", "moves.csv", "move,san,received,sent\n2,Cf3 caf\xe9,2026-03-10,2026-03-12\n"
     .encode("latin-1"), "moves.csv line 2: byte 0xe9 is not UTF-8 text"),
    ("UTF-16 CSV", "moves.csv", "move,sent\n2,2026-03-12\n".encode("utf-16"),
     "moves.csv line 1: byte 0xff is not UTF-8"),
    ("latin-1 PGN", "g.pgn", "[Event \"Ta\xe7a\"]\n\n1. e4 *\n".encode("latin-1"),
     "g.pgn line 1: byte 0xe7 is not UTF-8"),
    ("NUL bytes", "moves.csv", b"move,sent\n2\x00,2026-03-12\n", "moves.csv"),
    ("binary", "moves.csv", bytes(range(256)), "moves.csv line 2: byte 0x80"),
    ("empty", "moves.csv", b"", "moves.csv: empty"),
    ("no header", "moves.csv", b"2,Nf3,2026-03-10,2026-03-12\n", "the header needs"),
]


@pytest.mark.parametrize("what,name,raw,message", BAD_FILES, ids=[b[0] for b in BAD_FILES])
def test_import_of_a_bad_file_is_one_line_exit_2(ledger, tmp_path, what, name, raw, message):
    f = tmp_path / name
    f.write_bytes(raw)
    code, out, err = _corr(ledger, "import", "E", "g", str(f))
    assert code == 2 and message in err and err.count("\n") == 1, err
    assert "internal error" not in err and out == ""


BAD_ARGS = [
    (["verify", "X"], "no event 'X'"),
    (["repair", "X", "--date", "2026-03-20", "--reason", "r"], "no event 'X'"),
    (["repair", "E", "--date", "2026-02-30", "--reason", "r"], "not a day of the calendar"),
    (["repair", "E", "--date", "20/03/2026", "--reason", "r"], "is not a date"),
    (["repair", "E", "--date", "2026-03-21", "--reason", "r"], "after today"),
]


@pytest.mark.parametrize("argv,message", BAD_ARGS, ids=[b[1] for b in BAD_ARGS])
def test_verify_and_repair_refuse_bad_input_one_line(ledger, argv, message):
    code, out, err = _corr(ledger, *argv)
    assert code == 2 and message in err and err.count("\n") == 1 and out == "", err


def test_a_file_that_is_not_a_ledger_is_one_line(tmp_path):
    f = tmp_path / "notes.txt"
    f.write_text("this is not a database\n" * 100)
    code, out, err = _corr(str(f), "verify", "E")
    assert code == 2 and "ledger database" in err and "not a database" in err
    assert err.count("\n") == 1


def test_an_old_move_that_does_not_read_is_a_warning_and_a_pgn_comment(ledger, tmp_path):
    """A ledger written before moves were checked may hold a notation that reads as no
    move (Art. 6 III). The event stays readable: the ledger warns, the PGN keeps standard
    SAN up to it and gives it and its dates as a comment, and `correct` can replace it."""
    bad = ("E", "g", "move", json.dumps({"ply": 3, "san": "Zz9", "sent": "2026-03-12",
                                         "received": "2026-03-10", "conditional": False}),
           "2026-03-12")
    old = _legacy(ledger, tmp_path, bad)
    code, out, err = _corr(old, "ledger", "E", "g")
    assert code == 0 and "Warning: move 2: 'Zz9' is not a move" in out, err
    pgn = _corr(old, "pgn", "E", "g")[1]
    assert "1. e4 {received" in pgn and "{2 Zz9: received 2026-03-10 sent 2026-03-12" in pgn
    assert _corr(old, "correct", "E", "g", "--from", "2", "--date", "2026-03-20",
                 "--reason", "Zz9 read as no move")[0] == 0
    assert _corr(old, "move", "E", "g", "2", "Cf3", "--received", "2026-03-10",
                 "--sent", "2026-03-12")[0] == 0
    assert "2. Nf3" in _corr(old, "pgn", "E", "g")[1]
