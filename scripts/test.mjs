#!/usr/bin/env node
/*
 * `npm test` after the build: runs ava (arguments are passed on), then prints a report of the ten test files
 * that took the longest and the most CPU, from the timings each worker wrote (scripts/test-timing.cjs).
 * The exit code is ava's: a report that cannot be made never turns a failed run green or a green run red.
 *
 * The run shares one browser (packages/test-browser/src/serve.ts): the browser tests connect to it rather
 * than each launching a Chromium (FORMLOOM_TEST_OWN_BROWSERS=1: each its own, as `npx ava <file>` does).
 * ava runs with scripts/ava-run.config.mjs: package.json's configuration, the longest files first; a full run
 * writes each file's wall time for the next run's order (docs/testing.md).
 *
 * `--deep` (`npm run test:deep`): the long budgets (FORMLOOM_TEST_DEEP=1), by default of the files that
 * have one: the fuzzers' 2,400 requests per database instead of `npm test`'s 440; the audio encoder's long
 * stream of 8 minutes instead of 3.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const avaCli = join(dirname(createRequire(import.meta.url).resolve('ava')), 'cli.mjs');
const dir = mkdtempSync(join(tmpdir(), 'formloom-test-report-'));
const timings = join(dir, 'timings.jsonl');
const started = Date.now();

const DEEP_FILES = [
  'packages/express/dist/test/fuzz-sqlite.test.js',
  'packages/express/dist/test/fuzz-postgres.test.js',
  'packages/audio/dist/test/streaming.test.js',
];
const args = process.argv.slice(2);
const deep = args[0] === '--deep';
if (deep) args.shift();
const avaArgs = deep && !args.some((a) => !a.startsWith('-')) ? [...DEEP_FILES, ...args] : args;
const fullRun = !args.some((a) => !a.startsWith('-'));
const ordered = args.some((a) => a === '--config' || a.startsWith('--config=')) ? [] : ['--config', join(root, 'scripts/ava-run.config.mjs')];
const DURATIONS = join(root, 'node_modules/.cache/formloom/test-durations.json');

// The deep files (DEEP_FILES alone) drive no browser.
const browser = deep && fullRun ? null : await sharedBrowser();
const child = spawn(process.execPath, [avaCli, ...ordered, ...avaArgs], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    FORMLOOM_TEST_TIMINGS: timings,
    ...(deep ? { FORMLOOM_TEST_DEEP: '1' } : {}),
    ...(browser ? { FORMLOOM_TEST_BROWSER_WS: browser.wsEndpoint } : {}),
  },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));

child.on('exit', async (code, signal) => {
  const browserCpuMs = browser ? await browser.stop() : null;
  try {
    report((Date.now() - started) / 1000, browserCpuMs);
  } catch (err) {
    console.error(`test report: ${err.message}`);
  }
  rmSync(dir, { recursive: true, force: true });
  process.exit(code ?? (signal ? 1 : 0));
});

/**
 * The run's shared browser: started before ava, closed after it; its CPU time (with the browser's) is in the
 * report. Null when there is no Chromium or it does not start: each browser test then launches its own.
 */
async function sharedBrowser() {
  const serve = join(root, 'packages/test-browser/dist/src/serve.js');
  if (process.env.FORMLOOM_TEST_OWN_BROWSERS === '1' || !existsSync(serve)) return null;
  // The browser serve.js launches: Debian's headless shell, else its chromium (packages/test-browser).
  const { chromiumPath } = await import(join(root, 'packages/test-browser/dist/src/index.js'));
  if (!existsSync(chromiumPath())) return null;
  const proc = spawn(process.execPath, [serve], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: proc.stdout })[Symbol.asyncIterator]();
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  const next = (ms) => Promise.race([lines.next().then((r) => (r.done ? null : JSON.parse(r.value))), exited.then(() => null), new Promise((r) => setTimeout(r, ms, null))]);
  let up = null;
  try {
    up = await next(60_000);
  } catch {
    up = null;
  }
  if (!up?.wsEndpoint) {
    console.error('test run: the shared browser did not start; each browser test launches its own');
    proc.kill('SIGKILL');
    return null;
  }
  return {
    wsEndpoint: up.wsEndpoint,
    async stop() {
      proc.stdin.end();
      const done = await next(30_000).catch(() => null);
      if (!done) proc.kill('SIGKILL');
      await exited;
      return done?.cpuMs ?? null;
    },
  };
}

function report(wallS, browserCpuMs) {
  let rows;
  try {
    rows = readFileSync(timings, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
  } catch {
    return; // No test file ran.
  }
  const cpu = (r) => r.cpuMs + r.childCpuMs;
  const s = (ms) => (ms / 1000).toFixed(1).padStart(6);
  const total = rows.reduce((a, r) => a + cpu(r), 0);
  const table = (title, key) => {
    console.log(`\n${title}`);
    console.log('   wall s  CPU s  file');
    for (const r of [...rows].sort((a, b) => key(b) - key(a)).slice(0, 10)) console.log(`  ${s(r.wallMs)} ${s(cpu(r))}  ${r.file}`);
  };
  const min = (ms) => (ms / 60_000).toFixed(1);
  const shared = browserCpuMs === null ? '' : `, the shared browser ${min(browserCpuMs)}: ${min(total + browserCpuMs)} CPU-min in all`;
  console.log(
    `\nTest report: ${rows.length} files in ${(wallS / 60).toFixed(1)} min wall; their processes used ${min(total)} CPU-min${shared} (without ava's own process and the database server's)`,
  );
  table("The ten slowest test files (wall time of each file's process):", (r) => r.wallMs);
  table('The ten that used the most CPU (the process and the children it waited for):', cpu);
  if (process.env.FORMLOOM_TEST_REPORT) {
    writeFileSync(process.env.FORMLOOM_TEST_REPORT, `${JSON.stringify({ wallS, browserCpuMs, files: rows }, null, 1)}\n`);
  }
  // The next run's order (scripts/ava-run.config.mjs): each file's wall time in seconds, from a full run only.
  if (fullRun && !deep) {
    const files = Object.fromEntries(rows.map((r) => [r.file, Math.round(r.wallMs / 100) / 10]).sort((a, b) => b[1] - a[1]));
    mkdirSync(dirname(DURATIONS), { recursive: true });
    writeFileSync(DURATIONS, `${JSON.stringify({ measured: new Date().toISOString(), files }, null, 1)}\n`);
  }
}
