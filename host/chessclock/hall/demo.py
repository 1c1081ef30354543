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
from typing import Any

from chessclock.hall.broker import PAGE_USER, Broker, free_port, read_login, station_user
from chessclock.hall.hub import Hub
from chessclock.hall.mqtt import Publisher, Subscriber
from chessclock.hall.pairings import Round
from chessclock.hall.station import Station
from chessclock.link import transport as L
from chessclock.sim.serve import SimServer
from chessclock.timecontrol import configured

NAMES = ["Ana Aldea", "Ben Brandt", "Chloe Chen", "Dev Dutta", "Eva Eklund", "Finn Fox",
         "Gil Gomez", "Hana Horak", "Ivo Ilic", "Jun Jiang", "Kai Kruger", "Lea Laine"]


def _key(path: str) -> Any:
    if not os.path.exists(path):
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(os.urandom(32).hex() + "\n")
    return L.read_key(path)


CONTROL = "15m+10s"   # what the clocks are set to (as `chessclock set 15m+10s` sends it)


def _ready(path: str, arbiter: Any) -> Any:
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
    spec = configured(CONTROL)[0]   # the spec the clock takes, checked as `set` checks it
    with L.Link(path, key=arbiter) as lk:
        st = lk.request("status")
        if st["state"] in ("idle", "ended"):
            lk.request("set", spec, change=True)
            lk.request("start", change=True)
    return hello["clock"]


class Demo:
    """The demo's hall without its page: mosquitto with a login a station, the simulated
    clocks set up and started, two stations publishing, the page's hub reading the
    broker. start() then stop(); `hub` and `stations` are what the page serves."""

    def __init__(self, folder: Any, clocks: Any = 4, broker_port: int = 0) -> None:
        self.folder = folder
        self.n = clocks
        self.broker_port = broker_port
        self.broker: Broker | None = None
        self.servers: list[SimServer] = []
        self.stations: list[Station] = []
        self.parts: list[Station | Publisher | Subscriber] = []
        self.hub: Any = None

    def start(self) -> Any:
        folder = self.folder
        os.makedirs(folder, exist_ok=True)
        hall_key = _key(os.path.join(folder, "hall.key"))
        self.arbiter = arbiter = _key(os.path.join(folder, "arbiter.key"))
        names = ["table-1", "table-2"]
        self.broker = Broker(self.broker_port, hall="demo", stations=names,
                             folder=os.path.join(folder, "broker"))
        rnd = Round("Demo Open", 1)
        for i in range(self.n):
            self.servers.append(SimServer(os.path.join(folder, "flash-%d" % i),
                                          "demo-%d" % (i + 1)))
        for i, s in enumerate(self.servers):
            clock = _ready(s.path, arbiter)
            rnd.add(i + 1, NAMES[(2 * i) % 12], NAMES[(2 * i + 1) % 12], clock=clock)
        self.hub = Hub(rnd)
        half = (len(self.servers) + 1) // 2
        for name, group in zip(names, (self.servers[:half], self.servers[half:]),
                               strict=True):
            pub = Publisher(self.broker.address, "demo", name, hall_key,
                            login=read_login(self.broker.login(station_user(name))))
            pub.start()
            st = Station(name, [s.path for s in group], pub, archive=os.path.join(
                folder, "logs"), arbiter_key=arbiter)
            st.start()
            self.stations.append(st)
            self.parts += [pub, st]
        sub = Subscriber(self.broker.address, "demo", hall_key, self.hub,
                         login=read_login(self.broker.login(PAGE_USER)))
        sub.start()
        self.parts.append(sub)
        return self

    def stop(self) -> None:
        for part in reversed(self.parts):
            part.stop()
        for s in self.servers:
            s.stop()
        if self.broker is not None:
            self.broker.stop()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="make hall")
    p.add_argument("--clocks", type=int, default=4)
    p.add_argument("--listen", default="127.0.0.1:8000")
    a = p.parse_args(argv)
    host, _, port = a.listen.rpartition(":")
    if not host or not port.isdigit() or not 1 <= a.clocks <= 12:
        sys.stderr.write("make hall: --listen HOST:PORT and 1 to 12 --clocks\n")
        return 2
    folder = os.path.join("build", "hall")
    with socket.socket() as probe:
        busy = probe.connect_ex(("127.0.0.1", 1883)) == 0
    demo = Demo(folder, a.clocks, free_port() if busy else 1883)
    try:
        demo.start()
        assert demo.broker is not None
        threading.Thread(target=_players, args=(demo.stations,), daemon=True).start()
        import uvicorn

        from chessclock.hall.web import create_app
        sys.stderr.write("hall demo: mosquitto on %s:%d, %d clocks at 2 stations\n"
                         "  the page:         http://%s/\n  the arbiter's key: %s\n"
                         % (demo.broker.host, demo.broker.port, len(demo.servers), a.listen,
                            os.path.abspath(os.path.join(folder, "arbiter.key"))))
        uvicorn.run(create_app(demo.hub, demo.stations, title="Demo hall"), host=host,
                    port=int(port), log_level="warning", access_log=False,
                    timeout_graceful_shutdown=2)
    except KeyboardInterrupt:
        pass
    except (L.ClockError, RuntimeError, FileNotFoundError, ValueError) as e:
        sys.stderr.write("make hall: %s\n" % e)
        return 1
    finally:
        demo.stop()
    return 0


def _players(stations: Any) -> None:
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
