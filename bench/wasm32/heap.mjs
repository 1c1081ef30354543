// The firmware's heap on a 32-bit MicroPython: the WebAssembly port (wasm32, 4-byte
// pointers, as on the RP2040 and ESP32), from the npm registry. bench/run.py runs it:
//   node heap.mjs LABEL DISPLAY --dir DIR [--dir DIR ...]   .mpy files loaded into RAM (what
//                                            `make deploy` gives: files on the board's flash)
//   ... --host                               with a host attached: the control
//                                            typed by the host, status every second, the
//                                            log pulled at the end (bench/hostport.py);
//                                            the figures' names get "_host" after LABEL
// DISPLAY is tm1637 or ssd1306: the game runs with that build's real display drivers (and,
// for ssd1306, the fuel gauge's) on buses that lead nowhere (app_bench.DriverBoard). It
// prints METRIC lines.
//
// How it measures. This port never collects garbage inside a call from JavaScript: a
// collection asked for there (gc.collect(), or a full heap) waits until the call returns,
// and the heap grows meanwhile. So the game is played in small steps, one call each, with a
// collection between steps. At the start of a step gc.mem_alloc() is what is live; at its
// end it is what is live plus everything the step allocated, none of it freed: an upper
// bound of the heap in use at every instant of that step. The largest end-of-step figure
// bounds the heap the game needs (fragmentation aside: it is not the smallest heap the
// game completes in, which only a real 32-bit board can bisect). A step is one import, the
// board's or the app's construction, or at most 10 main-loop passes (10 ms of clock time),
// or one lever press. Each bound also
// counts the few hundred bytes of compiling the step's own line of Python.

import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import fs from "node:fs";
import path from "node:path";

const args = process.argv.slice(2);
const label = args.shift();
const display = args.shift();
if (display !== "tm1637" && display !== "ssd1306") throw new Error("DISPLAY: tm1637 or ssd1306");
let host = false;
const dirs = [];
while (args.length) {
  const opt = args.shift();
  if (opt === "--dir") dirs.push(args.shift());
  else if (opt === "--host") host = true;
  else throw new Error("unknown option " + opt);
}

// A small first heap: the port adds heap areas as it needs them.
const mp = await loadMicroPython({ heapsize: 8 * 1024, linebuffer: false,
                                   stdout: (d) => process.stdout.write(d) });

function copy(src, dst) {
  try { mp.FS.mkdir(dst); } catch (e) { /* exists */ }
  for (const name of fs.readdirSync(src)) {
    const s = path.join(src, name);
    if (fs.statSync(s).isDirectory()) copy(s, dst + "/" + name);
    else mp.FS.writeFile(dst + "/" + name, fs.readFileSync(s));
  }
}
const paths = dirs.map((d, i) => { copy(d, "/lib" + i); return "/lib" + i; });
mp.runPython("import gc, sys\nsys.path[:0] = " + JSON.stringify(paths));

// A Python error: its traceback only (node would print the whole minified port with it).
process.on("uncaughtException", (e) => {
  console.error(e.name === "PythonError" ? e.message : e.stack);
  process.exit(1);
});

// One step: collect (done when the call returns), then run `code` between two readings.
function step(code) {
  mp.runPython("gc.collect()");
  mp.runPython("_a = gc.mem_alloc()\n" + code + "\n_b = gc.mem_alloc()");
  return [mp.globals.get("_a"), mp.globals.get("_b")];
}

// The same modules as a board's boot, leaf first, one import a step (the menus and the
// adjournment, clockapp/menu.py and seal.py, load when first used: a blitz game never does).
const modules = ["clockcore.ticks", "clockcore.control", "clockcore.engine",
  "clockcore.eventlog", "clockcore.presets", "clockapp.board", "clockapp.timefmt",
  "clockapp.view", "clockapp.levers", "clockapp.storage", "clockapp.gamestate",
  "clockapp.logstore", "clockapp.app", "boards.sim"].concat(
  display === "tm1637" ? ["drivers.tm1637", "clockapp.displays.tm1637"]
    : ["drivers.sharedi2c", "drivers.ssd1306", "clockapp.displays.ssd1306", "drivers.max17048"],
  // a board imports its serial port at boot; the link comes with the host's first byte
  host ? ["clockapp.serialport", "clockcore.protocol", "clockapp.link"] : [],
  ["app_bench"], host ? ["hostport"] : []);
let bootPeak = 0;
for (const m of modules) bootPeak = Math.max(bootPeak, step("import " + m)[1]);
// Then what fresh() does, a step each: the board, the app, its first loop pass.
for (const code of ["import os\nos.mkdir('/st')",
                    "board = app_bench.make_board('/st', '" + display + "', " +
                    (host ? "True" : "False") + ")",
                    "app = app_bench.App(board)", "app.step()",
                    host ? "g = hostport.HostBlitz('/st', None, board, app)"
                         : "g = app_bench.Blitz('/st', None, board, app)"]) {
  bootPeak = Math.max(bootPeak, step(code)[1]);
}
const afterBoot = step("pass")[0];

let gamePeak = 0, gameLive = 0, steps = 0, pullPeak = 0;
for (;;) {
  const [a, b] = step(host ? "_more = g.step(10)\n_pull = g.pulled >= 0" : "_more = g.step(10)");
  gameLive = Math.max(gameLive, a);
  // With a host, the log pull is kept apart: one request builds a 4 KB reply in one loop
  // pass, and without a collection inside the step the bytearray growth it does (freed
  // as it goes on a board) adds up to megabytes here: no useful bound (docs/BENCHMARKS.md).
  if (host && mp.globals.get("_pull")) pullPeak = Math.max(pullPeak, b);
  else gamePeak = Math.max(gamePeak, b);
  steps++;
  if (!mp.globals.get("_more")) break;
}
const tag = host ? label + "_host" : label;
const m = (name, v, unit) => console.log(`METRIC ${name}_wasm32_${tag}_${display} ${v} ${unit}`);
m("heap_after_boot", afterBoot, "bytes");
m("heap_peak_bound_boot", bootPeak, "bytes");
m("heap_live_max_blitz", gameLive, "bytes");
m("heap_peak_bound_blitz_moves", gamePeak, "bytes");
m("heap_peak_bound_blitz", Math.max(bootPeak, gamePeak), "bytes");
if (host) m("heap_end_of_step_max_log_pull", pullPeak, "bytes");
console.log(`# wasm32 ${tag} ${display}: ${modules.length + 5} boot steps, ${steps} game steps`);
