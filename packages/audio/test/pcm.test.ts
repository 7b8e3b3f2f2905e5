/**
 * Sample accounting (`duration_ms`, a script line's `start_ms`/`end_ms`), pauses, G.711 values, WAV
 * headers, and a speech engine (a fake at the port boundary) driving an encoder with sentence markers.
 */
import { spawnSync } from 'node:child_process';
import type { PcmChunk, SpeechEngine, SynthesisRequest } from '@formloom/core';
import { UnknownVoiceError } from '@formloom/core';
import test from 'ava';
import { createAudioCodecs, linearToMulaw, msToSamples, SampleClock, samplesToMs, silence, wavHeader } from '../src';
import { decode, rms, tones } from './helpers/audio';

const codecs = createAudioCodecs();

test('samples and milliseconds convert both ways without drift', (t) => {
  t.is(samplesToMs(22_050, 22_050), 1000);
  t.is(samplesToMs(33_075, 22_050), 1500);
  t.is(samplesToMs(1, 8_000), 0);
  t.is(samplesToMs(4, 8_000), 1); // 0.5 ms rounds up
  t.is(msToSamples(250, 22_050), 5513);
  t.is(msToSamples(1500, 24_000), 36_000);
  // 1,000 chunks of 485 samples (10.104 ms each): summing samples stays exact where summing rounded ms
  // would lose 104 ms.
  const clock = new SampleClock();
  for (let i = 0; i < 1000; i++) clock.add({ samples: new Int16Array(485), sampleRate: 48_000, channels: 1 });
  t.is(clock.positionMs, 10_104);
});

test('SampleClock gives each chunk its start and end, counting frames of multi-channel chunks', (t) => {
  const clock = new SampleClock();
  t.deepEqual(clock.add({ samples: new Int16Array(2_205), sampleRate: 22_050, channels: 1 }), {
    startMs: 0,
    endMs: 100,
  });
  t.deepEqual(clock.add(silence(250, 22_050)), { startMs: 100, endMs: 350 });
  t.deepEqual(clock.add({ samples: new Float32Array(2 * 4_410), sampleRate: 22_050, channels: 2 }), {
    startMs: 350,
    endMs: 550,
  });
});

test('silence makes a pause of the asked length and refuses a negative one', (t) => {
  const pause = silence(2000, 16_000);
  t.is(pause.samples.length, 32_000);
  t.is(pause.channels, 1);
  t.true(pause.samples.every((s) => s === 0));
  t.is(silence(0, 16_000).samples.length, 0);
  t.throws(() => silence(-1, 16_000), { instanceOf: RangeError });
  t.throws(() => silence(Number.NaN, 16_000), { instanceOf: RangeError });
});

test('G.711 mu-law encodes the reference values', (t) => {
  // ITU-T G.711 table values (bytes as transmitted, inverted).
  t.is(linearToMulaw(0), 0xff);
  t.is(linearToMulaw(-1), 0x7f);
  t.is(linearToMulaw(32_767), 0x80);
  t.is(linearToMulaw(-32_768), 0x00);
  t.is(linearToMulaw(1_000), 0xce);
  t.is(linearToMulaw(-1_000), 0x4e);
});

test('a WAV header states the exact sizes when known and the streaming maximum otherwise', (t) => {
  const exact = Buffer.from(wavHeader(24_000, 48_000));
  t.is(exact.toString('ascii', 0, 4), 'RIFF');
  t.is(exact.readUInt32LE(4), 36 + 48_000);
  t.is(exact.readUInt32LE(24), 24_000);
  t.is(exact.readUInt32LE(40), 48_000);
  const streaming = Buffer.from(wavHeader(24_000));
  t.is(streaming.readUInt32LE(4), 0xffff_ffff);
  t.is(streaming.readUInt32LE(40), 0xffff_ffff);
});

test('a pause between two sentences is silent in the output at the position the clock reports', async (t) => {
  const rate = 22_050;
  const clock = new SampleClock();
  const chunks: PcmChunk[] = [
    { samples: tones([440], 0.5, rate), sampleRate: rate, channels: 1, marker: { kind: 'line', index: 0 } },
    silence(400, rate),
    { samples: tones([440], 0.5, rate), sampleRate: rate, channels: 1, marker: { kind: 'line', index: 1 } },
  ];
  const spans = chunks.map((chunk) => clock.add(chunk));
  t.deepEqual(spans[1], { startMs: 500, endMs: 900 });
  const encoded = await codecs.encodeToBuffer(chunks, { format: 'wav', quality: 'standard' });
  t.is(encoded.durationMs, 1400);
  const pcm = await decode(encoded.bytes, 'wav');
  const at = (ms: number) => Math.round((ms * 24_000) / 1000);
  t.true(rms(pcm.subarray(at(550), at(850))) < 0.001);
  t.true(rms(pcm.subarray(at(50), at(450))) > 0.1);
  t.true(rms(pcm.subarray(at(950), at(1350))) > 0.1);
});

/** A fake engine at the port boundary: speaks each sentence as a tone, in 0.05 s chunks. */
class ToneEngine implements SpeechEngine {
  readonly id = 'tone';
  async voices() {
    return [{ id: 'a4', name: 'A4', language: 'en', sampleRate: 16_000 }];
  }
  async *synthesize(request: SynthesisRequest): AsyncIterable<PcmChunk> {
    if (request.voice !== 'a4') throw new UnknownVoiceError(this.id, request.voice);
    const sentences = request.text
      .split('.')
      .map((s) => s.trim())
      .filter(Boolean);
    for (const [index, text] of sentences.entries()) {
      const audio = tones([440], 0.05 * text.length, 16_000);
      for (let at = 0; at < audio.length; at += 800) {
        request.signal?.throwIfAborted();
        yield {
          samples: audio.slice(at, at + 800),
          sampleRate: 16_000,
          channels: 1,
          ...(at === 0 ? { marker: { kind: 'sentence' as const, index, text } } : {}),
        };
      }
    }
  }
}

test('engine PCM flows through the encoder, markers time sentences, an unknown voice fails first', async (t) => {
  const engine = new ToneEngine();
  const clock = new SampleClock();
  const sentences: { index: number; startMs: number }[] = [];
  async function* timed(source: AsyncIterable<PcmChunk>) {
    for await (const chunk of source) {
      const { startMs } = clock.add(chunk);
      if (chunk.marker) sentences.push({ index: chunk.marker.index, startMs });
      yield chunk;
    }
  }
  const encoded = await codecs.encodeToBuffer(
    timed(engine.synthesize({ text: 'Hello there. Hi.', voice: 'a4', speed: 1 })),
    { format: 'mp3' }
  );
  t.deepEqual(sentences, [
    { index: 0, startMs: 0 },
    { index: 1, startMs: 550 },
  ]);
  t.is(encoded.durationMs, clock.positionMs);
  t.is(encoded.durationMs, 650); // 11 + 2 characters at 0.05 s each

  const pieces: Uint8Array[] = [];
  await t.throwsAsync(
    async () => {
      for await (const piece of codecs.encode(engine.synthesize({ text: 'Hi.', voice: 'nope', speed: 1 }), {
        format: 'mp3',
      }))
        pieces.push(piece);
    },
    { instanceOf: UnknownVoiceError }
  );
  t.is(pieces.length, 0);
});

test('importing the package loads no wasm module and starts nothing', (t) => {
  const script = `
    const before = new Set(Object.keys(require.cache));
    require(${JSON.stringify(require.resolve('../src'))});
    const loaded = Object.keys(require.cache).filter((k) => !before.has(k) && /opusscript|speex|mediabunny/.test(k));
    console.log(JSON.stringify({ loaded, handles: process.getActiveResourcesInfo().filter((r) => r !== 'TTYWrap') }));
  `;
  const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  t.is(result.status, 0, result.stderr);
  t.deepEqual(JSON.parse(result.stdout), { loaded: [], handles: [] });
});
