/**
 * MP3 encoders come from prepared spares (a LAME worker started ahead, `Mp3Spares`): a spare encodes exactly
 * as a fresh encoder does, and an idle spare does not keep the process alive.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import test from 'ava';
import { createAudioCodecs } from '../src';
import { probe, tones } from './helpers/audio';
import { sameBytes } from '@formloom/core/testing';

const input = () => [{ samples: tones([440, 880], 0.5, 24_000), sampleRate: 24_000, channels: 1 }];

test('consecutive MP3 encodes (the later ones on prepared spares) give the same valid file as a fresh encoder', async (t) => {
  const fresh = (await createAudioCodecs().encodeToBuffer(input(), { format: 'mp3' })).bytes;
  const codecs = createAudioCodecs();
  for (let i = 0; i < 3; i++) {
    const { bytes } = await codecs.encodeToBuffer(input(), { format: 'mp3' });
    sameBytes(t, bytes, fresh, `encode ${i + 1}`);
  }
  const info = await probe(fresh, 'mp3');
  t.is(info.codec, 'mp3');
  t.is(info.sampleRate, 24_000);
  // Each quality has its own spare; a studio encode still gives 48 kHz.
  t.is((await probe((await codecs.encodeToBuffer(input(), { format: 'mp3', quality: 'studio' })).bytes, 'mp3')).sampleRate, 48_000);
});

test('a process that encoded MP3 exits by itself: the idle spare worker does not hold it', async (t) => {
  const script = `
    const { createAudioCodecs } = require(${JSON.stringify(join(__dirname, '..', 'src'))});
    const codecs = createAudioCodecs();
    const samples = new Int16Array(24000).map((_, i) => Math.round(8000 * Math.sin(i / 10)));
    codecs.encodeToBuffer([{ samples, sampleRate: 24000, channels: 1 }], { format: 'mp3' })
      .then((out) => console.log('encoded', out.bytes.length));
  `;
  const result = await new Promise<{ code: number | null; stdout: string; killed: boolean }>((resolve) => {
    const child = execFile(process.execPath, ['-e', script], { timeout: 50_000 }, (error, stdout) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, killed: child.killed }),
    );
  });
  t.false(result.killed, 'the process had to be killed: something kept it alive');
  t.is(result.code, 0);
  t.regex(result.stdout, /^encoded \d+/);
});
