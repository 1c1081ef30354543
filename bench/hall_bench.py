"""The hall at scale, on this machine's loopback: STATIONS station processes with CLOCKS
simulated clocks each publish to mosquitto; this process is the hall (the hub reading the
broker, the page's server); the page is open in headless chromium (Debian's, driven by
Playwright), or, without chromium, read by an SSE client in this process (said so).

Clocks: chessclock.hall.fakeclock (the engine behind the serial protocol, in-process, a
real chessclock.link Link and station worker each): a `chessclock sim-serve` process a
clock would be 200 processes. Each clock's levers are pressed at random, 2-6 s apart; a
press's time is taken when it happens, the page's when it has drawn the card with it.

    python bench/hall_bench.py [--clocks 200] [--stations 4] [--seconds 20]

Prints METRIC lines: hall_press_to_page_p99_ms (and p50, max), hall_clocks, the CPU of
the broker, of a station and of the hall per clock (percent of one core).
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "host"), os.path.join(ROOT, "firmware")]

KEY = bytes(range(7, 39))
HALL = "bench"


def cpu_of(pid):
    """utime + stime of a process, seconds (Linux /proc)."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# ---- a station process -------------------------------------------------------------------
def station_main(a):
    from chessclock.hall.fakeclock import FakeClock, opener
    from chessclock.hall.mqtt import Publisher
    from chessclock.hall.station import Station
    from clockcore import engine as E

    clocks = {"%s-%03d" % (a.station, i): FakeClock("%s-c%03d" % (a.station, i))
              for i in range(a.clocks)}
    from chessclock.hall.broker import read_login
    pub = Publisher(("127.0.0.1", a.broker), HALL, a.station, KEY, login=read_login(a.login))
    pub.start()
    pub.connected.wait(10)
    st = Station(a.station, list(clocks), pub, interval=0.2, open_link=opener(clocks))
    st.start()
    sys.stdin.readline()            # the hall says go: every clock is on its page
    presses = []
    rng = random.Random(a.station)
    due = {p: time.monotonic() + rng.uniform(0, 4) for p in clocks}
    side = {p: E.WHITE for p in clocks}
    end = time.monotonic() + a.seconds
    t_cpu = (os.times(), time.monotonic())
    while time.monotonic() < end:
        now = time.monotonic()
        for port, at in due.items():
            if at <= now:
                fake = clocks[port]
                if fake.press(side[port]):
                    plies = fake.clock.moves[0] + fake.clock.moves[1]
                    presses.append(("%s/%s" % (a.station, fake.clock_id), plies,
                                    int(time.time() * 1000)))
                side[port] = E.BLACK if side[port] == E.WHITE else E.WHITE
                due[port] = now + rng.uniform(2, 6)
        time.sleep(0.005)
    t1 = os.times()
    cpu = (t1.user + t1.system) - (t_cpu[0].user + t_cpu[0].system)
    time.sleep(1.0)                 # the last presses are polled and published
    with open(a.out, "w") as f:
        json.dump({"presses": presses, "cpu_s": cpu, "wall_s": time.monotonic() - t_cpu[1],
                   "clocks": a.clocks}, f)
    st.stop()
    pub.stop()


# ---- the hall --------------------------------------------------------------------------------
class SseReader(threading.Thread):
    """The page's stream read in this process (when there is no chromium)."""

    def __init__(self, url):
        super().__init__(daemon=True)
        self.url = url
        self.applied = []
        self.stop = False

    def run(self):
        import urllib.request
        with urllib.request.urlopen(self.url + "/events") as r:
            for line in r:
                if self.stop:
                    return
                if line.startswith(b"data: "):
                    now = int(time.time() * 1000)
                    for b in json.loads(line[6:])["boards"]:
                        self.applied.append((b["key"], b["wm"] + b["bm"], now))


def latencies(presses, applied):
    """Press -> the first time the page showed that clock with at least that many plies."""
    shown = {}
    for key, plies, t in applied:
        shown.setdefault(key, []).append((t, plies))
    out = []
    missing = 0
    for key, plies, t in presses:
        seen = [ts for ts, n in shown.get(key, ()) if n >= plies and ts >= t - 5]
        if seen:
            out.append(max(0, min(seen) - t))
        else:
            missing += 1
    return sorted(out), missing


def pct(xs, p):
    return xs[min(len(xs) - 1, int(len(xs) * p / 100))] if xs else float("nan")


def hall_main(a):
    import shutil

    from chessclock.hall.broker import Broker, mosquitto_exe
    from chessclock.hall.hub import Hub
    from chessclock.hall.mqtt import Subscriber
    from chessclock.hall.web import ServerThread, create_app

    if mosquitto_exe() is None:
        print("# hall bench: skipped, mosquitto is not installed (make hall-deps)")
        return 0
    chromium = shutil.which("chromium")
    per = a.clocks // a.stations
    tmp = tempfile.mkdtemp(prefix="hall-bench-")
    names = ["st%d" % i for i in range(a.stations)]
    with Broker(hall=HALL, stations=names) as broker:
        from chessclock.hall.broker import read_login
        hub = Hub()
        sub = Subscriber(broker.address, HALL, KEY, hub,
                         login=read_login(broker.login("page")))
        sub.start()
        server = ServerThread(create_app(hub, [], title="bench")).start()
        procs = []
        for i in range(a.stations):
            out = os.path.join(tmp, "st%d.json" % i)
            procs.append((subprocess.Popen(
                [sys.executable, __file__, "--station", names[i], "--clocks", str(per),
                 "--broker", str(broker.port), "--seconds", str(a.seconds), "--out", out,
                 "--login", broker.login("station-" + names[i])],
                stdin=subprocess.PIPE, text=True), out))
        reader = pw = browser = page = None
        if chromium:
            from playwright.sync_api import sync_playwright
            pw = sync_playwright().start()
            browser = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(server.url + "/?bench")
            method = "headless chromium (the page's own clock when it drew the card)"
        else:
            reader = SseReader(server.url)
            reader.start()
            method = "an SSE client in the hall's process (no chromium installed)"
        deadline = time.monotonic() + 30
        while len(hub.bodies()) < per * a.stations and time.monotonic() < deadline:
            time.sleep(0.1)
        seen = len(hub.bodies())
        if page is not None:   # every card drawn before the clock starts
            page.wait_for_function("document.querySelectorAll('.card').length >= %d" % seen)
            page.evaluate("window.hallApplied = []")
        me0, b0, t0 = os.times(), cpu_of(broker.proc.pid), time.monotonic()
        for p, _ in procs:
            p.stdin.write("go\n")
            p.stdin.flush()
        for p, _ in procs:
            p.wait(a.seconds + 60)
        me1, b1, t1 = os.times(), cpu_of(broker.proc.pid), time.monotonic()
        time.sleep(1.0)   # the last presses reach the page
        if page is not None:
            applied = [tuple(x) for x in page.evaluate("window.hallApplied")]
            browser.close()
            pw.stop()
        else:
            reader.stop = True
            applied = list(reader.applied)
        server.stop()
        sub.stop()
    presses, st_cpu, st_wall = [], 0.0, 0.0
    for _, out in procs:
        with open(out) as f:
            d = json.load(f)
        presses += [tuple(x) for x in d["presses"]]
        st_cpu += d["cpu_s"]
        st_wall = max(st_wall, d["wall_s"])
    lat, missing = latencies(presses, applied)
    wall = t1 - t0
    print("# hall bench: %d clocks in %d station processes, %d presses in %.0f s, the page "
          "read by %s; %d presses not seen" % (seen, a.stations, len(presses), wall, method,
                                               missing))
    print("METRIC hall_clocks %d" % seen)
    print("METRIC hall_presses %d" % len(presses))
    print("METRIC hall_press_to_page_p50_ms %d ms" % pct(lat, 50))
    print("METRIC hall_press_to_page_p99_ms %d ms" % pct(lat, 99))
    print("METRIC hall_press_to_page_max_ms %d ms" % (lat[-1] if lat else -1))
    n = max(1, seen)
    print("METRIC hall_broker_cpu_per_clock %.3f %%" % (100 * (b1 - b0) / wall / n))
    print("METRIC hall_station_cpu_per_clock %.3f %%" % (100 * st_cpu / st_wall / n))
    hall_cpu = (me1.user + me1.system) - (me0.user + me0.system)
    print("METRIC hall_page_server_cpu_per_clock %.3f %%" % (100 * hall_cpu / wall / n))
    return 0 if lat and missing <= len(presses) // 100 else 1


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--clocks", type=int, default=200)
    p.add_argument("--stations", type=int, default=4)
    p.add_argument("--seconds", type=float, default=20)
    p.add_argument("--station")
    p.add_argument("--broker", type=int)
    p.add_argument("--out")
    p.add_argument("--login", help="a station's broker login file")
    a = p.parse_args()
    if a.station:
        return station_main(a)
    return hall_main(a)


if __name__ == "__main__":
    sys.exit(main())
