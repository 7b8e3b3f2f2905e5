import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestFn } from 'ava';
import JSZip from 'jszip';
import { createFormloom, ResponseRetentionHandler, type BlobStore } from '@formloom/core';
import { makeForm, makeGeneration, makeResponse, waitFor } from '@formloom/core/testing';
import { createFileBlobStore } from '@formloom/blob-store-file';
import { openMigratedStorage, runCli, type ClosableStorage } from '../src';
import { scratchDatabase, type DatabaseKind, type ScratchDatabase } from './databases';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

type Ctx = { db: ScratchDatabase; dataDir: string; storage: ClosableStorage; blobs: BlobStore };

/**
 * `formloom form retention` and `formloom user export` (docs/cli.md) on one kind of database: what they store is
 * read back with raw SQL, what the sweep then deletes through the core, and the archive is opened and compared.
 */
export function dataRightsSuite(anyTest: TestFn, kind: DatabaseKind): void {
  // One SQLite file: the commands' connections and the suite's meet its single writer, so one test at a time.
  const test = (kind === 'sqlite' ? anyTest.serial : anyTest) as TestFn<Ctx>;
  let n = 0;
  const email = (label: string) => `${label}-${++n}@example.com`;

  test.before(async (t) => {
    const db = await scratchDatabase(kind);
    const dataDir = mkdtempSync(join(tmpdir(), 'formloom-cli-rights-'));
    const storage = await openMigratedStorage(db.url);
    // Where the server keeps files by default on each database (docs/configuration.md, FORMLOOM_BLOB_STORE).
    const blobs = kind === 'postgres' ? storage.postgresBlobStore() : createFileBlobStore(join(dataDir, 'blobs'));
    t.context = { db, dataDir, storage, blobs };
    // The first account is the server's admin, who cannot be deleted while others use it: not one of the tests'.
    const first = await runCli(['user', 'create', '--email', 'first-admin@example.com'], env(t.context));
    if (first.code !== 0) throw new Error(first.stderr);
  });
  test.after.always(async (t) => {
    await t.context.storage?.close();
    await t.context.db?.drop();
    if (t.context.dataDir) rmSync(t.context.dataDir, { recursive: true, force: true });
  });

  const env = (c: Ctx, more: Record<string, string> = {}) => ({ FORMLOOM_DATABASE_URL: c.db.url, FORMLOOM_DATA_DIR: c.dataDir, ...more });
  async function run(c: Ctx, argv: string[]) {
    const r = await runCli(argv, env(c));
    if (r.code !== 0) throw new Error(`formloom ${argv.join(' ')} failed (${r.code}): ${r.stderr}`);
    return JSON.parse(r.stdout) as Record<string, any>;
  }
  const fails = (c: Ctx, argv: string[], more: Record<string, string> = {}) => runCli(argv, env(c, more));

  test('form retention shows, sets and turns off the policy the hourly sweep applies', async (t) => {
    const c = t.context;
    const owner = await run(c, ['user', 'create', '--email', email('keeper')]);
    const form = makeForm({ owner_id: owner.user_id, title: 'Kept a while' });
    await c.storage.forms.insert(form);
    const stored = async () => {
      const [row] = await c.db.query<{ options: string | Record<string, unknown> }>('SELECT options FROM forms WHERE id = $1', [form.id]);
      const options = typeof row!.options === 'string' ? JSON.parse(row!.options) : row!.options;
      return options.response_retention ?? null;
    };

    t.deepEqual(await run(c, ['form', 'retention', form.id]), { form_id: form.id, title: 'Kept a while', response_retention: null });
    t.deepEqual((await run(c, ['form', 'retention', form.id, '--older-than-days', '30'])).response_retention, { older_than_days: 30 });
    t.deepEqual(await stored(), { older_than_days: 30 });
    // The flags given are the whole policy, as the API's field is.
    const both = await run(c, ['form', 'retention', form.id, '--keep-newest', '2', '--older-than-days', '7']);
    t.deepEqual(both.response_retention, { older_than_days: 7, keep_newest: 2 });
    t.deepEqual((await run(c, ['form', 'retention', form.id])).response_retention, { older_than_days: 7, keep_newest: 2 });

    // What the CLI stored is what the server's sweep applies: the newest two of today's responses stay.
    for (let i = 1; i <= 4; i++) await c.storage.responses.insert(makeResponse(form.id, i, { submitted_at: new Date(Date.now() - (10 - i) * 60_000).toISOString() }));
    await c.storage.forms.addResponseCount(form.id, 4);
    const swept = await createFormloom({ storage: c.storage, blobStore: c.blobs, logger: quiet }).service(ResponseRetentionHandler).applyAll();
    t.deepEqual(swept, { forms: 1, erased: 2 });
    t.is((await c.db.query('SELECT id FROM responses WHERE form_id = $1', [form.id])).length, 2);

    t.deepEqual((await run(c, ['form', 'retention', form.id, '--off'])).response_retention, null);
    t.is(await stored(), null);

    for (const [argv, code, message] of [
      [['form', 'retention', form.id, '--off', '--keep-newest', '3'], 2, /--off keeps every response/],
      [['form', 'retention', form.id, '--keep-newest', '0'], 2, /--keep-newest must be a positive integer/],
      [['form', 'retention', form.id, '--older-than-days', 'soon'], 2, /--older-than-days must be a positive integer/],
      [['form', 'retention', form.id, '--older-than-days', '40000'], 1, /older_than_days/],
      [['form', 'retention'], 2, /usage: formloom form retention <form>/],
      [['form', 'retention', form.id, 'extra'], 2, /usage/],
      [['form', 'retention', 'frm_missing', '--off'], 1, /unknown form: frm_missing/],
    ] as const) {
      const r = await fails(c, [...argv]);
      t.is(r.code, code, argv.join(' '));
      t.regex(r.stderr, message);
      t.is(r.stdout, '');
    }
    t.is(await stored(), null, 'a refused change stores nothing');
  });

  test('user export writes the account page\'s archive: documents and voice audio, for the owner\'s eyes only; user delete then takes the audio', async (t) => {
    const c = t.context;
    const address = email('exported');
    const user = await run(c, ['user', 'create', '--email', address, '--first-name', 'Ada']);
    await run(c, ['key', 'create', '--user', address]);
    const form = makeForm({ owner_id: user.user_id, title: 'Mine' });
    const logo = `${'ab'.repeat(16)}.png`;
    form.options = { ...form.options, top_logo_url: `https://forms.example.com/api/v1/public/logos/${form.id}/${logo}` };
    await c.storage.forms.insert(form);
    await c.blobs.put(`logos/${form.id}/${logo}`, Buffer.from('PNG logo'), 'image/png');
    const audio = Buffer.from(`RIFF${'tone'.repeat(500)}`);
    const kept = makeGeneration({ user_id: user.user_id, format: 'wav' });
    const gone = makeGeneration({ user_id: user.user_id, format: 'mp3' });
    await c.storage.voiceGenerations.insert(kept);
    await c.storage.voiceGenerations.insert(gone);
    await c.blobs.put(`voice/${kept.id}/audio.wav`, audio, 'audio/wav');

    const file = join(c.dataDir, `export-${kind}.zip`);
    const out = await run(c, ['user', 'export', '--email', address.toUpperCase(), file]);
    t.deepEqual(out, { file, bytes: statSync(file).size, user_id: user.user_id, email: address, documents: ['README.txt', 'account.json', 'forms.json', 'voice.json'], files: [`voice/${kept.id}.wav`, `logos/${form.id}/${logo}`] });
    t.is(statSync(file).mode & 0o777, 0o600);
    const zip = await JSZip.loadAsync(readFileSync(file));
    t.deepEqual(Object.values(zip.files).filter((f) => !f.dir).map((f) => f.name).sort(), ['README.txt', 'account.json', 'forms.json', 'voice.json', `voice/${kept.id}.wav`, `logos/${form.id}/${logo}`].sort());
    t.is(await zip.file(`logos/${form.id}/${logo}`)!.async('string'), 'PNG logo', 'the logo uploaded to their form');
    const json = async (name: string) => JSON.parse(await zip.file(name)!.async('string'));
    const account = await json('account.json');
    t.like(account.user, { id: user.user_id, email: address, first_name: 'Ada' });
    t.is(account.api_keys.length, 1);
    t.false(JSON.stringify(account).includes('secret_hash'), 'never a secret');
    t.deepEqual((await json('forms.json')).map((f: { id: string }) => f.id), [form.id]);
    const voice = await json('voice.json');
    t.is(voice.find((g: { id: string }) => g.id === kept.id).audio_file, `voice/${kept.id}.wav`);
    t.true(Buffer.from(await zip.file(`voice/${kept.id}.wav`)!.async('uint8array')).equals(audio), 'the audio, byte for byte');
    t.regex(await zip.file('README.txt')!.async('string'), /^Everything this Formloom server holds about your account/);

    const again = await fails(c, ['user', 'export', '--email', address, file]);
    t.is(again.code, 1);
    t.regex(again.stderr, /exists already: name a new file/);
    t.is((await fails(c, ['user', 'export', '--email', 'ghost@example.com', join(c.dataDir, 'ghost.zip')])).code, 1);
    t.is((await fails(c, ['user', 'export', '--email', address])).code, 2, 'the file is required');
    t.is((await fails(c, ['user', 'export', join(c.dataDir, 'x.zip')])).code, 2, '--email is required');
    const s3 = await fails(c, ['user', 'export', '--email', address, join(c.dataDir, 's3.zip')], { FORMLOOM_BLOB_STORE: 's3' });
    t.is(s3.code, 1);
    t.regex(s3.stderr, /FORMLOOM_BLOB_STORE=s3: .*account page/);

    // Deleting the account takes the audio too, by the outbox item the command leaves for the running server.
    t.like(await run(c, ['user', 'delete', '--user', address]), { deleted: true, forms: 1 });
    t.deepEqual(await c.db.query('SELECT id FROM voice_generations WHERE user_id = $1', [user.user_id]), []);
    const server = createFormloom({ storage: c.storage, blobStore: c.blobs, logger: quiet });
    server.worker.start({ pollMs: 50 });
    try {
      await waitFor(async () => (await c.blobs.get(`voice/${kept.id}/audio.wav`)) === null, { timeoutMs: 120_000, what: 'the audio deleted' });
    } finally {
      await server.worker.stop();
    }
    t.is((await fails(c, ['user', 'export', '--email', address, join(c.dataDir, 'gone.zip')])).code, 1, 'nobody to export');
  });
}
