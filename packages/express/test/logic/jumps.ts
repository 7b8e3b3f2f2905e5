import test from '../helpers/bounded-test';
import type { TestApp } from '../helpers/app';
import type { SharedDb } from '../helpers/shared-apps';

/*
 * Logic jumps and validations through the API (docs/decisions.md "Logic and validations"): checked when a
 * form is saved, followed by the submission's required check, enforced on answers.
 */
const base = (extra: Record<string, unknown>[] = []) => [
  { id: 'tmp_age', type: 'number', title: 'Age', required: true, validations: { min_value: 0, max_value: 130 }, logic_jumps: [{ conditions: [{ op: 'less_than', value: 18 }], to: 'end' }] },
  { id: 'tmp_job', type: 'short_text', title: 'Job', required: true, validations: { min_length: 2, pattern: '[A-Za-z ]+', pattern_message: 'letters only' } },
  { id: 'tmp_pets', type: 'multiple_choice', title: 'Pets', properties: { allow_multiple: true, choices: [{ label: 'Cat' }, { label: 'Dog' }, { label: 'Fish' }] }, validations: { max_selections: 2 } },
  ...extra,
];

async function create(app: TestApp, key: string, body: Record<string, unknown>) {
  return app.api('POST', '/forms', { key, body: { title: 'Logic', ...body } });
}

/** logic.test.ts registers these on the apps its parts share (helpers/shared-apps.ts). */
export const register = (forEachDb: SharedDb) => forEachDb((it) => {
  it('jumps may name new questions by the ids the client sent; the saved jumps name the assigned ids', async (t, app) => {
    const u = await app.user();
    const res = await create(app, u.key, { questions: base(), start_logic_jumps: [{ conditions: [{ field: 'hidden:src', op: 'equals', value: 'x' }], to: 'tmp_job' }] });
    t.is(res.status, 201, JSON.stringify(res.body));
    const [age, job] = res.body.questions;
    t.not(age.id, 'tmp_age');
    t.deepEqual(age.logic_jumps, [{ conditions: [{ op: 'less_than', value: 18 }], to: 'end' }]);
    t.deepEqual(res.body.start_logic_jumps, [{ conditions: [{ field: 'hidden:src', op: 'equals', value: 'x' }], to: job.id }]);
    const copy = await app.api('POST', `/forms/${res.body.id}/duplicate`, { key: u.key });
    t.is(copy.status, 201);
    t.deepEqual(copy.body.start_logic_jumps[0].to, copy.body.questions[1].id, 'a copy jumps between its own questions');
    const pub = await app.api('GET', `/public/forms/${(await app.api('POST', `/forms/${res.body.id}/publish`, { key: u.key })).body.slug}`);
    t.deepEqual(pub.body.snapshot.questions[1].validations, { min_length: 2, pattern: '[A-Za-z ]+', pattern_message: 'letters only' }, 'validations are public');
  });

  it('a jump to an unknown or earlier question, a bad condition or validation is a 400 naming the field', async (t, app) => {
    const u = await app.user();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ questions: base([{ type: 'short_text', title: 'Back', logic_jumps: [{ to: 'tmp_job' }] }]) }, 'questions.3.logic_jumps.0.to'],
      [{ questions: base([{ type: 'short_text', title: 'Self', id: 'tmp_self', logic_jumps: [{ to: 'tmp_self' }] }]) }, 'questions.3.logic_jumps.0.to'],
      [{ questions: base([{ type: 'short_text', title: 'Ghost', logic_jumps: [{ to: 'q_nowhere' }] }]) }, 'questions.3.logic_jumps.0.to'],
      [{ questions: base([{ type: 'short_text', title: 'Op', logic_jumps: [{ to: 'end', conditions: [{ op: 'is', value: 1 }] }] }]) }, 'questions.3.logic_jumps.0.conditions.0.op'],
      [{ questions: base([{ type: 'yes_no', title: 'V', validations: { min_length: 1 } }]) }, 'questions.3.validations.min_length'],
      [{ questions: base([{ type: 'short_text', title: 'P', validations: { pattern: '(' } }]) }, 'questions.3.validations.pattern'],
      [{ questions: base(), start_logic_jumps: [{ to: 'q_nowhere' }] }, 'start_logic_jumps.0.to'],
      [{ questions: base(), variables: { 'no spaces': 1 } }, 'variables.no spaces'],
    ];
    for (const [body, field] of cases) {
      const res = await create(app, u.key, body);
      t.is(res.status, 400, field);
      t.is(res.body.error.code, 'BAD_REQUEST');
      t.is(res.body.error.field, field);
      t.true(res.body.error.message.startsWith(`${field}: `), res.body.error.message);
    }
    const ok = await create(app, u.key, { questions: base() });
    const ids = ok.body.questions.map((q: any) => q.id);
    const put = await app.api('PUT', `/forms/${ok.body.id}`, { key: u.key, body: { start_logic_jumps: [{ to: 'q_gone' }] } });
    t.is(put.body.error.field, 'start_logic_jumps.0.to');
    const back = ok.body.questions.map((q: any, i: number) => (i === 2 ? { ...q, logic_jumps: [{ to: ids[0] }] } : q));
    const put2 = await app.api('PUT', `/forms/${ok.body.id}`, { key: u.key, body: { questions: back } });
    t.is(put2.status, 400);
    t.is(put2.body.error.field, 'questions.2.logic_jumps.0.to');
    const total = await app.raw('SELECT COUNT(*) AS n FROM forms WHERE owner_id = $1', [u.id]);
    t.is(Number(total[0].n), 1, 'nothing was saved by a refused body');
  });

  it('submissions follow the jumps: skipped required questions are not missing; validations are enforced', async (t, app) => {
    const u = await app.user();
    const f = (await create(app, u.key, { questions: base(), published: true })).body;
    const [age, job, pets] = f.questions.map((q: any) => q.id);
    const submit = (answers: unknown[]) => app.api('POST', `/public/forms/${f.slug}/responses`, { body: { answers } });
    const young = await submit([{ question_id: age, value: 12 }]);
    t.is(young.status, 201, 'a minor jumps to the end: the job is not asked');
    const adult = await submit([{ question_id: age, value: 40 }]);
    t.is(adult.status, 400);
    t.deepEqual(adult.body.error.question_ids, [job]);
    const short = await submit([{ question_id: age, value: 40 }, { question_id: job, value: 'X' }]);
    t.is(short.status, 400);
    t.deepEqual(short.body.error.question_ids, [job]);
    t.regex(short.body.error.message, /answers\.1\.value: must be at least 2 characters/);
    const digits = await submit([{ question_id: age, value: 40 }, { question_id: job, value: 'R2D2' }]);
    t.regex(digits.body.error.message, /letters only/);
    const many = await submit([{ question_id: age, value: 40 }, { question_id: job, value: 'Baker' }, { question_id: pets, value: ['Cat', 'Dog', 'Fish'] }]);
    t.regex(many.body.error.message, /choose at most 2/);
    const old = await submit([{ question_id: age, value: 131 }]);
    t.regex(old.body.error.message, /must be at most 130/);
    const good = await submit([{ question_id: age, value: 40 }, { question_id: job, value: 'Baker' }, { question_id: pets, value: ['Cat'] }]);
    t.is(good.status, 201, JSON.stringify(good.body));
    t.is((await app.api('GET', `/forms/${f.id}/responses`, { key: u.key })).body.total, 2);
  });

  it('between and is_any_of take a list value: accepted, followed by submissions, a wrong list is a 400', async (t, app) => {
    const u = await app.user();
    const bad = await create(app, u.key, { questions: [{ type: 'number', title: 'N', logic_jumps: [{ conditions: [{ op: 'between', value: [1] }], to: 'end' }] }] });
    t.is(bad.status, 400);
    t.is(bad.body.error.field, 'questions.0.logic_jumps.0.conditions.0.value');
    const empty = await create(app, u.key, { questions: [{ type: 'number', title: 'N', logic_jumps: [{ conditions: [{ op: 'is_any_of', value: [] }], to: 'end' }] }] });
    t.is(empty.body.error.field, 'questions.0.logic_jumps.0.conditions.0.value');
    const f = (
      await create(app, u.key, {
        published: true,
        questions: [
          { id: 'tmp_n', type: 'number', title: 'N', logic_jumps: [{ conditions: [{ op: 'between', value: [1, 5] }], to: 'tmp_end' }] },
          { id: 'tmp_c', type: 'dropdown', title: 'C', required: true, properties: { choices: [{ label: 'Red' }, { label: 'Blue' }, { label: 'Green' }] }, logic_jumps: [{ conditions: [{ op: 'is_any_of', value: ['Red', 'Blue'] }], to: 'end' }] },
          { id: 'tmp_mid', type: 'short_text', title: 'Mid', required: true },
          { id: 'tmp_end', type: 'short_text', title: 'Last' },
        ],
      })
    ).body;
    t.deepEqual(f.questions[0].logic_jumps[0].conditions, [{ op: 'between', value: [1, 5] }]);
    const [n, c, mid] = f.questions.map((q: any) => q.id);
    const submit = (answers: unknown[]) => app.api('POST', `/public/forms/${f.slug}/responses`, { body: { answers } });
    t.is((await submit([{ question_id: n, value: 5 }])).status, 201, '5 is between 1 and 5: C and Mid are skipped');
    const out = await submit([{ question_id: n, value: 6 }, { question_id: c, value: 'Blue' }]);
    t.is(out.status, 201, 'Blue is any of Red, Blue: Mid is skipped');
    const green = await submit([{ question_id: n, value: 6 }, { question_id: c, value: 'Green' }]);
    t.is(green.status, 400);
    t.deepEqual(green.body.error.question_ids, [mid]);
  });

  it('rules may carry variable actions, with or without a jump; they are public with the jumps; a bad action is a 400', async (t, app) => {
    const u = await app.user();
    const bad = await create(app, u.key, { questions: [{ type: 'yes_no', title: 'Y', logic_jumps: [{ actions: [{ op: 'add', variable: 'score', value: 'one' }] }] }] });
    t.is(bad.status, 400);
    t.is(bad.body.error.field, 'questions.0.logic_jumps.0.actions.0.value');
    const rules = [{ conditions: [{ op: 'equals', value: true }], actions: [{ op: 'add', variable: 'score', value: 1 }] }, { actions: [{ op: 'set', variable: 'seen', value: 'yes' }], to: 'end' }];
    const f = (await create(app, u.key, { published: true, variables: { score: 0 }, questions: [{ type: 'yes_no', title: 'Y', logic_jumps: rules }, { type: 'short_text', title: 'Never', required: true }] })).body;
    t.deepEqual(f.questions[0].logic_jumps, rules);
    const pub = await app.api('GET', `/public/forms/${f.slug}`);
    t.deepEqual(pub.body.snapshot.questions[0].logic_jumps, rules);
    const res = await app.api('POST', `/public/forms/${f.slug}/responses`, { body: { answers: [{ question_id: f.questions[0].id, value: true }] } });
    t.is(res.status, 201, 'the second rule jumps to the end: the required question is off the path');
  });
});
