/**
 * The child process that runs eSpeak NG, forked by the pool (pool.ts). Its synthesis call is synchronous and
 * holds the process for a whole sentence, and a fault in its WebAssembly can end the process: neither may
 * happen in the server's own process (docs/voice.md, "Speech engines"). One job at a time: the pool sends a
 * job only to an idle child.
 */
import type { ToChild, FromChild, RawVoice } from './messages';
interface EspeakVoiceStruct {
  ptr: number;
  get_name(): string;
  get_identifier(): string;
  get_gender(): number;
  get_languages(offset: number): number;
}
interface EspeakWorker {
  get_voices(index: number): EspeakVoiceStruct;
  set_voice(name: string): number;
  set_rate(rate: number): number;
  get_samplerate(): number;
  synthesize(text: string, callback: (samples: Int16Array, events: unknown[]) => boolean): void;
}
interface EspeakModule {
  eSpeakNGWorker: new () => EspeakWorker;
}

if (!process.send) throw new Error('@formloom/speech-espeak: child.js runs only as a child process with an IPC channel');

let engine: Promise<EspeakWorker> | undefined;

function load(): Promise<EspeakWorker> {
  engine ??= (async () => {
    // The package is an ES module; this file compiles to CommonJS, where import() stays a real import.
    const { default: createModule } = (await import('@echogarden/espeak-ng-emscripten')) as {
      default: () => Promise<EspeakModule>;
    };
    const module = await createModule();
    return new module.eSpeakNGWorker();
  })();
  return engine;
}

function send(message: FromChild): void {
  process.send?.(message);
}

function listVoices(worker: EspeakWorker): RawVoice[] {
  const voices: RawVoice[] = [];
  for (let i = 0; ; i++) {
    const voice = worker.get_voices(i);
    if (voice.ptr === 0) break;
    // `languages` is a run of (priority byte, NUL-terminated name) pairs ending with a 0 priority.
    const languages: string[] = [];
    let offset = 0;
    while (voice.get_languages(offset) !== 0) {
      let name = '';
      offset += 1;
      for (let byte = voice.get_languages(offset); byte !== 0; byte = voice.get_languages(++offset)) {
        name += String.fromCharCode(byte);
      }
      offset += 1;
      languages.push(name);
    }
    voices.push({ name: voice.get_name(), identifier: voice.get_identifier(), gender: voice.get_gender(), languages });
  }
  return voices;
}

async function handle(message: ToChild): Promise<void> {
  const worker = await load();
  if (message.type === 'voices') {
    send({ type: 'voices', id: message.id, voices: listVoices(worker), sampleRate: worker.get_samplerate() });
    return;
  }
  if (message.stallMs) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, message.stallMs);
  if (worker.set_voice(message.voice) !== 0) throw new VoiceError(`eSpeak NG cannot load voice ${message.voice}`);
  worker.set_rate(message.rate);
  let parts: Int16Array[] = [];
  let buffered = 0;
  const flush = () => {
    if (buffered === 0) return;
    const samples = new Int16Array(buffered);
    let at = 0;
    for (const part of parts) {
      samples.set(part, at);
      at += part.length;
    }
    parts = [];
    buffered = 0;
    send({ type: 'pcm', id: message.id, samples });
  };
  // eSpeak calls back every ~90 ms of audio; posting about a second at a time keeps messages few.
  worker.synthesize(message.text, (samples) => {
    if (samples.length > 0) {
      parts.push(samples);
      buffered += samples.length;
      if (buffered >= message.chunkSamples) flush();
    }
    return false; // false: go on synthesizing
  });
  flush();
  send({ type: 'done', id: message.id });
}

/** A voice eSpeak NG cannot load: the job fails, the engine is fine. */
class VoiceError extends Error {}

process.on('message', (message: ToChild) => {
  handle(message).catch((error: unknown) => {
    send({ type: 'error', id: message.id, message: error instanceof Error ? error.message : String(error) });
    // Anything else thrown from inside eSpeak NG (a WebAssembly trap) leaves its memory in an unknown
    // state: end this process so the pool starts a fresh one.
    if (!(error instanceof VoiceError) && engine) process.exit(1);
  });
});

// The server's death closes the channel: leave with it rather than linger.
process.on('disconnect', () => process.exit(0));
