'use strict';
// The bench's CPU accounting (bench/lib/cpu.js): what an app's own children burn is the bench's own CPU, not
// "other" (the voice family's engine and encoder processes had marked its figures as disturbed).
const { spawn } = require('node:child_process');
const test = require('ava');
const { startCpuWindow } = require('../lib/cpu');

// A child that burns `ms` of CPU time (not wall time, so a busy machine only makes it slower), says so on
// stdout, then burns on until killed when `forever`.
const burner = (ms, forever) =>
  `const u = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };` +
  `while (u() < ${ms});` +
  `process.stdout.write('burnt\\n');` +
  (forever ? 'for (;;);' : '');

// The "app": on a line from the bench, a child that burns 300 ms and exits (the app waits for it, so the kernel
// adds its CPU to the app's), then a child that burns 200 ms, says so, and runs on.
const APP = `
const { spawn } = require('node:child_process');
const child = (code) => spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
process.stdin.once('data', () => {
  child(${JSON.stringify(burner(300, false))}).on('exit', () => {
    child(${JSON.stringify(burner(200, true))}).stdout.once('data', () => process.stdout.write('both\\n'));
  });
});
`;

(process.platform === 'linux' ? test : test.skip)("an app's children, exited or still running, count as the bench's own CPU", async (t) => {
  const app = spawn(process.execPath, ['-e', APP], { stdio: ['pipe', 'pipe', 'inherit'], detached: true });
  t.teardown(() => {
    try {
      process.kill(-app.pid, 'SIGKILL'); // the app and the child still burning
    } catch {}
  });
  await new Promise((resolve) => setTimeout(resolve, 200));
  const cpu = startCpuWindow([app.pid]);
  app.stdin.write('go\n');
  await new Promise((resolve) => app.stdout.once('data', resolve));
  const out = cpu.end();
  // 300 ms reaped through the app, at least 200 ms of the running child (less /proc's 10 ms ticks, rounded down
  // on each read): without them, own CPU is the app's and this process's few tens of milliseconds.
  t.true(out.own_cpu_ms >= 450, `own CPU ${out.own_cpu_ms} ms`);
});
