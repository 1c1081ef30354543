// The chess clock's Pico image: MicroPython's RPI_PICO board (ports/rp2/boards/RPI_PICO,
// the same two lines) with the clock's packages frozen in (mpconfigboard.cmake) and a
// larger mark stack for the garbage collector.
#define MICROPY_HW_BOARD_NAME                   "Raspberry Pi Pico"
#define MICROPY_HW_FLASH_STORAGE_BYTES          (1408 * 1024)

// The collector marks depth first from a stack of MICROPY_ALLOC_GC_STACK_SIZE entries (64
// by default, 128 bytes). When an object has more unmarked children than the stack has
// room for (a module's or a class's dictionary, sys.modules), the collector scans the
// whole heap again for every overflow: on the emulated Pico a collection of the clock's
// ~60 KB heap took 13 ms, and one list of 64 objects added 3.4 ms to a bare heap's 0.7 ms
// (docs/BENCHMARKS.md, "the collector's mark stack"). 1024 entries (2 KB of RAM) leave
// room for the clock's deepest pile; the port does the same for a PSRAM heap (1024).
#define MICROPY_ALLOC_GC_STACK_SIZE             (1024)
