import test from '../helpers/bounded-test';
import type { TestApp } from '../helpers/app';
import type { SharedDb } from '../helpers/shared-apps';

/** One question of every type respondents answer, in this order. */
const QUESTIONS = [
  { type: 'short_text', title: 'Text', properties: { max_length: 20 } },
  { type: 'long_text', title: 'Long' },
  { type: 'email', title: 'Email' },
  { type: 'dropdown', title: 'Pick', properties: { choices: [{ label: 'One' }, { label: 'Two' }] } },
  { type: 'multiple_choice', title: 'Single', properties: { choices: [{ label: 'Red' }, { label: 'Blue' }] } },
  { type: 'multiple_choice', title: 'Many', properties: { choices: [{ label: 'Red' }, { label: 'Blue' }], allow_multiple: true, allow_other: true } },
  { type: 'rating', title: 'Stars', properties: { steps: 5 } },
  { type: 'opinion_scale', title: 'Scale', properties: { min: 1, max: 7 } },
  { type: 'number', title: 'Count', properties: { min: 0, max: 100 } },
  { type: 'date', title: 'When' },
  { type: 'yes_no', title: 'Again?' },
  { type: 'file_upload', title: 'CV' },
  { type: 'question_group', title: 'Group', properties: { questions: [{ type: 'number', title: 'Age' }, { type: 'email', title: 'Mail' }, { type: 'url', title: 'Site' }, { type: 'date', title: 'Born' }] } },
  { type: 'multi_question_page', title: 'Page', properties: { questions: [{ type: 'short_text', title: 'Nick' }] } },
  { type: 'contact_info', title: 'Contact', properties: { fields: ['first_name', 'email', 'phone'] } },
  { type: 'address', title: 'Address', properties: { fields: ['city', 'zip'] } },
] as const;

async function everyTypeForm(app: TestApp, key: string) {
  const res = await app.api('POST', '/forms', { key, body: { title: 'Every type', published: true, incremental_submission: true, questions: QUESTIONS } });
  if (res.status !== 201 || !res.body.published) throw new Error(JSON.stringify(res.body));
  return res.body;
}

const NESTED = { a: { a: '' } };
const uploadUrl = (app: TestApp, formId: string) => `${app.url}/api/v1/public/uploads/${formId}/${'ab'.repeat(16)}/cv.pdf`;

/** [question index, bad value, what the message must say]. */
function badValues(app: TestApp, form: any, otherForm: any): Array<[number, unknown, string]> {
  const sub = (i: number, k: number) => form.questions[i].properties.questions[k].id;
  return [
    [0, NESTED, 'expected a string, received an object'],
    [0, 42, 'expected a string, received a number'],
    [0, 'x'.repeat(21), 'at most 20 characters'],
    [1, ['a'], 'expected a string, received an array'],
    [2, 'not-an-email', 'must be an email address'],
    [2, NESTED, 'expected a string, received an object'],
    [3, 'Three', 'is not one of the choices'],
    [3, NESTED, 'expected a string, received an object'],
    [4, 'Green', 'is not one of the choices'],
    [4, ['Red'], 'expected a string, received an array'],
    [5, 'Red', 'expected an array of choices, received a string'],
    [5, [NESTED], 'expected a string, received an object'],
    [5, ['Red', 'Red'], 'repeats a choice'],
    [5, ['\u200b'], 'must not be blank'],
    [6, NESTED, 'expected a whole number, received an object'],
    [6, 6, 'must be between 1 and 5'],
    [6, 0, 'must be between 1 and 5'],
    [6, 2.5, 'expected a whole number, received a fractional number'],
    [6, '', 'expected a whole number, received a string'],
    [7, 8, 'must be between 1 and 7'],
    [7, [], 'expected a whole number, received an array'],
    [8, NESTED, 'expected a number, received an object'],
    [8, '5', 'expected a number, received a string'],
    [8, 101, 'must be between 0 and 100'],
    [9, '2026-02-30', 'ISO 8601 date'],
    [9, '21/11/2026', 'ISO 8601 date'],
    [9, 20261121, 'expected an ISO 8601 date string (YYYY-MM-DD), received a number'],
    [10, NESTED, 'expected a boolean, received an object'],
    [10, 'yes', 'expected a boolean, received a string'],
    [10, {}, 'expected a boolean, received an object'],
    [11, NESTED, 'unknown field "a"'],
    [11, 'cv.pdf', 'expected an object {url, name}, received a string'],
    [11, { url: 'https://evil.example/cv.pdf', name: 'cv.pdf' }, 'must be the URL of a file uploaded to this form'],
    [11, { url: uploadUrl(app, otherForm.id), name: 'cv.pdf' }, 'must be the URL of a file uploaded to this form'],
    [11, { url: 5, name: 'cv.pdf' }, 'url: expected a string, received a number'],
    [12, NESTED, 'unknown sub-field "a"'],
    [12, { [sub(12, 0)]: 'old' }, `${sub(12, 0)}: expected a number, received a string`],
    [12, { [sub(12, 1)]: 'nope' }, 'must be an email address'],
    [12, { [sub(12, 2)]: 'javascript:alert(1)' }, 'must be an http(s) URL'],
    [12, { [sub(12, 3)]: '2026-13-01' }, 'ISO 8601 date'],
    [13, { [sub(13, 0)]: { deep: 1 } }, 'expected a string, received an object'],
    [13, 'flat', 'expected an object of sub-field values, received a string'],
    [14, { email: 'x' }, 'must be an email address'],
    [14, { phone: '=1+2' }, 'must be a phone number'],
    [14, { company: 'Acme' }, 'unknown sub-field "company"'],
    [15, { city: ['Paris'] }, 'expected a string, received an array'],
  ];
}

/** results.test.ts registers these on the apps its parts share (helpers/shared-apps.ts). */
export const register = (forEachDb: SharedDb) => forEachDb((it) => {
  it('an answer value of the wrong shape is refused for every question type, saying what was expected, and nothing is stored', async (t, app) => {
    const u = await app.user();
    const form = await everyTypeForm(app, u.key);
    const other = await everyTypeForm(app, u.key);
    for (const [i, value, says] of badValues(app, form, other)) {
      const label = `${QUESTIONS[i]!.type} ${JSON.stringify(value).slice(0, 60)}`;
      for (const completed of [true, false]) {
        const res = await app.api('POST', `/public/forms/${form.slug}/responses`, {
          body: { answers: [{ question_id: form.questions[i].id, value }], completed },
        });
        t.is(res.status, 400, label);
        t.is(res.body.error.code, 'BAD_REQUEST', label);
        t.is(res.body.error.field, 'answers.0.value', label);
        t.deepEqual(res.body.error.question_ids, [form.questions[i].id], label);
        t.true(res.body.error.message.startsWith('answers.0.value: '), `${label}: ${res.body.error.message}`);
        t.true(res.body.error.message.includes(says), `${label}: ${res.body.error.message}`);
      }
    }
    const listed = await app.api('GET', `/forms/${form.id}/responses`, { key: u.key });
    t.is(listed.body.total, 0);
  });

  it('PATCH of a partial response checks values the same way and names the answer by its index', async (t, app) => {
    const u = await app.user();
    const form = await everyTypeForm(app, u.key);
    const partial = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [], completed: false } });
    t.is(partial.status, 201);
    const res = await app.api('PATCH', `/public/forms/${form.slug}/responses/${partial.body.id}`, {
      headers: { 'x-resume-token': partial.body.resume_token },
      body: { answers: [{ question_id: form.questions[0].id, value: 'ok' }, { question_id: form.questions[8].id, value: NESTED }] },
    });
    t.is(res.status, 400);
    t.is(res.body.error.message, 'answers.1.value: expected a number, received an object');
    const owner = await app.api('GET', `/forms/${form.id}/responses/${partial.body.id}`, { key: u.key });
    t.deepEqual(owner.body.answers, []);
  });

  it('valid values of every type are accepted and stored as sent; empty values of the right shape are no answer', async (t, app) => {
    const u = await app.user();
    const form = await everyTypeForm(app, u.key);
    const sub = (i: number, k: number) => form.questions[i].properties.questions[k].id;
    const values: unknown[] = [
      'Ada',
      'Long text, with "quotes"',
      'ada@example.com',
      'Two',
      'Blue',
      ['Red', 'Something else'],
      5,
      1,
      12.5,
      '2026-02-28',
      false,
      { url: uploadUrl(app, form.id), name: 'cv.pdf' },
      { [sub(12, 0)]: 36, [sub(12, 1)]: 'a@b.co', [sub(12, 2)]: 'https://ada.example', [sub(12, 3)]: '1990-12-10' },
      { [sub(13, 0)]: 'ada' },
      { first_name: 'Ada', email: 'ada@example.com', phone: '+44 (20) 7946-0000' },
      { city: 'London', zip: null },
    ];
    const answers = values.map((value, i) => ({ question_id: form.questions[i].id, value }));
    const res = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers } });
    t.is(res.status, 201, JSON.stringify(res.body));
    t.deepEqual((await app.api('GET', `/forms/${form.id}/responses/${res.body.id}`, { key: u.key })).body.answers, answers);

    const empties = [[0, ''], [5, []], [14, { first_name: '', email: null }], [6, null]] as const;
    const blank = await app.api('POST', `/public/forms/${form.slug}/responses`, {
      body: { answers: empties.map(([i, value]) => ({ question_id: form.questions[i].id, value })) },
    });
    t.is(blank.status, 201, JSON.stringify(blank.body));
  });

  it('a required question answered with an invisible-only or wrongly shaped empty value is not answered', async (t, app) => {
    const u = await app.user();
    const created = await app.api('POST', '/forms', {
      key: u.key,
      body: { title: 'Req', published: true, questions: [{ type: 'short_text', title: 'Name', required: true }, { type: 'composite', title: 'Not answered here' }] },
    });
    t.is(created.status, 201, JSON.stringify(created.body));
    const [name, payment] = created.body.questions;
    const res = await app.api('POST', `/public/forms/${created.body.slug}/responses`, { body: { answers: [{ question_id: name.id, value: '\u200b\u00a0' }] } });
    t.is(res.status, 400);
    t.deepEqual(res.body.error.question_ids, [name.id]);
    const notAnswerable = await app.api('POST', `/public/forms/${created.body.slug}/responses`, {
      body: { answers: [{ question_id: name.id, value: 'Ada' }, { question_id: payment.id, value: { paid: true } }] },
    });
    t.is(notAnswerable.status, 400);
    t.regex(notAnswerable.body.error.message, /answers\.1\.value: a composite question is not answered by respondents/);
  });

  it('a wrong-type body field says what was expected and what was received; a missing one is required', async (t, app) => {
    const u = await app.user();
    const cases: Array<[string, string, unknown, string]> = [
      ['POST', '/forms', { title: 42 }, 'title: expected a string, received a number'],
      ['POST', '/forms', {}, 'title: is required'],
      ['POST', '/forms', { title: null }, 'title: expected a string, received null'],
      ['POST', '/forms', { title: 'x', questions: {} }, 'questions: expected an array, received an object'],
      ['POST', '/forms', { title: 'x', published: 'yes' }, 'published: expected a boolean, received a string'],
      ['POST', '/forms', { title: 'x', questions: [{ type: 'rating', title: { a: { a: '' } } }] }, 'questions.0.title: expected a string, received an object'],
      ['POST', '/teams', { name: ['a'] }, 'name: expected a string, received an array'],
      ['POST', '/forms', { title: 'x', questions: [{ type: 'rating', title: 'r', properties: { steps: '5' } }] }, 'questions.0.properties.steps: expected a number, received a string'],
      ['POST', '/forms', { title: 'x', questions: [{ type: 'dropdown', title: 'd' }] }, 'questions.0.properties.choices: is required'],
    ];
    for (const [method, path, body, message] of cases) {
      const res = await app.api(method, path, { key: u.key, body });
      t.is(res.status, 400, message);
      t.is(res.body.error.message, message);
    }
    const form = await everyTypeForm(app, u.key);
    const theme = await app.api('PUT', `/forms/${form.id}/theme`, { key: u.key, body: { show_progress_bar: { a: 1 } } });
    t.is(theme.body.error.message, 'show_progress_bar: expected a boolean, received an object');
    const answers = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: { a: { a: '' } } } });
    t.is(answers.body.error.message, 'answers: expected an array, received an object');
    const value = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [{ question_id: 7, value: 1 }] } });
    t.is(value.body.error.message, 'answers.0.question_id: expected a string, received a number');
    const oneValue = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [{ question_id: form.questions[8].id, value: NESTED }] } });
    t.is(oneValue.body.error.message, 'answers.0.value: expected a number, received an object');
  });
  it('started_at must lie within 30 days before the submission and at most 5 minutes after it', async (t, app) => {
    const u = await app.user();
    const form = await everyTypeForm(app, u.key);
    const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
    const DAY = 24 * 60 * 60 * 1000;
    for (const started_at of ['0000-01-01T00:00:00Z', at(-31 * DAY), at(60 * 60 * 1000), '9999-12-31T23:59:59Z']) {
      const res = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [], started_at } });
      t.is(res.status, 400, started_at);
      t.is(res.body.error.field, 'started_at', started_at);
      t.regex(res.body.error.message, /^started_at: /);
    }
    const notDate = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [], started_at: 12 } });
    t.is(notDate.body.error.message, 'started_at: expected a string, received a number');
    let none = await app.api('GET', `/forms/${form.id}/analytics`, { key: u.key });
    t.is(none.body.total_responses, 0, 'a refused submission writes nothing');

    const inWindow = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [], started_at: at(-29 * DAY) } });
    t.is(inWindow.status, 201, JSON.stringify(inWindow.body));
    const skewed = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [], started_at: at(2 * 60 * 1000) } });
    t.is(skewed.status, 201, 'a device clock a little ahead is tolerated');
    none = await app.api('GET', `/forms/${form.id}/analytics`, { key: u.key });
    t.is(none.body.completed_responses, 2);
    t.true(none.body.average_completion_time_seconds <= 15 * 24 * 60 * 60 + 60, String(none.body.average_completion_time_seconds));
  });
});
