import { existsSync } from 'node:fs';
import { join } from 'node:path';
import test from '../helpers/bounded-test';
import { voiceIdOf } from '@formloom/core';
import { forEachDb, type TestApp } from '../helpers/app';
import { raceParentDelete } from '../helpers/races';
import { download, toneVoiceAppOptions, voiceUser, type VoiceUser } from '../helpers/voice';

/*
 * Every operation on a voice generation, racing `DELETE /voice/generations/:id`: its success or 404, never a 500.
 * What the audio says does not matter here: the tone engine (docs/testing.md, "Writing a test"). Rounds 0 and 1
 * (the delete first, then the children first) race an MP3 clip, whose retakes encode MP3 again and whose WAV
 * download converts it; rounds 2 and 3 a WAV clip, read as stored. Each MP3 encoding starts LAME in a worker
 * thread (about 0.3 s of CPU): MP3 in every round made the file's cost mostly those starts.
 */

const VOICE = voiceIdOf('tone', 'en-us');
let seq = 0;

/** One billed user per app: its month's billing makes the clips' retakes free (a quarter of it). */
const users = new Map<TestApp, Promise<VoiceUser>>();
function billedUser(app: TestApp): Promise<VoiceUser> {
  if (!users.has(app)) {
    users.set(
      app,
      voiceUser(app, { credits: 5000 }).then(async (u) => {
        await app.api('POST', '/voice', { key: u.key, body: { mode: 'speak', voice: VOICE, format: 'wav', text: 'Filler words to bill this key first. '.repeat(6) } });
        return u;
      }),
    );
  }
  return users.get(app)!;
}

async function clip(app: TestApp, format: 'mp3' | 'wav') {
  const u = await billedUser(app);
  const made = await app.api('POST', '/voice', { key: u.key, body: { mode: 'speak', voice: VOICE, format, text: `Clip ${++seq}.` } });
  if (made.status !== 200) throw new Error(made.text);
  return { key: u.key, id: made.body.data.id as string, url: made.body.data.audio.url as string };
}

forEachDb(
  test,
  (it) => {
    raceParentDelete(it, {
      parent: 'generation',
      rounds: 4,
      setup: (app, round) => clip(app, round < 2 ? 'mp3' : 'wav'),
      // A free retake under way makes the clip `rendering`: its delete is then 409 generation_not_ready.
      remove: (app, c) => app.api('DELETE', `/voice/generations/${c.id}`, { key: c.key }),
      removeAllowed: [200, 204, 404, 409],
      children: [
        ['retake', (app, c) => app.api('POST', '/voice', { key: c.key, body: { mode: 'speak', retake_of: c.id } }), [200, 202, 404, 409]],
        ['read', (app, c) => app.api('GET', `/voice/generations/${c.id}`, { key: c.key })],
        [
          'audio',
          async (app, c) => {
            const r = await download(app, c.url.replace(/format=[a-z_0-9]+/, 'format=wav'), c.key);
            return { status: r.status, text: r.status >= 400 ? Buffer.from(r.bytes).toString() : '', body: undefined, headers: r.headers };
          },
        ],
        ['delete again', (app, c) => app.api('DELETE', `/voice/generations/${c.id}`, { key: c.key })],
      ],
      after: async (app, c) => {
        const left = await app.api('GET', `/voice/generations/${c.id}`, { key: c.key });
        if (left.status === 500) return `the generation answers 500 afterwards: ${left.text}`;
        // A deleted generation leaves no file behind, whatever wrote into its folder meanwhile.
        if (left.status === 404 && existsSync(join(app.blobDir, 'voice', c.id))) return `files of the deleted ${c.id} remain`;
        return null;
      },
    });
  },
  toneVoiceAppOptions()
);
