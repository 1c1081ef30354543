"""The adjourned-game file: what `chessclock adjourn export` saves from the sealing clock
and `adjourn resume` loads into a clock at the next session (docs/ADJOURNMENT.md).

JSON text. `snapshot` is the clock's sealed snapshot (base64 of clockapp.gamestate bytes:
both times, counters, stages, who is to move, the sealer, the session, the sealed move's
hash), `sha256` its SHA-256, which is also in the sealing clock's log (record 50,
`snapshot_sha256`) and will be in the log of the clock that loads it (record 51). The
other fields are a readable copy for the arbiter; read() refuses a file where they do not
agree with the snapshot, or where the snapshot does not match its hash (nothing is loaded
from a changed file).
"""

import base64
import hashlib
import json
import os
import sys
from typing import Any

from chessclock import sources
from chessclock.errors import InputError
from clockcore import engine as E

# The snapshot is the firmware's own format (clockapp/gamestate.py, clockapp/seal.py), read
# from the firmware's sources as `chessclock sim` does (clockapp is not a host package): the
# checkout's firmware/ or the copy an installed wheel carries (chessclock/sources.py).
_FIRMWARE = str(sources.firmware_dir())
if _FIRMWARE not in sys.path:
    sys.path.append(_FIRMWARE)
from clockapp import gamestate  # noqa: E402
from clockapp import seal as S  # noqa: E402

FORMAT = "chessclock-adjourned 1"


class AdjournError(InputError):
    """A file or an argument that cannot be used: one line saying why."""


def salted_hash(move: str, salt: str) -> str:
    """What the clock keeps of a sealed move typed on the host: sha256 of "SALT MOVE"
    (the salt, written on the envelope, makes a guess of the move useless)."""
    return "sha256:" + hashlib.sha256(("%s %s" % (salt, move.strip())).encode()).hexdigest()


def summary(data: bytes) -> dict[str, Any]:
    """The readable fields of a snapshot's bytes (raises AdjournError)."""
    try:
        clock, meta = gamestate.decode(data)
    except ValueError as e:
        raise AdjournError("the snapshot is not a clock's game state: %s" % e) from None
    seal = meta.get("seal")
    if clock.state != E.PAUSED or not isinstance(seal, list) or len(seal) != 5 \
            or seal[0] != S.SEALED or seal[1] not in (0, 1):
        raise AdjournError("the snapshot is not an adjourned game (no sealed move in it)")
    out = {"sealer": E.SIDE_NAMES[seal[1]], "session": seal[4],
           "to_move": E.SIDE_NAMES[clock.turn], "spec": meta.get("spec", ""),
           "sealed_move": meta.get("seal_move", ""), "clock": meta.get("clock", ""),
           "seal_seq": meta.get("seal_seq", -1)}
    for s, name in ((0, "white"), (1, "black")):
        out[name + "_ms"] = clock.main[s]
        out[name + "_moves"] = clock.moves[s]
        out[name + "_stage"] = clock.stage[s] + 1
        out[name + "_stages"] = len(clock.stages[s])
    return out


def to_file(data: bytes) -> str:
    """The file's text for a snapshot's bytes."""
    d = {"format": FORMAT, "sha256": hashlib.sha256(data).hexdigest()}
    d.update(summary(data))
    d["snapshot"] = base64.b64encode(data).decode()
    return json.dumps(d, indent=1) + "\n"


def write(path: str, data: bytes) -> None:
    """Save a new file (never over an existing one: an envelope is not replaced)."""
    text = to_file(data)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:
        raise AdjournError("%s exists: not overwritten" % path) from None
    except OSError as e:
        raise AdjournError("cannot write %s: %s" % (path, e.strerror or e)) from None
    with os.fdopen(fd, "w") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())


def read(path: str) -> tuple[bytes, dict[str, Any]]:
    """(snapshot bytes, the file's fields) of an adjourned-game file, checked."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read(1 << 20)
    except OSError as e:
        raise AdjournError("cannot read %s: %s" % (path, e.strerror or e)) from None
    except UnicodeDecodeError:
        raise AdjournError("%s is not an adjourned-game file (not text)" % path) from None
    try:
        d = json.loads(text)
    except ValueError:
        raise AdjournError("%s is not an adjourned-game file (not JSON)" % path) from None
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise AdjournError("%s is not an adjourned-game file (format %r)"
                           % (path, d.get("format") if isinstance(d, dict) else None))
    try:
        data = base64.b64decode(d.get("snapshot", ""), validate=True)
    except (ValueError, TypeError):
        raise AdjournError("%s: the snapshot is not base64" % path) from None
    if hashlib.sha256(data).hexdigest() != d.get("sha256"):
        raise AdjournError("%s: the snapshot does not match its sha256: the file was changed"
                           % path)
    fields = summary(data)
    for k, v in fields.items():
        if d.get(k) != v:
            raise AdjournError("%s: %s reads %r but the snapshot holds %r: the file was "
                               "changed" % (path, k, d.get(k), v))
    return data, d
