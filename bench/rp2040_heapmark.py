# The emulated Pico's /boot.py in bench/rp2040_bench.py only (never part of a clock's build).
# Every PERIOD_MS of emulated time a soft machine.Timer (run by MicroPython's scheduler
# between two bytecodes, so also in the middle of a loop pass) collects the garbage and keeps
# the least gc.mem_free() seen after it: the heap the clock had left at its fullest. The
# figure lives in a bytearray that starts with HEAPMIN! (tests/rp2040/clock.mjs `heap_mark`
# finds it in SRAM: no serial traffic). GP25 (the Pico's LED, no clock function) is high
# during each collection.
import gc
import struct

import machine

PERIOD_MS = 100

_mark = bytearray(b"HEAPMIN?" + bytes(12))   # least, samples, the sample it was
_mark[7] = 33  # "!": set here, so that the literal above (also in RAM) never matches the tag
_pin = machine.Pin(25, machine.Pin.OUT, value=0)
_least = 1 << 29
_n = 0
def _sample(_t):
    global _least, _n
    _pin.value(1)
    gc.collect()
    _pin.value(0)
    f = gc.mem_free()
    _n += 1
    if f < _least:
        _least = f
        struct.pack_into("<i", _mark, 16, _n)
    struct.pack_into("<ii", _mark, 8, _least, _n)


_timer = machine.Timer(period=PERIOD_MS, mode=machine.Timer.PERIODIC,
                       callback=_sample)
