/** The SpeechEngine port's conformance suite, against real Flite children (pool of 2, default voice rms). */
import { runSpeechEngineConformance } from '@formloom/core/testing';
import test from 'ava';
import { createFliteEngine } from '../src';

runSpeechEngineConformance(test, {
  name: 'flite',
  voice: 'rms',
  async create() {
    const engine = createFliteEngine({ poolSize: 2 });
    await engine.start();
    return {
      engine,
      pending: () => {
        const stats = engine.stats();
        return stats.queued + stats.children.filter((child) => child.state === 'busy').length;
      },
      close: () => engine.close(),
    };
  },
});
