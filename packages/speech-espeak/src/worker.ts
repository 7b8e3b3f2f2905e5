/**
 * The worker thread that runs eSpeak NG. Its synthesis call is synchronous and holds the thread for the
 * whole sentence, so it never runs on the main thread (docs/voice.md, "Speech engines"). One job at a time:
 * the pool sends a job only to an idle worker.
 */
import { parentPort } from 'node:worker_threads';
import type { ToWorker, FromWorker, RawVoice } from './pool';

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

const port = parentPort;
if (!port) throw new Error('@formloom/speech-espeak: worker.js runs only as a worker thread');

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

function send(message: FromWorker, transfer: ArrayBuffer[] = []): void {
  port?.postMessage(message, transfer);
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

async function handle(message: ToWorker): Promise<void> {
  const worker = await load();
  if (message.type === 'warm') {
    send({ type: 'ready', id: message.id, sampleRate: worker.get_samplerate() });
    return;
  }
  if (message.type === 'voices') {
    send({ type: 'voices', id: message.id, voices: listVoices(worker), sampleRate: worker.get_samplerate() });
    return;
  }
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
    send({ type: 'pcm', id: message.id, samples }, [samples.buffer as ArrayBuffer]);
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

port.on('message', (message: ToWorker) => {
  handle(message).catch((error: unknown) => {
    send({ type: 'error', id: message.id, message: error instanceof Error ? error.message : String(error) });
    // Anything else thrown from inside eSpeak NG (a WebAssembly trap) leaves its memory in an unknown
    // state: end this thread so the pool starts a fresh one.
    if (!(error instanceof VoiceError) && engine) process.exit(1);
  });
});
