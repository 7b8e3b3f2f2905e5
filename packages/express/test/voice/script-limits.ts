import test from '../helpers/bounded-test';
import { voiceIdOf } from '@formloom/core';
import { forEachDb } from '../helpers/app';
import { probe, download, toneEngine, toneVoiceAppOptions, voiceUser } from '../helpers/voice';

// The limits, the billing and the timing of lines do not depend on what the audio says: the tone engine
// (docs/testing.md, "Writing a test"), alone, so that auto_cast picks among its voices only. Nor on the
// format: the scripts made are WAV (each MP3 starts LAME in a worker thread, about 0.2 CPU-seconds).
const US = voiceIdOf('tone', 'en-us');
const GB = voiceIdOf('tone', 'en-gb');

forEachDb(
  test,
  (t) => {
    t('script refusals are clear 400/402/409 answers and charge nothing', async (tt, app) => {
      const u = await voiceUser(app, { credits: 10 });
      const script = (body: object, key = u.key) => app.api('POST', '/voice', { key, body: { mode: 'script', ...body } });
      const line = (text: string, voice = US) => ({ voice, text });

      const long = await script({ lines: [line('a'.repeat(2500)), { pause_ms: 100 }, line('b'.repeat(2501))] });
      tt.is(long.status, 400);
      tt.like(long.body.error, { code: 'BAD_REQUEST', status: 400, field: 'lines', reason: 'too_many_characters', max_characters: 5000 });
      const tooMany = await script({ lines: Array.from({ length: 10_001 }, () => ({ pause_ms: 0 })) });
      tt.is(tooMany.status, 400);
      tt.is(tooMany.body.error.field, 'lines');
      tt.is((await script({ lines: [line('Hi.')], speed: 1.2 })).body.error.field, 'speed');
      tt.like((await script({ lines: [line('Hi.', 'nv_nope')] })).body.error, { reason: 'voice_not_found', field: 'lines.0.voice' });
      tt.like((await script({ script: '[A] Hi.', cast: [{ speaker: 'A', voice: 'nv_nope' }] })).body.error, { reason: 'voice_not_found', field: 'cast.0.voice' });
      tt.like((await script({ lines: [line('Hi.'), { pause_ms: -5 }] })).body.error, { field: 'lines.1.pause_ms' });
      tt.like((await script({ lines: [line('Hi.')], script: 'Hi.' })).body.error, { field: 'script' });
      tt.like((await script({ lines: [line('Hi.')], text: 'Hi.' })).body.error, { field: 'text' });
      tt.like((await script({ lines: 'Hi.' })).body.error, { field: 'lines' });
      tt.like((await script({})).body.error, { field: 'lines' });
      tt.like((await app.api('POST', '/voice', { key: u.key, body: { mode: 'speak', voice: US, text: 'Hi.', lines: [] } })).body.error, { reason: 'script_only', field: 'lines' });

      const malformed: object[] = [
        { lines: [null] }, { lines: [[]] }, { lines: [{ text: 5 }] }, { lines: [{ text: 'x', voice: 7 }] }, { lines: [{ pause_ms: '1' }] },
        { lines: [{ pause_ms: null }] }, { lines: [{}] }, { script: 5 }, { script: '' }, { script: '(pause 1s)' }, { script: 'Hi.', cast: 'A' },
        { script: '[A] Hi.', cast: [null] }, { script: '[A] Hi.', cast: [{ speaker: 'A', voice: US }, { speaker: 'a', voice: GB }] },
        { script: '[A] Hi.', auto_cast: true, language: 'xx-nowhere' }, { script: '[A] Hi.', auto_convert: 'yes' }, { lines: [line('Hi.')], retake_of: 'gen_x' },
        { lines: [{ text: 'x', speaker: 'S'.repeat(65), voice: US }] },
      ];
      for (const body of malformed) {
        const res = await script(body);
        tt.is(res.status, 400, JSON.stringify(body));
        tt.is(res.body.error.code, 'BAD_REQUEST');
      }

      const over = await script({ lines: [line('Hello there, friend.')], max_credits: 7 });
      tt.is(over.status, 409);
      tt.like(over.body.error, { code: 'CONFLICT', reason: 'max_credits_exceeded' });
      tt.is(over.headers.get('service-credits-estimated'), '8');
      tt.is(over.headers.get('service-credits-charged'), '0');
      const poor = await script({ lines: [line('x'.repeat(26))] }); // 11 credits > 10
      tt.is(poor.status, 402);
      tt.is(poor.body.error.code, 'INSUFFICIENT_CREDITS');
      const neverBought = await voiceUser(app);
      tt.is((await script({ lines: [line('Hi.')] }, neverBought.key)).body.error.reason, 'voice_not_enabled');
      tt.is(await app.formloom.storage.credits.balance(u.id), 10);
      tt.deepEqual((await app.formloom.storage.credits.entries(u.id)).map((e) => e.kind), ['purchase']);
      tt.is((await app.api('GET', '/voice/generations', { key: u.key })).body.meta.total, 0);
    });

    t('10,000 lines: the largest script is taken, timed and billed', async (tt, app) => {
      const u = await voiceUser(app, { credits: 100 });
      const lines = Array.from({ length: 10_000 }, (_, i) => (i % 100 === 0 ? { voice: i % 200 ? GB : US, text: 'Go.' } : { pause_ms: 1 }));
      const est = await app.api('POST', '/voice', { key: u.key, body: { mode: 'estimate', lines } });
      tt.like(est.body.data, { characters: 300, credits: 120 });
      const res = await app.api('POST', '/voice', { key: u.key, body: { mode: 'script', lines, format: 'wav' } });
      tt.is(res.status, 402, 'first without enough credits');
      await app.formloom.accounts.purchaseCredits(u.id, 100);
      const made = await app.api('POST', '/voice', { key: u.key, body: { mode: 'script', lines, format: 'wav' } });
      tt.is(made.status, 200, made.text.slice(0, 300));
      const g = made.body.data;
      tt.is(g.lines.length, 10_000);
      tt.is(g.credits.charged, 120);
      for (let i = 1; i < g.lines.length; i++) {
        if (g.lines[i].start_ms !== g.lines[i - 1].end_ms) return tt.fail(`line ${i} starts at ${g.lines[i].start_ms}, the previous ended at ${g.lines[i - 1].end_ms}`);
      }
      const info = await probe((await download(app, g.audio.url, u.key)).bytes);
      tt.true(Math.abs(info.duration - g.audio.duration_seconds) < 0.05);
      tt.true(Math.abs(g.lines[9999].end_ms / 1000 - g.audio.duration_seconds) < 0.05);
      tt.is(await app.formloom.storage.credits.balance(u.id), 80);
    });

    t('Idempotency-Key on scripts: one generation and one charge, replays free, another body 409', async (tt, app) => {
      const u = await voiceUser(app, { credits: 100 });
      const body = { mode: 'script', format: 'wav', lines: [{ speaker: 'A', voice: US, text: 'Once.' }, { pause_ms: 200 }, { speaker: 'B', voice: GB, text: 'Only once.' }] };
      const send = (b: object = body) => app.api('POST', '/voice', { key: u.key, body: b, headers: { 'idempotency-key': 'script-1' } });
      const first = await send();
      tt.is(first.status, 200, first.text);
      tt.is(first.headers.get('idempotent-replayed'), 'false');
      tt.is(first.headers.get('service-credits-charged'), '6');
      const replay = await send({ lines: body.lines, format: 'wav', mode: 'script' });
      tt.is(replay.status, 200);
      tt.is(replay.headers.get('idempotent-replayed'), 'true');
      tt.is(replay.headers.get('service-credits-charged'), '0');
      tt.is(replay.body.data.id, first.body.data.id);
      tt.deepEqual(replay.body.data.lines, first.body.data.lines);
      const other = await send({ ...body, lines: body.lines.slice(0, 1) });
      tt.is(other.status, 409);
      tt.like(other.body.error, { code: 'CONFLICT', reason: 'idempotency_conflict' });
      tt.is(await app.formloom.storage.credits.balance(u.id), 94);
    });

    t('daily allowances: auto_convert and auto_cast are free up to the limit, then 429; estimates and refusals do not count', async (tt, app) => {
      const u = await voiceUser(app, { credits: 100 });
      const chat = 'ANNA: Hi.\nBEN: Yo.';
      const convert = { mode: 'script', format: 'wav', script: chat, auto_convert: true, cast: [{ speaker: 'anna', voice: US }, { speaker: 'ben', voice: GB }] };
      const send = (body: object) => app.api('POST', '/voice', { key: u.key, body });
      for (let i = 0; i < 3; i++) tt.is((await send({ ...convert, mode: 'estimate' })).status, 200, 'estimates are not counted');
      tt.is((await send({ ...convert, max_credits: 1 })).status, 409, 'a refused request is not counted');
      tt.is((await send(convert)).status, 200);
      const reused = await send(convert);
      tt.like(reused.body.data, { reused: true, credits: { charged: 0 } }, 'an identical script is reused, and not counted');
      tt.is((await send({ ...convert, reuse: false })).status, 200);
      const third = await send({ ...convert, reuse: false });
      tt.is(third.status, 429);
      tt.like(third.body.error, { code: 'RATE_LIMITED', status: 429, reason: 'auto_convert_limit', field: 'auto_convert', limit: 2 });
      tt.true(Number(third.headers.get('retry-after')) > 0 && Number(third.headers.get('retry-after')) <= 86_400);
      tt.is(third.headers.get('service-credits-charged'), '0');
      tt.true(Date.parse(third.body.error.resets_at) > Date.now());
      tt.like((await send(convert)).body.data, { reused: true }, 'past the allowance, a reused script is still answered');
      tt.is((await send({ mode: 'script', format: 'wav', script: '[ANNA] Hi.\n[BEN] Yo.', cast: convert.cast, reuse: false })).status, 200, 'a script without auto_convert still works');

      // reuse: false, so that no request here is answered by reusing an identical one.
      const cast = { mode: 'script', format: 'wav', lines: [{ speaker: 'X', text: 'One.' }], auto_cast: true, reuse: false };
      tt.is((await send({ ...cast, lines: [{ speaker: 'X', voice: US, text: 'One.' }] })).status, 200, 'auto_cast that picks nothing is not counted');
      tt.is((await send(cast)).status, 200);
      tt.is((await send(cast)).status, 200);
      const castOver = await send(cast);
      tt.is(castOver.status, 429);
      tt.like(castOver.body.error, { reason: 'auto_cast_limit', limit: 2 });
      tt.is((await send({ ...cast, mode: 'estimate' })).status, 200);
      const other = await voiceUser(app, { credits: 10 });
      tt.is((await app.api('POST', '/voice', { key: other.key, body: cast })).status, 200, 'allowances are per account');
      // 2 converted (and 2 reused, free) and 1 tagged script of 6 characters (3 credits each), 3 cast lines of 4 characters (2 each)
      tt.is(await app.formloom.storage.credits.balance(u.id), 100 - 3 * 3 - 3 * 2);
    });
  },
  { ...toneVoiceAppOptions({ autoConvertPerDay: 2, autoCastPerDay: 2 }), speechEngines: [toneEngine()] },
);
