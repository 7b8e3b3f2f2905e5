import test from '../helpers/bounded-test';
import { oneAtATime } from './part-helpers';
import { createIsolatedAudioCodecs } from '@formloom/audio';
import { voiceIdOf, type AudioEncoding, type SpeechEngine } from '@formloom/core';
import { waitFor } from '@formloom/core/testing';
import { createEspeakEngine } from '@formloom/speech-espeak';
import { forEachDb, type TestApp } from '../helpers/app';
import { probe, voiceUser } from '../helpers/voice';

/*
 * eSpeak NG and the WebAssembly encoders run in child processes (docs/voice.md, "Speech engines"), so their
 * crash is one failed generation, not a dead server (issue: a SIGSEGV in the server after an Afrikaans MP3
 * "phone" stream). Each test kills a process (SIGKILL, found through the pools' `stats()`) in the middle
 * of a stream and checks: the stream fails cleanly, the credits come back, the death is logged, the server
 * answers, the next stream works. Idle processes exit: their memory goes back to the system.
 */

const AFRIKAANS = voiceIdOf('espeak', 'af');
const TEXT = 'Goeie môre, hoe gaan dit met jou? Dit is die tweede sin, waar die enjin sterf.';
const STUCK_MS = 60_000;

const logged: Array<{ details: Record<string, unknown>; message: string }> = [];
const logger = { error: (details: Record<string, unknown>, message: string) => void logged.push({ details, message }) };

/** The next request's sentence `sentence` stalls in its eSpeak child; `hit` runs when it is sent there. */
let stall: { sentence: number; hit: () => void } | null = null;
/*
 * Two sets of pools. The crash tests use pools whose processes stay up between requests (the default 30 s idle):
 * on a busy machine a 500 ms idle made each request start a new eSpeak (24 MB of voice data, about a CPU-second)
 * and encoder process. The idle test uses pools whose processes exit after 2 s (long enough to serve its requests
 * one after the other without a restart). `use()` picks the set the app's engine and encoding go to.
 */
const kept = {
  espeak: createEspeakEngine({
    processes: 1,
    logger,
    testing: {
      stallMs: ({ index }) => {
        if (!stall || stall.sentence !== index) return 0;
        stall.hit();
        stall = null;
        return STUCK_MS;
      },
    },
  }),
  codecs: createIsolatedAudioCodecs({ processes: 1, logger }),
};
const idle = { espeak: createEspeakEngine({ processes: 1, idleMs: 2_000, logger }), codecs: createIsolatedAudioCodecs({ processes: 1, idleMs: 2_000, logger }) };
let espeak = kept.espeak;
let codecs = kept.codecs;
const use = (pools: typeof kept) => ({ espeak, codecs } = pools);
test.after.always(() => Promise.all([kept, idle].flatMap((p) => [p.espeak.close(), p.codecs.close()])));

const audio: AudioEncoding = {
  outputSpec: (options) => codecs.outputSpec(options),
  encode: (source, options) => codecs.encode(source, options),
  encodeToBuffer: (source, options) => codecs.encodeToBuffer(source, options),
};

/** While set, the next request waits after its first chunk until `release()` (PCM made, not yet encoded). */
let gate: { reached: () => void; opened: Promise<void> } | null = null;
const engine: SpeechEngine = {
  id: kept.espeak.id,
  voices: () => espeak.voices(),
  synthesize: (request) => ({
    async *[Symbol.asyncIterator]() {
      const held = gate;
      gate = null;
      let first = true;
      for await (const chunk of espeak.synthesize(request)) {
        yield chunk;
        if (first && held) {
          held.reached();
          await held.opened;
        }
        first = false;
      }
    },
  }),
};

function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

const stream = (app: TestApp, key: string, body: Record<string, unknown>) =>
  fetch(`${app.url}/api/v1/voice/stream`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ voice: AFRIKAANS, text: TEXT, format: 'mp3', quality: 'phone', ...body }),
  });

/** Reads the whole body: the bytes, and whether it was cut short. */
async function read(res: Response): Promise<{ bytes: Uint8Array; cut: boolean }> {
  const pieces: Uint8Array[] = [];
  let cut = false;
  try {
    for await (const piece of res.body as unknown as AsyncIterable<Uint8Array>) pieces.push(piece);
  } catch {
    cut = true;
  }
  return { bytes: Buffer.concat(pieces), cut };
}

/** The generation once it has left `rendering`. */
function settled(app: TestApp, key: string, id: string) {
  return waitFor(
    async () => {
      const g = (await app.api('GET', `/voice/generations/${id}`, { key })).body.data;
      return g.status !== 'rendering' && g;
    },
    { what: 'the generation to end' },
  );
}

/** A stream that failed part-way: cut, marked failed, credited back; the server answers and streams again. */
async function assertFailedAndRecovered(tt: import('ava').ExecutionContext, app: TestApp, user: { id: string; key: string }, res: Response) {
  tt.is(res.status, 200);
  const id = res.headers.get('service-generation-id')!;
  const { bytes, cut } = await read(res);
  tt.true(cut, 'the client sees an incomplete body');
  tt.true(bytes.length > 0, 'the first sentence arrived');
  tt.like(await settled(app, user.key, id), { status: 'failed', credits: { charged: 0 } });
  tt.is(await app.formloom.storage.credits.balance(user.id), 500, 'credited back');
  const next = await stream(app, user.key, { text: 'Nog steeds hier. En dit werk.' });
  tt.is(next.status, 200);
  const audio = await read(next);
  tt.false(audio.cut);
  tt.like(await probe(audio.bytes), { codec: 'mp3', sampleRate: 8000 });
}

/*
 * The idle test runs on the first database's app only (SQLite): the pools' idle exit involves no database, and
 * its fresh eSpeak and encoder processes cost about 1.2 CPU-seconds each (docs/testing.md, "What it costs").
 */
let idleTestRegistered = false;

forEachDb(
  oneAtATime(),
  (t) => {
    t('the eSpeak process killed mid-stream: that stream fails, credits back, logged; the next one works', async (tt, app) => {
      use(kept);
      const user = await voiceUser(app, { credits: 500 });
      const crashes = espeak.stats().crashes;
      logged.length = 0;
      const hit = new Promise<void>((resolve) => (stall = { sentence: 1, hit: resolve }));
      const res = await stream(app, user.key, {});
      await hit;
      const busy = await waitFor(() => espeak.stats().children.find((c) => c.state === 'busy'), { what: 'the busy eSpeak child' });
      process.kill(busy.pid, 'SIGKILL');
      await assertFailedAndRecovered(tt, app, user, res);
      tt.is(espeak.stats().crashes, crashes + 1);
      tt.like(logged[0]?.details, { engine: 'espeak', pid: busy.pid, exit: 'signal SIGKILL' });
      tt.false(espeak.stats().children.some((c) => c.pid === busy.pid));
    });

    t('the encoder process killed mid-stream: that stream fails, credits back, logged; the next one works', async (tt, app) => {
      use(kept);
      const user = await voiceUser(app, { credits: 500 });
      logged.length = 0;
      let release!: () => void;
      const reached = new Promise<void>((resolve) => {
        gate = { reached: resolve, opened: new Promise<void>((open) => (release = open)) };
      });
      const res = await stream(app, user.key, {});
      await reached;
      const encoder = await waitFor(() => codecs.stats().children.find((c) => c.streams > 0), { what: "the stream's encoder process" });
      process.kill(encoder.pid, 'SIGKILL');
      await waitFor(() => logged.length > 0, { what: 'the death to be logged' });
      release();
      await assertFailedAndRecovered(tt, app, user, res);
      tt.like(logged[0]?.details, { encoder: 'audio', pid: encoder.pid, exit: 'signal SIGKILL', streams: 1 });
    });

    if (!idleTestRegistered) t('after streams in every stream format and an ogg_opus generation, idle eSpeak and encoder processes exit', async (tt, app) => {
      use(idle);
      const user = await voiceUser(app, { credits: 500 });
      const pids = new Set<number>();
      const watch = setInterval(() => {
        for (const c of [...espeak.stats().children, ...codecs.stats().children]) pids.add(c.pid);
      }, 5);
      for (const [format, quality] of [['mp3', 'studio'], ['pcm_24k', 'standard'], ['mulaw_8k', 'phone']]) {
        const res = await stream(app, user.key, { text: 'Een. Twee.', format, quality });
        tt.is(res.status, 200, format);
        tt.false((await read(res)).cut, format);
      }
      const opus = await app.api('POST', '/voice', { key: user.key, body: { mode: 'speak', voice: AFRIKAANS, text: 'Drie.', format: 'ogg_opus', reuse: false } });
      tt.is(opus.status, 200, opus.text);
      clearInterval(watch);
      tt.true(pids.size >= 2, 'an eSpeak and an encoder process were running');
      await waitFor(() => espeak.stats().children.length === 0 && codecs.stats().children.length === 0, { what: 'the pools to empty' });
      await waitFor(() => [...pids].every(gone), { what: 'every child process to exit' });
      tt.pass();
    });
    idleTestRegistered = true;
  },
  { speechEngines: [engine], audio, config: { voice: { syncBudgetMs: 600_000 } } },
);
