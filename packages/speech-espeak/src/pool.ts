/**
 * A small pool of child processes running eSpeak NG (see child.ts). eSpeak is WebAssembly compiled from C:
 * a fault in it (or in V8 under it) can end the process it runs in with a signal, which no JavaScript can
 * catch. In a child, that ends one request: the pool fails the job it was serving, logs the death, and the
 * next job starts a fresh child. Children that have been idle for `idleMs` exit, so the ~60 MB each holds
 * (the wasm memory and 24 MB of voice data) goes back to the system; the next job starts one again (about
 * a second). See docs/voice.md ("Speech engines") and docs/decisions.md ("Voice").
 */
import { type ChildProcess, fork } from 'node:child_process';
import { Job } from './job';
import { EspeakWorkerCrashedError, type EngineLogger, type FromChild, type ToChild } from './messages';

export { Job } from './job';

/** One child as `stats()` shows it. */
export interface ChildInfo {
  pid: number;
  state: 'idle' | 'busy';
}

interface Slot {
  child: ChildProcess;
  pid: number;
  job: Job | undefined;
  idleTimer: NodeJS.Timeout | undefined;
  /** Taken out of service (idle, closed, or its channel failed): its exit is expected. */
  retired: boolean;
  stderr: string;
}

export interface PoolOptions {
  size: number;
  childScript: string;
  /** An idle child exits after this many ms. */
  idleMs: number;
  logger?: EngineLogger;
}

type Request = ToChild extends infer T ? (T extends unknown ? Omit<T, 'id'> : never) : never;

export class ProcessPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private crashes = 0;

  constructor(private readonly options: PoolOptions) {}

  /** Jobs running or waiting. */
  get pending(): number {
    return this.queue.length + this.slots.filter((s) => s.job).length;
  }

  stats(): { children: ChildInfo[]; pending: number; crashes: number } {
    return {
      children: this.slots.map((s) => ({ pid: s.pid, state: s.job ? 'busy' : 'idle' })),
      pending: this.pending,
      crashes: this.crashes,
    };
  }

  run(request: Request): Job {
    const id = this.nextId++;
    const job = new Job(id, { ...request, id } as ToChild);
    this.queue.push(job);
    this.dispatch();
    return job;
  }

  /** Drops a job nobody waits for any more: a queued one never runs; a running one finishes unseen. */
  cancel(job: Job): void {
    job.cancelled = true;
    const at = this.queue.indexOf(job);
    if (at >= 0) this.queue.splice(at, 1);
  }

  /** Starts children up to the pool size (eSpeak NG loads in each on its first job). */
  fill(): void {
    while (this.slots.length < this.options.size) this.idle(this.spawn());
  }

  /** Stops every child; queued and running jobs fail. Resolves once all have exited. */
  async close(): Promise<void> {
    const closing = new Error('the eSpeak NG engine was closed');
    for (const job of this.queue.splice(0)) job.fail(closing);
    await Promise.all(
      this.slots.slice().map((slot) => {
        slot.job?.fail(closing);
        return this.retire(slot);
      })
    );
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const slot = this.slots.find((s) => !s.job) ?? (this.slots.length < this.options.size ? this.spawn() : undefined);
      if (!slot) return;
      const job = this.queue.shift() as Job;
      clearTimeout(slot.idleTimer);
      slot.job = job;
      hold(slot.child, true);
      slot.child.send(job.message, (error) => {
        if (error) void this.retire(slot, `could not reach the eSpeak NG process: ${error.message}`);
      });
    }
  }

  /** A slot without a job: it no longer keeps the server's process alive, and exits after `idleMs`. */
  private idle(slot: Slot): void {
    slot.job = undefined;
    hold(slot.child, false);
    clearTimeout(slot.idleTimer);
    slot.idleTimer = setTimeout(() => {
      if (!slot.job) void this.retire(slot);
    }, this.options.idleMs);
    slot.idleTimer.unref();
  }

  private spawn(): Slot {
    const child = fork(this.options.childScript, [], {
      // The server's own flags (an inspector, a heap limit) are not the child's.
      execArgv: ['--no-warnings'],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    const slot: Slot = { child, pid: child.pid ?? -1, job: undefined, idleTimer: undefined, retired: false, stderr: '' };
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => (slot.stderr = (slot.stderr + text).slice(-1000)));
    child.on('message', (message: FromChild) => {
      const job = slot.job;
      if (!job || message.id !== job.id) return;
      job.receive(message);
      if (message.type !== 'pcm') {
        this.idle(slot);
        this.dispatch();
      }
    });
    child.once('exit', (code, signal) => this.exited(slot, signal ? `signal ${signal}` : `exit code ${code}`));
    child.on('error', (error) => {
      // A failed spawn has no exit event; failing to reach a running child is settled by its exit.
      if (child.pid === undefined) this.exited(slot, `spawn failed: ${error.message}`);
    });
    this.slots.push(slot);
    return slot;
  }

  private exited(slot: Slot, how: string): void {
    clearTimeout(slot.idleTimer);
    const at = this.slots.indexOf(slot);
    if (at >= 0) this.slots.splice(at, 1);
    const job = slot.job;
    slot.job = undefined;
    if (!slot.retired) {
      this.crashes++;
      const stderr = slot.stderr.trim().split('\n').slice(-3).join(' / ');
      this.options.logger?.error(
        { engine: 'espeak', pid: slot.pid, exit: how, job: job ? job.message.type : null, ...(stderr ? { stderr } : {}) },
        'speech engine process died; its request fails and the next one starts a new process'
      );
    }
    job?.fail(new EspeakWorkerCrashedError(how));
    this.dispatch();
  }

  /** Takes a slot out of service and ends its process; resolves once it has exited. */
  private retire(slot: Slot, failure?: string): Promise<void> {
    if (!slot.retired) {
      slot.retired = !failure; // a lost channel is a failure: logged when the process goes
      clearTimeout(slot.idleTimer);
      hold(slot.child, true); // until its exit is seen, so close() resolves before the host may exit
      const at = this.slots.indexOf(slot);
      if (at >= 0) this.slots.splice(at, 1); // no job is sent to it any more
    }
    const exited = new Promise<void>((resolve) => {
      if (slot.child.exitCode !== null || slot.child.signalCode !== null) resolve();
      else slot.child.once('exit', () => resolve());
    });
    slot.child.kill('SIGKILL');
    return exited;
  }
}

/**
 * A busy child keeps the server's process alive (a request must not be dropped at exit); an idle one does
 * not, so a host that forgets `close()` still exits.
 */
function hold(child: ChildProcess, busy: boolean): void {
  const handles = [child, child.channel, child.stderr] as ({ ref?(): unknown; unref?(): unknown } | null | undefined)[];
  for (const handle of handles) (busy ? handle?.ref : handle?.unref)?.call(handle);
}
