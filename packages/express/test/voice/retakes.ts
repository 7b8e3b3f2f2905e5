import { oneAtATime } from './part-helpers';
import { voiceIdOf } from '@formloom/core';
import { forEachDb, type TestApp } from '../helpers/app';
import { download, probe, toneVoiceAppOptions, voiceUser, type VoiceUser } from '../helpers/voice';

/*
 * Retakes (docs/voice.md, "Retakes"): free twice within 24 hours while the key's free retake characters this
 * month stay at or under a quarter of its billed characters, keeping the gen_ id; otherwise a new charged
 * generation naming the retaken one in `retake_of`.
 */

const VOICE = voiceIdOf('tone', 'en-us');
const HOUR = 3600_000;
const clock = { offsetMs: 0, base: Date.parse('2031-05-08T09:00:00.000Z'), started: Date.now(), now: () => new Date(clock.base + (Date.now() - clock.started) + clock.offsetMs) };
const words = (n: number, seed: string) => `${seed} `.repeat(Math.ceil(n / (seed.length + 1))).slice(0, n).trim().padEnd(n, 'x');

async function speak(app: TestApp, u: VoiceUser, body: object) {
  return app.api('POST', '/voice', { key: u.key, body: { mode: 'speak', ...body } });
}

/**
 * A user whose key has billed `billed` characters beyond the clip, and a clip of `clip` characters in `format`
 * (default: the API's, MP3). The filler is WAV and so is the clip of the tests that change no format: the
 * format is not what they are about, and each MP3 starts LAME in a worker thread, about 0.2 CPU-seconds
 * (docs/testing.md, "What it costs").
 */
async function userWithClip(app: TestApp, clip: number, billed: number, format?: 'wav') {
  const u = await voiceUser(app, { credits: 1000 });
  if (billed > 0) tOk(await speak(app, u, { voice: VOICE, text: words(billed, 'Filler words.'), format: 'wav' }));
  const made = await speak(app, u, { voice: VOICE, text: words(clip, 'Clip.'), ...(format ? { format } : {}) });
  tOk(made);
  return { u, clip: made.body.data };
}

function tOk(res: { status: number; text: string }) {
  if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${res.text}`);
}

forEachDb(
  oneAtATime(),
  (t) => {
    t('free twice within 24 h: same gen_ id, 0 charged, new audio; the third retake is charged', async (tt, app) => {
      const { u, clip } = await userWithClip(app, 20, 300); // billed 320: a quarter is 80
      tt.is(clip.retakes_remaining, 2);
      const balance = await app.formloom.storage.credits.balance(u.id);
      const est = await app.api('POST', '/voice', { key: u.key, body: { mode: 'estimate', retake_of: clip.id } });
      tt.like(est.body.data, { object: 'voice.estimate', characters: 20, credits: 0, free: true });

      const first = await speak(app, u, { retake_of: clip.id, format: 'wav' });
      tt.is(first.status, 200, first.text);
      tt.like(first.body.data, { id: clip.id, status: 'ready', retakes_remaining: 1, retake_of: null, audio: { format: 'wav' } });
      tt.is(first.headers.get('service-generation-id'), clip.id);
      tt.is(first.headers.get('service-credits-charged'), '0');
      tt.is(first.body.data.credits.charged, 0, 'the body says what this request charged, as the header does');
      tt.is(first.headers.get('service-retakes-remaining'), '1');
      tt.like(await probe((await download(app, first.body.data.audio.url, u.key)).bytes), { codec: 'pcm_s16le' });
      tt.like(await probe((await download(app, `/api/v1/voice/generations/${clip.id}/audio?format=mp3`, u.key)).bytes), { codec: 'mp3' });

      // The clip now holds WAV: an identical WAV request reuses it, the original MP3 request no longer does.
      const wavAgain = await speak(app, u, { voice: VOICE, text: words(20, 'Clip.'), format: 'wav' });
      tt.like(wavAgain.body.data, { id: clip.id, reused: true, audio: { format: 'wav' } });
      const second = await speak(app, u, { retake_of: clip.id });
      tt.like(second.body.data, { id: clip.id, retakes_remaining: 0, credits: { charged: 0 } });
      tt.is(second.headers.get('service-retakes-remaining'), '0');
      tt.is(await app.formloom.storage.credits.balance(u.id), balance, 'both free');

      const third = await speak(app, u, { retake_of: clip.id });
      tt.is(third.status, 200);
      tt.not(third.body.data.id, clip.id);
      tt.like(third.body.data, { retake_of: clip.id, characters: 20, credits: { charged: 8 }, retakes_remaining: 2 });
      tt.is(third.headers.get('service-credits-charged'), '8');
      tt.is(await app.formloom.storage.credits.balance(u.id), balance - 8);
      const got = await app.api('GET', `/voice/generations/${clip.id}`, { key: u.key });
      tt.like(got.body.data, { retakes_remaining: 0, credits: { charged: clip.credits.charged } });
    });

    t('a retake over a quarter of the month\'s billed characters is charged as a new generation', async (tt, app) => {
      const { u, clip } = await userWithClip(app, 100, 0, 'wav'); // billed 100: a quarter is 25 < 100
      const est = await app.api('POST', '/voice', { key: u.key, body: { mode: 'estimate', retake_of: clip.id } });
      tt.like(est.body.data, { credits: 40, free: false });
      const balance = await app.formloom.storage.credits.balance(u.id);
      const retake = await speak(app, u, { retake_of: clip.id, max_credits: 40 });
      tt.is(retake.status, 200, retake.text);
      tt.not(retake.body.data.id, clip.id);
      tt.like(retake.body.data, { retake_of: clip.id, credits: { charged: 40 } });
      tt.is(await app.formloom.storage.credits.balance(u.id), balance - 40);
      // max_credits still guards a charged retake.
      const refused = await speak(app, u, { retake_of: clip.id, max_credits: 10 });
      tt.is(refused.status, 409);
      tt.is(refused.body.error.reason, 'max_credits_exceeded');
      tt.is(await app.formloom.storage.credits.balance(u.id), balance - 40);
      // The clip itself still offers its two retakes by its own count; the budget decides at the request.
      tt.is((await app.api('GET', `/voice/generations/${clip.id}`, { key: u.key })).body.data.retakes_remaining, 2);
    });

    t('after 24 hours a retake is charged; bad retake requests are refused without a charge', async (tt, app) => {
      const { u, clip } = await userWithClip(app, 20, 300, 'wav');
      const balance = await app.formloom.storage.credits.balance(u.id);
      const extra = await speak(app, u, { retake_of: clip.id, text: 'Other words.' });
      tt.is(extra.status, 400);
      tt.like(extra.body.error, { field: 'text', reason: 'not_with_retake' });
      tt.is((await speak(app, u, { retake_of: clip.id, voice: VOICE })).body.error.reason, 'not_with_retake');
      tt.is((await speak(app, u, { retake_of: clip.id, reuse: false })).body.error.reason, 'not_with_retake');
      // mode script retakes script generations only (voice/script-retakes.ts).
      tt.like((await speak(app, u, { retake_of: clip.id, mode: 'script' })).body.error, { reason: 'not_with_retake', field: 'mode' });
      tt.is((await speak(app, u, { retake_of: 42 })).status, 400);
      tt.is((await speak(app, u, { retake_of: '' })).status, 404);
      const unknown = await speak(app, u, { retake_of: 'gen_nope' });
      tt.is(unknown.status, 404);
      tt.is(unknown.body.error.reason, 'generation_not_found');
      const stranger = await voiceUser(app, { credits: 100 });
      tt.is((await speak(app, stranger, { retake_of: clip.id })).status, 404, "another account's clip");
      tt.is(await app.formloom.storage.credits.balance(u.id), balance);

      clock.offsetMs += 24 * HOUR + 60_000;
      tt.is((await app.api('GET', `/voice/generations/${clip.id}`, { key: u.key })).body.data.retakes_remaining, 0);
      const late = await speak(app, u, { retake_of: clip.id });
      tt.not(late.body.data.id, clip.id);
      tt.like(late.body.data, { retake_of: clip.id, credits: { charged: 8 } });
      tt.is(await app.formloom.storage.credits.balance(u.id), balance - 8);
    });

    t('concurrent retakes: the free ones never exceed two', async (tt, app) => {
      const { u, clip } = await userWithClip(app, 20, 600, 'wav');
      const balance = await app.formloom.storage.credits.balance(u.id);
      const all = await Promise.all(Array.from({ length: 4 }, () => speak(app, u, { retake_of: clip.id })));
      for (const r of all) tt.is(r.status, 200, r.text);
      const free = all.filter((r) => r.body.data.id === clip.id);
      const charged = all.filter((r) => r.body.data.id !== clip.id);
      tt.is(free.length, 2);
      tt.is(charged.length, 2);
      for (const r of charged) tt.is(r.body.data.retake_of, clip.id);
      tt.is(await app.formloom.storage.credits.balance(u.id), balance - 16);
      tt.is(await app.formloom.storage.voiceGenerations.freeRetakes(clip.id), 2);
    });
  },
  { ...toneVoiceAppOptions(), clock },
);
