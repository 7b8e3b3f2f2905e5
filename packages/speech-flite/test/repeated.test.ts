/**
 * The SIGSEGV regression: repeated Flite runs with `rms` crashed a Node process running without
 * `--single-threaded-gc`. 200 syntheses in a row (two at a time, on a pool of 2) must all succeed on the
 * same two children: no crash, no restart, every result audible and identical for identical text.
 */
import test from 'ava';
import { createFliteEngine } from '../src';
import { collect, loudness } from './helpers/pcm';

// Short sentences: what is repeated is the run (each one a `_start` on a reset 20 MB memory, docs/voice.md,
// "Flite voices"), not the length of the text; a 50-character sentence costs twice the CPU of these.
const SENTENCES = ['Thank you.', 'Your answers are saved.', 'Sign here.', 'Good morning!'];

test('200 syntheses with rms in a row: no crash, no restart, the same audio for the same text', async (t) => {
  t.timeout(10 * 60_000); // a limit on hanging, not a speed check: ~40 s on a loaded 2-core machine
  const engine = createFliteEngine({ poolSize: 2 });
  t.teardown(() => engine.close());
  await engine.start();
  const pids = engine.stats().children.map((child) => child.pid);
  const lengths = new Map<string, number>();
  let done = 0;
  const lane = async (lane: number) => {
    for (let i = lane; i < 200; i += 2) {
      const text = SENTENCES[i % SENTENCES.length]!;
      const chunks = await collect(engine.synthesize({ text, voice: 'rms', speed: 1 }));
      const length = chunks.reduce((sum, chunk) => sum + chunk.samples.length, 0);
      if (loudness(chunks) <= 0.01) t.fail(`synthesis ${i} is silent`);
      if ((lengths.get(text) ?? length) !== length) t.fail(`synthesis ${i} differs from the first of its text`);
      lengths.set(text, length);
      done++;
    }
  };
  await Promise.all([lane(0), lane(1)]);
  t.is(done, 200);
  const stats = engine.stats();
  t.is(stats.crashes, 0);
  t.is(stats.timeouts, 0);
  t.deepEqual(
    stats.children.map((child) => child.pid).sort(),
    [...pids].sort(),
    'the children that started are the ones that finished'
  );
});
