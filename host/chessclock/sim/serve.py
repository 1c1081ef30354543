"""The simulator board on a pseudo-terminal: the firmware app (under CPython or the
MicroPython unix port) runs firmware/boards/sim_serve.py with the pty's master as its
stdin/stdout; the host tools open the pty's device path with pyserial like any port."""

import os
import shutil
import subprocess
import sys
import tty

from chessclock import sources


def micropython_exe() -> str | None:
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    return exe if os.path.exists(exe) else shutil.which("micropython")


class SimServer:
    """A running simulator clock: `.path` is its serial device; stop() ends it."""

    def __init__(self, storage: str, clock_id: str = "sim", micropython: bool = False) -> None:
        firmware = str(sources.firmware_dir())  # the checkout's firmware/, or the installed copy
        script = os.path.join(firmware, "boards", "sim_serve.py")
        os.makedirs(storage, exist_ok=True)
        master, slave = os.openpty()
        tty.setraw(slave)  # raw before the device writes: no echo, no newline translation
        self.master = master
        self.slave = slave  # kept open: the master keeps working when a client closes
        self.path = os.ttyname(slave)
        env = dict(os.environ)
        if micropython:
            exe = micropython_exe()
            if exe is None:
                raise FileNotFoundError("micropython (the unix port) is not installed")
            env["MICROPYPATH"] = ".frozen:" + firmware
            cmd = [exe, script, storage, clock_id]
        else:
            env["PYTHONPATH"] = firmware
            cmd = [sys.executable, script, storage, clock_id]
        self.proc = subprocess.Popen(cmd, stdin=master, stdout=master, env=env,
                                     close_fds=True)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass

    def __enter__(self) -> "SimServer":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


# ---- where `chessclock ports` and `--all` find running sim-serve clocks ----------------
def registry_dir() -> str:
    from chessclock.link.transport import config_dir
    return os.path.join(config_dir(), "sim-serve")


def register(path: str, clock_id: str) -> str:
    d = registry_dir()
    os.makedirs(d, exist_ok=True)
    f = os.path.join(d, "%d" % os.getpid())
    with open(f, "w") as out:
        out.write("%s %s\n" % (path, clock_id))
    return f


def running() -> list[tuple[str, str]]:
    """[(device path, clock id)] of the sim-serve clocks running on this computer (stale
    entries, whose process is gone, are removed)."""
    return [(path, clock_id) for path, clock_id, _ in running_with_pid()]


def running_with_pid() -> list[tuple[str, str, int]]:
    """[(device path, clock id, process id)] of the sim-serve clocks running on this
    computer, as running()."""
    out = []
    d = registry_dir()
    try:
        names = sorted(os.listdir(d))
    except OSError:
        return out
    for name in names:
        f = os.path.join(d, name)
        try:
            pid = int(name)
            os.kill(pid, 0)
            with open(f) as fh:
                path, clock_id = fh.read().split(None, 1)
        except (ValueError, OSError):
            try:
                os.remove(f)
            except OSError:
                pass
            continue
        if os.path.exists(path):
            out.append((path, clock_id.strip(), pid))
    return out


def simulated(port: str) -> bool:
    """True when `port` is a simulated clock: one a `chessclock sim-serve` on this computer
    registered, or a pseudo-terminal (what sim-serve serves on; a clock on USB is never
    one)."""
    if port.startswith("/dev/pts/"):
        return True
    real = os.path.realpath(port)
    return any(os.path.realpath(p) == real for p, _, _ in running_with_pid())

