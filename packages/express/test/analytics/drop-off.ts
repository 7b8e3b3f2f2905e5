import test from '../helpers/bounded-test';
import type { SharedDb } from '../helpers/shared-apps';

/* The analytics object's per-question drop-off (docs/responses-and-webhooks.md, "Drop-off"). */
/** analytics.test.ts registers these on the apps its parts share (helpers/shared-apps.ts). */
export const register = (forEachDb: SharedDb) => forEachDb((it) => {
  it('analytics: question_drop_off counts who reached and answered each question, and follows deletions', async (t, app) => {
    const u = await app.user();
    const created = await app.api('POST', '/forms', {
      key: u.key,
      body: {
        title: 'Funnel',
        published: true,
        incremental_submission: true,
        questions: [
          { type: 'short_text', title: 'First' },
          { type: 'short_text', title: 'Second' },
          { type: 'short_text', title: 'Third' },
        ],
      },
    });
    t.is(created.status, 201, JSON.stringify(created.body));
    const form = created.body;
    const [q1, q2, q3] = form.questions.map((q: { id: string }) => q.id);
    const submit = async (answers: Array<[string, string]>, completed = true) => {
      const res = await app.api('POST', `/public/forms/${form.slug}/responses`, {
        body: { answers: answers.map(([question_id, value]) => ({ question_id, value })), ...(completed ? {} : { completed: false }) },
      });
      t.is(res.status, 201, JSON.stringify(res.body));
      return res.body.id as string;
    };
    const all = await submit([[q1, 'a'], [q2, 'b'], [q3, 'c']]);
    await submit([[q1, 'a'], [q3, 'c']]); // skipped the second question
    await submit([[q1, 'a']], false); // stopped after the first
    await submit([], false); // opened, answered nothing

    const dropOff = async () => (await app.api('GET', `/forms/${form.id}/analytics`, { key: u.key })).body.question_drop_off;
    t.deepEqual(await dropOff(), [
      { question_id: q1, reached: 3, answered: 3 },
      { question_id: q2, reached: 2, answered: 1 },
      { question_id: q3, reached: 2, answered: 2 },
    ]);
    t.is((await app.api('DELETE', `/forms/${form.id}/responses/${all}`, { key: u.key })).status, 200);
    t.deepEqual(await dropOff(), [
      { question_id: q1, reached: 2, answered: 2 },
      { question_id: q2, reached: 1, answered: 0 },
      { question_id: q3, reached: 1, answered: 1 },
    ]);
    const before = await app.api('GET', `/forms/${form.id}/analytics?until=2000-01-01`, { key: u.key });
    t.deepEqual(before.body.question_drop_off, [
      { question_id: q1, reached: 0, answered: 0 },
      { question_id: q2, reached: 0, answered: 0 },
      { question_id: q3, reached: 0, answered: 0 },
    ], 'a range without responses');
  });
});
