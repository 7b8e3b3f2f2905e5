export { OpenAiSpeechEngine, createOpenAiSpeechEngine, type OpenAiSpeechOptions, type OpenAiVoice } from './engine';
export { OpenAiSpeechError, type OpenAiSpeechErrorCode } from './errors';
