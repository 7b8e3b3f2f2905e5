/**
 * The streaming contract: bytes come out while the source is still speaking, the source is read only as
 * fast as the consumer pulls, stopping early closes everything, an empty input gives a valid (silent)
 * file, bad input is refused clearly, and a long stream does not accumulate memory.
 */
import type { PcmChunk } from '@formloom/core';
import test from 'ava';
import { AUDIO_FORMATS, type AudioFormat, createAudioCodecs } from '../src';
import { decode, probe, tones } from './helpers/audio';

const RATE = 22_050;
const codecs = createAudioCodecs();

/** V8's collector: ava starts every test process with `--expose-gc` (package.json, "nodeArguments"). */
function collector(): () => void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run under node --expose-gc (ava\'s nodeArguments in package.json)');
  return gc;
}

/** An engine-like source of `count` chunks of 0.1 s each, recording how far it has been read. */
function trackedSource(count: number) {
  const state = { pulled: 0, closed: false };
  const chunk = tones([440], 0.1, RATE);
  async function* source(): AsyncGenerator<PcmChunk> {
    try {
      for (let i = 0; i < count; i++) {
        state.pulled++;
        yield { samples: chunk.slice(), sampleRate: RATE, channels: 1 };
      }
    } finally {
      state.closed = true;
    }
  }
  return { state, source: source() };
}

const ticks = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

for (const format of AUDIO_FORMATS) {
  test(`${format}: bytes come out before the source ends; the source is read only as the consumer pulls`, async (t) => {
    const { state, source } = trackedSource(100);
    const pieces = codecs.encode(source, { format });
    const first = await pieces.next();
    t.false(first.done);
    t.true(first.value!.length > 0);
    const pulledAtFirst = state.pulled;
    t.true(pulledAtFirst < 100, `read ${pulledAtFirst} of 100 chunks before the first bytes`);
    await ticks(20);
    t.is(state.pulled, pulledAtFirst, 'the source was not read ahead of the consumer');
    await pieces.return();
    t.true(state.closed);
  });
}

for (const format of ['mp3', 'ogg_opus', 'wav'] as const) {
  test(`${format}: aborting the signal stops the stream and closes the source`, async (t) => {
    const { state, source } = trackedSource(100);
    const controller = new AbortController();
    const pieces = codecs.encode(source, { format, signal: controller.signal });
    await pieces.next();
    controller.abort(new Error('client went away'));
    await t.throwsAsync(
      async () => {
        for await (const _ of pieces) void _;
      },
      { message: 'client went away' }
    );
    t.true(state.closed);
  });
}

const EMPTY_EXPECTED: Record<AudioFormat, string> = {
  mp3: 'a few MP3 frames of silence',
  wav: 'a 44-byte header with no samples',
  ogg_opus: 'an Ogg Opus file that decodes to no samples',
  mulaw_8k: 'zero bytes',
  pcm_24k: 'zero bytes',
};

for (const format of AUDIO_FORMATS) {
  test(`${format}: an empty input gives ${EMPTY_EXPECTED[format]}`, async (t) => {
    const encoded = await codecs.encodeToBuffer([], { format });
    t.is(encoded.durationMs, 0);
    if (format === 'mulaw_8k' || format === 'pcm_24k') {
      t.is(encoded.bytes.length, 0);
      return;
    }
    const info = await probe(encoded.bytes, format);
    t.is(info.channels, 1);
    const pcm = await decode(encoded.bytes, format);
    if (format === 'wav') {
      t.is(encoded.bytes.length, 44);
      t.is(pcm.length, 0);
    } else if (format === 'ogg_opus') {
      t.is(info.codec, 'opus');
      t.is(pcm.length, 0);
    } else {
      t.is(info.codec, 'mp3');
      t.true(pcm.length > 0 && pcm.length / info.sampleRate <= 0.25, `${pcm.length} samples`);
      t.true(pcm.every((s) => Math.abs(s) < 8));
    }
  });
}

test('bad input is refused with a clear error and the encoder is freed', async (t) => {
  t.throws(() => codecs.createEncoder({ format: 'flac' }), {
    instanceOf: RangeError,
    message: /unknown audio format: flac/,
  });
  t.throws(() => codecs.createEncoder({ format: 'mp3', quality: 'hifi' }), {
    instanceOf: RangeError,
    message: /unknown audio quality: hifi/,
  });

  const encoder = codecs.createEncoder({ format: 'wav' });
  await encoder.write({ samples: new Int16Array(100), sampleRate: RATE, channels: 1 });
  await t.throwsAsync(encoder.write({ samples: new Int16Array(100), sampleRate: 500, channels: 1 }), {
    instanceOf: RangeError,
    message: /sample rate must be an integer from 1000/,
  });
  await t.throwsAsync(encoder.finish(), { message: /aborted/ });

  const odd = codecs.createEncoder({ format: 'mp3' });
  await t.throwsAsync(odd.write({ samples: new Int16Array(3), sampleRate: RATE, channels: 2 }), {
    message: /multiple of its channel count/,
  });
  const bad = codecs.createEncoder({ format: 'pcm_24k' });
  await t.throwsAsync(bad.write({ samples: [1, 2] as unknown as Int16Array, sampleRate: RATE, channels: 1 }), {
    instanceOf: TypeError,
  });

  const done = codecs.createEncoder({ format: 'pcm_24k' });
  await done.finish();
  await t.throwsAsync(done.write({ samples: new Int16Array(10), sampleRate: RATE, channels: 1 }), {
    message: /finished/,
  });
});

for (const format of ['ogg_opus', 'mp3'] as const) {
  test(`${format}: abort during a write lets that write complete, then refuses more`, async (t) => {
    const encoder = codecs.createEncoder({ format });
    const running = encoder.write({ samples: tones([440], 1, RATE), sampleRate: RATE, channels: 1 });
    await new Promise((resolve) => setImmediate(resolve)); // the write has started (loading its codec)
    encoder.abort();
    const bytes = await running;
    t.true(bytes instanceof Uint8Array);
    await t.throwsAsync(encoder.write({ samples: new Int16Array(10), sampleRate: RATE, channels: 1 }), {
      message: /aborted/,
    });
    await t.throwsAsync(encoder.finish(), { message: /aborted/ });
    t.is(encoder.finalHeader(), undefined);
  });
}

// The two memory tests run alone (serial tests run before the others, one at a time): the process's heap is one for
// all of the file's tests, and another test's allocations during a reading once made 2.8 MB of "growth" (CI).
test.serial('encoding a long stream keeps memory bounded (output is handed out, not kept)', async (t) => {
  const gc = collector();
  const used = () => {
    gc();
    gc(); // a second pass collects what the first one's finalizers released
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  const second = tones([440, 1_000], 1, RATE);
  async function* minutes(n: number): AsyncGenerator<PcmChunk> {
    for (let s = 0; s < n * 60; s++) {
      for (let at = 0; at < second.length; at += 2_205)
        yield { samples: second.slice(at, at + 2_205), sampleRate: RATE, channels: 1 };
    }
  }
  // wav at studio writes the most bytes (5.8 MB a minute); mp3 and ogg_opus run their wasm codecs. `npm test`
  // encodes 3, 1 and 1 minutes (kept, either the wav's output or any format's input exceeds the bound); the
  // long budget (`npm run test:deep`, docs/testing.md) 8, 2 and 2.
  const deep = process.env.FORMLOOM_TEST_DEEP === '1';
  for (const [format, quality, count] of [
    ['wav', 'studio', deep ? 8 : 3],
    ['mp3', 'standard', deep ? 2 : 1],
    ['ogg_opus', 'standard', deep ? 2 : 1],
  ] as const) {
    await codecs.encodeToBuffer(minutes(0.25), { format, quality }); // warm up: wasm, worker, JIT
    const before = used();
    let bytes = 0;
    for await (const piece of codecs.encode(minutes(count), { format, quality })) bytes += piece.length;
    const growth = used() - before;
    t.log(`${format}: ${(bytes / 1e6).toFixed(1)} MB encoded, memory grew ${(growth / 1e6).toFixed(1)} MB`);
    t.true(bytes > count * 150_000, `${format}: ${bytes} bytes`); // the least of them, ogg_opus, makes about 250 kB a minute
    // Keeping either the output or the input (2 bytes a sample at 22,050 Hz) would exceed this bound.
    const inputBytes = count * 60 * RATE * 2;
    t.true(growth < Math.min(16e6, inputBytes * 0.75), `${format} grew by ${growth} bytes`);
  }
});

test.serial('many short encodes free their wasm codecs and resamplers', async (t) => {
  const gc = collector();
  const used = () => {
    gc();
    const m = process.memoryUsage();
    // wasm memories are external buffers: a codec state never freed would grow them.
    return m.external + m.heapUsed;
  };
  const clip = tones([440], 0.1, RATE);
  const once = () =>
    codecs.encodeToBuffer([{ samples: clip, sampleRate: RATE, channels: 1 }], { format: 'ogg_opus', quality: 'phone' });
  for (let i = 0; i < 20; i++) await once(); // wasm memory grows to its working size
  const before = used();
  for (let i = 0; i < 600; i++) await once();
  const growth = used() - before;
  t.log(`600 encoders: memory grew ${(growth / 1e6).toFixed(2)} MB`);
  // Each encoder holds ~40 kB of libopus state and two Speex resamplers: 300 never freed measured ~12 MB, so
  // 600 would be ~24 MB; the heap's own drift between two readings reaches ±4 MB.
  t.true(growth < 10e6, `grew by ${growth} bytes`);
});

test('mp3: each write hands out the frames of its own samples, not the previous write\'s', async (t) => {
  // A stream sends a sentence's audio as soon as it is made (docs/voice.md, "Streaming"): the MP3 encoder
  // runs LAME in a worker, and a write must wait for the frames of the samples it was given.
  const encoder = codecs.createEncoder({ format: 'mp3', quality: 'standard' }); // 24 kHz, 64 kbit/s: 576 samples, 192 bytes a frame
  try {
    const chunk = { samples: tones([440], 1, 24_000), sampleRate: 24_000, channels: 1 };
    const first = await encoder.write(chunk);
    // 1 s is 41.7 frames; LAME holds back its delay (1,105 samples) and a frame of look-ahead: at least 38 out.
    t.true(first.length >= 38 * 192, `first write gave ${first.length} bytes`);
    const next = await encoder.write({ ...chunk, samples: chunk.samples.slice() });
    t.true(next.length >= 40 * 192, `second write gave ${next.length} bytes`);
  } finally {
    encoder.abort();
  }
});
