'use strict';
/*
 * Loaded by ava in every test file's worker process (package.json "ava.require"). When the test run asks
 * for it (FORMLOOM_TEST_TIMINGS names a file, set by scripts/test.mjs), it appends one JSON line per test
 * file on exit: the file, its wall time from the process's start, and the CPU time of the process and of the
 * child processes it waited for (browsers, eSpeak, CLI runs). The PostgreSQL server's own CPU is not in it.
 * Nothing is recorded when the variable is unset (a single file run with `npx ava`).
 */
const out = process.env.FORMLOOM_TEST_TIMINGS;
if (out) {
  const { appendFileSync, readFileSync } = require('node:fs');
  const { relative } = require('node:path');
  const { fileURLToPath } = require('node:url');
  const ticks = 100; // USER_HZ on Linux: /proc/<pid>/stat counts clock ticks of 1/100 s.
  const childrenCpuMs = () => {
    try {
      // Fields after the command's closing parenthesis: cutime and cstime are the 14th and 15th of those.
      const stat = readFileSync('/proc/self/stat', 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return ((Number(fields[13]) + Number(fields[14])) * 1000) / ticks;
    } catch {
      return 0; // Not Linux: the children's share is left out.
    }
  };
  process.on('exit', (code) => {
    let file = '?';
    try {
      file = relative(process.cwd(), fileURLToPath(require('ava').meta.file));
    } catch {
      // A worker that failed before ava knew its file.
    }
    const cpu = process.cpuUsage();
    const line = {
      file,
      wallMs: Math.round(process.uptime() * 1000),
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      childCpuMs: Math.round(childrenCpuMs()),
      code,
    };
    try {
      appendFileSync(out, `${JSON.stringify(line)}\n`);
    } catch {
      // A report that cannot be written must not fail the test file.
    }
  });
}
