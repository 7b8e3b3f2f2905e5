import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import test from 'ava';
import { extract, create as createTar } from 'tar';
import { runCli } from '@formloom/cli';
import { createTestDatabase, migratedSqliteFile } from '@formloom/storage-typeorm/testing';
import { waitFor } from '@formloom/core/testing';
import { startSelfHosted, type SelfHosted } from '../../src';

/*
 * `formloom backup` of a running, writing instance and `formloom restore` into an empty data folder: the restored
 * instance holds exactly what the snapshot held (every table row by row, every blob byte for byte), serves it, and
 * has ended the archive's sign-in sessions (docs/backup-and-restore.md).
 */

const silent = { write: () => undefined };
const temp = (name: string) => mkdtempSync(join(tmpdir(), `formloom-${name}-`));
const cli = async (args: string[], env: Record<string, string>) => {
  const r = await runCli(args, env);
  return { ...r, json: r.stdout ? (JSON.parse(r.stdout) as Record<string, any>) : null };
};

async function seed(app: SelfHosted, env: Record<string, string>) {
  t0(await cli(['user', 'create', '--email', 'ops@example.com', '--plan', 'pro', '--verified'], env));
  const key = (await cli(['key', 'create', '--user', 'ops@example.com'], env)).json!.api_key as string;
  const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const form = (await (
    await fetch(`${app.url}/api/v1/forms`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ title: 'Kept', questions: [{ type: 'short_text', title: 'Name' }, { type: 'file_upload', title: 'CV' }] }),
    })
  ).json()) as { id: string; slug: string; questions: { id: string }[] };
  t0({ code: (await fetch(`${app.url}/api/v1/forms/${form.id}/publish`, { method: 'POST', headers: auth })).ok ? 0 : 1, stderr: 'publish' });
  return { key, auth, form };
}

function t0(r: { code: number; stderr: string }) {
  if (r.code !== 0) throw new Error(r.stderr);
}

async function submit(app: SelfHosted, form: { slug: string; questions: { id: string }[] }, i: number, withFile = false) {
  const answers: unknown[] = [{ question_id: form.questions[0]!.id, value: `respondent ${i}` }];
  if (withFile) {
    const body = new FormData();
    body.append('file', new Blob([`file ${i} `.repeat(200)], { type: 'application/pdf' }), `cv-${i}.pdf`);
    const up = await fetch(`${app.url}/api/v1/public/forms/${form.slug}/uploads?question_id=${form.questions[1]!.id}`, { method: 'POST', body });
    if (up.status !== 201 && up.status !== 200) throw new Error(`upload ${up.status} ${await up.text()}`);
    answers.push({ question_id: form.questions[1]!.id, value: await up.json() });
  }
  const r = await fetch(`${app.url}/api/v1/public/forms/${form.slug}/responses`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ answers, visitor_id: `v${i}` }),
  });
  if (r.status !== 201) throw new Error(`submit ${r.status} ${await r.text()}`);
}

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const bytesOf = async (url: string, headers: Record<string, string>) => {
  const r = await fetch(url, { headers });
  if (r.status !== 200) throw new Error(`GET ${url}: ${r.status} ${await r.text()}`);
  return Buffer.from(await r.arrayBuffer());
};

/** A contract signed on its page and sealed by the worker: the signed PDF's download path and bytes. */
async function sealedContract(app: SelfHosted, auth: Record<string, string>) {
  const made = await fetch(`${app.url}/api/v1/forms`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ title: 'Lease', questions: [{ type: 'contract', title: 'Lease', properties: { document: 'The tenant rents the flat.', signer_slots: [{ slot_number: 1, label: 'Tenant' }] } }] }),
  });
  const form = (await made.json()) as { id: string };
  const session = (await (await fetch(`${app.url}/api/v1/forms/${form.id}/signing-sessions`, { method: 'POST', headers: auth, body: '{}' })).json()) as { id: string; signer_links: { short_code: string }[] };
  const signed = await fetch(`${app.url}/api/v1/s/${session.signer_links[0]!.short_code}/sign`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ signature: { type: 'typed', value: 'Ada Tenant' } }),
  });
  if (signed.status !== 200) throw new Error(`sign ${signed.status} ${await signed.text()}`);
  // The seal is the worker's (an outbox item): wait for the document, however busy the machine.
  const doc = await waitFor(async () => {
    const r = (await (await fetch(`${app.url}/api/v1/signing-sessions/${session.id}/documents`, { headers: auth })).json()) as { documents: { id: string }[] };
    return r.documents[0];
  }, { timeoutMs: 120_000, intervalMs: 100 });
  const path = `/api/v1/signing-sessions/${session.id}/documents/${doc.id}`;
  return { path, pdf: await bytesOf(`${app.url}${path}`, auth) };
}

/** Audio the voice API made (Flite, the lighter engine), and the key that reads it back. */
async function spokenAudio(app: SelfHosted, env: Record<string, string>) {
  t0(await cli(['credits', 'purchase', '--user', 'ops@example.com', '--credits', '500'], env));
  const key = (await cli(['key', 'create', '--user', 'ops@example.com', '--scope', 'voice'], env)).json!.api_key as string;
  const auth = { authorization: `Bearer ${key}` };
  const voices = ((await (await fetch(`${app.url}/api/v1/voice/voices`, { headers: auth })).json()) as { data: { id: string; engine: string }[] }).data;
  const r = await fetch(`${app.url}/api/v1/voice`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ mode: 'speak', text: 'Kept in the backup.', voice: voices.find((v) => v.engine === 'flite')!.id, format: 'wav' }),
  });
  if (r.status !== 200) throw new Error(`voice ${r.status} ${await r.text()}`);
  const { data } = (await r.json()) as { data: { id: string; status: string } };
  const path = `/api/v1/voice/generations/${data.id}/audio`;
  return { auth, path, audio: await bytesOf(`${app.url}${path}`, auth) };
}

/** Every table's rows (sorted), but the sessions a restore ends, read through SQLite itself. */
async function dumpTables(file: string): Promise<Record<string, string[]>> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const sqlite3 = require('sqlite3') as typeof import('sqlite3');
  const db = await new Promise<import('sqlite3').Database>((res, rej) => {
    const d = new sqlite3.Database(file, sqlite3.OPEN_READONLY, (e) => (e ? rej(e) : res(d)));
  });
  const all = (sql: string) => new Promise<any[]>((res, rej) => db.all(sql, (e, rows) => (e ? rej(e) : res(rows))));
  const out: Record<string, string[]> = {};
  for (const { name } of await all("SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' ORDER BY name")) {
    out[name] = (await all(`SELECT * FROM "${name}"`)).map((r) => JSON.stringify(r, (_k, v) => (v && v.type === 'Buffer' ? Buffer.from(v.data).toString('hex') : v))).sort();
  }
  await new Promise<void>((res) => db.close(() => res()));
  return out;
}

/** A person signed in on the source instance (the row a session cookie names), written as the server would. */
async function signedIn(file: string) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const sqlite3 = require('sqlite3') as typeof import('sqlite3');
  const db = new sqlite3.Database(file);
  const now = new Date().toISOString();
  await new Promise<void>((res, rej) =>
    db.run(
      "INSERT INTO sign_in_sessions (id, user_id, token_hash, created_at, last_seen_at, expires_at) SELECT 'ses_backup1', id, 'hash-backup-1', ?, ?, ? FROM users LIMIT 1",
      [now, now, new Date(Date.now() + 86_400_000).toISOString()],
      (e) => (e ? rej(e) : res()),
    ),
  );
  await new Promise<void>((res) => db.close(() => res()));
}

function blobsOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[relative(dir, p)] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  };
  try {
    walk(dir);
  } catch {
    /* no blobs folder */
  }
  return out;
}

test('a backup taken while respondents submit restores into an empty folder exactly, serves its data, and ends sessions', async (t) => {
  const dir = temp('backup-src');
  const env = { PORT: '0', FORMLOOM_DATA_DIR: dir, FORMLOOM_LOG_LEVEL: 'silent' };
  // The data folder's database comes migrated (a copy): what is checked is the backup and its restore.
  await migratedSqliteFile(join(dir, 'formloom.sqlite'));
  const app = await startSelfHosted(env, silent);
  const out = temp('backup-out');
  const target = temp('backup-target');
  t.teardown(async () => {
    await app.close().catch(() => undefined);
    for (const d of [dir, out, target]) rmSync(d, { recursive: true, force: true });
  });
  const { key, auth, form } = await seed(app, env);
  for (let i = 0; i < 3; i++) await submit(app, form, i, true);
  // What a restore must bring back intact besides responses: a sealed contract and voice audio.
  const contract = await sealedContract(app, auth);
  const voice = await spokenAudio(app, env);
  const crl = await bytesOf(`${app.url}/api/v1/signing/ca.crl`, {});

  // Ingest keeps writing while the first archive is taken: its snapshot is consistent (a response's rollups with it).
  let writing = true;
  let sent = 3;
  const load = (async () => {
    while (writing) await Promise.all([0, 1, 2, 3].map(() => submit(app, form, sent++)));
  })();
  const live = await cli(['backup', join(out, 'live.tar.gz')], env);
  writing = false;
  await load;
  t.is(live.code, 0, live.stderr);
  // The database, every blob (6 uploads, the audio, the signing's files), the sealing certificate and its CA's CRL.
  const blobCount = Object.keys(blobsOf(join(dir, 'blobs'))).length;
  t.true(blobCount > 6 + 1);
  t.like(live.json, { files: 1 + blobCount + 2 });
  t.true(live.json!.rows > 0);

  // A second archive once the server stopped (its worker writes too), compared with the restore row by row and byte by byte.
  await app.close();
  await signedIn(join(dir, 'formloom.sqlite'));
  const settled = await cli(['backup', join(out, 'settled.tar.gz')], env);
  t.is(settled.code, 0, settled.stderr);
  const before = await dumpTables(join(dir, 'formloom.sqlite'));
  t.true(before.responses!.length >= 3 + 4, 'the load wrote responses');

  const restoreEnv = { ...env, FORMLOOM_DATA_DIR: target };
  const refused = await cli(['restore', join(out, 'settled.tar.gz')], restoreEnv);
  t.is(refused.code, 1, 'without the key, a restore is refused before anything is written');
  t.regex(refused.stderr, /does not hold its secret key: put the instance's key in/);
  t.deepEqual(readdirSync(target), []);
  writeFileSync(join(target, 'secret.key'), readFileSync(join(dir, 'secret.key')));
  const restored = await cli(['restore', join(out, 'settled.tar.gz')], restoreEnv);
  t.is(restored.code, 0, restored.stderr);
  t.like(restored.json, { restored: true, blobs: blobCount, migrated: [], sessions_ended: 1, moved_aside: null });
  const after = await dumpTables(join(target, 'formloom.sqlite'));
  const sessions = (x: Record<string, string[]>) => ({ ...x, sign_in_sessions: [] });
  t.deepEqual(sessions(after), sessions(before), 'every table the same, row by row (sessions ended)');
  t.deepEqual(after.sign_in_sessions, []);
  t.deepEqual(blobsOf(join(target, 'blobs')), blobsOf(join(dir, 'blobs')), 'every blob the same');

  // The restored instance serves the same data with the same key; the live archive restores consistently too.
  const back = await startSelfHosted(restoreEnv, silent);
  t.teardown(() => back.close());
  const read = async (page: number) => {
    const r = await fetch(`${back.url}/api/v1/forms/${form.id}/responses?per_page=100&page=${page}`, { headers: { authorization: `Bearer ${key}` } });
    t.is(r.status, 200);
    return (await r.json()) as { total: number; responses: { answers: { value: any }[] }[] };
  };
  const { total } = await read(1);
  t.is(total, before.responses!.length);
  // The oldest responses (those with files) are on the last page: newest first.
  const body = await read(Math.ceil(total / 100));
  const file = body.responses!.flatMap((r) => r.answers).find((a) => a.value && typeof a.value === 'object' && a.value.url);
  const download = await fetch(new URL(new URL(file!.value.url).pathname, back.url), { headers: { authorization: `Bearer ${key}` } });
  t.is(download.status, 200, 'an uploaded file opens after the restore');

  // The signed PDF comes back byte for byte and still verifies with the restored instance (its own seal, a known
  // document, an intact audit chain: what `formloom signing verify` checks); the CA's revocation list is served too.
  const pdf = await bytesOf(`${back.url}${contract.path}`, { authorization: `Bearer ${key}` });
  t.is(sha256(pdf), sha256(contract.pdf));
  const verified = await fetch(`${back.url}/api/v1/signing/verify`, { method: 'POST', body: pdf, headers: { 'content-type': 'application/pdf' } });
  t.like(await verified.json(), { valid: true, sealed_by_this_instance: true, known_document: true, audit_chain_intact: true });
  t.is(sha256(await bytesOf(`${back.url}/api/v1/signing/ca.crl`, {})), sha256(crl));
  // The voice audio, through the restored API, has the checksum it had.
  t.is(sha256(await bytesOf(`${back.url}${voice.path}`, voice.auth)), sha256(voice.audio));

  const second = temp('backup-live');
  t.teardown(() => rmSync(second, { recursive: true, force: true }));
  writeFileSync(join(second, 'secret.key'), readFileSync(join(dir, 'secret.key')));
  const fromLive = await cli(['restore', join(out, 'live.tar.gz')], { ...env, FORMLOOM_DATA_DIR: second });
  t.is(fromLive.code, 0, fromLive.stderr);
  // Taken mid-ingest, the snapshot still has each response with its day's counters: never one without the other.
  const liveTables = await dumpTables(join(second, 'formloom.sqlite'));
  const counted = liveTables.response_days!.reduce((n, row) => n + Number((JSON.parse(row) as { total: number }).total), 0);
  t.is(counted, liveTables.responses!.length);
  t.true(liveTables.responses!.length >= 3);
});

test('a restore refuses a damaged archive, a newer schema, a foreign file and an occupied folder, changing nothing', async (t) => {
  const dir = temp('backup-refuse');
  const env = { PORT: '0', FORMLOOM_DATA_DIR: dir, FORMLOOM_LOG_LEVEL: 'silent' };
  await migratedSqliteFile(join(dir, 'formloom.sqlite'));
  const app = await startSelfHosted(env, silent);
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const made = await cli(['backup', join(dir, 'b.tar.gz'), '--with-secret-key'], env);
  await app.close();
  t.is(made.code, 0, made.stderr);

  const occupied = await cli(['restore', join(dir, 'b.tar.gz')], env);
  t.is(occupied.code, 1);
  t.regex(occupied.stderr, /already holds a database: restore into an empty data folder, or stop the server and pass --force/);

  // Tampered copies: one changed byte of the database, a migration this Formloom does not know, a path outside.
  const work = temp('backup-tamper');
  t.teardown(() => rmSync(work, { recursive: true, force: true }));
  const unpack = () => {
    rmSync(join(work, 'x'), { recursive: true, force: true });
    return extract({ file: join(dir, 'b.tar.gz'), cwd: (mkdirSync(join(work, 'x')), join(work, 'x')) });
  };
  const repack = async (name: string, paths: string[]) => {
    await createTar({ gzip: true, file: join(work, name), cwd: join(work, 'x') }, paths);
    return join(work, name);
  };
  const manifestOf = () => JSON.parse(readFileSync(join(work, 'x', 'manifest.json'), 'utf8'));
  const paths = (m: { files: { path: string }[] }) => ['manifest.json', ...m.files.map((f) => f.path)];

  await unpack();
  const m = manifestOf();
  const db = join(work, 'x', 'database', 'formloom.sqlite');
  const bytes = readFileSync(db);
  bytes[bytes.length - 1] ^= 0xff;
  writeFileSync(db, bytes);
  const damaged = await repack('damaged.tar.gz', paths(m));

  await unpack();
  const newer = manifestOf();
  newer.migrations.push('FormloomFromTheFuture9999999999999');
  writeFileSync(join(work, 'x', 'manifest.json'), JSON.stringify(newer));
  const future = await repack('future.tar.gz', paths(newer));

  await unpack();
  writeFileSync(join(work, 'x', 'extra.sh'), 'echo hi');
  const foreign = await repack('foreign.tar.gz', [...paths(m), 'extra.sh']);

  writeFileSync(join(work, 'not-an-archive.tar.gz'), 'hello');
  const cases: [string, RegExp][] = [
    [damaged, /database\/formloom\.sqlite does not match its checksum: the archive is damaged/],
    [future, /made by a newer Formloom .*migration FormloomFromTheFuture9999999999999 is unknown here\): upgrade Formloom, then restore/],
    [foreign, /holds what a formloom backup never does \(extra\.sh\)/],
    [join(work, 'not-an-archive.tar.gz'), /cannot read .* as a formloom backup/],
  ];
  for (const [file, message] of cases) {
    const target = temp('backup-empty');
    t.teardown(() => rmSync(target, { recursive: true, force: true }));
    const r = await cli(['restore', file], { ...env, FORMLOOM_DATA_DIR: target });
    t.is(r.code, 1, file);
    t.regex(r.stderr, message);
    t.deepEqual(readdirSync(target), [], 'nothing written');
  }

  // --force replaces the database and keeps the old files aside; the archive's own key is used.
  const forced = await cli(['restore', join(dir, 'b.tar.gz'), '--force'], env);
  t.is(forced.code, 0, forced.stderr);
  t.truthy(statSync(join(forced.json!.moved_aside, 'formloom.sqlite')).isFile());
});

for (const kind of ['postgres'] as const) test(`[${kind}] backup and restore point to pg_dump and pg_restore`, async (t) => {
  const db = await createTestDatabase(kind);
  t.teardown(() => db.close());
  const env = { FORMLOOM_DATABASE_URL: db.url };
  const b = await cli(['backup', join(tmpdir(), 'never.tar.gz')], env);
  t.is(b.code, 1);
  t.regex(b.stderr, /on PostgreSQL, back up with pg_dump/);
  const r = await cli(['restore', join(tmpdir(), 'never.tar.gz')], env);
  t.is(r.code, 1);
  t.regex(r.stderr, /on PostgreSQL, restore a pg_dump archive with pg_restore/);
});
