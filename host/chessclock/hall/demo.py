"""`make hall`: the hall to try on one machine. Mosquitto on loopback, simulated clocks
(`chessclock sim-serve`'s SimServer: the real firmware app on a pty each) split over two
stations that publish to the broker, the page reading the broker, and someone pressing
the levers now and then. Keys and flash under build/hall/; the arbiter's key file is
printed (paste its text when the page asks for the key).

    python -m chessclock.hall.demo [--clocks 4] [--listen 127.0.0.1:8000]
"""

import argparse
import os
import random
import socket
import sys
import threading
import time

from chessclock import link as L
from chessclock.hall.broker import Broker, free_port
from chessclock.hall.hub import Hub
from chessclock.hall.mqtt import Publisher, Subscriber
from chessclock.hall.pairings import Round
from chessclock.hall.station import Station
from chessclock.simserve import SimServer

NAMES = ["Ana Aldea", "Ben Brandt", "Chloe Chen", "Dev Dutta", "Eva Eklund", "Finn Fox",
         "Gil Gomez", "Hana Horak", "Ivo Ilic", "Jun Jiang", "Kai Kruger", "Lea Laine"]


def _key(path):
    if not os.path.exists(path):
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(os.urandom(32).hex() + "\n")
    return L.read_key(path)


def _ready(path, arbiter):
    deadline = time.monotonic() + 10
    while True:
        try:
            with L.Link(path, timeout=0.5) as lk:
                hello = lk.request("hello")
            break
        except L.ClockError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
    if hello.get("key") != "1":
        with L.Link(path) as lk:
            lk.request("keyset", arbiter.hex(), change=True)
    with L.Link(path, key=arbiter) as lk:
        st = lk.request("status")
        if st["state"] in ("idle", "ended"):
            lk.request("set", "15+10", change=True)
            lk.request("start", change=True)
    return hello["clock"]


def main(argv=None):
    p = argparse.ArgumentParser(prog="make hall")
    p.add_argument("--clocks", type=int, default=4)
    p.add_argument("--listen", default="127.0.0.1:8000")
    a = p.parse_args(argv)
    host, _, port = a.listen.rpartition(":")
    folder = os.path.join("build", "hall")
    os.makedirs(folder, exist_ok=True)
    hall_key = _key(os.path.join(folder, "hall.key"))
    arbiter = _key(os.path.join(folder, "arbiter.key"))
    with socket.socket() as probe:
        busy = probe.connect_ex(("127.0.0.1", 1883)) == 0
    broker = Broker(free_port() if busy else 1883)
    servers: list[SimServer] = []
    stations: list[Station] = []
    parts: list[Station | Publisher | Subscriber] = []
    try:
        rnd = Round("Demo Open", 1)
        for i in range(a.clocks):
            servers.append(SimServer(os.path.join(folder, "flash-%d" % i), "demo-%d" % (i + 1)))
        for i, s in enumerate(servers):
            clock = _ready(s.path, arbiter)
            rnd.add(i + 1, NAMES[(2 * i) % 12], NAMES[(2 * i + 1) % 12], clock=clock)
        hub = Hub(rnd)
        half = (len(servers) + 1) // 2
        for name, group in (("table-1", servers[:half]), ("table-2", servers[half:])):
            pub = Publisher(broker.address, "demo", name, hall_key)
            pub.start()
            st = Station(name, [s.path for s in group], pub, archive=os.path.join(
                folder, "logs"))
            st.start()
            stations.append(st)
            parts += [pub, st]
        sub = Subscriber(broker.address, "demo", hall_key, hub)
        sub.start()
        parts.append(sub)
        threading.Thread(target=_players, args=(stations,), daemon=True).start()
        import uvicorn

        from chessclock.hall.web import create_app
        sys.stderr.write("hall demo: mosquitto on %s:%d, %d clocks at 2 stations\n"
                         "  the page:         http://%s/\n  the arbiter's key: %s\n"
                         % (broker.host, broker.port, len(servers), a.listen,
                            os.path.abspath(os.path.join(folder, "arbiter.key"))))
        uvicorn.run(create_app(hub, stations, title="Demo hall"), host=host, port=int(port),
                    log_level="warning", access_log=False, timeout_graceful_shutdown=2)
    except KeyboardInterrupt:
        pass
    finally:
        for part in reversed(parts):
            part.stop()
        for s in servers:
            s.stop()
        broker.stop()
    return 0


def _players(stations):
    """Somebody presses a lever of a random clock every second or so."""
    rng = random.Random()
    turn = {}
    while True:
        time.sleep(rng.uniform(0.5, 1.5))
        st = rng.choice(stations)
        if not st.workers:
            continue
        w = rng.choice(st.workers)
        side = turn.get(w.port, "left")
        try:
            w.call("sim", "press", side)
            turn[w.port] = "right" if side == "left" else "left"
        except Exception:   # a clock that does not answer: the page shows it
            pass


if __name__ == "__main__":
    sys.exit(main())
