# MicroPython freeze manifest for the chess clock firmware (the micropython-lib format).
#
# Freeze the clock into a firmware image, e.g. for the Pico:
#
#   make -C ports/rp2 BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/chessclock/firmware/manifest.py
#
# or for an ESP32 without PSRAM (WROOM), where it is the route that fits the heap with a
# host attached (docs/FIRMWARE.md, "ESP32: which image to flash"):
#
#   make -C ports/esp32 BOARD=ESP32_GENERIC FROZEN_MANIFEST=/path/to/chessclock/firmware/manifest.py
#
# The frozen modules are the same that `make firmware` compiles to .mpy. main.py and
# board.json still go onto the board's filesystem (`chessclock deploy`, or
# `mpremote cp firmware/main.py :main.py` and `chessclock boards show NAME > board.json`),
# because the board's pins are chosen per build from boards.toml.

include("$(PORT_DIR)/boards/manifest.py")  # keep the port's own frozen modules

metadata(description="Chess clock firmware: engine, app, display drivers, board",
         version="0.3.0")  # = clockcore/version.py VERSION

package("clockcore", files=[
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
])  # not logread.py: the log's reader is the host's (deploy.HOST_ONLY)
package("clockapp")
package("drivers")
# the real board; boards/sim.py is the host's
package("boards", files=["__init__.py", "mcu.py", "rp2flash.py"])
