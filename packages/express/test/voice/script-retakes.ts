import { oneAtATime } from './part-helpers';
import { voiceIdOf } from '@formloom/core';
import { forEachDb, type TestApp } from '../helpers/app';
import { download, probe, toneVoiceAppOptions, voiceUser, type VoiceUser } from '../helpers/voice';

/*
 * Retakes of script generations (docs/voice.md "Retakes": `{mode: speak, retake_of}` "makes the clip again with
 * the same words, voices, language, quality and speed"): the same rules as a speak clip's, every line made again.
 */

const US = voiceIdOf('tone', 'en-us');
const GB = voiceIdOf('tone', 'en-gb');
const BROKEN = voiceIdOf('failing', 'broken');
const HOUR = 3600_000;
const clock = { offsetMs: 0, base: Date.parse('2031-06-08T09:00:00.000Z'), started: Date.now(), now: () => new Date(clock.base + (Date.now() - clock.started) + clock.offsetMs) };

const post = (app: TestApp, u: VoiceUser, body: object) => app.api('POST', '/voice', { key: u.key, body });
const LINES = [{ speaker: 'Anna', voice: US, text: 'Good morning.' }, { pause_ms: 500 }, { speaker: 'Ben', voice: GB, text: 'Morning, Anna.' }];

/**
 * A user whose key has billed 400 characters, and a ready script of 27 spoken characters (11 credits). WAV
 * where the format is not what is tested: each MP3 starts LAME in a worker thread, about 0.2 CPU-seconds
 * (docs/testing.md, "What it costs").
 */
async function userWithScript(app: TestApp) {
  const u = await voiceUser(app, { credits: 1000 });
  const filler = await post(app, u, { mode: 'speak', voice: US, text: 'Filler words. '.repeat(29).slice(0, 400), format: 'wav' });
  if (filler.status !== 200) throw new Error(filler.text);
  const made = await post(app, u, { mode: 'script', lines: LINES, format: 'wav', title: 'Dialogue' });
  if (made.status !== 200) throw new Error(made.text);
  return { u, script: made.body.data };
}

forEachDb(
  oneAtATime(),
  (t) => {
    t('a script is retaken free twice within 24 h: same gen_ id, every line made again, 0 charged; then charged', async (tt, app) => {
      const { u, script } = await userWithScript(app);
      tt.like(script, { mode: 'script', status: 'ready', characters: 27, retakes_remaining: 2 });
      const balance = await app.formloom.storage.credits.balance(u.id);

      const est = await post(app, u, { mode: 'estimate', retake_of: script.id });
      tt.like(est.body.data, { object: 'voice.estimate', characters: 27, credits: 0, free: true });

      const first = await post(app, u, { mode: 'speak', retake_of: script.id, format: 'mp3' });
      tt.is(first.status, 200, first.text);
      tt.like(first.body.data, { id: script.id, mode: 'script', status: 'ready', retakes_remaining: 1, retake_of: null, title: 'Dialogue', audio: { format: 'mp3' } });
      tt.is(first.headers.get('service-credits-charged'), '0');
      tt.is(first.body.data.credits.charged, 0, 'the body says what this request charged, as the header does');
      tt.is(first.headers.get('service-retakes-remaining'), '1');
      tt.deepEqual(
        first.body.data.lines.map((l: any) => [l.speaker, l.voice?.id ?? null, l.text, l.status]),
        [['Anna', US, 'Good morning.', 'ready'], [null, null, null, 'ready'], ['Ben', GB, 'Morning, Anna.', 'ready']],
      );
      const [, pause, ben] = first.body.data.lines;
      tt.true(Math.abs(pause.end_ms - pause.start_ms - 500) <= 1);
      tt.true(Math.abs(ben.end_ms / 1000 - first.body.data.audio.duration_seconds) < 0.05);
      tt.like(await probe((await download(app, first.body.data.audio.url, u.key)).bytes), { codec: 'mp3', sampleRate: 24000 });
      tt.like(await probe((await download(app, `/api/v1/voice/generations/${script.id}/audio?format=wav`, u.key)).bytes), { codec: 'pcm_s16le' });

      // mode script may ask for it too (only for a script).
      const second = await post(app, u, { mode: 'script', retake_of: script.id });
      tt.like(second.body.data, { id: script.id, retakes_remaining: 0 });
      tt.is(await app.formloom.storage.credits.balance(u.id), balance, 'two free retakes');

      const third = await post(app, u, { mode: 'speak', retake_of: script.id, max_credits: 11 });
      tt.is(third.status, 200, third.text);
      tt.not(third.body.data.id, script.id);
      tt.like(third.body.data, { mode: 'script', retake_of: script.id, characters: 27, credits: { charged: 11 }, retakes_remaining: 2, title: 'Dialogue' });
      tt.is(third.body.data.lines.length, 3);
      tt.is(await app.formloom.storage.credits.balance(u.id), balance - 11);

      tt.is((await post(app, u, { mode: 'speak', retake_of: script.id, max_credits: 10 })).status, 409);
      tt.like((await post(app, u, { mode: 'speak', retake_of: script.id, lines: LINES })).body.error, { reason: 'not_with_retake', field: 'lines' });
      tt.is(await app.formloom.storage.credits.balance(u.id), balance - 11, 'refusals charge nothing');

      clock.offsetMs += 24 * HOUR + 60_000;
      const late = await post(app, u, { mode: 'estimate', retake_of: third.body.data.id });
      tt.like(late.body.data, { credits: 11, free: false });
    });

    t('a partial script has no free retake: retaking it is a new charged generation', async (tt, app) => {
      const u = await voiceUser(app, { credits: 1000 });
      const partial = await post(app, u, { mode: 'script', format: 'wav', lines: [{ voice: US, text: 'Said well.' }, { voice: BROKEN, text: 'Breaks later.' }] });
      tt.is(partial.status, 200, partial.text);
      tt.like(partial.body.data, { status: 'partial', retakes_remaining: 0 });
      const balance = await app.formloom.storage.credits.balance(u.id);
      const retake = await post(app, u, { mode: 'speak', retake_of: partial.body.data.id });
      tt.is(retake.status, 200, retake.text);
      tt.not(retake.body.data.id, partial.body.data.id);
      // Charged for every line (23 characters: 10 credits), the failed line's share credited back again.
      tt.like(retake.body.data, { status: 'partial', retake_of: partial.body.data.id, credits: { estimated: 10, charged: 4 } });
      tt.is(await app.formloom.storage.credits.balance(u.id), balance - 4);
    });
  },
  { ...toneVoiceAppOptions(), clock },
);
