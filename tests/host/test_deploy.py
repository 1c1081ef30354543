"""`chessclock deploy` end to end against the MicroPython unix port as the "board".

The unix port runs its REPL (raw REPL included) on a pseudo-terminal: the interpreter gets
the master side, mpremote opens the slave (/dev/pts/N) as if it were a USB serial port.
Its current folder is the board's filesystem. Everything mpremote does to a board (raw REPL,
file writes in chunks, hashlib.sha256 on the device, os.ilistdir, os.remove) happens for
real; only a soft reset is skipped (--no-reset: the unix port has none).
"""

import os
import subprocess
import sys
import time
import tty
from pathlib import Path

import pytest
from cliutil import run_cli

from chessclock.board import deploy as deploy

MICROPYTHON = Path(sys.executable).parent / "micropython"
BOARD = "pico-tm1637"


@pytest.fixture(scope="module")
def build(tmp_path_factory):
    out = tmp_path_factory.mktemp("build") / BOARD
    deploy.build(BOARD, out)
    return out


@pytest.fixture
def device(tmp_path):
    """(filesystem folder, serial port name) of a unix-port MicroPython on a pty."""
    if not MICROPYTHON.exists():
        pytest.skip("no MicroPython unix port in the venv")
    try:
        master, slave = os.openpty()
    except OSError as e:
        pytest.skip("no pseudo-terminals here: %s" % e)
    tty.setraw(slave)  # before the interpreter writes its banner: no echo, no CR/LF mangling
    fs = tmp_path / "device"
    fs.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "MICROPYPATH"}  # sys.path[0] == ""
    proc = subprocess.Popen([str(MICROPYTHON)], stdin=master, stdout=master, stderr=master,
                            cwd=fs, env=env, start_new_session=True)
    os.close(master)
    # Our slave fd stays open for the whole test: were the last one closed between two
    # mpremote sessions, the interpreter would read EOF and exit.
    try:
        yield fs, os.ttyname(slave)
    finally:
        proc.kill()
        proc.wait(timeout=10)
        os.close(slave)


def device_files(fs):
    return {p.relative_to(fs).as_posix(): p.read_bytes() for p in fs.rglob("*") if p.is_file()}


def test_deploy_copies_cleans_and_verifies_on_the_device(build, device):
    fs, port = device
    # What an older firmware and the clock itself left on the board:
    (fs / "clockcore").mkdir()
    (fs / "clockcore" / "engine.py").write_text("raise ImportError('old source')\n")  # shadow
    (fs / "clockcore" / "retired.mpy").write_bytes(b"M\x06old")                       # stale
    (fs / "boards").mkdir()
    (fs / "boards" / "sim.mpy").write_bytes(b"M\x06sim")                              # stale
    (fs / "settings.json").write_text('{"sound": false}')                             # user's
    (fs / "log").mkdir()
    (fs / "log" / "game1.bin").write_bytes(b"\x01\x02")                               # user's

    t0 = time.monotonic()
    code, out, err = run_cli(["deploy", "--board", BOARD, "--port", port, "--build",
                              str(build), "--no-reset"])
    assert code == 0, out + err
    manifest = deploy.read_manifest(build / deploy.MANIFEST)
    assert "verified: %d files on the device match MANIFEST.sha256" % len(manifest) in out
    assert "delete clockcore/engine.py (it would be imported instead of" in out
    assert "delete clockcore/retired.mpy (not in this build)" in out
    assert "delete boards/sim.mpy (not in this build)" in out

    files = device_files(fs)
    for rel in manifest:
        assert files[rel] == (build / rel).read_bytes(), rel
    assert files["MANIFEST.sha256"] == (build / deploy.MANIFEST).read_bytes()
    for gone in ("clockcore/engine.py", "clockcore/retired.mpy", "boards/sim.mpy"):
        assert gone not in files
    assert files["settings.json"] == b'{"sound": false}'
    assert files["log/game1.bin"] == b"\x01\x02"
    assert time.monotonic() - t0 < 120

    # The deployed .mpy files import on the "board" itself (from its current folder).
    t = deploy.connect(port, reset=False)
    try:
        got = t.exec("import clockcore.engine, clockapp.board, boards.mcu\n"
                     "print(boards.mcu.SCHEMA, clockapp.board.BTN_MINUS)")
    finally:
        t.exit_raw_repl()
        t.close()
    assert got.split() == [b"1", b"8"]


def test_verify_reports_each_missing_or_changed_file_then_deploy_repairs(build, device):
    fs, port = device
    argv = ["deploy", "--board", BOARD, "--port", port, "--build", str(build), "--no-reset"]
    code, out, err = run_cli(argv)
    assert code == 0, out + err

    app = fs / "clockapp" / "app.mpy"
    app.write_bytes(app.read_bytes()[:-1] + b"\x00")      # one byte flipped on the flash
    (fs / "clockcore" / "ticks.mpy").unlink()              # a file that never landed
    code, out, err = run_cli(argv + ["--verify-only"])
    assert code == deploy.EXIT_MISMATCH == 4
    assert "2 of" in err and "do not match MANIFEST.sha256" in err
    assert "clockapp/app.mpy: sha256 on the device" in err
    assert "clockcore/ticks.mpy: missing on the device" in err

    code, out, err = run_cli(argv)
    assert code == 0, out + err
    assert "2 of " in out and "files copied" in out       # only what differed
    assert "copy clockapp/app.mpy" in out and "copy clockcore/ticks.mpy" in out
    assert (fs / "clockapp" / "app.mpy").read_bytes() == (build / "clockapp/app.mpy").read_bytes()

    code, out, err = run_cli(argv + ["--verify-only"])
    assert code == 0 and "verified" in out, err


def test_deploy_input_and_device_errors(build, tmp_path):
    code, out, err = run_cli(["deploy", "--board", BOARD, "--port", "/dev/null",
                              "--build", str(tmp_path / "none")])
    assert code == 2 and "no build at" in err
    code, out, err = run_cli(["deploy", "--board", "esp32-tm1637", "--port", "/dev/null",
                              "--build", str(build)])
    assert code == 2 and "is a build for 'pico-tm1637', not 'esp32-tm1637'" in err
    code, out, err = run_cli(["deploy", "--board", BOARD, "--port",
                              str(tmp_path / "no-such-tty"), "--build", str(build)])
    assert code == 3 and "cannot open" in err


def test_a_build_edited_after_its_manifest_is_not_sent(build, tmp_path):
    import shutil
    copy = tmp_path / "b"
    shutil.copytree(build, copy)
    (copy / "board.json").write_text("{}")
    t = FakeTransport()
    with pytest.raises(deploy.DeployError) as e:
        deploy.deploy(t, copy, log=lambda s: None)
    assert e.value.code == 2 and "board.json" in str(e.value) and t.files == {}


def test_a_slow_command_on_the_device_is_waited_for(monkeypatch):
    # mpremote waits 10 s for a command's end; a littlefs compaction on a slow flash took
    # longer and stopped a deploy half done. The deploy's transport waits EXEC_WAIT_S.
    from mpremote.transport_serial import SerialTransport
    seen = []
    monkeypatch.setattr(SerialTransport, "__init__", lambda self, *a, **k: None)
    monkeypatch.setattr(SerialTransport, "exec_raw",
                        lambda self, command, timeout=10, data_consumer=None:
                        seen.append(timeout) or (b"", b""))
    t = deploy.serial_transport("/dev/null")
    assert t.exec("f.close()") == b""          # mpremote's exec, as fs_writefile calls it
    assert seen == [deploy.EXEC_WAIT_S] and deploy.EXEC_WAIT_S >= 60


# ---- the same logic through a fake transport (no interpreter) ------------------------


class FakeTransport:
    """The part of mpremote's Transport that deploy uses, over a dict."""

    def __init__(self, corrupt=None):
        self.files = {}
        self.dirs = set()
        self.corrupt = corrupt or set()

    def fs_hashfile(self, path, algo):
        import hashlib
        if path not in self.files:
            raise OSError(2, path)
        return hashlib.new(algo, self.files[path]).digest()

    def fs_writefile(self, path, data):
        self.files[path] = data + (b"!" if path in self.corrupt else b"")

    def fs_isdir(self, path):
        return path in self.dirs

    def fs_mkdir(self, path):
        self.dirs.add(path)

    def fs_exists(self, path):
        return path in self.files or path in self.dirs

    def fs_rmfile(self, path):
        del self.files[path]

    def fs_listdir(self, folder):
        raise OSError(2, folder)


def test_fake_transport_write_that_does_not_stick_is_a_mismatch(build):
    t = FakeTransport(corrupt={"clockcore/engine.mpy"})
    with pytest.raises(deploy.DeployError) as e:
        deploy.deploy(t, build, log=lambda s: None)
    assert e.value.code == 4
    assert "1 of" in str(e.value) and "clockcore/engine.mpy: sha256 on the device" in str(e.value)
    assert "MANIFEST.sha256" not in t.files   # not marked as deployed


def test_fake_transport_device_failure_is_exit_3(build):
    class Broken(FakeTransport):
        def fs_writefile(self, path, data):
            raise OSError(28, "ENOSPC")

    with pytest.raises(deploy.DeployError) as e:
        deploy.deploy(Broken(), build, log=lambda s: None)
    assert e.value.code == 3 and "ENOSPC" in str(e.value)
