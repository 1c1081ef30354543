"""The figures of issue 9 on the emulated Pico (run by `make bench`; alone:
`.venv/bin/python bench/rp2040_bench.py [--presses N] [--builds pico-tm1637,...]`).

MicroPython v1.28.0 RPI_PICO in rp2040js (tests/rp2040/, its models and clock server), the
builds of `make firmware`, put on the emulated flash as `make deploy` does (chessclock deploy
over a pty), with the packages in a ROMFS image on firmware-romfs.uf2 (`make deploy-romfs`),
or frozen into firmware-frozen.uf2 (`make deploy-frozen`). All times are *emulated*
microseconds: rp2040js advances its clock with the cycles it executes (about one
instruction a cycle at 125 MHz, no flash wait states, no XIP cache misses) and jumps over
WFI sleeps, so they are what the firmware costs on an RP2040 that runs at that rate, not a
wall clock. Flash erases cost 45 ms a 4 KB sector and programs
0.7 ms a 256-byte page (clock.mjs), the CPU stalled meanwhile as on a Pico.

Printed (one line per build):
  METRIC rp2040_heap_free_min_<build>_<files|romfs|frozen> B   least gc.mem_free() after
      a collection (bench/rp2040_heapmark.py, every 100 ms, between any two bytecodes)
      over a 3+2 game of 120 presses with the host attached: `set 3m+2s` typed, `status`
      every emulated second, the whole log pulled at the end (`log FROM 4096` until more=0)
  METRIC rp2040_lever_to_display_worst_us_<build> us     lever edge to the end of the last
      bus transaction that shows the switch on both displays (clock.mjs latencyCheck), worst
      over --presses presses aimed at flash writes (the press's own save, the 10 s periodic
      save), at host requests and at garbage collections (the same timer, collecting only:
      reading the free heap is the heap game's measurement, 8.8 ms no clock spends), on
      the ROMFS image (`make deploy-romfs`), and ..._<build>_frozen on firmware-frozen.uf2
      (`make deploy-frozen`; none when the image is older than firmware/); with --image
      files: ..._<build>_files. On the SSD1306s the switch is both running bars; the
      TM1637s have no running mark, so it is the pressing side's new digits
  METRIC rp2040_lever_to_time_worst_us_<build>[_frozen|_files] us   the same presses, to
      the pressing side's time with its increment on the glass as well (the SSD1306s draw
      it after the bars; on the TM1637s it is the figure above)
  METRIC rp2040_status_round_trip_us us                  median, the request's newline into the
      USB CDC to the reply's newline out, the `status` polls of a game like the heap game
      (60 presses) on pico-tm1637 as deployed for play: ROMFS, no /boot.py
  METRIC rp2040_flash_bytes_per_game_<build> B            bytes programmed into flash from
      START to the end of the 120-press game (saves, log records, littlefs metadata)
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
from emu import BIN, UF2, UF2_FROZEN, UF2_ROMFS, EmuClock, build  # noqa: E402

from chessclock import deploy  # noqa: E402
from chessclock.link import Link  # noqa: E402
from clockcore import protocol as P  # noqa: E402

WORK = ROOT / "build" / "rp2040-bench"
MARK_PIN = 25          # rp2040_heapmark.py raises it around each collection
GC_PERIOD_US = 100_000  # its timer's period
SAVE_EVERY_US = 10_000_000  # clockapp/app.py SAVE_EVERY_MS
PACKAGES = ("clockcore", "clockapp", "drivers", "boards")
REUSE = False


def log(*a):
    print("#", *a, flush=True)


def mpremote(tty, *args):
    subprocess.run([str(BIN / "mpremote"), "connect", tty] + list(args), check=True,
                   capture_output=True, timeout=600)


class StaleImage(Exception):
    """The vendored frozen image was built from other sources than firmware/'s."""


def romfs_image(out, dest):
    """The build's packages (.mpy) as a ROMFS image (what `make deploy ROMFS=1` deploys)."""
    src = dest.parent / "romfs-src"
    shutil.rmtree(src, ignore_errors=True)
    src.mkdir(parents=True)
    for pkg in PACKAGES:
        shutil.copytree(out / pkg, src / pkg)
    subprocess.run([str(BIN / "mpremote"), "romfs", "--no-mpy", "-o", str(dest), "build",
                    str(src)], check=True, capture_output=True)
    return dest


def flash_image(board, route, mark="heap"):
    """The flash after deploying `board` by `route`: "files" (`make deploy`), "romfs" (the
    packages in a ROMFS image, main.py and board.json on the littlefs: `make deploy-romfs`)
    or "frozen" (firmware-frozen.uf2, the packages in the image: main.py and board.json
    only, `make deploy-frozen`), with bench/rp2040_heapmark.py as /boot.py: mark="heap"
    collects and reads the free heap every 100 ms (the heap game), "gc" only collects (a
    /gc.only file beside it: the latency runs, which need no heap figure), None puts no
    /boot.py (the clock's own collections only). Returns (image, uf2)."""
    out = build(board, WORK / "build" / board)   # not tests/rp2040's build: both may run
    work = WORK / ("%s-%s-%s" % (board, route, mark or "nomark"))
    uf2 = {"files": UF2, "romfs": UF2_ROMFS, "frozen": UF2_FROZEN}[route]
    stamp = (out / "MANIFEST.sha256").read_text() + (
        (ROOT / "bench" / "rp2040_heapmark.py").read_text() + mark if mark else "no boot.py")
    if REUSE and (work / "flash.bin").is_file() and (work / "stamp").is_file() \
            and (work / "stamp").read_text() == stamp:
        return work / "flash.bin", uf2   # --reuse: the same build deployed before
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    rom = romfs_image(out, work / "app.romfs") if route == "romfs" else None
    with EmuClock(board, uf2=uf2, build_dir=out, workdir=work) as clk:
        clk.boot()
        tty = clk.serial()
        if route == "files":
            clk.chessclock("deploy", "--board", board, "--port", tty, "--build", out,
                           timeout=3600)
        elif route == "frozen":   # what `make deploy-frozen` does
            r = clk.chessclock("deploy", "--frozen", "--board", board, "--port", tty,
                               "--build", out, timeout=3600)
            stale = [ln.split(":")[0] for ln in r.stdout.splitlines() if deploy.STALE in ln]
            if stale:   # those would run from the littlefs: not the frozen route's figure
                raise StaleImage("%s of firmware/ differ from what firmware-frozen.uf2 froze: "
                                 "rebuild it (tests/rp2040/PROVENANCE.md)" % ", ".join(stale))
        else:
            if rom is not None:   # what `make deploy-romfs` does
                mpremote(tty, "romfs", "deploy", str(rom))
            mpremote(tty, "fs", "cp", str(out / "main.py"), str(out / "board.json"), ":")
        if mark:
            mpremote(tty, "fs", "cp", str(ROOT / "bench" / "rp2040_heapmark.py"), ":boot.py")
        if mark == "gc":
            only = work / "gc.only"
            only.write_text("the latency runs: collect, do not read the free heap\n")
            mpremote(tty, "fs", "cp", str(only), ":gc.only")
        image = work / "flash.bin"
        clk.cut(image)
    (work / "stamp").write_text(stamp)
    return image, uf2


def wait_app(clk, timeout_us=10_000_000):
    end = clk.now() + timeout_us
    while clk.now() < end:
        clk.run_for(200_000)
        if any(f[2]["type"] == "tm1637" and f[2]["segments"] != [0, 0, 0, 0]
               or f[2]["type"] == "ssd1306" for f in clk.frames()[0]):
            clk.run_for(300_000)
            return
    raise SystemExit("rp2040_bench: the clock did not start")


def heap_game(board, image, uf2, rnd, n_presses=120, marked=True):
    """The 3+2 game with the host attached; (least free heap, flash bytes of the game,
    heap samples, status round trips). marked=False: a flash with no /boot.py (no heap
    figure: the round trips of a clock as it is deployed)."""
    with EmuClock(board, uf2=uf2, build_dir=WORK / "build" / board,
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


def running_lever(clk):
    """The lever of the side whose clock runs, as the board shows it (LEDs or bars)."""
    from displays import ssd1306_running
    st = clk.state()
    if st["leds"] is not None:
        return "left" if st["leds"]["left"] else "right"
    return "left" if ssd1306_running(st["displays"][0]) else "right"


def latency_run(board, image, uf2, n, rnd, kinds=("save", "serial", "gc", "plain")):
    """n presses aimed at flash writes, host requests and collections; the results and how
    many presses the board did not take (the running side did not change)."""
    with EmuClock(board, uf2=uf2, build_dir=WORK / "build" / board,
                  workdir=image.parent / "lat", mark_pin=MARK_PIN) as clk:
        clk.boot(image)
        wait_app(clk)
        t = clk.now() + 100_000
        clk.press("start", at=t, hold=100_000)
        t += 400_000
        lever = "left"
        rid = 0
        marks_next = 0
        last_rise = None
        late = 0             # aims the emulator had passed (moved ahead)
        res = []
        for k in range(n):
            kind = "periodic" if k % 50 == 49 else kinds[k % len(kinds)]
            if kind == "save":           # the previous press's save and log flush
                t += rnd.randint(40, 100) * 1000
            elif kind == "quiet":        # the previous press's flash writes done
                t += rnd.randint(1000, 1500) * 1000
            elif kind == "periodic":     # the 10 s save of a running clock
                t += SAVE_EVERY_US + rnd.randint(0, 60) * 1000
            else:
                t += rnd.randint(120, 300) * 1000
            if kind != "save":           # the previous press is shown by now: whose turn?
                clk.run_until(t - 20_000)
            # Planned with the emulator held (it runs on between requests, and a press in
            # its past is refused): an aim it has passed meanwhile (a loaded machine) is
            # moved to 1 ms ahead, and counted.
            with clk.held():
                if kind != "save":
                    lever = running_lever(clk)
                if kind == "gc":
                    marks, marks_next = clk.marks(marks_next)
                    rises = [us for us, v in marks if v]
                    last_rise = rises[-1] if rises else last_rise
                    if last_rise is not None:
                        k_ = -(-(t - last_rise) // GC_PERIOD_US)
                        t = last_rise + k_ * GC_PERIOD_US + rnd.randint(0, 3000)
                now = clk.now()
                if t < now + 5000:
                    t = now + 5000
                    late += 1
                if kind == "serial":     # a status request reaching the clock just before
                    rid += 1
                    clk.send_at(max(now + 1000, t - rnd.randint(0, 4000)),
                                P.encode_request(rid, "status", []))
                # a quick tap (30 ms): shorter than a sector erase
                clk.press(lever, at=t, hold=30_000, measure=True, tag="%s:%s" % (kind, lever))
            lever = "right" if lever == "left" else "left"
            clk.run_until(t + 1000)
            if k % 100 == 99:           # progress (the last press finished first)
                t = clk.run_until(t + 300_000)
                res += clk.latency()
                leds = clk.op("events")["leds"]
                part = sort_presses([dict(r) for r in res], leds)
                taken = [r["shown"] or 0 for r in part if r["class"] == "taken"]
                log("%s: %d presses, %d taken, worst so far %d us; %d aims moved (late)"
                    % (board, len(res), len(taken), max(taken, default=0), late))
                (WORK / ("%s-latency-partial.json" % board)).write_text(json.dumps(
                    {"results": part, "flash": clk.flash_log()[0], "leds": leds}))
        clk.run_until(t + 300_000)
        res += clk.latency()
        flog, _, _ = clk.flash_log()
        marks, _ = clk.marks(0)
        leds = clk.op("events")["leds"]
        events = log_events(clk, image.parent / "lat" / "log")
    return sort_presses(res, leds), flog, marks, leds, events


def log_events(clk, folder):
    """The clock's own account of the run: its log pulled over the USB serial (`chessclock
    log-pull`, as an arbiter does) and counted by record type (press, ignored, lever_both,
    missed_edge, restarted, ...)."""
    tty = clk.serial()
    r = clk.chessclock("log-pull", "--port", tty, "--archive", folder, "--game", "bench",
                       "--json", "--timeout", "600", timeout=3600)
    pulled = json.loads(r.stdout)[0]["result"]
    r = clk.chessclock("log", "export", pulled["file"], "--format", "jsonl")
    counts = {}
    for e in map(json.loads, r.stdout.splitlines()):
        counts[e["type"]] = counts.get(e["type"], 0) + 1
    return counts


def sort_presses(res, leds):
    """Each press by the running LED: `wrong` (the lever of the waiting side: the bench's
    guess was off, ignored by the clock as it should), `lost` (the running side's lever,
    and the LEDs did not switch within 2 s: a press the clock missed), else taken."""
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
        kind, lever = r["tag"].split(":")
        r["kind"] = kind
        k = order.index(r["us"])
        nxt = order[k + 1] if k + 1 < len(order) else r["us"] + 2_000_000
        if running(r["us"]) != lever:
            r["class"] = "wrong"
        elif running(nxt - 1) == lever and nxt - r["us"] < 2_000_000:
            # the LEDs had not switched when the next press came: not taken in time (its
            # "shown" would be the next press's)
            r["class"] = "lost"
        elif running(r["us"] + 2_000_000) == lever and not any(
                r["us"] <= t < r["us"] + 2_000_000 and v for t, _, v in leds):
            r["class"] = "lost"
        else:
            r["class"] = "taken"
    return res


def classify(res, flog, marks):
    """Which presses really fell inside a flash operation or a collection."""
    ops = [(us, us + (45_000 if kind == "erase" else 700 * -(-cnt // 256)))
           for us, kind, _, cnt in flog]
    gcs, up = [], None
    for us, v in marks:
        if v:
            up = us
        elif up is not None:
            gcs.append((up, us))
            up = None
    inside = {"flash": 0, "gc": 0}
    for r in res:
        if any(a <= r["us"] < b for a, b in ops):
            inside["flash"] += 1
        if any(a <= r["us"] < b for a, b in gcs):
            inside["gc"] += 1
    gc_us = max((b - a for a, b in gcs), default=0)
    return inside, gc_us


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
    ap.add_argument("--presses", type=int, default=1000)
    ap.add_argument("--builds", default="pico-tm1637,pico-ssd1306")
    ap.add_argument("--only", default="heap,latency,romfs,frozen")
    ap.add_argument("--game-presses", type=int, default=120,
                    help="presses of the heap game (120: a whole 3+2 game of 60 moves)")
    ap.add_argument("--quiet", action="store_true",
                    help="lever to display of presses 1-1.5 s apart only (no aim): the "
                    "press's own cost, a reference")
    ap.add_argument("--image", default="romfs,frozen",
                    help="the routes the latency runs on, comma-separated: romfs (`make "
                    "deploy-romfs`: the bytecode out of the heap; METRIC ..._<build>), "
                    "frozen (`make deploy-frozen` on firmware-frozen.uf2: bytecode, "
                    "constants and qstrs in flash, the shortest collections; METRIC "
                    "..._<build>_frozen), files (`make deploy`, any RPI_PICO image: METRIC "
                    "..._<build>_files)")
    ap.add_argument("--gc", choices=("timer", "clock"), default="timer",
                    help="the latency run's collections: a forced one every 100 ms "
                    "(bench/rp2040_heapmark.py; presses aimed at them; the METRIC), or the "
                    "clock's own only (no /boot.py, no collection aim: what the bench's "
                    "timer adds to the other aims; logged, no METRIC)")
    ap.add_argument("--reuse", action="store_true",
                    help="reuse a flash image deployed by an earlier run of the same build")
    args = ap.parse_args(argv)
    bad = set(args.image.split(",")) - {"files", "romfs", "frozen"}
    if bad:
        ap.error("--image: not a route: %s (files, romfs, frozen)" % ", ".join(sorted(bad)))
    global REUSE
    REUSE = args.reuse
    only = set(args.only.split(","))
    results = {}
    for board in args.builds.split(","):
        b = board.replace("-", "_")
        rnd = random.Random(9)
        image, uf2 = flash_image(board, "files") if "heap" in only else (None, None)
        if "heap" in only:
            least, fbytes, samples, rtts = heap_game(board, image, uf2, rnd, args.game_presses)
            log("%s files: %d heap samples" % (board, samples))
            print("METRIC rp2040_heap_free_min_%s_files %d bytes" % (b, least), flush=True)
            print("METRIC rp2040_flash_bytes_per_game_%s %d bytes" % (b, fbytes), flush=True)
            results[board + "/heap"] = [least, fbytes]
            if board == "pico-tm1637":
                # the round trips of the clock as deployed for play (ROMFS, no /boot.py):
                # the heap game's mark reads the free heap every 100 ms (8.8 ms each) and
                # its collections, ~25 % of the CPU, would be in every round trip
                rimage, ruf2 = flash_image(board, "romfs", mark=None)
                _, _, _, rtts = heap_game(board, rimage, ruf2, random.Random(9), 60,
                                          marked=False)
                if not rtts:
                    raise SystemExit("rp2040_bench: no status round trip was seen")
                rtts.sort()
                log("status round trips (%d, a game running, ROMFS, no bench timer): min %d, "
                    "p90 %d, max %d us" % (len(rtts), rtts[0], rtts[int(len(rtts) * 0.9)],
                                           rtts[-1]))
                print("METRIC rp2040_status_round_trip_us %d us" % statistics.median(rtts),
                      flush=True)
        if "romfs" in only:
            rimage, ruf2 = flash_image(board, "romfs")
            least, _, samples, _ = heap_game(board, rimage, ruf2, random.Random(9),
                                             args.game_presses)
            log("%s romfs: %d heap samples" % (board, samples))
            print("METRIC rp2040_heap_free_min_%s_romfs %d bytes" % (b, least), flush=True)
        if "frozen" in only:
            try:
                fimage, fuf2 = flash_image(board, "frozen")
            except StaleImage as e:
                log("%s frozen: no heap figure: %s" % (board, e))
            else:
                least, _, samples, _ = heap_game(board, fimage, fuf2, random.Random(9),
                                                 args.game_presses)
                log("%s frozen: %d heap samples" % (board, samples))
                print("METRIC rp2040_heap_free_min_%s_frozen %d bytes" % (b, least),
                      flush=True)
        if "latency" in only:
            for route in args.image.split(","):
                # the METRIC of the ROMFS route has no suffix (it was the route for play first)
                suffix = {"romfs": "", "files": "_files", "frozen": "_frozen"}[route]
                own_gc = args.gc == "clock"
                try:
                    limage, luf2 = flash_image(board, route, mark=None if own_gc else "gc")
                except StaleImage as e:
                    log("%s %s: no latency figure: %s" % (board, route, e))
                    continue
                rnd = random.Random(9)    # the same aims on every route
                aims = ("save", "serial", "gc", "plain")
                if args.quiet:
                    aims = ("quiet",)
                elif own_gc:
                    aims = ("save", "serial", "plain")
                allres, flog, marks, leds, events = latency_run(board, limage, luf2, args.presses,
                                                                rnd, aims)
                log("%s: the clock's log of the run: %s" % (board, ", ".join(
                    "%s %d" % kv for kv in sorted(events.items()))))
                name = "%s-latency%s%s%s.json" % (board, "-quiet" if args.quiet else "",
                                                    "-" + route if route != "files"
                                                    else "",
                                                    "-owngc" if own_gc else "")
                (WORK / name).write_text(json.dumps(
                    {"results": allres, "flash": flog, "marks": marks, "leds": leds,
                     "log": events}))
                res = [r for r in allres if r["class"] == "taken"]
                lost = [r for r in allres if r["class"] == "lost"]
                wrong = len(allres) - len(res) - len(lost)
                missing = [r for r in res if r["shown"] is None]
                shown = [r for r in res if r["shown"] is not None]
                inside, gc_us = classify(res, flog, marks)
                by = {}
                for r in shown:
                    by.setdefault(r["kind"], []).append(r["shown"])
                log("%s: %d presses: %d taken, %d lost, %d on the waiting side's lever; %d taken "
                    "and never shown; inside a flash operation %d, inside a "
                    "collection %d (longest collection %d us)" % (board, len(allres), len(res),
                                                                  len(lost), wrong, len(missing),
                                                                  inside["flash"], inside["gc"],
                                                                  gc_us))
                # the pressing side's time with its increment, too (SSD1306: after the bars)
                settled = {}
                for r in res:
                    if r.get("settled") is not None:
                        settled.setdefault(r["kind"], []).append(r["settled"])
                for what, kinds in (("switch", by), ("time on the glass", settled)):
                    for tag, v in sorted(kinds.items()):
                        v.sort()
                        log("  %-8s %s: n=%4d median %6d us  p99 %6d us  worst %6d us"
                            % (tag, what, len(v), v[len(v) // 2], v[int(len(v) * 0.99)],
                               v[-1]))
                # over the presses taken and shown; lost and never-shown ones are logged above
                worst = max((r["shown"] for r in shown), default=-1)
                worst_time = max((max(v) for v in settled.values()), default=-1)
                if args.quiet:
                    log("quiet presses, lever to display worst %d us (reference, no METRIC)"
                        % worst)
                elif own_gc:
                    log("%s with the clock's own collections only: lever to display worst %d us "
                        "(no METRIC: the METRIC's presses meet the bench's forced collections)"
                        % (board, worst))
                else:
                    print("METRIC rp2040_lever_to_display_worst_us_%s%s %d us"
                          % (b, suffix, worst), flush=True)
                    print("METRIC rp2040_lever_to_time_worst_us_%s%s %d us"
                          % (b, suffix, worst_time), flush=True)
                results[board + "/latency" + suffix] = by
    (WORK / "results.json").write_text(json.dumps(results))


if __name__ == "__main__":
    main()
