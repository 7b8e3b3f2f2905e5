import type { ResponseRecord } from '../../domain/types';
import {
  at,
  count,
  makeForm,
  makeResponse,
  rejectsWithConflict,
  type StorageHarnessInstance,
  type StorageTest,
  uid,
} from './fixtures';

const DAY = 86_400;
const ids = (rows: { id: string }[]) => rows.map((r) => r.id);
const fromJsonColumn = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);

async function newForm(db: StorageHarnessInstance) {
  const form = makeForm();
  await db.storage.forms.insert(form);
  return form;
}

/** A partial response (not completed) submitted `seconds` after the fixed instant. */
const partial = (formId: string, seconds: number, over: Partial<ResponseRecord> = {}) =>
  makeResponse(formId, seconds, { completed_at: null, completion_seconds: null, resume_token_hash: 'ab'.repeat(32), ...over });

/** responses: writes, unique visitors, conditional completion, listing, keyset scan, analytics. */
export function responseTests(test: StorageTest): void {
  test('responses: insert and find by form and id, JSON as written in the table', async (t, db) => {
    const form = await newForm(db);
    const response = makeResponse(form.id, 5, {
      visitor_id: 'vis_1',
      version_id: uid('ver'),
      version: 3,
      answers: [
        { question_id: 'q1', value: 'Ada' },
        { question_id: 'q2', value: ['a', 'b'] },
        { question_id: 'q3', value: { nested: [1, null, true] } },
      ],
      metadata: { user_agent: 'Mozilla/5.0', referrer: 'https://example.org/' },
      quiz_results: {
        score: 2,
        correct_answers: 2,
        total_scorable_questions: 3,
        max_score: 3,
        matched_ending_id: null,
        form_mode: 'knowledge_quiz',
      },
    });
    await db.storage.responses.insert(response);
    t.deepEqual(await db.storage.responses.findById(form.id, response.id), response);
    t.is(await db.storage.responses.findById(uid('frm'), response.id), null, 'another form sees no such response');
    t.is(await db.storage.responses.findById(form.id, uid('rsp')), null);

    const [row] = await db.probes.responses({ id: response.id });
    t.is(row.form_id, form.id);
    t.deepEqual(fromJsonColumn(row.answers), response.answers);
    t.deepEqual(fromJsonColumn(row.metadata), response.metadata);
    t.deepEqual(fromJsonColumn(row.quiz_results), response.quiz_results);
    t.is(Number(row.completion_seconds), 30);
    t.is(row.unique_visitor, null);

    const bare = partial(form.id, 6);
    await db.storage.responses.insert(bare);
    t.deepEqual(await db.storage.responses.findById(form.id, bare.id), bare);
    await rejectsWithConflict(t, db.storage.responses.insert({ ...bare, submitted_at: at(7) }), 'same id');
  });

  test('responses: a repeated unique_visitor of a form is a CONFLICT; NULLs and other forms never collide', async (t, db) => {
    const [form, other] = [await newForm(db), await newForm(db)];
    const visitor = uid('vis');
    await db.storage.responses.insert(makeResponse(form.id, 1, { visitor_id: visitor, unique_visitor: visitor }));
    await rejectsWithConflict(
      t,
      db.storage.responses.insert(makeResponse(form.id, 2, { visitor_id: visitor, unique_visitor: visitor })),
      'same form, same unique_visitor',
    );
    await db.storage.responses.insert(makeResponse(other.id, 3, { unique_visitor: visitor }));
    for (let i = 0; i < 3; i++) await db.storage.responses.insert(makeResponse(form.id, 4 + i, { visitor_id: visitor }));
    t.is(await count(db.probes.responses({ form_id: form.id, unique_visitor: visitor })), 1);
    t.is(await count(db.probes.responses({ form_id: form.id })), 4);

    t.true(await db.storage.responses.hasUniqueVisitor(form.id, visitor));
    t.false(await db.storage.responses.hasUniqueVisitor(form.id, uid('vis')));
    t.false(await db.storage.responses.hasUniqueVisitor(uid('frm'), visitor));

    // The refused insert must not break the transaction it runs in (PostgreSQL aborts one on an error).
    const after = makeResponse(form.id, 9);
    await db.storage.transaction(async (tx) => {
      await rejectsWithConflict(t, tx.responses.insert(makeResponse(form.id, 8, { unique_visitor: visitor })), 'in a transaction');
      await tx.responses.insert(after);
    });
    t.truthy(await db.storage.responses.findById(form.id, after.id));
  });

  test('concurrency: 10 inserts of the same form and unique_visitor, exactly one row', async (t, db) => {
    const form = await newForm(db);
    const visitor = uid('vis');
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => {
        const response = makeResponse(form.id, i, { visitor_id: visitor, unique_visitor: visitor });
        return i % 2 === 0
          ? db.storage.responses.insert(response)
          : db.storage.transaction((tx) => tx.responses.insert(response));
      }),
    );
    t.is(results.filter((r) => r.status === 'fulfilled').length, 1);
    for (const r of results) {
      if (r.status === 'rejected') t.is((r.reason as { code?: string }).code, 'CONFLICT');
    }
    t.is(await count(db.probes.responses({ form_id: form.id })), 1);
  });

  test('responses: updatePartial changes a partial response only, once', async (t, db) => {
    const form = await newForm(db);
    const response = partial(form.id, 10, { visitor_id: 'vis_p', answers: [{ question_id: 'q1', value: 'draft' }] });
    await db.storage.responses.insert(response);
    const draft = {
      answers: [{ question_id: 'q1', value: 'more' }],
      completed_at: null,
      completion_seconds: null,
      quiz_results: null,
      unique_visitor: null,
      submitted_at: at(11),
    };
    t.true(await db.storage.responses.updatePartial(form.id, response.id, draft), 'still partial after a partial update');
    t.deepEqual(await db.storage.responses.findById(form.id, response.id), { ...response, ...draft });

    const done = {
      answers: [{ question_id: 'q1', value: 'final' }, { question_id: 'q2', value: 7 }],
      completed_at: at(20),
      completion_seconds: 40,
      quiz_results: { score: 1, correct_answers: 1, total_scorable_questions: 1, max_score: 1, matched_ending_id: 'end_1', form_mode: 'match_quiz' as const },
      unique_visitor: 'vis_p',
      submitted_at: at(20),
    };
    t.true(await db.storage.responses.updatePartial(form.id, response.id, done));
    t.deepEqual(await db.storage.responses.findById(form.id, response.id), { ...response, ...done });
    t.false(await db.storage.responses.updatePartial(form.id, response.id, { ...done, completion_seconds: 99 }), 'already completed');
    t.false(await db.storage.responses.updatePartial(uid('frm'), response.id, draft), 'not the form\'s');
    t.false(await db.storage.responses.updatePartial(form.id, uid('rsp'), draft), 'missing');
    const [row] = await db.probes.responses({ id: response.id });
    t.is(Number(row.completion_seconds), 40);
    t.is(row.completed_at, at(20));

    const second = partial(form.id, 30, { visitor_id: 'vis_p' });
    await db.storage.responses.insert(second);
    await rejectsWithConflict(
      t,
      db.storage.responses.updatePartial(form.id, second.id, { ...done, submitted_at: at(31) }),
      'completing with a unique_visitor the form already has',
    );
    t.deepEqual(await db.storage.responses.findById(form.id, second.id), second, 'nothing written');

    // `metadata` given replaces the stored one (a Fuse completion's link); absent, it was kept above.
    const third = partial(form.id, 40);
    await db.storage.responses.insert(third);
    const metadata = { ...third.metadata, fused_to: { form_id: uid('frm'), response_id: uid('rsp') } };
    t.true(await db.storage.responses.updatePartial(form.id, third.id, { ...done, unique_visitor: null, metadata }));
    t.deepEqual((await db.storage.responses.findById(form.id, third.id))?.metadata, metadata);
  });

  test('concurrency: 10 updatePartial completing one response, exactly one succeeds', async (t, db) => {
    const form = await newForm(db);
    const response = partial(form.id, 0);
    await db.storage.responses.insert(response);
    const complete = (i: number) => ({
      answers: [{ question_id: 'q1', value: `final ${i}` }],
      completed_at: at(100 + i),
      completion_seconds: 100 + i,
      quiz_results: null,
      unique_visitor: null,
      submitted_at: at(100 + i),
    });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        i % 2 === 0
          ? db.storage.responses.updatePartial(form.id, response.id, complete(i))
          : db.storage.transaction((tx) => tx.responses.updatePartial(form.id, response.id, complete(i))),
      ),
    );
    t.is(results.filter(Boolean).length, 1);
    const winner = results.indexOf(true);
    const stored = await db.storage.responses.findById(form.id, response.id);
    t.deepEqual(stored, { ...response, ...complete(winner) }, 'the winner\'s write, whole');
  });

  test('responses: list filters by submitted_at (inclusive) and completion, newest first, pages with the total', async (t, db) => {
    const form = await newForm(db);
    const base = uid('rsp');
    const rows = [
      makeResponse(form.id, 10, { id: `${base}_1` }),
      partial(form.id, 20, { id: `${base}_2a` }),
      makeResponse(form.id, 20, { id: `${base}_2b` }),
      makeResponse(form.id, 30, { id: `${base}_3` }),
      partial(form.id, 40, { id: `${base}_4` }),
    ];
    const [r1, r2a, r2b, r3, r4] = rows;
    for (const r of [r3, r1, r4, r2a, r2b]) await db.storage.responses.insert(r);
    await db.storage.responses.insert(makeResponse((await newForm(db)).id, 25));
    const list = (q: object) => db.storage.responses.list({ formId: form.id, offset: 0, limit: 20, ...q });

    const all = await list({});
    t.deepEqual(ids(all.items), ids([r4, r3, r2b, r2a, r1]), 'ties by id, descending');
    t.is(all.total, 5);
    t.deepEqual(all.items[0], r4);
    t.deepEqual(ids((await list({ completed: true })).items), ids([r3, r2b, r1]));
    t.deepEqual(ids((await list({ completed: false })).items), ids([r4, r2a]));
    const window = await list({ since: at(20), until: at(30) });
    t.deepEqual(ids(window.items), ids([r3, r2b, r2a]), 'both bounds inclusive');
    t.is(window.total, 3);
    t.is((await list({ since: at(21), completed: true })).total, 1);
    t.is((await list({ until: at(19) })).total, 1);

    const page = await list({ offset: 1, limit: 2 });
    t.deepEqual(ids(page.items), ids([r3, r2b]));
    t.is(page.total, 5);
    const beyond = await list({ offset: 10, limit: 2 });
    t.deepEqual(beyond.items, []);
    t.is(beyond.total, 5);
    t.is((await db.storage.responses.list({ formId: uid('frm'), offset: 0, limit: 5 })).total, 0);
  });

  test('responses: delete, countOwned and deleteMany stay within the form', async (t, db) => {
    const [form, other] = [await newForm(db), await newForm(db)];
    const mine = Array.from({ length: 4 }, (_, i) => makeResponse(form.id, i));
    const theirs = makeResponse(other.id, 0);
    for (const r of [...mine, theirs]) await db.storage.responses.insert(r);

    t.false(await db.storage.responses.delete(form.id, theirs.id), 'not the form\'s');
    t.true(await db.storage.responses.delete(form.id, mine[0].id));
    t.false(await db.storage.responses.delete(form.id, mine[0].id));

    const asked = [mine[1].id, mine[1].id, mine[2].id, mine[0].id, theirs.id, uid('rsp')];
    t.is(await db.storage.responses.countOwned(form.id, asked), 2, 'distinct ids, the form\'s only');
    t.is(await db.storage.responses.countOwned(form.id, []), 0);
    t.is(await db.storage.responses.deleteMany(form.id, asked), 2);
    t.is(await db.storage.responses.deleteMany(form.id, []), 0);
    t.is(await count(db.probes.responses({ form_id: form.id })), 1);
    t.is(await count(db.probes.responses({ form_id: other.id })), 1);
    t.truthy(await db.storage.responses.findById(form.id, mine[3].id));
  });

  test('responses: scan pages through 250 rows in 3 calls, in keyset order, no duplicates or gaps', async (t, db) => {
    const [form, other] = [await newForm(db), await newForm(db)];
    const base = uid('rsp');
    // 40 distinct instants for 250 rows: most pages end inside a run of equal submitted_at.
    const rows = Array.from({ length: 250 }, (_, i) =>
      makeResponse(form.id, (i * 7) % 40, { id: `${base}_${String(i).padStart(3, '0')}` }),
    );
    for (let i = 0; i < rows.length; i += 50) {
      await db.storage.transaction(async (tx) => {
        for (const r of rows.slice(i, i + 50)) await tx.responses.insert(r);
      });
    }
    await db.storage.responses.insert(makeResponse(other.id, 5));
    const expected = [...rows]
      .sort((a, b) => (a.submitted_at < b.submitted_at ? -1 : a.submitted_at > b.submitted_at ? 1 : a.id < b.id ? -1 : 1))
      .map((r) => r.id);

    const pages: ResponseRecord[][] = [];
    let after: { submitted_at: string; id: string } | null = null;
    for (let call = 0; call < 3; call++) {
      const page: ResponseRecord[] = await db.storage.responses.scan(form.id, after, 100);
      pages.push(page);
      const last = page[page.length - 1];
      after = { submitted_at: last.submitted_at, id: last.id };
    }
    t.deepEqual(pages.map((p) => p.length), [100, 100, 50]);
    const seen = pages.flat();
    t.deepEqual(ids(seen), expected, '(submitted_at, id) ascending: no duplicate, no gap');
    t.deepEqual(seen[0], rows.find((r) => r.id === expected[0]));
    t.deepEqual(await db.storage.responses.scan(form.id, after, 100), [], 'nothing after the last key');
    t.deepEqual(await db.storage.responses.scan(uid('frm'), null, 100), []);
  });

  test('responses: analytics counts per UTC day, completion and the average, in [since, until]', async (t, db) => {
    const [form, other] = [await newForm(db), await newForm(db)];
    const rows = [
      makeResponse(form.id, 10, { completion_seconds: 10 }),
      makeResponse(form.id, DAY - 1, { completion_seconds: 20 }), // 23:59:59.000 of day 1
      partial(form.id, 500),
      makeResponse(form.id, DAY, { completion_seconds: 40 }), // 00:00:00.000 of day 2
      partial(form.id, DAY + 100, { completion_seconds: 999 }), // not completed: not in the average
      makeResponse(form.id, DAY + 200, { completion_seconds: null }), // completed, no duration
      makeResponse(form.id, 3 * DAY + 5, { completion_seconds: 90 }),
    ];
    for (const r of rows) await db.storage.responses.insert(r);
    for (let i = 0; i < 3; i++) await db.storage.responses.insert(makeResponse(other.id, DAY + i, { completion_seconds: 1 }));
    const analytics = db.storage.responses.analytics.bind(db.storage.responses);

    t.deepEqual(await analytics(form.id), {
      total: 7,
      completed: 5,
      average_completion_seconds: 40,
      by_day: [
        { date: '2030-01-01', total: 3, completed: 2 },
        { date: '2030-01-02', total: 3, completed: 2 },
        { date: '2030-01-04', total: 1, completed: 1 },
      ],
      questions: [],
    });
    t.deepEqual(await analytics(form.id, at(DAY - 1), at(DAY + 100)), {
      total: 3,
      completed: 2,
      average_completion_seconds: 30,
      by_day: [
        { date: '2030-01-01', total: 1, completed: 1 },
        { date: '2030-01-02', total: 2, completed: 1 },
      ],
      questions: [],
    }, 'both bounds inclusive');
    const since = await analytics(form.id, at(DAY));
    t.deepEqual([since.total, since.completed, since.average_completion_seconds], [4, 3, 65]);
    const until = await analytics(form.id, undefined, at(10));
    t.deepEqual(until, { total: 1, completed: 1, average_completion_seconds: 10, by_day: [{ date: '2030-01-01', total: 1, completed: 1 }], questions: [] });
    const empty = { total: 0, completed: 0, average_completion_seconds: null, by_day: [], questions: [] };
    t.deepEqual(await analytics(form.id, at(2 * DAY), at(3 * DAY)), empty);
    t.deepEqual(await analytics(uid('frm')), empty);

    const uneven = await analytics(form.id, undefined, at(DAY));
    t.true(Math.abs(uneven.average_completion_seconds! - 70 / 3) < 1e-9, 'a fractional mean is not rounded');
  });
}
