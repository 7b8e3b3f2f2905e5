import test from '../helpers/bounded-test';
import { oneAtATime } from './part-helpers';
import { voiceIdOf } from '@formloom/core';
import { createFliteEngine } from '@formloom/speech-flite';
import { forEachDb, type TestApp } from '../helpers/app';
import { download, probe, sharedVoiceEngines, voiceUser } from '../helpers/voice';
import { waitFor } from '@formloom/core/testing';

/*
 * "Nothing that ends in an error is charged" (docs/voice.md): the Flite engine's child process is killed
 * (SIGKILL) in the middle of a request. The request either fails cleanly (5xx in the error shape, credited
 * back) or, when no audio had been made yet, succeeds on the engine's retry (charged once, audio delivered);
 * the server keeps serving. The child to kill is the pool's busy one (`engine.stats()`), while it is held
 * on the chosen sentence by the engine's documented `testing.stallMs` hook. The audio is WAV: its format is
 * not what these tests are about, and each MP3 starts LAME in a worker thread, about 0.2 CPU-seconds (docs/testing.md, "What it costs").
 */

const RMS = voiceIdOf('flite', 'rms');
const TEXT = 'The first sentence is made at once. The second sentence is where the engine dies.';
const STUCK_MS = 60_000;

let target: { sentence: number; hit: () => void } | null = null;
const flite = createFliteEngine({
  poolSize: 1,
  testing: {
    stallMs: ({ sentence, attempt }) => {
      if (!target || target.sentence !== sentence || attempt !== 0) return 0;
      target.hit();
      target = null;
      return STUCK_MS;
    },
  },
});
test.after.always(() => flite.close());

/** Holds `sentence` of the next request in its child and kills that child (SIGKILL); resolves with its pid. */
function killDuring(sentence: number): Promise<number> {
  return new Promise((resolve, reject) => {
    target = {
      sentence,
      hit: () => {
        const started = Date.now();
        const poll = () => {
          const busy = flite.stats().children.find((c) => c.state === 'busy');
          if (busy) {
            process.kill(busy.pid, 'SIGKILL');
            return resolve(busy.pid);
          }
          if (Date.now() - started > 120_000) return reject(new Error('no busy Flite child'));
          setTimeout(poll, 5);
        };
        poll();
      },
    };
  });
}

const speak = (app: TestApp, key: string, text = TEXT) => app.api('POST', '/voice', { key, body: { mode: 'speak', voice: RMS, text, reuse: false, format: 'wav' } });

forEachDb(
  oneAtATime(),
  (t) => {
    t('a child killed after the first sentence: 500 in the error shape, credited back, the server goes on', async (tt, app) => {
      const u = await voiceUser(app, { credits: 200 });
      const crashesBefore = flite.stats().crashes;
      const killed = killDuring(1);
      const res = await speak(app, u.key);
      const pid = await killed;
      tt.is(res.status, 500, res.text);
      tt.like(res.body.error, { code: 'INTERNAL_ERROR', status: 500, reason: 'generation_failed' });
      tt.is(res.headers.get('service-credits-charged'), '0');
      tt.is(res.headers.get('service-credits-remaining'), '200');
      tt.is(await app.formloom.storage.credits.balance(u.id), 200);
      tt.deepEqual((await app.formloom.storage.credits.entries(u.id)).map((e) => [e.kind, e.amount]), [['purchase', 200], ['spend', -33], ['credit_back', 33]]);
      const g = await app.api('GET', `/voice/generations/${res.body.error.generation_id}`, { key: u.key });
      tt.like(g.body.data, { status: 'failed', audio: null, credits: { charged: 0 } });
      tt.true(flite.stats().crashes > crashesBefore);
      tt.false(flite.stats().children.some((c) => c.pid === pid), 'the dead child is gone from the pool');

      // The server and the engine keep working: the same request now succeeds and is charged once.
      const again = await speak(app, u.key);
      tt.is(again.status, 200, again.text);
      tt.like(await probe((await download(app, again.body.data.audio.url, u.key)).bytes), { codec: 'pcm_s16le' });
      tt.is(await app.formloom.storage.credits.balance(u.id), 200 - 33);
    });

    t('a child killed before any audio: the engine retries, the request succeeds, charged once', async (tt, app) => {
      const u = await voiceUser(app, { credits: 200 });
      const killed = killDuring(0);
      const res = await speak(app, u.key);
      await killed;
      tt.is(res.status, 200, res.text);
      tt.is(res.body.data.status, 'ready');
      const audio = await probe((await download(app, res.body.data.audio.url, u.key)).bytes);
      tt.is(audio.codec, 'pcm_s16le');
      tt.true(audio.duration > 2, 'both sentences were spoken');
      tt.is(res.headers.get('service-credits-charged'), '33');
      tt.deepEqual((await app.formloom.storage.credits.entries(u.id)).map((e) => e.kind), ['purchase', 'spend']);
      tt.is(await app.formloom.storage.credits.balance(u.id), 167);
    });

    t('a stream whose child is killed after the first bytes ends early, is marked failed and credited back', async (tt, app) => {
      const u = await voiceUser(app, { credits: 200 });
      const killed = killDuring(1);
      const res = await fetch(`${app.url}/api/v1/voice/stream`, {
        method: 'POST',
        headers: { authorization: `Bearer ${u.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ voice: RMS, text: TEXT, format: 'pcm_24k' }),
      });
      tt.is(res.status, 200);
      const id = res.headers.get('service-generation-id')!;
      tt.is(res.headers.get('service-credits-charged'), '33', 'charged when the stream starts');
      let received = 0;
      let cut = false;
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) received += chunk.length;
      } catch {
        cut = true;
      }
      await killed;
      tt.true(cut, 'the client sees an incomplete body');
      tt.true(received > 0, 'the first sentence arrived');
      const g = await waitFor(
        async () => {
          const got = (await app.api('GET', `/voice/generations/${id}`, { key: u.key })).body.data;
          return got.status !== 'rendering' && got;
        },
        { what: 'the generation to end' },
      );
      tt.like(g, { status: 'failed', credits: { charged: 0 } });
      tt.is(await app.formloom.storage.credits.balance(u.id), 200);
      tt.is((await speak(app, u.key, 'Still here.')).status, 200);
    });
  },
  { speechEngines: [flite], audio: sharedVoiceEngines().audio, config: { voice: { syncBudgetMs: 600_000 } } },
);
