import test from 'ava';
import { voiceIdOf } from '@formloom/core';
import { forEachDb } from './helpers/app';
import { voiceAppOptions, voiceUser } from './helpers/voice';

forEachDb(
  test,
  (t) => {
    t('voices: stock voices with stable nv_ ids, every filter of the spec', async (tt, app) => {
      const { key } = await voiceUser(app);
      const all = await app.api('GET', '/voice/voices', { key });
      tt.is(all.status, 200);
      const voices: any[] = all.body.data;
      tt.true(voices.length > 100);
      const klatt = voices.find((v) => v.id === voiceIdOf('espeak', 'en-us+klatt4'));
      tt.like(klatt, { object: 'voice', source: 'stock', language: 'English', language_code: 'en-US', engine: 'espeak', featured: true });
      tt.true(klatt.styles.includes('clear'));
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
      tt.true(clear.length >= 2 && clear.every((v: any) => v.styles.includes('clear')));
      const featured = (await app.api('GET', '/voice/voices?featured=true', { key })).body.data;
      tt.true(featured.length >= 1 && featured.length < voices.length && featured.every((v: any) => v.featured));
      tt.deepEqual((await app.api('GET', '/voice/voices?source=mine', { key })).body.data, []);
      tt.is((await app.api('GET', '/voice/voices?source=stock', { key })).body.data.length, voices.length);
      tt.is((await app.api('GET', '/voice/voices?source=theirs', { key })).status, 400);
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
  voiceAppOptions(),
);
