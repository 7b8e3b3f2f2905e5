/**
 * Lazy loading of the WebAssembly codecs. Nothing is loaded on import: a {@link WasmModules} instance loads
 * each module on its first use and keeps it for its own lifetime, so one instance per process (or per
 * mounted Formloom) compiles each module once. See docs/voice.md.
 */

/** The part of the Speex resampler's emscripten module this package calls. */
export interface SpeexModule {
  HEAPF32: Float32Array;
  HEAPU32: Uint32Array;
  HEAP32: Int32Array;
  _malloc(bytes: number): number;
  _free(ptr: number): void;
  _speex_resampler_init(channels: number, inRate: number, outRate: number, quality: number, errPtr: number): number;
  _speex_resampler_destroy(state: number): void;
  _speex_resampler_skip_zeros(state: number): number;
  _speex_resampler_get_input_latency(state: number): number;
  _speex_resampler_process_interleaved_float(
    state: number,
    inPtr: number,
    inLenPtr: number,
    outPtr: number,
    outLenPtr: number
  ): number;
}

/** One libopus encoder+decoder pair as opusscript's native module exposes it. */
export interface OpusHandler {
  _encode(inputPtr: number, bytes: number, outputPtr: number, frameSize: number): number;
  _decode(inputPtr: number, bytes: number, outputPtr: number): number;
  _encoder_ctl(ctl: number, arg: number): number;
}

/** The part of opusscript's emscripten module this package calls (bypassing its JS wrapper; see opus-codec.ts). */
export interface OpusModule {
  HEAPU8: Uint8Array;
  HEAPU16: Uint16Array;
  HEAP32: Int32Array;
  _malloc(bytes: number): number;
  _free(ptr: number): void;
  OpusScriptHandler: {
    new (sampleRate: number, channels: number, application: number): OpusHandler;
    destroy_handler(h: OpusHandler): void;
  };
}

export type Mediabunny = typeof import('mediabunny');

/** Holds the loaded modules. Each getter loads on first call; concurrent first calls share one load. */
export class WasmModules {
  private speex?: Promise<SpeexModule>;
  private opus?: OpusModule;
  private mediabunny?: Promise<Mediabunny>;

  /** The Speex resampler (SIMD build; Node 20 supports wasm SIMD). */
  speexResampler(): Promise<SpeexModule> {
    this.speex ??= import('@echogarden/speex-resampler-wasm/simd').then(async (mod) => {
      return (await mod.default()) as SpeexModule;
    });
    return this.speex;
  }

  /** libopus (opusscript's wasm build, which instantiates synchronously). */
  opusModule(): OpusModule {
    // The factory is a CommonJS module that compiles its inlined wasm synchronously on call.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    this.opus ??= (require('opusscript/build/opusscript_native_wasm.js') as () => OpusModule)();
    return this.opus;
  }

  /**
   * mediabunny with the LAME MP3 encoder registered. Registration is mediabunny's own process-wide
   * registry and idempotent, so the first instance to need mp3 registers it for all.
   */
  mediabunnyWithMp3(): Promise<Mediabunny> {
    this.mediabunny ??= (async () => {
      const [mb, mp3] = await Promise.all([import('mediabunny'), import('@mediabunny/mp3-encoder')]);
      mp3.registerMp3Encoder();
      return mb;
    })();
    return this.mediabunny;
  }
}
