"""The official MicroPython release images the board tier and the bench boot, found at run time.

Nothing here is in the repository: the images are MicroPython's own release files (and the
RP2040 mask ROM that rp2040js needs), read from a folder outside the checkout:

    $CHESSCLOCK_MP_IMAGES               a folder holding the files under their release names
    ../shared/micropython-images/       beside the checkout (where CI has them)

Each file's sha256 is checked against the sum MicroPython publishes for that release before
anything boots it: a board figure or a board test always rests on an unmodified image.
Without the folder the board tier skips, saying so in one line (`missing()`).
"""

import hashlib
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENV = "CHESSCLOCK_MP_IMAGES"

# release file name -> sha256 of the file as published (micropython.org/download/RPI_PICO,
# ESP32_GENERIC) and of the RP2040 B2 mask ROM
PICO_UF2 = "RPI_PICO-20260406-v1.28.0.uf2"
PICO_BOOTROM = "rp2040-bootrom-b2.bin"
ESP32_BIN = "ESP32_GENERIC-20241025-v1.24.0.bin"
OFFICIAL = {
    PICO_UF2: "00aedb8431ebea83b470ef909509f16432c5b1b43e8f6eaf015f6f9560bc8152",
    PICO_BOOTROM: "410efe8897a7c901e5b666d87787714c9782cf26a0ebf388865e1b0a26075f88",
    ESP32_BIN: "648e655fdaa8c31ece4e8f2a5c7815b015a7bca1c8db56246287799164ad9bff",
}
PICO_VERSION = "MicroPython v1.28.0 (RPI_PICO, official release image)"


class ImageError(Exception):
    """An image is there but is not the official file: never boot it."""


def folder():
    """The images folder: $CHESSCLOCK_MP_IMAGES, else ../shared/micropython-images."""
    env = os.environ.get(ENV)
    return Path(env) if env else ROOT.parent / "shared" / "micropython-images"


def missing(*names):
    """One line saying which images are not there (and where they were looked for), or ''."""
    where = folder()
    absent = [n for n in names if not (where / n).is_file()]
    if not absent:
        return ""
    return ("no official MicroPython image %s in %s (set %s to a folder holding it; "
            "README: 'Board tests on an emulated Pico')" % (", ".join(absent), where, ENV))


_checked = {}


def official(name):
    """The path of release file `name`, its sha256 checked against the published sum."""
    path = folder() / name
    if path not in _checked:
        if not path.is_file():
            raise ImageError(missing(name))
        got = hashlib.sha256(path.read_bytes()).hexdigest()
        if got != OFFICIAL[name]:
            raise ImageError("%s: sha256 %s is not the official %s's %s: refusing to boot a "
                             "modified image" % (path, got, name, OFFICIAL[name]))
        _checked[path] = got
    return path


def pico():
    """(uf2, bootrom) of the official RPI_PICO image, both checked."""
    return official(PICO_UF2), official(PICO_BOOTROM)
