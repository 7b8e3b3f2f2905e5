'use strict';
// How much CPU went to processes outside the bench during a run (Linux /proc; null elsewhere), so a run
// disturbed by other work on the machine can be told apart from a slow app.
const fs = require('node:fs');
const os = require('node:os');

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** Busy CPU time of the whole machine in ms (user, nice, system, irq, softirq, steal). */
function machineBusyMs() {
  try {
    const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const [user, nice, system, , , irq, softirq, steal = 0] = f;
    return (user + nice + system + irq + softirq + steal) * TICK_MS;
  } catch {
    return null;
  }
}

/** CPU time (user + system, all threads) of a process in ms, or null if it is gone or /proc is missing. */
function processCpuMs(pid) {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * TICK_MS; // utime, stime (fields 14, 15)
  } catch {
    return null;
  }
}

/**
 * Starts a measurement over the bench's own processes (`pids`, plus this one). `end(extraOwnMs)` returns
 * `{ other_cpu_pct, own_cpu_pct }` as percentages of the machine's total capacity over the window;
 * `extraOwnMs` is CPU of bench processes that have exited (the load generator reports its own).
 */
function startCpuWindow(pids) {
  const t0 = Date.now();
  const busy0 = machineBusyMs();
  const own0 = pids.map(processCpuMs);
  const self0 = process.cpuUsage();
  return {
    end(extraOwnMs = 0) {
      const wallMs = Date.now() - t0;
      const busy1 = machineBusyMs();
      if (busy0 === null || busy1 === null || wallMs <= 0) return { other_cpu_pct: null, own_cpu_pct: null };
      const own1 = pids.map(processCpuMs);
      let own = extraOwnMs;
      pids.forEach((_, i) => (own += own1[i] !== null && own0[i] !== null ? own1[i] - own0[i] : 0));
      const self = process.cpuUsage(self0);
      own += (self.user + self.system) / 1000;
      const capacity = wallMs * os.cpus().length;
      const pct = (ms) => Math.round((1000 * Math.max(0, ms)) / capacity) / 10;
      return { own_cpu_pct: pct(own), other_cpu_pct: pct(busy1 - busy0 - own) };
    },
  };
}

module.exports = { startCpuWindow, processCpuMs, machineBusyMs };
