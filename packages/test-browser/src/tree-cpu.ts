import { readdirSync, readFileSync } from 'node:fs';

/*
 * The CPU time of every process under this one, for the test run's report (docs/testing.md, "The test report").
 * Chromium's renderers, zygote and helpers are not all waited for by the process that made them, so the
 * children's time the kernel adds up on `wait` (cutime in /proc/self/stat) held about a third of the shared
 * browser's CPU. Each process's own time is read from /proc while it runs instead, twice a second: what one
 * uses between its last reading and its end (under half a second) is all that goes uncounted.
 */

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ on Linux). */
const TICKS = 100;

interface ProcStat {
  ppid: number;
  /** The process's start time: with the pid, a key no later process reuses. */
  start: string;
  cpuMs: number;
}

function readStat(pid: string): ProcStat | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command's closing parenthesis: ppid is the 2nd, utime and stime the 12th and 13th,
    // starttime the 20th (each one less than its number in proc(5), which counts pid and comm).
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(f[1]), start: f[19]!, cpuMs: ((Number(f[11]) + Number(f[12])) * 1000) / TICKS };
  } catch {
    return null; // Ended meanwhile.
  }
}

export class TreeCpu {
  /** `pid:start` → the CPU time last read of every descendant seen. */
  private readonly seen = new Map<string, number>();
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly root = process.pid) {}

  /** Reads every descendant's time now and every `everyMs` until `stop()`. */
  start(everyMs = 500): this {
    this.sample();
    this.timer = setInterval(() => this.sample(), everyMs);
    this.timer.unref();
    return this;
  }

  sample(): void {
    let pids: string[];
    try {
      pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
    } catch {
      return; // Not Linux: only the root's own time is known.
    }
    const stats = new Map<number, ProcStat>();
    for (const pid of pids) {
      const s = readStat(pid);
      if (s) stats.set(Number(pid), s);
    }
    const under = (pid: number): boolean => {
      // Parents' chains are short; a cycle cannot occur in /proc but a vanished parent ends the walk.
      for (let p = stats.get(pid)?.ppid, hops = 0; p !== undefined && hops < 64; p = stats.get(p)?.ppid, hops++) {
        if (p === this.root) return true;
        if (p <= 1) return false;
      }
      return false;
    };
    for (const [pid, s] of stats) if (pid !== this.root && under(pid)) this.seen.set(`${pid}:${s.start}`, s.cpuMs);
  }

  /** Stops reading. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** The descendants' CPU time, in ms, as last read. */
  descendantsMs(): number {
    let total = 0;
    for (const ms of this.seen.values()) total += ms;
    return total;
  }
}
