/**
 * @formloom/speech-flite: CMU Flite's English voices (`rms`, `slt`, `awb`, `kal16`) as a `SpeechEngine`
 * of @formloom/core, run in a pool of child processes. Importing it starts nothing. See docs/voice.md.
 */
export { createFliteEngine, FliteEngine, type FliteEngineOptions, type FliteTestingOptions } from './engine';
export { FliteEngineError, isFliteEngineError, type FliteErrorCode } from './errors';
export { DEFAULT_FLITE_VOICE, FLITE_VOICES, MAX_SPEED, MIN_SPEED, splitText, type TextPiece } from './input';
export type { ChildInfo, FliteLogger, PoolStats } from './pool';
