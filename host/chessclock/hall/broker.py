"""Mosquitto (Debian's package) as the hall's broker, with a login for every station and
for the hall's page and an ACL that lets each station write its own topics only
(docs/HALL.md, "Who may talk to the broker"). `chessclock hall --write-broker DIR` writes
the files; this module runs mosquitto on them (the tests, the bench and `make hall` start
one here on loopback).

    python -m chessclock.hall.broker --dir DIR       # the broker `--write-broker DIR` set up

Files in DIR: `mosquitto.conf`, `passwd` (mosquitto's `$7$` format: PBKDF2-SHA512, as
`mosquitto_passwd` writes it), `acl`, and one login file a client (`USER.login`: JSON
{"user", "password"}, mode 0600) for `chessclock hall --broker-login FILE`.
"""

import base64
import hashlib
import json
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from typing import Any

from clockcore import hallmsg

PAGE_USER = "page"
PBKDF2_ROUNDS = 101       # mosquitto_passwd's own count for `$7$`


def mosquitto_exe() -> str | None:
    return shutil.which("mosquitto") or next(
        (p for p in ("/usr/sbin/mosquitto", "/usr/bin/mosquitto") if os.path.exists(p)), None)


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def station_user(station: str) -> str:
    return "station-" + station


def password_line(user: str, password: str, salt: bytes | None = None) -> str:
    """A line of mosquitto's password file: USER:$7$ROUNDS$SALT$HASH (base64)."""
    salt = salt or os.urandom(12)
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, PBKDF2_ROUNDS)
    return "%s:$7$%d$%s$%s" % (user, PBKDF2_ROUNDS, base64.b64encode(salt).decode(),
                                base64.b64encode(digest).decode())


def acl_text(hall: str, stations: Any) -> str:
    """Each station writes its own clocks and presence and reads the hall; the page reads
    the hall; nobody else anything (mosquitto denies what no line allows)."""
    root = "%s/%s" % (hallmsg.ROOT, hall)
    out = ["# chessclock hall %s: written by `chessclock hall --write-broker`" % hall, ""]
    for st in stations:
        out += ["user %s" % station_user(st),
                "topic write %s/clock/%s/+" % (root, st),
                "topic write %s/station/%s" % (root, st),
                "topic read %s/#" % root, ""]
    out += ["user %s" % PAGE_USER, "topic read %s/#" % root, ""]
    return "\n".join(out)


def read_login(path: str) -> tuple[str, str]:
    """(user, password) of a login file; ValueError saying what is wrong."""
    try:
        with open(path, encoding="utf-8") as f:
            d = json.load(f)
    except OSError as e:
        raise ValueError("cannot read %s (%s)" % (path, e.strerror)) from None
    except ValueError:
        raise ValueError("%s is not a broker login (JSON with user and password)"
                         % path) from None
    if not (isinstance(d, dict) and isinstance(d.get("user"), str)
            and isinstance(d.get("password"), str) and d["user"] and d["password"]):
        raise ValueError("%s is not a broker login (JSON with user and password)" % path)
    return d["user"], d["password"]


def _write_private(path: str, text: str) -> None:
    fd = os.open(path + ".tmp", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(path + ".tmp", path)


def write_config(folder: Any, hall: str, stations: Any, host: str = "127.0.0.1", port: Any = 1883,
                 certfile: Any = None,
                 keyfile: Any = None, anonymous: bool = False) -> dict[str, Any]:
    """The broker's files in folder (made 0700); a station's login already there keeps
    its password (re-run to add a station). Returns {user: login file path}."""
    for name in (hall, *stations):
        if not hallmsg.name_ok(name):
            raise ValueError("%r: hall and station names are 1-64 of letters, digits, "
                             "'-', '_', '.'" % name)
    if bool(certfile) != bool(keyfile):
        raise ValueError("TLS needs both the certificate and its key")
    os.makedirs(folder, mode=0o700, exist_ok=True)
    logins, lines = {}, []
    for user in [station_user(s) for s in stations] + [PAGE_USER]:
        path = os.path.join(folder, user + ".login")
        try:
            password = read_login(path)[1]
        except ValueError:
            password = secrets.token_urlsafe(24)
            _write_private(path, json.dumps({"user": user, "password": password}) + "\n")
        logins[user] = path
        lines.append(password_line(user, password))
    _write_private(os.path.join(folder, "passwd"), "\n".join(lines) + "\n")
    _write_private(os.path.join(folder, "acl"), acl_text(hall, stations))
    conf = ["# chessclock hall %s: `python -m chessclock.hall.broker --dir %s` runs it"
            % (hall, folder),
            "per_listener_settings false",
            # started by root, mosquitto becomes user `mosquitto`, who cannot read these
            # 0600 files: it stays the user who wrote them (no effect for anybody else)
            "user %s" % pwd.getpwuid(os.getuid()).pw_name,
            "listener %d %s" % (port, host),
            "allow_anonymous %s" % ("true" if anonymous else "false"),
            "password_file %s" % os.path.abspath(os.path.join(folder, "passwd")),
            "acl_file %s" % os.path.abspath(os.path.join(folder, "acl")),
            "persistence false", "max_queued_messages 10000"]
    if certfile:
        conf += ["certfile %s" % os.path.abspath(certfile),
                 "keyfile %s" % os.path.abspath(keyfile)]
    _write_private(os.path.join(folder, "mosquitto.conf"), "\n".join(conf) + "\n")
    return logins


class Broker:
    """A mosquitto process: `.port`; stop() ends it. With `hall` and `stations`, clients
    log in (`.login(user)` is the file of a user's login) and each station writes its own
    topics only; `anonymous=True` (tests of a Wi-Fi clock, whose publisher has no login)
    lets anyone in on `host`."""

    def __init__(self, port: Any = 0, host: str = "127.0.0.1", hall: str | None = None,
                 stations: Any = (), folder: Any = None,
                 anonymous: bool = False, certfile: Any = None, keyfile: Any = None) -> None:
        exe = mosquitto_exe()
        if exe is None:
            raise FileNotFoundError("mosquitto is not installed (apt-get install mosquitto; "
                                    "`make test-hall` does it)")
        self.host = host
        self.port = port or free_port(host)
        self.own_dir = folder is None
        self.dir = folder or tempfile.mkdtemp(prefix="chessclock-broker-")
        conf = os.path.join(self.dir, "mosquitto.conf")
        if hall is None:
            if not anonymous:
                raise ValueError("a broker without logins: give hall and stations")
            with open(conf, "w") as f:
                f.write("listener %d %s\nallow_anonymous true\npersistence false\n"
                        "max_queued_messages 10000\n" % (self.port, host))
            self.logins: dict[str, Any] = {}
        else:
            self.logins = write_config(self.dir, hall, stations, host, self.port,
                                       certfile, keyfile, anonymous)
        self.proc = subprocess.Popen([exe, "-c", conf], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE)
        self._wait()

    def login(self, user: str) -> str:
        return self.logins[user]

    def _wait(self, wait: float = 5.0) -> None:
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read() if self.proc.stderr else b""
                raise RuntimeError("mosquitto stopped: %s" % err.decode().strip()[-300:])
            try:
                with socket.create_connection((self.host, self.port), 0.2):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("mosquitto does not listen on %s:%d" % (self.host, self.port))

    @property
    def address(self) -> tuple[str, int]:
        return (self.host, self.port)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.own_dir:
            shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> int:
    import argparse
    p = argparse.ArgumentParser(prog="python -m chessclock.hall.broker",
                                description="mosquitto on the files of `chessclock hall "
                                "--write-broker DIR`, until Ctrl-C")
    p.add_argument("--dir", required=True, help="the folder `--write-broker` wrote")
    a = p.parse_args(argv)
    exe = mosquitto_exe()
    conf = os.path.join(a.dir, "mosquitto.conf")
    if exe is None:
        sys.stderr.write("chessclock hall broker: mosquitto is not installed\n")
        return 2
    if not os.path.exists(conf):
        sys.stderr.write("chessclock hall broker: no %s: write it with `chessclock hall "
                         "--write-broker %s --stations NAME,...`\n" % (conf, a.dir))
        return 2
    proc = subprocess.Popen([exe, "-c", conf])
    sys.stderr.write("mosquitto on %s (Ctrl-C stops it)\n" % conf)
    try:
        return proc.wait()
    except KeyboardInterrupt:
        proc.terminate()
        proc.wait(5)
        return 0


if __name__ == "__main__":
    sys.exit(main())
