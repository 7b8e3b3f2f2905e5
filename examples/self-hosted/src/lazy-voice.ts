import type { AudioEncoding, SpeechEngine } from '@formloom/core';
import type * as AudioModule from '@formloom/audio';
import type * as EspeakModule from '@formloom/speech-espeak';
import type * as FliteModule from '@formloom/speech-flite';

/*
 * The voice API's packages (the speech engines' pools and the audio encoders) load at their first use, not at
 * start: an instance that never speaks keeps their code out of memory (docs/benchmarks.md, "Where the memory goes"), as
 * `@formloom/pdf` is kept out until the first signing (lazy-signing.ts). Loads are synchronous requires:
 * CommonJS loads the module in place, and `outputSpec` is synchronous.
 */

/** A speech engine the app can close. */
export type ClosableEngine = SpeechEngine & { close(): Promise<void> };

/**
 * The engine made by `create` at its first use. Its `id` is known before: it names the engine's voices and
 * must not need the package. Closing one never used loads nothing.
 */
export function lazyEngine(id: string, create: () => ClosableEngine): ClosableEngine {
  let engine: ClosableEngine | undefined;
  const get = () => {
    engine ??= create();
    if (engine.id !== id) throw new Error(`speech engine ${engine.id} was registered as ${id}`);
    return engine;
  };
  return {
    id,
    voices: async () => get().voices(),
    // Delegated lazily too: the iterator's first `next()` loads the engine, so a load failure surfaces where
    // the port says engine failures do.
    synthesize: (request) => ({
      [Symbol.asyncIterator]: () => get().synthesize(request)[Symbol.asyncIterator](),
    }),
    close: async () => engine?.close(),
  };
}

/** Where the engines' and encoders' processes report a death: a pino logger. */
export interface VoiceLogger {
  error(details: Record<string, unknown>, message: string): void;
}

/**
 * The self-hosted app's engines: eSpeak NG and Flite, both embedded and both in child processes, so a crash
 * of their WebAssembly fails one generation, never the server; idle processes exit (docs/voice.md).
 */
export function lazyEngines(logger?: VoiceLogger): ClosableEngine[] {
  return [
    lazyEngine('espeak', () => (require('@formloom/speech-espeak') as typeof EspeakModule).createEspeakEngine({ logger })),
    lazyEngine('flite', () => (require('@formloom/speech-flite') as typeof FliteModule).createFliteEngine({ logger })),
  ];
}

/**
 * The audio encoders, loaded at the first voice request that needs one: the codecs run in child processes
 * (`createIsolatedAudioCodecs`), for the same reason as the engines.
 */
export function lazyAudioCodecs(logger?: VoiceLogger): AudioEncoding & { close(): Promise<void> } {
  let codecs: AudioModule.IsolatedAudioCodecs | undefined;
  const get = () => (codecs ??= (require('@formloom/audio') as typeof AudioModule).createIsolatedAudioCodecs({ logger }));
  return {
    outputSpec: (options) => get().outputSpec(options),
    encode: (source, options) => get().encode(source, options),
    encodeToBuffer: (source, options) => get().encodeToBuffer(source, options),
    close: async () => codecs?.close(),
  };
}
