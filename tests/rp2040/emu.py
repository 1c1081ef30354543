"""The emulated clock from Python: node clock.mjs as a subprocess, its USB serial on a pty.

    with EmuClock("pico-tm1637") as clk:     # the official image, build/pico-tm1637/board.json
        clk.boot()                            # power on (fresh flash: MicroPython formats it)
        tty = clk.serial()                    # socat pty <-> the emulated USB CDC
        ...
        clk.press("left", at=clk.now() + 500_000)
        clk.run_until(us)

Used by tests/rp2040/test_*.py and bench/rp2040_bench.py. Needs node (and `npm ci` done in
tests/rp2040, see ensure_npm()) and socat for the serial side.
"""

import contextlib
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import images

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
BIN = Path(os.environ.get("VIRTUAL_ENV", ROOT / ".venv")) / "bin"
BOARDS = ("pico-tm1637", "pico-ssd1306")


class EmuError(Exception):
    pass


def ensure_npm():
    """rp2040js into tests/rp2040/node_modules (npm ci, from package-lock.json), once."""
    if (HERE / "node_modules" / "rp2040js" / "package.json").is_file():
        return
    subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=HERE,
                   check=True)


def ensure_socat():
    if shutil.which("socat"):
        return
    raise EmuError("socat is missing: `apt-get install socat` (make test-board installs it)")


def build(board, out=None):
    """`chessclock build` (what make firmware runs) into build/rp2040/BOARD; the folder."""
    out = Path(out or ROOT / "build" / "rp2040" / board)
    r = subprocess.run([str(BIN / "chessclock"), "build", "--board", board, "--out", str(out)],
                       capture_output=True, text=True)
    if r.returncode:
        raise EmuError("chessclock build failed: %s" % r.stderr)
    return out


class EmuClock:
    def __init__(self, board, build_dir=None, workdir=None, no_flash_timing=False,
                 mark_pin=None, hold_menu=False):
        uf2, bootrom = images.pico()    # the official release files, sums checked
        ensure_npm()
        self.board = board
        self.build_dir = Path(build_dir or ROOT / "build" / "rp2040" / board)
        if not (self.build_dir / "board.json").is_file():
            build(board, self.build_dir)
        self.tmp = Path(workdir or tempfile.mkdtemp(prefix="emu-%s-" % board))
        self.tmp.mkdir(parents=True, exist_ok=True)
        self.cdc = self.tmp / "cdc.sock"
        self.tty = self.tmp / "tty"
        cfg = {"uf2": str(uf2), "bootrom": str(bootrom),
               "board": str(self.build_dir / "board.json"), "cdc": str(self.cdc)}
        if no_flash_timing:
            cfg["noFlashTiming"] = True
        if mark_pin is not None:   # an int, or a list of pins (a diagnosis)
            cfg["markPins"] = mark_pin if isinstance(mark_pin, list) else [mark_pin]
        if hold_menu:   # MENU held at every power-on: maintenance mode, the REPL stays free
            cfg["holdMenu"] = True
        self.proc = subprocess.Popen(["node", str(HERE / "clock.mjs"), json.dumps(cfg)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.socat = None
        self._id = 0
        self._held = 0          # depth of held() blocks

    # ---- the control channel -------------------------------------------------------
    def op(self, op, **args):
        self._id += 1
        args.update(id=self._id, op=op)
        self.proc.stdin.write(json.dumps(args) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise EmuError("the emulator exited (op %s)" % op)
        r = json.loads(line)
        if r.get("id") != self._id:
            raise EmuError("op %s #%d: a reply out of step: %s" % (op, self._id, line[:200]))
        if "error" in r:
            raise EmuError("%s: %s" % (op, r["error"]))
        return r

    @contextlib.contextmanager
    def held(self):
        """The emulated clock stands still inside (clock.mjs hold/go) while the caller plans
        presses, taps and bytes at instants ahead: planning takes host time, and on a loaded
        machine the emulator ran past a planned press. Planning ops only: nothing that runs
        the emulator (run_until, serial, chessclock). Nests."""
        self._held += 1
        if self._held == 1:
            self.op("hold")
        try:
            yield
        finally:
            self._held -= 1
            if self._held == 0:
                self.op("go")

    def boot(self, flash=None):
        """Power on: from the UF2 (a new board) or a saved flash image (power back)."""
        return self.op("boot", flash=str(flash) if flash else None)["us"]

    def now(self):
        return self.op("now")["us"]

    def run_until(self, us):
        return self.op("run_until", us=us)["us"]

    def run_for(self, us):
        return self.op("run_for", us=us)["us"]

    def press(self, sw, at=None, hold=80_000, bounce=(), measure=False, tag=None,
              on_flash=None):
        """A press at emulated instant `at`, or, with on_flash={"kind": "program"|"erase",
        "delayUs": d, "untilUs": u}, d after the start of the first flash operation of that
        kind from `at` on (at u if none comes): aimed at the firmware's own writes."""
        return self.op("press", sw=sw, at=at, hold=hold, bounce=list(bounce), measure=measure,
                       tag=tag, onFlash=on_flash)["at"]

    def state(self):
        return self.op("state")

    def frames(self, since=0):
        r = self.op("frames", since=since)
        return r["frames"], r["next"]

    def cut(self, file, after_ops=None, frac=0.5, timeout_us=None):
        return self.op("cut", file=str(file), afterOps=after_ops, frac=frac,
                       timeoutUs=timeout_us)

    def tap(self, file, at_us, after_ops=None, frac=0.5, until_us=None):
        """Plan the image a power cut would leave, saved to `file`: at emulated instant at_us
        (ahead of the emulator), or inside the after_ops-th flash operation from it (cut at
        `frac` of its bytes; at until_us if none comes by then). The clock runs on."""
        self.op("tap", file=str(file), atUs=at_us, afterOps=after_ops, frac=frac,
                untilUs=until_us)

    def taps(self):
        """[{file, us, where, flashOps}]: the images `tap` saved since the last call."""
        return self.op("taps")["taps"]

    def send_at(self, us, data):
        """Bytes from the host that reach the USB CDC at emulated instant `us`."""
        self.op("send_at", us=us, data=data.decode("latin1"))

    def marks(self, since=0):
        r = self.op("marks", since=since)
        return r["marks"], r["next"]

    def latency(self):
        """Lever-to-display results of the presses made with measure=True since the last call."""
        return self.op("latency")["results"]

    def heap_mark(self):
        return self.op("heap_mark")

    def bus_log(self, since=0):
        """[[us, addr, nbytes]] every I2C transaction since index `since`, and the next index."""
        r = self.op("bus_log", since=since)
        return r["log"], r["next"]

    def flash_log(self, since=0):
        r = self.op("flash_log", since=since)
        return r["log"], r["next"], r["bytes"]

    def run_until_quiet(self, log, quiet_us, step_us, limit_us):
        """Run in steps of step_us until `log` ("bus_log" or "flash_log": entries start with
        their instant) has had nothing new for quiet_us of emulated time."""
        read = getattr(self, log)
        nxt = read(1 << 30)[1]
        last = start = self.now()
        while self.now() - last < quiet_us:
            assert self.now() - start < limit_us, "the %s never went quiet" % log
            self.run_for(step_us)
            got = read(nxt)
            nxt = got[1]
            if got[0]:
                last = got[0][-1][0]

    # ---- the serial port -------------------------------------------------------------
    def serial(self):
        """A pty linked to the emulated USB CDC (socat), for mpremote and chessclock."""
        if self.socat is None:
            ensure_socat()
            deadline = time.time() + 30
            while not self.cdc.exists():
                if time.time() > deadline:
                    raise EmuError("no CDC socket")
                time.sleep(0.05)
            self.socat = subprocess.Popen(
                ["socat", "PTY,link=%s,raw,echo=0" % self.tty, "UNIX-CONNECT:%s" % self.cdc],
                stderr=subprocess.DEVNULL)
            while not self.tty.exists():
                if time.time() > deadline or self.socat.poll() is not None:
                    raise EmuError("socat did not make %s" % self.tty)
                time.sleep(0.05)
        return str(self.tty)

    def chessclock(self, *args, timeout=300, check=True):
        """Run the host's chessclock command against this clock's pty."""
        r = subprocess.run([str(BIN / "chessclock")] + [str(a) for a in args],
                           capture_output=True, text=True, timeout=timeout, cwd=ROOT)
        if check and r.returncode:
            raise EmuError("chessclock %s -> %d\n%s%s" % (" ".join(map(str, args)),
                                                      r.returncode, r.stdout, r.stderr))
        return r

    def close(self):
        if self.socat is not None:
            self.socat.terminate()
            self.socat.wait(timeout=10)
            self.socat = None
        if self.proc.poll() is None:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for pipe in (self.proc.stdin, self.proc.stdout):   # both, also after a crash
            try:
                pipe.close()
            except OSError:
                pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
