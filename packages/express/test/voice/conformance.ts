import { voiceIdOf } from '@formloom/core';
import type { TestApp } from '../helpers/app';
import { download, probe, voiceUser } from '../helpers/voice';
import { ledgerKinds } from './part-helpers';
import { waitFor } from '@formloom/core/testing';
import type { SharedDb } from '../helpers/shared-apps';

/*
 * The voice API as documented, line by line (docs/voice.md, docs/decisions.md "Voice API"): field sets, quality
 * defaults, `meta.rate_card` on every JSON answer, `Accept`, 503 WARMING_UP. Where the format is not what a test
 * is about, the audio is WAV (PCM on a stream): each MP3 starts LAME in a worker thread, about 0.2 CPU-seconds
 * (docs/testing.md, "What it costs").
 */

const VOICE = voiceIdOf('espeak', 'en-us+klatt4');
const WARMING = voiceIdOf('failing', 'warming');

/** The generation fields of docs/voice.md, with `title` (the request's Library title) and `retake_of` (the clip a retake retakes). */
const GENERATION_KEYS = ['audio', 'characters', 'created_at', 'credits', 'id', 'language', 'mode', 'object', 'reused', 'retake_of', 'retakes_remaining', 'source', 'status', 'title', 'voice'].sort();
const sorted = (o: object) => Object.keys(o).sort();

const stream = (app: TestApp, key: string, body: object) =>
  fetch(`${app.url}/api/v1/voice/stream`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function settled(app: TestApp, key: string, id: string) {
  return waitFor(
    async () => {
      const g = (await app.api('GET', `/voice/generations/${id}`, { key })).body.data;
      return g.status !== 'rendering' && g;
    },
    { timeoutMs: 120_000, intervalMs: 100, what: `generation ${id} to finish rendering` },
  );
}

/** voice.test.ts registers these on the voice apps its parts share (`sharedVoiceApps`, helpers/voice.ts). */
export function register(db: SharedDb): void {
  db((t) => {
    t('fields: a generation, a script, an estimate and a streamed generation carry exactly the documented fields', async (tt, app) => {
      const u = await voiceUser(app, { credits: 500 });
      const speak = await app.api('POST', '/voice', { key: u.key, body: { mode: 'speak', voice: VOICE, text: 'Exact fields only.', save: true } });
      tt.deepEqual(sorted(speak.body.data), GENERATION_KEYS);
      tt.deepEqual(sorted(speak.body.data.audio), ['duration_seconds', 'format', 'retained_until', 'sample_rate', 'url']);
      tt.deepEqual(sorted(speak.body.data.credits), ['charged', 'estimated', 'remaining']);
      tt.deepEqual(sorted(speak.body.data.voice), ['id', 'name']);
      tt.deepEqual(sorted(speak.body), ['data', 'meta']);
      tt.is(speak.body.data.audio.retained_until, null, 'save: true keeps the audio until deleted');

      const script = await app.api('POST', '/voice', { key: u.key, body: { mode: 'script', lines: [{ speaker: 'A', voice: VOICE, text: 'One.' }, { pause_ms: 400 }] } });
      tt.deepEqual(sorted(script.body.data), [...GENERATION_KEYS, 'lines'].sort());
      for (const line of script.body.data.lines) tt.deepEqual(sorted(line), ['credits', 'end_ms', 'speaker', 'start_ms', 'status', 'text', 'voice']);
      const pause = script.body.data.lines[1];
      tt.true(Math.abs(pause.end_ms - pause.start_ms - 400) <= 1, 'a pause is as long as asked');

      const est = await app.api('POST', '/voice', { key: u.key, body: { mode: 'estimate', voice: VOICE, text: 'A new sentence to quote.' } });
      tt.deepEqual(sorted(est.body.data), ['balance', 'characters', 'credits', 'enough', 'object', 'seconds_estimated']);
      const reusable = await app.api('POST', '/voice', { key: u.key, body: { mode: 'estimate', voice: VOICE, text: 'Exact fields only.' } });
      tt.like(reusable.body.data, { credits: 0, free: true, enough: true }, 'a request that would be reused quotes 0 as free');

      const streamed = await stream(app, u.key, { voice: VOICE, text: 'Streams are API requests.' });
      tt.is(streamed.status, 200);
      await streamed.arrayBuffer();
      const g = await settled(app, u.key, streamed.headers.get('service-generation-id')!);
      tt.like(g, { source: 'api', mode: 'speak', status: 'ready' });
    });

    t('meta.rate_card on every successful JSON answer: voices, library, generation, delete', async (tt, app) => {
      const u = await voiceUser(app, { credits: 100 });
      const made = await app.api('POST', '/voice', { key: u.key, body: { mode: 'speak', voice: VOICE, text: 'Rate card.', format: 'wav' } });
      const card = made.body.meta.rate_card;
      tt.is(typeof card, 'string');
      const voices = await app.api('GET', '/voice/voices?language=en', { key: u.key });
      tt.is(voices.body.meta.rate_card, card);
      tt.true(voices.body.data.length > 0);
      const list = await app.api('GET', '/voice/generations?per_page=500&page=abc', { key: u.key });
      tt.deepEqual(list.body.meta, { page: 1, per_page: 100, total: 1, total_pages: 1, rate_card: card });
      const beyond = await app.api('GET', '/voice/generations?page=3&per_page=0', { key: u.key });
      tt.deepEqual(beyond.body, { data: [], meta: { page: 3, per_page: 1, total: 1, total_pages: 1, rate_card: card } });
      tt.is((await app.api('GET', `/voice/generations/${made.body.data.id}`, { key: u.key })).body.meta.rate_card, card);
      const del = await app.api('DELETE', `/voice/generations/${made.body.data.id}`, { key: u.key });
      tt.deepEqual(del.body, { data: { id: made.body.data.id, object: 'voice.generation', deleted: true }, meta: { rate_card: card } });
      tt.is(del.headers.get('service-rate-card'), card);
    });

    t('quality: POST /voice defaults to standard for every format; a stream of mulaw_8k defaults to phone', async (tt, app) => {
      const u = await voiceUser(app, { credits: 500 });
      const speak = (body: object) => app.api('POST', '/voice', { key: u.key, body: { mode: 'speak', voice: VOICE, format: 'mulaw_8k', ...body } });
      const first = await speak({ text: 'Phone line test one.' });
      tt.is(first.status, 200, first.text);
      tt.like(first.body.data.audio, { format: 'mulaw_8k', sample_rate: 8000 });
      // Reuse finds only an identical request: the same quality.
      tt.like((await speak({ text: 'Phone line test one.', quality: 'standard' })).body.data, { id: first.body.data.id, reused: true });
      tt.false((await speak({ text: 'Phone line test one.', quality: 'phone' })).body.data.reused);

      const streamed = await stream(app, u.key, { voice: VOICE, text: 'Phone line test two.', format: 'mulaw_8k' });
      tt.is(streamed.headers.get('service-audio-sample-rate'), '8000');
      await streamed.arrayBuffer();
      const id = streamed.headers.get('service-generation-id')!;
      await settled(app, u.key, id);
      tt.like((await speak({ text: 'Phone line test two.', quality: 'phone' })).body.data, { id, reused: true }, 'the stream was made at phone quality');
    });

    t('Accept: an audio type with q=0 is not asked for; audio/* answers the audio in the body format', async (tt, app) => {
      const u = await voiceUser(app, { credits: 100 });
      const body = { mode: 'speak', voice: VOICE, text: 'Accept me.', format: 'ogg_opus' };
      const json = await app.api('POST', '/voice', { key: u.key, headers: { accept: 'audio/*;q=0, application/json' }, body });
      tt.is(json.status, 200);
      tt.is(json.body.data.object, 'voice.generation');
      const audio = await fetch(`${app.url}/api/v1/voice`, {
        method: 'POST',
        headers: { authorization: `Bearer ${u.key}`, 'content-type': 'application/json', accept: 'application/json;q=0.5, audio/*' },
        body: JSON.stringify(body),
      });
      tt.is(audio.headers.get('content-type'), 'audio/ogg');
      tt.is(audio.headers.get('service-generation-id'), json.body.data.id);
      tt.like(await probe(new Uint8Array(await audio.arrayBuffer())), { codec: 'opus' });
    });

    t('WARMING_UP: an engine still starting is 503 with Retry-After on a stream and on speak; nothing charged', async (tt, app) => {
      const u = await voiceUser(app, { credits: 100 });
      const res = await stream(app, u.key, { voice: WARMING, text: 'Not yet.', format: 'pcm_24k' });
      tt.is(res.status, 503);
      tt.is(res.headers.get('retry-after'), '7');
      tt.is(res.headers.get('service-credits-charged'), '0');
      tt.is(res.headers.get('service-credits-remaining'), '100');
      const body = (await res.json()) as any;
      tt.like(body.error, { code: 'WARMING_UP', status: 503, retry_after: 7 });
      tt.is(res.headers.get('service-generation-id'), body.error.generation_id);
      const g = await app.api('GET', `/voice/generations/${body.error.generation_id}`, { key: u.key });
      tt.like(g.body.data, { status: 'failed', audio: null, credits: { charged: 0 } });

      const speak = await app.api('POST', '/voice', { key: u.key, body: { mode: 'speak', voice: WARMING, text: 'Not yet.', format: 'wav' } });
      tt.is(speak.status, 503);
      tt.is(speak.headers.get('retry-after'), '7');
      tt.like(speak.body.error, { code: 'WARMING_UP', retry_after: 7 });
      tt.is(speak.headers.get('service-credits-charged'), '0');
      tt.is(await app.formloom.storage.credits.balance(u.id), 100);
      tt.deepEqual(await ledgerKinds(app, u.id), ['purchase', 'spend', 'credit_back', 'spend', 'credit_back']);
      tt.is((await download(app, `/api/v1/voice/generations/${body.error.generation_id}/audio`, u.key)).status, 404);
    });
  });
}
