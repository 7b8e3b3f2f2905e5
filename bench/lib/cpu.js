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

/** `[own, reaped]` CPU time of a process in ms from /proc/<pid>/stat (user + system each), or null. */
function statCpuMs(pid) {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    // utime, stime (fields 14, 15); cutime, cstime (fields 16, 17): its children that exited and were waited for.
    return [(Number(f[11]) + Number(f[12])) * TICK_MS, (Number(f[13]) + Number(f[14])) * TICK_MS];
  } catch {
    return null;
  }
}

/**
 * CPU time (user + system, all threads) of a process in ms, or null if it is gone or /proc is missing. With
 * `reaped`, plus that of its children that exited and were waited for (an app's engine and encoder processes).
 */
function processCpuMs(pid, { reaped = false } = {}) {
  const t = statCpuMs(pid);
  return t && (reaped ? t[0] + t[1] : t[0]);
}

/**
 * CPU time of a process split by thread, in ms: `main` (the thread whose id is the pid: the event loop) and
 * `other` (libuv's pool, which runs sqlite3 statements, crypto and fs work, plus V8's GC and compiler
 * threads), or null. Threads that ended meanwhile are not counted.
 */
function threadCpuMs(pid) {
  try {
    let main = 0;
    let other = 0;
    for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
      const ms = processCpuMs(`${pid}/task/${tid}`);
      if (ms === null) continue;
      if (tid === String(pid)) main += ms;
      else other += ms;
    }
    return { main, other };
  } catch {
    return null;
  }
}

/** CPU time (user + system) of this process's children that exited and were waited for, in ms, or null. */
function reapedChildrenCpuMs() {
  return statCpuMs('self')?.[1] ?? null;
}

/**
 * Starts a measurement over the bench's own processes (`appPids` with the children they start, plus this one).
 * A child of one of them that exits during the window counts through its parent (the kernel adds it there when
 * the parent waits for it); one still running is measured like a `joining` process. `end(extraOwnMs)` returns
 * `{ other_cpu_pct, own_cpu_pct }` as percentages of the machine's total capacity over the window (and `own_cpu_ms`);
 * `extraOwnMs` is CPU of bench processes that have exited (the load generator reports its own). With
 * `reapedChildren`, children of this process that exited during the window count as own (a CLI run). `joining()`
 * lists more of the bench's processes, ones that come and go (a PostgreSQL backend for a new connection): those
 * listed at the start are measured like `appPids`, those that appear by the end count whole, as all their CPU is the
 * window's.
 */
function startCpuWindow(appPids, { reapedChildren = false, threadsOf = null, joining: more = null } = {}) {
  const joining = () => [...appPids.flatMap(childPids), ...(more ? more() : [])];
  // Each process's CPU includes its reaped children's: PostgreSQL's postmaster reaps the backend of a connection
  // that closed in the window (the `psql` run of the export's reference), an app its engine processes.
  const cpuOf = (pid) => processCpuMs(pid, { reaped: true });
  const pids = [...new Set([...appPids, ...joining()])];
  const threads0 = threadsOf ? threadCpuMs(threadsOf) : null;
  const t0 = Date.now();
  const busy0 = machineBusyMs();
  const own0 = pids.map(cpuOf);
  const self0 = process.cpuUsage();
  const reaped0 = reapedChildren ? reapedChildrenCpuMs() : null;
  return {
    end(extraOwnMs = 0) {
      const wallMs = Date.now() - t0;
      const busy1 = machineBusyMs();
      if (busy0 === null || busy1 === null || wallMs <= 0) return { other_cpu_pct: null, own_cpu_pct: null };
      const own1 = pids.map(cpuOf);
      let own = extraOwnMs;
      pids.forEach((_, i) => (own += own1[i] !== null && own0[i] !== null ? own1[i] - own0[i] : 0));
      for (const pid of new Set(joining())) if (!pids.includes(pid)) own += cpuOf(pid) ?? 0;
      const self = process.cpuUsage(self0);
      own += (self.user + self.system) / 1000;
      const reaped1 = reaped0 === null ? null : reapedChildrenCpuMs();
      if (reaped1 !== null) own += reaped1 - reaped0;
      const capacity = wallMs * os.cpus().length;
      const pct = (ms) => Math.round((1000 * Math.max(0, ms)) / capacity) / 10;
      const out = { own_cpu_pct: pct(own), other_cpu_pct: pct(busy1 - busy0 - own), own_cpu_ms: Math.round(own) };
      const threads1 = threads0 ? threadCpuMs(threadsOf) : null;
      if (threads1) {
        // Share of one core over the window: 100 = a thread busy all along.
        const core = (ms) => Math.round((1000 * Math.max(0, ms)) / wallMs) / 10;
        out.app_threads_cpu_pct = { main: core(threads1.main - threads0.main), other: core(threads1.other - threads0.other) };
      }
      return out;
    },
  };
}

/**
 * Pids of the PostgreSQL server's processes on this machine (its postmaster and backends, by their name), [] off
 * Linux. With BENCH_DATABASE=postgres they count as the bench's own: the apps' queries run there, and counted as
 * "other" CPU they marked every PostgreSQL measurement as disturbed.
 */
function databaseServerPids() {
  try {
    return fs
      .readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .filter((d) => {
        try {
          return fs.readFileSync(`/proc/${d}/comm`, 'utf8').trim() === 'postgres';
        } catch {
          return false;
        }
      })
      .map(Number);
  } catch {
    return [];
  }
}

/** Pids of the live children of `pid` (the app's Flite engine processes), from /proc; [] off Linux. */
function childPids(pid) {
  try {
    return fs
      .readdirSync(`/proc/${pid}/task`)
      .flatMap((tid) => fs.readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' '))
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

module.exports = { startCpuWindow, processCpuMs, threadCpuMs, machineBusyMs, childPids, databaseServerPids };
