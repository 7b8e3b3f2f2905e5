import test from '../helpers/bounded-test';
import type { SharedDb } from '../helpers/shared-apps';

/* GET /forms/:id/analytics/questions (docs/responses-and-webhooks.md, "Question summaries"), on SQLite and PostgreSQL. */
/** analytics.test.ts registers these on the apps its parts share (helpers/shared-apps.ts). */
export const register = (forEachDb: SharedDb) => forEachDb((it) => {
  it('question summaries: distributions, scale mean and NPS, number median, dates, latest text; deletions follow', async (t, app) => {
    const u = await app.user();
    const created = await app.api('POST', '/forms', {
      key: u.key,
      body: {
        title: 'Survey',
        published: true,
        incremental_submission: true,
        questions: [
          { type: 'multiple_choice', title: 'Fruits', properties: { choices: [{ label: 'Apple' }, { label: 'Pear' }, { label: 'Plum' }], allow_multiple: true } },
          { type: 'yes_no', title: 'Happy?' },
          { type: 'rating', title: 'Stars', properties: { steps: 5 } },
          { type: 'opinion_scale', title: 'Recommend?' },
          { type: 'number', title: 'Age' },
          { type: 'date', title: 'When' },
          { type: 'short_text', title: 'Why' },
        ],
      },
    });
    t.is(created.status, 201, JSON.stringify(created.body));
    const form = created.body;
    const [fruits, happy, stars, nps, age, when, why] = form.questions.map((q: { id: string }) => q.id);
    const submit = async (values: Record<string, unknown>, completed = true) => {
      const answers = Object.entries(values).map(([question_id, value]) => ({ question_id, value }));
      const res = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers, ...(completed ? {} : { completed: false }) } });
      t.is(res.status, 201, JSON.stringify(res.body));
      return res.body.id as string;
    };
    await submit({ [fruits]: ['Apple', 'Pear'], [happy]: true, [stars]: 5, [nps]: 10, [age]: 30, [when]: '2026-01-02', [why]: 'first' });
    await submit({ [fruits]: ['Apple'], [happy]: false, [stars]: 3, [nps]: 9, [age]: 40, [when]: '2026-01-02', [why]: 'second' });
    const third = await submit({ [fruits]: ['Plum'], [happy]: true, [stars]: 4, [nps]: 2, [age]: 1234.5678, [when]: '2026-01-05' });
    await submit({ [stars]: 1 }, false);

    const read = async (query = '') => {
      const res = await app.api('GET', `/forms/${form.id}/analytics/questions${query}`, { key: u.key });
      t.is(res.status, 200, JSON.stringify(res.body));
      return res.body as { total_responses: number; questions: Array<Record<string, any>> };
    };
    let s = await read();
    t.is(s.total_responses, 4);
    t.deepEqual(s.questions.map((q) => q.question_id), form.questions.map((q: { id: string }) => q.id), 'every question, in order');
    const [f, h, r, o, n, d, w] = s.questions;
    t.is(f!.kind, 'choices');
    t.is(f!.answered, 3);
    t.deepEqual(f!.choices, [
      { value: 'Apple', count: 2, share: 66.67 },
      { value: 'Pear', count: 1, share: 33.33 },
      { value: 'Plum', count: 1, share: 33.33 },
    ]);
    t.deepEqual(h!.choices, [
      { value: 'true', count: 2, share: 66.67 },
      { value: 'false', count: 1, share: 33.33 },
    ]);
    t.is(r!.kind, 'scale');
    t.deepEqual(r!.histogram.map((b: { count: number }) => b.count), [1, 0, 1, 1, 1], 'partial responses count too');
    t.is(r!.mean, 3.25);
    t.is(o!.histogram.length, 11);
    t.is(o!.nps, 33, '2 promoters, 1 detractor of 3');
    t.is(r!.nps, undefined, 'NPS only for a 0-10 scale');
    t.deepEqual([n!.min, n!.median, n!.max], [30, 40, 1230], 'numbers to 3 significant digits');
    t.deepEqual(d!.by_day, [{ date: '2026-01-02', count: 2 }, { date: '2026-01-05', count: 1 }]);
    t.is(w!.kind, 'text');
    t.deepEqual(w!.latest.map((a: { value: string }) => a.value), ['second', 'first'], 'newest first');

    t.is((await app.api('DELETE', `/forms/${form.id}/responses/${third}`, { key: u.key })).status, 200);
    s = await read();
    t.deepEqual(s.questions[0]!.choices.map((b: { count: number }) => b.count), [2, 1, 0], 'a deleted response leaves the counts');
    t.deepEqual([s.questions[4]!.min, s.questions[4]!.median, s.questions[4]!.max], [30, 35, 40]);
    t.is(s.questions[3]!.nps, 100);

    const empty = await read('?until=2000-01-01');
    t.is(empty.total_responses, 0);
    t.deepEqual(empty.questions[0]!.choices.map((b: { count: number }) => b.count), [0, 0, 0]);
    t.is(empty.questions[2]!.mean, null);
    t.deepEqual(empty.questions[6]!.latest, []);

    const bad = await app.api('GET', `/forms/${form.id}/analytics/questions?since=yesterday`, { key: u.key });
    t.is(bad.status, 400);
    t.is(bad.body.error.code, 'BAD_REQUEST');
    t.regex(bad.body.error.message, /since/);
    const stranger = await app.user();
    const other = await app.api('GET', `/forms/${form.id}/analytics/questions`, { key: stranger.key });
    t.true(other.status === 403 || other.status === 404, String(other.status));
  });

  it('question summaries (additive fields): NPS split and weekly trend, number mean and bins, other answers, files, group sub-questions', async (t, app) => {
    const u = await app.user();
    const created = await app.api('POST', '/forms', {
      key: u.key,
      body: {
        title: 'Charts',
        published: true,
        questions: [
          { type: 'opinion_scale', title: 'Recommend?' },
          { type: 'number', title: 'Age' },
          { type: 'multiple_choice', title: 'Pick', properties: { choices: [{ label: 'A' }, { label: 'B' }], allow_other: true } },
          { type: 'file_upload', title: 'Upload' },
          { type: 'question_group', title: 'About you', properties: { questions: [{ id: 'city', type: 'dropdown', title: 'City' }, { id: 'years', type: 'number', title: 'Years' }, { id: 'note', type: 'short_text', title: 'Note' }] } },
        ],
      },
    });
    t.is(created.status, 201, JSON.stringify(created.body));
    const form = created.body;
    const [nps, age, pick, upload, group] = form.questions.map((q: { id: string }) => q.id);
    const rows: Array<[number, number, string, Record<string, unknown>]> = [
      [10, 20, 'A', { city: 'Oslo', years: 3, note: 'hi' }],
      [9, 30, 'A', { city: 'Oslo', years: 5 }],
      [8, 40, 'B', { city: 'Rome' }],
      [3, 50, 'Kiwi', {}],
    ];
    for (const [score, n, choice, g] of rows) {
      const answers = [
        { question_id: nps, value: score },
        { question_id: age, value: n },
        { question_id: pick, value: choice },
        { question_id: group, value: g },
        ...(score === 10 ? [{ question_id: upload, value: { url: `${app.url}/api/v1/public/uploads/${form.id}/${'ab'.repeat(16)}/cv.pdf`, name: 'cv.pdf' } }] : []),
      ];
      const res = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers } });
      t.is(res.status, 201, JSON.stringify(res.body));
    }
    const res = await app.api('GET', `/forms/${form.id}/analytics/questions`, { key: u.key });
    t.is(res.status, 200, JSON.stringify(res.body));
    const [o, n, c, f, g] = res.body.questions;
    t.deepEqual(o.nps_split, { promoters: { count: 2, share: 50 }, passives: { count: 1, share: 25 }, detractors: { count: 1, share: 25 } });
    t.is(o.nps, 25);
    t.is(o.nps_by_week.length, 12, 'the last 12 weeks');
    const thisWeek = o.nps_by_week[11];
    t.deepEqual([thisWeek.answered, thisWeek.nps], [4, 25], 'this week holds every response');
    t.regex(thisWeek.week, /^\d{4}-\d{2}-\d{2}$/);
    t.is(new Date(`${thisWeek.week}T00:00:00Z`).getUTCDay(), 1, 'weeks start on Monday');
    t.deepEqual(o.nps_by_week[0], { week: o.nps_by_week[0].week, answered: 0, nps: null });
    t.is(n.mean, 35);
    t.is(n.bins.reduce((s: number, b: { count: number }) => s + b.count, 0), 4, 'every answer in a bin');
    t.deepEqual(n.bins.map((b: { from: number; to: number; count: number }) => [b.from, b.to, b.count]), [[20, 27, 1], [28, 35, 1], [36, 43, 1], [44, 50, 1]], 'whole numbers: whole bins up to max');
    t.deepEqual(c.choices, [
      { value: 'A', count: 2, share: 50 },
      { value: 'B', count: 1, share: 25 },
      { value: 'Kiwi', count: 1, share: 25, other: true },
    ]);
    t.is(f.kind, 'none');
    t.deepEqual(f.files.map((x: { name: string }) => x.name), ['cv.pdf'], 'the newest files');
    t.regex(f.files[0].url, /cv\.pdf/);
    t.is(g.kind, 'none');
    t.is(g.sub_questions_sample, 4);
    t.deepEqual(g.sub_questions.map((s: { question_id: string; kind: string; answered: number }) => [s.question_id, s.kind, s.answered]), [['city', 'choices', 3], ['years', 'number', 2], ['note', 'text', 1]]);
    t.deepEqual(g.sub_questions[0].choices.map((b: { value: string; count: number }) => [b.value, b.count]).sort(), [['Oslo', 2], ['Rome', 1]]);
    t.deepEqual([g.sub_questions[1].min, g.sub_questions[1].max, g.sub_questions[1].mean], [3, 5, 4]);
    t.deepEqual(g.sub_questions[2].latest.map((l: { value: string }) => l.value), ['hi']);

    const ranged = await app.api('GET', `/forms/${form.id}/analytics/questions?until=2000-01-09`, { key: u.key });
    t.deepEqual(ranged.body.questions[0].nps_by_week.at(-1), { week: '2000-01-03', answered: 0, nps: null }, 'weeks end with until');
  });
});
