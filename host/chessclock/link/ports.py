"""Which serial ports hold clocks: attached boards by their USB ids, the simulated clocks
`chessclock sim-serve` runs here, and the ports a clock command names (--port, --all,
$CHESSCLOCK_PORTS)."""

import os
from typing import Any

from chessclock.link import transport as L

USB_IDS = {  # (vid, pid): what it is
    (0x2E8A, 0x0005): "Raspberry Pi Pico (MicroPython USB serial)",
    (0x2E8A, None): "Raspberry Pi (RP2040 USB serial)",
    (0x10C4, 0xEA60): "CP210x (ESP32 bridge)",
    (0x1A86, 0x7523): "CH340 (ESP32 bridge)",
    (0x1A86, 0x55D4): "CH9102 (ESP32 bridge)",
    (0x303A, 0x1001): "ESP32 native USB (USB serial/JTAG)",
    (0x0403, 0x6001): "FTDI FT232 (ESP32 bridge)",
}


def kind_of(vid: int | None, pid: int | None) -> str | None:
    """What a USB id is, when it is a clock's (else None)."""
    for (v, p), what in USB_IDS.items():
        if vid == v and (p is None or pid == p):
            return what
    return None


def find_ports() -> list[tuple[str, str, str]]:
    """[(device, description, serial)] of attached serial ports with a clock's USB ids,
    then the simulated clocks `chessclock sim-serve` runs on this computer."""
    from chessclock.sim import serve as simserve
    out = []
    try:
        from serial.tools import list_ports
        comports = list_ports.comports()
    except ImportError:
        comports = []
    for p in comports:
        what = kind_of(p.vid, p.pid)
        if what:
            out.append((p.device, what, p.serial_number or ""))
    for path, clock_id, pid in simserve.running_with_pid():
        out.append((path, "SIMULATED clock, not a board (chessclock sim-serve, process %d)"
                    % pid, clock_id))
    return out


def ports_of(args: Any) -> list[str]:
    ports = list(args.port)
    if args.all:
        ports += [d for d, _, _ in find_ports()]
        extra = os.environ.get("CHESSCLOCK_PORTS", "")
        ports += [p for p in extra.split(os.pathsep) if p]
    seen = []
    for p in ports:
        if p not in seen:
            seen.append(p)
    if not seen:
        raise L.ClockError(L.EXIT_INPUT, "no clock given",
                           "use --port PORT (see `chessclock ports`) or --all")
    return seen
