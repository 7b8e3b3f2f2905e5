import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { TestFn } from 'ava';
import { createFormloom } from '@formloom/core';
import { at, makeForm, makeResponse, uid } from '@formloom/core/testing';
import { describeDatabase, openMigratedStorage, runCli, sqliteFile } from '../src';
import { emptyDatabase, scratchDatabase, type DatabaseKind, type ScratchDatabase } from './databases';

type Ctx = { db: ScratchDatabase };

/** Every command against one kind of database, checked with raw SQL where the CLI wrote something. */
export function cliSuite(anyTest: TestFn, kind: DatabaseKind): void {
  // On SQLite the commands of this file run one at a time: each opens its own connection to one file, and
  // concurrent openings can meet SQLITE_BUSY (a known limit of running several `formloom` commands at once
  // against one SQLite file; PostgreSQL has none).
  const test = (kind === 'sqlite' ? anyTest.serial : anyTest) as TestFn<Ctx>;
  let n = 0;
  const email = (label: string) => `${label}-${++n}@example.com`;

  test.before(async (t) => {
    t.context.db = await scratchDatabase(kind);
  });
  test.after.always(async (t) => {
    await t.context.db?.drop();
  });

  async function run(db: ScratchDatabase, argv: string[]) {
    const r = await runCli(argv, { FORMLOOM_DATABASE_URL: db.url });
    if (r.code !== 0) throw new Error(`formloom ${argv.join(' ')} failed (${r.code}): ${r.stderr}`);
    if (r.stderr !== `formloom: database ${describeDatabase(db.url)}\n`) throw new Error(`unexpected stderr: ${r.stderr}`);
    const lines = r.stdout.split('\n');
    if (lines.length !== 2 || lines[1] !== '') throw new Error(`expected one JSON line, got ${JSON.stringify(r.stdout)}`);
    return JSON.parse(lines[0]!) as Record<string, unknown>;
  }

  async function fails(db: ScratchDatabase, argv: string[]) {
    const r = await runCli(argv, { FORMLOOM_DATABASE_URL: db.url });
    if (r.code === 0) throw new Error(`formloom ${argv.join(' ')} succeeded: ${r.stdout}`);
    // At most the line naming the database, then the error in one line.
    if (r.stdout !== '' || !/^(formloom: database [^\n]+\n)?formloom: [^\n]+\n$/.test(r.stderr)) throw new Error(`not a one-line error: ${JSON.stringify(r)}`);
    return r;
  }

  test('any command builds the schema on an empty database; migrate is repeatable', async (t) => {
    const fresh = await emptyDatabase(kind);
    t.teardown(() => fresh.drop());
    await t.throwsAsync(fresh.query('SELECT id FROM users'));
    const user = await run(fresh, ['user', 'create', '--email', email('first')]);
    t.deepEqual(await fresh.query('SELECT id FROM users'), [{ id: user.user_id }]);
    t.deepEqual(await run(fresh, ['migrate']), { migrated: true });
    t.deepEqual(await run(fresh, ['migrate']), { migrated: true });
  });

  test('user create prints user_id, email and plan, and stores every flag', async (t) => {
    const { db } = t.context;
    const address = email('Ada');
    const out = await run(db, ['user', 'create', '--email', address, '--first-name', 'Ada', '--last-name', 'Lovelace', '--plan', 'pro', '--verified']);
    t.deepEqual(Object.keys(out), ['user_id', 'email', 'plan']);
    t.regex(String(out.user_id), /^usr_/);
    t.is(out.email, address.toLowerCase());
    t.is(out.plan, 'pro');
    const [row] = await db.query<Record<string, unknown>>('SELECT * FROM users WHERE id = $1', [out.user_id]);
    t.like(row, { email: address.toLowerCase(), first_name: 'Ada', last_name: 'Lovelace', plan: 'pro' });
    t.truthy(row!.email_verified);
  });

  test('user create defaults to the free plan, unverified', async (t) => {
    const { db } = t.context;
    const out = await run(db, ['user', 'create', '--email', email('plain')]);
    t.is(out.plan, 'free');
    const [row] = await db.query<Record<string, unknown>>('SELECT * FROM users WHERE id = $1', [out.user_id]);
    t.falsy(row!.email_verified);
    t.is(row!.first_name, null);
  });

  test('user create refuses a taken email, an invalid plan and a missing --email', async (t) => {
    const { db } = t.context;
    const address = email('twice');
    await run(db, ['user', 'create', '--email', address]);
    t.regex((await fails(db, ['user', 'create', '--email', address.toUpperCase()])).stderr, /exists/);
    t.regex((await fails(db, ['user', 'create', '--email', email('x'), '--plan', 'gold'])).stderr, /plan/);
    t.regex((await fails(db, ['user', 'create', '--email', 'not-an-email'])).stderr, /email/);
    const missing = await fails(db, ['user', 'create']);
    t.is(missing.code, 2);
    t.regex(missing.stderr, /--email/);
    const rows = await db.query('SELECT id FROM users WHERE email = $1', [address]);
    t.is(rows.length, 1);
  });

  test('key create by email stores only a hash of the secret, and the key authenticates', async (t) => {
    const { db } = t.context;
    const user = await run(db, ['user', 'create', '--email', email('keyed')]);
    const out = await run(db, ['key', 'create', '--user', String(user.email)]);
    t.deepEqual(Object.keys(out), ['key_id', 'api_key', 'scope']);
    t.is(out.scope, 'forms');
    const m = /^fl_([A-Za-z0-9]+)_([0-9a-f]{64})$/.exec(String(out.api_key));
    t.truthy(m);
    t.is(out.key_id, `key_${m![1]}`);
    const [row] = await db.query<Record<string, unknown>>('SELECT * FROM api_keys WHERE id = $1', [out.key_id]);
    t.is(row!.user_id, user.user_id);
    t.is(row!.secret_hash, createHash('sha256').update(m![2]!).digest('hex'));
    t.false(JSON.stringify(row).includes(m![2]!), 'the secret is not stored in clear');
    t.is(row!.monthly_limit, null);

    const storage = await openMigratedStorage(db.url);
    try {
      const principal = await createFormloom({ storage }).accounts.authenticate(String(out.api_key));
      t.deepEqual(principal, { user_id: user.user_id, key_id: out.key_id, scope: 'forms' });
    } finally {
      await storage.close();
    }
  });

  test('key create by id takes --scope and --monthly-limit', async (t) => {
    const { db } = t.context;
    const user = await run(db, ['user', 'create', '--email', email('voice')]);
    const out = await run(db, ['key', 'create', '--user', String(user.user_id), '--scope', 'voice', '--monthly-limit', '250']);
    t.is(out.scope, 'voice');
    const [row] = await db.query<Record<string, unknown>>('SELECT scope, monthly_limit FROM api_keys WHERE id = $1', [out.key_id]);
    t.deepEqual({ ...row, monthly_limit: Number(row!.monthly_limit) }, { scope: 'voice', monthly_limit: 250 });
  });

  test('key create refuses an unknown user, a bad scope and a bad limit', async (t) => {
    const { db } = t.context;
    const user = await run(db, ['user', 'create', '--email', email('picky')]);
    t.regex((await fails(db, ['key', 'create', '--user', 'nobody@example.com'])).stderr, /User not found/);
    t.regex((await fails(db, ['key', 'create', '--user', 'usr_missing'])).stderr, /User not found/);
    t.regex((await fails(db, ['key', 'create', '--user', String(user.user_id), '--scope', 'admin'])).stderr, /scope/);
    t.regex((await fails(db, ['key', 'create', '--user', String(user.user_id), '--monthly-limit', 'lots'])).stderr, /--monthly-limit/);
    t.regex((await fails(db, ['key', 'create', '--user', String(user.user_id), '--monthly-limit', '0'])).stderr, /--monthly-limit/);
    const rows = await db.query('SELECT id FROM api_keys WHERE user_id = $1', [user.user_id]);
    t.is(rows.length, 0);
  });

  test('key revoke marks the key revoked, and it no longer authenticates', async (t) => {
    const { db } = t.context;
    const user = await run(db, ['user', 'create', '--email', email('revoked')]);
    const key = await run(db, ['key', 'create', '--user', String(user.user_id)]);
    t.deepEqual(await run(db, ['key', 'revoke', '--key', String(key.key_id)]), { revoked: true });
    const [row] = await db.query<Record<string, unknown>>('SELECT revoked_at FROM api_keys WHERE id = $1', [key.key_id]);
    t.truthy(row!.revoked_at);
    const storage = await openMigratedStorage(db.url);
    try {
      t.is(await createFormloom({ storage }).accounts.authenticate(String(key.api_key)), null);
    } finally {
      await storage.close();
    }
    t.regex((await fails(db, ['key', 'revoke', '--key', 'key_doesnotexist'])).stderr, /not found/);
  });

  test('key revoke takes the whole key too, and prints nothing of it', async (t) => {
    const { db } = t.context;
    const user = await run(db, ['user', 'create', '--email', email('leaked')]);
    const key = await run(db, ['key', 'create', '--user', String(user.user_id)]);
    const other = await run(db, ['key', 'create', '--user', String(user.user_id)]);
    const r = await runCli(['key', 'revoke', '--key', String(key.api_key)], { FORMLOOM_DATABASE_URL: db.url });
    t.is(r.code, 0);
    t.is(r.stdout, '{"revoked":true}\n');
    t.false(r.stderr.includes(String(key.api_key).slice(-64)));
    const rows = await db.query<{ id: string; revoked_at: unknown }>('SELECT id, revoked_at FROM api_keys WHERE user_id = $1', [user.user_id]);
    t.truthy(rows.find((k) => k.id === key.key_id)!.revoked_at);
    t.falsy(rows.find((k) => k.id === other.key_id)!.revoked_at, 'only that key');
    const unknown = `fl_${'a'.repeat(24)}_${'0'.repeat(64)}`;
    t.regex((await fails(db, ['key', 'revoke', '--key', unknown])).stderr, /not found/);
  });

  test('plan set changes the stored plan, by email or id', async (t) => {
    const { db } = t.context;
    const user = await run(db, ['user', 'create', '--email', email('upgrade')]);
    t.deepEqual(await run(db, ['plan', 'set', '--user', String(user.email), '--plan', 'business']), { user_id: user.user_id, plan: 'business' });
    t.deepEqual(await run(db, ['plan', 'set', '--user', String(user.user_id), '--plan', 'enterprise']), { user_id: user.user_id, plan: 'enterprise' });
    const [row] = await db.query<Record<string, unknown>>('SELECT plan FROM users WHERE id = $1', [user.user_id]);
    t.is(row!.plan, 'enterprise');
    t.regex((await fails(db, ['plan', 'set', '--user', String(user.user_id), '--plan', 'platinum'])).stderr, /plan/);
    t.regex((await fails(db, ['plan', 'set', '--user', String(user.user_id)])).stderr, /--plan/);
  });

  test('credits purchase adds to the balance', async (t) => {
    const { db } = t.context;
    const user = await run(db, ['user', 'create', '--email', email('buyer')]);
    t.deepEqual(await run(db, ['credits', 'purchase', '--user', String(user.email), '--credits', '100']), { user_id: user.user_id, balance: 100 });
    t.deepEqual(await run(db, ['credits', 'purchase', '--user', String(user.user_id), '--credits', '50']), { user_id: user.user_id, balance: 150 });
    const [row] = await db.query<Record<string, unknown>>('SELECT balance FROM credit_balances WHERE user_id = $1', [user.user_id]);
    t.is(Number(row!.balance), 150);
    t.regex((await fails(db, ['credits', 'purchase', '--user', String(user.user_id), '--credits', '-5'])).stderr, /credits/);
    t.regex((await fails(db, ['credits', 'purchase', '--user', 'ghost@example.com', '--credits', '5'])).stderr, /User not found/);
  });

  test('user list prints every user in one JSON object, oldest first', async (t) => {
    const fresh = await scratchDatabase(kind);
    t.teardown(() => fresh.drop());
    t.deepEqual(await run(fresh, ['user', 'list']), { users: [] });
    const ada = await run(fresh, ['user', 'create', '--email', 'ada@example.com', '--first-name', 'Ada', '--plan', 'pro', '--verified']);
    const bob = await run(fresh, ['user', 'create', '--email', 'bob@example.com']);
    const out = await run(fresh, ['user', 'list']);
    const users = out.users as Record<string, unknown>[];
    t.deepEqual(users.map((u) => u.user_id).sort(), [ada.user_id, bob.user_id].sort());
    const byCreation = [...users].sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)) || String(a.user_id).localeCompare(String(b.user_id)));
    t.deepEqual(users, byCreation);
    t.deepEqual(Object.keys(users[0]!), ['user_id', 'email', 'first_name', 'last_name', 'plan', 'email_verified', 'created_at', 'is_admin']);
    t.like(users.find((u) => u.user_id === ada.user_id), { email: 'ada@example.com', first_name: 'Ada', last_name: null, plan: 'pro', email_verified: true });
    t.like(users.find((u) => u.user_id === bob.user_id), { plan: 'free', email_verified: false });
    t.is((await fails(fresh, ['user', 'list', '--all'])).code, 2);
  });

  test('key list shows key ids, scopes, limits and dates, never a secret or a hash', async (t) => {
    const { db } = t.context;
    const user = await run(db, ['user', 'create', '--email', email('lister')]);
    t.deepEqual(await run(db, ['key', 'list', '--user', String(user.email)]), { user_id: user.user_id, keys: [] });
    const forms = await run(db, ['key', 'create', '--user', String(user.user_id)]);
    const voice = await run(db, ['key', 'create', '--user', String(user.user_id), '--scope', 'voice', '--monthly-limit', '40']);
    await run(db, ['key', 'revoke', '--key', String(forms.key_id)]);
    const r = await runCli(['key', 'list', '--user', String(user.email)], { FORMLOOM_DATABASE_URL: db.url });
    t.is(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { user_id: string; keys: Record<string, unknown>[] };
    t.is(out.user_id, String(user.user_id));
    t.deepEqual(out.keys.map((k) => k.key_id).sort(), [forms.key_id, voice.key_id].sort());
    for (const k of out.keys) t.deepEqual(Object.keys(k), ['key_id', 'scope', 'monthly_limit', 'created_at', 'revoked_at', 'expires_at', 'made_by']);
    // The CLI's keys are the operator's: the owner's first proof of the address leaves them (docs/security.md).
    t.like(out.keys.find((k) => k.key_id === voice.key_id), { scope: 'voice', monthly_limit: 40, revoked_at: null, expires_at: null, made_by: 'operator' });
    const revoked = out.keys.find((k) => k.key_id === forms.key_id)!;
    t.is(revoked.scope, 'forms');
    t.regex(String(revoked.revoked_at), /^\d{4}-\d\d-\d\dT/);
    const [stored] = await db.query<{ secret_hash: string }>('SELECT secret_hash FROM api_keys WHERE id = $1', [forms.key_id]);
    for (const secret of [String(forms.api_key).slice(-64), String(voice.api_key).slice(-64), stored!.secret_hash]) {
      t.false(r.stdout.includes(secret) || r.stderr.includes(secret));
    }
    t.regex((await fails(db, ['key', 'list', '--user', 'ghost@example.com'])).stderr, /User not found/);
    t.is((await fails(db, ['key', 'list'])).code, 2);
  });

  test('stderr names the database opened; a PostgreSQL password never shows', async (t) => {
    const { db } = t.context;
    let url = db.url;
    if (kind === 'postgres') {
      // The local server trusts its clients, so the password is accepted and ignored: the URL still works.
      const u = new URL(db.url);
      u.password = 'pw-s3cret';
      url = u.toString();
    }
    const r = await runCli(['user', 'create', '--email', email('seen')], { FORMLOOM_DATABASE_URL: url });
    t.is(r.code, 0, r.stderr);
    t.false(r.stderr.includes('pw-s3cret'));
    const line = kind === 'sqlite' ? `formloom: database ${db.url}\n` : `formloom: database ${db.url.replace(/^postgres:\/\/([^@/]+)@/, 'postgres://$1:***@')}\n`;
    t.is(decodeURIComponent(r.stderr), decodeURIComponent(line));
  });

  if (kind === 'sqlite') {
    test('a SQLite file in a folder that does not exist is an error, and no folder is made', async (t) => {
      const folder = join(dirname(sqliteFile(t.context.db.url)!), 'no-such-folder');
      const r = await runCli(['user', 'create', '--email', email('lost')], { FORMLOOM_DATABASE_URL: `sqlite:${join(folder, 'x.sqlite')}` });
      t.is(r.code, 1);
      t.is(r.stdout, '');
      t.is(r.stderr, `formloom: FORMLOOM_DATABASE_URL: the folder ${folder} does not exist (create it first, or fix the path)\n`);
      t.false(existsSync(folder));
    });
  }


  test('analytics rebuild recounts the rollup from the stored responses, of one form or of all', async (t) => {
    const { db } = t.context;
    const storage = await openMigratedStorage(db.url);
    const [a, b] = [makeForm(), makeForm()];
    try {
      for (const f of [a, b]) await storage.forms.insert(f);
      // Responses written behind the storage's back (a restore, a manual fix): the rollup does not know them.
      const put = (formId: string, seconds: number, completed: boolean) =>
        db.query(
          'INSERT INTO responses (id, form_id, answers, metadata, submitted_at, completed_at, completion_seconds) VALUES ($1, $2, $3, $4, $5, $6, $7)',
          [uid('rsp'), formId, '[]', '{}', at(seconds), completed ? at(seconds) : null, completed ? seconds : null],
        );
      await put(a.id, 10, true);
      await put(a.id, 20, false);
      await put(a.id, 86_400 + 30, true);
      await put(b.id, 40, true);
      const days = async (formId: string) =>
        (await db.query<Record<string, unknown>>('SELECT day, total, completed, seconds_sum, seconds_count FROM response_days WHERE form_id = $1 ORDER BY day', [formId]))
          .map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, k === 'day' ? v : Number(v)])));
      t.deepEqual(await days(a.id), []);

      t.deepEqual(await run(db, ['analytics', 'rebuild', '--form', a.id]), { rebuilt: true, form_id: a.id });
      t.deepEqual(await days(a.id), [
        { day: at(0).slice(0, 10), total: 2, completed: 1, seconds_sum: 10, seconds_count: 1 },
        { day: at(86_400).slice(0, 10), total: 1, completed: 1, seconds_sum: 86_430, seconds_count: 1 },
      ]);
      t.deepEqual(await days(b.id), [], 'another form is left alone');
      t.is((await storage.responses.analytics(a.id)).total, 3);

      t.deepEqual(await run(db, ['analytics', 'rebuild']), { rebuilt: true, form_id: null });
      t.deepEqual(await days(b.id), [{ day: at(0).slice(0, 10), total: 1, completed: 1, seconds_sum: 40, seconds_count: 1 }]);
      t.is((await days(a.id)).length, 2);
      t.is((await fails(db, ['analytics', 'rebuild', '--form', 'frm_missing'])).code, 1);
    } finally {
      await storage.close();
    }
  });

  test('export lines writes the CSV line of each response of a form for its current columns, once', async (t) => {
    const { db } = t.context;
    const storage = await openMigratedStorage(db.url);
    const form = { ...makeForm(), options: { hidden_fields: ['utm'] } };
    try {
      await storage.forms.insert(form);
      const done = makeResponse(form.id, 1, { metadata: { user_agent: null, referrer: null, hidden: { utm: 'news, "x"' } } });
      const open = makeResponse(form.id, 2, { completed_at: null, completion_seconds: null });
      // Stored before lines existed (or for other columns): the export formats them until this command runs.
      await storage.responses.insert(done);
      await storage.responses.insert(open, { layout: 'other', line: 'stale\r\n' });
      t.deepEqual(await run(db, ['export', 'lines', '--form', form.id]), { form_id: form.id, written: 2 });
      const lines = await db.query<{ csv_line: string }>('SELECT csv_line FROM responses WHERE form_id = $1 ORDER BY submitted_at', [form.id]);
      t.deepEqual(lines.map((r) => r.csv_line), [
        `${done.id},${done.submitted_at},${done.completed_at},"news, ""x"""\r\n`,
        `${open.id},${open.submitted_at},,\r\n`,
      ]);
      t.deepEqual(await run(db, ['export', 'lines', '--form', form.id]), { form_id: form.id, written: 0 }, 'nothing left to write');
      t.is((await fails(db, ['export', 'lines', '--form', 'frm_missing'])).code, 1);
      t.is((await fails(db, ['export', 'lines'])).code, 2, '--form is required');
    } finally {
      await storage.close();
    }
  });

  test('respondent find and erase act in every form; user delete removes an account and its forms (docs/privacy.md, docs/accounts.md)', async (t) => {
    const { db } = t.context;
    const owner = email('owner');
    const created = await run(db, ['user', 'create', '--email', owner]);
    const storage = await openMigratedStorage(db.url);
    const address = email('respondent');
    // As the submissions would have counted them.
    const form = makeForm({ owner_id: String(created.user_id), response_count: 3 });
    try {
      await storage.forms.insert(form);
      const mine = makeResponse(form.id, 1, { answers: [{ question_id: 'q1', value: address.toUpperCase() }] });
      const visitor = makeResponse(form.id, 2, { visitor_id: 'v-cli' });
      const other = makeResponse(form.id, 3, { answers: [{ question_id: 'q1', value: `x${address}` }] });
      for (const r of [mine, visitor, other]) await storage.responses.insert(r);
      const found = await run(db, ['respondent', 'find', '--email', address, '--visitor-id', 'v-cli']);
      t.is(found.total, 2);
      t.deepEqual((found.responses as Array<{ response: { id: string } }>).map((r) => r.response.id).sort(), [mine.id, visitor.id].sort());
      t.deepEqual(await run(db, ['respondent', 'erase', '--email', address]), { erased: 1, forms: 1, files: 0, kept: [] });
      t.deepEqual((await db.query<{ id: string }>('SELECT id FROM responses WHERE form_id = $1 ORDER BY submitted_at', [form.id])).map((r) => r.id), [visitor.id, other.id]);
      t.is((await fails(db, ['respondent', 'erase'])).code, 2, 'whose: --email or --visitor-id');
      t.is((await fails(db, ['respondent', 'find', '--email', 'not an address'])).code, 1);

      t.deepEqual(await run(db, ['user', 'delete', '--user', owner]), { deleted: true, forms: 1, responses: 2, teams_deleted: 0 });
      t.deepEqual(await db.query('SELECT id FROM users WHERE id = $1', [created.user_id]), []);
      t.deepEqual(await db.query('SELECT id FROM forms WHERE id = $1', [form.id]), []);
      t.is((await fails(db, ['user', 'delete', '--user', owner])).code, 1, 'gone already');
    } finally {
      await storage.close();
    }
  });

  test('bad command lines exit 2 with a one-line message', async (t) => {
    const { db } = t.context;
    for (const argv of [[], ['frobnicate'], ['user'], ['user', 'delete'], ['migrate', '--force'], ['migrate', 'now'], ['key', 'revoke', '--key']]) {
      const r = await fails(db, argv);
      t.is(r.code, 2, argv.join(' '));
    }
    t.regex((await fails(db, ['user', 'create', '--email', email('u'), '--admin'])).stderr, /--admin/);
  });
}
