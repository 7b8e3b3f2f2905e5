import test from '../helpers/bounded-test';
import { voiceIdOf } from '@formloom/core';
import { createFliteEngine } from '@formloom/speech-flite';
import { forEachDb } from '../helpers/app';
import { sharedVoiceEngines, voiceUser } from '../helpers/voice';

// Both embedded engines, as the self-hosted app serves them (eSpeak the process's shared engine: how many
// processes it runs changes no voice of the list). Listing voices starts no Flite child (its voices are a
// fixed list); eSpeak's starts its process, which reads the voice data.
const { espeak, audio } = sharedVoiceEngines();
const flite = createFliteEngine();
test.after.always(() => flite.close());
// The auto_cast script is WAV: its format is not tested here, and each MP3 starts LAME in a worker thread.
const rank = (wer: number | null) => (wer === null ? Infinity : wer);

forEachDb(
  test,
  (t) => {
    t('voices: stock voices with stable nv_ ids, every documented filter', async (tt, app) => {
      const { key } = await voiceUser(app);
      const all = await app.api('GET', '/voice/voices', { key });
      tt.is(all.status, 200);
      const voices: any[] = all.body.data;
      tt.true(voices.length > 100);
      const klatt = voices.find((v) => v.id === voiceIdOf('espeak', 'en-us+klatt4'));
      tt.like(klatt, { object: 'voice', source: 'stock', language: 'English', language_code: 'en-US', engine: 'espeak', name: 'eSpeak English (America), Klatt 4' });
      tt.true(klatt.styles.includes('klatt'));
      tt.true(voices.every((v) => /^nv_[0-9a-f]{20}$/.test(v.id)));
      tt.is(new Set(voices.map((v) => v.id)).size, voices.length, 'ids are unique');
      tt.deepEqual((await app.api('GET', '/voice/voices', { key })).body.data.map((v: any) => v.id), voices.map((v) => v.id), 'stable');

      const german = (await app.api('GET', '/voice/voices?language=German', { key })).body.data;
      tt.true(german.length >= 1 && german.every((v: any) => v.language === 'German'));
      const de = (await app.api('GET', '/voice/voices?language=de', { key })).body.data;
      tt.deepEqual(de.map((v: any) => v.id), german.map((v: any) => v.id), 'a code and a name find the same voices');
      const english = (await app.api('GET', '/voice/voices?language=en', { key })).body.data;
      tt.true(english.some((v: any) => v.language_code === 'en-GB') && english.every((v: any) => v.language === 'English'));

      const female = (await app.api('GET', '/voice/voices?gender=female', { key })).body.data;
      tt.true(female.length >= 1 && female.every((v: any) => v.gender === 'female'));
      const clear = (await app.api('GET', '/voice/voices?q=CLEAR', { key })).body.data;
      tt.deepEqual(clear.map((v: any) => v.id), voices.filter((v) => v.quality.intelligibility === 'high').map((v) => v.id), '`clear` is the style of voices measured high');
      const featured = (await app.api('GET', '/voice/voices?featured=true', { key })).body.data;
      tt.deepEqual(featured.map((v: any) => v.id), voices.filter((v) => v.featured).map((v) => v.id));
      tt.true(featured.every((v: any) => v.quality.intelligibility === 'high'));
      tt.deepEqual((await app.api('GET', '/voice/voices?featured=false', { key })).body.data.length, voices.length - featured.length);
      tt.deepEqual((await app.api('GET', '/voice/voices?source=mine', { key })).body.data, []);
      tt.is((await app.api('GET', '/voice/voices?source=stock', { key })).body.data.length, voices.length);
      tt.is((await app.api('GET', '/voice/voices?source=theirs', { key })).status, 400);
    });

    t('voices: each language best first by measured intelligibility; featured only at the bar; honest names', async (tt, app) => {
      const { key } = await voiceUser(app);
      const all: any[] = (await app.api('GET', '/voice/voices', { key })).body.data;
      const english: any[] = (await app.api('GET', '/voice/voices?language=en', { key })).body.data;
      const measured = english.filter((v) => v.quality.wer !== null).map((v) => v.quality.wer);
      tt.is(english[0].quality.wer, Math.min(...measured), 'the first English voice is the one understood best');
      tt.like(english[0], { engine: 'flite', quality: { measured_with: 'plain prose' } }, "Flite's, not eSpeak's");
      const featuredCount = all.filter((v) => v.featured).length;
      tt.true(all.slice(0, featuredCount).every((v) => v.featured), 'featured voices lead the whole list');
      for (let i = 1; i < english.length; i++) {
        tt.true(rank(english[i - 1].quality.wer) <= rank(english[i].quality.wer), `${english[i - 1].name} (${english[i - 1].quality.wer}) before ${english[i].name} (${english[i].quality.wer})`);
      }
      tt.true(english.some((v) => v.quality.intelligibility === 'unmeasured'), 'English varieties the bench did not measure are listed, last');
      for (const v of all) {
        tt.is(v.featured, v.quality.intelligibility === 'high', v.name);
        tt.is(v.featured, v.quality.wer !== null && v.quality.wer <= 0.1, v.name);
        if (v.quality.wer === null) tt.deepEqual(v.quality, { intelligibility: 'unmeasured', wer: null, measured_with: null });
        tt.false(/clear/i.test(v.name), `no voice calls itself clear: ${v.name}`);
        tt.regex(v.name, v.engine === 'flite' ? /^Flite / : /^eSpeak /, 'the engine is in the name as well as in `engine`');
        tt.is(v.preview_url, `/api/v1/voice/voices/${v.id}/preview`);
      }
      const german: any[] = (await app.api('GET', '/voice/voices?language=de', { key })).body.data;
      tt.true(german.length >= 1 && german.every((v) => v.engine === 'espeak' && v.quality.intelligibility === 'unmeasured' && !v.featured), 'only English is measured');
      const featuredEnglish = (await app.api('GET', '/voice/voices?language=en&featured=true', { key })).body.data;
      tt.deepEqual(featuredEnglish.map((v: any) => v.id), english.filter((v) => v.featured).map((v) => v.id), 'featured=true keeps the order');
    });

    t('auto_cast casts the best English voices: the first speaker the first voice, the next none of a worse level than needed', async (tt, app) => {
      const u = await voiceUser(app, { credits: 100 });
      const english: any[] = (await app.api('GET', '/voice/voices?language=en', { key: u.key })).body.data;
      const res = await app.api('POST', '/voice', { key: u.key, body: { mode: 'script', script: '[Alice] Ready?\n[Bob] Almost.', auto_cast: true, language: 'en', format: 'wav' } });
      tt.is(res.status, 200, res.text);
      const [alice, bob] = res.body.data.lines.map((l: any) => english.find((v) => v.id === l.voice.id));
      tt.is(alice.id, english[0].id);
      const LEVELS = ['high', 'medium', 'low', 'unmeasured'];
      tt.true(LEVELS.indexOf(bob.quality.intelligibility) <= LEVELS.indexOf(english[1].quality.intelligibility), `${bob.name} is as clear as the second-best voice's level`);
      tt.not(bob.id, alice.id);
    });

    t('voices: a forms key gets 403 wrong_key_scope, no key 401', async (tt, app) => {
      const forms = await app.user();
      const res = await app.api('GET', '/voice/voices', { key: forms.key });
      tt.is(res.status, 403);
      tt.is(res.body.error.reason, 'wrong_key_scope');
      tt.is((await app.api('POST', '/voice', { key: forms.key, body: { mode: 'estimate', text: 'Hi', voice: 'nv_x' } })).status, 403);
      tt.is((await app.api('GET', '/voice/voices')).status, 401);
    });
  },
  { speechEngines: [espeak, flite], audio },
);
