#!/usr/bin/env node
/*
 * `npm test` after the build: runs ava (arguments are passed on), then prints a report of the ten test files
 * that took the longest and the most CPU, from the timings each worker wrote (scripts/test-timing.cjs).
 * The exit code is ava's: a report that cannot be made never turns a failed run green or a green run red.
 *
 * `--deep` (`npm run test:deep`): the long budgets (FORMLOOM_TEST_DEEP=1), by default of the files that
 * have one: the fuzzers' 2,400 requests per database instead of `npm test`'s 440.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const avaCli = join(dirname(createRequire(import.meta.url).resolve('ava')), 'cli.mjs');
const dir = mkdtempSync(join(tmpdir(), 'formloom-test-report-'));
const timings = join(dir, 'timings.jsonl');
const started = Date.now();

const DEEP_FILES = ['packages/express/dist/test/fuzz-sqlite.test.js', 'packages/express/dist/test/fuzz-postgres.test.js'];
const args = process.argv.slice(2);
const deep = args[0] === '--deep';
if (deep) args.shift();
const avaArgs = deep && !args.some((a) => !a.startsWith('-')) ? [...DEEP_FILES, ...args] : args;

const child = spawn(process.execPath, [avaCli, ...avaArgs], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, FORMLOOM_TEST_TIMINGS: timings, ...(deep ? { FORMLOOM_TEST_DEEP: '1' } : {}) },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));

child.on('exit', (code, signal) => {
  try {
    report((Date.now() - started) / 1000);
  } catch (err) {
    console.error(`test report: ${err.message}`);
  }
  rmSync(dir, { recursive: true, force: true });
  process.exit(code ?? (signal ? 1 : 0));
});

function report(wallS) {
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
  console.log(`\nTest report: ${rows.length} files in ${(wallS / 60).toFixed(1)} min wall; their processes used ${(total / 60_000).toFixed(1)} CPU-min (without the database server's)`);
  table("The ten slowest test files (wall time of each file's process):", (r) => r.wallMs);
  table('The ten that used the most CPU (the process and the children it waited for):', cpu);
  if (process.env.FORMLOOM_TEST_REPORT) {
    writeFileSync(process.env.FORMLOOM_TEST_REPORT, `${JSON.stringify({ wallS, files: rows }, null, 1)}\n`);
  }
}
