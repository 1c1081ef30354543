"""The firmware on an emulated ESP32 (`make esp32-bench`; alone:
`.venv/bin/python bench/esp32_bench.py [--presses N] [--status N]`).

MicroPython's official ESP32_GENERIC v1.24.0 release image (read from outside the repository,
its sha256 checked: tests/rp2040/images.py) in Espressif's QEMU (`-machine esp32`), which this
project neither builds nor carries: without a `qemu-system-xtensa` that lists the esp32
machine the bench prints one line saying where to get it and exits 0 (a skip). It looks at
$CHESSCLOCK_QEMU_XTENSA, then PATH, then Espressif's tools folder (~/.espressif/tools).

The run: the image merged into a 4 MB flash (esptool merge-bin, in a temporary folder),
QEMU with -icount shift=3 (deterministic emulated time), the timer-group watchdog off and
UART0 on a socket that socat links to a pty; the esp32-tm1637-bench build (boards.toml: no
battery divider, the emulator has no ADC; switches idle low, as its GPIO reads every input
low; levers over the link) deployed with the real `chessclock deploy` over the pty,
bench/esp32_heapmark.py as /boot.py, a soft reset into main.py, then over the clock's serial
link (chessclock.link.transport.Link, as the arbiter's tools talk to it): `set 3m+2s`, `start`, a
game of 120 presses (`sim press`, the board's link_levers), `status` every 10 presses, the
whole log pulled, then a status loop.

Printed:
  METRIC esp32_heap_free_min_<build> B   least gc.mem_free() after a collection (the heap
      mark, every 100 ms emulated, from boot to the end of the status loop)
  METRIC esp32_heap_largest_free_block_min_<build> B   least "largest free block" of the
      IDF data heaps over the same samples (esp32.idf_heap_info: where the port's GC heap
      grows)
  METRIC esp32_flash_bytes_per_game_<build> B   bytes the SPI flash model was programmed
      with (QEMU's m25p80_page_program trace, one line a byte) from START until half a
      second after the game's last press (state saves, log records, littlefs metadata);
      erases come on top
  METRIC esp32_status_round_trip_us us   mean wall-clock round trip of the status loop
      (the request written to the pty until its reply line is read), heap mark running
Emulated times say nothing of a real chip's speed (bench/METHOD.md).
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import re
import secrets
import shutil
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "rp2040"))
import images  # noqa: E402

from chessclock.link.transport import Link  # noqa: E402

BIN = Path(sys.executable).parent
BOARD = "esp32-tm1637-bench"
IMAGE_VERSION = "MicroPython v1.24.0 (ESP32_GENERIC, official release image)"
ENV_QEMU = "CHESSCLOCK_QEMU_XTENSA"
HOW_TO_GET = ("no qemu-system-xtensa with the esp32 machine; get Espressif's QEMU release "
              "(https://github.com/espressif/qemu/releases, the "
              "qemu-xtensa-softmmu-esp_develop_* archive, or `idf_tools.py install "
              "qemu-xtensa`) and put its bin/ on PATH or set %s" % ENV_QEMU)
DRAM = (0x3FFAE000, 0x52000)    # the ESP32's internal data RAM, where the heaps are
MARK_TAG = b"HEAPMIN!"
TOKEN_SLOT = b"TOKEN_HERE"
PROGRAM_EVENT = "m25p80_page_program"
WALL = 1800.0                   # seconds: the slowest step (the deploy, ~5 minutes)


class BenchError(Exception):
    """The run could not be done: one line for the user (exit 1)."""


def log(*a: object) -> None:
    print("#", *a, flush=True)


# ---- finding QEMU -----------------------------------------------------------------------

def has_esp32(help_text: str) -> bool:
    """`qemu-system-xtensa -machine help` lists the esp32 machine."""
    return re.search(r"^esp32\s", help_text, re.M) is not None


def candidates(env: Mapping[str, str], which: Callable[[str], str | None]) -> list[str]:
    out = []
    if env.get(ENV_QEMU):
        out.append(env[ENV_QEMU])
    found = which("qemu-system-xtensa")
    if found:
        out.append(found)
    home = env.get("HOME", "")
    if home:
        out += sorted(glob.glob(os.path.join(home, ".espressif", "tools", "qemu-xtensa", "*",
                                             "qemu", "bin", "qemu-system-xtensa")),
                      reverse=True)
    return out


def find_qemu(env: Mapping[str, str] | None = None,
              which: Callable[[str], str | None] = shutil.which,
              machine_help: Callable[[str], str] | None = None) -> str | None:
    """The first qemu-system-xtensa that has the esp32 machine, or None."""
    env = os.environ if env is None else env

    def ask(exe: str) -> str:
        try:
            r = subprocess.run([exe, "-machine", "help"], capture_output=True, text=True,
                               timeout=30)
        except (OSError, subprocess.SubprocessError):
            return ""
        return r.stdout

    machine_help = machine_help or ask
    for exe in candidates(env, which):
        if has_esp32(machine_help(exe)):
            return exe
    return None


# ---- what the run reads back ------------------------------------------------------------

def heap_mark(dram: bytes, token: bytes) -> dict[str, int] | None:
    """The heap mark of this run's /boot.py in a DRAM dump: least free, samples, least
    largest block, the sample of the least free; None when it is not there."""
    i = dram.find(MARK_TAG + token)
    if i < 0:
        return None
    at = i + len(MARK_TAG) + len(token)
    least, n, block, when = struct.unpack_from("<iiii", dram, at)
    if n <= 0:
        return None
    return {"least": least, "samples": n, "block": block, "at": when}


def programmed_bytes(trace: str) -> int:
    """Bytes programmed into the SPI flash: QEMU logs m25p80_page_program once a byte."""
    return sum(1 for line in trace.splitlines() if line.startswith(PROGRAM_EVENT))


def metric_lines(build: str, least: int, block: int, flash_bytes: int,
                 round_trip_us: int) -> list[str]:
    b = build.replace("-", "_")
    return ["METRIC esp32_heap_free_min_%s %d bytes" % (b, least),
            "METRIC esp32_heap_largest_free_block_min_%s %d bytes" % (b, block),
            "METRIC esp32_flash_bytes_per_game_%s %d bytes" % (b, flash_bytes),
            "METRIC esp32_status_round_trip_us %d us" % round_trip_us]


def boot_py(token: bytes) -> str:
    text = (ROOT / "bench" / "esp32_heapmark.py").read_text()
    assert TOKEN_SLOT.decode() in text and len(token) == len(TOKEN_SLOT)
    return text.replace(TOKEN_SLOT.decode(), token.decode())


# ---- QEMU -------------------------------------------------------------------------------

class Qmp:
    """QEMU's machine protocol on a unix socket: trace events on and off, memory dumps."""

    def __init__(self, path: str) -> None:
        self.sock = socket.socket(socket.AF_UNIX)
        deadline = time.monotonic() + 30
        while True:
            try:
                self.sock.connect(path)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise BenchError("QEMU's QMP socket %s did not open" % path) from None
                time.sleep(0.2)
        self.file = self.sock.makefile("rwb")
        self._read()                       # the greeting
        self.execute("qmp_capabilities")

    def _read(self) -> dict:
        while True:
            line = self.file.readline()
            if not line:
                raise BenchError("QEMU closed its QMP socket")
            msg = json.loads(line)
            if "event" not in msg:
                return msg

    def execute(self, cmd: str, **args: object) -> object:
        self.file.write(json.dumps({"execute": cmd, "arguments": args}).encode() + b"\n")
        self.file.flush()
        msg = self._read()
        if "error" in msg:
            raise BenchError("QEMU refused %s: %s" % (cmd, msg["error"].get("desc")))
        return msg.get("return")

    def close(self) -> None:
        self.sock.close()


class Emulator:
    """Espressif's QEMU running the flash image, UART0 on a pty.

    UART0 is a unix socket of QEMU's, and socat links a pty to it: QEMU's own `-serial pty`
    takes a read of the pty that finds nothing (EAGAIN) for the other side hanging up and
    drops what the chip sends for up to a second, which stalled `chessclock deploy` and
    mpremote part way on this machine; a socket applies back-pressure and drops nothing."""

    def __init__(self, qemu: str, flash: Path, work: Path) -> None:
        self.work = work
        self.trace = work / "qemu.log"
        qmp = str(work / "qmp.sock")
        uart = work / "uart0.sock"
        self.pty = str(work / "tty")
        cmd = [qemu, "-machine", "esp32", "-display", "none",
               "-drive", "file=%s,if=mtd,format=raw" % flash,
               "-global", "driver=timer.esp32.timg,property=wdt_disable,value=true",
               "-icount", "shift=3",
               "-chardev", "socket,id=uart0,path=%s,server=on,wait=off" % uart,
               "-serial", "chardev:uart0",
               "-qmp", "unix:%s,server=on,wait=off" % qmp, "-D", str(self.trace)]
        self.out = open(work / "qemu.out", "w+")
        self.socat: subprocess.Popen[bytes] | None = None
        self.proc = subprocess.Popen(cmd, stdout=self.out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while not uart.exists():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.out.seek(0)
                raise BenchError("QEMU did not start: %s" % self.out.read().strip()[-300:])
            time.sleep(0.05)
        self.socat = subprocess.Popen(["socat", "PTY,link=%s,raw,echo=0" % self.pty,
                                       "UNIX-CONNECT:%s" % uart], stderr=subprocess.DEVNULL)
        while not os.path.exists(self.pty):
            if self.socat.poll() is not None or time.monotonic() > deadline:
                raise BenchError("socat did not make %s" % self.pty)
            time.sleep(0.05)
        # one descriptor of the pty held open (never read) for the whole run: a tool closing
        # the port between two steps leaves the link up
        self.hold = os.open(self.pty, os.O_RDWR | os.O_NOCTTY)
        self.qmp = Qmp(qmp)

    def trace_programs(self, on: bool) -> None:
        self.qmp.execute("trace-event-set-state", name=PROGRAM_EVENT, enable=on)

    def dram(self) -> bytes:
        path = self.work / "dram.bin"
        self.qmp.execute("pmemsave", val=DRAM[0], size=DRAM[1], filename=str(path))
        return path.read_bytes()

    def close(self) -> None:
        try:
            self.qmp.close()
        except (AttributeError, OSError):
            pass
        try:
            os.close(self.hold)
        except (AttributeError, OSError):
            pass
        if self.socat is not None and self.socat.poll() is None:
            self.socat.terminate()
            self.socat.wait(10)
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.out.close()


def merged_flash(image: Path, out: Path) -> None:
    """The release image at 0x1000 of a 4 MB flash (esptool from PyPI)."""
    r = subprocess.run([sys.executable, "-m", "esptool", "--chip", "esp32", "merge-bin",
                        "--fill-flash-size", "4MB", "-o", str(out), "0x1000", str(image)],
                       capture_output=True, text=True)
    if r.returncode != 0 or out.stat().st_size != 4 << 20:
        raise BenchError("esptool merge-bin failed: %s" % (r.stderr or r.stdout).strip()[-300:])


def run_tool(args: list[str], what: str, timeout: float = WALL) -> str:
    r = subprocess.run(args, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    if r.returncode != 0:
        raise BenchError("%s failed (exit %d): %s" % (what, r.returncode,
                                                     (r.stderr or r.stdout).strip()[-400:]))
    return r.stdout


def put_boot_py(pty: str, text: str) -> None:
    """/boot.py written through mpremote's transport, as `chessclock deploy` writes (the
    mpremote command's own timeouts are too short for the emulated flash)."""
    from chessclock.board import deploy
    t = deploy.connect(pty, reset=False)
    try:
        t.fs_writefile("boot.py", text.encode())
    finally:
        t.exit_raw_repl()
        t.close()


def wait_repl(pty: str, timeout_s: float) -> None:
    """Until the REPL answers: a fresh flash's first boot makes its file system first."""
    import serial
    deadline = time.monotonic() + timeout_s
    seen = b""
    with serial.Serial(pty, 115200, timeout=0.5) as s:
        while time.monotonic() < deadline:
            s.write(b"\r\x03")
            seen = (seen + s.read(4096))[-200:]
            if seen.endswith(b">>> "):
                return
            time.sleep(1)
    raise BenchError("no MicroPython REPL on %s after %d s: %r" % (pty, timeout_s, seen[-80:]))


def soft_reset_into_main(pty: str) -> None:
    """Leave the raw REPL mpremote used and soft-reset at the friendly REPL: boot.py, then
    main.py (the esp32 port runs main.py only from the friendly REPL)."""
    import serial
    with serial.Serial(pty, 115200, timeout=0.2) as s:
        s.write(b"\r\x03\x03\x02")     # stop anything, leave the raw REPL
        time.sleep(0.5)
        s.write(b"\x04")                # soft reset: boot.py, main.py
        time.sleep(0.5)


# ---- the run ----------------------------------------------------------------------------

def wait_link(pty: str, timeout_s: float) -> tuple[Link, dict[str, str]]:
    """`hello` until the clock's link answers (the app's imports are slow emulated): the
    open Link and the reply. One Link throughout: a late reply to an earlier `hello` then
    carries an old request id, never the id of a request after it."""
    from chessclock.link.transport import ClockError
    host = Link(pty, timeout=5.0)
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            hello = host.request("hello")
            break
        except ClockError as e:
            if time.monotonic() > deadline:
                host.close()
                raise BenchError("the clock's link did not answer on %s: %s" % (pty, e)) \
                    from None
            time.sleep(2)
    host.timeout = 120.0
    return host, hello


def press(host: Link, lever: str, hold_ms: int) -> None:
    """`sim press` once the previous press's lever is up (a state refusal until then)."""
    from chessclock.link.transport import ClockError
    deadline = time.monotonic() + 60
    while True:
        try:
            host.request("sim", "press", lever, str(hold_ms))
            return
        except ClockError as e:
            if "held" not in str(e) or time.monotonic() > deadline:
                raise BenchError("sim press %s refused: %s" % (lever, e)) from None
            time.sleep(0.05)


def game(emu: Emulator, host: Link, n_presses: int, n_status: int
         ) -> tuple[int, list[float], int]:
    """(flash bytes of the game, status round trips in us, log records pulled)."""
    with host:
        st = host.request("status")
        log("at boot: %s, spec %s" % (st["state"], st["spec"]))
        fields = host.request("set", "3m+2s", change=True)
        log("set 3m+2s: %s" % fields)
        before = programmed_bytes(emu.trace.read_text(errors="replace"))
        emu.trace_programs(True)
        host.request("start", change=True)
        lever = "left"                       # White's clock runs first: White presses
        for k in range(n_presses):
            press(host, lever, 30)
            lever = "right" if lever == "left" else "left"
            if (k + 1) % 10 == 0:
                st = host.request("status")
                log("%d presses: %s moves %s/%s, w %s ms, b %s ms" % (
                    k + 1, st["state"], st["wmoves"], st["bmoves"], st["w"], st["b"]))
        time.sleep(0.5)
        st = host.request("status")
        emu.trace_programs(False)
        flash = programmed_bytes(emu.trace.read_text(errors="replace")) - before
        moves = (int(st["wmoves"]), int(st["bmoves"]))
        if moves != (n_presses // 2, n_presses - n_presses // 2):
            raise BenchError("presses not taken: moves %r after %d presses (%r)"
                             % (moves, n_presses, st))
        nxt, records = 0, 0
        while True:
            f = host.request("log", str(nxt), "4096")
            records += int(f.get("n", 0) or 0)
            if f["more"] == "0":
                break
            nxt = int(f["next"])
        rtts = []
        for _ in range(n_status):
            t0 = time.perf_counter()
            host.request("status")
            rtts.append((time.perf_counter() - t0) * 1e6)
    return flash, rtts, records


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--presses", type=int, default=120, help="presses of the game (120)")
    ap.add_argument("--status", type=int, default=50, help="round trips of the status loop")
    args = ap.parse_args(argv)
    if args.presses < 2 or args.presses % 2 or args.status < 1:
        print("esp32_bench: --presses is an even number >= 2, --status >= 1", file=sys.stderr)
        return 2
    qemu = find_qemu()
    if qemu is None:
        print("# esp32: skipped: %s" % HOW_TO_GET, flush=True)
        return 0
    if not shutil.which("socat"):
        print("# esp32: skipped: socat is missing (`make socat` installs it)", flush=True)
        return 0
    gone = images.missing(images.ESP32_BIN)
    if gone:
        print("# esp32: skipped: %s" % gone, flush=True)
        return 0
    try:
        image = images.official(images.ESP32_BIN)
    except images.ImageError as e:
        print("esp32_bench: %s" % e, file=sys.stderr)
        return 1
    try:
        return run(qemu, image, args.presses, args.status)
    except (BenchError, subprocess.TimeoutExpired) as e:
        print("esp32_bench: %s" % e, file=sys.stderr)
        return 1


def run(qemu: str, image: Path, n_presses: int, n_status: int) -> int:
    log("qemu: %s" % qemu)
    log("image: %s, %s" % (image.name, IMAGE_VERSION))
    build_dir = ROOT / "build" / "esp32-bench" / BOARD
    out = run_tool([str(BIN / "chessclock"), "build", "--board", BOARD, "--out",
                    str(build_dir)], "chessclock build")
    log(out.strip().splitlines()[-1])
    token = secrets.token_hex(5).encode()
    with tempfile.TemporaryDirectory(prefix="esp32-bench-") as tmp:
        work = Path(tmp)
        merged_flash(image, work / "flash.bin")
        emu = Emulator(qemu, work / "flash.bin", work)
        try:
            log("UART0 on %s" % emu.pty)
            t0 = time.monotonic()
            wait_repl(emu.pty, 300)
            log("REPL after %.0f s wall" % (time.monotonic() - t0))
            t0 = time.monotonic()
            out = run_tool([str(BIN / "chessclock"), "deploy", "--board", BOARD, "--port",
                            emu.pty, "--build", str(build_dir)], "chessclock deploy")
            log("deploy: %s (%.0f s wall)" % ("; ".join(out.strip().splitlines()[-2:]),
                                               time.monotonic() - t0))
            put_boot_py(emu.pty, boot_py(token))
            soft_reset_into_main(emu.pty)
            t0 = time.monotonic()
            host, hello = wait_link(emu.pty, 900)
            log("link up after %.0f s wall: board %s, firmware %s" % (
                time.monotonic() - t0, hello.get("board"), hello.get("fw")))
            if hello.get("board") != BOARD:
                raise BenchError("the clock says board %r, not %r" % (hello.get("board"), BOARD))
            flash, rtts, records = game(emu, host, n_presses, n_status)
            log("log pulled: %d records" % records)
            mark = heap_mark(emu.dram(), token)
        finally:
            emu.close()
    if mark is None:
        raise BenchError("no heap mark in the emulated DRAM (did /boot.py run?)")
    log("heap: least free at sample %d of %d" % (mark["at"], mark["samples"]))
    log("status round trips: mean %.0f, median %.0f, worst %.0f us wall" % (
        statistics.mean(rtts), statistics.median(rtts), max(rtts)))
    for line in metric_lines(BOARD, mark["least"], mark["block"], flash,
                             round(statistics.mean(rtts))):
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
