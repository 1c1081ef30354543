# The real board: clockapp.board.Board on an RP2040 (Raspberry Pi Pico) or an ESP32, from
# the board.json that the host made from boards.toml (schema in host/chessclock/board/profiles.py).
#
#   from boards.mcu import McuBoard
#   board = McuBoard.from_config("board.json")
#
# Levers and buttons are switches on inputs with an internal pull: to GND with the pull-up
# (idle high, read low while pressed: the default), or to 3V3 with the pull-down when
# board.json says "switch_idle": 0 (idle low, read high while pressed).
# Lever edges come from the pin interrupt, which calls on_lever(lever, time.ticks_us(),
# closed): a hard IRQ on the RP2040 (Pin.irq(hard=True)); the esp32 port only has soft
# (scheduled) pin IRQs. No allocation there, nor in the methods the main loop calls every
# pass. The watchdog starts at the first feed_watchdog() (the app's main loop), so a board
# in maintenance mode (MENU held at boot: main.py does not start the app) never has one
# and the deploy tools keep the REPL.

import gc
import json
import sys
import time

import machine
import micropython

from clockapp.board import BTN_MENU, BTN_MINUS, BTN_PLUS, BTN_START, LEFT, RIGHT, Board
from clockcore.parts import BUS_I2C, DISPLAYS, MCUS, PIN_FRAMES
from drivers.sharedi2c import SharedI2C

SCHEMA = 1
MAINTENANCE_FLAG = "maintenance.flag"   # written by enter_maintenance(), read at boot
# The journal's blocks (4 KB each, 4,048 bytes of frames): a press takes about 96 bytes
# (its log record and the state's changed fields, and the page ends that frames not
# fitting there leave erased), a 10 s save 41: ~2,000 presses.
_JOURNAL_BLOCKS = 48

# Room for the traceback of an exception raised inside a hard IRQ handler (ports without
# hard IRQs, like the unix port, lack the function).
if hasattr(micropython, "alloc_emergency_exception_buf"):
    micropython.alloc_emergency_exception_buf(100)


def _rp2_flash():
    import rp2  # type: ignore[import-not-found, unused-ignore]  # (esp32 stubs: none)
    return rp2.Flash()


def _esp32_flash():
    import esp32  # type: ignore[import-not-found, unused-ignore]  # (rp2 stubs: none)
    found = esp32.Partition.find(esp32.Partition.TYPE_DATA, label="vfs")
    return found[0] if found else None


# The block device that littlefs is mounted on, reached under it, by MicroPython port
# (sys.platform): rp2.Flash() on the RP2040; on the ESP32 the data partition labelled
# "vfs" (the official image's littlefs; its only other data partitions, nvs and phy_init,
# belong to ESP-IDF).
_RAW_FLASH = {"rp2": _rp2_flash, "esp32": _esp32_flash}


def raw_flash(platform):
    """The port's block device under littlefs, or None where there is none to reach."""
    get = _RAW_FLASH.get(platform)
    return get() if get is not None else None


class ConfigError(Exception):
    pass


def _pin_in(n, idle):
    """A switch's input, pulled to its idle level (1: pull-up, 0: pull-down)."""
    return machine.Pin(n, machine.Pin.IN, machine.Pin.PULL_UP if idle else
                       machine.Pin.PULL_DOWN)


class McuBoard(Board):
    name = "mcu"

    def __init__(self, config):
        if config.get("schema") != SCHEMA:
            raise ConfigError("board.json: schema %r, this firmware reads %d"
                              % (config.get("schema"), SCHEMA))
        mcu = config["mcu"]
        if mcu not in MCUS:
            raise ConfigError("board.json: unknown MCU %r (known: %s)"
                              % (mcu, ", ".join(MCUS)))
        port, self._hard_irq, adc_11db, self._link_at_boot = MCUS[mcu]
        if port != sys.platform:
            raise ConfigError("board.json is for %s, this is MicroPython on %s"
                              % (mcu, sys.platform))
        self.config = config
        self.name = config["board"]
        self.mcu = mcu
        # The level a switch reads while not pressed (optional key: 1, switches to GND).
        idle = self._idle = 0 if config.get("switch_idle", 1) == 0 else 1
        levers = config["levers"]
        self._lever_l = _pin_in(levers[LEFT], idle)
        self._lever_r = _pin_in(levers[RIGHT], idle)
        b = config["buttons"]   # start, menu, plus, minus
        self._btn_start = _pin_in(b[0], idle)
        self._btn_menu = _pin_in(b[1], idle)
        self._btn_plus = _pin_in(b[2], idle)
        self._btn_minus = _pin_in(b[3], idle)
        # Maintenance: MENU held while the board boots (read twice, 20 ms apart, so that a
        # bounce is not taken for a request).
        held = self._btn_menu.value() != idle
        time.sleep_ms(20)
        self._maintenance = held and self._btn_menu.value() != idle
        # Levers pressed over the serial link (optional key "link_levers"): a test rig's
        # option, for a board whose switches nothing can reach. The link's `sim press` op
        # comes here (clockapp/link.py op_sim); without the key the op does not exist.
        self._on_lever = None
        self._link_held = 0       # bit per lever (as read_levers) held by the link
        if config.get("link_levers"):
            self._link_until = time.ticks_us()   # when the link's press is released
            self.sim_op = self._link_press

        buzzer = config["buzzer"]
        self._pwm = machine.PWM(machine.Pin(buzzer["pin"], machine.Pin.OUT), freq=1000,
                                duty_u16=0)
        self._duty = buzzer["duty_u16"]
        self._freq = 0

        # Running-side LEDs (optional key: older board.json files have none): outputs, low
        # (off) from the start; set_running() only writes their levels.
        leds = config.get("leds")
        self._led_l = None  # type: machine.Pin | None
        self._led_r = None  # type: machine.Pin | None
        if leds:
            self._led_l = machine.Pin(leds[LEFT], machine.Pin.OUT, value=0)
            self._led_r = machine.Pin(leds[RIGHT], machine.Pin.OUT, value=0)

        bat = config.get("battery")
        self._adc = None  # type: machine.ADC | None
        self.battery_low_mv = -1
        self.battery_critical_mv = -1
        if bat:
            pin = machine.Pin(bat["pin"])
            if adc_11db:
                # 11 dB attenuation: about 0.15..2.45 V; read_uv() applies the chip's
                # calibration.
                self._adc = machine.ADC(pin, atten=machine.ADC.ATTN_11DB)
            else:
                self._adc = machine.ADC(pin)
            self._r_top = bat["r_top"]
            self._r_bottom = bat["r_bottom"]
            self._adc_full_mv = bat["adc_full_mv"]
            self.battery_low_mv = bat["low_mv"]
            self.battery_critical_mv = bat["critical_mv"]

        self._i2c = {}  # type: dict[int, SharedI2C]
        for bus in config.get("i2c", ()):
            # shared with the lever interrupt, which sends the SSD1306s' running bars
            self._i2c[bus["id"]] = SharedI2C(machine.I2C(
                bus["id"], scl=machine.Pin(bus["scl"]), sda=machine.Pin(bus["sda"]),
                freq=bus["freq"]))
        # Fuel gauge (optional): its driver is made at the first reading.
        self._gauge_cfg = config.get("fuel_gauge")
        self._gauge = None
        if self._gauge_cfg:
            self.battery_low_pct = self._gauge_cfg["low_pct"]
        self._displays = None  # type: tuple | None
        self._watchdog_ms = config["watchdog_ms"]
        self._wdt = None  # type: machine.WDT | None
        self._serial = None

    @classmethod
    def from_config(cls, path="board.json"):
        try:
            with open(path) as f:
                config = json.load(f)
        except OSError:
            raise ConfigError("no %s on the board: deploy with `chessclock deploy`"
                              % path) from None
        return cls(config)

    # ---- time --------------------------------------------------------------------
    def ticks_us(self):
        return time.ticks_us()

    def ticks_diff(self, a, b):
        return time.ticks_diff(a, b)

    def idle(self, us):
        if us > 0:
            time.sleep_us(us)

    # ---- inputs ------------------------------------------------------------------
    def attach_levers(self, on_lever):
        ticks_us = time.ticks_us
        edges = machine.Pin.IRQ_FALLING | machine.Pin.IRQ_RISING

        # IRQ handlers: no allocation (small ints and bools only), no exceptions.
        # A flash write holds interrupts off for up to ~50 ms (a sector erase): a quick tap
        # that closes and opens the lever inside it latches both edges and raises one IRQ
        # that finds the lever open again. Both edges latched: the one before the level read
        # is reported too, at the same stamp, so the press is not lost (found on the
        # emulated Pico, bench/rp2040_bench.py).
        idle = self._idle
        self._on_lever = on_lever

        # One handler a wiring, so that the hard IRQ reads the pin with `not` alone: with
        # `pin.value() != idle` there the emulated Pico's lever interrupts stopped (every
        # press then came from the loop's level check, 40 ms late).
        if idle:
            def edge(lever, pin):
                t = ticks_us()
                closed = not pin.value()
                if pin.irq().flags() & edges == edges:
                    on_lever(lever, t, not closed)
                on_lever(lever, t, closed)
        else:
            def edge(lever, pin):
                t = ticks_us()
                closed = not not pin.value()
                if pin.irq().flags() & edges == edges:
                    on_lever(lever, t, not closed)
                on_lever(lever, t, closed)

        def left_edge(pin):
            edge(LEFT, pin)

        def right_edge(pin):
            edge(RIGHT, pin)

        if self._hard_irq:
            self._lever_l.irq(handler=left_edge, trigger=edges, hard=True)
            self._lever_r.irq(handler=right_edge, trigger=edges, hard=True)
        else:
            # The esp32 port's Pin.irq() has no `hard` argument (a TypeError if given): its
            # handlers always run from the scheduler, so the tick is read there, a little
            # after the edge (microseconds, up to the longest C call the loop makes).
            self._lever_l.irq(handler=left_edge, trigger=edges)
            self._lever_r.irq(handler=right_edge, trigger=edges)

    def read_levers(self):
        idle = self._idle
        v = 0
        if self._lever_l.value() != idle:
            v |= 1
        if self._lever_r.value() != idle:
            v |= 2
        held = self._link_held
        if held:
            t = time.ticks_us()
            if time.ticks_diff(t, self._link_until) < 0:
                return v | held
            self._link_held = 0     # the link's press is over: its release edge
            on_lever = self._on_lever
            if on_lever is not None:
                on_lever(LEFT if held == 1 else RIGHT, t, False)
        return v

    def read_buttons(self):
        idle = self._idle
        v = 0
        if self._btn_start.value() != idle:
            v |= BTN_START
        if self._btn_menu.value() != idle:
            v |= BTN_MENU
        if self._btn_plus.value() != idle:
            v |= BTN_PLUS
        if self._btn_minus.value() != idle:
            v |= BTN_MINUS
        return v

    def _link_press(self, args):
        """`sim press left|right [hold_ms]` (boards with "link_levers" only): the lever's
        closing edge now, as its interrupt would give it, and its release after hold_ms
        (default 80), given by read_levers() once due. One press at a time."""
        from clockcore.protocol import E_ARGS, E_STATE, ProtocolError
        if len(args) not in (2, 3) or args[0] != "press" or args[1] not in ("left", "right"):
            raise ProtocolError(E_ARGS, "sim press left|right [ms]")
        try:
            hold_ms = int(args[2]) if len(args) == 3 else 80
        except ValueError:
            raise ProtocolError(E_ARGS, "sim press: the hold is whole milliseconds") from None
        if not 1 <= hold_ms <= 60000:
            raise ProtocolError(E_ARGS, "sim press: the hold is 1..60000 ms")
        if self._link_held or self._on_lever is None:
            raise ProtocolError(E_STATE, "a lever is still held (or the levers are not "
                                "attached yet)")
        lever = LEFT if args[1] == "left" else RIGHT
        t = time.ticks_us()
        self._link_until = time.ticks_add(t, hold_ms * 1000)
        self._link_held = 1 << lever
        self._on_lever(lever, t, True)
        return (("t_us", t),)

    # ---- outputs -----------------------------------------------------------------
    def displays(self):
        if self._displays is None:
            made = []  # type: list
            for d in self.config["displays"]:
                kind = d["type"]
                if kind not in DISPLAYS:
                    raise ConfigError("board.json: unknown display type %r (known: %s)"
                                      % (kind, ", ".join(DISPLAYS)))
                # clockcore.parts: the driver's module and class, and how it is wired
                module, cls, bus, keys = DISPLAYS[kind]
                driver = getattr(__import__(module, None, None, (cls,)), cls)
                if bus == BUS_I2C:
                    made.append(driver(self._i2c[d["i2c"]], d["addr"]))
                    continue
                out = machine.Pin.OUT
                pins = [machine.Pin(d[k], out) for k in keys]
                fast = PIN_FRAMES.get(kind, {}).get(sys.platform)
                if fast is None:
                    made.append(driver(*pins))
                else:   # the same frames at register level (a press's digits ~4x sooner)
                    frames = getattr(__import__(fast[0], None, None, (fast[1],)), fast[1])
                    made.append(driver(*pins, frame=frames(*[d[k] for k in keys]).frame))
            self._displays = (made[LEFT], made[RIGHT])
        return self._displays

    def buzz(self, freq_hz):
        if freq_hz <= 0:
            self._pwm.duty_u16(0)
            self._freq = 0
            return
        if freq_hz != self._freq:
            self._pwm.freq(freq_hz)
            self._freq = freq_hz
        self._pwm.duty_u16(self._duty)

    def set_running(self, lever):
        led_l = self._led_l
        led_r = self._led_r
        if led_l is None or led_r is None:
            return
        led_l.value(1 if lever == LEFT else 0)
        led_r.value(1 if lever == RIGHT else 0)

    def battery_mv(self):
        adc = self._adc
        if adc is None:
            return -1
        if hasattr(adc, "read_uv"):   # esp32: calibrated by the chip's eFuse values
            pin_mv = adc.read_uv() // 1000
        else:
            pin_mv = adc.read_u16() * self._adc_full_mv // 65535
        return pin_mv * (self._r_top + self._r_bottom) // self._r_bottom

    def battery_pct(self):
        cfg = self._gauge_cfg
        if not cfg:
            return -1
        try:
            if self._gauge is None:
                from drivers.max17048 import MAX17048
                self._gauge = MAX17048(self._i2c[cfg["i2c"]], cfg["addr"])
            return self._gauge.soc_pct()
        except OSError:
            return -1  # not answering (unplugged, bus noise): the voltage still warns

    # ---- system ------------------------------------------------------------------
    def storage_root(self):
        return "/"

    def clock_id(self):
        import binascii
        return self.mcu + "-" + binascii.hexlify(machine.unique_id()).decode()

    def collect(self):
        gc.collect()

    locks_heap = True

    def heap_lock(self):
        micropython.heap_lock()

    def heap_unlock(self):
        micropython.heap_unlock()

    def feed_watchdog(self):
        wdt = self._wdt
        if wdt is None:
            # Started by the first feed (the app's loop), never in maintenance mode; it
            # cannot be stopped again until a reset.
            wdt = self._wdt = machine.WDT(timeout=self._watchdog_ms)
        wdt.feed()

    def maintenance_requested(self):
        if self._maintenance:
            return True
        try:  # asked for over the serial link (enter_maintenance): once
            import os
            os.remove(MAINTENANCE_FLAG)
            return True
        except OSError:
            return False

    # ---- serial link -------------------------------------------------------------
    def journal(self):
        """The pre-erased journal (clockapp/journal.py) on blocks reserved as /journal.bin
        in littlefs (boards/rawflash.py); None where the port has no raw flash under
        littlefs that MicroPython reaches, or when littlefs has no room."""
        flash = raw_flash(sys.platform)
        if flash is None:
            return None
        from boards.rawflash import ReservedFlash
        dev = ReservedFlash.make(flash, "/journal.bin", _JOURNAL_BLOCKS)
        if dev is None:
            return None
        from clockapp.journal import Journal
        return Journal(dev)

    def link_at_boot(self):
        return self._link_at_boot

    def serial(self):
        """The USB serial (RP2040) or the UART bridge (ESP32): the REPL's stdin/stdout,
        free while the app runs (main.py disabled Ctrl-C)."""
        if self._serial is None:
            from clockapp.serialport import StreamSerial
            if sys.platform == "rp2":
                # USB CDC: POLLOUT promises one free byte of the TX FIFO, no more. A byte
                # costs about 80 us (a poll, a write, a USB packet: measured on the
                # emulated RP2040), so 16 a pass: about 1.3 ms.
                self._serial = StreamSerial(sys.stdin, sys.stdout, chunk=1, budget=16)
            else:
                # ESP32 DevKitC: the UART REPL (always POLLOUT) behind a USB bridge;
                # 11 bytes/ms is under what 115200 baud drains, so its FIFO never fills.
                # One byte per POLLOUT also keeps TinyUSB CDC builds (S2/S3) from waiting.
                self._serial = StreamSerial(sys.stdin, sys.stdout, chunk=1, rate=11)
        return self._serial

    def enter_maintenance(self):
        """Reboot into maintenance mode (the link's `maintenance` operation)."""
        with open(MAINTENANCE_FLAG, "w") as f:
            f.write("1")
        machine.reset()
