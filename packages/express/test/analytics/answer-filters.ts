import test from '../helpers/bounded-test';
import ExcelJS from 'exceljs';
import type { TestApp } from '../helpers/app';
import type { SharedDb } from '../helpers/shared-apps';

/*
 * Filters by answer and the funnel (issue 37; docs/responses-and-webhooks.md, "Filtering by answer" and
 * "Funnel"): one `filter` parameter with the same meaning and checks on the list, the analytics, the
 * summaries and every export format; bad filters are 400s naming the problem. On SQLite and PostgreSQL.
 */

const CITIES = ['Berlin', 'Paris', 'Lagos', 'Osaka'];

async function surveyWithResponses(app: TestApp) {
  const u = await app.user();
  const created = await app.api('POST', '/forms', {
    key: u.key,
    body: {
      title: 'Filter me',
      published: true,
      incremental_submission: true,
      questions: [
        { type: 'dropdown', title: 'Which city?', properties: { choices: CITIES.map((label) => ({ label })) } },
        { type: 'opinion_scale', title: 'Recommend us?', properties: { min: 0, max: 10 } },
        { type: 'short_text', title: 'Why?' },
        { type: 'multiple_choice', title: 'Pets', properties: { choices: [{ label: 'Cat' }, { label: 'Dog' }], allow_multiple: true } },
        { type: 'yes_no', title: 'News?' },
        { type: 'date', title: 'Start' },
      ],
    },
  });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  const form = created.body as { id: string; slug: string; questions: Array<{ id: string }> };
  const [city, nps, why, pets, news, start] = form.questions.map((q) => q.id) as [string, string, string, string, string, string];
  const submit = async (values: Record<string, unknown>, completed = true) => {
    const answers = Object.entries(values).map(([question_id, value]) => ({ question_id, value }));
    const res = await app.api('POST', `/public/forms/${form.slug}/responses`, {
      body: { answers, ...(completed ? { started_at: new Date(Date.now() - 90_000).toISOString() } : { completed: false }) },
    });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    return res.body as { id: string; resume_token?: string };
  };
  const ids = {
    a: (await submit({ [city]: 'Berlin', [nps]: 10, [why]: 'Great Coffee', [pets]: ['Cat', 'Dog'], [news]: true, [start]: '2026-03-01' })).id,
    b: (await submit({ [city]: 'Berlin', [nps]: 6, [why]: 'slow', [pets]: ['Dog'], [news]: false, [start]: '2026-05-01' })).id,
    c: (await submit({ [city]: 'Paris', [nps]: 9, [why]: 'coffee 100%', [news]: true })).id,
    d: (await submit({ [city]: 'Lagos', [nps]: 2 })).id,
  };
  const partial = await submit({ [city]: 'Berlin' }, false);
  return { u, form, q: { city, nps, why, pets, news, start }, ids, partial };
}

const f = (match: 'all' | 'any', ...conditions: Array<Record<string, unknown>>) => `filter=${encodeURIComponent(JSON.stringify({ match, conditions }))}`;

/** analytics.test.ts registers these on the apps its parts share (helpers/shared-apps.ts). */
export const register = (forEachDb: SharedDb) => forEachDb((it) => {
  it('one filter, the same answer on the list, analytics, summaries and every export; bad filters are 400s', async (t, app) => {
    const { u, form, q, ids, partial } = await surveyWithResponses(app);
    const list = async (query: string) => {
      const res = await app.api('GET', `/forms/${form.id}/responses?${query}`, { key: u.key });
      t.is(res.status, 200, JSON.stringify(res.body));
      return { ids: (res.body.responses as Array<{ id: string }>).map((r) => r.id).sort(), total: res.body.total as number };
    };
    const sorted = (...xs: string[]) => [...xs].sort();

    const berlin = f('all', { question_id: q.city, op: 'equals', value: 'berlin' });
    t.deepEqual(await list(berlin), { ids: sorted(ids.a, ids.b, partial.id), total: 3 }, 'a choice matches ignoring case, partial responses too');
    t.deepEqual(await list(`${berlin}&completed=true`), { ids: sorted(ids.a, ids.b), total: 2 });
    t.deepEqual(await list(f('all', { question_id: q.nps, op: 'greater_or_equal', value: 9 })), { ids: sorted(ids.a, ids.c), total: 2 }, 'NPS >= 9');
    t.deepEqual(await list(f('all', { question_id: q.nps, op: 'between', value: [2, 6] })), { ids: sorted(ids.b, ids.d), total: 2 });
    t.deepEqual(await list(f('all', { question_id: q.why, op: 'contains', value: 'COFFEE' })), { ids: sorted(ids.a, ids.c), total: 2 }, 'text contains ignoring case');
    t.deepEqual(await list(f('all', { question_id: q.why, op: 'contains', value: '100%' })), { ids: [ids.c], total: 1 }, '% is a character, not a wildcard');
    t.deepEqual(await list(f('all', { question_id: q.why, op: 'is_not_answered' })), { ids: sorted(ids.d, partial.id), total: 2 }, 'is empty');
    t.deepEqual(await list(f('all', { question_id: q.pets, op: 'equals', value: 'Dog' })), { ids: sorted(ids.a, ids.b), total: 2 }, 'one of several choices');
    t.deepEqual(await list(f('all', { question_id: q.pets, op: 'not_equals', value: 'Dog' })).then((r) => r.total), 3, 'unanswered passes not_equals');
    t.deepEqual(await list(f('all', { question_id: q.news, op: 'equals', value: true })), { ids: sorted(ids.a, ids.c), total: 2 });
    t.deepEqual(await list(f('all', { question_id: q.start, op: 'less_than', value: '2026-04-01' })), { ids: [ids.a], total: 1 });
    t.deepEqual(await list(f('all', { question_id: q.city, op: 'equals', value: 'Berlin' }, { question_id: q.nps, op: 'greater_or_equal', value: 9 })), { ids: [ids.a], total: 1 }, 'all');
    t.deepEqual(await list(f('any', { question_id: q.city, op: 'equals', value: 'Lagos' }, { question_id: q.nps, op: 'greater_or_equal', value: 9 })), { ids: sorted(ids.a, ids.c, ids.d), total: 3 }, 'any');
    t.deepEqual(await list(f('all', { question_id: q.city, op: 'is_any_of', value: ['Paris', 'Lagos'] })), { ids: sorted(ids.c, ids.d), total: 2 });
    t.deepEqual(await list(`${berlin}&version=1`), { ids: sorted(ids.a, ids.b, partial.id), total: 3 });
    t.deepEqual(await list(`${berlin}&version=2`), { ids: [], total: 0 });

    // Paging a filter by cursor keeps it; a cursor of another filter is refused.
    const first = await app.api('GET', `/forms/${form.id}/responses?per_page=2&${berlin}`, { key: u.key });
    t.is(first.body.responses.length, 2);
    const next = await app.api('GET', `/forms/${form.id}/responses?per_page=2&${berlin}&cursor=${first.body.next_cursor}`, { key: u.key });
    t.is(next.status, 200);
    t.is(next.body.responses.length, 1);
    t.is(next.body.total, 3);
    const other = await app.api('GET', `/forms/${form.id}/responses?per_page=2&${f('all', { question_id: q.city, op: 'equals', value: 'Paris' })}&cursor=${first.body.next_cursor}`, { key: u.key });
    t.is(other.status, 400);

    // Analytics and summaries of the same filter.
    const analytics = await app.api('GET', `/forms/${form.id}/analytics?${berlin}`, { key: u.key });
    t.is(analytics.status, 200, JSON.stringify(analytics.body));
    t.is(analytics.body.total_responses, 3);
    t.is(analytics.body.completed_responses, 2);
    const drop = Object.fromEntries(analytics.body.question_drop_off.map((x: { question_id: string; reached: number; answered: number }) => [x.question_id, x]));
    t.deepEqual([drop[q.city].reached, drop[q.city].answered], [3, 3]);
    t.deepEqual([drop[q.pets].answered, drop[q.start].reached], [2, 2], 'multiple choices count each response once');
    const summaries = await app.api('GET', `/forms/${form.id}/analytics/questions?${f('all', { question_id: q.nps, op: 'greater_or_equal', value: 9 })}`, { key: u.key });
    t.is(summaries.status, 200, JSON.stringify(summaries.body));
    t.is(summaries.body.total_responses, 2);
    const byId = Object.fromEntries(summaries.body.questions.map((s: { question_id: string }) => [s.question_id, s]));
    t.deepEqual(byId[q.city].choices.filter((c: { count: number }) => c.count > 0).map((c: { value: string; count: number }) => [c.value, c.count]), [['Berlin', 1], ['Paris', 1]]);
    t.is(byId[q.nps].nps, 100);
    t.is(byId[q.nps].nps_by_week, undefined, 'the weekly trend is of every response: left out under a filter');
    t.deepEqual(byId[q.why].latest.map((a: { value: string }) => a.value).sort(), ['Great Coffee', 'coffee 100%']);
    t.is(byId[q.why].answered, 2);

    // Every export format follows the filter.
    const get = (path: string) => fetch(`${app.url}/api/v1${path}`, { headers: { authorization: `Bearer ${u.key}` } });
    const csv = await (await get(`/forms/${form.id}/responses/export?${berlin}&completed=true`)).text();
    t.is(csv.trim().split('\r\n').length, 3, 'a header and two responses');
    const json = (await (await get(`/forms/${form.id}/responses/export?format=json&${berlin}`)).json()) as Array<{ id: string }>;
    t.deepEqual(json.map((r) => r.id).sort(), sorted(ids.a, ids.b, partial.id));
    const xlsx = await get(`/forms/${form.id}/responses/export?format=xlsx&${berlin}&completed=false`);
    t.is(xlsx.status, 200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await xlsx.arrayBuffer()) as ArrayBuffer);
    t.is(wb.worksheets[0]!.actualRowCount, 2, 'a header and the partial response');

    // A completed partial response and a deletion move the index with them.
    const done = await app.api('PATCH', `/public/forms/${form.slug}/responses/${partial.id}`, {
      headers: { 'X-Resume-Token': partial.resume_token! },
      body: { answers: [{ question_id: q.city, value: 'Osaka' }], completed: true },
    });
    t.is(done.status, 200, JSON.stringify(done.body));
    t.deepEqual(await list(berlin), { ids: sorted(ids.a, ids.b), total: 2 });
    t.deepEqual(await list(f('all', { question_id: q.city, op: 'equals', value: 'Osaka' })), { ids: [partial.id], total: 1 });
    t.is((await app.api('DELETE', `/forms/${form.id}/responses/${ids.a}`, { key: u.key })).status, 200);
    t.deepEqual(await list(berlin), { ids: [ids.b], total: 1 });

    // Bad filters: one 400 in the documented shape, naming the field and the problem, on every endpoint.
    const bad = async (query: string, words: RegExp) => {
      for (const path of ['/responses', '/analytics', '/analytics/questions', '/responses/export', '/responses/export?format=json']) {
        const res = await app.api('GET', `/forms/${form.id}${path}${path.includes('?') ? '&' : '?'}${query}`, { key: u.key });
        t.is(res.status, 400, `${path}?${query}`);
        t.is(res.body.error.code, 'BAD_REQUEST');
        t.regex(res.body.error.message, words, `${path}?${query}`);
      }
    };
    await bad('filter=%7Bnope', /filter: is not valid JSON/);
    await bad(f('all', { question_id: 'q_missing', op: 'equals', value: 'x' }), /filter.conditions\[0\].question_id: "q_missing" is not a question of this form/);
    await bad(f('all', { question_id: q.city, op: 'greater_than', value: 3 }), /filter.conditions\[0\].op: "greater_than" does not apply to a dropdown question; use one of equals/);
    await bad(f('all', { question_id: q.city, op: 'equals', value: 'Rome' }), /"Rome" is not one of the choices/);
    await bad(f('all', { question_id: q.nps, op: 'greater_or_equal', value: 'nine' }), /filter.conditions\[0\].value: must be a number/);
    await bad(f('all', { question_id: q.nps, op: 'between', value: [9, 2] }), /low must not be above high/);
    await bad(f('all', { question_id: q.why, op: 'is_answered', value: 'x' }), /is_answered takes no value/);
    await bad(`filter=${encodeURIComponent(JSON.stringify({ match: 'some', conditions: [] }))}`, /filter.match: must be "all" or "any"/);
    await bad('version=zero', /version: must be a version number/);
  });

  it('funnel: views, starts, each question reached, completed, drop-off and the median time, per version', async (t, app) => {
    const { u, form, q } = await surveyWithResponses(app);
    for (const event of ['view', 'view', 'view', 'view', 'view', 'view', 'start', 'start', 'start', 'start', 'start']) {
      const res = await app.api('POST', `/public/forms/${form.slug}/visits`, { body: { event } });
      t.is(res.status, 200, JSON.stringify(res.body));
    }
    t.is((await app.api('POST', `/public/forms/${form.slug}/visits`, { body: { event: 'click' } })).status, 400);
    t.is((await app.api('POST', '/public/forms/nope/visits', { body: { event: 'view' } })).status, 404);
    const read = async (query = '') => {
      const res = await app.api('GET', `/forms/${form.id}/analytics/funnel${query}`, { key: u.key });
      t.is(res.status, 200, JSON.stringify(res.body));
      return res.body as { version: number; versions: number[]; steps: Array<{ kind: string; question_id: string | null; count: number; drop_off: number; drop_off_rate: number }>; median_completion_seconds: number | null; completion_rate: number };
    };
    const v1 = await read();
    t.is(v1.version, 1);
    t.deepEqual(v1.versions, [1]);
    t.deepEqual(
      v1.steps.map((s) => [s.kind, s.count]),
      [['views', 6], ['starts', 5], ['question', 5], ['question', 4], ['question', 3], ['question', 3], ['question', 3], ['question', 2], ['completed', 4]],
    );
    t.is(v1.steps[0]!.question_id, null);
    t.is(v1.steps[2]!.question_id, q.city);
    t.deepEqual([v1.steps[1]!.drop_off, v1.steps[1]!.drop_off_rate], [1, 16.67]);
    t.is(v1.completion_rate, 66.67);
    t.true(v1.median_completion_seconds! >= 89 && v1.median_completion_seconds! <= 95, String(v1.median_completion_seconds));

    // A second version counts apart; the first stays readable.
    t.is((await app.api('PUT', `/forms/${form.id}`, { key: u.key, body: { title: 'Filter me again' } })).status, 200);
    const published = await app.api('POST', `/forms/${form.id}/publish`, { key: u.key });
    t.is(published.status, 200, JSON.stringify(published.body));
    await app.api('POST', `/public/forms/${form.slug}/visits`, { body: { event: 'view' } });
    const v2 = await read('?version=2');
    t.is(v2.version, 2);
    t.deepEqual(v2.steps.map((s) => s.count), [1, 0, 0, 0, 0, 0, 0, 0, 0]);
    t.is(v2.median_completion_seconds, null);
    t.deepEqual((await read()).versions, [2, 1]);
    t.is((await read('?version=1')).steps[0]!.count, 6);
    t.is((await app.api('GET', `/forms/${form.id}/analytics/funnel?version=9`, { key: u.key })).status, 404);
    t.is((await app.api('GET', `/forms/${form.id}/analytics/funnel?version=x`, { key: u.key })).status, 400);
  });
});
