import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ledgerKinds, oneAtATime } from './part-helpers';
import { voiceIdOf } from '@formloom/core';
import { forEachDb, type TestApp } from '../helpers/app';
import { download, gatedEngine, probe, sharedVoiceEngines, voiceUser } from '../helpers/voice';
import { sameBytes, waitFor } from '@formloom/core/testing';

/*
 * The sync budget (docs/voice.md "Answers after the sync budget (202)"): audio not ready within
 * `voice.syncBudgetMs` is answered 202 with `Location`, already charged; the generation becomes `ready`, or
 * `failed` and credited back. (Answers within the budget are the 200s of every other voice test, at the default
 * 25 s.) After the first test, the audio is asked for as WAV: its format is not what they are about, and each MP3
 * starts LAME in a worker thread, about 0.2 CPU-seconds (docs/testing.md, "What it costs").
 */

const gated = gatedEngine();
const GATED = voiceIdOf('gated', 'gated');
const QUICK = voiceIdOf('gated', 'quick');

async function until(app: TestApp, key: string, id: string, status: string) {
  return waitFor(
    async () => {
      const got = await app.api('GET', `/voice/generations/${id}`, { key });
      return got.body.data.status === status && got;
    },
    { timeoutMs: 60_000, what: `generation ${id} becoming ${status}` },
  );
}

forEachDb(
  oneAtATime(),
  (t) => {
    t('not ready within the budget: 202 with Location, charged; the audio follows there', async (tt, app) => {
      gated.reset();
      const u = await voiceUser(app, { credits: 100 });
      const pending = fetch(`${app.url}/api/v1/voice`, {
        method: 'POST',
        headers: { authorization: `Bearer ${u.key}`, 'content-type': 'application/json', accept: 'audio/mpeg', 'idempotency-key': `late-${app.kind}` },
        body: JSON.stringify({ mode: 'speak', voice: GATED, text: 'This takes a while to render.' }),
      });
      await gated.reached();
      const res = await pending;
      tt.is(res.status, 202);
      const body = (await res.json()) as any;
      const id = body.data.id;
      tt.is(res.headers.get('location'), `/api/v1/voice/generations/${id}`);
      tt.is(res.headers.get('content-type')?.split(';')[0], 'application/json', 'JSON although audio was accepted: there is none yet');
      tt.like(body.data, { status: 'rendering', audio: null, credits: { estimated: 12, charged: 12, remaining: 88 } });
      tt.is(res.headers.get('service-credits-charged'), '12');
      tt.is(res.headers.get('service-generation-id'), id);
      tt.is(await app.formloom.storage.credits.balance(u.id), 88);

      // The same request again (a client retrying after a dropped connection) is a free replay.
      const replay = await app.api('POST', '/voice', { key: u.key, headers: { 'idempotency-key': `late-${app.kind}` }, body: { mode: 'speak', voice: GATED, text: 'This takes a while to render.' } });
      tt.is(replay.headers.get('idempotent-replayed'), 'true');
      tt.is(replay.headers.get('service-credits-charged'), '0');
      tt.is(replay.body.data.id, id);
      const polled = await app.api('GET', res.headers.get('location')!.replace('/api/v1', ''), { key: u.key });
      tt.like(polled.body.data, { id, status: 'rendering', audio: null });
      tt.is((await download(app, `/api/v1/voice/generations/${id}/audio`, u.key)).status, 404);

      gated.open();
      const ready = await until(app, u.key, id, 'ready');
      tt.like(ready.body.data, { audio: { format: 'mp3', duration_seconds: 1 }, credits: { charged: 12 } });
      tt.like(await probe((await download(app, ready.body.data.audio.url, u.key)).bytes), { codec: 'mp3' });
      tt.is(await app.formloom.storage.credits.balance(u.id), 88, 'charged once');
    });

    t('not ready within the budget, then failed: credited back', async (tt, app) => {
      gated.reset();
      const u = await voiceUser(app, { credits: 100 });
      const pending = app.api('POST', '/voice', { key: u.key, body: { mode: 'speak', voice: GATED, text: 'This one will fail.', format: 'wav' } });
      await gated.reached();
      const res = await pending;
      tt.is(res.status, 202);
      tt.is(await app.formloom.storage.credits.balance(u.id), 92);
      gated.fail();
      const failed = await until(app, u.key, res.body.data.id, 'failed');
      tt.like(failed.body.data, { audio: null, credits: { charged: 0, remaining: 100 } });
      tt.is(await app.formloom.storage.credits.balance(u.id), 100);
      tt.deepEqual(await ledgerKinds(app, u.id), ['purchase', 'spend', 'credit_back']);
    });

    t('a script not ready within the budget: 202 with its lines rendering, then partial with the failed share credited back', async (tt, app) => {
      gated.reset();
      const u = await voiceUser(app, { credits: 100 });
      const lines = [{ speaker: 'Q', voice: QUICK, text: 'Quick one.' }, { pause_ms: 200 }, { speaker: 'G', voice: GATED, text: 'Gated line.' }];
      const pending = app.api('POST', '/voice', { key: u.key, headers: { accept: 'audio/wav' }, body: { mode: 'script', lines, format: 'wav' } });
      await gated.reached();
      const res = await pending;
      tt.is(res.status, 202);
      const id = res.body.data.id;
      tt.is(res.headers.get('location'), `/api/v1/voice/generations/${id}`);
      tt.like(res.body.data, { mode: 'script', status: 'rendering', audio: null, credits: { estimated: 9, charged: 9 } });
      tt.deepEqual(res.body.data.lines.map((l: { status: string }) => l.status), ['rendering', 'rendering', 'rendering']);
      tt.is(res.headers.get('service-credits-charged'), '9');
      tt.is(await app.formloom.storage.credits.balance(u.id), 91);

      gated.fail();
      const partial = await until(app, u.key, id, 'partial');
      tt.deepEqual(partial.body.data.lines.map((l: { status: string }) => l.status), ['ready', 'ready', 'failed']);
      tt.like(partial.body.data, { characters: 10, credits: { charged: 4, remaining: 96 }, audio: { format: 'wav' } });
      tt.like(await probe((await download(app, partial.body.data.audio.url, u.key)).bytes), { codec: 'pcm_s16le' });
      tt.is(await app.formloom.storage.credits.balance(u.id), 96, 'the failed line\'s share came back');
    });

    t('a generation still rendering cannot be deleted (409 generation_not_ready); once ready it can', async (tt, app) => {
      gated.reset();
      const u = await voiceUser(app, { credits: 100 });
      const pending = app.api('POST', '/voice', { key: u.key, body: { mode: 'speak', voice: GATED, text: 'Do not delete me yet.', format: 'wav' } });
      await gated.reached();
      const res = await pending;
      tt.is(res.status, 202);
      const id = res.body.data.id;
      const early = await app.api('DELETE', `/voice/generations/${id}`, { key: u.key });
      tt.is(early.status, 409);
      tt.like(early.body.error, { code: 'CONFLICT', reason: 'generation_not_ready' });
      tt.is(early.headers.get('service-credits-charged'), '0');
      gated.open();
      await until(app, u.key, id, 'ready');
      tt.is((await app.api('DELETE', `/voice/generations/${id}`, { key: u.key })).status, 200);
      tt.is((await app.api('GET', `/voice/generations/${id}`, { key: u.key })).status, 404);
      tt.deepEqual(readdirSync(join(app.blobDir, 'voice')).filter((f) => f.includes(id)), [], 'no audio left behind');
    });

    t('a free retake of a script that fails (a line fails) keeps the clip and its audio, and is not counted', async (tt, app) => {
      gated.reset();
      const u = await voiceUser(app, { credits: 500 });
      // Billed characters for the free retake below. The budget here is 300 ms: on a busy machine even the quick
      // voice may take longer, so the outcome (a ready generation) is awaited, not a 200.
      const filler = await app.api('POST', '/voice', { key: u.key, body: { mode: 'speak', voice: QUICK, text: 'Filler. '.repeat(20), format: 'wav' } });
      tt.true(filler.status === 200 || filler.status === 202, filler.text);
      await until(app, u.key, filler.body.data.id, 'ready');
      const lines = [{ speaker: 'Q', voice: QUICK, text: 'Quick one.' }, { speaker: 'G', voice: GATED, text: 'Gated line.' }];
      const pending = app.api('POST', '/voice', { key: u.key, body: { mode: 'script', lines, format: 'wav' } });
      await gated.reached();
      gated.open();
      const made = await pending;
      const id = made.body.data.id;
      const ready = (await until(app, u.key, id, 'ready')).body.data;
      tt.is(ready.retakes_remaining, 2);
      const before = (await download(app, ready.audio.url, u.key)).bytes;
      const balance = await app.formloom.storage.credits.balance(u.id);

      gated.reset();
      const retaking = app.api('POST', '/voice', { key: u.key, body: { mode: 'speak', retake_of: id } });
      await gated.reached();
      const res = await retaking;
      tt.is(res.status, 202, 'a free retake past the budget');
      tt.like(res.body.data, { id, status: 'rendering' });
      gated.fail();
      const back = (await until(app, u.key, id, 'ready')).body.data;
      tt.like(back, { id, retakes_remaining: 2 });
      tt.deepEqual(back.lines.map((l: { status: string }) => l.status), ['ready', 'ready']);
      sameBytes(tt, (await download(app, back.audio.url, u.key)).bytes, before, 'the old take stays');
      tt.is(await app.formloom.storage.voiceGenerations.freeRetakes(id), 0);
      tt.is(await app.formloom.storage.credits.balance(u.id), balance);
    });
  },
  { speechEngines: [gated.engine], audio: sharedVoiceEngines().audio, config: { voice: { syncBudgetMs: 300 } } },
);
