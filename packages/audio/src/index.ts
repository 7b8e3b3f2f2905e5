export {
  AudioCodecs,
  AudioEncoder,
  createAudioCodecs,
  type EncodedAudio,
  type EncoderOptions,
  type EncodeStreamOptions,
  resolveOutputSpec,
} from './encoder';
export {
  AUDIO_FORMATS,
  AUDIO_QUALITIES,
  type AudioFormat,
  type AudioQuality,
  type FormatInfo,
  formatInfo,
  isAudioQuality,
  type OutputSpec,
  outputSpec,
  parseAudioFormat,
  PHONE_BAND,
  QUALITY_SAMPLE_RATES,
  STREAM_CONTENT_TYPE,
  streamAudioHeaders,
} from './formats';
export { frameCount, msToSamples, SampleClock, samplesToMs, silence, toMonoFloat } from './pcm';
export { linearToMulaw, wavHeader } from './encoders/pcm-codecs';
export { opusHead } from './encoders/ogg-opus';
export {
  createIsolatedAudioCodecs,
  type FinishedStream,
  IsolatedAudioCodecs,
  type IsolatedAudioCodecsOptions,
} from './isolated/codecs';
export { AudioEncoderCrashedError, type EncoderLogger } from './isolated/messages';
export type { EncoderChildInfo } from './isolated/pool';
