import test from 'ava';
import { runSpeechEngineConformance } from '@formloom/core/testing';
import { createEspeakEngine } from '../src';

runSpeechEngineConformance(test, {
  name: 'eSpeak NG (en-us+klatt4)',
  voice: 'en-us+klatt4',
  // eSpeak NG jitters pitch at random: the same request differs by a few samples from run to run.
  deterministic: false,
  async create() {
    const engine = createEspeakEngine();
    return { engine, pending: () => engine.stats().pending, close: () => engine.close() };
  },
});
