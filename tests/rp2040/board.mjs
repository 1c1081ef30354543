// board.mjs - the chess clock's surroundings, modelled around an emulated Pico (pico.mjs).
//
// Every model decodes what the firmware really drives, on the pins of the build's board.json
// (made by `chessclock build` from boards.toml; nothing here names a pin):
//   Switch     a lever or button: a switch to GND on an input with pull-up, with contact bounce
//   TM1637     decoded from its CLK/DIO pins (START, bytes LSB first, ACK, STOP) into the four
//              segment bytes it holds; it ACKs every byte by pulling DIO low, as the chip does
//   SSD1306    an I2C device answered at register level (control byte, command stream with
//              its arguments, horizontal addressing in a column/page window) into its 1 KB RAM
//   MAX17048   fuel gauge at 0x36: a register pointer, then 16-bit big-endian reads
//   I2CBus     one RP2040 I2C controller: start/address/byte/stop completed after the bus time
//              they take at the board.json frequency (9 clocks a byte), so a display update
//              costs on the emulated clock what it costs on a board
//   Battery    the divider on the ADC pin: a battery voltage -> 12-bit ADC reading
//   Watch      outputs watched on their pins (running-side LEDs) and the buzzer's PWM slice
// Time is emulated time: `pico.micros`. `at(pico, us, fn)` runs fn when the emulated clock
// reaches `us`, whatever the CPU is doing (an alarm of the simulation clock).

export function at(pico, us, fn) {
  const alarm = pico.mcu.clock.createAlarm(fn);
  const delta = Math.max(0, Math.round(us * 1000 - pico.mcu.clock.nanos));
  alarm.schedule(delta);
  return alarm;
}

// GPIOPinState of rp2040js: 0 Low, 1 High, 2 Input, 3 InputPullUp, 4 InputPullDown, 5 BusKeeper
const isDriven = (s) => s === 0 || s === 1;

export class Switch {
  constructor(pico, pin, name) {
    this.pico = pico;
    this.pin = pico.mcu.gpio[pin];
    this.name = name;
    this.closed = false;
    this.edges = []; // [us, closed]
    this.plan = []; // [us, closed] edges to come, in time order (press)
    this.pin.setInputValue(true); // open: the pull-up reads high
  }

  set(closed) {
    this.closed = closed;
    this.edges.push([this.pico.micros, closed]);
    this.pin.setInputValue(!closed);
  }

  /** Close at emulated `us`, bouncing: bounce = offsets (us) of the extra edges after the
   * first one (open, close, open, close ...: an even count ends closed); open after hold.
   * The edges wait in one time-ordered plan: alarms that come due together (the CPU was
   * stalled in a flash operation, as the emulator does it) fired in no set order, and a
   * tap's release applied before its close left the lever closed for good. */
  press(us, { hold = 80000, bounce = [], releaseBounce = [] } = {}) {
    const edges = [[us, true]];
    bounce.forEach((d, i) => edges.push([us + d, i % 2 === 1]));
    const up = us + hold;
    edges.push([up, false]);
    releaseBounce.forEach((d, i) => edges.push([up + d, i % 2 === 0]));
    for (const e of edges) {
      this.plan.push(e);
      at(this.pico, e[0], () => this.due());
    }
    this.plan.sort((a, b) => a[0] - b[0]);
  }

  /** Apply, in time order, every planned edge whose instant has come. */
  due() {
    const now = this.pico.micros + 0.001;
    while (this.plan.length && this.plan[0][0] <= now) this.set(this.plan.shift()[1]);
  }
}

const TM_DATA = 0x40;
const MIN_CLK_PHASE_US = 2;
const TM_ADDR = 0xc0;

export class TM1637 {
  /** onFrame(tm) after each data frame that wrote the segment memory. */
  constructor(pico, clkPin, dioPin, name, onFrame) {
    this.pico = pico;
    this.name = name;
    this.clk = pico.mcu.gpio[clkPin];
    this.dio = pico.mcu.gpio[dioPin];
    this.onFrame = onFrame;
    this.segments = [0, 0, 0, 0, 0, 0];
    this.on = false;
    this.brightness = 0;
    this.frames = 0;
    this.errors = [];
    this.acking = false;
    this.clkHigh = true;
    this.dioHigh = true;
    this.inFrame = false;
    this.bits = 0;
    this.byte = 0;
    this.bytes = [];
    this.clkSince = 0; // emulated us of CLK's last edge
    this.dio.setInputValue(true); // the module's pull-up
    this.clk.addListener((s) => this._clk(s));
    this.dio.addListener((s) => this._dio(s));
  }

  _level(pin, state) {
    // an undriven line is pulled up on the module, unless the chip pulls DIO low (ACK)
    if (isDriven(state)) return state === 1;
    if (pin === this.dio && this.acking) return false;
    return true;
  }

  _clk(state) {
    const high = this._level(this.clk, state);
    if (high === this.clkHigh) return;
    this.clkHigh = high;
    const now = this.pico.micros;
    const phase = now - this.clkSince;
    this.clkSince = now;
    if (!this.inFrame) return;
    // The datasheet's clock (under 250 kHz for reads; PWCLK 400 ns): a CLK phase shorter
    // than 2 us in a frame is a bus the firmware drives too fast (a wait loop broken)
    if (phase < MIN_CLK_PHASE_US && this.errors.length < 20) {
      this.errors.push('CLK ' + (high ? 'low' : 'high') + ' for ' + phase.toFixed(2) + ' us');
    }
    if (high) {
      if (this.bits < 8) {
        if (this.dioHigh) {
          this.byte |= 1 << this.bits;
        }
        this.bits++;
      }
    } else if (this.bits === 8 && !this.acking) {
      // 8th falling edge: the chip pulls DIO low until the 9th falling edge
      this.acking = true;
      this.dio.setInputValue(false);
    } else if (this.bits === 8 && this.acking) {
      this.acking = false;
      this.dio.setInputValue(true);
      this.bytes.push(this.byte);
      this.bits = 0;
      this.byte = 0;
    }
  }

  _dio(state) {
    const high = this._level(this.dio, state);
    if (high === this.dioHigh) return;
    this.dioHigh = high;
    if (!this.clkHigh) return;
    if (!high) {
      // START: DIO falls while CLK is high
      this.inFrame = true;
      this.bits = 0;
      this.byte = 0;
      this.bytes = [];
    } else if (this.inFrame) {
      // STOP: DIO rises while CLK is high
      this.inFrame = false;
      this._command(this.bytes);
    }
  }

  _command(bytes) {
    if (!bytes.length) return;
    const c = bytes[0];
    if ((c & 0xc0) === TM_DATA) {
      this.autoInc = !(c & 0x04);
    } else if ((c & 0xc0) === TM_ADDR) {
      let a = c & 7;
      for (const b of bytes.slice(1)) {
        if (a < 6) this.segments[a] = b;
        if (this.autoInc !== false) a++;
      }
      this.frames++;
      if (this.onFrame) this.onFrame(this);
    } else if ((c & 0xc0) === 0x80) {
      this.on = !!(c & 0x08);
      this.brightness = c & 7;
    } else {
      this.errors.push('unknown command 0x' + c.toString(16));
    }
  }

  snapshot() {
    return { type: 'tm1637', on: this.on, segments: this.segments.slice(0, 4) };
  }
}

// SSD1306 commands and how many argument bytes follow each
const SSD_ARGS = new Map([
  [0x20, 1], [0x21, 2], [0x22, 2], [0x81, 1], [0x8d, 1], [0xa8, 1], [0xd3, 1], [0xd5, 1],
  [0xd9, 1], [0xda, 1], [0xdb, 1], [0x26, 6], [0x27, 6], [0x29, 5], [0x2a, 5], [0xa3, 2],
]);

export class SSD1306 {
  constructor(name, onChange) {
    this.name = name;
    this.onChange = onChange; // (dev) after a data write that changed the RAM
    this.ram = new Uint8Array(128 * 8);
    this.on = false;
    this.col0 = 0; this.col1 = 127; this.page0 = 0; this.page1 = 7;
    this.col = 0; this.page = 0;
    this.mode = 2; // page addressing after reset
    this.cmdBytes = 0;
    this.dataBytes = 0;
    this.writes = 0;
  }

  start() { this.first = true; this.ctrl = null; this.cmd = []; this.changed = false; }

  write(b) {
    if (this.first) { // control byte: Co (bit 7) and D/C# (bit 6)
      this.first = false;
      this.ctrl = b;
      return true;
    }
    if (this.ctrl & 0x40) {
      this.dataBytes++;
      this._data(b);
    } else {
      this.cmdBytes++;
      this.cmd.push(b);
      const need = SSD_ARGS.get(this.cmd[0]) ?? 0;
      if (this.cmd.length > need) { this._command(this.cmd); this.cmd = []; }
    }
    return true;
  }

  stop() {
    this.writes++;
    if (this.changed && this.onChange) this.onChange(this);
  }

  _data(b) {
    const i = this.page * 128 + this.col;
    if (this.ram[i] !== b) { this.ram[i] = b; this.changed = true; }
    if (this.mode === 0) { // horizontal: column, then page, inside the window
      if (this.col < this.col1) this.col++;
      else { this.col = this.col0; this.page = this.page < this.page1 ? this.page + 1 : this.page0; }
    } else if (this.mode === 1) { // vertical
      if (this.page < this.page1) this.page++;
      else { this.page = this.page0; this.col = this.col < this.col1 ? this.col + 1 : this.col0; }
    } else if (this.col < 127) this.col++;
  }

  _command(c) {
    const op = c[0];
    if (op === 0x20) this.mode = c[1] & 3;
    else if (op === 0x21) { this.col0 = c[1] & 127; this.col1 = c[2] & 127; this.col = this.col0; }
    else if (op === 0x22) { this.page0 = c[1] & 7; this.page1 = c[2] & 7; this.page = this.page0; }
    else if (op === 0xae || op === 0xaf) this.on = op === 0xaf;
    else if (op >= 0xb0 && op <= 0xb7) this.page = op & 7; // page mode start page
    else if (op <= 0x0f) this.col = (this.col & 0xf0) | op;
    else if (op >= 0x10 && op <= 0x1f) this.col = (this.col & 0x0f) | ((op & 0x0f) << 4);
  }

  /** Is pixel (x, y) lit in RAM coordinates (the driver's x, y)? */
  pixel(x, y) { return (this.ram[(y >> 3) * 128 + x] >> (y & 7)) & 1; }

  snapshot() {
    return { type: 'ssd1306', on: this.on, ram: Buffer.from(this.ram).toString('base64') };
  }
}

export class MAX17048 {
  constructor() { this.regs = new Map([[0x02, 0xd000], [0x04, 80 << 8], [0x08, 0x0012]]); this.ptr = 0; }
  setSoc(pct) { this.regs.set(0x04, (pct & 0xff) << 8); }
  setCellMv(mv) { this.regs.set(0x02, Math.round(mv * 64 / 5) & 0xffff); }
  start() { this.n = 0; }
  write(b) { if (this.n++ === 0) { this.ptr = b; this.rd = 0; } return true; }
  read() {
    const v = this.regs.get(this.ptr & 0xfe) ?? 0;
    const b = this.rd++ % 2 === 0 ? v >> 8 : v & 0xff;
    return b & 0xff;
  }
  stop() {}
}

export class I2CBus {
  /** devices: Map addr -> device; freq: Hz from board.json; onStop(addr, us, nbytes). */
  constructor(pico, index, freq, devices, onStop) {
    this.pico = pico;
    this.i2c = pico.mcu.i2c[index];
    this.devices = devices;
    this.bitNs = 1e9 / freq;
    this.onStop = onStop;
    this.dev = null;
    this.addr = -1;
    this.nbytes = 0;
    this.nacks = 0;
    this.txStart = 0;
    const i2c = this.i2c;
    const later = (bits, fn) => at(pico, pico.micros + (bits * this.bitNs) / 1000, fn);
    i2c.onStart = () => later(1, () => i2c.completeStart());
    i2c.onConnect = (addr, mode) => {
      this.addr = addr;
      this.dev = devices.get(addr) ?? null;
      this.nbytes = 0;
      this.txStart = pico.micros;
      if (this.dev) this.dev.start(mode);
      else this.nacks++;
      later(9, () => i2c.completeConnect(!!this.dev));
    };
    i2c.onWriteByte = (b) => {
      const ack = this.dev ? this.dev.write(b) : false;
      this.nbytes++;
      later(9, () => i2c.completeWrite(ack));
    };
    i2c.onReadByte = () => {
      const v = this.dev ? this.dev.read() : 0xff;
      this.nbytes++;
      later(9, () => i2c.completeRead(v));
    };
    i2c.onStop = () => later(1, () => {
      if (this.dev) this.dev.stop();
      if (this.onStop && this.addr >= 0) this.onStop(this.addr, pico.micros, this.nbytes);
      this.dev = null;
      this.addr = -1;
      i2c.completeStop();
    });
  }
}

export class Battery {
  /** The divider battery+ -> r_top -> ADC pin -> r_bottom -> GND on ADC channel pin-26. */
  constructor(pico, cfg) {
    this.pico = pico;
    this.channel = cfg.pin - 26;
    this.cfg = cfg;
    this.setMv(cfg.full_mv ?? 4000);
  }

  setMv(mv) {
    this.mv = mv;
    const pinMv = (mv * this.cfg.r_bottom) / (this.cfg.r_top + this.cfg.r_bottom);
    const full = this.cfg.adc_full_mv ?? 3300;
    this.pico.mcu.adc.channelValues[this.channel] = Math.max(0, Math.min(4095, Math.round((pinMv / full) * 4095)));
  }
}

export class Watch {
  /** Output pins watched: levels with the instant of each change. */
  constructor(pico, pins) {
    this.pico = pico;
    this.levels = {};
    this.changes = [];
    for (const [name, n] of Object.entries(pins)) {
      this.levels[name] = 0;
      pico.mcu.gpio[n].addListener((s) => {
        const v = s === 1 ? 1 : 0;
        if (v !== this.levels[name]) {
          this.levels[name] = v;
          this.changes.push([pico.micros, name, v]);
        }
      });
    }
  }
}

export class Buzzer {
  /** The buzzer's PWM: the slice and channel of its pin; `sounding` while duty > 0 and enabled. */
  constructor(pico, pin) {
    this.pico = pico;
    const ch = pico.mcu.pwm.channels[(pin >> 1) & 7];
    this.ch = ch;
    this.b = pin & 1;
    this.sounding = false;
    this.changes = []; // [us, on]
    // Every write to the PWM block (a channel's CSR/CC, or the EN register that enables
    // slices together): rp2040js' PWMChannel has a setter for `en` but no getter, so the
    // enable bit is read from its CSR (bit 0).
    const pwm = pico.mcu.pwm;
    const orig = pwm.writeUint32.bind(pwm);
    pwm.writeUint32 = (offset, value) => {
      orig(offset, value);
      const duty = this.b ? ch.cc >>> 16 : ch.cc & 0xffff;
      const on = !!(ch.csr & 1) && duty > 0;
      if (on !== this.sounding) {
        this.sounding = on;
        this.changes.push([pico.micros, on]);
      }
    };
  }
}
