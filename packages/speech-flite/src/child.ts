/**
 * The child process that runs Flite. The pool forks it with `--single-threaded-gc`: without that flag,
 * repeated Flite runs in one Node process crash it with SIGSEGV (measured with the `rms` voice), and the
 * flag is refused in NODE_OPTIONS and V8 cannot take it once running, so it cannot be set in the server's own
 * process. See docs/voice.md ("Flite voices").
 *
 * Flite in WASI is a command: each run is one `_start` (wasi-libc refuses a second one on the same
 * memory). Making a fresh instance costs ~80 ms of CPU (the voices' data is copied into 20 MB of memory),
 * more than a short sentence's synthesis, so the child compiles the module once, keeps a copy of a fresh
 * instance's memory, and after a run that ended normally (main returned 0, so the stack pointer is back
 * where it started, and no `proc_exit`) writes that copy back (zeroing what the run grew): ~5 ms, and the
 * output is bit-identical to a fresh instance's (measured on 300 runs over the four voices). Any other
 * ending, or memory grown past a cap, gets a fresh instance. Flite writes a RIFF file into a directory the
 * parent made for this child.
 *
 * It does one job at a time; the parent sends the next only after the reply. Nothing runs on import:
 * the work starts only when this file is the process's main module.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { WASI } from 'node:wasi';

/** Parent to child: synthesize one piece of text. */
export interface SynthesizeMessage {
  type: 'synthesize';
  id: number;
  voice: string;
  text: string;
  /** Flite's `duration_stretch`. */
  stretch: number;
  /** Testing only: block this long before running, like a stuck engine. */
  stallMs?: number;
}

/** Child to parent. */
export type ChildMessage =
  | { type: 'ready'; compileMs: number }
  | { type: 'result'; id: number; samples: Int16Array; sampleRate: number }
  | { type: 'error'; id: number; message: string };

const OUTPUT = 'out.wav';
/** Memory past this (a pathological text) is not kept between runs: the instance is replaced. */
const MAX_REUSED_MEMORY = 128 * 1024 * 1024;

// The WebAssembly globals used here: Node has them, but @types/node 20 leaves their types to the DOM lib,
// which this project does not load.
type WasmModule = object;
type WasmInstance = { exports: { memory?: { buffer: ArrayBuffer } } };
interface WasmApi {
  Module: { new (bytes: Uint8Array): WasmModule; imports(module: WasmModule): { module: string; name: string }[] };
  Instance: new (module: WasmModule, imports: Record<string, Record<string, unknown>>) => WasmInstance;
}

/** Reads the mono 16-bit PCM of a RIFF/WAVE file as Flite writes it. */
export function readWave(bytes: Uint8Array): { samples: Int16Array; sampleRate: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.length < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE')
    throw new Error('Flite output is not a RIFF/WAVE file');
  let sampleRate = 0;
  let at = 12;
  while (at + 8 <= bytes.length) {
    const id = tag(at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === 'fmt ') {
      const format = view.getUint16(body, true);
      const channels = view.getUint16(body + 2, true);
      const bits = view.getUint16(body + 14, true);
      if (format !== 1 || channels !== 1 || bits !== 16) {
        throw new Error(`unexpected Flite output: format ${format}, ${channels} channels, ${bits} bits`);
      }
      sampleRate = view.getUint32(body + 4, true);
    } else if (id === 'data') {
      if (!sampleRate) throw new Error('Flite output has data before its format');
      const end = Math.min(bytes.length, body + size);
      const samples = new Int16Array((end - body) >> 1);
      for (let i = 0; i < samples.length; i++) samples[i] = view.getInt16(body + 2 * i, true);
      return { samples, sampleRate };
    }
    at = body + size + (size & 1);
  }
  throw new Error('Flite output has no data chunk');
}

function main(): void {
  const [wasmPath, workDir] = process.argv.slice(2);
  if (!wasmPath || !workDir || !process.send)
    throw new Error('usage: forked with <flite.wasm> <work dir> and an IPC channel');
  const send = (message: ChildMessage) => process.send!(message);

  const started = performance.now();
  const WebAssembly = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
  const compiled = new WebAssembly.Module(readFileSync(wasmPath));
  // The instance is made before the WASI object that carries a run's arguments, so its imports call
  // through to whichever WASI object is current.
  let current: WASI | undefined;
  let exitCalled = false;
  const calls: Record<string, (...args: unknown[]) => unknown> = {};
  for (const { module: from, name } of WebAssembly.Module.imports(compiled)) {
    if (from !== 'wasi_snapshot_preview1') throw new Error(`unexpected import ${from}.${name}`);
    const call = (...args: unknown[]) => (current!.wasiImport[name] as (...a: unknown[]) => unknown)(...args);
    calls[name] = name === 'proc_exit' ? (...args) => ((exitCalled = true), call(...args)) : call;
  }
  const memoryOf = (instance: WasmInstance) => new Uint8Array(instance.exports.memory!.buffer);
  const instantiate = () => new WebAssembly.Instance(compiled, { wasi_snapshot_preview1: calls });
  let next: WasmInstance | undefined = instantiate();
  const pristine = memoryOf(next).slice();
  /** An instance whose run ended cleanly, to be reset before its next run. */
  let used: WasmInstance | undefined;
  const prepare = () => {
    if (next) return;
    if (used) {
      const memory = memoryOf(used);
      memory.set(pristine);
      memory.fill(0, pristine.length);
      next = used;
      used = undefined;
    } else {
      next = instantiate();
    }
  };

  const run = (job: SynthesizeMessage) => {
    if (job.stallMs) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, job.stallMs);
    prepare();
    const instance = next!;
    next = undefined;
    const output = join(workDir, OUTPUT);
    rmSync(output, { force: true });
    current = new WASI({
      version: 'preview1',
      args: ['flite', '-voice', job.voice, '--setf', `duration_stretch=${job.stretch}`, '-t', job.text, OUTPUT],
      env: {},
      preopens: { '.': workDir },
      returnOnExit: true,
    });
    exitCalled = false;
    const code = current.start(instance); // a trap throws: the instance is dropped
    current = undefined;
    if (code === 0 && !exitCalled && memoryOf(instance).length <= MAX_REUSED_MEMORY) used = instance;
    if (code !== 0) throw new Error(`Flite exited with code ${code}`);
    const wave = readWave(readFileSync(output));
    rmSync(output, { force: true });
    return wave;
  };

  process.on('message', (job: SynthesizeMessage) => {
    if (job?.type !== 'synthesize') return;
    try {
      const { samples, sampleRate } = run(job);
      send({ type: 'result', id: job.id, samples, sampleRate });
    } catch (error) {
      send({ type: 'error', id: job.id, message: error instanceof Error ? error.message : String(error) });
    }
    // The next instance is readied after the reply is on its way, while the parent hands out the audio.
    setImmediate(prepare);
  });
  // The parent's death closes the channel: leave with it rather than linger, and take the directory along
  // (the parent removes it when it sees this process exit, but a parent that is gone cannot).
  process.on('disconnect', () => {
    rmSync(workDir, { recursive: true, force: true });
    process.exit(0);
  });
  send({ type: 'ready', compileMs: Math.round(performance.now() - started) });
}

if (require.main === module) main();
