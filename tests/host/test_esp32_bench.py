"""bench/esp32_bench.py without QEMU: the skip, finding QEMU, and what it reads back (the heap
mark in a DRAM dump, the flash trace) and prints (METRIC lines report.py takes)."""

from __future__ import annotations

import importlib.util
import struct
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


bench = _load("esp32_bench")
report = _load("report")

ESP32_HELP = """\
Supported machines are:
esp32                Espressif ESP32 machine
esp32c3              Espressif ESP32-C3 machine
none                 empty machine
"""
UPSTREAM_HELP = """\
Supported machines are:
kc705                kc705 EVB (dc232b) (default)
lx60                 lx60 EVB (dc232b)
none                 empty machine
sim                  sim machine (dc232b)
"""


def test_without_qemu_the_bench_says_where_to_get_it_in_one_line_and_exits_0(tmp_path):
    # an empty PATH and HOME, no $CHESSCLOCK_QEMU_XTENSA: nothing to find
    env = {"PATH": str(tmp_path), "HOME": str(tmp_path), "PYTHONPATH": ""}
    r = subprocess.run([sys.executable, str(ROOT / "bench" / "esp32_bench.py")], env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("\n") == 1 and r.stdout.startswith("# esp32: skipped: ")
    assert "https://github.com/espressif/qemu/releases" in r.stdout
    assert "qemu-xtensa-softmmu-esp_develop_" in r.stdout
    assert "idf_tools.py install qemu-xtensa" in r.stdout
    assert "METRIC" not in r.stdout and r.stderr == ""


def test_a_qemu_without_the_esp32_machine_is_skipped_too(tmp_path):
    # Debian's and upstream QEMU's qemu-system-xtensa: no esp32 machine
    fake = tmp_path / "qemu-system-xtensa"
    fake.write_text("#!/bin/sh\ncat <<'EOF'\n%sEOF\n" % UPSTREAM_HELP)
    fake.chmod(0o755)
    env = {"PATH": str(tmp_path), "HOME": str(tmp_path)}
    r = subprocess.run([sys.executable, str(ROOT / "bench" / "esp32_bench.py")], env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.startswith("# esp32: skipped: no qemu-system-xtensa")


def test_find_qemu_takes_the_first_that_lists_esp32(tmp_path):
    helps = {"/env/qemu": UPSTREAM_HELP, "/usr/bin/qemu-system-xtensa": ESP32_HELP}
    esp = tmp_path / ".espressif/tools/qemu-xtensa/esp_develop_9.0.0_20240606/qemu/bin"
    esp.mkdir(parents=True)
    (esp / "qemu-system-xtensa").write_text("")
    helps[str(esp / "qemu-system-xtensa")] = ESP32_HELP
    env = {bench.ENV_QEMU: "/env/qemu", "HOME": str(tmp_path)}
    asked = []

    def machine_help(exe):
        asked.append(exe)
        return helps.get(exe, "")

    def which(name):
        return "/usr/bin/qemu-system-xtensa"

    assert bench.find_qemu(env, which, machine_help) == "/usr/bin/qemu-system-xtensa"
    assert asked == ["/env/qemu", "/usr/bin/qemu-system-xtensa"]   # $ENV first, then PATH
    # nothing on PATH: Espressif's tools folder (idf_tools.py install qemu-xtensa)
    assert bench.find_qemu({"HOME": str(tmp_path)}, lambda n: None, machine_help) == \
        str(esp / "qemu-system-xtensa")
    # none has the machine: None (the skip)
    assert bench.find_qemu({"HOME": str(tmp_path)}, which, lambda exe: UPSTREAM_HELP) is None
    assert bench.has_esp32(ESP32_HELP) and not bench.has_esp32(UPSTREAM_HELP)
    assert not bench.has_esp32("esp32c3              Espressif ESP32-C3 machine\n")


def _dram(token, least, n, block, at, stale=None):
    ram = bytearray(b"\xa5" * 4096)
    if stale:   # an earlier run's mark, another token: not this run's
        ram[100:100 + 8 + len(stale) + 16] = b"HEAPMIN!" + stale + struct.pack(
            "<iiii", 1, 1, 1, 1)
    at_ = 2000
    ram[at_:at_ + 8 + len(token) + 16] = b"HEAPMIN!" + token + struct.pack(
        "<iiii", least, n, block, at)
    return bytes(ram)


def test_the_heap_mark_is_this_runs_and_decoded():
    token = b"0123456789"
    dram = _dram(token, 57_616, 812, 40_960, 300, stale=b"abcdefabcd")
    assert bench.heap_mark(dram, token) == {"least": 57_616, "samples": 812, "block": 40_960,
                                            "at": 300}
    assert bench.heap_mark(dram, b"abcdefabcd")["least"] == 1
    assert bench.heap_mark(dram, b"9999999999") is None           # not there
    assert bench.heap_mark(_dram(token, 0, 0, 0, 0), token) is None   # no sample yet
    # the literal in the heap mark's own source (also in RAM) never matches the tag
    text = bench.boot_py(token)
    assert "HEAPMIN?" + token.decode() in text and "TOKEN_HERE" not in text
    assert bench.heap_mark(text.encode(), token) is None


def test_the_boot_py_offsets_match_the_bench():
    # bench/esp32_heapmark.py packs least, n, block after tag + token, the sample at +12
    src = (ROOT / "bench" / "esp32_heapmark.py").read_text()
    head = len(b"HEAPMIN!") + len(bench.TOKEN_SLOT)
    assert 'struct.pack_into("<iii", _mark, %d,' % head in src
    assert 'struct.pack_into("<i", _mark, %d,' % (head + 12) in src
    assert "bytes(16)" in src


def test_flash_bytes_are_the_page_program_lines():
    trace = ("Adding SPI flash device\n"
             "m25p80_page_program [0x55ed] page program cur_addr=0x2010c0 data=0x10\n"
             "m25p80_page_program [0x55ed] page program cur_addr=0x2010c1 data=0x1f\n"
             "m25p80_flash_erase [0x55ed] offset = 0x201000, len = 4096\n"
             "m25p80_page_program [0x55ed] page program cur_addr=0x2010c2 data=0x00\n")
    assert bench.programmed_bytes(trace) == 3
    assert bench.programmed_bytes("") == 0


def test_the_metric_lines_parse_in_report_py_under_the_esp32_command():
    lines = bench.metric_lines("esp32-tm1637-bench", 57_616, 40_960, 23_456, 41_234)
    assert lines == [
        "METRIC esp32_heap_free_min_esp32_tm1637_bench 57616 bytes",
        "METRIC esp32_heap_largest_free_block_min_esp32_tm1637_bench 40960 bytes",
        "METRIC esp32_flash_bytes_per_game_esp32_tm1637_bench 23456 bytes",
        "METRIC esp32_status_round_trip_us 41234 us",
    ]
    figs = report.parse_metrics("\n".join(lines) + "\n", "2026-12-04")
    assert {n: (f.value, f.unit) for n, f in figs.items()} == {
        "esp32_heap_free_min_esp32_tm1637_bench": ("57616", "bytes"),
        "esp32_heap_largest_free_block_min_esp32_tm1637_bench": ("40960", "bytes"),
        "esp32_flash_bytes_per_game_esp32_tm1637_bench": ("23456", "bytes"),
        "esp32_status_round_trip_us": ("41234", "us"),
    }
    for name in figs:
        _i, spec = report.spec_of(name)
        assert spec.command == "`make esp32-bench`" and spec is not report.OTHER, name


@pytest.mark.parametrize("args,words", [
    (["--presses", "3"], "--presses is an even number"),
    (["--presses", "0"], "--presses is an even number"),
    (["--status", "0"], "--status >= 1"),
])
def test_bad_arguments_are_one_line_and_exit_2(args, words):
    r = subprocess.run([sys.executable, str(ROOT / "bench" / "esp32_bench.py")] + args,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and words in r.stderr and "Traceback" not in r.stderr
