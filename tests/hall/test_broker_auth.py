"""The attacks on the hall's broker, kept as tests (docs/HALL.md, "Threat model"): a client
without a login, a station writing another's topics, a clock removed by an empty retained
message, an old signed flag replayed. Real mosquitto, loopback only; every wait bounded."""

import json
import os
import subprocess
import threading
import time

import paho.mqtt.client as mqtt
import pytest

from chessclock.hall.broker import Broker, mosquitto_exe, read_login
from chessclock.hall.fakeclock import FakeClock, opener
from chessclock.hall.hub import Hub
from chessclock.hall.mqtt import Publisher, Subscriber
from chessclock.hall.station import Station
from clockcore import hallmsg

pytestmark = pytest.mark.skipif(mosquitto_exe() is None, reason="no mosquitto: "
                                "make test-hall installs it")
KEY = bytes(range(32))
HALL = "open"


def until(pred, wait=3.0, what="condition"):
    deadline = time.monotonic() + wait
    while not pred():
        assert time.monotonic() < deadline, "timed out waiting for " + what
        time.sleep(0.02)


class Client:
    """A raw paho client (the attacker's, or a station's login used by hand)."""

    def __init__(self, broker, login=None):
        self.got = []
        self.result = None
        self.done = threading.Event()
        self.c = mqtt.Client(callback_api_version=mqtt.CallbackAPIVersion.VERSION2)
        if login:
            self.c.username_pw_set(*login)
        self.c.on_connect = self._on_connect
        self.c.on_message = lambda c, u, m: self.got.append((m.topic, m.payload))
        self.c.connect(*broker.address)
        self.c.loop_start()
        assert self.done.wait(3), "no CONNACK"

    def _on_connect(self, client, userdata, flags, reason, props):
        self.result = reason
        self.done.set()

    @property
    def refused(self):
        return self.result.is_failure

    def publish(self, topic, payload, retain=True):
        self.c.publish(topic, payload, qos=1, retain=retain).wait_for_publish(3)

    def stop(self):
        self.c.disconnect()
        self.c.loop_stop()


@pytest.fixture
def hall(tmp_path):
    broker = Broker(hall=HALL, stations=["hall-a", "hall-b"])
    hub = Hub()
    sub = Subscriber(broker.address, HALL, KEY, hub,
                     login=read_login(broker.login("page")))
    sub.start()
    clocks = {"p1": FakeClock("c1", key=KEY)}
    pub = Publisher(broker.address, HALL, "hall-a", KEY,
                    login=read_login(broker.login("station-hall-a")))
    pub.start()
    st = Station("hall-a", list(clocks), pub, interval=0.05, open_link=opener(clocks))
    st.start()
    try:
        until(lambda: "hall-a/c1" in hub.bodies(), 5, "the station's clock")
        yield {"broker": broker, "hub": hub, "station": st, "pub": pub, "clocks": clocks}
    finally:
        st.stop()
        pub.stop()
        sub.stop()
        broker.stop()


def test_no_login_no_entry(hall):
    broker = hall["broker"]
    anon = Client(broker)
    assert anon.refused                                   # anonymous: CONNACK refused
    anon.stop()
    wrong = Client(broker, ("station-hall-a", "not-the-password"))
    assert wrong.refused
    wrong.stop()


def test_a_login_reads_and_writes_only_what_its_acl_gives(hall):
    broker, hub = hall["broker"], hall["hub"]
    topic = hallmsg.clock_topic(HALL, "hall-a", "c1")
    b = Client(broker, read_login(broker.login("station-hall-b")))
    assert not b.refused
    b.c.subscribe("#")
    b.c.subscribe("$SYS/#")
    until(lambda: any(t == topic for t, _ in b.got), 3, "hall-b reads the hall")
    assert all(t.startswith("chessclock/1/open/") for t, _ in b.got)
    # hall-b may not write hall-a's clock: an empty retained message (removal) and a
    # signed message under hall-b's login are both dropped by the broker
    b.publish(topic, b"")
    body = dict(hub.bodies()["hall-a/c1"], wm=40, seq=10 ** 6, gone=1)
    body.pop("plies")
    body.pop("v")
    b.publish(topic, hallmsg.encode(KEY, topic, body))
    time.sleep(0.5)
    assert "hall-a/c1" in hub.bodies() and hub.bodies()["hall-a/c1"]["wm"] == 0
    b.stop()
    page = Client(broker, read_login(broker.login("page")))
    page.c.subscribe(topic)
    page.publish(topic, b"")                              # the page only reads
    time.sleep(0.3)
    assert "hall-a/c1" in hub.bodies()
    page.stop()


def test_an_empty_retained_message_removes_nothing(hall):
    broker, hub = hall["broker"], hall["hub"]
    topic = hallmsg.clock_topic(HALL, "hall-a", "c1")
    a = Client(broker, read_login(broker.login("station-hall-a")))   # even its own login
    a.publish(topic, b"")
    time.sleep(0.4)
    assert "hall-a/c1" in hub.bodies()
    a.stop()
    # the station lets the clock go: its signed "gone" removes it, and a page that
    # starts afterwards does not show it either
    w = hall["station"].workers[0]
    hall["pub"].forget(w.tracker)
    w.stop()
    w.join(3)
    until(lambda: "hall-a/c1" not in hub.bodies(), 3, "the signed removal")
    late = Hub()
    sub = Subscriber(broker.address, HALL, KEY, late, name="late",
                     login=read_login(broker.login("page")))
    sub.start()
    try:
        until(lambda: "hall-a" in late.stations, 3, "the late page's first messages")
        time.sleep(0.3)
        assert "hall-a/c1" not in late.bodies()
    finally:
        sub.stop()


def test_an_old_signed_flag_replayed_is_refused(hall):
    broker, hub, clocks = hall["broker"], hall["hub"], hall["clocks"]
    topic = hallmsg.clock_topic(HALL, "hall-a", "c1")
    spy = Client(broker, read_login(broker.login("station-hall-b")))   # an insider reads
    spy.c.subscribe(topic)
    with clocks["p1"].lock:   # White's flag falls: the message to replay later
        clocks["p1"].clock.main[0] = 0
    until(lambda: hub.bodies()["hall-a/c1"]["fo"] == "w", 3, "the flag")
    until(lambda: any(b"\"fo\": \"w\"" in p for _, p in spy.got), 3, "a flag message")
    flagged = [p for _, p in spy.got if b"\"fo\": \"w\"" in p][0]
    spy.stop()
    w = hall["station"].workers[0]
    hall["pub"].forget(w.tracker)                          # the clock leaves the hall
    w.stop()
    w.join(3)
    until(lambda: "hall-a/c1" not in hub.bodies(), 3, "the removal")
    assert not hub.view()[2]                               # its flag went with it
    refused = hub.refused
    # the station's own login (stolen) replays the old signed flag: refused, not kept
    a = Client(broker, read_login(broker.login("station-hall-a")))
    a.publish(topic, flagged)
    until(lambda: hub.refused > refused, 3, "the replay refused")
    assert "hall-a/c1" not in hub.bodies() and not hub.view()[2]
    a.stop()


def test_write_broker_files_run_mosquitto(tmp_path):
    from chessclock.hall.broker import free_port
    d = tmp_path / "brk"
    port = free_port()
    env = dict(os.environ)
    r = subprocess.run([os.path.join(os.path.dirname(os.sys.executable), "chessclock"),
                        "hall", "--write-broker", str(d), "--stations", "s1,s2",
                        "--broker", "127.0.0.1:%d" % port, "--hall", HALL],
                       capture_output=True, text=True, env=env, timeout=30)
    assert r.returncode == 0, r.stderr
    assert {"mosquitto.conf", "passwd", "acl", "station-s1.login", "station-s2.login",
            "page.login"} <= set(os.listdir(d))
    assert oct(os.stat(d / "passwd").st_mode & 0o777) == "0o600"
    first = json.loads((d / "station-s1.login").read_text())["password"]
    subprocess.run([os.path.join(os.path.dirname(os.sys.executable), "chessclock"), "hall",
                    "--write-broker", str(d), "--stations", "s1,s2,s3",
                    "--broker", "127.0.0.1:%d" % port, "--hall", HALL],
                   capture_output=True, text=True, timeout=30, check=True)
    assert json.loads((d / "station-s1.login").read_text())["password"] == first  # kept
    proc = subprocess.Popen([mosquitto_exe(), "-c", str(d / "mosquitto.conf")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        b = Broker.__new__(Broker)
        b.host, b.port, b.proc = "127.0.0.1", port, proc
        b._wait()
        ok = Client(b, read_login(str(d / "station-s3.login")))
        assert not ok.refused                             # mosquitto takes the $7$ hash
        ok.stop()
        assert Client(b, ("station-s3", "x")).refused
    finally:
        proc.terminate()
        proc.wait(5)


def test_a_station_that_vanishes_is_shown_gone_by_its_will(hall):
    import socket
    broker, hub = hall["broker"], hall["hub"]
    pub = Publisher(broker.address, HALL, "hall-b", KEY,
                    login=read_login(broker.login("station-hall-b")))
    pub.start()
    until(lambda: hub.stations.get("hall-b", {}).get("up") == 1, 3, "hall-b up")
    pub.client.loop_stop()                                 # no clean goodbye: the cable
    pub.client.socket().shutdown(socket.SHUT_RDWR)
    until(lambda: hub.stations["hall-b"]["up"] == 0, 3, "the broker's will taken")
    pub.client.socket().close()
