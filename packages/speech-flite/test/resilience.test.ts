/**
 * What the child-process pool promises beyond the port: a child killed mid-request fails that request with
 * a typed error (or retries it, when nothing was yielded yet) and never the server; a stuck sentence times
 * out; requests beyond the pool size queue and all finish; close() leaves no process behind. Each test
 * has its own engine (pool of 1 or 2), so their children are known; they run one at a time, as each forks
 * children that compile Flite.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PcmChunk, SynthesisRequest } from '@formloom/core';
import test from 'ava';
import { createFliteEngine, type FliteEngine, FliteEngineError, isFliteEngineError } from '../src';
import { alive, collect, seconds, waitFor } from './helpers/pcm';

const STUCK_MS = 120_000;

function say(text: string, extra: Partial<SynthesisRequest> = {}): SynthesisRequest {
  return { text, voice: 'rms', speed: 1, ...extra };
}

function busyPid(engine: FliteEngine): number {
  const busy = engine.stats().children.find((child) => child.state === 'busy');
  if (!busy) throw new Error(`no busy child: ${JSON.stringify(engine.stats())}`);
  return busy.pid;
}

test.serial(
  'a child killed after audio went out fails the request with a crashed FliteEngineError; the next works',
  async (t) => {
    const logged: Record<string, unknown>[] = [];
    const engine = createFliteEngine({
      poolSize: 1,
      testing: { stallMs: ({ sentence }) => (sentence === 1 ? STUCK_MS : 0) },
      logger: { error: (details) => void logged.push(details) },
    });
    t.teardown(() => engine.close());
    await engine.start();
    const iterator = engine
      .synthesize(say('The first sentence is fine. The second one never ends.'))
      [Symbol.asyncIterator]();
    const first = await iterator.next();
    t.false(first.done);
    t.true((first.value as PcmChunk).samples.length > 0);
    // The second sentence is already running (stalled) in the only child.
    const pid = busyPid(engine);
    process.kill(pid, 'SIGKILL');
    const error = await t.throwsAsync(iterator.next());
    t.true(error instanceof FliteEngineError, String(error));
    t.true(isFliteEngineError(error));
    t.is((error as FliteEngineError).code, 'crashed');
    t.regex(error!.message, /SIGKILL/);
    t.true((await iterator.next()).done, 'nothing after the failure');
    t.like(logged, [{ engine: 'flite', pid, exit: 'signal SIGKILL', busy: true }], 'the death is logged once');

    // A restarted child serves the next request; this process is unharmed.
    const chunks = await collect(engine.synthesize(say('The next request is served by a new child.')));
    t.true(seconds(chunks) > 0.5);
    t.false(alive(pid));
    t.is(engine.stats().crashes, 1);
    t.is(engine.stats().children.length, 1);
    t.not(engine.stats().children[0]!.pid, pid);
  }
);

test.serial(
  'a child killed before the first chunk is retried once on a fresh child and the request succeeds',
  async (t) => {
    const attempts: number[] = [];
    const engine = createFliteEngine({
      poolSize: 1,
      testing: {
        stallMs: ({ sentence, attempt }) => {
          if (sentence === 0) attempts.push(attempt);
          return sentence === 0 && attempt === 0 ? STUCK_MS : 0;
        },
      },
    });
    t.teardown(() => engine.close());
    await engine.start();
    const iterator = engine.synthesize(say('Nothing was said yet. So this is retried.'))[Symbol.asyncIterator]();
    const pending = iterator.next(); // the first sentence is sent to the child before next() returns
    process.kill(busyPid(engine), 'SIGKILL');
    const chunks: PcmChunk[] = [];
    for (let step = await pending; !step.done; step = await iterator.next()) chunks.push(step.value);
    t.deepEqual(
      chunks.flatMap((chunk) => (chunk.marker ? [chunk.marker.index] : [])),
      [0, 1]
    );
    t.deepEqual(attempts, [0, 1]);
    t.is(engine.stats().crashes, 1);
  }
);

test.serial('a second crash of the same request is not retried', async (t) => {
  const engine = createFliteEngine({ poolSize: 1, testing: { stallMs: () => STUCK_MS } });
  t.teardown(() => engine.close());
  await engine.start();
  const iterator = engine.synthesize(say('Every attempt hangs.'))[Symbol.asyncIterator]();
  const pending = iterator.next();
  process.kill(busyPid(engine), 'SIGKILL');
  // The retry waits for the replacement child, then hangs in it too.
  await waitFor(() => engine.stats().children.some((child) => child.state === 'busy') && engine.stats().crashes === 1);
  process.kill(busyPid(engine), 'SIGKILL');
  const error = await t.throwsAsync(pending);
  t.is((error as FliteEngineError).code, 'crashed');
  t.is(engine.stats().crashes, 2);
});

test.serial('a stuck sentence times out with a timeout FliteEngineError; its child is replaced', async (t) => {
  // The stuck sentence holds the test for the whole call time-out: 3 s (it was 8) still leaves the sentence
  // after it, a few words made in tens of milliseconds on a ready child, ample time on a loaded machine.
  const engine = createFliteEngine({
    poolSize: 1,
    callTimeoutMs: 3000,
    testing: { stallMs: ({ text }) => (text.includes('stuck') ? STUCK_MS : 0) },
  });
  t.teardown(() => engine.close());
  await engine.start();
  const [before] = engine.stats().children;
  const error = await t.throwsAsync(collect(engine.synthesize(say('This sentence is stuck.'))));
  t.true(error instanceof FliteEngineError);
  t.is((error as FliteEngineError).code, 'timeout');
  const chunks = await collect(engine.synthesize(say('This one is not.')));
  t.true(seconds(chunks) > 0.3);
  t.is(engine.stats().timeouts, 1);
  t.is(engine.stats().crashes, 0, 'a timeout is not counted as a crash');
  await waitFor(() => !alive(before!.pid));
  t.false(alive(before!.pid));
});

test.serial('requests beyond the pool size queue and all complete, each with its own sentences', async (t) => {
  const engine = createFliteEngine({ poolSize: 2 });
  t.teardown(() => engine.close());
  await engine.start();
  const texts = Array.from({ length: 7 }, (_, i) => `Request number ${i + 1} is here. It has two sentences.`);
  const all = Promise.all(texts.map((text) => collect(engine.synthesize(say(text)))));
  await new Promise((resolve) => setImmediate(resolve));
  t.true(engine.stats().queued > 0, 'some requests waited for a child');
  const results = await all;
  for (const [i, chunks] of results.entries()) {
    t.deepEqual(
      chunks.flatMap((chunk) => (chunk.marker ? [chunk.marker.text] : [])),
      [`Request number ${i + 1} is here.`, 'It has two sentences.']
    );
  }
  t.is(engine.stats().queued, 0);
  t.is(engine.stats().crashes, 0);
});

test.serial('close() kills every child, fails queued and running requests, and refuses new ones', async (t) => {
  // The children's work directories go to a temporary directory of this test's own (the tests of this
  // file run one at a time, so no other engine reads TMPDIR meanwhile).
  const tmp = mkdtempSync(join(tmpdir(), 'flite-close-'));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = tmp;
  t.teardown(() => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(tmp, { recursive: true, force: true });
  });
  const engine = createFliteEngine({ poolSize: 2, testing: { stallMs: () => STUCK_MS } });
  await engine.start();
  const pids = engine.stats().children.map((child) => child.pid);
  t.is(pids.length, 2);
  t.true(pids.every(alive));
  const running = [1, 2, 3].map((i) => collect(engine.synthesize(say(`Request ${i} waits.`))));
  await waitFor(() => engine.stats().queued === 1);
  await engine.close();
  for (const request of running) {
    const error = await t.throwsAsync(request);
    t.is((error as FliteEngineError).code, 'closed');
  }
  for (const pid of pids) t.false(alive(pid), `child ${pid} is gone`);
  t.deepEqual(readdirSync(tmp), [], 'their work directories too');
  t.deepEqual(engine.stats().children, []);
  const refused = await t.throwsAsync(collect(engine.synthesize(say('Too late.'))));
  t.is((refused as FliteEngineError).code, 'closed');
  await t.throwsAsync(engine.start(), { instanceOf: FliteEngineError });
});

test.serial('a missing wasm file fails start() and requests with start_failed, without a fork loop', async (t) => {
  const engine = createFliteEngine({ poolSize: 1, wasmPath: '/nonexistent/flite.wasm' });
  t.teardown(() => engine.close());
  const error = await t.throwsAsync(engine.start());
  t.is((error as FliteEngineError).code, 'start_failed');
  const failed = await t.throwsAsync(collect(engine.synthesize(say('Hello.'))));
  t.is((failed as FliteEngineError).code, 'start_failed');
  t.deepEqual(engine.stats().children, [], 'no child is restarted in the background');
});
