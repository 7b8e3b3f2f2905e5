import type { AudioEncoding, SpeechEngine } from '@formloom/core';
import type * as AudioModule from '@formloom/audio';
import type * as EspeakModule from '@formloom/speech-espeak';
import type * as FliteModule from '@formloom/speech-flite';

/*
 * The voice API's packages (the speech engines' pools and the audio encoders) load at their first use, not at
 * start: an instance that never speaks keeps their code out of memory (docs/benchmarks.md, "Memory"), as
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

/** The self-hosted app's engines: eSpeak NG and Flite, both embedded (docs/voice.md). */
export function lazyEngines(): ClosableEngine[] {
  return [
    lazyEngine('espeak', () => (require('@formloom/speech-espeak') as typeof EspeakModule).createEspeakEngine()),
    lazyEngine('flite', () => (require('@formloom/speech-flite') as typeof FliteModule).createFliteEngine()),
  ];
}

/** The audio encoders, loaded at the first voice request that needs one. */
export function lazyAudioCodecs(): AudioEncoding {
  let codecs: AudioEncoding | undefined;
  const get = () => (codecs ??= (require('@formloom/audio') as typeof AudioModule).createAudioCodecs());
  return {
    outputSpec: (options) => get().outputSpec(options),
    encode: (source, options) => get().encode(source, options),
    encodeToBuffer: (source, options) => get().encodeToBuffer(source, options),
  };
}
