/**
 * A pool of child processes running Flite (see child.ts for why they are processes). Jobs are one piece
 * of text each and are served first come, first served: a request queues again for every sentence, so
 * concurrent requests take turns instead of one long text holding a child. A child that dies is replaced;
 * a job that outlives its timeout has its child killed. Nothing here can throw into the server: every
 * failure becomes the rejection of one job. See docs/voice.md ("Flite voices").
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildMessage, SynthesizeMessage } from './child';
import { FliteEngineError } from './errors';

/** Where a child's death is reported: a pino logger fits as it is (`logger.error({ pid }, msg)`). */
export interface FliteLogger {
  error(details: Record<string, unknown>, message: string): void;
}

export interface PoolOptions {
  size: number;
  callTimeoutMs: number;
  wasmPath: string;
  childScript: string;
  logger?: FliteLogger;
}

export type Job = Omit<SynthesizeMessage, 'type' | 'id'>;
export interface JobResult {
  samples: Int16Array;
  sampleRate: number;
}

/** One child as {@link FlitePool.stats} shows it. */
export interface ChildInfo {
  pid: number;
  state: 'starting' | 'idle' | 'busy';
}

export interface PoolStats {
  children: ChildInfo[];
  /** Jobs waiting for a child. */
  queued: number;
  /** Children that died while running or idle (not those ended by `close()` or a timeout). */
  crashes: number;
  /** Children killed because a job timed out. */
  timeouts: number;
  /** Wall time from fork to ready of the last child started, in ms (compile included), and its compile. */
  lastStartMs?: number;
  lastCompileMs?: number;
}

interface Call {
  id: number;
  resolve(result: JobResult): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

interface Slot {
  child: ChildProcess;
  pid: number;
  state: 'starting' | 'idle' | 'busy' | 'dead';
  workDir: string;
  ready: Promise<void>;
  exited: Promise<void>;
  call?: Call;
  stderr: string;
  idleSince: number;
}

interface Waiter {
  take(slot: Slot): void;
  reject(error: Error): void;
}

/** Consecutive children that die before ready before queued jobs are failed instead of waiting. */
const MAX_START_FAILURES = 3;

export class FlitePool {
  private readonly slots = new Set<Slot>();
  private readonly waiters: Waiter[] = [];
  private closed = false;
  private nextId = 0;
  private startFailures = 0;
  private crashes = 0;
  private timeouts = 0;
  private lastStartMs?: number;
  private lastCompileMs?: number;

  constructor(private readonly options: PoolOptions) {}

  /** Starts the missing children and resolves when all are ready (their wasm compiled). */
  async start(): Promise<void> {
    this.assertOpen();
    this.fill();
    await Promise.all([...this.slots].map((slot) => slot.ready));
  }

  /** Runs one job on the first free child. `signal` takes a job out of the queue; a running job finishes. */
  async run(job: Job, signal?: AbortSignal): Promise<JobResult> {
    signal?.throwIfAborted();
    const slot = await this.acquire(signal);
    if (slot.state === 'dead') throw new FliteEngineError('crashed', 'the Flite process died before it got the job');
    return new Promise<JobResult>((resolve, reject) => {
      const id = ++this.nextId;
      const timer = setTimeout(() => {
        this.timeouts++;
        this.retire(slot);
        const limit = this.options.callTimeoutMs;
        this.settle(
          slot,
          id,
          new FliteEngineError(
            'timeout',
            `Flite took longer than ${limit} ms for one sentence; its process was restarted`
          )
        );
      }, this.options.callTimeoutMs);
      slot.call = { id, resolve, reject, timer };
      this.hold(slot, true);
      const message: SynthesizeMessage = { type: 'synthesize', id, ...job };
      try {
        slot.child.send(message, (error) => {
          if (error) this.lost(slot, `could not reach the Flite process: ${error.message}`);
        });
      } catch (error) {
        this.lost(slot, `could not reach the Flite process: ${(error as Error).message}`);
      }
    });
  }

  stats(): PoolStats {
    const children: ChildInfo[] = [];
    for (const slot of this.slots) if (slot.state !== 'dead') children.push({ pid: slot.pid, state: slot.state });
    return {
      children,
      queued: this.waiters.length,
      crashes: this.crashes,
      timeouts: this.timeouts,
      lastStartMs: this.lastStartMs,
      lastCompileMs: this.lastCompileMs,
    };
  }

  /** Kills every child, fails queued and running jobs with `closed`, and resolves once all have exited. */
  async close(): Promise<void> {
    this.closed = true;
    const closing = new FliteEngineError('closed', 'the Flite engine was closed');
    for (const waiter of this.waiters.splice(0)) waiter.reject(closing);
    const exits: Promise<void>[] = [];
    for (const slot of this.slots) {
      exits.push(slot.exited);
      this.retire(slot);
      if (slot.call) this.settle(slot, slot.call.id, closing);
    }
    await Promise.all(exits);
  }

  private assertOpen(): void {
    if (this.closed) throw new FliteEngineError('closed', 'the Flite engine was closed');
  }

  private acquire(signal?: AbortSignal): Promise<Slot> {
    this.assertOpen();
    this.fill();
    const idle = this.longestIdle();
    if (idle && this.waiters.length === 0) {
      idle.state = 'busy'; // taken now, not after the await, so a second caller in this tick cannot take it
      return Promise.resolve(idle);
    }
    return new Promise<Slot>((resolve, reject) => {
      const onAbort = () => {
        const at = this.waiters.indexOf(waiter);
        if (at >= 0) this.waiters.splice(at, 1);
        reject(signal!.reason);
      };
      const waiter: Waiter = {
        take: (slot) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(slot);
        },
        reject: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
      this.dispatch();
    });
  }

  /** Hands idle children to waiting jobs, oldest first. */
  private dispatch(): void {
    for (let slot = this.longestIdle(); slot && this.waiters.length > 0; slot = this.longestIdle()) {
      slot.state = 'busy'; // taken: run() sends it the job in the same tick
      this.waiters.shift()!.take(slot);
    }
  }

  /**
   * The child idle the longest: a request's next sentence goes to the other child while the one that
   * just answered makes its next wasm instance (see child.ts).
   */
  private longestIdle(): Slot | undefined {
    let best: Slot | undefined;
    for (const slot of this.slots) {
      if (slot.state === 'idle' && (!best || slot.idleSince < best.idleSince)) best = slot;
    }
    return best;
  }

  private fill(): void {
    if (this.closed) return;
    let live = 0;
    for (const slot of this.slots) if (slot.state !== 'dead') live++;
    for (; live < this.options.size; live++) this.spawn();
  }

  private spawn(): void {
    const workDir = mkdtempSync(join(tmpdir(), 'formloom-flite-'));
    const forkedAt = performance.now();
    const child = fork(this.options.childScript, [this.options.wasmPath, workDir], {
      execArgv: ['--single-threaded-gc', '--no-warnings'],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let markReady!: () => void;
    let failStart!: (error: Error) => void;
    let markExited!: () => void;
    const slot: Slot = {
      child,
      pid: child.pid ?? -1,
      state: 'starting',
      workDir,
      ready: new Promise<void>((resolve, reject) => {
        markReady = resolve;
        failStart = reject;
      }),
      exited: new Promise<void>((resolve) => (markExited = resolve)),
      stderr: '',
      idleSince: 0,
    };
    slot.ready.catch(() => {}); // observed by start() when it waits; a failed start is handled below too
    this.slots.add(slot);
    // The last few lines a dying child printed go into the error message.
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => (slot.stderr = (slot.stderr + text).slice(-1000)));
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'ready') {
        if (slot.state !== 'starting') return;
        slot.state = 'idle';
        this.startFailures = 0;
        this.lastStartMs = Math.round(performance.now() - forkedAt);
        this.lastCompileMs = message.compileMs;
        this.hold(slot, false);
        markReady();
        this.dispatch();
      } else if (message.type === 'result') {
        this.settle(slot, message.id, { samples: message.samples, sampleRate: message.sampleRate });
      } else if (message.type === 'error') {
        this.settle(slot, message.id, new FliteEngineError('synthesis_failed', `Flite failed: ${message.message}`));
      }
    });
    let ended = false;
    const onEnd = (how: string) => {
      if (ended) return;
      ended = true;
      const detail = slot.stderr.trim() ? `: ${slot.stderr.trim().split('\n').slice(-3).join(' / ')}` : '';
      const wasStarting = slot.state === 'starting';
      const retired = slot.state === 'dead';
      if (!retired) {
        this.options.logger?.error(
          { engine: 'flite', pid: slot.pid, exit: how, busy: !!slot.call, ...(detail ? { stderr: detail.slice(2) } : {}) },
          'speech engine process died; its request fails or is retried and a new process starts'
        );
      }
      slot.state = 'dead';
      this.slots.delete(slot);
      rmSync(workDir, { recursive: true, force: true });
      if (slot.call) {
        this.settle(
          slot,
          slot.call.id,
          new FliteEngineError('crashed', `the Flite process died (${how}) while synthesizing${detail}`)
        );
      }
      if (wasStarting) {
        const error = new FliteEngineError('start_failed', `the Flite process could not start (${how})${detail}`);
        failStart(error);
        if (++this.startFailures >= MAX_START_FAILURES) {
          for (const waiter of this.waiters.splice(0)) waiter.reject(error);
        }
      } else {
        failStart(new FliteEngineError('closed', 'the Flite process was stopped before it was ready'));
        if (!retired) this.crashes++;
      }
      markExited();
      // Keep the pool at size after a crash or while work waits; after repeated start failures, the next
      // job starts one again (so a broken installation fails requests instead of forking in a loop).
      if (!this.closed && (this.waiters.length > 0 || !wasStarting)) this.fill();
    };
    child.once('exit', (code, signal) => onEnd(signal ? `signal ${signal}` : `exit code ${code}`));
    child.on('error', (error) => {
      // Failing to signal or reach a running child is settled by its exit or the call's timeout; failing
      // to spawn one produces no exit event.
      if (child.pid === undefined) onEnd(`spawn failed: ${error.message}`);
    });
  }

  /** Resolves or rejects the running call `id` of `slot` and frees the slot (unless it is being retired). */
  private settle(slot: Slot, id: number, outcome: JobResult | Error): void {
    const call = slot.call;
    if (!call || call.id !== id) return;
    slot.call = undefined;
    clearTimeout(call.timer);
    if (slot.state === 'busy') {
      slot.state = 'idle';
      slot.idleSince = performance.now();
      this.hold(slot, false);
    }
    if (outcome instanceof Error) call.reject(outcome);
    else call.resolve(outcome);
    if (slot.state === 'idle') this.dispatch();
  }

  /** The channel to a child failed: treat it as dead. */
  private lost(slot: Slot, message: string): void {
    // A child that cannot be reached has died (its exit event may come later): it counts as a crash here,
    // because retiring it marks it dead and its exit handler then counts nothing.
    if (slot.state !== 'dead') this.crashes++;
    this.retire(slot);
    if (slot.call) this.settle(slot, slot.call.id, new FliteEngineError('crashed', message));
  }

  /** Takes a slot out of service and kills its process; its exit handler cleans up. */
  private retire(slot: Slot): void {
    slot.state = 'dead';
    this.hold(slot, true); // until its exit is seen, so close() resolves before the host may exit
    try {
      slot.child.kill('SIGKILL');
    } catch {
      // already gone
    }
    this.fill();
  }

  /**
   * An idle child must not keep the server's process alive (a host that forgets `close()` still exits);
   * a busy or starting one must, or a pending request could be dropped at exit.
   */
  private hold(slot: Slot, busy: boolean): void {
    const handles = [slot.child, slot.child.channel, slot.child.stderr] as (
      | { ref?(): unknown; unref?(): unknown }
      | null
      | undefined
    )[];
    for (const handle of handles) (busy ? handle?.ref : handle?.unref)?.call(handle);
  }
}
