# The hall message: one clock's state as a station (a laptop with USB clocks, or a Wi-Fi
# clock itself) publishes it to the MQTT broker, and as the hall page and the broadcast
# read it. Portable: the host (chessclock.hall) and the firmware (clockapp.hallpub) import
# this very module, as they do clockcore.protocol. Full description in docs/HALL.md.
#
#   topic    chessclock/1/HALL/clock/STATION/CLOCK          (retained)
#            chessclock/1/HALL/station/STATION              (retained; the broker's will)
#   payload  BODY " mac=" HEX64
#   BODY     a JSON object, "v": 1 first; HEX64 = hex HMAC-SHA256(hall key, TOPIC " " BODY)
#
# Signed the way the serial link signs a request (clockcore.protocol.hmac_sha256, the key
# a 32-byte key file as `chessclock key new` makes): the topic is covered, so a message
# cannot be replayed on another clock's topic; "sid" (a random session id) and "seq" (+1 a
# message) let the reader drop a replayed message of the same session.

import binascii
import json

from clockcore import const
from clockcore.protocol import equal, hmac_sha256

VERSION = const(1)
ROOT = "chessclock/1"
MAC_SEP = b" mac="
MAX_PAYLOAD = const(1024)   # a clock's message is ~300 bytes; anything bigger is refused


def clock_topic(hall, station, clock):
    return "%s/%s/clock/%s/%s" % (ROOT, hall, station, clock)


def station_topic(hall, station):
    return "%s/%s/station/%s" % (ROOT, hall, station)


def name_ok(name):
    """A topic level: letters, digits, '-', '_', '.', 1..64 characters (no MQTT wildcard,
    no '/')."""
    if not 0 < len(name) <= 64:
        return False
    for c in name:
        if not (c.isalpha() or c.isdigit() or c in "-_."):
            return False
    return True


def safe_name(name):
    """A clock id or device path as a topic level ('/dev/pts/3' -> 'dev_pts_3')."""
    out = ""
    for c in name:
        out += c if (c.isalpha() or c.isdigit() or c in "-_.") else "_"
    out = out.strip("_")[:64]
    return out or "clock"


def mac_hex(key, topic, body):
    if isinstance(topic, str):
        topic = topic.encode()
    return binascii.hexlify(hmac_sha256(key, topic + b" " + body))


def sign(key, topic, body):
    """The payload for body (bytes: the JSON text) on topic."""
    return body + MAC_SEP + mac_hex(key, topic, body)


def encode(key, topic, fields):
    """fields (a dict, without "v") -> payload bytes."""
    d = {"v": VERSION}
    d.update(fields)
    return sign(key, topic, json.dumps(d).encode())


def decode(key, topic, payload):
    """payload bytes -> the body dict; ValueError saying why it is refused."""
    if len(payload) > MAX_PAYLOAD:
        raise ValueError("message over %d bytes" % MAX_PAYLOAD)
    i = payload.rfind(MAC_SEP)
    if i < 0:
        raise ValueError("not signed")
    body = payload[:i]
    mac = payload[i + len(MAC_SEP):]
    if len(mac) != 64 or not equal(mac_hex(key, topic, body), mac.lower()):
        raise ValueError("wrong mac: not the hall's key, or another topic")
    try:
        d = json.loads(body)
    except ValueError:
        raise ValueError("body is not JSON") from None
    if not isinstance(d, dict) or d.get("v") != VERSION:
        raise ValueError("not a version %d message" % VERSION)
    return d
