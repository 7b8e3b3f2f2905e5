import test from '../helpers/bounded-test';
import type { TestApp } from '../helpers/app';
import type { SharedDb } from '../helpers/shared-apps';

/*
 * Composite questions (docs/logic.md "Composite"): the respondent answers the components in place, the submission
 * stores one response in each component beside the composite's own, all or none, once per Idempotency-Key; the
 * composite's results are one table; publishing checks its components.
 */

async function published(app: TestApp, key: string, body: Record<string, unknown>) {
  const res = await app.api('POST', '/forms', { key, body: { published: true, ...body } });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body;
}

/** Two components (the first with its own jump: "No" skips the required reason) and a composite of both between two questions. */
async function composite(app: TestApp, extra: { limitB?: number; incremental?: boolean } = {}) {
  const u = await app.user();
  const a = await published(app, u.key, {
    title: 'About you',
    questions: [
      { id: 'drive', type: 'yes_no', title: 'Do you drive?', required: true, logic_jumps: [{ conditions: [{ op: 'equals', value: true }], to: 'car' }] },
      { type: 'short_text', title: 'Why not?', required: true },
      { id: 'car', type: 'short_text', title: 'Your car', required: false },
    ],
  });
  const [drive, why, car] = a.questions;
  const b = await published(app, u.key, {
    title: 'Your visit',
    ...(extra.limitB ? { response_limit: extra.limitB } : {}),
    questions: [{ type: 'rating', title: 'Stars', required: true, properties: { steps: 5 } }],
  });
  const c = await published(app, u.key, {
    title: 'Onboarding',
    ...(extra.incremental ? { incremental_submission: true } : {}),
    questions: [
      { type: 'email', title: 'Email', required: true },
      { type: 'composite', title: 'The two forms', properties: { composite_ids: [a.id, b.id] } },
      { type: 'long_text', title: 'Anything else?' },
    ],
  });
  const [email, comp, more] = c.questions;
  return { u, a, b, c, q: { drive: drive.id, why: why.id, car: car.id, stars: b.questions[0].id, email: email.id, comp: comp.id, more: more.id } };
}

type Setup = Awaited<ReturnType<typeof composite>>;

const answersOf = (s: Setup, parts: Record<string, unknown>, more = 'No') => [
  { question_id: s.q.email, value: 'ada@example.com' },
  { question_id: s.q.comp, value: parts },
  { question_id: s.q.more, value: more },
];
const driving = (s: Setup) => ({ [`${s.a.id}/${s.q.drive}`]: true, [`${s.a.id}/${s.q.car}`]: 'Zoe', [`${s.b.id}/${s.q.stars}`]: 4 });

const count = async (app: TestApp, key: string, formId: string) => (await app.api('GET', `/forms/${formId}/responses`, { key })).body.total as number;

/** logic.test.ts registers these on the apps its parts share (helpers/shared-apps.ts). */
export const register = (forEachDb: SharedDb) => forEachDb((it) => {
  it('the public form carries each component grouped, as its version was published, with nothing private', async (t, app) => {
    const s = await composite(app);
    const pub = await app.api('GET', `/public/forms/${s.c.slug}`);
    const comp = pub.body.snapshot.questions.find((q: any) => q.id === s.q.comp);
    const live = await Promise.all([s.a, s.b].map(async (f) => (await app.api('GET', `/public/forms/${f.slug}`)).body.version));
    t.deepEqual(
      comp.properties.components.map((c: any) => [c.form_id, c.version, c.title, c.questions.map((q: any) => q.id)]),
      [
        [s.a.id, live[0], 'About you', [s.q.drive, s.q.why, s.q.car]],
        [s.b.id, live[1], 'Your visit', [s.q.stars]],
      ],
    );
    t.is(comp.properties.components[0].questions[0].logic_jumps[0].to, s.q.car);
    t.false(JSON.stringify(pub.body).includes('composite_ids'));
    t.false(JSON.stringify(pub.body).includes('version_id'));
    // The pins belong to the version: the draft, also a restored one, names its forms only, and saves as read.
    const versions = await app.api('GET', `/forms/${s.c.id}/versions`, { key: s.u.key });
    const restored = await app.api('POST', `/forms/${s.c.id}/versions/${versions.body.versions[0].id}/restore`, { key: s.u.key });
    t.is(restored.status, 200, JSON.stringify(restored.body));
    t.deepEqual(restored.body.questions[1].properties, { composite_ids: [s.a.id, s.b.id] });
    const saved = await app.api('PUT', `/forms/${s.c.id}`, { key: s.u.key, body: { questions: restored.body.questions } });
    t.is(saved.status, 200, JSON.stringify(saved.body));
  });

  it("the public form carries a component's translations for the composite's languages only, its public texts only", async (t, app) => {
    const u = await app.user();
    const part = await published(app, u.key, {
      title: 'About you', language: 'en', languages: ['fr', 'de', 'it'],
      questions: [{ id: 'pet', type: 'multiple_choice', title: 'Your pet?', properties: { choices: [{ id: 'cat', label: 'Cat' }, { id: 'dog', label: 'Dog' }] } }],
      translations: {
        fr: { title: 'À propos de vous', 'questions.pet.title': 'Votre animal ?', 'questions.pet.choices.cat': 'Chat', 'strings.error_required': 'privé' },
        de: { 'questions.pet.title': 'Ihr Haustier?' },
        it: { 'questions.pet.title': 'Il tuo animale?' },
      },
    });
    const pet = part.questions[0].id;
    const plain = await published(app, u.key, { title: 'Your visit', questions: [{ type: 'short_text', title: 'Why?' }] });
    const comp = async (language: string, languages: string[]) => {
      const c = await published(app, u.key, { title: 'Outer', language, languages, questions: [{ type: 'composite', title: 'Parts', properties: { composite_ids: [part.id, plain.id] } }] });
      return (await app.api('GET', `/public/forms/${c.slug}`)).body.snapshot.questions[0].properties.components;
    };
    // Offered by the composite and the component: fr and de; es is the composite's only, it the component's only.
    const [a, b] = await comp('en', ['fr', 'de', 'es']);
    t.deepEqual(a.translations, {
      fr: { title: 'À propos de vous', [`questions.${pet}.title`]: 'Votre animal ?', [`questions.${pet}.choices.cat`]: 'Chat' },
      de: { [`questions.${pet}.title`]: 'Ihr Haustier?' },
    });
    t.false('translations' in b, 'a component without languages carries none');
    t.false('language' in a || 'languages' in a, 'nothing else of its settings');
    // The composite's default language is one the respondent reads too; the component's own default needs nothing.
    const [inFrench] = await comp('fr', ['en']);
    t.deepEqual(Object.keys(inFrench.translations), ['fr']);
    // A composite without languages shows every component as written.
    const [none] = await comp('en', []);
    t.false('translations' in none);
  });

  it('a submission stores one response per component and the composite record listing them', async (t, app) => {
    const s = await composite(app);
    const res = await app.api('POST', `/public/forms/${s.c.slug}/responses`, { body: { answers: answersOf(s, driving(s)) } });
    t.is(res.status, 201, JSON.stringify(res.body));
    const links = res.body.metadata.components;
    t.deepEqual(links.map((l: any) => [l.question_id, l.form_id]), [[s.q.comp, s.a.id], [s.q.comp, s.b.id]]);
    const inA = await app.api('GET', `/forms/${s.a.id}/responses/${links[0].response_id}`, { key: s.u.key });
    t.is(inA.status, 200);
    t.deepEqual(inA.body.answers, [{ question_id: s.q.drive, value: true }, { question_id: s.q.car, value: 'Zoe' }]);
    t.deepEqual(inA.body.metadata.composite, { form_id: s.c.id, response_id: res.body.id, question_id: s.q.comp });
    t.is(inA.body.version_id, (await app.api('GET', `/forms/${s.a.id}`, { key: s.u.key })).body.published_version_id);
    t.truthy(inA.body.completed_at);
    const inB = await app.api('GET', `/forms/${s.b.id}/responses/${links[1].response_id}`, { key: s.u.key });
    t.deepEqual(inB.body.answers, [{ question_id: s.q.stars, value: 4 }]);
    const forms = await Promise.all([s.a, s.b, s.c].map((f) => app.api('GET', `/forms/${f.id}`, { key: s.u.key })));
    t.deepEqual(forms.map((f) => f.body.response_count), [1, 1, 1]);
  });

  it("each component's own logic and required questions decide; a refusal names the composite and the component's question", async (t, app) => {
    const s = await composite(app);
    const key = (f: any, q: string) => `${f.id}/${q}`;
    // "No": the reason is on the path and required.
    const missing = await app.api('POST', `/public/forms/${s.c.slug}/responses`, {
      body: { answers: answersOf(s, { [key(s.a, s.q.drive)]: false, [key(s.b, s.q.stars)]: 5 }) },
    });
    t.is(missing.status, 400);
    t.deepEqual(missing.body.error.question_ids, [s.q.comp, key(s.a, s.q.why)]);
    const wrong = await app.api('POST', `/public/forms/${s.c.slug}/responses`, { body: { answers: answersOf(s, { ...driving(s), [key(s.b, s.q.stars)]: 9 }) } });
    t.is(wrong.status, 400);
    t.regex(wrong.body.error.message, new RegExp(`answers\\.1\\.value\\.${s.b.id}/${s.q.stars}: must be between 1 and 5`));
    const stranger = await app.api('POST', `/public/forms/${s.c.slug}/responses`, { body: { answers: answersOf(s, { ...driving(s), 'frm_other/q_x': 'x' }) } });
    t.is(stranger.status, 400);
    t.deepEqual(stranger.body.error.question_ids, [s.q.comp]);
    const notObject = await app.api('POST', `/public/forms/${s.c.slug}/responses`, { body: { answers: answersOf(s, 'yes' as never) } });
    t.is(notObject.status, 400);
    // Nothing answered at all: the components' required questions are missing.
    const none = await app.api('POST', `/public/forms/${s.c.slug}/responses`, { body: { answers: [{ question_id: s.q.email, value: 'ada@example.com' }] } });
    t.is(none.status, 400);
    t.true(none.body.error.question_ids.includes(key(s.a, s.q.drive)));
    t.deepEqual(await Promise.all([s.a.id, s.b.id, s.c.id].map((id) => count(app, s.u.key, id))), [0, 0, 0]);
  });

  it('all or none: a component that cannot take the response stores nothing anywhere', async (t, app) => {
    const s = await composite(app, { limitB: 1 });
    // Concurrent submissions race for the component's last place: one stores three responses, the others none.
    const results = await Promise.all([1, 2, 3].map(() => app.api('POST', `/public/forms/${s.c.slug}/responses`, { body: { answers: answersOf(s, driving(s)) } })));
    t.deepEqual(results.map((r) => r.status).sort(), [201, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) t.is(r.body.error.reason, 'form_closed');
    t.deepEqual(await Promise.all([s.a.id, s.b.id, s.c.id].map((id) => count(app, s.u.key, id))), [1, 1, 1]);
    // A component unpublished after the composite was published: refused, nothing stored.
    const s2 = await composite(app);
    await app.api('DELETE', `/forms/${s2.a.id}/publish`, { key: s2.u.key });
    const refused = await app.api('POST', `/public/forms/${s2.c.slug}/responses`, { body: { answers: answersOf(s2, driving(s2)) } });
    t.is(refused.status, 409);
    t.is(refused.body.error.reason, 'composite_unpublished');
    t.deepEqual(refused.body.error.composite_ids, [s2.a.id]);
    t.deepEqual(await Promise.all([s2.a.id, s2.b.id, s2.c.id].map((id) => count(app, s2.u.key, id))), [0, 0, 0]);
  });

  it('a retry with the same Idempotency-Key answers the stored response and writes nothing again', async (t, app) => {
    const s = await composite(app);
    const send = (key: string, more = 'No') =>
      app.api('POST', `/public/forms/${s.c.slug}/responses`, { headers: { 'Idempotency-Key': key }, body: { answers: answersOf(s, driving(s), more) } });
    // Two at once (a page's retry while the first is still on its way), then a third later: one response.
    const [first, twin] = await Promise.all([send('k-1'), send('k-1')]);
    const again = await send('k-1');
    t.deepEqual([first!.status, twin!.status, again.status], [201, 201, 201]);
    t.is(twin!.body.id, first!.body.id);
    t.is(again.body.id, first!.body.id);
    t.deepEqual(again.body.metadata.components, first!.body.metadata.components);
    const other = await send('k-1', 'Yes');
    t.is(other.status, 409);
    t.is(other.body.error.reason, 'idempotency_conflict');
    t.deepEqual(await Promise.all([s.a.id, s.b.id, s.c.id].map((id) => count(app, s.u.key, id))), [1, 1, 1]);
    const fresh = await send('k-2');
    t.not(fresh.body.id, first!.body.id);
    t.is(await count(app, s.u.key, s.c.id), 2);
  });

  it('a partial response keeps the composite answer; its completion stores the components, once', async (t, app) => {
    const s = await composite(app, { incremental: true });
    const started = await app.api('POST', `/public/forms/${s.c.slug}/responses`, {
      body: { completed: false, answers: [{ question_id: s.q.email, value: 'ada@example.com' }, { question_id: s.q.comp, value: { [`${s.a.id}/${s.q.drive}`]: true } }] },
    });
    t.is(started.status, 201, JSON.stringify(started.body));
    t.deepEqual(await Promise.all([s.a.id, s.b.id].map((id) => count(app, s.u.key, id))), [0, 0]);
    const patch = (body: unknown) => app.api('PATCH', `/public/forms/${s.c.slug}/responses/${started.body.id}`, { headers: { 'X-Resume-Token': started.body.resume_token }, body });
    const missing = await patch({ completed: true });
    t.is(missing.status, 400);
    t.deepEqual(missing.body.error.question_ids, [s.q.comp, `${s.b.id}/${s.q.stars}`]);
    const done = await patch({ answers: [{ question_id: s.q.comp, value: driving(s) }], completed: true });
    t.is(done.status, 200, JSON.stringify(done.body));
    t.is(done.body.metadata.components.length, 2);
    const again = await patch({ completed: true });
    t.is(again.status, 409);
    t.deepEqual(await Promise.all([s.a.id, s.b.id, s.c.id].map((id) => count(app, s.u.key, id))), [1, 1, 1]);
    const stored = await app.api('GET', `/forms/${s.c.id}/responses/${started.body.id}`, { key: s.u.key });
    t.deepEqual(stored.body.metadata.components, done.body.metadata.components);
  });

  it("a quiz component is scored in its own response; its answers and points never reach the composite's public form", async (t, app) => {
    const u = await app.user();
    const quiz = await published(app, u.key, {
      title: 'Quick quiz',
      mode: 'knowledge_quiz',
      questions: [{ type: 'short_text', title: 'Capital of France?', properties: { correct_answer: 'Zanzibar-Paris', points: 2 } }],
    });
    const c = await published(app, u.key, { title: 'With a quiz', questions: [{ type: 'composite', title: 'Quiz', properties: { composite_ids: [quiz.id] } }] });
    const pub = await app.api('GET', `/public/forms/${c.slug}`);
    t.false(pub.text.includes('Zanzibar-Paris'));
    t.false(pub.text.includes('correct_answer'));
    t.false(pub.text.includes('points'));
    const sent = await app.api('POST', `/public/forms/${c.slug}/responses`, {
      body: { answers: [{ question_id: c.questions[0].id, value: { [`${quiz.id}/${quiz.questions[0].id}`]: 'Zanzibar-Paris' } }] },
    });
    t.is(sent.status, 201, JSON.stringify(sent.body));
    const [inQuiz] = (await app.api('GET', `/forms/${quiz.id}/responses`, { key: u.key })).body.responses;
    t.like(inQuiz.quiz_results, { score: 2, correct_answers: 1, form_mode: 'knowledge_quiz' });
    t.is(sent.body.quiz_results, null, "the composite's own record is a standard form's");
  });

  it("a component's webhook gets its response as any other, marked with the composite it came through", async (t, app) => {
    const u = await app.user('pro');
    const part = await published(app, u.key, { title: 'Part', webhook_url: 'https://hooks.example/part', questions: [{ type: 'short_text', title: 'Q' }] });
    const c = await published(app, u.key, { title: 'Whole', webhook_url: 'https://hooks.example/whole', questions: [{ type: 'composite', title: 'C', properties: { composite_ids: [part.id] } }] });
    const sent = await app.api('POST', `/public/forms/${c.slug}/responses`, { body: { answers: [{ question_id: c.questions[0].id, value: { [`${part.id}/${part.questions[0].id}`]: 'hello' } }] } });
    const [link] = sent.body.metadata.components;
    const bodyOf = async (formId: string) => JSON.parse((await app.raw('SELECT body FROM webhook_deliveries WHERE form_id = $1', [formId]))[0].body);
    const inPart = await bodyOf(part.id);
    t.is(inPart.response.id, link.response_id);
    t.deepEqual(inPart.response.answers, [{ question_id: part.questions[0].id, question_title: 'Q', value: 'hello' }]);
    t.deepEqual(inPart.response.composite, { form_id: c.id, response_id: sent.body.id, question_id: c.questions[0].id });
    t.deepEqual((await bodyOf(c.id)).response.components, sent.body.metadata.components);
  });

  it("the composite's hidden fields reach its components by name: their logic reads them, their responses keep them", async (t, app) => {
    const u = await app.user();
    const part = await published(app, u.key, {
      title: 'Part',
      hidden_fields: ['source'],
      questions: [
        { id: 'how', type: 'short_text', title: 'How did you find us?', required: true, logic_jumps: [] },
        { id: 'ad', type: 'short_text', title: 'Which ad?', required: true },
      ],
      start_logic_jumps: [{ conditions: [{ field: 'hidden:source', op: 'equals', value: 'ad' }], to: 'ad' }],
    });
    const c = await published(app, u.key, { title: 'Whole', hidden_fields: ['source', 'other'], questions: [{ type: 'composite', title: 'C', properties: { composite_ids: [part.id] } }] });
    const [how, ad] = part.questions;
    // From an ad: the component starts at its ad question, so "How did you find us?" is not required.
    const sent = await app.api('POST', `/public/forms/${c.slug}/responses`, {
      body: { hidden: { source: 'ad', other: 'x' }, answers: [{ question_id: c.questions[0].id, value: { [`${part.id}/${ad.id}`]: 'Spring sale' } }] },
    });
    t.is(sent.status, 201, JSON.stringify(sent.body));
    const [inPart] = (await app.api('GET', `/forms/${part.id}/responses`, { key: u.key })).body.responses;
    t.deepEqual(inPart.metadata.hidden, { source: 'ad' });
    const csv = await app.api('GET', `/forms/${part.id}/responses/export`, { key: u.key });
    t.true(csv.text.trim().split('\r\n')[1]!.endsWith(',,Spring sale,ad'), csv.text);
    // Without it the component starts at its first question, which is required.
    const refused = await app.api('POST', `/public/forms/${c.slug}/responses`, { body: { answers: [{ question_id: c.questions[0].id, value: { [`${part.id}/${ad.id}`]: 'x' } }] } });
    t.deepEqual(refused.body.error.question_ids, [c.questions[0].id, `${part.id}/${how.id}`]);
  });

  it("a respondent's rights reach the composite's record and its components' responses alike", async (t, app) => {
    const s = await composite(app);
    const sent = await app.api('POST', `/public/forms/${s.c.slug}/responses`, { body: { visitor_id: 'v-composite', answers: answersOf(s, driving(s)) } });
    t.is(sent.status, 201);
    const found = await app.api('GET', '/respondents/responses?visitor_id=v-composite', { key: s.u.key });
    t.deepEqual(found.body.responses.map((r: any) => r.form_id).sort(), [s.a.id, s.b.id, s.c.id].sort());
    // By the address given in the composite's own question; the components hold none, the visitor id finds them.
    const erased = await app.api('POST', '/respondents/erase', { key: s.u.key, body: { email: 'ada@example.com', visitor_id: 'v-composite' } });
    t.is(erased.body.erased, 3);
    t.deepEqual(await Promise.all([s.a.id, s.b.id, s.c.id].map((id) => count(app, s.u.key, id))), [0, 0, 0]);
  });

  it("the composite's results are one table: the list, the CSV and the JSON export", async (t, app) => {
    const s = await composite(app);
    await app.api('POST', `/public/forms/${s.c.slug}/responses`, { body: { answers: answersOf(s, driving(s)) } });
    const list = await app.api('GET', `/forms/${s.c.id}/responses`, { key: s.u.key });
    t.deepEqual(list.body.responses[0].answers[1], { question_id: s.q.comp, value: driving(s) });
    const csv = await app.api('GET', `/forms/${s.c.id}/responses/export`, { key: s.u.key });
    const [header, row] = csv.text.trim().split('\r\n');
    t.is(
      header,
      'responseId,submittedAt,completedAt,Email,The two forms - About you: Do you drive?,The two forms - About you: Why not?,The two forms - About you: Your car,The two forms - Your visit: Stars,Anything else?',
    );
    t.true(row!.endsWith(',ada@example.com,true,,Zoe,4,No'), row);
    const json = await app.api('GET', `/forms/${s.c.id}/responses/export?format=json`, { key: s.u.key });
    const cells = json.body[0].answers.map((a: any) => [a.sub_field ?? null, a.value]);
    t.deepEqual(cells, [
      [null, 'ada@example.com'],
      [`${s.a.id}/${s.q.drive}`, true],
      [`${s.a.id}/${s.q.car}`, 'Zoe'],
      [`${s.b.id}/${s.q.stars}`, 4],
      [null, 'No'],
    ]);
  });

  it('publishing checks each component: another account’s, unpublished, empty, or holding kinds a composite cannot', async (t, app) => {
    const u = await app.user();
    const other = await app.user();
    const theirs = await published(app, other.key, { title: 'Theirs', questions: [{ type: 'short_text', title: 'Q' }] });
    const draft = (await app.api('POST', '/forms', { key: u.key, body: { title: 'Draft', questions: [{ type: 'short_text', title: 'Q' }] } })).body;
    const empty = await published(app, u.key, { title: 'Empty', questions: [] });
    const uploads = await published(app, u.key, { title: 'Uploads', questions: [{ type: 'file_upload', title: 'CV' }] });
    const refuse = async (ids: string[]) => {
      const form = await app.api('POST', '/forms', { key: u.key, body: { title: 'C', questions: [{ type: 'composite', title: 'C', properties: { composite_ids: ids } }] } });
      const res = await app.api('POST', `/forms/${form.body.id}/publish`, { key: u.key });
      return [res.status, res.body.error?.reason, res.body.error?.composite_ids];
    };
    t.deepEqual(await refuse([theirs.id]), [409, 'composite_deleted', [theirs.id]]);
    t.deepEqual(await refuse([draft.id]), [409, 'composite_unpublished', [draft.id]]);
    t.deepEqual(await refuse([empty.id]), [409, 'composite_empty', [empty.id]]);
    t.deepEqual(await refuse([uploads.id]), [409, 'composite_unsupported', [uploads.id]]);
    // The first failing reason in the documented order, every form failing it listed.
    t.deepEqual(await refuse([uploads.id, draft.id, theirs.id]), [409, 'composite_deleted', [theirs.id]]);
  });
});
