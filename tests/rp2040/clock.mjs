#!/usr/bin/env node
// clock.mjs - one emulated chess clock: the MicroPython image on an emulated Pico (pico.mjs),
// wired to the models of board.mjs as the build's board.json says, driven over stdin/stdout.
//
//   node clock.mjs '{"uf2": ".../RPI_PICO-20260406-v1.28.0.uf2", "bootrom": ".../rp2040-bootrom-b2.bin",
//                    "board": "build/pico-tm1637/board.json", "cdc": "/tmp/x/cdc.sock"}'
//
// The image and the bootrom are the official files that tests/rp2040/images.py found and checked.
//
// The USB CDC (the board's serial port: REPL, then the clock's host link) is served on the
// unix socket `cdc`; `socat PTY,link=TTY,raw,echo=0 UNIX-CONNECT:cdc` turns it into a
// serial device for mpremote and `chessclock`. Control: one JSON object a line on stdin,
// {"id": n, "op": ..., ...}; one JSON reply a line on stdout, {"id": n, ...} or
// {"id": n, "error": "..."}. The ops are the `ops` table below. Emulated time is `us`.
//
// Flash timing: rp2040js does flash writes in no time. Here an erase costs 45 ms per 4 KB
// sector and a program 0.7 ms per 256-byte page (typical W25Q16 figures) of emulated time,
// during which the CPU is stalled with interrupts held, as on a Pico (the firmware runs
// flash operations with interrupts off): a lever edge in that window is stamped late.
// Power cuts: `cut` stops the emulator now, or inside the n-th flash operation from now
// (an erase leaves a prefix of the sector erased; a program writes a prefix of its bytes),
// and saves the flash as it was; `boot` with that image is the power coming back. `tap` saves
// the same image (at an instant, or inside the n-th flash operation from it) and lets the
// clock go on: what a power cut there would leave, without ending the game, so that one game
// gives many cut images (a flash chip keeps nothing else across a cut: RAM is lost). Taps are
// planned at emulated instants ahead: the emulator runs on between two ops.
import fs from 'node:fs';
import net from 'node:net';
import readline from 'node:readline';
import { Pico, FLASH_SIZE } from './pico.mjs';
import { at, Switch, TM1637, SSD1306, MAX17048, I2CBus, Battery, Watch, Buzzer } from './board.mjs';

const ERASE_NS_PER_SECTOR = 45e6;
const PROGRAM_NS_PER_PAGE = 0.7e6;

const cfg = JSON.parse(process.argv[2] || '{}');
const board = JSON.parse(fs.readFileSync(cfg.board, 'utf8'));
const ssd1306 = board.displays[0].type === 'ssd1306';   // the latency's two instants differ

let pico = null;
let m = null; // the models of the current power-up
let cdcSock = null;
let stallIn = false; // a host that stops reading: the device's IN transfers are not taken
let cutPlan = null; // {afterOps, frac}: cut inside a flash operation
let flashOps = 0;
let flashLog = []; // [us, 'erase'|'program', addr, count]
let cutDone = null;
let tapPlans = []; // [{atOp, frac, file}] armed: save a cut image inside a flash operation
const flashAims = []; // [{kind, from, delay, plan, done}] presses aimed at flash operations (bench)
const taps = []; // [{file, us, where, flashOps}] the images saved by `tap`
const frames = []; // [us, display index, snapshot]
const busLog = []; // [us, addr, nbytes] every I2C transaction (ssd1306 builds)
const latency = { pending: null, results: [], late: [] };

function send(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

// ---- one power-up --------------------------------------------------------------------
function powerUp(flashFile) {
  // The board before is gone (a power cut): stopped, or it would run on beside the new one
  // in this process (a game's emulator with taps runs on; 200 cut images booted after it
  // ran 200 emulators at once, each cut slower than the one before).
  if (pico) pico.stop();
  pico = new Pico({ uf2: flashFile ? undefined : cfg.uf2, flashImage: flashFile, bootrom: cfg.bootrom });
  m = { switches: {}, displays: [], gauge: null };
  const p = pico;
  const L = board.levers;
  m.switches.left = new Switch(p, L[0], 'left');
  m.switches.right = new Switch(p, L[1], 'right');
  ['start', 'menu', 'plus', 'minus'].forEach((n, i) => (m.switches[n] = new Switch(p, board.buttons[i], n)));
  if (cfg.holdMenu) m.switches.menu.set(true); // maintenance: MENU held at power-on

  const onFrame = (i) => () => {
    frames.push([p.micros, i, m.displays[i].snapshot()]);
    latencyCheck(i);
  };
  const devices = new Map(); // per I2C bus id
  board.displays.forEach((d, i) => {
    if (d.type === 'tm1637') m.displays.push(new TM1637(p, d.clk, d.dio, i ? 'right' : 'left', onFrame(i)));
    else if (d.type === 'ssd1306') {
      const dev = new SSD1306(i ? 'right' : 'left', onFrame(i));
      if (!devices.has(d.i2c)) devices.set(d.i2c, new Map());
      devices.get(d.i2c).set(d.addr, dev);
      m.displays.push(dev);
    } else throw new Error('unknown display type ' + d.type);
  });
  if (board.fuel_gauge) {
    m.gauge = new MAX17048();
    const g = board.fuel_gauge;
    if (!devices.has(g.i2c)) devices.set(g.i2c, new Map());
    devices.get(g.i2c).set(g.addr ?? 0x36, m.gauge);
  }
  for (const bus of board.i2c ?? []) {
    new I2CBus(p, bus.id, bus.freq, devices.get(bus.id) ?? new Map(), (addr, us, n) => busLog.push([us, addr, n]));
  }
  if (board.battery) m.battery = new Battery(p, board.battery);
  m.leds = board.leds ? new Watch(p, { left: board.leds[0], right: board.leds[1] }) : null;
  m.buzzer = new Buzzer(p, board.buzzer.pin);
  // bench: pins the firmware does not use (cfg.markPins, e.g. the Pico's LED GP25), raised
  // by a boot.py around what it marks (the heap game's collections): [us, level, pin] of
  // every change
  m.marks = [];
  for (const pin of cfg.markPins ?? []) {
    let lv = 0;
    p.mcu.gpio[pin].addListener((s) => {
      const v = s === 1 ? 1 : 0;
      if (v !== lv) { lv = v; m.marks.push([p.micros, v, pin]); }
    });
  }

  // flash timing and cuts inside flash operations (wraps pico.mjs' bootrom trap)
  const mcu = p.mcu;
  const trap = mcu.onBreak;
  mcu.onBreak = (code) => {
    const r = mcu.core.registers;
    const addr = r[0] >>> 0;
    const count = (code === 0xe0 ? r[1] : r[2]) >>> 0;
    if (code === 0xe0 || code === 0xe1) {
      flashOps++;
      const kind = code === 0xe0 ? 'erase' : 'program';
      flashLog.push([p.micros, kind, addr, count]);
      for (const aim of flashAims.filter((a) => !a.done && a.kind === kind && p.micros >= a.from)) {
        aim.done = true;
        flashAims.splice(flashAims.indexOf(aim), 1);
        aim.plan(p.micros + aim.delay);
      }
      if (cutPlan && flashOps >= cutPlan.atOp) return cutInside(code, addr, count, r);
      for (const plan of tapPlans.filter((t) => flashOps >= t.atOp)) tapInside(plan, code, addr, count, r);
    }
    trap(code);
    const ns = code === 0xe0 ? ERASE_NS_PER_SECTOR * Math.ceil(count / 4096)
      : code === 0xe1 ? PROGRAM_NS_PER_PAGE * Math.ceil(count / 256) : 0;
    if (ns && !cfg.noFlashTiming) mcu.clock.tick(ns); // the core is stalled; alarms still fire
  };

  // a host that stops reading: the CDC IN buffer is left "available" (the host NAKs)
  const usb = mcu.usbCtrl;
  const dpram = usb.DPRAMUpdated.bind(usb);
  m.heldIn = [];
  usb.DPRAMUpdated = (offset, value) => {
    const ep = p.cdc.inEndpoint;
    if (stallIn && ep > 0 && offset === 0x80 + ep * 8 && value & (1 << 10)) {
      m.heldIn.push([offset, value]);
      return;
    }
    dpram(offset, value);
  };

  p.onData = (buf) => {
    for (const b of buf) { // reply lines ("=...") out to the host, for host_log
      if (b === 0x0a) { if (outLine) hostLog.push([p.micros, 'out']); outLine = false; atStart = true; }
      else { if (atStart && b === 0x3d) outLine = true; atStart = false; }
    }
    if (cdcSock) cdcSock.write(Buffer.from(buf));
    p.output = p.output.length > 1 << 16 ? p.output.slice(-4096) : p.output;
  };
  return p;
}

function cutInside(code, addr, count, r) {
  const mcu = pico.mcu;
  const k = Math.floor(count * cutPlan.frac);
  if (code === 0xe0) mcu.flash.fill(0xff, addr, addr + k); // a partly erased sector
  else for (let i = 0; i < k; i++) mcu.flash[addr + i] &= mcu.readUint8((r[1] >>> 0) + i);
  cutNow(`inside flash ${code === 0xe0 ? 'erase' : 'program'} @0x${addr.toString(16)} (${k}/${count} bytes)`);
}

// The image a cut inside this operation would leave: the flash with a prefix of the
// operation done, saved aside; the emulated chip then does the whole operation.
function tapInside(plan, code, addr, count, r) {
  const img = Buffer.from(pico.mcu.flash.subarray(0, FLASH_SIZE));
  const k = Math.floor(count * plan.frac);
  if (code === 0xe0) img.fill(0xff, addr, addr + k);
  else for (let i = 0; i < k; i++) img[addr + i] &= pico.mcu.readUint8((r[1] >>> 0) + i);
  tapSave(plan, img, `inside flash ${code === 0xe0 ? 'erase' : 'program'} @0x${addr.toString(16)} (${k}/${count} bytes)`);
}

function tapSave(plan, img, where) {
  plan.done = true;
  tapPlans = tapPlans.filter((t) => t !== plan);
  fs.writeFileSync(plan.file, img);
  taps.push({ file: plan.file, us: pico.micros, where, flashOps });
}

function cutNow(where) {
  pico.stop();
  const img = Buffer.from(pico.mcu.flash.subarray(0, FLASH_SIZE));
  fs.writeFileSync(cutPlan?.file ?? cfg.cutFile, img);
  const done = { us: pico.micros, where, flashOps };
  cutPlan = null;
  if (cutDone) { cutDone(done); cutDone = null; }
}

// ---- lever-to-display latency ------------------------------------------------------------
// After a press (the first closing edge at `us`), two instants, each the end of a bus
// transaction:
// - shown: the switch is on both displays. SSD1306s: both running bars (rows 0-6, columns
//   32-95) show the new side. TM1637s have no running mark on their 4 digits: the pressing
//   side's module has its new digits (the time with its increment), as for `settled`.
// - settled: that, and the pressing side's display has received its last change (its time
//   is still until its next turn: the increment drawn).
// A press whose display was not written before the next press (a pass longer than the gap)
// is finished by the first write of its display after that: `late`, shown at that write.
function latencyCheck(i) {
  const k = latency.late.findIndex((x) => x.display === i);
  if (k >= 0) {
    const x = latency.late.splice(k, 1)[0];
    const end = pico.micros - x.us;
    latency.results.push({ us: x.us, tag: x.tag, late: true, settled: end,
                           shown: x.barsAt ? x.barsAt - x.us : end });
  }
  const L = latency.pending;
  if (!L) return;
  if (i === L.display) L.lastPressed = pico.micros;
  if (ssd1306) {
    const bar = (d) => m.displays[d].pixel(32, 0) && m.displays[d].pixel(95, 6);
    const other = 1 - L.display;
    if (!L.barsAt && bar(other) && !bar(L.display)) L.barsAt = pico.micros;
  }
}

function latencyFinish() {
  const L = latency.pending;
  latency.pending = null;
  if (!L) return;
  let end = L.lastPressed ?? null;
  if (end !== null && ssd1306) end = L.barsAt ? Math.max(end, L.barsAt) : null;
  if (end === null && !L.final) { latency.late.push(L); return; }
  const settled = end === null ? null : end - L.us;
  const shown = ssd1306 ? (L.barsAt ? L.barsAt - L.us : null) : settled;
  latency.results.push({ us: L.us, tag: L.tag, shown, settled });
}

// ---- the host's requests and the clock's replies (bench) ---------------------------------
// Every request line in from the socket's host and reply line out to it: [us, 'in'|'out'].
const hostLog = [];
let outLine = false;
let atStart = true;
// ---- control ops ---------------------------------------------------------------------------
function runUntil(us) {
  return new Promise((resolve) => {
    if (pico.micros >= us) return resolve();
    at(pico, us, resolve);
  });
}

const ops = {
  async boot({ flash }) {
    frames.length = 0;
    busLog.length = 0;
    flashLog = [];
    tapPlans = [];
    flashAims.length = 0;
    powerUp(flash);
    await pico.start();
    return { us: pico.micros };
  },
  async run_until({ us }) { await runUntil(us); return { us: pico.micros }; },
  // hold/go: the emulated clock stands still between them, while the host plans events at
  // instants ahead (every op is a round trip: on a loaded machine, 400 of them let the
  // emulator run past a planned press, which then came late). Only planning ops in between.
  async hold() { pico.stop(); return { us: pico.micros }; },
  async go() { if (!pico.sim.executing) pico.sim.execute(); return { us: pico.micros }; },
  async run_for({ us }) { await runUntil(pico.micros + us); return { us: pico.micros }; },
  async now() { return { us: pico.micros }; },
  async press({ sw, at: t, hold, bounce, releaseBounce, measure, tag, onFlash }) {
    const s = m.switches[sw];
    if (!s) throw new Error('no switch ' + sw);
    const when = t ?? pico.micros + 1000;
    // planned in the past, it would be applied now: a late press the test did not ask for
    if (when < pico.micros) throw new Error(`press at ${when} us: the emulator is at ${pico.micros} already`);
    const plan = (us) => {
      s.press(us, { hold, bounce, releaseBounce });
      if (measure) {
        at(pico, us, () => {
          latencyFinish();
          latency.pending = { us, display: sw === 'left' ? 0 : 1, tag };
        });
      }
    };
    if (onFlash) {
      // aimed at the firmware's own flash writes: pressed delayUs after the start of the
      // first flash operation of that kind from `when` on (at untilUs if none comes)
      const aim = { kind: onFlash.kind, from: when, delay: onFlash.delayUs ?? 0, plan, done: false };
      flashAims.push(aim);
      at(pico, onFlash.untilUs ?? when + 2_000_000, () => {
        if (!aim.done) { aim.done = true; flashAims.splice(flashAims.indexOf(aim), 1); plan(pico.micros + 100); }
      });
      return { at: null };
    }
    plan(when);
    return { at: when };
  },
  async set_switch({ sw, closed }) { m.switches[sw].set(closed); return {}; },
  async state() {
    return {
      us: pico.micros,
      displays: m.displays.map((d) => d.snapshot()),
      errors: m.displays.map((d) => d.errors ?? []),   // what a model found wrong on its bus
      leds: m.leds ? m.leds.levels : null,
      buzzer: m.buzzer.sounding,
      flash: pico.flashWrites,
      flashOps,
    };
  },
  async frames({ since = 0 }) { return { frames: frames.slice(since), next: frames.length }; },
  async events() {
    return { leds: m.leds ? m.leds.changes : [], buzzer: m.buzzer.changes, switches: Object.fromEntries(Object.entries(m.switches).map(([k, s]) => [k, s.edges])) };
  },
  async flash_log({ since = 0 }) { return { log: flashLog.slice(since), next: flashLog.length, bytes: pico.flashWrites }; },
  async bus_log({ since = 0 }) { return { log: busLog.slice(since), next: busLog.length }; },
  async latency() {
    if (latency.pending) latency.pending.final = true;
    latencyFinish();
    for (const x of latency.late.splice(0)) latency.results.push({ us: x.us, tag: x.tag, shown: null });
    return { results: latency.results.splice(0) };
  },
  async battery({ mv, soc }) {
    if (mv !== undefined) m.battery.setMv(mv);
    if (soc !== undefined && m.gauge) m.gauge.setSoc(soc);
    return {};
  },
  async stall_host({ on }) {
    stallIn = on;
    if (!on) {
      const held = m.heldIn.splice(0);
      for (const [off] of held) pico.mcu.usbCtrl.DPRAMUpdated(off, pico.mcu.usbDPRAMView.getUint32(off, true));
    }
    return { held: m.heldIn.length };
  },
  async cut({ file, afterOps, frac = 0.5, timeoutUs }) {
    // now (afterOps undefined) or inside the afterOps-th flash operation from now
    cfg.cutFile = file;
    if (afterOps == null) { cutPlan = { file }; cutNow('at ' + pico.micros + ' us'); return { us: pico.micros, where: 'now' }; }
    cutPlan = { atOp: flashOps + afterOps, frac, file };
    const done = new Promise((res) => (cutDone = res));
    if (timeoutUs) at(pico, pico.micros + timeoutUs, () => { if (cutPlan) { cutPlan.file = file; cutNow('no flash op within timeout, at ' + pico.micros + ' us'); } });
    return await done;
  },
  async tap({ file, atUs, afterOps, frac = 0.5, untilUs }) {
    // the image of a cut at atUs, or inside the afterOps-th flash operation from atUs (at
    // untilUs if none comes by then), saved to `file`; the clock goes on. atUs must be ahead.
    if (atUs < pico.micros) throw new Error(`tap at ${atUs} us: the emulator is at ${pico.micros} already`);
    const plan = { file, frac, atOp: Infinity, done: false };
    const img = () => Buffer.from(pico.mcu.flash.subarray(0, FLASH_SIZE));
    at(pico, atUs, () => {
      if (afterOps == null) tapSave(plan, img(), 'between flash operations');
      else { plan.atOp = flashOps + afterOps; tapPlans.push(plan); }
    });
    if (untilUs != null) at(pico, untilUs, () => { if (!plan.done) tapSave(plan, img(), 'no flash operation in time'); });
    return {};
  },
  async taps() { return { taps: taps.splice(0) }; },
  async heap_mark() {
    // bench: the app's boot.py wrapper keeps the least gc.mem_free() in a bytearray that
    // starts with HEAPMIN!; found in SRAM and read (no serial traffic, nothing perturbed)
    const ram = pico.mcu.sram;
    const tag = Buffer.from('HEAPMIN!');
    const buf = Buffer.from(ram.buffer, ram.byteOffset, ram.length);
    const i = buf.indexOf(tag);
    if (i < 0) return { min: null };
    return { min: buf.readInt32LE(i + 8), passes: buf.readInt32LE(i + 12), at: buf.readInt32LE(i + 16) };
  },
  async send_at({ us, data }) {
    // bytes from the host arriving at emulated instant `us` (a request aimed at a moment)
    at(pico, us, () => pico.write(Buffer.from(data, 'latin1')));
    return {};
  },
  async host_log() { return { log: hostLog.splice(0) }; },
  async marks({ since = 0 }) { return { marks: m.marks.slice(since), next: m.marks.length }; },
  async write_cdc({ data }) { pico.write(Buffer.from(data, 'latin1')); return {}; },
  async output() { return { output: pico.output }; },
  async exec({ code }) { return { out: await pico.exec(code) }; },
  async repl() { pico.write('\r\n'); await pico.waitFor('>>> ', { from: Math.max(0, pico.output.length - 10) }); return {}; },
  async quit() { setTimeout(() => process.exit(0), 10); return {}; },
};

// ---- the CDC socket ------------------------------------------------------------------------
if (cfg.cdc) {
  try { fs.unlinkSync(cfg.cdc); } catch {}
  net.createServer((sock) => {
    cdcSock = sock;
    sock.on('data', (d) => {
      if (!pico) return;
      for (const b of d) if (b === 0x0a) hostLog.push([pico.micros, 'in']);
      pico.write(d);
    });
    sock.on('close', () => { if (cdcSock === sock) cdcSock = null; });
    sock.on('error', () => {});
  }).listen(cfg.cdc);
}

const rl = readline.createInterface({ input: process.stdin });
rl.on('line', async (line) => {
  let req;
  try { req = JSON.parse(line); } catch { return send({ error: 'bad json: ' + line }); }
  const fn = ops[req.op];
  if (!fn) return send({ id: req.id, error: 'unknown op ' + req.op });
  try { send({ id: req.id, ...(await fn(req)) }); } catch (e) { send({ id: req.id, error: String(e.stack || e) }); }
});
rl.on('close', () => process.exit(0));
