"""The firmware's figures on an emulated Pico (run by `make bench`; alone:
`.venv/bin/python bench/rp2040_bench.py [--presses N] [--seeds 9,10] [--builds pico-tm1637,...]`).

MicroPython's official RPI_PICO v1.28.0 release image in rp2040js (tests/rp2040/: the image is
read from outside the repository and its sha256 checked, tests/rp2040/images.py), the builds
of `make firmware` put on its littlefs as `make deploy` does (chessclock deploy over a pty):
the route a user takes. All times are *emulated* microseconds: rp2040js advances its clock
with the cycles it executes (about one instruction a cycle at 125 MHz, no flash wait states,
no XIP cache misses) and jumps over WFI sleeps, so they are what the firmware costs on an
RP2040 that runs at that rate, not a wall clock. Flash erases cost 45 ms a 4 KB sector and
programs 0.7 ms a 256-byte page (clock.mjs), the CPU stalled meanwhile as on a Pico.

Printed (one line per build):
  METRIC rp2040_heap_free_min_<build>_files B   least gc.mem_free() after a collection
      (bench/rp2040_heapmark.py as /boot.py, every 100 ms, between any two bytecodes) over a
      3+2 game of 120 presses with the host attached: `set 3m+2s` typed, `status` every
      emulated second, the whole log pulled at the end
  METRIC rp2040_flash_bytes_per_game_<build> B   bytes programmed into flash from START to
      the end of that game (saves, log records, littlefs metadata)
  METRIC rp2040_lever_to_display_worst_us_<build> us   lever edge to the switch being
      visible: both running LEDs switched and, on the SSD1306s, both running bars drawn
      (framebuffer pixels of the display models), worst over every press of every seed
  METRIC rp2040_lever_to_time_worst_us_<build> us   lever edge to the pressing side's new
      time, its increment included, on its display (decoded segments or framebuffer)
  METRIC rp2040_presses_failed_<build> presses   presses of the running side that the
      clock did not take within 2 s, or took and never showed: counted in the two figures
      above as 2 s each, never dropped
  METRIC rp2040_status_round_trip_us us   median, a `status` request's newline into the USB
      CDC to the reply's newline out, during a game (pico-tm1637, no /boot.py)

The latency presses are aimed, from the firmware's own flash and bus activity, at the worst
instants a game has (see AIMS); the clock's own collections only (no /boot.py).
"""

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "rp2040"))
import images  # noqa: E402
from emu import BIN, EmuClock, build  # noqa: E402

from chessclock.link.transport import Link  # noqa: E402
from clockcore import protocol as P  # noqa: E402

WORK = ROOT / "build" / "rp2040-bench"
MARK_PIN = 25          # rp2040_heapmark.py raises it around each collection
SAVE_EVERY_US = 10_000_000  # clockapp/app.py SAVE_EVERY_MS
BATTERY_EVERY_US = 10_000_000  # clockapp/app.py _BATTERY_EVERY_MS
GAUGE_ADDR = 0x36      # the MAX17048 fuel gauge on the displays' bus (pico-ssd1306)
FAIL_US = 2_000_000    # a press not taken, or never shown, within this: counted as this
HOLD_US = 30_000       # a latency press: a quick tap (shorter than a sector erase)
REUSE = False


def log(*a):
    print("#", *a, flush=True)


def mpremote(tty, *args):
    subprocess.run([str(BIN / "mpremote"), "connect", tty] + list(args), check=True,
                   capture_output=True, timeout=600)


def flash_image(board, mark="heap"):
    """The flash after `make deploy` of `board` on the official image, with
    bench/rp2040_heapmark.py as /boot.py when mark="heap" (it collects and reads the free
    heap every 100 ms: the heap game), or no /boot.py (mark=None: the clock's own
    collections only). Returns the image's path."""
    out = build(board, WORK / "build" / board)   # not tests/rp2040's build: both may run
    work = WORK / ("%s-%s" % (board, mark or "nomark"))
    stamp = (out / "MANIFEST.sha256").read_text() + (
        (ROOT / "bench" / "rp2040_heapmark.py").read_text() + mark if mark else "no boot.py")
    if REUSE and (work / "flash.bin").is_file() and (work / "stamp").is_file() \
            and (work / "stamp").read_text() == stamp:
        return work / "flash.bin"   # --reuse: the same build deployed before
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    with EmuClock(board, build_dir=out, workdir=work) as clk:
        clk.boot()
        tty = clk.serial()
        clk.chessclock("deploy", "--board", board, "--port", tty, "--build", out,
                       timeout=3600)
        if mark:
            mpremote(tty, "fs", "cp", str(ROOT / "bench" / "rp2040_heapmark.py"), ":boot.py")
        image = work / "flash.bin"
        clk.cut(image)
    (work / "stamp").write_text(stamp)
    return image


def wait_app(clk, timeout_us=10_000_000):
    end = clk.now() + timeout_us
    while clk.now() < end:
        clk.run_for(200_000)
        if any(f[2]["type"] == "tm1637" and f[2]["segments"] != [0, 0, 0, 0]
               or f[2]["type"] == "ssd1306" for f in clk.frames()[0]):
            clk.run_for(300_000)
            return
    raise SystemExit("rp2040_bench: the clock did not start")


def heap_game(board, image, rnd, n_presses=120, marked=True):
    """The 3+2 game with the host attached; (least free heap, flash bytes of the game,
    heap samples, status round trips). marked=False: a flash with no /boot.py (no heap
    figure: the round trips of a clock as it is deployed)."""
    with EmuClock(board, build_dir=WORK / "build" / board,
                  workdir=image.parent / "heap", mark_pin=MARK_PIN) as clk:
        clk.boot(image)
        wait_app(clk)
        # timeouts in wall seconds: the emulator may run at a few percent of real time
        with Link(clk.serial(), timeout=600.0) as host:
            host.request("hello")           # the first byte loads the link (~23 KB of code)
            fields = host.request("set", "3m+2s", change=True)
            assert "error" not in fields, fields
            t = clk.now() + 200_000
            clk.press("start", at=t, hold=100_000)
            clk.run_until(t + 200_000)
            _, _, before = clk.flash_log()
            lever = "right"            # Black's lever starts White's clock? no: START did
            t += 300_000
            presses = []
            lever = "left"             # White runs first
            for _ in range(n_presses):
                t += rnd.randint(300, 900) * 1000
                presses.append((t, lever))
                lever = "right" if lever == "left" else "left"
            polled = clk.now()
            shift = 0      # the emulator runs on while a status is answered: on a loaded
            for k, (at, lv) in enumerate(presses):   # machine it passed a planned press
                with clk.held():
                    now = clk.now()
                    if at + shift < now + 5000:      # moved 5 ms ahead, the gaps kept
                        shift = now + 5000 - at
                    at += shift
                    presses[k] = (at, lv)
                    clk.press(lv, at=at, hold=60_000, bounce=(250, 700))
                while polled + 1_000_000 <= at:
                    polled += 1_000_000
                    clk.run_until(polled)
                    host.request("status")
            clk.run_until(presses[-1][0] + 500_000)
            st = host.request("status")
            rtts = round_trips(clk.op("host_log")["log"])
            _, _, after = clk.flash_log()
            moves = (int(st["wmoves"]), int(st["bmoves"]))
            assert moves == (n_presses // 2, n_presses // 2), "presses not taken: %r" % (st,)
            nxt, records = 0, 0
            while True:
                f = host.request("log", str(nxt), "4096")
                records += int(f.get("n", 0) or 0)
                if f["more"] == "0":
                    break
                nxt = int(f["next"])
        mark = clk.heap_mark()
    if not marked:
        return None, after["bytes"] - before["bytes"], 0, rtts
    if mark["min"] is None:
        raise SystemExit("rp2040_bench: no heap mark (is /boot.py rp2040_heapmark.py?)")
    # which sample it was (one every 100 ms from boot): the game's start, its moves, the pull
    log("%s: the least free heap at sample %s of %d" % (board, mark.get("at"), mark["passes"]))
    return mark["min"], after["bytes"] - before["bytes"], mark["passes"], rtts


def running_lever(clk, pressed=None):
    """The lever of the side whose clock runs, as the board shows it (LEDs). With
    `pressed`, the instant of a press just made that the LEDs may not show yet: the other
    lever than that press's."""
    if pressed is not None:
        sw = clk.op("events")["switches"]
        at = {k: max((us for us, closed in sw[k] if closed and us <= pressed), default=-1)
              for k in ("left", "right")}
        if max(at.values()) >= 0:
            return "right" if at["left"] > at["right"] else "left"
    st = clk.state()
    return "left" if st["leds"]["left"] else "right"


# The instants a press is aimed at, in turn (each a press of the running side, a 30 ms tap;
# never before the previous press's lever is up again: both levers down is no press):
#   program  the start of the first page program from then on (the previous press's record
#            or state going to flash)
#   second   the running side's next redraw of a second (its digits change)
#   collect  31-40 ms after the previous press, as soon as its lever is up again, when the
#            clock's own collection after that press (~21 ms long on the official image)
#            may still run
#   status   a `status` request arriving just before the press
#   pull     a log pull's request (1 KB of records) arriving just before the press
#   set      a `set` request (refused in a game: parsed and answered) just before
#   plain    anywhere, 120-300 ms after the previous press
# and every 50th press the 10 s save of a running clock or, on a build with a fuel gauge
# (every other time), the 10 s battery read on the displays' I2C bus ("gauge").
# After them, BOOT_CUTS times ("boot"): the power cut inside the flash write of a press, the
# clock powered again (it comes back paused, its journal torn: it folds and erases it),
# START pressed at the start of one of those erases (again if that tap went unseen), then
# BOOT_PRESSES presses, the first 5-10 ms after START's release, the next ones as soon as
# the lever before is up again.
AIMS = ("program", "second", "collect", "status", "pull", "set", "plain")
BOOT_CUTS = 2
BOOT_PRESSES = 4


def latency_run(board, image, n, rnd, aims=AIMS):
    """n presses aimed at the instants of AIMS; every press's result (tag "aim:lever")."""
    with EmuClock(board, build_dir=WORK / "build" / board,
                  workdir=image.parent / "lat") as clk:
        clk.boot(image)
        wait_app(clk)
        t = clk.now() + 100_000
        clk.press("start", at=t, hold=100_000)
        clk.run_until(t + 400_000)
        t = clk.now()        # the previous press's instant
        rid = 0
        late = 0             # aims the emulator had passed (moved ahead)
        frames_next = 0
        planned = None       # a collect press planned with the press before it
        board_json = json.loads((WORK / "build" / board / "board.json").read_text())
        gauge = bool(board_json.get("fuel_gauge"))
        gauge_at = None      # the last fuel gauge read seen on the bus
        bus_next = 0
        for k in range(n):
            aim = aims[k % len(aims)]
            if k % 50 == 49:     # the 10 s save and (a fuel gauge) the 10 s battery read
                aim = "gauge" if gauge and (k // 50) % 2 else "periodic"
            if aim == "program":
                # from the previous lever's release on: the next page program
                clk.run_until(t + 1000)
                with clk.held():
                    lever = running_lever(clk, t)
                    clk.press(lever, at=max(t + HOLD_US + 2000, clk.now() + 100),
                              hold=HOLD_US, measure=True,
                              tag="%s:%s" % (aim, lever),
                              on_flash={"kind": "program", "delayUs": 0,
                                        "untilUs": t + 300_000})
                    edges = len(clk.op("events")["switches"][lever])
                while len(clk.op("events")["switches"][lever]) == edges:
                    clk.run_for(5_000)
                t = clk.op("events")["switches"][lever][edges][0]
            elif aim == "collect" and planned is not None:
                t = planned      # planned with the press before it (below), in one hold
                planned = None
                clk.run_until(t + 1000)
            elif aim == "collect":
                clk.run_until(t + 1000)
                with clk.held():
                    lever = running_lever(clk, t)
                    t += HOLD_US + 1000 + rnd.randint(0, 9000)
                    now = clk.now()
                    if t < now + 500:    # the emulator ran past it meanwhile
                        t = now + 500
                        late += 1
                    clk.press(lever, at=t, hold=HOLD_US, measure=True,
                              tag="%s:%s" % (aim, lever))
                clk.run_until(t + 1000)
            else:
                gap = (SAVE_EVERY_US + rnd.randint(0, 60) * 1000 if aim == "periodic"
                       else rnd.randint(120, 300) * 1000)
                if aim == "gauge":
                    gap = rnd.randint(120, 300) * 1000
                t += gap
                clk.run_until(t - 60_000)   # the previous press shown: whose turn?
                with clk.held():
                    lever = running_lever(clk)
                    now = clk.now()
                    if aim == "second":
                        # the running display redraws each second in phase with its last
                        # frames: aimed at 0-8 ms before the next one ends
                        frames, frames_next = clk.frames(frames_next)
                        disp = 0 if lever == "left" else 1
                        last = [us for us, i, _ in frames if i == disp]
                        if last:
                            k_ = -(-(max(t, now + 20_000) - last[-1]) // 1_000_000)
                            t = last[-1] + k_ * 1_000_000 - rnd.randint(0, 8000)
                    if aim == "gauge":
                        # the fuel gauge read on the displays' I2C bus every 10 s, in phase
                        # with the last one: aimed at 0-3 ms before the next one
                        log_, bus_next = clk.bus_log(bus_next)
                        reads = [us for us, addr, _ in log_ if addr == GAUGE_ADDR]
                        gauge_at = reads[-1] if reads else gauge_at
                        if gauge_at is not None:
                            t = gauge_at + BATTERY_EVERY_US - rnd.randint(0, 3000)
                            while t < now + 20_000:
                                t += BATTERY_EVERY_US
                    if t < now + 5000:
                        t = now + 5000
                        late += 1
                    req = {"status": ("status", []), "pull": ("log", ["0", "1024"]),
                           "set": ("set", ["3m+2s"])}.get(aim)
                    if req:
                        rid += 1
                        clk.send_at(max(now + 1000, t - rnd.randint(0, 4000)),
                                    P.encode_request(rid, req[0], req[1]))
                    clk.press(lever, at=t, hold=HOLD_US, measure=True,
                              tag="%s:%s" % (aim, lever))
                    if k + 1 < n and (k + 1) % 50 != 49 and aims[(k + 1) % len(aims)] == \
                            "collect":
                        # the next press, aimed at this one's collection: the other lever,
                        # as soon as this one is up again (planned now: never late)
                        other = "right" if lever == "left" else "left"
                        planned = t + HOLD_US + 1000 + rnd.randint(0, 9000)
                        clk.press(other, at=planned, hold=HOLD_US, measure=True,
                                  tag="collect:%s" % other)
                clk.run_until(t + 1000)
            if k % 100 == 99:
                log("%s: %d presses, %d aims moved (late)" % (board, k + 1, late))
        clk.run_until(t + 2_500_000)
        bars = json.loads((WORK / "build" / board / "board.json").read_text())["displays"][
            0]["type"] == "ssd1306"
        res = judge(clk.latency(), clk.op("events")["leds"], bars)
        flog, _, _ = clk.flash_log()
        for k in range(BOOT_CUTS):
            res += boot_erases(clk, image.parent / "lat" / ("cut%d.bin" % k), rnd, bars)
        events = log_events(clk, image.parent / "lat" / "log")
    return res, flog, events


def boot_erases(clk, cut, rnd, bars):
    """The "boot" aim: a power cut inside the flash write of a press; the power back, and
    START pressed as one of the boot's erases begins; then BOOT_PRESSES presses. Their
    results, judged (the LEDs of this power-on)."""
    with clk.held():
        lever = running_lever(clk)
        t = clk.now() + 5000
        clk.press(lever, at=t, hold=HOLD_US)
    clk.cut(cut, after_ops=1, frac=rnd.random(), timeout_us=2_000_000)
    clk.boot(cut)
    wait_app(clk)
    with clk.held():
        now = clk.now()
        clk.press("start", at=now + 1000, hold=100_000,
                  on_flash={"kind": "erase", "delayUs": 0, "untilUs": now + 3_000_000})
    seen = 0
    for _ in range(4):
        while True:   # START's release: the clock runs by then
            ups = [us for us, closed in clk.op("events")["switches"]["start"] if not closed]
            if len(ups) > seen:
                break
            clk.run_for(20_000)
        seen = len(ups)
        t = ups[-1]
        clk.run_until(t + 5_000)
        leds = clk.state()["leds"]
        if leds["left"] or leds["right"]:
            break
        # Not seen (the flash waits while a button changes, so it should be): pressed
        # again, as a player would, and said in the bench's output
        log("boot: START at %d us not seen, pressed again" % t)
        with clk.held():
            clk.press("start", at=clk.now() + 1000, hold=100_000)
    for k in range(BOOT_PRESSES):
        clk.run_until(max(clk.now(), t + 1000))
        with clk.held():
            lever = running_lever(clk, t if k else None)
            t += (HOLD_US if k else 0) + 1000 + rnd.randint(0, 9000)
            t = max(t, clk.now() + 500)
            clk.press(lever, at=t, hold=HOLD_US, measure=True, tag="boot:%s" % lever)
    clk.run_until(t + 2_500_000)
    return judge(clk.latency(), clk.op("events")["leds"], bars)


def log_events(clk, folder):
    """The clock's own account of the run: its log pulled over the USB serial (`chessclock
    log-pull`, as an arbiter does) and counted by record type (press, ignored, lever_both,
    missed_edge, restarted, ...)."""
    tty = clk.serial()
    # a fresh archive each run: another seed's run is the same clock (id) with another log
    shutil.rmtree(folder, ignore_errors=True)
    r = clk.chessclock("log-pull", "--port", tty, "--archive", folder, "--game", "bench",
                       "--json", "--timeout", "600", timeout=3600)
    pulled = json.loads(r.stdout)[0]["result"]
    r = clk.chessclock("log", "export", pulled["file"], "--format", "jsonl")
    counts = {}
    for e in map(json.loads, r.stdout.splitlines()):
        counts[e["type"]] = counts.get(e["type"], 0) + 1
    return counts


def judge(res, leds, bars):
    """Each press by the running LEDs: `wrong` (the waiting side's lever: the bench's guess
    was off, the clock rightly ignored it), `lost` (the running side's lever, and the other
    side's LED did not light before the next press or within FAIL_US), else `taken`. For a
    taken press: `leds` the instant the other side's LED lit, `display` the switch on both
    displays (that and, with `bars` (SSD1306s), both running bars), `time` the pressing side's
    new time on its display. A figure never seen is FAIL_US and the press `failed`
    (counted in the figures, never dropped)."""
    def running(us):
        on = None
        for t, name, v in leds:
            if t > us:
                break
            if v:
                on = name
        return on

    order = sorted(r["us"] for r in res)
    for r in res:
        aim, lever = r["tag"].split(":")
        r["aim"] = aim
        k = order.index(r["us"])
        nxt = order[k + 1] if k + 1 < len(order) else r["us"] + FAIL_US
        other = "right" if lever == "left" else "left"
        lit = [t for t, name, v in leds
               if r["us"] <= t < min(nxt, r["us"] + FAIL_US) and name == other and v]
        if running(r["us"]) != lever:
            r["class"] = "wrong"
            continue
        if not lit:
            r["class"] = "lost"
            r["display"] = r["time"] = FAIL_US
            r["failed"] = True
            continue
        r["class"] = "taken"
        r["leds"] = lit[0] - r["us"]
        shown, settled = r.get("shown"), r.get("settled")
        if not bars:     # the TM1637s have no running mark: the LEDs are the switch
            shown = r["leds"]
        r["display"] = FAIL_US if shown is None else max(r["leds"], shown)
        r["time"] = FAIL_US if settled is None else settled
        r["failed"] = shown is None or settled is None
    return res


def spread(values):
    """n, p50, p99, max of a list of microseconds."""
    v = sorted(values)
    if not v:
        return 0, 0, 0, 0
    return len(v), v[len(v) // 2], v[min(len(v) - 1, int(len(v) * 0.99))], v[-1]


def round_trips(hostlog):
    """Request line in -> the next reply line out (the host waits for each reply)."""
    out, pending = [], None
    for us, way in hostlog:
        if way == "in":
            pending = us
        elif pending is not None:
            out.append(us - pending)
            pending = None
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--presses", type=int, default=175,
                    help="latency presses a seed and build (and the boot aim's)")
    ap.add_argument("--seeds", default="9,10",
                    help="comma-separated seeds of the aims' random parts, one run each")
    ap.add_argument("--builds", default="pico-tm1637,pico-ssd1306")
    ap.add_argument("--only", default="heap,latency")
    ap.add_argument("--game-presses", type=int, default=120,
                    help="presses of the heap game (120: a whole 3+2 game of 60 moves)")
    ap.add_argument("--reuse", action="store_true",
                    help="reuse a flash image deployed by an earlier run of the same build")
    args = ap.parse_args(argv)
    try:
        seeds = [int(x) for x in args.seeds.split(",")]
    except ValueError:
        ap.error("--seeds: whole numbers separated by commas, e.g. 9,10,11")
    why = images.missing(images.PICO_UF2, images.PICO_BOOTROM)
    if why:
        print("# rp2040: skipped: " + why, flush=True)
        return
    global REUSE
    REUSE = args.reuse
    only = set(args.only.split(","))
    WORK.mkdir(parents=True, exist_ok=True)
    builds = args.builds.split(",")
    if len(builds) > 1:
        # one process a build, side by side (each emulator is one node process: on 2 cores
        # the step takes the time of one build); their output in the builds' order
        argv = list(sys.argv[1:] if argv is None else argv)
        k = argv.index("--builds") if "--builds" in argv else -1
        if k >= 0:
            del argv[k:k + 2]
        procs = [subprocess.Popen([sys.executable, __file__, "--builds", board] + argv,
                                  stdout=subprocess.PIPE, text=True) for board in builds]
        failed = 0
        for proc in procs:
            out, _ = proc.communicate()
            sys.stdout.write(out)
            failed |= proc.returncode
        sys.stdout.flush()
        raise SystemExit(failed)
    results = {}
    for board in builds:
        b = board.replace("-", "_")
        if "heap" in only:
            image = flash_image(board, "heap")
            least, fbytes, samples, _ = heap_game(board, image, random.Random(9),
                                                  args.game_presses)
            log("%s: %d heap samples" % (board, samples))
            print("METRIC rp2040_heap_free_min_%s_files %d bytes" % (b, least), flush=True)
            print("METRIC rp2040_flash_bytes_per_game_%s %d bytes" % (b, fbytes), flush=True)
            results[board + "/heap"] = [least, fbytes]
            if board == "pico-tm1637":
                # the round trips of the clock as deployed for play (no /boot.py): the heap
                # game's mark reads the free heap every 100 ms and would be in them
                plain = flash_image(board, None)
                _, _, _, rtts = heap_game(board, plain, random.Random(9), 60, marked=False)
                if not rtts:
                    raise SystemExit("rp2040_bench: no status round trip was seen")
                n, p50, p99, worst = spread(rtts)
                log("status round trips: n=%d p50 %d p99 %d max %d us" % (n, p50, p99, worst))
                print("METRIC rp2040_status_round_trip_us %d us" % statistics.median(rtts),
                      flush=True)
        if "latency" in only:
            image = flash_image(board, None)
            every = []
            for seed in seeds:
                res, flog, events = latency_run(board, image, args.presses,
                                                random.Random(seed))
                log("%s seed %d: the clock's log of the run: %s" % (board, seed, ", ".join(
                    "%s %d" % kv for kv in sorted(events.items()))))
                (WORK / ("%s-latency-%d.json" % (board, seed))).write_text(json.dumps(
                    {"results": res, "flash": flog, "log": events}))
                every += res
            ours = [r for r in every if r["class"] != "wrong"]
            failed = [r for r in ours if r.get("failed")]
            log("%s: %d presses over seeds %s: %d of the running side (%d failed: not taken "
                "or never shown), %d of the waiting side (ignored, not counted)"
                % (board, len(every), args.seeds, len(ours), len(failed),
                   len(every) - len(ours)))
            for what in ("display", "time"):
                for aim in AIMS + ("periodic", "gauge", "boot"):
                    n, p50, p99, worst = spread([r[what] for r in ours if r["aim"] == aim])
                    if n:
                        log("  %-8s %-7s n=%4d  p50 %6d  p99 %6d  max %6d us"
                            % (aim, what, n, p50, p99, worst))
                n, p50, p99, worst = spread([r[what] for r in ours])
                log("  %-8s %-7s n=%4d  p50 %6d  p99 %6d  max %6d us"
                    % ("all", what, n, p50, p99, worst))
                results["%s/%s" % (board, what)] = {"n": n, "p50": p50, "p99": p99,
                                                    "max": worst}
                print("METRIC rp2040_lever_to_%s_worst_us_%s %d us" % (what, b, worst),
                      flush=True)
                print("METRIC rp2040_lever_to_%s_p99_us_%s %d us" % (what, b, p99),
                      flush=True)
                print("METRIC rp2040_lever_to_%s_p50_us_%s %d us" % (what, b, p50),
                      flush=True)
            print("METRIC rp2040_latency_presses_%s %d presses" % (b, len(ours)), flush=True)
            print("METRIC rp2040_presses_failed_%s %d presses" % (b, len(failed)), flush=True)
    (WORK / ("results-%s.json" % "-".join(builds))).write_text(json.dumps(results))


if __name__ == "__main__":
    main()
