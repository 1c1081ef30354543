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
                 for san, o in zip(("c5", "e5"), outs)]
        for p in procs:
            p.start()
        for p in procs:
            p.join(60)
        codes = sorted(p.exitcode for p in procs)
        texts = [open(o).read() for o in outs]
        assert codes == [0, 2], (rnd, codes, texts)
        refused = next(t for p, t in zip(procs, texts) if p.exitcode == 2)
        assert "out of order" in refused and "Traceback" not in refused
        assert len(_moves(path, 2)) == 1, (rnd, texts)
        for argv in (["status", "E"], ["ledger", "E", "g"]):
            code, _, err = _corr(path, *argv)
            assert code == 0, (rnd, argv, err)
