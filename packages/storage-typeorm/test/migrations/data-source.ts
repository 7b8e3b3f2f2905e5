import test from 'ava';
import { at, makeBranding, makeForm, makeInvitation, makeQuestion, makeUser, uid } from '@formloom/core/testing';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { createDataSource, createTypeormStorage, formloomEntities, formloomMigrationNames, formloomMigrations, parseDatabaseUrl, pendingMigrations, runMigrations } from '../../src';
import { createTestDatabase, postgresTestUrl, type TestDatabaseKind } from '../../src/testing';
import { exportLinesSql } from '../../src/repositories/response-export';
import { dialectOf } from '../../src/sql/dialect';

/** The migrations from `name` on, by name, in order (a new migration needs no change here). */
const MIGRATION_NAMES = formloomMigrations.map((m) => m.name);
const fromMigration = (name: string) => MIGRATION_NAMES.slice(MIGRATION_NAMES.indexOf(name));
/** Undoes the migrations from `name` on: the database is as it was just before `name`. */
async function undoFrom(ds: DataSource, name: string) {
  for (let i = 0; i < fromMigration(name).length; i++) await ds.undoLastMigration();
}

test('parseDatabaseUrl reads sqlite and postgres URLs', (t) => {
  t.deepEqual(parseDatabaseUrl('sqlite:./data/formloom.sqlite'), { kind: 'sqlite', path: './data/formloom.sqlite' });
  t.deepEqual(parseDatabaseUrl('sqlite:///var/db.sqlite'), { kind: 'sqlite', path: '/var/db.sqlite' });
  t.deepEqual(parseDatabaseUrl('sqlite::memory:'), { kind: 'sqlite', path: ':memory:' });
  t.deepEqual(parseDatabaseUrl('postgres://u@h/db'), { kind: 'postgres', url: 'postgres://u@h/db' });
  t.deepEqual(parseDatabaseUrl('postgresql://u@h/db'), { kind: 'postgres', url: 'postgresql://u@h/db' });
  const err = t.throws(() => parseDatabaseUrl('mysql://user:secret@host/db'));
  t.false(err?.message.includes('secret'), 'credentials stay out of the message');
  t.throws(() => parseDatabaseUrl('sqlite:'));
});

test('sqlite: creates the parent directory, WAL, busy timeout, foreign keys, migrations once', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'formloom-ds-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const dataSource = createDataSource(`sqlite:${join(dir, 'nested', 'deeper', 'db.sqlite')}`, { busyTimeoutMs: 1234 });
  t.deepEqual(await runMigrations(dataSource), [
    'FormloomInitial1732000000000',
    'FormloomResponsesWebhooks1733000000000',
    'FormloomTeamAdministration1734000000000',
    'FormloomFormListIndexes1735000000000',
    'FormloomUploadsOutboxRetention1736000000000',
    'FormloomRateLimits1736500000000',
    'FormloomInstanceSettings1737000000000',
    'FormloomSigning1737020000000',
    'FormloomVoice1737040000000',
    'FormloomResponseDays1737100000000',
    'FormloomVoiceRetention1738300000100',
    'FormloomBlobs1738400000000',
    'FormloomFormListOrder1738500000100',
    'FormloomSignIn1739000000000', 'FormloomCacheRevision1739500000000', 'FormloomQuestionValues1739800000000', 'FormloomWebhookExcerpts1740000000000', 'FormloomCacheRevisionTargets1740200000000', 'FormloomResponseCsvLines1740400000000', 'FormloomCacheRevisionFormInserts1740600000000', 'FormloomResponseLinesIndex1740800000000', 'FormloomApiKeyMakers1741000000000', 'FormloomPayments1741200000000', 'FormloomResponseAnswers1741400000000',
    'FormloomIntegrations1741650000000', 'FormloomBookings1741800000000', 'FormloomBookingCalls1742000000000', 'FormloomResponseLanguage1742100000000', 'FormloomAnswerPairs1742300000000',
    'FormloomCacheRevisionIntegrations1742400000000',
    'FormloomIdempotencyExpiry1742500000000',
    'FormloomResponseFuseLinks1742600000000',
    'FormloomResponseIndexQueue1742700000000',
  ]);
  t.deepEqual(await runMigrations(dataSource), [], 'already applied');
  t.true(existsSync(join(dir, 'nested', 'deeper', 'db.sqlite')));
  const pragma = async (name: string) => Object.values((await dataSource.query(`PRAGMA ${name}`))[0])[0];
  t.is(await pragma('journal_mode'), 'wal');
  t.is(await pragma('busy_timeout'), 1234);
  t.is(await pragma('foreign_keys'), 1);
  t.is(await pragma('synchronous'), 1, 'NORMAL');
  await createTypeormStorage(dataSource).close();
  t.false(dataSource.isInitialized, 'close() destroys the data source');
});

/*
 * Every `formloom` command opens the server's file and runs the migrations: when none is pending, it must
 * not ask for the write lock, which a busy server holds almost all the time (docs/decisions.md, "Session 15").
 */
test('sqlite: an up-to-date database opens while another process holds the write lock', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'formloom-ds-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const url = `sqlite:${join(dir, 'db.sqlite')}`;
  const first = createDataSource(url);
  await runMigrations(first);
  const holder = createDataSource(url);
  await holder.initialize();
  const runner = holder.createQueryRunner();
  await runner.query('BEGIN IMMEDIATE');
  let held = true;
  const release = async () => {
    if (!held) return;
    held = false;
    await runner.query('ROLLBACK');
  };
  // Released after a while whatever happens, so a regression fails the assertion instead of hanging.
  const fallback = setTimeout(() => void release(), 30_000);
  t.teardown(async () => {
    clearTimeout(fallback);
    await release();
    await runner.release();
    await holder.destroy();
  });
  const second = createDataSource(url);
  t.deepEqual(await runMigrations(second), []);
  t.true(held, 'opened while the write lock was still held');
  await second.destroy();
  await first.destroy();
});

test('sqlite::memory: works, the storage may be made before the data source is initialized', async (t) => {
  const dataSource = createDataSource('sqlite::memory:');
  const storage = createTypeormStorage(dataSource);
  await runMigrations(dataSource);
  t.is(await storage.credits.add('usr_1', 3), 3);
  t.is(await storage.transaction((tx) => tx.credits.spend('usr_1', 2)), 1);
  await storage.close();
});

test('formloomMigrationNames names formloomMigrations in their order', (t) => {
  t.deepEqual([...formloomMigrationNames], formloomMigrations.map((m) => m.name));
});

/** What a server whose database another process migrates reads (docs/operations.md, "Memory"). */
for (const kind of ['sqlite', 'postgres'] as const) {
  test(`${kind}: pendingMigrations reads what is left to apply without the migrations' code`, async (t) => {
    t.timeout(180_000);
    let url: string;
    let schema: string | undefined;
    let dispose: () => Promise<unknown>;
    if (kind === 'sqlite') {
      const dir = await mkdtemp(join(tmpdir(), 'formloom-pending-'));
      url = `sqlite:${join(dir, 'db.sqlite')}`;
      dispose = () => rm(dir, { recursive: true, force: true });
    } else {
      const base = await postgresTestUrl();
      schema = `fl_t${Math.floor(Date.now() / 1000).toString(36)}_${Math.random().toString(36).slice(2, 12)}`;
      const admin = createDataSource(base, { poolSize: 1, migrations: false });
      await admin.initialize();
      await admin.query(`CREATE SCHEMA ${schema}`);
      url = base;
      dispose = async () => {
        await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await admin.destroy();
      };
    }
    t.teardown(() => dispose());
    const bare = createDataSource(url, { migrations: false, poolSize: 1, ...(schema ? { schema } : {}) });
    t.teardown(() => (bare.isInitialized ? bare.destroy() : undefined));
    t.deepEqual(bare.migrations, []);
    await t.throwsAsync(runMigrations(bare), { message: /formloomMigrations/ });
    t.deepEqual(await pendingMigrations(bare), [...formloomMigrationNames], 'a new database lacks every one');
    const full = createDataSource(url, { poolSize: 2, ...(schema ? { schema } : {}) });
    t.teardown(() => (full.isInitialized ? full.destroy() : undefined));
    await runMigrations(full);
    t.deepEqual(await pendingMigrations(bare), []);
    await full.undoLastMigration();
    t.deepEqual(await pendingMigrations(bare), formloomMigrationNames.slice(-1), 'the last one undone');
  });
}

test('runMigrations refuses a data source without Formloom migrations', async (t) => {
  const dataSource = new DataSource({ type: 'sqlite', database: ':memory:', entities: [...formloomEntities] });
  await t.throwsAsync(runMigrations(dataSource), { message: /formloomMigrations/ });
  await dataSource.destroy();
});

for (const kind of ['sqlite', 'postgres'] as TestDatabaseKind[]) {
  test(`${kind}: the migration creates exactly the tables the entities describe`, async (t) => {
    const db = await createTestDatabase(kind);
    t.teardown(() => db.close());
    const pending = await db.dataSource.driver.createSchemaBuilder().log();
    t.deepEqual(pending.upQueries.map((q) => q.query), []);
  });
}

for (const kind of ['sqlite', 'postgres'] as TestDatabaseKind[]) {
  /*
   * A database at the second migration with teams in it: the third keeps them (it only adds tables and
   * indexes), fails cleanly on duplicate team slugs, and reverts without touching the older tables.
   */
  test(`${kind}: the team administration migration upgrades a database with teams, and reverts`, async (t) => {
    const db = await createTestDatabase(kind);
    t.teardown(() => db.close());
    const ds = db.dataSource;
    const p = db.placeholder;
    const third = 'FormloomTeamAdministration1734000000000';
    const later = fromMigration(third).slice(1);
    const undoThroughThird = async () => {
      for (let i = 0; i <= later.length; i++) await ds.undoLastMigration();
    };
    await undoThroughThird();
    const fkPragma = async () => (kind === 'sqlite' ? Number(Object.values((await ds.query('PRAGMA foreign_keys'))[0])[0]) : 1);

    const user = makeUser();
    await db.storage.users.insert(user);
    const team = { id: uid('team'), name: 'Legacy', slug: uid('legacy'), owner_id: user.id, created_at: at(0), updated_at: at(0) };
    const member = { id: uid('mem'), team_id: team.id, user_id: user.id, role: 'owner' as const, joined_at: at(0) };
    const twin = { ...team, id: uid('team') };
    for (const x of [team, twin]) {
      await ds.query(
        `INSERT INTO teams (id, name, slug, owner_id, created_at, updated_at) VALUES (${[1, 2, 3, 4, 5, 6].map(p).join(', ')})`,
        [x.id, x.name, x.slug, x.owner_id, x.created_at, x.updated_at],
      );
    }
    await ds.query(
      `INSERT INTO team_members (id, team_id, user_id, role, joined_at) VALUES (${[1, 2, 3, 4, 5].map(p).join(', ')})`,
      [member.id, member.team_id, member.user_id, member.role, member.joined_at],
    );

    const { logMigration } = ds.logger;
    ds.logger.logMigration = () => undefined; // TypeORM prints the failure even with logging off
    await t.throwsAsync(runMigrations(ds), { message: /UQ_teams_slug|UNIQUE constraint failed: teams\.slug/ }, 'two teams share a slug');
    ds.logger.logMigration = logMigration;
    t.is(await fkPragma(), 1, 'a failed migration leaves SQLite foreign keys on');
    await ds.query(`UPDATE teams SET slug = ${p(1)} WHERE id = ${p(2)}`, [uid('renamed'), twin.id]);
    t.deepEqual(await runMigrations(ds), [third, ...later]);
    t.deepEqual((await ds.driver.createSchemaBuilder().log()).upQueries.map((q) => q.query), []);
    t.deepEqual(await db.storage.teams.findById(team.id), team);
    t.deepEqual(await db.storage.teams.membershipsOf(user.id), [member]);
    t.is(await db.storage.teams.ssoDomainVerifyToken(team.id), null);
    await db.storage.invitations.insert(makeInvitation(team.id));
    await db.storage.branding.put(team.id, makeBranding());

    await undoThroughThird();
    await t.throwsAsync(ds.query('SELECT 1 FROM team_invitations'), undefined, 'the new tables are gone');
    t.deepEqual(await db.storage.teams.membershipsOf(user.id), [member], 'members survive the revert');
    t.deepEqual(await runMigrations(ds), [third, ...later]);
    t.true(await db.storage.teams.delete(team.id));
    t.is(Number((await db.raw(`SELECT COUNT(*) AS n FROM team_members WHERE team_id = ${p(1)}`, [team.id]))[0].n), 0);
  });
}

for (const kind of ['sqlite', 'postgres'] as TestDatabaseKind[]) {
  /* The rollup migration fills the new table from the responses stored before it (docs/responses-and-webhooks.md). */
  test(`${kind}: the response_days migration backfills the rollup from existing responses`, async (t) => {
    const db = await createTestDatabase(kind);
    t.teardown(() => db.close());
    const ds = db.dataSource;
    const p = db.placeholder;
    // Back to before the rollup migration (the voice-retention, blobs, form-list order and sign-in, cache-revision, question-values, webhook-excerpts, cache-revision-targets, response CSV lines, form-insert revision, response lines index and API key makers migrations come after it).
    await undoFrom(ds, 'FormloomResponseDays1737100000000');
    await t.throwsAsync(ds.query('SELECT 1 FROM response_days'), undefined, 'the table is gone');
    const form = makeForm();
    await db.storage.forms.insert(form);
    const [q0, q1, q2] = [makeQuestion(0), makeQuestion(1), makeQuestion(2)];
    await db.storage.questions.replaceForForm(form.id, [q0!, q1!, q2!]);
    const answer = (...ids: string[]) => JSON.stringify(ids.map((id) => ({ question_id: id, value: 'x' })));
    const rows: Array<[number, boolean, number | null, string]> = [
      [10, true, 5, answer(q0!.id, q1!.id, q2!.id)],
      [20, false, null, answer(q0!.id)],
      [86_400 + 1, true, 7, answer(q1!.id, q0!.id)],
      [86_400 + 2, true, null, '[]'],
    ];
    for (const [seconds, completed, duration, answers] of rows) {
      await ds.query(
        `INSERT INTO responses (id, form_id, answers, metadata, submitted_at, completed_at, completion_seconds) VALUES (${[1, 2, 3, 4, 5, 6, 7].map(p).join(', ')})`,
        [uid('rsp'), form.id, answers, '{}', at(seconds), completed ? at(seconds) : null, duration],
      );
    }
    t.deepEqual(await runMigrations(ds), fromMigration('FormloomResponseDays1737100000000'));
    // The per-question counters the migration's frozen fill wrote, and the same after the live rebuild.
    const byKey = (a: unknown[], b: unknown[]) => (`${a[0]} ${a[1]}` < `${b[0]} ${b[1]}` ? -1 : 1);
    const counters = async () =>
      (await db.raw(`SELECT day, question_id, answered, furthest FROM question_days WHERE form_id = ${p(1)}`, [form.id]))
        .map((r) => [r.day, r.question_id, Number(r.answered), Number(r.furthest)])
        .sort(byKey);
    const [d0, d1] = [at(0).slice(0, 10), at(86_400).slice(0, 10)];
    const expected = [
      [d0, q0!.id, 2, 1], [d0, q1!.id, 1, 0], [d0, q2!.id, 1, 1],
      [d1, q0!.id, 1, 0], [d1, q1!.id, 1, 1],
    ].sort(byKey);
    t.deepEqual(await counters(), expected);
    await db.storage.responses.rebuildAnalytics(form.id);
    t.deepEqual(await counters(), expected, 'the live rebuild agrees');
    const days = await db.raw(`SELECT day, total, completed, seconds_sum, seconds_count FROM response_days WHERE form_id = ${p(1)} ORDER BY day`, [form.id]);
    t.deepEqual(
      days.map((r) => [r.day, Number(r.total), Number(r.completed), Number(r.seconds_sum), Number(r.seconds_count)]),
      [[at(0).slice(0, 10), 2, 1, 5, 1], [at(86_400).slice(0, 10), 2, 2, 7, 1]],
    );
    const a = await db.storage.responses.analytics(form.id);
    t.deepEqual([a.total, a.completed, a.average_completion_seconds], [4, 3, 6]);
  });
}

for (const kind of ['sqlite', 'postgres'] as TestDatabaseKind[]) {
  /* The forms list reads its pages from the index in its own order (updated_at DESC, id ASC), no sort. */
  test(`${kind}: the forms list indexes run in the list's order, and revert`, async (t) => {
    const db = await createTestDatabase(kind);
    t.teardown(() => db.close());
    const definition = async () =>
      kind === 'sqlite'
        ? (await db.raw(`SELECT sql FROM sqlite_master WHERE name = 'IDX_forms_owner_list'`))[0].sql as string
        : (await db.raw(`SELECT indexdef AS sql FROM pg_indexes WHERE indexname = 'IDX_forms_owner_list' AND schemaname = $1`, [db.schema]))[0].sql as string;
    t.regex(await definition(), /"?updated_at"? DESC, "?id"?\)/);
    if (kind === 'sqlite') {
      const plan = await db.raw(`EXPLAIN QUERY PLAN SELECT id FROM forms WHERE owner_id = ? AND team_id IS NULL ORDER BY updated_at DESC, id ASC LIMIT 5 OFFSET 10`, ['usr_x']);
      t.false(plan.some((r: any) => /TEMP B-TREE/.test(r.detail)), JSON.stringify(plan));
      t.true(plan.some((r: any) => /COVERING INDEX IDX_forms_owner_list/.test(r.detail)), JSON.stringify(plan));
    }
    // The API key makers, response lines index, form-insert revision, response CSV lines, cache-revision targets, webhook excerpts, question values, cache revision and sign-in migrations, then the form-list order.
    await undoFrom(db.dataSource, 'FormloomFormListOrder1738500000100');
    t.notRegex(await definition(), /DESC/);
    t.deepEqual(await runMigrations(db.dataSource), fromMigration('FormloomFormListOrder1738500000100'));
  });
}

/* The export's pages of stored lines come from one index, without a lookup of each row in the table (docs/decisions.md, "Session 15"). */
test('sqlite: the export reads its pages of lines from IDX_responses_form_lines alone; PostgreSQL has no such index', async (t) => {
  const sqlite = await createTestDatabase('sqlite');
  t.teardown(() => sqlite.close());
  const d = dialectOf(sqlite.dataSource);
  for (const filter of ['', ' AND completed_at IS NOT NULL']) {
    const plan = await sqlite.raw(`EXPLAIN QUERY PLAN ${exportLinesSql(d, '"responses"', d.p(5), filter)}`, ['frm_x', '', '', 500, 'key']);
    // Covering when the filter reads only what the index holds; completed_at is read from the row.
    const used = filter ? /USING INDEX IDX_responses_form_lines/ : /USING COVERING INDEX IDX_responses_form_lines/;
    t.true(plan.some((r: any) => used.test(r.detail)), JSON.stringify(plan));
    t.false(plan.some((r: any) => /TEMP B-TREE/.test(r.detail)), JSON.stringify(plan));
  }
  const pg = await createTestDatabase('postgres');
  t.teardown(() => pg.close());
  t.deepEqual(await pg.raw(`SELECT indexname FROM pg_indexes WHERE indexname = 'IDX_responses_form_lines' AND schemaname = $1`, [pg.schema]), []);
});

test('postgres: each test database is a copy of the migrated template; the test URL reaches it, and close() drops it', async (t) => {
  const [db, other] = await Promise.all([createTestDatabase('postgres'), createTestDatabase('postgres')]);
  t.teardown(() => other.close());
  t.regex(db.database!, /^fl_t[0-9a-z]+_[0-9a-f]+$/);
  t.not(db.database, other.database);
  t.deepEqual(await db.raw('SELECT current_database() AS d, current_schema() AS s'), [{ d: db.database, s: db.schema }]);
  t.deepEqual(await runMigrations(db.dataSource), [], 'every migration already applied in the copy');
  const user = makeUser();
  await db.storage.users.insert(user);
  t.is(await other.storage.users.findById(user.id), null, 'copies share nothing');

  const viaUrl = createTypeormStorage(await createDataSource(db.url).initialize());
  t.deepEqual(await viaUrl.users.findByEmail(user.email), user);
  await viaUrl.close();

  await db.close();
  await db.close();
  const admin = await createDataSource(await postgresTestUrl()).initialize();
  t.teardown(() => admin.destroy());
  t.is((await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [db.database])).length, 0);
});

test('sqlite: a test database is a copy of the migrated template, with every migration applied', async (t) => {
  const db = await createTestDatabase('sqlite');
  t.teardown(() => db.close());
  t.deepEqual(await runMigrations(db.dataSource), []);
  t.is((await db.raw('SELECT COUNT(*) AS n FROM formloom_migrations'))[0].n, formloomMigrations.length);
  t.deepEqual(await db.raw('PRAGMA journal_mode'), [{ journal_mode: 'wal' }]);
});

test('sqlite: each test database is its own file, removed on close', async (t) => {
  const [a, b] = await Promise.all([createTestDatabase('sqlite'), createTestDatabase('sqlite')]);
  t.not(a.url, b.url);
  const user = makeUser();
  await a.storage.users.insert(user);
  t.is(await b.storage.users.findById(user.id), null);
  t.deepEqual((await a.raw(`SELECT email FROM users WHERE id = ${a.placeholder(1)}`, [user.id]))[0], { email: user.email });
  await Promise.all([a.close(), b.close()]);
  t.false(existsSync(a.url.slice('sqlite:'.length)));
});

for (const kind of ['sqlite', 'postgres'] as TestDatabaseKind[]) {
  test(`${kind}: the voice migration turns existing balances into opening ledger entries`, async (t) => {
    const db = await createTestDatabase(kind);
    t.teardown(() => db.close());
    const p = db.placeholder;
    // Back to before the voice migration (the response-days, voice-retention, blobs, form-list order and sign-in, cache-revision, question-values, webhook-excerpts, cache-revision-targets, response CSV lines, form-insert revision, response lines index and API key makers migrations come after it).
    await undoFrom(db.dataSource, 'FormloomVoice1737040000000');
    const [rich, empty] = [uid('usr'), uid('usr')];
    for (const [user, balance] of [[rich, 42], [empty, 0]] as const) {
      await db.raw(`INSERT INTO credit_balances (user_id, balance) VALUES (${p(1)}, ${p(2)})`, [user, balance]);
    }
    t.deepEqual(await runMigrations(db.dataSource), fromMigration('FormloomVoice1737040000000'));
    const entries = await db.raw(`SELECT kind, amount FROM credit_entries WHERE user_id = ${p(1)}`, [rich]);
    t.deepEqual(entries.map((e: any) => [e.kind, Number(e.amount)]), [['purchase', 42]]);
    t.deepEqual(await db.raw(`SELECT * FROM credit_entries WHERE user_id = ${p(1)}`, [empty]), []);
    t.is(await db.storage.credits.balance(rich), 42);
    t.true((await db.storage.credits.spendFor({ id: uid('cre'), user_id: rich, key_id: null, generation_id: uid('gen'), amount: 40, created_at: at(1) })).ok);
    t.is(await db.storage.credits.balance(rich), 2);
  });
}

for (const kind of ['sqlite', 'postgres'] as TestDatabaseKind[]) {
  /* Reuse, retention and retakes query columns filled from the generations stored before them (docs/voice.md). */
  test(`${kind}: the voice-retention migration fills its columns from the stored generations`, async (t) => {
    const db = await createTestDatabase(kind);
    t.teardown(() => db.close());
    const p = db.placeholder;
    // Back to before the voice-retention migration (the blobs, form-list order and sign-in, cache-revision, question-values, webhook-excerpts, cache-revision-targets, response CSV lines, form-insert revision, response lines index and API key makers migrations come after it).
    await undoFrom(db.dataSource, 'FormloomVoiceRetention1738300000100');
    const base = { status: 'ready', characters: 75, credits_charged: 30, retained_until: at(86_400), key_id: 'key_a' };
    const rows = [
      { id: uid('gen'), ...base },
      { id: uid('gen'), ...base, status: 'failed', credits_charged: 0, key_id: null, retained_until: null },
    ];
    for (const r of rows) {
      await db.raw(`INSERT INTO voice_generations (id, user_id, created_at, record) VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)})`, [r.id, 'usr_1', at(0), JSON.stringify({ ...r, user_id: 'usr_1' })]);
    }
    t.deepEqual(await runMigrations(db.dataSource), fromMigration('FormloomVoiceRetention1738300000100'));
    const got = await db.raw(`SELECT id, key_ref, status, retained_until, billed_characters, request_hash FROM voice_generations ORDER BY status DESC`);
    t.deepEqual(
      got.map((r: any) => [r.id, r.key_ref, r.status, r.retained_until, Number(r.billed_characters), r.request_hash]),
      [[rows[0]!.id, 'key_a', 'ready', at(86_400), 75, null], [rows[1]!.id, 'user:usr_1', 'failed', null, 0, null]],
    );
    t.deepEqual(await db.storage.voiceGenerations.retakeUsage('key_a', 'usr_1', at(0)), { billed_characters: 75, free_retake_characters: 0 });
  });
}
