import test from 'ava';
import { UnknownVoiceError } from '../../src/ports/speech-engine';
import type { EngineVoice, PcmChunk, SpeechEngine, SynthesisRequest } from '../../src/ports/speech-engine';
import { runSpeechEngineConformance } from '../../src/testing';

/**
 * A reference engine for the suite itself: a tone per word, sentence by sentence, one macrotask apart. It
 * shows the suite passes a correct engine (the eSpeak NG and OpenAI adapters run it for real).
 */
class ToneEngine implements SpeechEngine {
  readonly id = 'tone';
  active = 0;
  async voices(): Promise<EngineVoice[]> {
    return [{ id: 'tone-en', name: 'Tone', language: 'en-US', gender: 'neutral', sampleRate: 16000 }];
  }

  async *synthesize(request: SynthesisRequest): AsyncGenerator<PcmChunk> {
    if (request.voice !== 'tone-en') throw new UnknownVoiceError(this.id, request.voice);
    const signal = request.signal;
    this.active += 1;
    try {
      const sentences = request.text.match(/[^.!?]+[.!?]*/g) ?? [];
      let index = 0;
      for (const sentence of sentences) {
        signal?.throwIfAborted();
        const words = sentence.split(/\s+/).filter((w) => /\w/.test(w));
        if (words.length === 0) continue;
        await new Promise((resolve) => setImmediate(resolve));
        signal?.throwIfAborted();
        const speed = request.speed;
        const samples = new Int16Array(Math.round((words.join('').length * 1000) / speed));
        for (let i = 0; i < samples.length; i++) samples[i] = Math.round(8000 * Math.sin(i / 5));
        const marker = { kind: 'sentence' as const, index, text: sentence.trim() };
        index += 1;
        yield { samples, sampleRate: 16000, channels: 1, marker };
      }
      signal?.throwIfAborted();
    } finally {
      this.active -= 1;
    }
  }
}

runSpeechEngineConformance(test, {
  name: 'reference tone engine',
  async create() {
    const engine = new ToneEngine();
    return { engine, pending: () => engine.active, close: async () => {} };
  },
});
