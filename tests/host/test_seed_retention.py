"""Worked examples of `chessclock retention`: records kept until 60 days after the result is
published (S0 Art. 10), a record an appeal rests on kept whatever its age."""

import json

import pytest
from cliutil import run_cli


def archive(tmp_path):
    root = tmp_path / "logs"
    (root / "CLK1").mkdir(parents=True)
    (root / "CLK1" / "round1.log").write_bytes(b"\x00log")
    (root / "CLK1" / "round2.log").write_bytes(b"\x00log")
    (root / "round1.pgn").write_text("[Event \"t\"]\n\n*\n")
    return root


def retention(*argv):
    code, out, err = run_cli(["retention", *argv, "--json"])
    assert code == 0, err
    return json.loads(out)


@pytest.mark.seed("S0 Art. 10", item="9.4")
def test_s0_art_10_kept_until_60_days_after_publication(tmp_path):
    root = archive(tmp_path)
    # published 1 Oct: kept through 30 Nov (1 Oct + 60 days)
    a = retention(str(root), "--published", "2026-10-01", "--today", "2026-11-30")
    assert a["keep_until"] == "2026-11-30"
    assert {f["action"] for f in a["files"]} == {"keep"}
    a = retention(str(root), "--published", "2026-10-01", "--today", "2026-12-01")
    assert [f["file"] for f in a["files"]] == ["round1.pgn", "CLK1/round1.log",
                                               "CLK1/round2.log"]
    assert {f["action"] for f in a["files"]} == {"may discard"}
    assert (root / "CLK1" / "round1.log").exists()          # nothing is deleted
    a = retention(str(root), "--published", "2026-10-01", "--today", "2026-12-01",
                  "--days", "90")
    assert {f["action"] for f in a["files"]} == {"keep"}


@pytest.mark.seed("S0 Art. 42", item="9.4")
def test_a_record_under_appeal_is_kept(tmp_path):
    root = archive(tmp_path)
    a = retention(str(root), "--published", "2026-01-01", "--today", "2026-12-01",
                  "--hold", str(root / "CLK1" / "round2.log"))
    actions = {f["file"]: f["action"] for f in a["files"]}
    assert actions == {"round1.pgn": "may discard", "CLK1/round1.log": "may discard",
                       "CLK1/round2.log": "keep"}


def test_retention_bad_input(tmp_path):
    root = archive(tmp_path)
    for argv, message in [
        ([str(tmp_path / "none")], "not a folder"),
        ([str(root)], "--published"),
        ([str(root), "--published", "1/10/2026"], "YYYY-MM-DD"),
        ([str(root), "--published", "2026-10-01", "--today", "2026-09-01"], "before"),
        ([str(root), "--published", "2026-10-01", "--days", "-1"], "--days -1"),
        ([str(root), "--published", "2026-10-01", "--hold", str(tmp_path / "x")],
         "no such file"),
    ]:
        code, out, err = run_cli(["retention", *argv])
        assert code == 2 and out == "", argv
        assert message in err and len(err.strip().splitlines()) == 1, err
