# MicroPython freeze manifest for the chess clock firmware (the micropython-lib format).
#
# Freeze the clock into a firmware image. For the Pico, the clock's board definition names
# this manifest (and sets the collector's mark stack, docs/FIRMWARE.md):
#
#   make -C ports/rp2 BOARD_DIR=/path/to/chessclock/firmware/ports/rp2/CHESSCLOCK_PICO
#
# or for an ESP32 without PSRAM (WROOM), where it is the route that fits the heap with a
# host attached (docs/FIRMWARE.md, "ESP32: which image to flash"):
#
#   make -C ports/esp32 BOARD=ESP32_GENERIC FROZEN_MANIFEST=/path/to/chessclock/firmware/manifest.py
#
# The frozen modules are the same that `make firmware` compiles to .mpy. main.py and
# board.json still go onto the board's filesystem (`make deploy-frozen`, which runs
# `chessclock deploy --frozen`), because the board's pins are chosen per build from
# boards.toml.
#
# The image also gets `clockfrozen`, made here: the sha256 of every source file frozen.
# `chessclock deploy --frozen` reads it from the board and compares it with the checkout:
# an image built from other sources would run other rules without a word, so a package
# whose files differ goes onto the filesystem as .mpy files, which Python finds first (''
# comes before '.frozen' in sys.path), and deploy says so. The clock never imports it (no
# heap). A manifest runs with its own folder (firmware/) as the current directory.

import hashlib
import os

include("$(PORT_DIR)/boards/manifest.py")  # keep the port's own frozen modules

metadata(description="Chess clock firmware: engine, app, display drivers, board",
         version="0.3.0")  # = clockcore/version.py VERSION

FROZEN = {
    "clockcore": [
        "__init__.py",
        "control.py",
        "engine.py",
        "eventlog.py",
        "events.py",
        "framing.py",
        "hallmsg.py",
        "notation.py",
        "parts.py",
        "plausible.py",
        "presets.py",
        "protocol.py",
        "ticks.py",
        "version.py",
    ],  # not logread.py: the log's reader is the host's (deploy.HOST_ONLY)
    "clockapp": None,    # every module
    "drivers": None,
    "boards": ["__init__.py", "mcu.py", "rp2flash.py"],  # the real board (not the host's sim)
}

sums = {}
for pkg, files in FROZEN.items():
    package(pkg, files=files)
    if files is None:
        files = sorted(os.path.relpath(os.path.join(d, f), pkg)
                       for d, _, names in os.walk(pkg) if "__pycache__" not in d
                       for f in names if f.endswith(".py"))
    for f in files:
        with open(os.path.join(pkg, f), "rb") as src:
            sums[pkg + "/" + f.replace(os.sep, "/")] = hashlib.sha256(src.read()).hexdigest()
out = os.path.join("..", "build", "frozen")   # the checkout's build/ (not committed)
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, "clockfrozen.py"), "w") as f:
    f.write("# made by firmware/manifest.py: the sha256 of each source file frozen\n")
    f.write("SUMS = {\n%s}\n" % "".join("    %r: %r,\n" % kv for kv in sorted(sums.items())))
module("clockfrozen.py", base_path=out)
