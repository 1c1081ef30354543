# The board layer: everything hardware-specific the app needs, behind one small interface.
# The same app runs on a real board (boards/mcu.py), in the simulator (boards/sim.py) and
# in tests. Pins come from the board's config (made from boards.toml by the host).
#
# Rules for implementations: nothing here may allocate in the methods the main loop calls
# every pass (ticks_us, ticks_diff, read_buttons, read_levers, feed_watchdog) or on a
# press (set_running); lever edges are delivered from a hard interrupt to
# `on_lever(lever, tick_us, closed)`, which must be allocation-free too (see
# clockapp/levers.py).

from clockcore import const

LEFT = const(0)
RIGHT = const(1)

# Buttons, as bits of read_buttons().
BTN_START = const(1)   # start / pause
BTN_MENU = const(2)
BTN_PLUS = const(4)
BTN_MINUS = const(8)
BUTTON_NAMES = ("start", "menu", "plus", "minus")


class Board:
    """Base class and documentation of the interface. Subclasses override everything."""

    name = "abstract"
    battery_low_mv = -1       # show and log low battery below this (-1: not wired)
    battery_critical_mv = -1  # below this: save the game once, then no more flash writes
    battery_low_pct = -1      # show and log low battery below this state of charge (-1: no
                              # fuel gauge)
    tick_period = 0x40000000  # ticks_us wraps at this (2**30 on RP2040 and ESP32 ports)
    locks_heap = False        # True: it has heap_lock() and heap_unlock(), MicroPython's
                              # (the app locks the heap around code that allocates nothing)

    # ---- time --------------------------------------------------------------------
    def ticks_us(self):
        raise NotImplementedError

    def ticks_diff(self, a, b):
        raise NotImplementedError

    def idle(self, us):
        """Wait about `us` microseconds (the loop's sleep); the simulator advances time."""
        raise NotImplementedError

    # ---- inputs ------------------------------------------------------------------
    def attach_levers(self, on_lever):
        """Call on_lever(lever, tick_us, closed) from the edge interrupt of each lever
        (LEFT/RIGHT); closed is True when the switch closed."""
        raise NotImplementedError

    def read_levers(self):
        """Bit 0: left lever closed now; bit 1: right lever closed now."""
        raise NotImplementedError

    def read_buttons(self):
        """Bits BTN_* of the buttons held down now (raw; the app debounces)."""
        raise NotImplementedError

    # ---- outputs -----------------------------------------------------------------
    def displays(self):
        """(left, right): objects with render(view) (see clockapp/view.py)."""
        raise NotImplementedError

    def buzz(self, freq_hz):
        """Sound at freq_hz; 0 is silence."""
        raise NotImplementedError

    def battery_mv(self):
        """Battery voltage in millivolts (after the divider), or -1 when not wired."""
        raise NotImplementedError

    def battery_pct(self):
        """State of charge in percent from a fuel gauge, or -1 when there is none (or it
        does not answer). The default: no fuel gauge."""
        return -1

    def set_running(self, lever):
        """Light the running-side LED of `lever` (LEFT/RIGHT) and put the other out; -1: both
        out (nothing runs). The app calls it only when this changes. A board without the
        LEDs does nothing (the default)."""
        pass

    # ---- system ------------------------------------------------------------------
    def storage_root(self):
        """Folder for settings, game state and log, with a trailing '/'."""
        raise NotImplementedError

    def storage_fs(self):
        """A file-system object for clockapp.storage.Store, or None for the plain `os`
        (the simulator's adds flash timing and a power switch)."""
        return None

    def journal(self):
        """A clockapp/journal.Journal over raw flash blocks of the board's own, or None:
        then every write goes through the file system (clockapp/storage.py)."""
        return None

    def clock_id(self):
        """A stable id of this clock (the log's game headers carry it)."""
        return "sim-0000"

    def feed_watchdog(self):
        pass

    def collect(self):
        """Collect the garbage now (the app calls it where no press can be waiting)."""

    def maintenance_requested(self):
        """True when the user asks at boot for maintenance mode (deploy tools get the REPL)."""
        return False

    # ---- serial link (clockapp/link.py) ----------------------------------------------
    def link_at_boot(self):
        """True: the app loads the serial link at boot (the heap has room for its code),
        not at the host's first byte (clockcore/parts.py MCUS says why)."""
        return False

    def serial(self):
        """The host link's port: an object with any(), readinto(buf), write(frame),
        drain() and queued, none of which blocks (clockapp/serialport.py), or None when
        the board has none."""
        return None
