// Issue 9 on the real RP2040 image: a host that opens the USB serial and stops reading
// must not freeze the clock. Runs in a copy of the shared rp2040 bench (rp2040js +
// MicroPython v1.28.0 RPI_PICO, ../shared/rp2040-bench: `npm ci` there first):
//
//   make firmware BOARD=pico-tm1637
//   node bench/rp2040_deaf_host.mjs BENCH_DIR build/pico-tm1637 [OUT.json]
//
// It puts the build on the emulated flash, boots the clock from main.py, starts a game over
// the link, and watches the two TM1637s' CLK pins (each burst of clock edges is one display
// write). Then the host goes deaf: the CDC IN endpoint's transfers are no longer completed
// (a real host that stops reading stops polling it), so TinyUSB's TX FIFO fills and
// MicroPython's stdout write would wait up to 500 ms a call. The host keeps sending
// `status` every 100 ms (emulated) and presses a lever every 2 s. Printed per phase (host
// reads, host deaf): the longest gap between two display writes, and for each press the
// time from the lever's edge to the mover's display showing its new time; then (after the
// host reads again) whether every line it got is a whole, valid reply. Exit 0 when the
// displays never paused longer than 1.1 s (the running one writes every second), every
// press was shown within 50 ms, and every reply is whole. Emulated time (rp2040js: the
// clock advances with executed cycles), not a board's wall clock.

import path from "node:path";
import fs from "node:fs";
import zlib from "node:zlib";

const [benchDir, buildDir, outJson] = process.argv.slice(2);
const { Pico } = await import(path.resolve(benchDir, "pico.mjs"));
const board = JSON.parse(fs.readFileSync(path.join(buildDir, "board.json"), "utf8"));
const pico = new Pico({ uf2: path.resolve(benchDir, "firmware/firmware.uf2") });
const mcu = pico.mcu;

// Switches to GND with pull-ups: the emulator ignores pull-ups, so inputs are driven high.
for (const p of [...board.levers, ...board.buttons]) mcu.gpio[p].setInputValue(true);
mcu.adc.channelValues[board.battery.pin - 26] = 2420;   // ~3.9 V through the 1:1 divider

// The TM1637s decoded from their pins (START: DIO falls while CLK is high; a bit on each
// CLK rise, LSB first, the 9th is the ACK; STOP: DIO rises while CLK is high): each data
// frame (0xC0, four segment bytes) is one write of what the display shows.
const writes = board.displays.map(() => []);      // [emulated us, "hex of the 4 digits"]
const high = (st) => st !== 0;                    // Low = 0; output High or released: high
board.displays.forEach((d, k) => {
  let clk = 1, dio = 1, frame = null, byte = 0, nbits = 0;
  mcu.gpio[d.clk].addListener((st) => {
    const v = high(st) ? 1 : 0;
    if (v === clk) return;
    clk = v;
    if (clk && frame) {
      if (nbits < 8) byte |= dio << nbits;
      nbits++;
      if (nbits === 9) { frame.push(byte); byte = 0; nbits = 0; }
    }
  });
  mcu.gpio[d.dio].addListener((st) => {
    const v = high(st) ? 1 : 0;
    if (v === dio) return;
    dio = v;
    if (!clk) return;
    if (!dio) { frame = []; byte = 0; nbits = 0; }
    else if (frame) {
      if (frame[0] === 0xc0 && frame.length === 5) {
        writes[k].push([pico.micros, Buffer.from(frame.slice(1)).toString("hex")]);
      }
      frame = null;
    }
  });
});

// The deaf host: IN transfers on the CDC endpoint are held (not completed) while deaf, and
// what it would have read is kept aside until it reads again.
const usb = mcu.usbCtrl;
const origReady = usb.indicateBufferReady.bind(usb);
let deaf = false;
let held = 0;
usb.indicateBufferReady = (ep, out) => {
  if (deaf && !out && ep === pico.cdc.inEndpoint) { held++; return; }
  origReady(ep, out);
};

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function until(us) {                  // let emulated time reach us
  while (pico.micros < us) await sleep(1);
}

function crc32(s) { return (zlib.crc32(Buffer.from(s)) >>> 0).toString(16).padStart(8, "0"); }
let rid = 0;
function request(op, ...args) {
  rid++;
  const body = ["1", String(rid), op, ...args].join(" ");
  pico.write(`!${body}*${crc32(body)}\n`);
  return rid;
}

await pico.boot();
for (const rel of walk(buildDir)) {
  if (rel === "MANIFEST.sha256") continue;
  await pico.putFile("/" + rel, fs.readFileSync(path.join(buildDir, rel)));
}
pico.exitRawRepl();
await sleep(50);
const bootMark = pico.mark();
pico.write("\x04");                          // soft reset: main.py starts the clock
await pico.waitFor("soft reboot", { from: bootMark, timeout: 60000 });
const t0 = pico.micros;
await until(t0 + 1500000);
const linkMark = pico.mark();
request("start");
await pico.waitFor("ok state=running", { from: linkMark, timeout: 60000 });

async function lever(k, at) {                // a press: closed 80 ms; when it closed
  await until(at);
  mcu.gpio[board.levers[k]].setInputValue(false);
  const closed = pico.micros;
  await until(closed + 80000);
  mcu.gpio[board.levers[k]].setInputValue(true);
  return closed;
}

// Runs `ms` of emulated time: status every 100 ms, a lever press every 2 s (White's lever
// is the left one: it runs first). Returns the longest gap between writes of the display
// that runs, and the presses that switched it.
let running = 0;                              // White's (left) clock runs after start
async function phase(ms, label) {
  const start = pico.micros;
  const end = start + ms * 1000;
  let next = start + 100000;
  let press = start + 1000000;
  let worst = 0;
  let switched = 0;
  let pressed = 0;
  let worstPress = 0;
  while (pico.micros < end) {
    await sleep(1);
    const now = pico.micros;
    if (now >= next) { request("status"); next += 100000; }
    if (now >= press) {
      // the mover's display shows the increment (its time changes) within 50 ms
      const k = running;
      const before = writes[k].length;
      const at = await lever(k, press);
      await until(at + 1500000);
      const shown = writes[k].slice(before).find((x) => x[0] >= at);
      const delay = shown ? shown[0] - at : 1e9;
      worstPress = Math.max(worstPress, delay);
      if (delay <= 50000) switched++;
      pressed++;
      running = 1 - k;
      press += 2000000;
    }
  }
  const w = writes[0].concat(writes[1]).map((x) => x[0]).filter((t) => t >= start && t <= end)
    .sort((a, b) => a - b);
  for (let i = 1; i < w.length; i++) worst = Math.max(worst, w[i] - w[i - 1]);
  const r = { phase: label, ms, worst_display_gap_us: Math.round(worst), presses: pressed,
              shown_within_50ms: switched, worst_press_to_display_us: Math.round(worstPress) };
  console.log(JSON.stringify(r));
  return r;
}

const results = [];
results.push(await phase(4000, "host reads"));
const deafMark = pico.mark();
deaf = true;
results.push(await phase(6000, "host deaf"));
const got = pico.output.length - deafMark;
deaf = false;
for (let i = 0; i < held; i++) origReady(pico.cdc.inEndpoint, false);
held = 0;
await until(pico.micros + 500000);
const last = request("status");
const lastAt = await pico.waitFor(`=1 ${last} ok`, { from: deafMark, timeout: 60000 });
await pico.waitFor("\n", { from: lastAt, timeout: 60000 });
// from the first line that starts after the host went deaf
const from = pico.output.indexOf("\n", deafMark - 1) + 1;
const lines = pico.output.slice(from).split("\n").filter((l) => l.length);
let whole = 0;
let broken = 0;
for (const l of lines) {
  const m = /^=(.*)\*([0-9a-f]{8})\r?$/.exec(l);
  if (m && crc32(m[1]) === m[2]) whole++;
  else broken++;
}
const summary = { while_deaf_bytes_received: got, replies_whole: whole, lines_broken: broken,
                  requests: rid };
console.log(JSON.stringify(summary));
results.push(summary);
if (outJson) fs.writeFileSync(outJson, JSON.stringify(results, null, 1));
pico.stop();
const ok = results[0].worst_display_gap_us < 1100000 && results[1].worst_display_gap_us < 1100000
  && results[1].shown_within_50ms === results[1].presses && broken === 0;
console.log(ok ? "PASS: the clock ran on under a deaf host" : "FAIL");
process.exit(ok ? 0 : 1);

function walk(dir, base = "") {
  const out = [];
  for (const name of fs.readdirSync(path.join(dir, base)).sort()) {
    const rel = base ? base + "/" + name : name;
    if (fs.statSync(path.join(dir, rel)).isDirectory()) out.push(...walk(dir, rel));
    else out.push(rel);
  }
  // main.py last: nothing starts before every module is there
  return out.sort((a, b) => (a === "main.py") - (b === "main.py"));
}
