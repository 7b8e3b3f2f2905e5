export { EspeakEngine, createEspeakEngine, ESPEAK_DEFAULT_RATE, type EspeakEngineOptions } from './engine';
export { EspeakWorkerCrashedError, EspeakSynthesisError } from './pool';
