# Optional: a Wi-Fi clock (ESP32) as its own hall station. It publishes its state to the
# hall's MQTT broker in the hall message (clockcore/hallmsg.py, docs/HALL.md), signed with
# the hall key, and never blocks the clock's loop:
#
# - MqttPub is a minimal MQTT 3.1.1 client that only publishes (QoS 0, retained) on a
#   non-blocking socket, one bounded step a loop pass (connect, CONNACK, publish, ping),
#   reconnecting with a backoff. micropython-lib's umqtt.simple connects and writes with
#   blocking calls (a broker that is away would stop the clock for seconds), and it could
#   not be installed here (`pip download micropython-umqtt.simple`: an sdist pip refuses;
#   mip needs the network), so the 100 lines it takes are here.
# - HallStation turns the clock into messages: a ply's clock time is taken in the pass the
#   press shows up (exact), a message goes out when something changed (at most every
#   250 ms) and every 2 s anyway. Building a message allocates; it is done after the
#   displays and the link, never on a press or a tick.
# - run(board) is main.py's entry when a `hall.json` is on the flash (copied with mpremote:
#   {"broker": IP, "port": 1883, "hall", "station", "key": 64 hex, "ssid", "password",
#   "mqtt_user", "mqtt_password"}: the last two the station's login file that
#   `chessclock hall --write-broker` writes):
#   the clock joins the hall; without one main.py runs the clock as before.
#
# The broker is given as an IP address: a name lookup could block.

import struct

from clockcore import const, hallmsg
from clockcore import engine as E
from clockcore.events import RESULTS as _RESULTS

DOWN = const(0)
CONNECTING = const(1)
WAIT_ACK = const(2)
UP = const(3)
CONNECT_MS = const(5000)     # a connect (TCP and CONNACK) gets this long
BACKOFF_MIN_MS = const(1000)
BACKOFF_MAX_MS = const(30000)
KEEPALIVE_S = const(30)
NET_EVERY_MS = const(20)     # the network is looked at this often, not every pass
SEND_EVERY_MS = const(250)
HEARTBEAT_MS = const(2000)
PLIES = const(8)


def _str(b):
    if isinstance(b, str):
        b = b.encode()
    return struct.pack("!H", len(b)) + b


def _packet(first, body):
    n = len(body)
    head = bytearray([first])
    while True:
        byte = n & 0x7F
        n >>= 7
        head.append(byte | 0x80 if n else byte)
        if not n:
            break
    return bytes(head) + body


def connect_packet(client_id, keepalive, will_topic=None, will=None, user=None,
                   password=None):
    flags = 0x02                                    # clean session
    payload = _str(client_id)
    if will_topic is not None:
        flags |= 0x04 | (1 << 3) | 0x20             # will, QoS 1, retained
        payload += _str(will_topic) + _str(will)
    if user is not None:                            # the hall's broker login (MQTT 3.1.4)
        flags |= 0x80
        payload += _str(user)
        if password is not None:
            flags |= 0x40
            payload += _str(password)
    return _packet(0x10, _str(b"MQTT") + bytes([4, flags]) + struct.pack("!H", keepalive)
                   + payload)


def publish_packet(topic, payload, retain=True):
    return _packet(0x31 if retain else 0x30, _str(topic) + payload)


def _elapsed(now, then):
    """now - then in ms (the app's time line does not wrap: ms since boot)."""
    return now - then


class MqttPub:
    """Publish-only MQTT 3.1.1 over a non-blocking socket; poll(now_ms) does one step."""

    def __init__(self, host, port, client_id, will_topic=None, will=None,
                 keepalive=KEEPALIVE_S, net_ok=None, user=None, password=None):
        self.host = host
        self.port = port
        self.client_id = client_id
        self.user = user                # the broker login (`chessclock hall --write-broker`)
        self.password = password
        self.will_topic = will_topic
        self.will = will
        self.keepalive = keepalive
        self.net_ok = net_ok            # e.g. the Wi-Fi is up; None: always
        self.sock = None
        self.poller = None
        self.state = DOWN
        self.out = b""                  # what is still to send of the current packet
        self.inbuf = b""
        self.retry_at = 0
        self.backoff = BACKOFF_MIN_MS
        self.since = 0                  # when the current state began
        self.rx_at = 0
        self.tx_at = 0
        self.net_at = -NET_EVERY_MS
        self.connects = 0               # successful connections (tests, the display)
        self.sent = 0

    @property
    def up(self):
        return self.state == UP

    def publish(self, topic, payload, retain=True):
        """Queue a message if the connection is up and the last one went out; False
        otherwise (a clock's state supersedes the previous one: the caller sends the
        newer state later, nothing piles up)."""
        if self.state != UP or self.out:
            return False
        self.out = publish_packet(topic, payload, retain)
        self.sent += 1
        return True

    def poll(self, now):
        if _elapsed(now, self.net_at) < NET_EVERY_MS:
            return
        self.net_at = now
        try:
            self._step(now)
        except OSError:
            self._drop(now)

    def _step(self, now):
        st = self.state
        if st == DOWN:
            if _elapsed(now, self.retry_at) >= 0 and (self.net_ok is None or self.net_ok()):
                self._open(now)
            return
        if st != UP and _elapsed(now, self.since) > CONNECT_MS:
            self._drop(now)
            return
        ev = self._events()
        if ev < 0:
            self._drop(now)
            return
        if st == CONNECTING:
            if ev & 4:                              # writable: the TCP connection is made
                self.out = connect_packet(self.client_id, self.keepalive, self.will_topic,
                                          self.will, self.user, self.password)
                self.state = WAIT_ACK
                self.since = now
                self.rx_at = now
            return
        if self.out and ev & 4:
            n = self.sock.send(self.out)
            if n:
                self.out = self.out[n:]
                self.tx_at = now
        if ev & 1:
            data = self.sock.recv(64)
            if not data:
                self._drop(now)                     # the broker closed the connection
                return
            self.rx_at = now
            self._read(data, now)
        if self.state == UP:
            if _elapsed(now, self.rx_at) > self.keepalive * 1500:
                self._drop(now)                     # no PINGRESP: the broker is gone
            elif not self.out and _elapsed(now, self.tx_at) >= self.keepalive * 500:
                self.out = b"\xc0\x00"              # PINGREQ
                self.tx_at = now

    def _events(self):
        """Bits of the socket's poll: 1 readable, 4 writable; -1 error or hung up."""
        import select
        ev = 0
        for entry in self.poller.poll(0):
            ev |= entry[1]
        if ev & (select.POLLERR | select.POLLHUP):
            return -1
        return (1 if ev & select.POLLIN else 0) | (4 if ev & select.POLLOUT else 0)

    def _open(self, now):
        import select
        socket = __import__("socket")   # a Wi-Fi port's (the Pico's stubs have none)
        addr = socket.getaddrinfo(self.host, self.port)[0][-1]
        s = socket.socket()
        s.setblocking(False)
        try:
            s.connect(addr)
        except OSError as e:
            import errno
            if e.args[0] not in (errno.EINPROGRESS, errno.EAGAIN):
                s.close()
                raise
        self.sock = s
        self.poller = select.poll()
        self.poller.register(s, select.POLLIN | select.POLLOUT)
        self.state = CONNECTING
        self.since = now
        self.out = b""
        self.inbuf = b""

    def _read(self, data, now):
        buf = self.inbuf + data
        while len(buf) >= 2:
            n = buf[1]                              # replies to us are short: one length byte
            if len(buf) < 2 + n:
                break
            kind = buf[0] >> 4
            if kind == 2:                           # CONNACK
                if n < 2 or buf[3] != 0:
                    raise OSError("connection refused by the broker")
                self.state = UP
                self.connects += 1
                self.backoff = BACKOFF_MIN_MS
                self.tx_at = now
            buf = buf[2 + n:]                       # PINGRESP and anything else: read past
        self.inbuf = buf

    def _drop(self, now):
        if self.sock is not None:
            try:
                self.sock.close()
            except OSError:
                pass
        self.sock = None
        self.poller = None
        self.state = DOWN
        self.out = b""
        self.retry_at = now + self.backoff
        self.backoff = min(self.backoff * 2, BACKOFF_MAX_MS)

    def close(self):
        self._drop(0)


def _random_hex(n):
    try:
        import os
        raw = os.urandom(n)
    except (ImportError, AttributeError, NotImplementedError, OSError):
        import random
        raw = bytes([random.getrandbits(8) for _ in range(n)])
    import binascii
    return binascii.hexlify(raw).decode()


class HallStation:
    """The clock of `app` in the hall: poll() after each loop pass."""

    def __init__(self, app, pub, key, hall, station, clock_id):
        self.app = app
        self.pub = pub
        self.key = key
        self.station = station
        self.clock_id = clock_id
        self.topic = hallmsg.clock_topic(hall, station, clock_id)
        self.sid = _random_hex(4)
        self.seq = 0
        self.sent_at = -HEARTBEAT_MS
        self.moves = [0, 0]
        self.ply_n = [0] * PLIES        # ring of the last plies: number, clock ms
        self.ply_clk = [0] * PLIES
        self.plies = 0
        self.cur = [0] * 10             # what a message shows, to see a change without
        self.last = [-1] * 10           # allocating
        self.connects = 0               # connections announced (station topic, up=1)
        self.pub.will_topic = hallmsg.station_topic(hall, station)
        self.pub.will = hallmsg.encode(key, self.pub.will_topic,
                                       {"st": station, "up": 0, "sid": self.sid, "seq": 0})

    def poll(self):
        app = self.app
        c = app.clock
        now = app.now
        for s in (E.WHITE, E.BLACK):    # every pass: a ply's clock exactly when it shows
            m = c.moves[s]
            if m != self.moves[s]:
                if c.state == E.IDLE or m < self.moves[s]:
                    self.plies = min(self.plies, c.moves[0] + c.moves[1])
                else:
                    i = self.plies % PLIES
                    self.plies += 1
                    self.ply_n[i] = self.plies
                    self.ply_clk[i] = c.main[s]
                self.moves[s] = m
        pub = self.pub
        pub.poll(now)
        if not pub.up:
            return
        if self.connects != pub.connects:       # (re)connected: say the station is up
            self.seq += 1
            if pub.publish(pub.will_topic, hallmsg.encode(
                    self.key, pub.will_topic, {"st": self.station, "up": 1, "sid": self.sid,
                                               "seq": self.seq})):
                self.connects = pub.connects
            return
        if now - self.sent_at < SEND_EVERY_MS:
            return
        cur = self.cur
        cur[0] = c.state
        cur[1] = c.running()
        cur[2] = c.moves[0]
        cur[3] = c.moves[1]
        cur[4] = c.flag_at[0]
        cur[5] = c.flag_at[1]
        cur[6] = 1 if app.battery_low else 0
        cur[7] = c.main[0] if cur[1] != E.WHITE else 0
        cur[8] = c.main[1] if cur[1] != E.BLACK else 0
        cur[9] = self.plies
        same = True
        for i in range(10):
            if cur[i] != self.last[i]:
                same = False
        if same and now - self.sent_at < HEARTBEAT_MS:
            return
        if self.pub.publish(self.topic, self.message()):
            self.sent_at = now
            for i in range(10):
                self.last[i] = cur[i]

    def message(self):
        app = self.app
        c = app.clock
        run = c.running()
        wf, bf = c.flag_at[0], c.flag_at[1]
        order = ""
        if wf >= 0 and (bf < 0 or wf <= bf):
            order = "wb" if bf >= 0 else "w"
        elif bf >= 0:
            order = "bw" if wf >= 0 else "b"
        plies = []
        first = self.plies - PLIES if self.plies > PLIES else 0
        for k in range(first, self.plies):
            plies.append([k + 1, self.ply_clk[k % PLIES]])
        self.seq += 1
        wall = app.wall_s if getattr(app, "wall_s", 0) else 0
        m = {
            "clk": self.clock_id, "st": self.station, "port": "wifi",
            "s": E.STATE_NAMES[c.state], "run": "w" if run == E.WHITE else
            "b" if run == E.BLACK else "-", "w": c.main[0], "b": c.main[1], "t": app.now,
            "wm": c.moves[0], "bm": c.moves[1], "wf": wf, "bf": bf, "fo": order,
            "low": 1 if app.battery_low else 0, "bat": app.battery_mv, "soc": app.battery_pct,
            "ref": 0, "lw": 0, "tc": app.settings.spec, "up": 1, "log": "",
            "at": 0 if not wall else wall * 1000, "pl": plies, "sid": self.sid,
            "seq": self.seq, "dft": app.session.defaulted, "stf": app.session.result,
            "res": _RESULTS[app.session.game_result] if app.session.game_result > 0 else ""}
        p = app.settings.pairing
        if p:   # the round's pairing (`chessclock pairings push`): the page names the board
            m["bd"] = p[0]
            m["wn"] = p[2][:20]
            m["bn"] = p[3][:20]
        return hallmsg.encode(self.key, self.topic, m)


def wifi(ssid, password):
    """Start joining the Wi-Fi (returns at once); the function that says it is up."""
    try:
        network = __import__("network")  # the ESP32's (the Pico's stubs have none)
    except ImportError:     # the unix port: the host's network is there
        return None
    wlan = network.WLAN(network.STA_IF)
    wlan.active(True)
    if not wlan.isconnected():
        wlan.connect(ssid, password)
    return wlan.isconnected


def load_config(path):
    import json
    try:
        with open(path) as f:
            config = json.load(f)
    except (OSError, ValueError):
        return {}
    return config if isinstance(config, dict) else {}


def _text(value):
    """A login field of hall.json as bytes, or None (absent: an anonymous broker)."""
    if value is None:
        return None
    if not isinstance(value, str) or not value:
        raise ValueError("a broker login is text")
    return value.encode()


def station_of(app, config):
    """A HallStation from the hall.json settings, or None when they are incomplete."""
    import binascii
    try:
        key = binascii.unhexlify(config["key"])
        hall = config.get("hall", "hall")
        station = config.get("station") or app.board.clock_id()
        clock_id = hallmsg.safe_name(app.board.clock_id())
        pub = MqttPub(config["broker"], int(config.get("port", 1883)), "clock-" + clock_id,
                      net_ok=wifi(config["ssid"], config.get("password", ""))
                      if config.get("ssid") else None,
                      user=_text(config.get("mqtt_user")),
                      password=_text(config.get("mqtt_password")))
    except (KeyError, ValueError, TypeError):
        return None
    if len(key) != 32 or not hallmsg.name_ok(hall) or not hallmsg.name_ok(station):
        return None
    return HallStation(app, pub, key, hall, station, clock_id)


def with_station(app):
    """main.py's loop for a clock in the hall: the app's, and the station's step a pass
    (clockapp.app.run starts it, and starts it again after an error)."""
    board = app.board
    hall = station_of(app, load_config(board.storage_root() + "hall.json"))
    if hall is None:
        app.run()
        return
    while True:
        app.step()
        hall.poll()
        app.rest()
