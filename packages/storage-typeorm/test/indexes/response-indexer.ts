import test from 'ava';
import type { ResponseRecord, Storage } from '@formloom/core';
import { at, insertResponses, makeForm, makeQuestion, makeResponse, waitFor } from '@formloom/core/testing';
import { createDataSource, runMigrations } from '../../src';
import { ResponseIndexer } from '../../src/repositories/background-indexer';
import type { Db } from '../../src/sql/db';
import { dialectOf, filterOnly } from '../../src/sql/dialect';
import { openStorage } from '../../src/storage';
import { createTestDatabase, type TestDatabase, type TestDatabaseKind } from '../../src/testing';

/*
 * The analytics indexer (repositories/response-indexer.ts; docs/responses-and-webhooks.md, "How a submission is
 * counted"): a submission queues its response, the indexer counts it later, and every read of the counters first
 * counts the form's queued responses. Checked through the repository's reads, and by comparing every counter table
 * with `rebuildAnalytics`, which recounts them from the stored responses (a full scan).
 */

const DAY = 86_400;
const CITIES = ['Berlin', 'Paris', 'Lagos'];
/** An indexer that never runs by itself: only reads catching up count anything. */
const IDLE = { debounceMs: 3_600_000, intervalMs: 3_600_000 };
/** An indexer that runs after every commit, submissions or not (the background batches race everything else). */
const ALWAYS = { debounceMs: 0, intervalMs: 50, quietMs: 0, maxDelayMs: 0 };

export async function survey(storage: Storage) {
  const form = makeForm();
  await storage.forms.insert(form);
  const city = makeQuestion(0, { type: 'dropdown', properties: { choices: CITIES.map((label) => ({ label })) } });
  const nps = makeQuestion(1, { type: 'opinion_scale', properties: { min: 0, max: 10 } });
  const pets = makeQuestion(2, { type: 'multiple_choice', properties: { choices: [{ label: 'Cat' }, { label: 'Dog' }], allow_multiple: true } });
  const why = makeQuestion(3, { type: 'short_text' });
  await storage.questions.replaceForForm(form.id, [city, nps, pets, why]);
  /** The i-th respondent's response: every third stops early, every fourth is partial. */
  const response = (i: number, over: Partial<ResponseRecord> = {}) => {
    const partial = i % 4 === 3;
    const answers: ResponseRecord['answers'] = [
      { question_id: city.id, value: CITIES[i % 3]! },
      { question_id: nps.id, value: i % 11 },
    ];
    if (i % 3 !== 0) answers.push({ question_id: pets.id, value: i % 2 ? ['Cat', 'Dog'] : ['Dog'] }, { question_id: why.id, value: `because ${i}` });
    return makeResponse(form.id, (i % 3) * DAY + i, {
      answers,
      version: 1,
      ...(partial ? { completed_at: null, completion_seconds: null, resume_token_hash: 'ab'.repeat(32) } : { completion_seconds: 10 + i }),
      ...over,
    });
  };
  return { form, q: { city, nps, pets, why }, response };
}

/** Every counter the indexer writes for the form, as sorted lines, zero counts left out (as absent rows). */
async function counters(db: TestDatabase, formId: string): Promise<Record<string, string[]>> {
  const p = db.placeholder;
  const read = async (sql: string) =>
    (await db.raw(sql, [formId])).map((r) => Object.values(r).map((v) => (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v)).join(' | ')).sort();
  return {
    questionDays: await read(`SELECT day, question_id, answered, furthest FROM question_days WHERE form_id = ${p(1)} AND (answered <> 0 OR furthest <> 0)`),
    questionValues: await read(`SELECT day, question_id, value, count FROM question_values WHERE form_id = ${p(1)} AND count <> 0`),
    funnel: await read(`SELECT version, step, count FROM response_funnel WHERE form_id = ${p(1)} AND count <> 0`),
    answers: await read(`SELECT response_id, question_id, value, num, submitted_at FROM response_answers WHERE form_id = ${p(1)}`),
    pairs: await read(
      `SELECT question_id, value, target_id, target_value, n, completed, seconds_sum, seconds_count FROM answer_pairs ` +
        `WHERE form_id = ${p(1)} AND (n <> 0 OR completed <> 0 OR seconds_sum <> 0 OR seconds_count <> 0)`,
    ),
  };
}

export const queued = async (db: TestDatabase, formId?: string) =>
  Number((await db.raw(`SELECT COUNT(*) AS n FROM response_index_queue${formId ? ` WHERE form_id = ${db.placeholder(1)}` : ''}`, formId ? [formId] : []))[0].n);

/** The counters as kept equal the counters `rebuildAnalytics` recounts from the stored responses. */
export async function equalsRecount(t: { deepEqual(a: unknown, b: unknown, m?: string): void }, db: TestDatabase, formId: string, label: string) {
  await db.indexer.drain();
  const kept = await counters(db, formId);
  await db.storage.responses.rebuildAnalytics(formId);
  t.deepEqual(kept, await counters(db, formId), `${label}: every counter equals a recount`);
}

for (const kind of ['sqlite', 'postgres'] as TestDatabaseKind[]) {
  test(`${kind}: a response just submitted is counted by every read of the indexes (the read catches up)`, async (t) => {
    const db = await createTestDatabase(kind, { indexer: IDLE });
    t.teardown(() => db.close());
    const { form, q, response } = await survey(db.storage);
    let n = 0;
    // Each read is preceded by a new Berlin response, alone or in a transaction as a group commit writes it.
    const submit = async () => {
      const r = response(3 * n, { completed_at: at(n), completion_seconds: 5, resume_token_hash: null });
      await (n % 2 ? db.storage.responses.insert(r) : db.storage.transaction((tx) => tx.responses.insert(r)));
      n++;
      t.is(await queued(db, form.id), 1, 'the indexer has not run: the response waits in the queue');
      return r;
    };
    const berlin = { answers: { match: 'all' as const, tests: [{ question_id: q.city.id, op: 'equals' as const, via: 'key' as const, values: ['Berlin'] }] } };
    const reads: Array<[string, () => Promise<number>]> = [
      ['analytics drop-off', async () => (await db.storage.responses.analytics(form.id)).questions.find((x) => x.question_id === q.city.id)!.answered],
      ['questionValues', async () => (await db.storage.responses.questionValues(form.id)).find((v) => v.question_id === q.city.id && v.value === 'Berlin')?.count ?? 0],
      [
        'questionRangeValues',
        async () => (await db.storage.responses.questionRangeValues(form.id, [q.city.id], [{ first: at(0).slice(0, 10), last: at(0).slice(0, 10) }])).find((v) => v.value === 'Berlin')?.count ?? 0,
      ],
      ['filteredSummary (pair counts)', async () => (await db.storage.responses.filteredSummary(form.id, berlin)).analytics.total],
      ['filteredSummary (index)', async () => (await db.storage.responses.filteredSummary(form.id, { ...berlin, completed: true })).analytics.total],
      ['list by answer', async () => (await db.storage.responses.list({ formId: form.id, ...berlin, offset: 0, limit: 100 })).total],
      [
        'export by answer',
        async () => {
          let count = 0;
          for await (const page of db.storage.responses.exportPages(form.id, 10, { filter: berlin })) count += page.count;
          return count;
        },
      ],
      ['funnel', async () => (await db.storage.responses.funnel(form.id, 1)).responses],
      ['funnelVersions', async () => ((await db.storage.responses.funnelVersions(form.id)).includes(1) ? n : -1)],
    ];
    for (const [name, read] of reads) {
      await submit();
      t.is(await read(), n, `${name} counts the response submitted just before`);
      t.is(await queued(db, form.id), 0, `${name} emptied the form's queue`);
    }
    await equalsRecount(t, db, form.id, 'after the reads');
  });

  // Batches of both kinds: short slices between the commits, and the idle indexer's large ones, which give way to
  // commits (and, past the bound of half a second, become short ones again).
  for (const [schedule, indexer] of [['between commits', ALWAYS], ['when idle', { debounceMs: 0, intervalMs: 50, quietMs: 20, maxDelayMs: 500 }]] as const)
  test(`${kind}: completions, deletes and erasure racing indexer batches (${schedule}) never count twice or miss`, async (t) => {
    t.timeout(180_000);
    const db = await createTestDatabase(kind, { indexer });
    t.teardown(() => db.close());
    const { form, response } = await survey(db.storage);
    const live: ResponseRecord[] = [];
    for (let round = 0; round < 6; round++) {
      const fresh = Array.from({ length: 24 }, (_, i) => response(round * 24 + i));
      // Inserted in groups, as group commits do; the indexer wakes after each commit.
      for (let i = 0; i < fresh.length; i += 6) await insertResponses(db.storage, fresh.slice(i, i + 6));
      live.push(...fresh);
      const partials = live.filter((r) => r.completed_at === null);
      const gone = live.filter((r, i) => r.completed_at !== null && i % 5 === round % 5).slice(0, 6);
      // While batches run: completions, single deletes, a deleteMany, reads catching up and more submissions.
      await Promise.all([
        ...partials.map((r, i) =>
          db.storage.transaction((tx) =>
            tx.responses.updatePartial(form.id, r.id, {
              answers: [...r.answers.slice(0, 1), { question_id: r.answers[1]!.question_id, value: (i * 7) % 11 }],
              completed_at: at(DAY + i), completion_seconds: 40 + i, quiz_results: null, unique_visitor: null, submitted_at: at(DAY + i),
            }).then((done) => {
              t.true(done);
              Object.assign(r, { completed_at: at(DAY + i) });
            }),
          ),
        ),
        ...gone.slice(0, 3).map((r) => db.storage.responses.delete(form.id, r.id)),
        db.storage.responses.deleteMany(form.id, gone.slice(3).map((r) => r.id)),
        db.indexer.drain(),
        db.storage.responses.questionValues(form.id),
        db.storage.responses.insert(response(1000 + round)),
      ]);
      for (const r of gone) live.splice(live.indexOf(r), 1);
    }
    await waitFor(async () => (await queued(db, form.id)) === 0, { timeoutMs: 60_000 });
    await equalsRecount(t, db, form.id, 'after the race');
  });

  test(`${kind}: a response completed or deleted between a batch's read and its write is counted as it then is`, async (t) => {
    const db = await createTestDatabase(kind, { indexer: IDLE });
    t.teardown(() => db.close());
    const ds = createDataSource(db.url, { poolSize: 3 });
    await runMigrations(ds);
    const own = openStorage(ds, { indexer: IDLE });
    t.teardown(() => own.storage.close());
    const { form, response } = await survey(own.storage);
    const rows = Array.from({ length: 8 }, (_, i) => response(i));
    for (const r of rows) await own.storage.responses.insert(r);
    const partial = rows.find((r) => r.completed_at === null)!;
    const gone = rows.find((r) => r.completed_at !== null)!;
    // The storage's own SQL, joining the transaction it is called in (raw does), as the indexer's host.
    const sql: Db = { all: <T>(text: string, params?: readonly unknown[]) => own.raw(text, params as unknown[]) as Promise<T[]>, run: async (text, params) => (await own.raw(text, params as unknown[])).length, prepare: () => { throw new Error('unused'); } };
    let changes = 0;
    const indexer = new ResponseIndexer(
      {
        db: sql,
        d: own.dialect,
        // Before the batch's first write transaction (its responses already read and counted in memory): a completion
        // that changes an answer, and a delete.
        transaction: async (work) => {
          if (changes++ === 0) {
            t.true(await own.storage.responses.updatePartial(form.id, partial.id, {
              answers: [partial.answers[0]!, { question_id: partial.answers[1]!.question_id, value: 10 }],
              completed_at: at(DAY), completion_seconds: 77, quiz_results: null, unique_visitor: null, submitted_at: at(DAY),
            }));
            await own.storage.responses.delete(form.id, gone.id);
          }
          return own.storage.transaction(() => work(sql));
        },
      },
      { debounceMs: 0, intervalMs: 3_600_000, quietMs: 0, maxDelayMs: 0 },
    );
    indexer.start();
    await waitFor(async () => (await queued(db, form.id)) === 0, { timeoutMs: 60_000 });
    await indexer.stop();
    t.true(changes > 0, 'the indexer wrote in its own transactions');
    await equalsRecount(t, db, form.id, 'after the changes');
  });

  test(`${kind}: a backlog left by a storage that stopped is counted by the next one when it starts`, async (t) => {
    const db = await createTestDatabase(kind, { indexer: IDLE });
    t.teardown(() => db.close());
    const { form, response } = await survey(db.storage);
    for (let i = 0; i < 30; i++) await db.storage.responses.insert(response(i));
    t.is(await queued(db, form.id), 30);
    // Another storage on the same database, as an app restarted after a crash: its first call starts its indexer.
    const ds = createDataSource(db.url, { poolSize: 3 });
    await runMigrations(ds);
    const next = openStorage(ds);
    t.teardown(() => next.storage.close());
    await next.storage.forms.findById(form.id);
    await waitFor(async () => (await queued(db, form.id)) === 0, { timeoutMs: 60_000 });
    await equalsRecount(t, db, form.id, 'after the backlog');
  });
}

test('postgres: two instances indexing one form at once count every response once', async (t) => {
  t.timeout(180_000);
  const db = await createTestDatabase('postgres', { indexer: { ...ALWAYS, intervalMs: 20 } });
  t.teardown(() => db.close());
  const ds = createDataSource(db.url, { poolSize: 3 });
  await runMigrations(ds);
  const second = openStorage(ds, { indexer: { ...ALWAYS, intervalMs: 20 } });
  t.teardown(() => second.storage.close());
  const { form, response } = await survey(db.storage);
  const instances = [db.storage, second.storage];
  const partials: ResponseRecord[] = [];
  for (let round = 0; round < 8; round++) {
    const fresh = Array.from({ length: 30 }, (_, i) => response(round * 30 + i));
    partials.push(...fresh.filter((r) => r.completed_at === null));
    await Promise.all([
      ...fresh.map((r, i) => instances[i % 2]!.transaction((tx) => tx.responses.insert(r))),
      // Both catch up at once while both background indexers run.
      db.indexer.catchUp(form.id),
      second.indexer.catchUp(form.id),
      ...partials.splice(0, 4).map((r, i) =>
        instances[i % 2]!.responses.updatePartial(form.id, r.id, {
          answers: r.answers, completed_at: at(2 * DAY), completion_seconds: 9, quiz_results: null, unique_visitor: null, submitted_at: at(2 * DAY),
        }),
      ),
    ]);
  }
  await Promise.all([db.indexer.drain(), second.indexer.drain()]);
  await equalsRecount(t, db, form.id, 'two instances');
  const a = await second.storage.responses.analytics(form.id);
  t.is(a.total, 240);
});

/*
 * A statement that names responses by id and checks their form (the indexer's claims and reads, a bulk delete's)
 * must seek by id: without statistics, SQLite's planner otherwise takes an index on `form_id` and reads every
 * response of the form for each statement (sql/dialect.ts, `filterOnly`).
 */
test('sqlite: reads of responses by id within a form seek by id, however many responses the form has', async (t) => {
  const db = await createTestDatabase('sqlite');
  t.teardown(() => db.close());
  const d = dialectOf(db.dataSource);
  // A batch's worth of ids (500): with a few, SQLite seeks by id anyway.
  const ids = Array.from({ length: 500 }, (_, i) => `rsp_${i}`);
  const list = ids.map((_, i) => `?${i + 2}`).join(', ');
  const plan = async (sql: string) => (await db.raw(`EXPLAIN QUERY PLAN ${sql}`, ['frm_x', ...ids])).map((r) => String(r.detail)).join('\n');
  t.regex(await plan(`SELECT id, answers FROM responses WHERE form_id = ?1 AND id IN (${list})`), /USING (COVERING )?INDEX \w+ \(form_id=\?\)/, 'the plan this guards against');
  t.regex(await plan(`SELECT id, answers FROM responses WHERE ${filterOnly(d, 'form_id')} = ?1 AND id IN (${list})`), /SEARCH responses USING INDEX sqlite_autoindex_responses_1 \(id=\?\)/);
  t.regex(
    await plan(`SELECT response_id FROM response_index_queue WHERE ${filterOnly(d, 'form_id')} = ?1 AND response_id IN (${list})`),
    /SEARCH response_index_queue USING (COVERING )?INDEX sqlite_autoindex_response_index_queue_1 \(response_id=\?\)/,
  );
  t.regex(await plan(`DELETE FROM uploads WHERE ${filterOnly(d, 'form_id')} = ?1 AND response_id IN (${list})`), /USING (COVERING )?INDEX IDX_uploads_response_created \(response_id=\?\)/);
  t.is(filterOnly({ ...d, kind: 'postgres' }, 'form_id'), 'form_id', 'PostgreSQL plans from its statistics');
});
