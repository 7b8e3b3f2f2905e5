import { voiceIdOf } from '@formloom/core';
import { voiceUser } from '../helpers/voice';
import type { SharedDb } from '../helpers/shared-apps';

const VOICE = voiceIdOf('tone', 'en-us');
// WAV: the format is not what these tests are about, and each MP3 starts LAME in a worker thread, about 0.2 CPU-seconds (docs/testing.md, "What it costs").

/** voice.test.ts registers these on the voice apps its parts share (`sharedVoiceApps`, helpers/voice.ts). */
export function register(db: SharedDb): void {
  db((t) => {
    t('Idempotency-Key: parallel identical requests make one generation and one charge; replays are free', async (tt, app) => {
      const u = await voiceUser(app, { credits: 100 });
      const body = { mode: 'speak', voice: VOICE, text: 'Once only.', format: 'wav' };
      const send = (b: object = body, key = 'order-42') =>
        app.api('POST', '/voice', { key: u.key, body: b, headers: { 'idempotency-key': key } });
      const results = await Promise.all(Array.from({ length: 6 }, () => send()));
      const made = results.filter((r) => r.status === 200 && r.headers.get('idempotent-replayed') === 'false');
      tt.is(made.length, 1, results.map((r) => `${r.status} ${r.text.slice(0, 80)}`).join('\n'));
      for (const r of results.filter((x) => x !== made[0])) {
        if (r.status === 409) {
          tt.is(r.body.error.reason, 'request_in_progress');
          tt.is(r.headers.get('retry-after'), '1');
          tt.is(r.headers.get('service-credits-charged'), '0');
        } else {
          tt.is(r.status, 200);
          tt.is(r.headers.get('idempotent-replayed'), 'true');
        }
      }
      const id = made[0]!.body.data.id;
      const replay = await send({ format: 'wav', voice: VOICE, text: 'Once only.', mode: 'speak' }); // same body, keys reordered
      tt.is(replay.status, 200);
      tt.is(replay.headers.get('idempotent-replayed'), 'true');
      tt.is(replay.headers.get('service-credits-charged'), '0');
      tt.is(replay.headers.get('service-generation-id'), id);
      tt.is(replay.body.data.id, id);
      tt.is(replay.body.data.credits.charged, 0, 'a replay charges nothing, and its body says so');

      const other = await send({ ...body, text: 'Something else.' });
      tt.is(other.status, 409);
      tt.is(other.body.error.reason, 'idempotency_conflict');
      tt.is(await app.formloom.storage.credits.balance(u.id), 96, 'charged 4 credits once');
      tt.is((await app.api('GET', '/voice/generations', { key: u.key })).body.meta.total, 1);
      tt.is((await send(body, 'x'.repeat(256))).status, 400);
    });

    t('Idempotency-Key: a refused request is not remembered, so it can be retried', async (tt, app) => {
      const u = await voiceUser(app, { credits: 1 });
      const send = () =>
        app.api('POST', '/voice', { key: u.key, body: { mode: 'speak', voice: VOICE, text: 'Retry me.', format: 'wav' }, headers: { 'idempotency-key': 'k1' } });
      const poor = await send();
      tt.is(poor.status, 402);
      tt.is(poor.headers.get('idempotent-replayed'), 'false');
      await app.formloom.accounts.purchaseCredits(u.id, 10);
      const ok = await send();
      tt.is(ok.status, 200);
      tt.is(ok.headers.get('service-credits-charged'), '4');
      tt.is(await app.formloom.storage.credits.balance(u.id), 7);
    });
  });
}
