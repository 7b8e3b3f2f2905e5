import test from 'ava';
import type { PcmChunk } from '@formloom/core';
import { sameBytes, waitFor } from '@formloom/core/testing';
import { AUDIO_FORMATS, AUDIO_QUALITIES, AudioEncoderCrashedError, createAudioCodecs, createIsolatedAudioCodecs } from '../src';

/*
 * The codecs in child processes (`createIsolatedAudioCodecs`): the same bytes as in this process, a child's
 * death fails only the streams it was encoding (and is logged), and idle children exit.
 */

const RATE = 22_050;
function tone(seconds: number): PcmChunk[] {
  const chunks: PcmChunk[] = [];
  for (let s = 0; s < seconds; s++) {
    const samples = new Int16Array(RATE);
    for (let i = 0; i < samples.length; i++) samples[i] = Math.round(8000 * Math.sin((2 * Math.PI * 440 * (s * RATE + i)) / RATE));
    chunks.push({ samples, sampleRate: RATE, channels: 1 });
  }
  return chunks;
}

function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** A PCM source that yields one chunk, then waits for `release()` before the rest. */
function gated(chunks: PcmChunk[]) {
  let release!: () => void;
  const opened = new Promise<void>((resolve) => (release = resolve));
  let first!: () => void;
  const started = new Promise<void>((resolve) => (first = resolve));
  async function* source() {
    yield chunks[0]!;
    first();
    await opened;
    yield* chunks.slice(1);
  }
  return { source: source(), started, release };
}

test('every format and quality: the same bytes as the codecs in this process', async (t) => {
  const isolated = createIsolatedAudioCodecs({ processes: 1 });
  t.teardown(() => isolated.close());
  const local = createAudioCodecs();
  const pcm = tone(1);
  for (const format of AUDIO_FORMATS) {
    for (const quality of AUDIO_QUALITIES) {
      const a = await isolated.encodeToBuffer(pcm, { format, quality });
      const b = await local.encodeToBuffer(pcm, { format, quality });
      // An Ogg stream's serial number is random: for ogg_opus, the same length.
      if (format === 'ogg_opus') t.is(a.bytes.length, b.bytes.length, `${format} ${quality}`);
      else sameBytes(t, a.bytes, b.bytes, `${format} ${quality}`);
      t.is(a.durationMs, b.durationMs);
      t.deepEqual(a.spec, b.spec);
    }
  }
  t.throws(() => isolated.outputSpec({ format: 'flac' }), { instanceOf: RangeError });
});

test('a killed encoder process fails only its streams, is logged, and the next stream starts a new one', async (t) => {
  const logged: Array<Record<string, unknown>> = [];
  const codecs = createIsolatedAudioCodecs({ processes: 2, logger: { error: (details) => logged.push(details) } });
  t.teardown(() => codecs.close());
  const doomed = gated(tone(3));
  const survivor = gated(tone(3));
  const doomedBytes = (async () => {
    for await (const _ of codecs.encode(doomed.source, { format: 'mp3' })) void _;
  })();
  const survivorBytes = codecs.encodeToBuffer(survivor.source, { format: 'ogg_opus' });
  await Promise.all([doomed.started, survivor.started]);
  const children = codecs.stats().children;
  t.is(children.length, 2, 'two streams, two processes');
  // Each stream has its own process; the first opened went to the first.
  const victim = children[0]!.pid;
  process.kill(victim, 'SIGKILL');
  await waitFor(() => codecs.stats().crashes === 1, { what: 'the death to be seen' });
  doomed.release();
  survivor.release();
  const error = await t.throwsAsync(doomedBytes);
  t.true(error instanceof AudioEncoderCrashedError, String(error));
  t.regex(error!.message, /signal SIGKILL/);
  t.is((await survivorBytes).durationMs, 3000, 'the other stream is untouched');
  t.like(logged, [{ encoder: 'audio', pid: victim, exit: 'signal SIGKILL', streams: 1 }]);
  t.is((await codecs.encodeToBuffer(tone(1), { format: 'mp3' })).durationMs, 1000);
  t.false(codecs.stats().children.some((c) => c.pid === victim));
});

test('idle encoder processes exit; the next stream starts one again', async (t) => {
  const codecs = createIsolatedAudioCodecs({ processes: 2, idleMs: 100 });
  t.teardown(() => codecs.close());
  await Promise.all([codecs.encodeToBuffer(tone(1), { format: 'mp3' }), codecs.encodeToBuffer(tone(1), { format: 'wav' })]);
  const pids = codecs.stats().children.map((c) => c.pid);
  t.true(pids.length >= 1);
  await waitFor(() => codecs.stats().children.length === 0, { what: 'the idle processes to leave the pool' });
  await waitFor(() => pids.every(gone), { what: 'their processes to exit' });
  t.is((await codecs.encodeToBuffer(tone(1), { format: 'ogg_opus' })).durationMs, 1000);
  t.is(codecs.stats().crashes, 0, 'an idle exit is not a crash');
});
