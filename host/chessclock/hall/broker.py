"""Mosquitto (Debian's package) as the hall's embedded broker, on loopback unless told:
the tests, the bench and `make hall` start it here.

    python -m chessclock.hall.broker [--port 1883] [--listen 127.0.0.1]
"""

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time


def mosquitto_exe():
    return shutil.which("mosquitto") or next(
        (p for p in ("/usr/sbin/mosquitto", "/usr/bin/mosquitto") if os.path.exists(p)), None)


def free_port(host="127.0.0.1"):
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


class Broker:
    """A mosquitto process: `.port`; stop() ends it. Anonymous clients on `host` only:
    the hall's messages are signed (docs/HALL.md), the broker only carries them."""

    def __init__(self, port=0, host="127.0.0.1"):
        exe = mosquitto_exe()
        if exe is None:
            raise FileNotFoundError("mosquitto is not installed (apt-get install mosquitto; "
                                    "`make test-hall` does it)")
        self.host = host
        self.port = port or free_port(host)
        self.dir = tempfile.mkdtemp(prefix="chessclock-broker-")
        conf = os.path.join(self.dir, "mosquitto.conf")
        with open(conf, "w") as f:
            f.write("listener %d %s\nallow_anonymous true\npersistence false\n"
                    "max_queued_messages 10000\n" % (self.port, host))
        self.proc = subprocess.Popen([exe, "-c", conf], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE)
        self._wait()

    def _wait(self, wait=5.0):
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
    def address(self):
        return (self.host, self.port)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def main(argv=None):
    import argparse
    p = argparse.ArgumentParser(prog="python -m chessclock.hall.broker",
                                description="Mosquitto for the hall, until Ctrl-C")
    p.add_argument("--port", type=int, default=1883)
    p.add_argument("--listen", default="127.0.0.1")
    a = p.parse_args(argv)
    try:
        b = Broker(a.port, a.listen)
    except (FileNotFoundError, RuntimeError) as e:
        sys.stderr.write("chessclock hall broker: %s\n" % e)
        return 2
    sys.stderr.write("mosquitto on %s:%d (Ctrl-C stops it)\n" % b.address)
    try:
        b.proc.wait()
    except KeyboardInterrupt:
        pass
    finally:
        b.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
