import { voiceIdOf } from '@formloom/core';
import type { TestApp } from '../helpers/app';
import { probe, voiceUser } from '../helpers/voice';
import { waitFor } from '@formloom/core/testing';
import type { SharedDb } from '../helpers/shared-apps';

const VOICE = voiceIdOf('espeak', 'en-us+klatt4');
const DEAD = voiceIdOf('failing', 'dead');

const post = (app: TestApp, key: string, body: object, signal?: AbortSignal) =>
  fetch(`${app.url}/api/v1/voice/stream`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  });

/** Waits (bounded) until the generation is no longer rendering: a stream saves after its last byte. */
async function settled(app: TestApp, key: string, id: string) {
  return waitFor(
    async () => {
      const g = (await app.api('GET', `/voice/generations/${id}`, { key })).body.data;
      return g.status !== 'rendering' && g;
    },
    { timeoutMs: 120_000, intervalMs: 250, what: `generation ${id} to finish rendering` },
  );
}

/** voice.test.ts registers these on the voice apps its parts share (`sharedVoiceApps`, helpers/voice.ts). */
export function register(db: SharedDb): void {
  db((t) => {
    t('stream: chunked audio with the documented headers, saved in the library and charged once', async (tt, app) => {
      const u = await voiceUser(app, { credits: 100 });
      const res = await post(app, u.key, { voice: VOICE, text: 'First sentence. Second one.', format: 'ulaw_8000' });
      tt.is(res.status, 200);
      tt.is(res.headers.get('content-type'), 'application/octet-stream');
      tt.is(res.headers.get('transfer-encoding'), 'chunked');
      tt.is(res.headers.get('x-accel-buffering'), 'no');
      tt.is(res.headers.get('service-audio-format'), 'mulaw_8k');
      tt.is(res.headers.get('service-audio-encoding'), 'pcm_mulaw');
      tt.is(res.headers.get('service-audio-sample-rate'), '8000');
      tt.is(res.headers.get('service-audio-channels'), '1');
      tt.is(res.headers.get('service-credits-charged'), '11');
      tt.is(res.headers.get('service-credits-remaining'), '89');
      const id = res.headers.get('service-generation-id')!;
      const bytes = new Uint8Array(await res.arrayBuffer());
      const info = await probe(bytes, { format: 'mulaw', rate: 8000 });
      tt.is(info.codec, 'pcm_mulaw');
      tt.true(info.duration > 0.5);
      const g = await settled(app, u.key, id);
      tt.like(g, { status: 'ready', source: 'api', credits: { charged: 11 } });
      tt.is(await app.formloom.storage.credits.balance(u.id), 89);
    });

    t('stream: refusals (413 TEXT_TOO_LONG, 400 not_on_stream) and failure before the first byte charge nothing', async (tt, app) => {
      const u = await voiceUser(app, { credits: 5000 });
      const long = await post(app, u.key, { voice: VOICE, text: 'a'.repeat(3101) });
      tt.is(long.status, 413);
      const body = (await long.json()) as any;
      tt.is(body.error.code, 'TEXT_TOO_LONG');
      tt.is(body.error.max_characters, 3100);
      for (const extra of [{ speed: 1 }, { retake_of: 'gen_x' }, { reuse: false }, { script: '[A] hi' }]) {
        const r = await post(app, u.key, { voice: VOICE, text: 'Hi.', ...extra });
        tt.is(r.status, 400);
        tt.is(((await r.json()) as any).error.reason, 'not_on_stream');
      }
      const dead = await post(app, u.key, { voice: DEAD, text: 'Nothing comes out.', format: 'pcm_24k' }); // no MP3 encoder (a LAME worker) for nothing
      tt.is(dead.status, 500);
      tt.is(dead.headers.get('service-credits-charged'), '0');
      const id = ((await dead.json()) as any).error.generation_id;
      tt.is((await app.api('GET', `/voice/generations/${id}`, { key: u.key })).body.data.status, 'failed');
      tt.is(await app.formloom.storage.credits.balance(u.id), 5000);
    });

    t('stream: a client that disconnects does not stop the generation (finished, saved, charged)', async (tt, app) => {
      const u = await voiceUser(app, { credits: 100 });
      const abort = new AbortController();
      const res = await post(app, u.key, { voice: VOICE, text: 'One. Two. Three. Four. Five. Six.' }, abort.signal);
      tt.is(res.status, 200);
      const id = res.headers.get('service-generation-id')!;
      const reader = res.body!.getReader();
      await reader.read(); // the first audio
      abort.abort();
      const g = await settled(app, u.key, id);
      tt.is(g.status, 'ready');
      tt.is(g.credits.charged, 14); // 33 spoken characters
      const audio = await fetch(`${app.url}${g.audio.url}`, { headers: { authorization: `Bearer ${u.key}`, connection: 'close' } });
      const info = await probe(new Uint8Array(await audio.arrayBuffer()));
      tt.is(info.codec, 'mp3');
      tt.true(info.duration > 1);
      tt.is(await app.formloom.storage.credits.balance(u.id), 86);
    });
  });
}
