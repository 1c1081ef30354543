"""bench/report.py: docs/BENCHMARKS.md from a `make bench` run's METRIC lines."""

from __future__ import annotations

import importlib.util
import io
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_" + name, ROOT / "bench" / (name + ".py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


report = _load("report")

METHOD = "# Benchmarks\n\nHow they are measured.\n"

# A page as the generator left it after an earlier run: three rows.
OLD_RUN = """\
# date 2026-11-29
METRIC press_us_mpy 1.627 us
METRIC hall_clocks 200
METRIC rp2040_lever_to_display_worst_us_pico_tm1637 8000 us
"""

# A later run: two of those metrics again, one new, one step (the hall) skipped.
NEW_RUN = """\
# date 2026-12-05
# cpython 3.11.7
METRIC press_us_mpy 1.702 us
some other line a bench printed
METRIC rp2040_lever_to_display_worst_us_pico_tm1637 11055 us
METRIC rp2040_lever_to_display_worst_us_pico_ssd1306 9173 us
METRIC rp2040_presses_failed_pico_tm1637 0
METRIC heap_peak_bound_blitz_wasm32_files_host_tm1637 131072 bytes
"""


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    method = tmp_path / "METHOD.md"
    method.write_text(METHOD)
    doc = tmp_path / "BENCHMARKS.md"
    old = tmp_path / "old.txt"
    old.write_text(OLD_RUN)
    new = tmp_path / "new.txt"
    new.write_text(NEW_RUN)
    return {"method": method, "doc": doc, "old": old, "new": new}


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        code = report.main(argv)
    finally:
        sys.stdout, sys.stderr = old
    return code, out.getvalue(), err.getvalue()


def rows(page: str) -> dict[str, list[str]]:
    """The table's rows by metric: [value, unit, goal, command, date]."""
    lines = page.splitlines()
    start = lines.index(report.HEADER)
    got = {}
    for line in lines[start + 2:]:
        if not line:
            break
        cells = [c.strip() for c in line.strip("|").split(" | ")]
        got[cells[0].strip("`")] = cells[1:]
    return got


def generate(files: dict[str, Path], run_file: str, *extra: str) -> str:
    code, out, err = run([str(files[run_file]), "--doc", str(files["doc"]),
                          "--method", str(files["method"]), *extra])
    assert (code, err) == (0, ""), err
    return files["doc"].read_text()


def test_a_run_gives_each_metric_a_row_with_its_value_goal_and_date(
        files: dict[str, Path]) -> None:
    page = generate(files, "old", "--fresh")
    assert page.startswith(report.GENERATED + "\n\n" + METHOD)
    table = rows(page)
    assert table["press_us_mpy"][:2] == ["1.627", "us"]
    assert table["press_us_mpy"][2] == ""                     # no goal
    assert table["hall_clocks"][:3] == ["200", "", ">= 200: met"]
    assert table["rp2040_lever_to_display_worst_us_pico_tm1637"][2] == "< 10000: met"
    assert {r[4] for r in table.values()} == {"2026-11-29"}
    assert "bench/rp2040_bench.py" in table["rp2040_lever_to_display_worst_us_pico_tm1637"][3]


def test_a_later_run_replaces_its_rows_marks_goals_and_keeps_the_rows_it_skipped(
        files: dict[str, Path]) -> None:
    generate(files, "old", "--fresh")
    table = rows(generate(files, "new"))
    # measured again: the new value, the new date, the goal judged on the new value
    assert table["press_us_mpy"] == ["1.702", "us", "", table["press_us_mpy"][3], "2026-12-05"]
    tm = table["rp2040_lever_to_display_worst_us_pico_tm1637"]
    assert tm[0] == "11055" and tm[2] == "< 10000: not met" and tm[4] == "2026-12-05"
    assert table["rp2040_lever_to_display_worst_us_pico_ssd1306"][2] == "< 10000: met"
    assert table["rp2040_presses_failed_pico_tm1637"][:3] == ["0", "", "= 0: met"]
    # a bound is kept when equal to it (<=)
    assert table["heap_peak_bound_blitz_wasm32_files_host_tm1637"][2] == "<= 131072: met"
    # the hall's step did not run: its row stays, with the day it was measured
    assert table["hall_clocks"] == ["200", "", ">= 200: met", report.HALL, "2026-11-29"]
    assert len(table) == 6


def test_rows_follow_the_specs_order(files: dict[str, Path]) -> None:
    generate(files, "old", "--fresh")
    names = list(rows(generate(files, "new")))
    order = ["press_us_mpy", "heap_peak_bound_blitz_wasm32_files_host_tm1637", "hall_clocks",
             "rp2040_lever_to_display_worst_us_pico_ssd1306",
             "rp2040_lever_to_display_worst_us_pico_tm1637", "rp2040_presses_failed_pico_tm1637"]
    assert [n for n in names if n in order] == order


def test_metric_lines_before_any_date_line_take_the_date_option(
        files: dict[str, Path]) -> None:
    files["new"].write_text("METRIC tick_us_mpy 0.4 us\n"
                            "# date 2026-12-06\nMETRIC press_us_mpy 2 us\n")
    table = rows(generate(files, "new", "--fresh", "--date", "2026-12-01"))
    assert table["tick_us_mpy"][4] == "2026-12-01"
    assert table["press_us_mpy"][4] == "2026-12-06"


def test_the_generated_page_passes_the_check_and_a_hand_edit_fails_it(
        files: dict[str, Path]) -> None:
    page = generate(files, "old", "--fresh")
    args = ["--check", "--doc", str(files["doc"]), "--method", str(files["method"])]
    assert run(args)[0] == 0
    files["doc"].write_text(page.replace("| 1.627 | us |", "| 1.6 | us |").replace(
        "How they", "How we"))   # the method edited here rather than in METHOD.md
    code, _, err = run(args)
    assert code == 1 and "not what bench/report.py writes" in err
    files["doc"].write_text(page.replace(">= 200: met", ">= 200: not met"))   # a wrong mark
    assert run(args)[0] == 1


def test_docs_benchmarks_is_in_the_generators_format() -> None:
    """docs/BENCHMARKS.md is bench/METHOD.md and the table, exactly as report.py writes them
    (goals and commands from its SPECS): edit METHOD.md or SPECS and regenerate."""
    page = (ROOT / "docs" / "BENCHMARKS.md").read_text()
    method = (ROOT / "bench" / "METHOD.md").read_text()
    assert page == report.render(method, report.parse_table(page))
    code, _, err = run(["--check"])
    assert code == 0, err


PAGE_ROWS = report.HEADER + "\n" + report.RULE + "\n"

BAD = [
    # (what, METRIC file text or None, page text, extra args, words of the error)
    ("a METRIC line with no value", "METRIC press_us_mpy\n", None, [], "line 1"),
    ("a METRIC line with words after the unit", "METRIC a 1 us now\n", None, [], "METRIC <name>"),
    ("a value that is no number", "METRIC a 1,5 us\n", None, [], "not a number"),
    ("a metric name with capitals", "METRIC Press 1 us\n", None, [], "not a metric name"),
    ("a unit that is no unit", "METRIC a 1 u(s)\n", None, [], "not a unit"),
    ("a date line with no date", "# date\n", None, [], "# date YYYY-MM-DD"),
    ("a date that is no date", "# date 2026-13-01\nMETRIC a 1 us\n", None, [], "not a date"),
    ("a --date that is no date", "METRIC a 1 us\n", None, ["--date", "yesterday"], "--date"),
    ("a page with no table", "METRIC a 1 us\n", "# Benchmarks\n", [], "--fresh"),
    ("a table row not in the format", "METRIC a 1 us\n", PAGE_ROWS + "| a | 1 |\n", [],
     "not a row"),
    ("a row with a date that is no date", "METRIC a 1 us\n",
     PAGE_ROWS + "| `a` | 1 | us |  | `make bench` | soon |\n", [], "not a date"),
    ("a metric with two rows", "METRIC a 1 us\n",
     PAGE_ROWS + "| `b` | 1 | us |  | `make bench` | 2026-12-01 |\n" * 2, [], "has a row already"),
    ("a header with no rule under it", "METRIC a 1 us\n", report.HEADER + "\n| x |\n", [],
     "not followed by"),
    ("--check given a run", "METRIC a 1 us\n", None, ["--check"], "--check reads the page only"),
]


@pytest.mark.parametrize("what,metrics,page,extra,words", BAD, ids=[b[0] for b in BAD])
def test_bad_input_is_one_line_and_exit_2_and_the_page_is_left_alone(
        files: dict[str, Path], what: str, metrics: str, page: str | None, extra: list[str],
        words: str) -> None:
    doc = files["doc"]
    doc.write_text(page if page is not None else "unchanged")
    files["new"].write_text(metrics)
    code, out, err = run([str(files["new"]), "--doc", str(doc), "--method",
                          str(files["method"]), *extra])
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("bench/report.py: ") and words in err, err
    assert doc.read_text() == (page if page is not None else "unchanged")


def test_missing_files_are_named(files: dict[str, Path], tmp_path: Path) -> None:
    code, _, err = run([str(tmp_path / "nope.txt"), "--doc", str(files["doc"]),
                        "--method", str(files["method"]), "--fresh"])
    assert code == 2 and "nope.txt: no such file" in err and err.count("\n") == 1
    code, _, err = run([str(files["old"]), "--doc", str(files["doc"]),
                        "--method", str(tmp_path / "METHOD-none.md"), "--fresh"])
    assert code == 2 and "METHOD-none.md: no such file" in err


def test_the_command_line_tool_says_bad_input_without_a_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "m.txt"
    bad.write_text("METRIC x\n")
    r = subprocess.run([sys.executable, str(ROOT / "bench" / "report.py"), str(bad),
                        "--doc", str(tmp_path / "doc.md"), "--fresh"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr and r.stderr.count("\n") == 1


def test_make_bench_saves_its_output_as_it_goes(tmp_path: Path) -> None:
    """bench/run.py's Tee: every write reaches the file at once (a run that stops part way
    leaves its METRIC lines for the report)."""
    tee = _load("run").Tee(io.StringIO(), str(tmp_path / "metrics.txt"))
    tee.write("# date 2026-12-05\n")
    print("METRIC press_us_mpy 1.7 us", file=tee)
    printed = "# date 2026-12-05\nMETRIC press_us_mpy 1.7 us\n"
    assert (tmp_path / "metrics.txt").read_text() == printed
    assert tee.out.getvalue() == printed
    tee.close()
