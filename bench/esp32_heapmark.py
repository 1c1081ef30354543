# The emulated ESP32's /boot.py in bench/esp32_bench.py only (never part of a clock's build).
# Every PERIOD_MS of emulated time a machine.Timer callback (run by MicroPython's scheduler
# between two bytecodes, so also in the middle of a loop pass) collects the garbage and keeps
# the least gc.mem_free() seen after it, and the least "largest free block" of the IDF data
# heaps (where the esp32 port grows its GC heap: esp32.idf_heap_info). The figures live in a
# bytearray that starts with HEAPMIN! and the run's token (the bench writes the token over
# TOKEN_HERE); the bench finds it in a dump of the emulated DRAM: no serial traffic.
import gc
import struct

import esp32
import machine

PERIOD_MS = 100

_mark = bytearray(b"HEAPMIN?TOKEN_HERE" + bytes(16))   # tag, token, least, n, block, at
_mark[7] = 33  # "!": set here, so that the literal above (also in RAM) never matches the tag
_least = 1 << 29
_block = 1 << 29
_n = 0


def _sample(_t):
    global _least, _block, _n
    gc.collect()
    f = gc.mem_free()
    big = 0
    for h in esp32.idf_heap_info(esp32.HEAP_DATA):   # (total, free, largest free, min free)
        if h[2] > big:
            big = h[2]
    _n += 1
    if f < _least:
        _least = f
        struct.pack_into("<i", _mark, 30, _n)
    if big < _block:
        _block = big
    struct.pack_into("<iii", _mark, 18, _least, _n, _block)


_timer = machine.Timer(0, period=PERIOD_MS, mode=machine.Timer.PERIODIC, callback=_sample)
