import { voiceIdOf } from '@formloom/core';
import { download, probe, voiceUser } from '../helpers/voice';
import type { SharedDb } from '../helpers/shared-apps';

const US = voiceIdOf('espeak', 'en-us+klatt4');
const GB = voiceIdOf('espeak', 'en-gb+klatt4');
const BROKEN = voiceIdOf('failing', 'broken'); // fails after its first chunk
const DEAD = voiceIdOf('failing', 'dead'); // fails before any audio
// Tests whose subject is not the format ask for WAV: each MP3 starts LAME in a worker thread, about 0.2
// CPU-seconds (docs/testing.md, "What it costs"); 'script lines' keeps the default, MP3.

/** RMS of 16-bit little-endian samples between two times (ms) of raw 24 kHz PCM. */
function rms(pcm: Uint8Array, fromMs: number, toMs: number): number {
  const view = new DataView(pcm.buffer, pcm.byteOffset, pcm.byteLength);
  const from = Math.floor((fromMs * 24) | 0);
  const to = Math.min(Math.floor(toMs * 24), pcm.byteLength / 2);
  let sum = 0;
  for (let i = from; i < to; i++) sum += view.getInt16(i * 2, true) ** 2;
  return Math.sqrt(sum / Math.max(1, to - from));
}

/** voice.test.ts registers these on the voice apps its parts share (`sharedVoiceApps`, helpers/voice.ts). */
export function register(db: SharedDb): void {
  db((t) => {
    t('script estimate: exact, free, pauses free and counted in the seconds', async (tt, app) => {
      const u = await voiceUser(app, { credits: 100 });
      const lines = [{ speaker: 'Anna', voice: US, text: 'Hello there.' }, { pause_ms: 1500 }, { speaker: 'Ben', voice: GB, text: 'Hi, Anna. How are you?' }];
      const res = await app.api('POST', '/voice', { key: u.key, body: { mode: 'estimate', lines } });
      tt.is(res.status, 200, res.text);
      // 12 + 22 spoken characters = 34 -> 13.6 -> 14 credits, rounded once
      tt.deepEqual(Object.keys(res.body.data).sort(), ['balance', 'characters', 'credits', 'enough', 'object', 'seconds_estimated']);
      tt.like(res.body.data, { object: 'voice.estimate', characters: 34, credits: 14, balance: 100, enough: true });
      tt.true(res.body.data.seconds_estimated >= 1.5 + 34 / 15 - 0.1);
      tt.is(res.headers.get('service-credits-estimated'), '14');
      tt.is(res.headers.get('service-credits-charged'), '0');
      const text = await app.api('POST', '/voice', { key: u.key, body: { mode: 'estimate', script: '[Anna] Hello there.\n(pause 1.5s)\n[Ben] Hi, Anna. How are you?', cast: [{ speaker: 'anna', voice: US }, { speaker: 'BEN', voice: GB }] } });
      tt.like(text.body.data, { characters: 34, credits: 14 });
      tt.is(await app.formloom.storage.credits.balance(u.id), 100);
      tt.deepEqual((await app.formloom.storage.credits.entries(u.id)).map((e) => e.kind), ['purchase']);
      tt.is((await app.api('GET', '/voice/generations', { key: u.key })).body.meta.total, 0);
    });

    t('script lines: several voices and a pause in one file, per-line timing and credits, charged once', async (tt, app) => {
      const u = await voiceUser(app, { credits: 100 });
      const lines = [{ speaker: 'Anna', voice: US, text: 'Hello there.' }, { pause_ms: 1500 }, { speaker: 'Ben', voice: GB, text: 'Hi, Anna. How are you?' }];
      const res = await app.api('POST', '/voice', { key: u.key, body: { mode: 'script', lines, title: 'Dialogue' } });
      tt.is(res.status, 200, res.text);
      const g = res.body.data;
      tt.like(g, { object: 'voice.generation', status: 'ready', mode: 'script', source: 'api', language: 'English', characters: 34, title: 'Dialogue' });
      tt.deepEqual(g.credits, { estimated: 14, charged: 14, remaining: 86 });
      tt.is(g.voice.id, US, "the generation's voice is the first line's");
      tt.is(g.lines.length, 3);
      tt.deepEqual(Object.keys(g.lines[0]).sort(), ['credits', 'end_ms', 'speaker', 'start_ms', 'status', 'text', 'voice']);
      const [anna, pause, ben] = g.lines;
      tt.like(anna, { speaker: 'Anna', voice: { id: US }, text: 'Hello there.', status: 'ready', start_ms: 0, credits: 4.8 });
      tt.is(typeof anna.voice.name, 'string');
      tt.like(pause, { speaker: null, voice: null, text: null, status: 'ready', start_ms: anna.end_ms, credits: 0 });
      tt.true(Math.abs(pause.end_ms - pause.start_ms - 1500) <= 1);
      tt.like(ben, { speaker: 'Ben', voice: { id: GB }, status: 'ready', start_ms: pause.end_ms, credits: 8.8 });
      tt.true(anna.end_ms > 300 && ben.end_ms > ben.start_ms + 500);
      tt.true(Math.abs(ben.end_ms / 1000 - g.audio.duration_seconds) < 0.05, `${ben.end_ms} vs ${g.audio.duration_seconds}`);
      tt.is(res.headers.get('service-credits-charged'), '14');
      tt.is(res.headers.get('service-credits-remaining'), '86');
      tt.is(res.headers.get('service-generation-id'), g.id);

      const mp3 = await download(app, g.audio.url, u.key);
      tt.is(mp3.type, 'audio/mpeg');
      const info = await probe(mp3.bytes);
      tt.is(info.codec, 'mp3');
      tt.true(Math.abs(info.duration - g.audio.duration_seconds) < 0.25);
      // The pause is silent where the answer says it is; the lines around it are not.
      const pcm = (await download(app, `/api/v1/voice/generations/${g.id}/audio?format=pcm_24k`, u.key)).bytes;
      tt.true(rms(pcm, pause.start_ms + 50, pause.end_ms - 50) < 30, 'silence');
      tt.true(rms(pcm, anna.start_ms, anna.end_ms) > 300, 'Anna speaks');
      tt.true(rms(pcm, ben.start_ms, ben.end_ms) > 300, 'Ben speaks');

      const entries = await app.formloom.storage.credits.entries(u.id);
      tt.deepEqual(entries.map((e) => [e.kind, e.amount, e.generation_id]), [['purchase', 100, null], ['spend', -14, g.id]]);
      const got = await app.api('GET', `/voice/generations/${g.id}`, { key: u.key });
      tt.deepEqual(got.body.data.lines, g.lines);
    });

    t('script text: [Name] lines with cast, untagged lines in the request voice, Accept audio/wav', async (tt, app) => {
      const u = await voiceUser(app, { credits: 100 });
      const script = '[Anna] Good morning.\n(pause 2s)\nThe narrator reads this.\n[BEN] Morning! (pause 500ms) Coffee?';
      const res = await fetch(`${app.url}/api/v1/voice`, {
        method: 'POST',
        headers: { authorization: `Bearer ${u.key}`, 'content-type': 'application/json', accept: 'audio/wav' },
        body: JSON.stringify({ mode: 'script', script, voice: GB, cast: [{ speaker: 'anna', voice: US }, { speaker: 'Ben', voice: US }] }),
      });
      tt.is(res.status, 200);
      tt.is(res.headers.get('content-type'), 'audio/wav');
      // 13 + 24 + 8 + 7 = 52 spoken characters -> 20.8 -> 21 credits
      tt.is(res.headers.get('service-credits-charged'), '21');
      const wav = new Uint8Array(await res.arrayBuffer());
      const info = await probe(wav);
      tt.like(info, { codec: 'pcm_s16le', sampleRate: 24000 });
      tt.true(info.duration > 2.5);
      const id = res.headers.get('service-generation-id')!;
      const g = (await app.api('GET', `/voice/generations/${id}`, { key: u.key })).body.data;
      tt.deepEqual(
        g.lines.map((l: any) => [l.speaker, l.voice?.id ?? null, l.text ?? Math.round((l.end_ms - l.start_ms) / 100) * 100]),
        [['Anna', US, 'Good morning.'], [null, null, 2000], [null, GB, 'The narrator reads this.'], ['BEN', US, 'Morning!'], [null, null, 500], ['BEN', US, 'Coffee?']],
      );
      tt.is(g.voice.id, GB, 'the request voice is the generation voice');
      tt.is(await app.formloom.storage.credits.balance(u.id), 79);
    });

    t('auto_convert and auto_cast: a chat log becomes lines, each speaker gets its own voice', async (tt, app) => {
      const u = await voiceUser(app, { credits: 100 });
      const chat = '[09:14] Alice: Are you ready?\n[09:15] Bob: Almost.\nGive me a minute.\n[09:16] Alice: Fine.';
      const res = await app.api('POST', '/voice', { key: u.key, body: { mode: 'script', script: chat, auto_convert: true, auto_cast: true, language: 'en', format: 'wav' } });
      tt.is(res.status, 200, res.text);
      const g = res.body.data;
      tt.deepEqual(g.lines.map((l: any) => [l.speaker, l.text]), [['Alice', 'Are you ready?'], ['Bob', 'Almost. Give me a minute.'], ['Alice', 'Fine.']]);
      const [alice, bob, alice2] = g.lines.map((l: any) => l.voice.id);
      tt.not(alice, bob);
      tt.is(alice, alice2);
      const voices = (await app.api('GET', '/voice/voices?language=en', { key: u.key })).body.data.map((v: any) => v.id);
      tt.true(voices.includes(alice) && voices.includes(bob));
      tt.is(g.characters, 14 + 25 + 5);
      tt.is(await app.formloom.storage.credits.balance(u.id), 100 - 18);

      const refused = await app.api('POST', '/voice', { key: u.key, body: { mode: 'script', script: chat, auto_convert: true } });
      tt.is(refused.status, 400);
      tt.like(refused.body.error, { code: 'BAD_REQUEST', status: 400, reason: 'speaker_without_voice', field: 'cast', speakers: ['Alice', 'Bob'] });
      const narrator = await app.api('POST', '/voice', { key: u.key, body: { mode: 'script', lines: [{ text: 'Nobody speaks me.' }] } });
      tt.like(narrator.body.error, { reason: 'speaker_without_voice', field: 'voice' });
      tt.is(await app.formloom.storage.credits.balance(u.id), 82);
    });

    t('partial: a failing line is left out and its share credited back automatically', async (tt, app) => {
      const u = await voiceUser(app, { credits: 100 });
      const lines = [
        { speaker: 'Anna', voice: US, text: 'Hello there.' }, // 12
        { pause_ms: 300 },
        { speaker: 'Robot', voice: BROKEN, text: 'This line breaks.' }, // 17, fails after its first chunk
        { speaker: 'Ghost', voice: DEAD, text: 'Boo.' }, // 4, fails before any audio
        { speaker: 'Ben', voice: GB, text: 'Goodbye now.' }, // 12
      ];
      const res = await app.api('POST', '/voice', { key: u.key, body: { mode: 'script', lines, format: 'wav' } });
      tt.is(res.status, 200, res.text);
      const g = res.body.data;
      // estimated: 45 characters -> 18 credits; made: 24 characters -> 9.6 -> 10 credits; 8 credited back
      tt.is(g.status, 'partial');
      tt.deepEqual(g.credits, { estimated: 18, charged: 10, remaining: 90 });
      tt.is(g.characters, 24);
      tt.is(res.headers.get('service-credits-estimated'), '18');
      tt.is(res.headers.get('service-credits-charged'), '10');
      tt.is(res.headers.get('service-credits-remaining'), '90');
      tt.deepEqual(g.lines.map((l: any) => [l.status, l.credits]), [['ready', 4.8], ['ready', 0], ['failed', 0], ['failed', 0], ['ready', 4.8]]);
      const [, pause, robot, ghost, ben] = g.lines;
      tt.is(robot.start_ms, pause.end_ms);
      tt.is(robot.end_ms, robot.start_ms, 'a failed line takes no time');
      tt.is(ghost.start_ms, pause.end_ms);
      tt.is(ben.start_ms, pause.end_ms);
      tt.true(ben.end_ms > ben.start_ms);
      tt.is(await app.formloom.storage.credits.balance(u.id), 90);
      const entries = await app.formloom.storage.credits.entries(u.id);
      tt.deepEqual(entries.map((e) => [e.kind, e.amount, e.generation_id]), [['purchase', 100, null], ['spend', -18, g.id], ['credit_back', 8, g.id]]);
      const audio = await download(app, g.audio.url, u.key);
      tt.is(audio.status, 200);
      tt.true(Math.abs((await probe(audio.bytes)).duration - g.audio.duration_seconds) < 0.25);
      const pcm = (await download(app, `/api/v1/voice/generations/${g.id}/audio?format=pcm_24k`, u.key)).bytes;
      tt.true(Math.abs(pcm.length / 48 - ben.end_ms) < 50, 'the audio holds only the lines that were made');
    });

    t('every line fails: an error, nothing charged, the generation saved as failed', async (tt, app) => {
      const u = await voiceUser(app, { credits: 50 });
      const res = await app.api('POST', '/voice', { key: u.key, body: { mode: 'script', format: 'wav', lines: [{ voice: DEAD, text: 'No.' }, { pause_ms: 200 }, { voice: BROKEN, text: 'Nope.' }] } });
      tt.is(res.status, 500);
      tt.like(res.body.error, { code: 'INTERNAL_ERROR', status: 500, reason: 'generation_failed' });
      tt.is(res.headers.get('service-credits-charged'), '0');
      tt.is(res.headers.get('service-credits-estimated'), '4');
      tt.is(res.headers.get('service-credits-remaining'), '50');
      tt.is(await app.formloom.storage.credits.balance(u.id), 50);
      tt.deepEqual((await app.formloom.storage.credits.entries(u.id)).map((e) => [e.kind, e.amount]), [['purchase', 50], ['spend', -4], ['credit_back', 4]]);
      const g = (await app.api('GET', `/voice/generations/${res.body.error.generation_id}`, { key: u.key })).body.data;
      tt.like(g, { status: 'failed', mode: 'script', audio: null, credits: { estimated: 4, charged: 0, remaining: 50 } });
      tt.deepEqual(g.lines.map((l: any) => [l.status, l.credits]), [['failed', 0], ['failed', 0], ['failed', 0]]);
    });
  });
}
