export {
  EspeakEngine,
  createEspeakEngine,
  ESPEAK_DEFAULT_RATE,
  type EspeakEngineOptions,
  type EspeakStats,
  type EspeakTestingOptions,
} from './engine';
export { EspeakWorkerCrashedError, EspeakSynthesisError, type EngineLogger } from './messages';
export type { ChildInfo } from './pool';
