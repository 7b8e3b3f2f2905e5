import test from '../helpers/bounded-test';
import { stripePlugin } from '@formloom/payments-stripe';
import { forEachDb, type TestApp } from '../helpers/app';

const WEBHOOK = 'https://hooks.example/formloom?token=sekret-hook-token-123';
const SECRET_ANSWER = 'Zanzibar-secret-answer';

/** Keys that belong to the owner only: none may appear anywhere in what a respondent is given. */
const FORBIDDEN_KEYS = new Set([
  'webhook_url',
  'correct_answer',
  'points',
  'score',
  'ending_id',
  'min_score',
  'max_score',
  'owner_id',
  'team_id',
  'user_id',
  'published_by',
  'published_by_name',
  'published_version_id',
  'version_id',
  'variables',
  'recipient',
  'sender_name',
  'subject',
  'body',
  'source',
  'mapping',
  'document',
  'calendar_connected',
  'confirmation_call_number',
  'provider',
  'fuse_form_id',
  'session_id',
  'composite_ids',
  'response_count',
]);

/** Every key at any depth of a JSON value, with its path. */
function keysOf(v: unknown, path = '$'): Array<[string, string]> {
  if (Array.isArray(v)) return v.flatMap((x, i) => keysOf(x, `${path}[${i}]`));
  if (v && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => [[k, `${path}.${k}`] as [string, string], ...keysOf(x, `${path}.${k}`)]);
  return [];
}

async function quizForm(app: TestApp) {
  const u = await app.user('pro');
  const team = await app.api('POST', '/teams', { key: u.key, body: { name: 'Quizzers' } });
  const created = await app.api('POST', '/forms', {
    key: u.key,
    body: {
      title: 'Quiz',
      team_id: team.body.id,
      published: true,
      mode: 'match_quiz',
      webhook_url: WEBHOOK,
      variables: { internal_threshold: 42 },
      quiz_settings: { endings: [{ id: 'end_low', title: 'Keep going', max_score: 2 }, { id: 'end_high', title: 'Great', min_score: 3 }] },
      questions: [
        { type: 'short_text', title: 'Capital', properties: { correct_answer: SECRET_ANSWER, points: 7 } },
        {
          type: 'multiple_choice',
          title: 'Pick',
          properties: { choices: [{ id: 'c1', label: 'Red', score: 5, ending_id: 'end_high' }, { id: 'c2', label: 'Blue', score: 1, ending_id: 'end_low' }], correct_answer: 'Red', points: 3 },
          // Red ends the form: a response that answers Red completes without reaching the payment question.
          logic_jumps: [{ conditions: [{ op: 'equals', value: 'Red' }], to: 'end' }],
        },
        { type: 'dropdown', title: 'Drop', properties: { choices: [{ label: 'A', score: 2, ending_id: 'end_low' }] } },
        { type: 'rating', title: 'Stars', properties: { steps: 7, shape: 'heart', correct_answer: 7, points: 1 } },
        { type: 'yes_no', title: 'Sure?', properties: { correct_answer: true, points: 2 } },
        { type: 'file_upload', title: 'CV', properties: { max_size_mb: 2 } },
        { type: 'payment', title: 'Pay', properties: { amount: 10, currency: 'EUR', provider: 'standard' } },
      ],
    },
  });
  if (created.status !== 201 || !created.body.published) throw new Error(JSON.stringify(created.body));
  return { u, team: team.body, form: created.body };
}

forEachDb(test, (it) => {
  it('the public read carries only what a respondent page needs: no webhook URL, quiz scoring, owner or team ids', async (t, app) => {
    const { u, team, form } = await quizForm(app);
    // The owner's version holds everything the public view must leave out (so this test can fail).
    const versions = await app.api('GET', `/forms/${form.id}/versions`, { key: u.key });
    const full = JSON.stringify(versions.body);
    for (const s of [WEBHOOK, SECRET_ANSWER, '"points"', '"ending_id"', '"min_score"', '"internal_threshold"']) t.true(full.includes(s), s);

    const res = await app.api('GET', `/public/forms/${form.slug}`);
    t.is(res.status, 200);
    const leaks = keysOf(res.body).filter(([k]) => FORBIDDEN_KEYS.has(k));
    t.deepEqual(leaks, []);
    for (const s of [WEBHOOK, 'hooks.example', 'sekret-hook-token-123', SECRET_ANSWER, team.id, u.id, 'internal_threshold']) {
      t.false(res.text.includes(s), `the public JSON contains ${s}`);
    }
    // What the page does need is there.
    t.like(res.body, { form_id: form.id, slug: form.slug, version: 1, title: 'Quiz' });
    const [capital, pick, drop, stars, sure, cv, pay] = res.body.snapshot.questions;
    t.deepEqual(Object.keys(capital).sort(), ['description', 'id', 'logic_jumps', 'order', 'properties', 'required', 'title', 'type', 'validations']);
    t.deepEqual(capital.properties, {});
    t.deepEqual(pick.properties, { choices: [{ id: 'c1', label: 'Red' }, { id: 'c2', label: 'Blue' }], allow_multiple: false });
    t.deepEqual(drop.properties, { choices: [{ label: 'A' }] });
    t.deepEqual(stars.properties, { steps: 7, shape: 'heart' });
    t.deepEqual(sure.properties, {});
    t.deepEqual(cv.properties, { max_size_mb: 2 });
    t.deepEqual(pay.properties, { amount: 10, currency: 'EUR' });
    t.deepEqual(res.body.snapshot.quiz_settings, { endings: [{ id: 'end_low', title: 'Keep going' }, { id: 'end_high', title: 'Great' }] });
    t.is(res.body.snapshot.mode, 'match_quiz');
    t.is(res.body.theme.theme_color, '#6366f1');
  });

  it('the public page /f/<slug> does not contain owner-only values either', async (t, app) => {
    const { u, team, form } = await quizForm(app);
    const page = await fetch(`${app.url}/f/${form.slug}`);
    t.is(page.status, 200);
    const html = await page.text();
    t.true(html.includes('Capital'));
    // The page carries the public view itself (ending ids and titles included, as the API shows them), nothing more.
    for (const s of [WEBHOOK, 'hooks.example', 'sekret-hook-token-123', SECRET_ANSWER, team.id, u.id, 'internal_threshold', 'min_score', 'webhook_url', 'correct_answer']) {
      t.false(html.includes(s), `the page contains ${s}`);
    }
  });

  it('public responses and uploads answer the respondent with their own data only', async (t, app) => {
    const { form } = await quizForm(app);
    const [capital, pick] = form.questions;
    const res = await app.api('POST', `/public/forms/${form.slug}/responses`, {
      body: { answers: [{ question_id: capital.id, value: 'Paris' }, { question_id: pick.id, value: 'Red' }] },
    });
    t.is(res.status, 201, JSON.stringify(res.body));
    t.deepEqual(Object.keys(res.body).sort(), ['answers', 'completed_at', 'form_id', 'id', 'language', 'metadata', 'quiz_results', 'submitted_at', 'version', 'visitor_id']);
    t.is(res.body.quiz_results.matched_ending_id, 'end_high', 'the result is computed by the server');
    t.false(res.text.includes(SECRET_ANSWER));
    t.false(res.text.includes(WEBHOOK));

    const fd = new FormData();
    fd.append('file', new Blob(['%PDF-1.4 x'], { type: 'application/pdf' }), 'cv.pdf');
    const cv = form.questions.find((q: { type: string }) => q.type === 'file_upload');
    const up = await fetch(`${app.url}/api/v1/public/forms/${form.slug}/uploads?question_id=${cv.id}`, { method: 'POST', body: fd });
    t.is(up.status, 201);
    t.deepEqual(Object.keys((await up.json()) as object).sort(), ['name', 'url']);
  });
  // A payment question is published only where payments are configured (docs/payments.md); Stripe is never called here.
}, { plugins: [stripePlugin({ secretKey: 'sk_test_unused', webhookSecret: 'whsec_unused', publishableKey: 'pk_test_unused' })] });
