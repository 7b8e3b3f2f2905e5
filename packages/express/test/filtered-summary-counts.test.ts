import test from 'ava';
import { forEachDb, type TestApp } from './helpers/app';

/*
 * Filtered summaries from pair counts (issue 37; docs/decisions.md, "Filtered summaries from pair counts"): a
 * summary under one choice-like test is read from counters kept with each response, anything else from the
 * matching responses. The two must agree, before and after a partial response completes, a response is
 * deleted and a respondent is erased. The same test written twice (`all` of X and X) selects the same
 * responses but is always scanned, so comparing the two compares the counters with a full scan (and the list's
 * pages taken from the index with those looked up one by one).
 */

const CITIES = ['Berlin', 'Paris', 'Lagos', 'Osaka'];
const PETS = ['Cat', 'Dog', 'Fish'];

async function form(app: TestApp) {
  const u = await app.user();
  const created = await app.api('POST', '/forms', {
    key: u.key,
    body: {
      title: 'Counted',
      published: true,
      incremental_submission: true,
      questions: [
        { type: 'dropdown', title: 'City', properties: { choices: CITIES.map((label) => ({ label })) } },
        { type: 'opinion_scale', title: 'Recommend', properties: { min: 0, max: 10 } },
        { type: 'multiple_choice', title: 'Pets', properties: { choices: PETS.map((label) => ({ label })), allow_multiple: true, allow_other: true } },
        { type: 'short_text', title: 'Why' },
        { type: 'yes_no', title: 'News' },
        { type: 'rating', title: 'Stars', properties: { steps: 5 } },
        { type: 'number', title: 'Age' },
        { type: 'date', title: 'Start' },
      ],
    },
  });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  return { u, form: created.body as { id: string; slug: string; questions: Array<{ id: string }> } };
}

const f = (match: 'all' | 'any', ...conditions: Array<Record<string, unknown>>) => `filter=${encodeURIComponent(JSON.stringify({ match, conditions }))}`;

forEachDb(test, (it) => {
  it('a summary under one choice-like filter equals the scan of the matching responses, through completions, deletes and erasure', async (t, app) => {
    const { u, form: fm } = await form(app);
    const [city, nps, pets, why, news, stars, age, start] = fm.questions.map((q) => q.id) as string[];
    // 36 responses that answer different subsets: every third leaves questions out, every fifth is partial.
    const partials: Array<{ id: string; resume_token: string }> = [];
    const ids: string[] = [];
    for (let i = 0; i < 36; i++) {
      const v: Record<string, unknown> = { [city!]: CITIES[i % 4], [nps!]: i % 11 };
      if (i % 3 !== 0) Object.assign(v, { [pets!]: i % 7 === 0 ? ['Cat', 'Dog'] : i % 5 === 1 ? ['a goat'] : [PETS[i % 3]], [why!]: `reason ${i}`, [news!]: i % 2 === 0 });
      if (i % 4 !== 1) Object.assign(v, { [stars!]: 1 + (i % 5), [age!]: 18 + i * 1.37, [start!]: `2026-0${1 + (i % 9)}-1${i % 10}` });
      const partial = i % 5 === 4;
      const res = await app.api('POST', `/public/forms/${fm.slug}/responses`, {
        body: {
          answers: Object.entries(v).map(([question_id, value]) => ({ question_id, value })),
          visitor_id: `v-${i % 6}`,
          ...(partial ? { completed: false } : { started_at: new Date(Date.now() - (30 + i) * 1000).toISOString() }),
        },
      });
      t.is(res.status, 201, JSON.stringify(res.body));
      ids.push(res.body.id);
      if (partial) partials.push(res.body);
    }
    const conditions: Array<Record<string, unknown>> = [
      { question_id: city, op: 'equals', value: 'berlin' },
      { question_id: city, op: 'is_any_of', value: ['Paris', 'Osaka'] },
      { question_id: city, op: 'is_answered' },
      { question_id: nps, op: 'greater_or_equal', value: 9 },
      { question_id: nps, op: 'between', value: [3, 6] },
      { question_id: nps, op: 'less_than', value: 2 },
      { question_id: pets, op: 'equals', value: 'Dog' },
      { question_id: pets, op: 'is_any_of', value: ['Fish'] },
      { question_id: news, op: 'equals', value: false },
      { question_id: stars, op: 'less_or_equal', value: 2 },
      { question_id: stars, op: 'is_answered' },
      { question_id: stars, op: 'equals', value: 3 },
    ];
    const read = async (path: string) => {
      const res = await app.api('GET', `/forms/${fm.id}${path}`, { key: u.key });
      t.is(res.status, 200, JSON.stringify(res.body));
      return res.body as Record<string, unknown>;
    };
    // The list pages by cursor: a filter of one test takes each page from the index before looking it up.
    const pages = async (filter: string) => {
      const ids: string[] = [];
      let cursor = '';
      for (let i = 0; i < 20; i++) {
        const body = await read(`/responses?per_page=4&${filter}${cursor ? `&cursor=${cursor}` : ''}`);
        ids.push(...(body.responses as Array<{ id: string }>).map((r) => r.id));
        if (!body.next_cursor) return { ids, total: body.total };
        cursor = String(body.next_cursor);
      }
      throw new Error('more pages than responses');
    };
    const same = async (when: string) => {
      for (const c of conditions) {
        const counted = f('all', c);
        const scanned = f('all', c, c);
        t.deepEqual(await pages(counted), await pages(scanned), `${when}: pages of ${JSON.stringify(c)}`);
        t.deepEqual(await read(`/analytics?${counted}`), await read(`/analytics?${scanned}`), `${when}: analytics of ${JSON.stringify(c)}`);
        t.deepEqual(await read(`/analytics/questions?${counted}`), await read(`/analytics/questions?${scanned}`), `${when}: summaries of ${JSON.stringify(c)}`);
      }
    };
    await same('as submitted');
    const berlin = await read(`/analytics?${f('all', conditions[0]!)}`);
    t.is(berlin.total_responses, 9, 'the counters count every Berlin response');

    // A partial response completes with other answers; one response is deleted; a visitor's responses are erased.
    const p = partials[0]!;
    const done = await app.api('PATCH', `/public/forms/${fm.slug}/responses/${p.id}`, {
      headers: { 'X-Resume-Token': p.resume_token },
      body: { answers: [{ question_id: city, value: 'Lagos' }, { question_id: pets, value: ['Fish', 'Cat'] }, { question_id: stars, value: 2 }], completed: true },
    });
    t.is(done.status, 200, JSON.stringify(done.body));
    t.is((await app.api('DELETE', `/forms/${fm.id}/responses/${ids[0]}`, { key: u.key })).status, 200);
    const erased = await app.api('POST', '/respondents/erase', { key: u.key, body: { visitor_id: 'v-1' } });
    t.is(erased.status, 200, JSON.stringify(erased.body));
    await same('after a completion, a delete and an erasure');
    t.is((await read(`/analytics?${f('all', conditions[0]!)}`)).total_responses, 7, 'Berlin: 9, less the deleted one and the one completed as Lagos (v-1 answered no Berlin)');
  });
});
