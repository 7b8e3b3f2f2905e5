import test from 'ava';
import type { ResponseRecord, Storage } from '@formloom/core';
import { at, makeForm, makeResponse } from '@formloom/core/testing';
import { openMigratedStorage } from '../../src';
import { createTestDatabase, type TestDatabaseKind } from '../../src/testing';

/*
 * Two app instances on one database (two storages, each with its own connections): their concurrent
 * submissions and completions all reach the analytics rollup exactly once (docs/responses-and-webhooks.md).
 */
for (const kind of ['sqlite', 'postgres'] as TestDatabaseKind[]) {
  test(`${kind}: two storages on one database keep the analytics rollup equal to a recount`, async (t) => {
    const db = await createTestDatabase(kind);
    t.teardown(() => db.close());
    const second = await openMigratedStorage(db.url);
    t.teardown(() => second.close());
    const form = makeForm();
    await db.storage.forms.insert(form);
    const instances: Storage[] = [db.storage, second];

    const partials = Array.from({ length: 16 }, (_, i) =>
      makeResponse(form.id, i * 3_600, { completed_at: null, completion_seconds: null, resume_token_hash: 'ef'.repeat(32) }),
    );
    await Promise.all(partials.map((r, i) => instances[i % 2]!.responses.insert(r)));
    const complete = (s: Storage, r: ResponseRecord) =>
      s.transaction((tx) =>
        tx.responses.updatePartial(form.id, r.id, {
          answers: r.answers, completed_at: at(86_400 * 2), completion_seconds: 9, quiz_results: null, unique_visitor: null, submitted_at: at(86_400 * 2),
        }),
      );
    const results = await Promise.all([
      ...partials.flatMap((r) => instances.map((s) => complete(s, r))),
      ...Array.from({ length: 30 }, (_, i) =>
        instances[i % 2]!.transaction((tx) => tx.responses.insert(makeResponse(form.id, (i % 3) * 86_400 + i))).then(() => null),
      ),
    ]);
    t.is(results.filter((r) => r === true).length, 16, 'each partial completes once');

    const p = db.placeholder;
    const recount = await db.raw(
      `SELECT substr(submitted_at, 1, 10) AS day, COUNT(*) AS total, COUNT(completed_at) AS completed FROM responses ` +
        `WHERE form_id = ${p(1)} GROUP BY substr(submitted_at, 1, 10) ORDER BY day`,
      [form.id],
    );
    const rolled = await db.raw(`SELECT day, total, completed FROM response_days WHERE form_id = ${p(1)} AND total > 0 ORDER BY day`, [form.id]);
    const norm = (rows: any[]) => rows.map((r) => ({ day: r.day, total: Number(r.total), completed: Number(r.completed) }));
    t.deepEqual(norm(rolled), norm(recount));
    t.deepEqual(norm(recount).reduce((n, r) => n + r.total, 0), 46);
    const a = await second.responses.analytics(form.id);
    t.deepEqual([a.total, a.completed, a.average_completion_seconds], [46, 46, (30 * 30 + 16 * 9) / 46]);
  });
}
