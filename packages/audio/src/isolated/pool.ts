/**
 * The encoder child processes of `IsolatedAudioCodecs` (child.ts runs in each). A stream is opened on the
 * child with the fewest open streams; a new child is started while every child has one, up to `size`. A
 * child that dies fails the streams it was encoding (and only those), is logged, and is replaced by the
 * next stream's open. A child without streams for `idleMs` exits, so its codecs' memory goes back to the
 * system. See docs/voice.md ("Audio formats") and docs/decisions.md ("Voice").
 */
import { type ChildProcess, fork } from 'node:child_process';
import type { PcmChunk } from '@formloom/core';
import { AudioEncoderCrashedError, type EncoderLogger, type FromEncoder, type ToEncoder } from './messages';

export interface EncoderPoolOptions {
  size: number;
  idleMs: number;
  childScript: string;
  logger?: EncoderLogger;
}

/** One child as `stats()` shows it. */
export interface EncoderChildInfo {
  pid: number;
  /** Streams open on it. */
  streams: number;
}

interface Call {
  resolve(message: FromEncoder): void;
  reject(error: Error): void;
}

export interface Slot {
  child: ChildProcess;
  pid: number;
  streams: Map<number, RemoteStream>;
  idleTimer: NodeJS.Timeout | undefined;
  retired: boolean;
  stderr: string;
}

/** One stream encoded in a child: its calls are answered in the order they were made. */
export class RemoteStream {
  private readonly calls = new Map<number, Call>();
  private nextCall = 1;
  private failure: Error | undefined;
  private ended = false;

  constructor(readonly id: number, private readonly slot: Slot, private readonly pool: EncoderPool) {}

  write(chunk: PcmChunk): Promise<Uint8Array> {
    const { samples, sampleRate, channels } = chunk;
    return this.call({ type: 'write', stream: this.id, call: 0, samples, sampleRate, channels }).then((m) =>
      m.type === 'bytes' ? m.bytes : new Uint8Array(0)
    );
  }

  async finish(): Promise<{ bytes: Uint8Array; durationMs: number; finalHeader?: Uint8Array }> {
    const answer = await this.call({ type: 'finish', stream: this.id, call: 0 });
    if (answer.type !== 'finished') throw new Error(`unexpected answer ${answer.type} to finish`);
    this.end();
    return answer;
  }

  /** Ends the stream early: the child frees its encoder. Idempotent. */
  abort(): void {
    if (this.ended) return;
    if (!this.failure) this.pool.send(this.slot, { type: 'abort', stream: this.id });
    this.end();
  }

  receive(message: FromEncoder): void {
    const call = this.calls.get(message.call);
    if (!call) return;
    this.calls.delete(message.call);
    if (message.type === 'error') {
      this.failure ??= new Error(`audio encoder: ${message.message}`);
      call.reject(this.failure);
    } else call.resolve(message);
  }

  /** The child died (or was closed): every call, pending and later, rejects. */
  fail(error: Error): void {
    this.failure ??= error;
    for (const call of this.calls.values()) call.reject(this.failure);
    this.calls.clear();
  }

  private call(message: Extract<ToEncoder, { call: number }>): Promise<FromEncoder> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.ended) return Promise.reject(new Error('audio stream has ended'));
    const id = this.nextCall++;
    return new Promise((resolve, reject) => {
      this.calls.set(id, { resolve, reject });
      this.pool.send(this.slot, { ...message, call: id });
    });
  }

  private end(): void {
    this.ended = true;
    this.pool.closed(this.slot, this);
  }
}

export class EncoderPool {
  private readonly slots: Slot[] = [];
  private nextStream = 1;
  private crashes = 0;

  constructor(private readonly options: EncoderPoolOptions) {}

  stats(): { children: EncoderChildInfo[]; crashes: number } {
    return { children: this.slots.map((s) => ({ pid: s.pid, streams: s.streams.size })), crashes: this.crashes };
  }

  open(format: string, quality: string): RemoteStream {
    let slot = this.slots.reduce<Slot | undefined>((a, s) => (!a || s.streams.size < a.streams.size ? s : a), undefined);
    if (!slot || (slot.streams.size > 0 && this.slots.length < this.options.size)) slot = this.spawn();
    const stream = new RemoteStream(this.nextStream++, slot, this);
    slot.streams.set(stream.id, stream);
    clearTimeout(slot.idleTimer);
    hold(slot.child, true);
    this.send(slot, { type: 'open', stream: stream.id, format, quality });
    return stream;
  }

  /** Stops every child; open streams fail. Resolves once all have exited. */
  async close(): Promise<void> {
    const closing = new Error('the audio encoders were closed');
    await Promise.all(
      this.slots.slice().map((slot) => {
        for (const stream of slot.streams.values()) stream.fail(closing);
        return this.retire(slot);
      })
    );
  }

  /** @internal */
  send(slot: Slot, message: ToEncoder): void {
    if (slot.retired) return;
    slot.child.send(message, (error) => {
      // A channel that fails is a lost child: end it, and its exit fails its streams.
      if (error) slot.child.kill('SIGKILL');
    });
  }

  /** @internal A stream of `slot` has ended: an idle child no longer keeps the server alive, and rests. */
  closed(slot: Slot, stream: RemoteStream): void {
    slot.streams.delete(stream.id);
    if (slot.streams.size > 0 || slot.retired) return;
    hold(slot.child, false);
    clearTimeout(slot.idleTimer);
    slot.idleTimer = setTimeout(() => {
      if (slot.streams.size === 0) void this.retire(slot);
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
    const slot: Slot = { child, pid: child.pid ?? -1, streams: new Map(), idleTimer: undefined, retired: false, stderr: '' };
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => (slot.stderr = (slot.stderr + text).slice(-1000)));
    child.on('message', (message: FromEncoder) => slot.streams.get(message.stream)?.receive(message));
    child.once('exit', (code, signal) => this.exited(slot, signal ? `signal ${signal}` : `exit code ${code}`));
    child.on('error', (error) => {
      if (child.pid === undefined) this.exited(slot, `spawn failed: ${error.message}`);
    });
    this.slots.push(slot);
    return slot;
  }

  private exited(slot: Slot, how: string): void {
    clearTimeout(slot.idleTimer);
    const at = this.slots.indexOf(slot);
    if (at >= 0) this.slots.splice(at, 1);
    const streams = [...slot.streams.values()];
    if (!slot.retired) {
      this.crashes++;
      slot.retired = true;
      const stderr = slot.stderr.trim().split('\n').slice(-3).join(' / ');
      this.options.logger?.error(
        { encoder: 'audio', pid: slot.pid, exit: how, streams: streams.length, ...(stderr ? { stderr } : {}) },
        'audio encoder process died; its streams fail and the next one starts a new process'
      );
    }
    const error = new AudioEncoderCrashedError(how);
    for (const stream of streams) stream.fail(error);
  }

  /** Takes a slot out of service and ends its process; resolves once it has exited. */
  private retire(slot: Slot): Promise<void> {
    slot.retired = true;
    clearTimeout(slot.idleTimer);
    const at = this.slots.indexOf(slot);
    if (at >= 0) this.slots.splice(at, 1); // no stream opens on it any more
    hold(slot.child, true); // until its exit is seen, so close() resolves before the host may exit
    const exited = new Promise<void>((resolve) => {
      if (slot.child.exitCode !== null || slot.child.signalCode !== null) resolve();
      else slot.child.once('exit', () => resolve());
    });
    slot.child.kill('SIGKILL');
    return exited;
  }
}

/** A child with open streams keeps the server's process alive; an idle one does not. */
function hold(child: ChildProcess, busy: boolean): void {
  const handles = [child, child.channel, child.stderr] as ({ ref?(): unknown; unref?(): unknown } | null | undefined)[];
  for (const handle of handles) (busy ? handle?.ref : handle?.unref)?.call(handle);
}
