import test from '../helpers/bounded-test';
import type { TestApp } from '../helpers/app';
import type { SharedDb } from '../helpers/shared-apps';

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

/** analytics.test.ts registers these on the apps its parts share (helpers/shared-apps.ts). */
export const register = (forEachDb: SharedDb) => forEachDb((it) => {
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
    // Conditions the pair counts do not cover: their summaries come from the matches found in the answers index.
    const uncounted: Array<Record<string, unknown>> = [
      { question_id: start, op: 'equals', value: '2026-03-12' },
      { question_id: start, op: 'between', value: ['2026-02-01', '2026-05-31'] },
      { question_id: age, op: 'between', value: [30, 50] },
      { question_id: age, op: 'greater_than', value: 40 },
      { question_id: why, op: 'contains', value: 'reason 1' },
      { question_id: why, op: 'not_contains', value: 'SON 2' },
    ];
    // Two conditions together: the first one's index range, the other's set.
    const pairs: Array<[Record<string, unknown>, Record<string, unknown>]> = [
      [conditions[0]!, conditions[3]!],
      [conditions[7]!, conditions[9]!],
      [conditions[2]!, uncounted[1]!],
      [conditions[8]!, uncounted[4]!],
      [uncounted[2]!, conditions[10]!],
    ];
    const summaries = async (filter: string) => ({ analytics: await read(`/analytics?${filter}`), questions: await read(`/analytics/questions?${filter}`) });
    const same = async (when: string) => {
      for (const c of conditions) {
        const counted = f('all', c);
        const driven = f('all', c, c);
        // `any` is never driven by the index: the form's responses are filtered one by one.
        const scanned = f('any', c, c);
        t.deepEqual(await pages(counted), await pages(driven), `${when}: pages of ${JSON.stringify(c)}`);
        const expected = await summaries(counted);
        t.deepEqual(await summaries(driven), expected, `${when}: summaries of ${JSON.stringify(c)}, from its index range`);
        t.deepEqual(await summaries(scanned), expected, `${when}: summaries of ${JSON.stringify(c)}, scanned`);
      }
      for (const c of uncounted) {
        t.deepEqual(await summaries(f('all', c)), await summaries(f('any', c, c)), `${when}: summaries of ${JSON.stringify(c)}`);
      }
      // A text test and its negation split the responses: the LIKE before the answers' walk drops no match.
      const [contains, notContains] = [await pages(f('all', uncounted[4]!)), await pages(f('all', { ...uncounted[4]!, op: 'not_contains' }))];
      t.is(Number(contains.total) + Number(notContains.total), Number((await pages(f('any', conditions[2]!, { question_id: city, op: 'is_not_answered' }))).total), `${when}: contains and not`);
      t.true(Number(contains.total) > 0);
      for (const [a, b] of pairs) {
        const ab = await summaries(f('all', a, b));
        t.deepEqual(await summaries(f('all', b, a)), ab, `${when}: ${JSON.stringify([a, b])} driven by either`);
        // The matches, from the scanned lists of each condition alone.
        const [ia, ib] = [new Set((await pages(f('any', a, a))).ids), (await pages(f('any', b, b))).ids];
        const both = ib.filter((id) => ia.has(id));
        t.is(ab.analytics.total_responses, both.length, `${when}: ${JSON.stringify([a, b])} counts the responses both select`);
        t.deepEqual((await pages(f('all', a, b))).ids, both, `${when}: ${JSON.stringify([a, b])} lists them`);
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
