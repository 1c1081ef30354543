# The clock's package manifest, in micropython-lib's format (metadata, then its packages).
#
# A clock runs these packages as .mpy files on MicroPython's official release image
# (`make deploy`); package.json lists the same modules for mip. main.py and board.json are
# per build (the pins come from boards.toml), so they are not part of the package.

metadata(description="Chess clock firmware: engine, app, display drivers, board",
         version="0.3.0")  # = clockcore/version.py VERSION

package("clockcore", files=[
    "__init__.py",
    "control.py",
    "corrections.py",
    "engine.py",
    "eventlog.py",
    "events.py",
    "framing.py",
    "hallmsg.py",
    "logbody.py",
    "notation.py",
    "parts.py",
    "plausible.py",
    "presets.py",
    "protocol.py",
    "ticks.py",
    "version.py",
])  # not logread.py, presetinfo.py: the log's reader, the presets' titles (deploy.HOST_ONLY)
package("clockapp")
package("drivers")
package("boards", files=["__init__.py", "mcu.py", "rawflash.py"])  # the real board, not the sim
