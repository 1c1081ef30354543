"""Beyond one laptop: stations publish their clocks to an MQTT broker (Mosquitto), the
hall's hub reads every station from it. Topics and the signed message: docs/HALL.md and
clockcore/hallmsg.py. paho-mqtt runs the network in its own thread and reconnects by
itself; a station that loses the broker keeps polling its clocks and sends their state
again (retained) once it is back.
"""

import os
import sys
import threading
import time
from typing import Any

import paho.mqtt.client as mqtt

from clockcore import hallmsg

KEEPALIVE_S = 10


def parse_broker(text: str) -> tuple[str, int]:
    """'HOST[:PORT]' -> (host, port); ValueError saying what is wrong."""
    host, _, port = text.rpartition(":") if ":" in text else (text, "", "1883")
    if not host:
        raise ValueError("--broker: give HOST or HOST:PORT, e.g. 127.0.0.1:1883")
    try:
        p = int(port)
    except ValueError:
        raise ValueError("--broker: %r is not a port number" % port) from None
    return host, p


def _client(name: str, login: Any = None, ca: Any = None) -> Any:
    """A paho client; login (user, password) for the broker (docs/HALL.md: each station
    and the page log in), ca a CA file: TLS to the broker, its certificate checked."""
    c = mqtt.Client(callback_api_version=mqtt.CallbackAPIVersion.VERSION2, client_id=name,
                    clean_session=True)
    c.reconnect_delay_set(min_delay=1, max_delay=10)
    if login is not None:
        c.username_pw_set(*login)
    if ca:
        c.tls_set(ca_certs=ca)
    return c


def _now_ms() -> int:
    return int(time.time() * 1000)


class Publisher:
    """A station's sink: each clock's message, signed, retained on its topic."""

    def __init__(self, broker: Any, hall: str, station: str, key: Any, url: str = "",
                 login: Any = None, ca: Any = None) -> None:
        self.hall, self.station, self.key = hall, station, key
        self.topic = hallmsg.station_topic(hall, station)
        self.seq = 0
        self.sid = os.urandom(4).hex()
        self.url = url
        self.client = _client("station-%s-%s" % (hall, station), login, ca)
        # the broker publishes this when the station vanishes (signed now: it is fixed)
        self.client.will_set(self.topic, self._presence(0), qos=1, retain=True)
        self.client.on_connect = self._on_connect
        self.host, self.port = broker
        self.connected = threading.Event()

    def _presence(self, up: int) -> Any:
        self.seq += 1
        return hallmsg.encode(self.key, self.topic, {"st": self.station, "up": up,
                                                     "url": self.url, "sid": self.sid,
                                                     "seq": self.seq, "at": _now_ms()})

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if not reason.is_failure:
            client.publish(self.topic, self._presence(1), qos=1, retain=True)
            self.connected.set()

    def start(self) -> None:
        self.client.connect_async(self.host, self.port, KEEPALIVE_S)
        self.client.loop_start()

    def stop(self) -> None:
        self.client.publish(self.topic, self._presence(0), qos=1, retain=True)
        self.client.disconnect()
        self.client.loop_stop()

    def publish(self, tracker: Any) -> None:
        topic = hallmsg.clock_topic(self.hall, self.station, tracker.clock)
        self.client.publish(topic, hallmsg.encode(self.key, topic, tracker.message()),
                            qos=0, retain=True)

    def forget(self, tracker: Any) -> None:
        """The clock is gone from this station: a signed "gone" message, retained, takes
        the place of its state (a reader drops the clock on it, and on nothing unsigned)."""
        topic = hallmsg.clock_topic(self.hall, self.station, tracker.clock)
        body = tracker.message()
        body.update({"gone": 1, "at": _now_ms()})
        self.client.publish(topic, hallmsg.encode(self.key, topic, body), qos=1, retain=True)


class Subscriber:
    """The hub's side: every station of the hall, from the broker, into the hub."""

    def __init__(self, broker: Any, hall: str, key: Any, hub: Any, name: str = "hall",
                 err: Any = sys.stderr, login: Any = None,
                 ca: Any = None) -> None:
        self.hall, self.key, self.hub, self.err = hall, key, hub, err
        self.prefix = "%s/%s/" % (hallmsg.ROOT, hall)
        self.client = _client("%s-%s" % (name, hall), login, ca)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.host, self.port = broker
        self.connected = threading.Event()
        self.warned = set()

    def start(self) -> None:
        self.client.connect_async(self.host, self.port, KEEPALIVE_S)
        self.client.loop_start()

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if not reason.is_failure:
            client.subscribe(self.prefix + "#", qos=0)
            self.connected.set()

    def _on_message(self, client: str, userdata: Any, msg: Any) -> None:
        parts = msg.topic[len(self.prefix):].split("/")
        if not msg.payload:   # a retained message cleared: removes nothing (unsigned)
            return
        try:
            if len(parts) == 3 and parts[0] == "clock":
                body = hallmsg.decode(self.key, msg.topic, msg.payload)
                if body.get("st") != parts[1] or body.get("clk") != parts[2]:
                    raise ValueError("body names another clock than its topic")
                if not self.hub.put(body):
                    raise ValueError("a replay: not newer than the last message taken")
            elif len(parts) == 2 and parts[0] == "station":
                body = hallmsg.decode(self.key, msg.topic, msg.payload)
                if body.get("st") != parts[1]:
                    raise ValueError("body names another station than its topic")
                if not self.hub.put_station(parts[1], body):
                    raise ValueError("a replay: not newer than the last message taken")
        except ValueError as e:
            if "a replay" not in str(e):
                self.hub.refused += 1   # the hub counted its own refusals
            if msg.topic not in self.warned and len(self.warned) < 1000:
                # once a topic: a flood must not flood us
                self.warned.add(msg.topic)
                self.err.write("chessclock hall: refused a message on %s: %s\n"
                               % (msg.topic, e))
