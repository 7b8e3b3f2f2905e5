import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { oneAtATime } from './part-helpers';
import { voiceIdOf } from '@formloom/core';
import { forEachDb } from '../helpers/app';
import { download, probe, toneVoiceAppOptions, voiceUser } from '../helpers/voice';

/*
 * Reuse of identical requests, `save`, and the 30-day retention sweep (docs/voice.md, "Reuse and retention").
 * The requests ask for WAV, and MP3 is the format that makes another request: the format is not what these
 * tests are about, and each MP3 starts LAME in a worker thread, about 0.2 CPU-seconds (docs/testing.md,
 * "What it costs").
 */

const VOICE = voiceIdOf('tone', 'en-us');
const DAY = 24 * 3600_000;
// A clock the tests move forward (mid-month, so that month boundaries stay out of the way).
const clock = { offsetMs: 0, base: Date.parse('2031-03-10T12:00:00.000Z'), started: Date.now(), now: () => new Date(clock.base + (Date.now() - clock.started) + clock.offsetMs) };

forEachDb(
  oneAtATime(),
  (t) => {
    t('reuse: an identical request answers the stored generation for 0 credits', async (tt, app) => {
      const u = await voiceUser(app, { credits: 100 });
      const speak = (body: object) => app.api('POST', '/voice', { key: u.key, body: { mode: 'speak', voice: VOICE, text: 'Reuse me, please.', format: 'wav', ...body } });
      const first = await speak({ title: 'First' });
      tt.is(first.status, 200, first.text);
      tt.like(first.body.data, { reused: false, credits: { estimated: 7, charged: 7, remaining: 93 } });
      const id = first.body.data.id;

      // The same request, keys in another order: the same generation, nothing charged.
      const again = await app.api('POST', '/voice', { key: u.key, body: { format: 'wav', text: 'Reuse me, please.', voice: VOICE, mode: 'speak' } });
      tt.is(again.status, 200);
      tt.like(again.body.data, { id, reused: true, status: 'ready', credits: { estimated: 7, charged: 0, remaining: 93 } });
      tt.is(again.headers.get('service-generation-id'), id);
      tt.is(again.headers.get('service-credits-charged'), '0');
      tt.is(again.headers.get('service-credits-estimated'), '7');
      tt.is(again.headers.get('service-credits-remaining'), '93');
      tt.like(await probe((await download(app, again.body.data.audio.url, u.key)).bytes), { codec: 'pcm_s16le' });

      // An estimate of it is exact: free.
      const est = await app.api('POST', '/voice', { key: u.key, body: { mode: 'estimate', voice: VOICE, text: 'Reuse me, please.', format: 'wav' } });
      tt.like(est.body.data, { credits: 0, free: true, enough: true });
      tt.false('reused' in est.body.data, 'the documented estimate fields only');

      // With the audio as the answer (Accept), still the stored clip.
      const audio = await fetch(`${app.url}/api/v1/voice`, {
        method: 'POST',
        headers: { authorization: `Bearer ${u.key}`, 'content-type': 'application/json', accept: 'audio/wav' },
        body: JSON.stringify({ mode: 'speak', voice: VOICE, text: 'Reuse me, please.', format: 'wav' }),
      });
      tt.is(audio.status, 200);
      tt.is(audio.headers.get('content-type'), 'audio/wav');
      tt.is(audio.headers.get('service-generation-id'), id);
      tt.is(audio.headers.get('service-credits-charged'), '0');

      // Anything that shapes the audio makes another request; reuse: false asks for a new take.
      for (const change of [{ format: 'mp3' }, { speed: 1.1 }, { quality: 'studio' }, { text: 'Reuse me, please!' }, { reuse: false }]) {
        const other = await speak(change);
        tt.is(other.status, 200, JSON.stringify(change));
        tt.not(other.body.data.id, id, JSON.stringify(change));
        tt.false(other.body.data.reused);
        tt.true(other.body.data.credits.charged > 0);
      }
      // Another account's identical request is its own.
      const stranger = await voiceUser(app, { credits: 10 });
      const theirs = await app.api('POST', '/voice', { key: stranger.key, body: { mode: 'speak', voice: VOICE, text: 'Reuse me, please.', format: 'wav' } });
      tt.not(theirs.body.data.id, id);
      tt.is(await app.formloom.storage.credits.balance(stranger.id), 3);

      const spends = (await app.formloom.storage.credits.entries(u.id)).filter((e) => e.kind === 'spend');
      tt.is(spends.length, 6, 'the first request and the five different ones');
      tt.is(spends.filter((e) => e.generation_id === id).length, 1);
    });

    t('reuse of scripts: an identical script (every line as resolved) is reused; a speak request never reuses one', async (tt, app) => {
      const u = await voiceUser(app, { credits: 100 });
      const OTHER = voiceIdOf('tone', 'en-gb');
      const lines = [{ speaker: 'Ann', voice: VOICE, text: 'Hello there.' }, { pause_ms: 300 }, { speaker: 'Ben', voice: OTHER, text: 'Hi.' }];
      const script = (body: object) => app.api('POST', '/voice', { key: u.key, body: { mode: 'script', lines, format: 'wav', ...body } });
      const first = await script({});
      tt.is(first.status, 200, first.text);
      tt.like(first.body.data, { mode: 'script', reused: false, credits: { charged: 6 } });
      const id = first.body.data.id;
      tt.like((await app.api('POST', '/voice', { key: u.key, body: { mode: 'estimate', lines, format: 'wav' } })).body.data, { credits: 0, free: true });

      // The same script as text with a cast resolves to the same lines: reused, lines and all.
      const asText = await app.api('POST', '/voice', {
        key: u.key,
        body: { mode: 'script', format: 'wav', script: '[Ann] Hello there.\n(pause 300ms)\n[Ben] Hi.', cast: [{ speaker: 'Ann', voice: VOICE }, { speaker: 'Ben', voice: OTHER }] },
      });
      tt.like(asText.body.data, { id, reused: true, credits: { charged: 0 } });
      tt.deepEqual(asText.body.data.lines, first.body.data.lines);
      tt.is(asText.headers.get('service-credits-charged'), '0');

      // Another speaker name, another pause, reuse: false, or the words spoken alone are other requests.
      const others = [
        await script({ lines: [{ ...lines[0], speaker: 'Anna' }, lines[1], lines[2]] }),
        await script({ lines: [lines[0], { pause_ms: 301 }, lines[2]] }),
        await script({ reuse: false }),
        await app.api('POST', '/voice', { key: u.key, body: { mode: 'speak', voice: VOICE, text: 'Hello there.', format: 'wav' } }),
      ];
      for (const other of others) {
        tt.is(other.status, 200, other.text);
        tt.not(other.body.data.id, id);
        tt.false(other.body.data.reused);
      }
      tt.is(await app.formloom.storage.credits.balance(u.id), 100 - 4 * 6 - 5);
    });

    t('retention: unsaved audio is deleted after 30 days by the sweep; saved audio stays', async (tt, app) => {
      const u = await voiceUser(app, { credits: 100 });
      const speak = (text: string, body: object = {}) => app.api('POST', '/voice', { key: u.key, body: { mode: 'speak', voice: VOICE, text, format: 'wav', ...body } });
      const made = clock.now();
      const plain = (await speak('Kept for thirty days.')).body.data;
      const saved = (await speak('Kept until deleted.', { save: true })).body.data;
      const renewed = (await speak('Asked for again later.')).body.data;
      tt.true(Math.abs(Date.parse(plain.audio.retained_until) - (made.getTime() + 30 * DAY)) < 60_000);
      tt.is(saved.audio.retained_until, null);

      // Twenty days on, the same request again: reused, and its audio kept thirty days from now.
      clock.offsetMs += 20 * DAY;
      const reused = await speak('Asked for again later.');
      tt.like(reused.body.data, { id: renewed.id, reused: true });
      tt.true(Date.parse(reused.body.data.audio.retained_until) > clock.now().getTime() + 29 * DAY);

      // Nothing is due yet.
      await app.formloom.worker.housekeep();
      tt.is((await download(app, plain.audio.url, u.key)).status, 200);

      clock.offsetMs += 11 * DAY;
      await app.formloom.worker.housekeep();
      const gone = await app.api('GET', `/voice/generations/${plain.id}`, { key: u.key });
      tt.is(gone.status, 200, 'the record stays in the library');
      tt.like(gone.body.data, { id: plain.id, status: 'ready', audio: null, characters: plain.characters, credits: { charged: plain.credits.charged } });
      const download404 = await download(app, plain.audio.url, u.key);
      tt.is(download404.status, 404);
      tt.is(JSON.parse(new TextDecoder().decode(download404.bytes)).error.reason, 'audio_expired');
      tt.is((await download(app, `/api/v1/voice/generations/${plain.id}/audio?format=mp3`, u.key)).status, 404, 'nor made again in another format');
      tt.false(existsSync(join(app.blobDir, 'voice', plain.id)), 'its blobs are deleted');
      tt.true(existsSync(join(app.blobDir, 'voice', saved.id)));
      tt.is((await download(app, saved.audio.url, u.key)).status, 200);
      tt.is((await download(app, reused.body.data.audio.url, u.key)).status, 200, 'renewed by its reuse');

      // An identical request now makes a new generation (the old audio is gone), charged.
      const fresh = await speak('Kept for thirty days.');
      tt.not(fresh.body.data.id, plain.id);
      tt.false(fresh.body.data.reused);
      tt.is(fresh.body.data.credits.charged, plain.credits.charged);
      // A second sweep finds nothing more. The saved clip keeps its audio, but is past the 30-day reuse window.
      await app.formloom.worker.housekeep();
      tt.is((await download(app, saved.audio.url, u.key)).status, 200);
      const late = await speak('Kept until deleted.', { save: true });
      tt.not(late.body.data.id, saved.id);
      tt.false(late.body.data.reused);
      tt.deepEqual((await app.api('GET', '/voice/generations', { key: u.key })).body.meta, { page: 1, per_page: 20, total: 5, total_pages: 1, rate_card: '2026-11-01' });
      const paged = await app.api('GET', '/voice/generations?per_page=2&page=3', { key: u.key });
      tt.deepEqual(paged.body.meta, { page: 3, per_page: 2, total: 5, total_pages: 3, rate_card: '2026-11-01' });
      tt.is(paged.body.data.length, 1);
      tt.is(paged.body.data[0].id, plain.id, 'newest first: the oldest is last');
    });

    t('retention: a reused request with save: true keeps the clip for good; delete removes record and audio', async (tt, app) => {
      const u = await voiceUser(app, { credits: 100 });
      const speak = (body: object = {}) => app.api('POST', '/voice', { key: u.key, body: { mode: 'speak', voice: VOICE, text: 'Save me later.', format: 'wav', ...body } });
      const first = (await speak()).body.data;
      const kept = await speak({ save: true });
      tt.like(kept.body.data, { id: first.id, reused: true, audio: { retained_until: null } });
      clock.offsetMs += 40 * DAY;
      await app.formloom.worker.housekeep();
      tt.is((await download(app, first.audio.url, u.key)).status, 200);
      // Every voice answer carries the Service-* headers (the balance, the rate card) and X-RateLimit-*.
      const balance = String(await app.formloom.storage.credits.balance(u.id));
      const answers = [
        await app.api('GET', '/voice/voices?language=en', { key: u.key }),
        await app.api('GET', '/voice/generations', { key: u.key }),
        await app.api('GET', `/voice/generations/${first.id}`, { key: u.key }),
        await download(app, first.audio.url, u.key),
        await app.api('GET', '/voice/generations/gen_unknown', { key: u.key }),
        await app.api('DELETE', `/voice/generations/${first.id}`, { key: u.key }),
      ];
      tt.deepEqual(answers.map((a) => a.status), [200, 200, 200, 200, 404, 200]);
      for (const a of answers) {
        tt.is(a.headers.get('service-credits-remaining'), balance);
        tt.is(a.headers.get('service-credits-charged'), '0');
        tt.truthy(a.headers.get('service-rate-card'));
        tt.truthy(a.headers.get('x-ratelimit-limit'));
        tt.truthy(a.headers.get('x-ratelimit-reset'));
      }
      for (const i of [2, 3, 5]) tt.is(answers[i]!.headers.get('service-generation-id'), first.id);
      tt.is(answers[3]!.headers.get('service-audio-duration'), String(first.audio.duration_seconds));
      tt.false(existsSync(join(app.blobDir, 'voice', first.id)));
      tt.is((await download(app, first.audio.url, u.key)).status, 404);
      const after = await speak();
      tt.not(after.body.data.id, first.id, 'a deleted clip is not reused');
      tt.is(after.headers.get('service-credits-charged'), '6');
    });
  },
  { ...toneVoiceAppOptions(), clock },
);
