import { oneAtATime } from './part-helpers';
import { voiceIdOf, type SpeechEngine, type SynthesisRequest } from '@formloom/core';
import { forEachDb, type TestApp } from '../helpers/app';
import { download, failingEngine, probe, sharedVoiceEngines, voiceUser } from '../helpers/voice';
import { sameBytes } from '@formloom/core/testing';

/*
 * Free voice previews (docs/voice.md, "Previews"): `preview_url` of every list item answers a short sentence
 * in the voice's language as MP3, made once and then served from the blob store; no credits, no ledger entry,
 * no generation, no generation limit. eSpeak is wrapped to count its syntheses (the engine is the boundary).
 */

const syntheses: SynthesisRequest[] = [];
const { espeak, audio } = sharedVoiceEngines();
const counted: SpeechEngine = {
  id: espeak.id,
  voices: () => espeak.voices(),
  synthesize: (request) => {
    syntheses.push(request);
    return espeak.synthesize(request);
  },
};
const failing = failingEngine();
const KLATT = voiceIdOf('espeak', 'en-us+klatt4');
const GERMAN = voiceIdOf('espeak', 'de');

async function previewOf(app: TestApp, key: string, voiceId: string) {
  const list = await app.api('GET', '/voice/voices', { key });
  const item = list.body.data.find((v: any) => v.id === voiceId);
  return download(app, item.preview_url, key);
}

/** What a preview must leave alone: balance, ledger, library, and the key's generation budget. */
async function accountState(app: TestApp, userId: string, key: string) {
  const library = await app.api('GET', '/voice/generations', { key });
  return {
    balance: await app.formloom.storage.credits.balance(userId),
    ledger: await app.formloom.storage.credits.entries(userId),
    generations: library.body.meta.total,
  };
}

forEachDb(
  oneAtATime(),
  (t) => {
    t('a preview is a short MP3 in the voice language, free, made once and then served from the store', async (tt, app) => {
      const u = await voiceUser(app, { credits: 50 });
      const before = await accountState(app, u.id, u.key);
      const start = syntheses.length;
      const first = await previewOf(app, u.key, KLATT);
      tt.is(first.status, 200);
      tt.is(first.type, 'audio/mpeg');
      tt.is(first.headers.get('service-credits-charged'), '0');
      tt.is(first.headers.get('service-credits-remaining'), '50');
      tt.regex(first.headers.get('cache-control') ?? '', /max-age=\d+/);
      const probed = await probe(first.bytes);
      tt.is(probed.codec, 'mp3');
      tt.true(probed.duration > 1 && probed.duration < 15, `${probed.duration} s`);
      tt.is(syntheses.length - start, 1);
      tt.is(syntheses.at(-1)!.text, 'Hello, this is my voice. Thank you for listening.');

      // eSpeak jitters pitch at random, so equal bytes mean the stored preview, not a second synthesis.
      const again = await previewOf(app, u.key, KLATT);
      sameBytes(tt, again.bytes, first.bytes);
      const other = await voiceUser(app, { credits: 0 });
      const forOther = await previewOf(app, other.key, KLATT);
      tt.is(forOther.status, 200, 'free: an account without credits gets it too');
      sameBytes(tt, forOther.bytes, first.bytes, 'one preview for every account');
      tt.is(syntheses.length - start, 1, 'made once');

      const german = await previewOf(app, u.key, GERMAN);
      tt.is(german.status, 200);
      tt.is(syntheses.at(-1)!.text, 'Hallo, das ist meine Stimme. Danke fürs Zuhören.', 'in the voice language');
      tt.deepEqual(await accountState(app, u.id, u.key), before, 'balance, ledger and library unchanged');
    });

    t('concurrent first requests share one synthesis', async (tt, app) => {
      const u = await voiceUser(app, { credits: 1 });
      const voice = voiceIdOf('espeak', 'en-gb+f3');
      const start = syntheses.length;
      const answers = await Promise.all(Array.from({ length: 4 }, () => previewOf(app, u.key, voice)));
      tt.true(answers.every((a) => a.status === 200));
      tt.true(answers.every((a) => Buffer.compare(Buffer.from(a.bytes), Buffer.from(answers[0]!.bytes)) === 0));
      tt.is(syntheses.filter((r, i) => i >= start && r.voice === 'en-gb+f3').length, 1);
    });

    t('previews count against no generation limit and leave the budget as it was', async (tt, app) => {
      const u = await voiceUser(app, { credits: 100 });
      for (let i = 0; i < 3; i++) tt.is((await previewOf(app, u.key, GERMAN)).status, 200);
      const speak = await app.api('POST', '/voice', { key: u.key, body: { mode: 'speak', voice: KLATT, text: 'One generation a minute.', format: 'wav' } });
      tt.is(speak.status, 200, speak.text);
      tt.is(speak.headers.get('x-ratelimit-remaining'), '0', 'the minute budget of 1 is whole after three previews');
      tt.is((await previewOf(app, u.key, KLATT)).status, 200, 'and a preview still answers once it is spent');
    });

    t('unknown voice 404; a failing engine 500 and a starting one 503, charging and caching nothing', async (tt, app) => {
      const u = await voiceUser(app, { credits: 10 });
      const unknown = await app.api('GET', '/voice/voices/nv_00000000000000000000/preview', { key: u.key });
      tt.is(unknown.status, 404);
      tt.like(unknown.body.error, { code: 'NOT_FOUND', reason: 'voice_not_found' });
      tt.is(unknown.headers.get('service-credits-charged'), '0');
      const dead = await app.api('GET', `/voice/voices/${voiceIdOf('failing', 'dead')}/preview`, { key: u.key });
      tt.is(dead.status, 500);
      tt.like(dead.body.error, { code: 'INTERNAL_ERROR', reason: 'preview_failed' });
      const warming = await app.api('GET', `/voice/voices/${voiceIdOf('failing', 'warming')}/preview`, { key: u.key });
      tt.is(warming.status, 503);
      tt.is(warming.body.error.code, 'WARMING_UP');
      tt.is(warming.headers.get('retry-after'), '7');
      tt.is((await app.api('GET', `/voice/voices/${voiceIdOf('failing', 'dead')}/preview`, { key: u.key })).status, 500, 'a failure is not cached');
      tt.is(await app.formloom.storage.credits.balance(u.id), 10);
      tt.is((await app.api('GET', `/voice/voices/${KLATT}/preview`)).status, 401, 'a voice key is needed, as for the list');
      const forms = await app.user();
      tt.is((await app.api('GET', `/voice/voices/${KLATT}/preview`, { key: forms.key })).status, 403);
    });
  },
  { speechEngines: [counted, failing], audio, config: { voice: { generationsPerMinute: 1 } } },
);
