import { voiceIdOf } from '@formloom/core';
import { download, probe, voiceUser } from '../helpers/voice';
import { ledgerKinds } from './part-helpers';
import type { SharedDb } from '../helpers/shared-apps';

const VOICE = voiceIdOf('espeak', 'en-us+klatt4');
const BROKEN = voiceIdOf('failing', 'broken');
// Tests whose subject is not the format ask for WAV: each MP3 starts LAME in a worker thread, about 0.2
// CPU-seconds (docs/testing.md, "What it costs"); MP3, the default, is the subject of 'speak: JSON with...'.
const chars = (n: number) => 'Speak. '.repeat(Math.ceil(n / 7)).slice(0, n).trim().padEnd(n, 'a');

/** voice.test.ts registers these on the voice apps its parts share (`sharedVoiceApps`, helpers/voice.ts). */
export function register(db: SharedDb): void {
  db((t) => {
    t('estimate: exact cost, free, enough counts balance and the key limit', async (tt, app) => {
      const u = await voiceUser(app, { credits: 100, monthlyLimit: 20 });
      const est = await app.api('POST', '/voice', { key: u.key, body: { mode: 'estimate', text: chars(75), voice: VOICE } });
      tt.is(est.status, 200);
      tt.like(est.body.data, { object: 'voice.estimate', characters: 75, credits: 30, balance: 100, enough: false });
      tt.is(typeof est.body.meta.rate_card, 'string');
      tt.is(est.headers.get('service-credits-charged'), '0');
      tt.is(est.headers.get('service-credits-estimated'), '30');
      tt.is(est.headers.get('service-rate-card'), est.body.meta.rate_card);
      const small = await app.api('POST', '/voice', { key: u.key, body: { mode: 'estimate', text: chars(35), voice: VOICE } });
      tt.like(small.body.data, { characters: 35, credits: 14, enough: true });
      tt.is((await app.api('POST', '/voice', { key: u.key, body: { mode: 'estimate', text: 'a', voice: VOICE } })).body.data.credits, 1);
      tt.is(await app.formloom.storage.credits.balance(u.id), 100);
    });

    t('speak: refusals are clear and charge nothing', async (tt, app) => {
      const u = await voiceUser(app, { credits: 10, monthlyLimit: 5 });
      const speak = (body: object, key = u.key) => app.api('POST', '/voice', { key, body: { mode: 'speak', voice: VOICE, text: 'Hello there.', ...body } });
      const long = await speak({ text: 'a'.repeat(5001) });
      tt.is(long.status, 400);
      tt.is(long.body.error.max_characters, 5000);
      tt.is((await speak({ speed: 1.2 })).body.error.field, 'speed');
      tt.is((await speak({ speed: 0.8 })).status, 400);
      tt.is((await speak({ voice: 'nv_nope' })).body.error.reason, 'voice_not_found');
      tt.is((await speak({ bogus: 1 })).status, 400);
      const over = await speak({ max_credits: 2 });
      tt.is(over.status, 409);
      tt.is(over.headers.get('service-credits-charged'), '0');
      tt.is(over.headers.get('service-credits-estimated'), '5');
      const limit = await speak({ text: 'Hello there, friend.' });
      tt.is(limit.status, 402);
      tt.is(limit.body.error.code, 'KEY_LIMIT_REACHED');
      const poor = await voiceUser(app, { credits: 2 });
      const broke = await speak({}, poor.key);
      tt.is(broke.status, 402);
      tt.is(broke.body.error.code, 'INSUFFICIENT_CREDITS');
      tt.is(broke.headers.get('service-credits-remaining'), '2');
      const unverified = await voiceUser(app, { credits: 50, verified: false });
      tt.is((await speak({}, unverified.key)).body.error.reason, 'voice_not_enabled');
      const neverBought = await voiceUser(app);
      tt.is((await speak({}, neverBought.key)).body.error.reason, 'voice_not_enabled');
      tt.is(await app.formloom.storage.credits.balance(u.id), 10);
      tt.is(await app.formloom.storage.credits.balance(poor.id), 2);
      tt.deepEqual((await app.formloom.storage.credits.entries(u.id)).map((e) => e.kind), ['purchase']);
    });

    t('speak: JSON with an authenticated audio url, charged once, every download format parses', async (tt, app) => {
      const u = await voiceUser(app, { credits: 100 });
      const res = await app.api('POST', '/voice', { key: u.key, body: { mode: 'speak', voice: VOICE, text: 'Hello from Formloom.', title: 'Greeting' } });
      tt.is(res.status, 200, res.text);
      const g = res.body.data;
      tt.like(g, { object: 'voice.generation', status: 'ready', mode: 'speak', source: 'api', language: 'English', characters: 20, title: 'Greeting' });
      tt.deepEqual(g.credits, { estimated: 8, charged: 8, remaining: 92 });
      tt.is(g.voice.id, VOICE);
      tt.like(g.audio, { format: 'mp3', sample_rate: 24000 });
      tt.is(res.headers.get('service-generation-id'), g.id);
      tt.is(res.headers.get('service-credits-charged'), '8');
      tt.is(res.headers.get('service-credits-remaining'), '92');
      tt.is(res.headers.get('service-audio-duration'), String(g.audio.duration_seconds));
      tt.is((await download(app, g.audio.url, 'fl_wrong')).status, 401);
      const mp3 = await download(app, g.audio.url, u.key);
      tt.is(mp3.type, 'audio/mpeg');
      const info = await probe(mp3.bytes);
      tt.is(info.codec, 'mp3');
      tt.true(Math.abs(info.duration - g.audio.duration_seconds) < 0.2);
      const base = `/api/v1/voice/generations/${g.id}/audio?format=`;
      tt.like(await probe((await download(app, `${base}wav`, u.key)).bytes), { codec: 'pcm_s16le', sampleRate: 24000 });
      tt.like(await probe((await download(app, `${base}ogg_opus`, u.key)).bytes), { codec: 'opus' });
      tt.like(await probe((await download(app, `${base}mulaw_8k`, u.key)).bytes, { format: 'mulaw', rate: 8000 }), { codec: 'pcm_mulaw' });
      const pcm = await download(app, `${base}pcm_24k`, u.key);
      tt.true(Math.abs(pcm.bytes.length / 48000 - g.audio.duration_seconds) < 0.2);
      tt.is((await download(app, `${base}flac`, u.key)).status, 400);
      const other = await voiceUser(app, { credits: 1 });
      tt.is((await download(app, g.audio.url, other.key)).status, 404);
      const entries = await app.formloom.storage.credits.entries(u.id);
      tt.deepEqual(entries.map((e) => [e.kind, e.amount, e.generation_id]), [['purchase', 100, null], ['spend', -8, g.id]]);
    });

    t('speak: Accept audio/wav answers the audio itself', async (tt, app) => {
      const u = await voiceUser(app, { credits: 100 });
      const res = await fetch(`${app.url}/api/v1/voice`, {
        method: 'POST',
        headers: { authorization: `Bearer ${u.key}`, 'content-type': 'application/json', accept: 'audio/wav' },
        body: JSON.stringify({ mode: 'speak', voice: VOICE, text: 'Short.' }),
      });
      tt.is(res.status, 200);
      tt.is(res.headers.get('content-type'), 'audio/wav');
      tt.is(res.headers.get('service-credits-charged'), '3');
      tt.like(await probe(new Uint8Array(await res.arrayBuffer())), { codec: 'pcm_s16le', sampleRate: 24000 });
    });

    t('library: list, get, delete; a failed generation is credited back', async (tt, app) => {
      const u = await voiceUser(app, { credits: 50 });
      const failed = await app.api('POST', '/voice', { key: u.key, body: { mode: 'speak', voice: BROKEN, text: 'This breaks.', format: 'wav' } });
      tt.is(failed.status, 500);
      tt.is(failed.body.error.reason, 'generation_failed');
      tt.is(failed.headers.get('service-credits-charged'), '0');
      tt.is(await app.formloom.storage.credits.balance(u.id), 50);
      tt.deepEqual(await ledgerKinds(app, u.id), ['purchase', 'spend', 'credit_back']);
      const id = failed.body.error.generation_id;
      const got = await app.api('GET', `/voice/generations/${id}`, { key: u.key });
      tt.like(got.body.data, { id, status: 'failed', audio: null, credits: { charged: 0, remaining: 50 } });
      const list = await app.api('GET', '/voice/generations', { key: u.key });
      tt.deepEqual(list.body.data.map((g: any) => g.id), [id]);
      tt.is(list.body.meta.total, 1);
      const stranger = await voiceUser(app);
      tt.is((await app.api('GET', `/voice/generations/${id}`, { key: stranger.key })).status, 404);
      tt.is((await app.api('DELETE', `/voice/generations/${id}`, { key: stranger.key })).status, 404);
      tt.is((await app.api('DELETE', `/voice/generations/${id}`, { key: u.key })).status, 200);
      tt.is((await app.api('GET', `/voice/generations/${id}`, { key: u.key })).status, 404);
      tt.deepEqual((await app.api('GET', '/voice/generations', { key: u.key })).body.data, []);
    });
  });
}
