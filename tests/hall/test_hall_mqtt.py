"""Stations and the hall through a real broker (Debian's mosquitto, started here): laptops'
stations (chessclock.hall.station + mqtt.Publisher, with in-process simulated clocks) and
a Wi-Fi clock's station (clockapp.hallpub on the MicroPython unix port, the real firmware
app on the simulator board). Run by `make test-hall`.
"""

import os
import subprocess
import time

import paho.mqtt.client as mqtt
import pytest

from chessclock.hall.broker import Broker, mosquitto_exe, read_login
from chessclock.hall.fakeclock import FakeClock, opener
from chessclock.hall.hub import Hub
from chessclock.hall.mqtt import Publisher, Subscriber
from chessclock.hall.station import Station
from chessclock.sim.serve import micropython_exe
from clockcore import engine as E
from clockcore import hallmsg

pytestmark = pytest.mark.skipif(mosquitto_exe() is None, reason="no mosquitto: "
                                "make test-hall installs it")
KEY = bytes(range(32))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def until(pred, wait=3.0, what="condition"):
    deadline = time.monotonic() + wait
    while not pred():
        assert time.monotonic() < deadline, "timed out waiting for " + what
        time.sleep(0.02)


@pytest.fixture
def broker():
    with Broker(hall="open", stations=["hall-a", "hall-b"]) as b:
        yield b


def login(broker, user):
    return read_login(broker.login(user))


def test_two_stations_one_hall(broker):
    hub = Hub()
    sub = Subscriber(broker.address, "open", KEY, hub, login=login(broker, "page"))
    sub.start()
    stations, fakes = [], {}
    try:
        for name in ("hall-a", "hall-b"):
            clocks = {"%s-%d" % (name, i): FakeClock("%s-clock%d" % (name, i), key=KEY)
                      for i in range(3)}
            fakes.update(clocks)
            pub = Publisher(broker.address, "open", name, KEY,
                            login=login(broker, "station-" + name))
            pub.start()
            st = Station(name, list(clocks), pub, interval=0.05, open_link=opener(clocks))
            st.start()
            stations.append((st, pub))
        until(lambda: len(hub.bodies()) == 6, 5, "six clocks from two stations")
        assert {k.split("/")[0] for k in hub.bodies()} == {"hall-a", "hall-b"}

        # a press at station b shows in the hall's hub within a second
        t0 = time.monotonic()
        fakes["hall-b-1"].press(E.WHITE)
        until(lambda: hub.bodies()["hall-b/hall-b-clock1"]["wm"] == 1, 1.0, "the press")
        assert time.monotonic() - t0 < 1.0

        # a forged message (not the hall's key) changes nothing and is counted
        topic = hallmsg.clock_topic("open", "hall-b", "hall-b-clock1")
        body = dict(hub.bodies()["hall-b/hall-b-clock1"], wm=40, seq=10 ** 6)
        body.pop("v")
        body.pop("plies")
        forger = mqtt.Client(callback_api_version=mqtt.CallbackAPIVersion.VERSION2)
        forger.username_pw_set(*login(broker, "station-hall-b"))   # a station's own topic
        forger.connect(*broker.address)
        forger.loop_start()
        forged = hallmsg.encode(b"\x01" * 32, topic, body)
        forger.publish(topic, forged, retain=True).wait_for_publish()
        until(lambda: hub.refused >= 1, 2, "the forged message refused")
        assert hub.bodies()["hall-b/hall-b-clock1"]["wm"] == 1
        # a genuine message replayed (same session, old seq) is refused too
        old = dict(body, wm=1, seq=1)
        forger.publish(topic, hallmsg.encode(KEY, topic, old), retain=True).wait_for_publish()
        until(lambda: hub.refused >= 2, 2, "the replay refused")
        forger.loop_stop()
        forger.disconnect()

        # station a leaves: its clocks are shown as not answering
        st, pub = stations.pop(0)
        st.stop()
        pub.stop()
        until(lambda: all(r["stale"] for r in hub.view()[1] if r["st"] == "hall-a"), 3,
              "station a shown gone")
        assert not any(r["stale"] for r in hub.view()[1] if r["st"] == "hall-b")
    finally:
        for st, pub in stations:
            st.stop()
            pub.stop()
        sub.stop()


@pytest.mark.skipif(micropython_exe() is None, reason="no micropython")
def test_a_wifi_clock_logs_in_to_the_halls_broker_and_only_with_its_login(tmp_path):
    """The broker `chessclock hall --write-broker` writes lets no one in without a login:
    a Wi-Fi clock (clockapp.hallpub on the unix port) with its station's login in
    hall.json publishes; the same clock without it never gets in."""
    with Broker(hall="test", stations=["wifi-1"]) as broker:
        hub = Hub()
        sub = Subscriber(broker.address, "test", KEY, hub, login=login(broker, "page"))
        sub.start()
        env = dict(os.environ, MICROPYPATH=".frozen:" + os.path.join(ROOT, "firmware"))
        user, password = login(broker, "station-wifi-1")
        runs = []
        try:
            for creds in ([], [user, password]):
                proc = subprocess.run(
                    [micropython_exe(), os.path.join(ROOT, "tests/hall/mp_station.py"),
                     str(tmp_path / ("flash%d" % len(runs))), "127.0.0.1", str(broker.port),
                     KEY.hex(), "3", "300"] + creds,
                    env=env, capture_output=True, text=True, timeout=60)
                assert proc.returncode == 0, proc.stderr
                runs.append(dict(kv.split("=") for kv in proc.stdout.split()))
                if not creds:
                    assert hub.bodies() == {}       # refused: nothing reached the hall
            assert int(runs[0]["sent"]) == 0
            assert int(runs[1]["connects"]) >= 1 and int(runs[1]["sent"]) > 0
            until(lambda: "wifi-1/mp-clock" in hub.bodies(), 5, "the logged-in clock")
        finally:
            sub.stop()


@pytest.mark.skipif(micropython_exe() is None, reason="no micropython")
def test_wifi_clock_on_the_unix_port_reconnects(tmp_path):
    # the reconnection alone: a broker that lets anonymous clients in on loopback
    broker = Broker(anonymous=True)
    hub = Hub()
    sub = Subscriber(broker.address, "test", KEY, hub)
    sub.start()
    env = dict(os.environ, MICROPYPATH=".frozen:" + os.path.join(ROOT, "firmware"))
    proc = subprocess.Popen([micropython_exe(), os.path.join(ROOT, "tests/hall/mp_station.py"),
                             str(tmp_path / "flash"), "127.0.0.1", str(broker.port), KEY.hex(),
                             "9", "300"], env=env, stdout=subprocess.PIPE, text=True)
    port = broker.port
    try:
        key = "wifi-1/mp-clock"
        until(lambda: key in hub.bodies() and hub.bodies()[key]["wm"] >= 1, 5,
              "the Wi-Fi clock's first press")
        first = hub.bodies()[key]
        assert first["s"] == "running" and first["tc"] == "300+2"
        assert (first["bd"], first["wn"], first["bn"]) == (9, "Wifi White", "Wifi Black")
        row = [r for r in hub.view()[1] if r["key"] == key][0]
        assert (row["bd"], row["white"], row["black"]) == (9, "Wifi White", "Wifi Black")
        assert hub.stations["wifi-1"]["up"] == 1
        sub.stop()
        broker.stop()                       # the broker goes away for a second
        time.sleep(1.0)
        again = Broker(port, anonymous=True)
        try:
            hub2 = Hub()
            sub2 = Subscriber(again.address, "test", KEY, hub2)
            sub2.start()
            until(lambda: key in hub2.bodies() and hub2.bodies()[key]["wm"] > first["wm"] + 1,
                  6, "messages after the broker came back")
            b = hub2.bodies()[key]
            assert b["sid"] == first["sid"] and b["seq"] > first["seq"]
            plies = b["plies"]
            assert [n for n, _ in plies] == list(range(plies[0][0], plies[-1][0] + 1))
            out, _ = proc.communicate(timeout=15)
            fields = dict(kv.split("=") for kv in out.split())
            assert int(fields["connects"]) >= 2           # it reconnected by itself
            assert int(fields["longest_us"]) < 50000      # the loop never waited on the net
            sub2.stop()
        finally:
            again.stop()
    finally:
        broker.stop()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
