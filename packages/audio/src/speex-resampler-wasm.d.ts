// The package ships no types: its default export is an emscripten module factory (see wasm.ts).
declare module '@echogarden/speex-resampler-wasm/simd' {
  const createModule: (moduleArg?: object) => Promise<unknown>;
  export default createModule;
}
