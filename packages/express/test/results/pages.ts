import test from '../helpers/bounded-test';
import { insertResponses, makeResponse } from '@formloom/core/testing';
import type { TestApp } from '../helpers/app';
import type { SharedDb } from '../helpers/shared-apps';

/*
 * The responses list reads totals from the analytics rollup and finds deep pages by a keyset seek
 * (docs/responses-and-webhooks.md): every page must still be exactly what COUNT and OFFSET gave, with and
 * without filters, with many responses sharing an instant.
 */

const BASE = Date.parse('2026-03-01T22:00:00.000Z');

let seeded = 0;

async function seed(app: TestApp, key: string) {
  const tag = ++seeded;
  const form = await app.api('POST', '/forms', { key, body: { title: 'Pages', questions: [{ type: 'short_text', title: 'Name' }] } });
  const formId: string = form.body.id;
  // 260 responses over four UTC days, 4 per instant (ties on submitted_at), inserted in no particular order.
  const responses = Array.from({ length: 260 }, (_, i) => {
    const j = (i * 97) % 260;
    const when = new Date(BASE + Math.floor(j / 4) * 4_321_000).toISOString();
    return makeResponse(formId, 0, {
      id: `rsp_${tag}_${String(j).padStart(4, '0')}`,
      submitted_at: when,
      completed_at: j % 3 === 0 ? null : when,
      completion_seconds: j % 3 === 0 ? null : j,
    });
  });
  await insertResponses(app.formloom.storage, responses);
  return { formId, rid: (j: number) => `rsp_${tag}_${String(j).padStart(4, '0')}` };
}

/** What `ORDER BY submitted_at DESC, id DESC` with COUNT, LIMIT and OFFSET gives, by raw SQL. */
async function oracle(app: TestApp, formId: string, where: string, perPage: number, page: number) {
  const filter = `form_id = '${formId}'${where}`;
  const ids = await app.raw(
    `SELECT id FROM responses WHERE ${filter} ORDER BY submitted_at DESC, id DESC LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`,
  );
  const [count] = await app.raw(`SELECT COUNT(*) AS n FROM responses WHERE ${filter}`);
  return { ids: ids.map((r: { id: string }) => r.id), total: Number(count.n) };
}

/** results.test.ts registers these on the apps its parts share (helpers/shared-apps.ts). */
export const register = (forEachDb: SharedDb) => forEachDb((it) => {
  it('every page of the responses list equals COUNT and OFFSET, with and without filters, ties included', async (t, app) => {
    const u = await app.user();
    const { formId } = await seed(app, u.key);
    const day = (offsetDays: number) => new Date(BASE + offsetDays * 86_400_000).toISOString().slice(0, 10);
    const cases: Array<{ query: string; where: string }> = [
      { query: '', where: '' },
      { query: 'completed=true', where: ' AND completed_at IS NOT NULL' },
      { query: 'completed=false', where: ' AND completed_at IS NULL' },
      { query: `since=${day(1)}&until=${day(2)}`, where: ` AND submitted_at >= '${day(1)}T00:00:00.000Z' AND submitted_at <= '${day(2)}T23:59:59.999Z'` },
      { query: `since=${day(1)}&completed=false`, where: ` AND submitted_at >= '${day(1)}T00:00:00.000Z' AND completed_at IS NULL` },
      // A bound inside a day takes the plain path; the pages are the same.
      { query: `since=${day(1)}T05:00:00.000Z`, where: ` AND submitted_at >= '${day(1)}T05:00:00.000Z'` },
    ];
    for (const { query, where } of cases) {
      for (const perPage of [7, 50]) {
        const expectedAll = await oracle(app, formId, where, 1000, 1);
        const pages = Math.ceil(expectedAll.total / perPage) + 1; // and one past the end
        const seen: string[] = [];
        for (let page = 1; page <= pages; page++) {
          const res = await app.api('GET', `/forms/${formId}/responses?${query}${query ? '&' : ''}per_page=${perPage}&page=${page}`, { key: u.key });
          t.is(res.status, 200);
          const expected = await oracle(app, formId, where, perPage, page);
          const label = `${query || 'no filter'}, per_page ${perPage}, page ${page}`;
          t.deepEqual(res.body.responses.map((r: { id: string }) => r.id), expected.ids, label);
          t.deepEqual([res.body.total, res.body.page, res.body.per_page], [expected.total, page, perPage], label);
          seen.push(...res.body.responses.map((r: { id: string }) => r.id));
        }
        t.deepEqual(seen, expectedAll.ids, `${query || 'no filter'}: the pages cover every response once`);
      }
    }
  });

  it('the list stays exact after deletions and completions change the rollup', async (t, app) => {
    const u = await app.user();
    const { formId, rid } = await seed(app, u.key);
    const { storage } = app.formloom;
    t.true(await storage.transaction((tx) => tx.responses.delete(formId, rid(100))));
    const bulk = await app.api('POST', `/forms/${formId}/responses/bulk-delete`, { key: u.key, body: { response_ids: [rid(1), rid(130), rid(259)] } });
    t.is(bulk.body.deleted, 3);
    const later = new Date(BASE + 2 * 86_400_000).toISOString();
    t.true(
      await storage.transaction((tx) =>
        tx.responses.updatePartial(formId, rid(3), { answers: [], completed_at: later, completion_seconds: 5, quiz_results: null, unique_visitor: null, submitted_at: later }),
      ),
    );
    for (const [query, where] of [['', ''], ['completed=false', ' AND completed_at IS NULL'], ['completed=true', ' AND completed_at IS NOT NULL']]) {
      for (const page of [1, 3, 6]) {
        const res = await app.api('GET', `/forms/${formId}/responses?${query}&per_page=40&page=${page}`, { key: u.key });
        const expected = await oracle(app, formId, where!, 40, page);
        t.deepEqual([res.body.responses.map((r: { id: string }) => r.id), res.body.total], [expected.ids, expected.total], `${query} page ${page}`);
      }
    }
  });
});
