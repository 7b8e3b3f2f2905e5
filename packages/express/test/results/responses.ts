import test from '../helpers/bounded-test';
import { insertResponses, makeResponse } from '@formloom/core/testing';
import type { TestApp } from '../helpers/app';
import type { SharedDb } from '../helpers/shared-apps';

async function publishedForm(app: TestApp, key: string, extra: Record<string, unknown> = {}) {
  const res = await app.api('POST', '/forms', {
    key,
    body: {
      title: 'Feedback',
      published: true,
      questions: [
        { type: 'short_text', title: 'Name', required: true },
        { type: 'multiple_choice', title: 'Colours', properties: { choices: [{ label: 'Red' }, { label: 'Blue' }], allow_multiple: true } },
        { type: 'rating', title: 'Score', properties: { steps: 5 } },
        { type: 'date', title: 'When' },
        { type: 'yes_no', title: 'Again?' },
        { type: 'contact_info', title: 'Contact', properties: { fields: ['email', 'phone'] } },
      ],
      ...extra,
    },
  });
  if (res.status !== 201 || !res.body.published) throw new Error(JSON.stringify(res.body));
  return res.body;
}

const answersFor = (form: any, name = 'Ada') => [
  { question_id: form.questions[0].id, value: name },
  { question_id: form.questions[1].id, value: ['Red'] },
  { question_id: form.questions[2].id, value: 4 },
  { question_id: form.questions[3].id, value: '2026-11-21' },
  { question_id: form.questions[4].id, value: true },
  { question_id: form.questions[5].id, value: { email: 'a@example.com', phone: '+44 20 7946 0000' } },
];

/** results.test.ts registers these on the apps its parts share (helpers/shared-apps.ts). */
export const register = (forEachDb: SharedDb) => forEachDb((it) => {
  it('a respondent submits to the published version; the owner lists, reads and deletes', async (t, app) => {
    const u = await app.user();
    const form = await publishedForm(app, u.key);
    const res = await app.api('POST', `/public/forms/${form.slug}/responses`, {
      body: { answers: answersFor(form), visitor_id: 'v1', metadata: { referrer: 'https://ref.example' } },
      headers: { 'user-agent': 'TestAgent/1.0' },
    });
    t.is(res.status, 201, JSON.stringify(res.body));
    t.regex(res.body.id, /^rsp_/);
    t.is(res.body.form_id, form.id);
    t.is(res.body.visitor_id, 'v1');
    t.truthy(res.body.completed_at);
    t.is(res.body.quiz_results, null);
    t.is(res.body.version, 1);
    t.deepEqual(res.body.metadata, { user_agent: 'TestAgent/1.0', referrer: 'https://ref.example' });
    t.false('resume_token' in res.body);

    const list = await app.api('GET', `/forms/${form.id}/responses`, { key: u.key });
    t.is(list.status, 200);
    t.like(list.body, { total: 1, page: 1, per_page: 50 });
    t.is(list.body.responses[0].id, res.body.id);
    const one = await app.api('GET', `/forms/${form.id}/responses/${res.body.id}`, { key: u.key });
    t.deepEqual(one.body.answers, answersFor(form));
    t.is((await app.api('GET', `/forms/${form.id}`, { key: u.key })).body.response_count, 1);
    t.deepEqual((await app.api('DELETE', `/forms/${form.id}/responses/${res.body.id}`, { key: u.key })).body, { success: true });
    t.is((await app.api('GET', `/forms/${form.id}/responses/${res.body.id}`, { key: u.key })).status, 404);
    t.is((await app.api('GET', `/forms/${form.id}`, { key: u.key })).body.response_count, 0);
  });

  it('answers are checked against the question types, with question_ids', async (t, app) => {
    const u = await app.user();
    const form = await publishedForm(app, u.key);
    const [name, colours, score, when, again] = form.questions;
    const bad: Array<[string, unknown[]]> = [
      ['unknown question', [{ question_id: 'q_nope', value: 'x' }]],
      ['number for text', [{ question_id: name.id, value: 5 }]],
      ['string for multi', [{ question_id: colours.id, value: 'Red' }]],
      ['missing choice', [{ question_id: colours.id, value: ['Green'] }]],
      ['rating out of range', [{ question_id: score.id, value: 6 }]],
      ['bad date', [{ question_id: when.id, value: '2026-02-30' }]],
      ['string for boolean', [{ question_id: again.id, value: 'yes' }]],
    ];
    for (const [label, answers] of bad) {
      const res = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [{ question_id: name.id, value: 'A' }, ...answers].slice(label === 'number for text' ? 1 : 0) } });
      t.is(res.status, 400, label);
      t.is(res.body.error.code, 'BAD_REQUEST', label);
      t.true(Array.isArray(res.body.error.question_ids) && res.body.error.question_ids.length > 0, label);
    }
    const missing = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [{ question_id: score.id, value: 3 }] } });
    t.is(missing.status, 400);
    t.deepEqual(missing.body.error.question_ids, [name.id]);
    t.is((await app.api('GET', `/forms/${form.id}/responses`, { key: u.key })).body.total, 0);
    t.is((await app.api('POST', '/public/forms/nope/responses', { body: { answers: [] } })).status, 404);
  });

  it('limit_one_response refuses a second completed response from one visitor', async (t, app) => {
    const u = await app.user();
    const form = await publishedForm(app, u.key, { limit_one_response: true });
    const body = { answers: answersFor(form), visitor_id: 'same' };
    t.is((await app.api('POST', `/public/forms/${form.slug}/responses`, { body })).status, 201);
    const again = await app.api('POST', `/public/forms/${form.slug}/responses`, { body });
    t.is(again.status, 409);
    t.is(again.body.error.code, 'CONFLICT');
    t.is((await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { ...body, visitor_id: 'other' } })).status, 201);
  });

  it('partial responses resume with X-Resume-Token and cannot change once completed', async (t, app) => {
    const u = await app.user();
    const form = await publishedForm(app, u.key, { incremental_submission: true });
    const [name, colours] = form.questions;
    const partial = await app.api('POST', `/public/forms/${form.slug}/responses`, {
      body: { answers: [{ question_id: colours.id, value: ['Blue'] }], completed: false },
    });
    t.is(partial.status, 201);
    t.is(partial.body.completed_at, null);
    t.is(typeof partial.body.resume_token, 'string');
    const path = `/public/forms/${form.slug}/responses/${partial.body.id}`;
    t.is((await app.api('PATCH', path, { body: { completed: true } , headers: { 'x-resume-token': 'wrong' } })).status, 401);
    const incomplete = await app.api('PATCH', path, { body: { completed: true }, headers: { 'x-resume-token': partial.body.resume_token } });
    t.is(incomplete.status, 400, 'required Name missing');
    const done = await app.api('PATCH', path, {
      body: { answers: [{ question_id: name.id, value: 'Grace' }], completed: true },
      headers: { 'x-resume-token': partial.body.resume_token },
    });
    t.is(done.status, 200, JSON.stringify(done.body));
    t.truthy(done.body.completed_at);
    t.is(done.body.answers.length, 2);
    const late = await app.api('PATCH', path, { body: { answers: [] }, headers: { 'x-resume-token': partial.body.resume_token } });
    t.is(late.status, 409);
    const notIncremental = await publishedForm(app, u.key);
    t.is((await app.api('POST', `/public/forms/${notIncremental.slug}/responses`, { body: { answers: [], completed: false } })).status, 400);
  });

  it('list filters by completed and inclusive dates; bulk delete is all or nothing', async (t, app) => {
    const u = await app.user();
    const form = await publishedForm(app, u.key, { incremental_submission: true });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: answersFor(form) } })).body.id);
    await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [], completed: false } });
    const key = u.key;
    t.is((await app.api('GET', `/forms/${form.id}/responses?completed=true`, { key })).body.total, 3);
    t.is((await app.api('GET', `/forms/${form.id}/responses?completed=false`, { key })).body.total, 1);
    const today = new Date().toISOString().slice(0, 10);
    t.is((await app.api('GET', `/forms/${form.id}/responses?since=${today}&until=${today}`, { key })).body.total, 4);
    t.is((await app.api('GET', `/forms/${form.id}/responses?until=2000-01-01`, { key })).body.total, 0);
    t.is((await app.api('GET', `/forms/${form.id}/responses?since=yesterday`, { key })).status, 400);
    const list = (await app.api('GET', `/forms/${form.id}/responses?completed=true`, { key })).body.responses.map((r: any) => r.id);
    t.deepEqual(list, [...ids].reverse(), 'newest first');

    const other = await publishedForm(app, key);
    const foreign = (await app.api('POST', `/public/forms/${other.slug}/responses`, { body: { answers: answersFor(other) } })).body.id;
    const mixed = await app.api('POST', `/forms/${form.id}/responses/bulk-delete`, { key, body: { response_ids: [ids[0], foreign] } });
    t.is(mixed.status, 400);
    t.is((await app.api('GET', `/forms/${form.id}/responses`, { key })).body.total, 4);
    const tooMany = await app.api('POST', `/forms/${form.id}/responses/bulk-delete`, { key, body: { response_ids: Array.from({ length: 101 }, (_, i) => `rsp_${i}`) } });
    t.is(tooMany.status, 400);
    const ok = await app.api('POST', `/forms/${form.id}/responses/bulk-delete`, { key, body: { response_ids: [ids[0], ids[1]] } });
    t.deepEqual(ok.body, { deleted: 2 });
    t.is((await app.api('GET', `/forms/${form.id}`, { key })).body.response_count, 2);
  });

  it('CSV export: columns, sub-field columns, RFC 4180 quoting, formula neutralised', async (t, app) => {
    const u = await app.user();
    const form = await publishedForm(app, u.key);
    await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: answersFor(form, 'Smith, "Jo"\nJr') } });
    const res = await app.api('GET', `/forms/${form.id}/responses/export`, { key: u.key });
    t.is(res.status, 200);
    t.regex(res.headers.get('content-type') ?? '', /^text\/csv/);
    const lines = res.text.split('\r\n');
    t.is(lines[0], 'responseId,submittedAt,completedAt,Name,Colours,Score,When,Again?,Contact - Email,Contact - Phone');
    t.true(res.text.includes('"Smith, ""Jo""\nJr"'));
    t.true(res.text.includes(",'+44 20 7946 0000"));
    t.is((await app.api('GET', `/forms/${form.id}/responses/export`, { key: (await app.user()).key })).status, 403);
  });

  it('CSV export of 2,100 responses: every page in (submitted_at, id) order, deleted questions left out', async (t, app) => {
    const u = await app.user();
    const form = await publishedForm(app, u.key);
    const [name, colours, score] = form.questions;
    const base = Date.parse('2026-01-01T00:00:00.000Z');
    const responses = Array.from({ length: 2100 }, (_, i) =>
      makeResponse(form.id, 0, {
        id: `rsp_${String(i).padStart(5, '0')}`,
        // 3 responses per instant, inserted newest first: the order comes from the export, not the table;
        // the 2,000th response (the first page's last) shares its instant with the next page's first.
        submitted_at: new Date(base + Math.floor((2099 - i) / 3) * 1000).toISOString(),
        completed_at: i % 10 === 0 ? null : new Date(base).toISOString(),
        answers: [
          { question_id: score.id, value: i % 5 },
          { question_id: name.id, value: i % 2 ? `=Row ${i}, "quoted"` : `Row ${i}` },
          { question_id: 'q_deleted', value: 'gone' },
          { question_id: colours.id, value: ['Red', 'Blue'] },
        ],
      }),
    );
    await insertResponses(app.formloom.storage, responses);
    const res = await app.api('GET', `/forms/${form.id}/responses/export`, { key: u.key });
    t.is(res.status, 200);
    const lines = res.text.split('\r\n');
    t.is(lines.length, 2102, 'the header, 2,100 rows, and the empty string after the last CRLF');
    t.is(lines.pop(), '');
    const byKey = (a: { submitted_at: string; id: string }, b: { submitted_at: string; id: string }) =>
      a.submitted_at === b.submitted_at ? (a.id < b.id ? -1 : 1) : a.submitted_at < b.submitted_at ? -1 : 1;
    const expected = [...responses].sort(byKey);
    const rows = lines.slice(1);
    t.deepEqual(
      rows.map((l) => l.slice(0, l.indexOf(','))),
      expected.map((r) => r.id),
    );
    const odd = responses[2097]!; // formula neutralised, quoted for its comma and quotes
    t.is(rows[expected.indexOf(odd)], `rsp_02097,${odd.submitted_at},${odd.completed_at},"'=Row 2097, ""quoted""","Red, Blue",2,,,,`);
    const partial = responses[2090]!;
    t.is(rows[expected.indexOf(partial)], `rsp_02090,${partial.submitted_at},,Row 2090,"Red, Blue",0,,,,`);
  });

  it('CSV export: a client that goes away mid-export leaves the storage usable', async (t, app) => {
    const u = await app.user();
    const form = await publishedForm(app, u.key);
    const answers = [{ question_id: form.questions[0].id, value: 'x'.repeat(100) }];
    await insertResponses(app.formloom.storage, Array.from({ length: 4500 }, (_, i) => makeResponse(form.id, i, { answers })));
    const aborted = new AbortController();
    const res = await fetch(`${app.url}/api/v1/forms/${form.id}/responses/export`, {
      headers: { authorization: `Bearer ${u.key}` },
      signal: aborted.signal,
    });
    const reader = res.body!.getReader();
    await reader.read();
    aborted.abort();
    await reader.read().catch(() => undefined);
    // A write transaction, reads and a full export all still work.
    const submitted = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: answersFor(form) } });
    t.is(submitted.status, 201);
    const again = await app.api('GET', `/forms/${form.id}/responses/export`, { key: u.key });
    t.is(again.text.split('\r\n').length, 4503);
  });

  it('analytics: totals, completion rate, by day; invalid dates 400', async (t, app) => {
    const u = await app.user();
    const form = await publishedForm(app, u.key, { incremental_submission: true });
    const started = new Date(Date.now() - 90_000).toISOString();
    await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: answersFor(form), started_at: started } });
    await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: answersFor(form), started_at: started } });
    await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [], completed: false } });
    // A loaded machine may take seconds to submit: the average lies between 90 s and the time since `started`.
    const elapsed = Math.ceil((Date.now() - Date.parse(started)) / 1000);
    const a = await app.api('GET', `/forms/${form.id}/analytics`, { key: u.key });
    t.is(a.status, 200);
    t.like(a.body, { form_id: form.id, total_responses: 3, completed_responses: 2, completion_rate: 66.67 });
    t.true(a.body.average_completion_time_seconds >= 89 && a.body.average_completion_time_seconds <= elapsed + 1);
    const today = new Date().toISOString().slice(0, 10);
    t.deepEqual(a.body.responses_by_day, [{ date: today, total: 3, completed: 2 }]);
    t.is((await app.api('GET', `/forms/${form.id}/analytics?since=2020-13-01`, { key: u.key })).status, 400);
    const none = await app.api('GET', `/forms/${form.id}/analytics?until=2000-01-01`, { key: u.key });
    t.like(none.body, { total_responses: 0, completion_rate: 0, average_completion_time_seconds: null });
  });

  it('knowledge quiz results', async (t, app) => {
    const u = await app.user();
    const form = await publishedForm(app, u.key, {
      mode: 'knowledge_quiz',
      quiz_settings: { endings: [{ id: 'low', title: 'Keep going', max_score: 2 }, { id: 'high', title: 'Great', min_score: 3 }] },
      questions: [
        { type: 'short_text', title: 'Capital of France', properties: { correct_answer: 'Paris', points: 2 } },
        { type: 'yes_no', title: 'Is water wet?', properties: { correct_answer: true } },
        { type: 'short_text', title: 'Unscored' },
      ],
    });
    const res = await app.api('POST', `/public/forms/${form.slug}/responses`, {
      body: { answers: [{ question_id: form.questions[0].id, value: ' paris ' }, { question_id: form.questions[1].id, value: true }] },
    });
    t.deepEqual(res.body.quiz_results, {
      form_mode: 'knowledge_quiz', score: 3, correct_answers: 2, total_scorable_questions: 2, max_score: 3, matched_ending_id: 'high',
    });
  });
});
