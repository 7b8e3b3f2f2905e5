import test from '../helpers/bounded-test';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { callSource, type MailMessage } from '@formloom/core';
import { waitFor } from '@formloom/core/testing';
import { createFetchTransport } from '@formloom/webhook-http';
import { forEachDb, type TestApp } from '../helpers/app';

/*
 * Steps the server runs (docs/logic.md): an email step mails once per response and step through the outbox
 * (never twice under reloads and concurrent retries), a data node calls the owner's source (a local HTTP
 * server) with earlier answers, maps its JSON, caches it, and takes the fallback path when the source fails.
 */

const sent: MailMessage[] = [];
const mailer = { send: async (m: MailMessage) => (sent.push(m), { id: String(sent.length) }) };

// The owner's source: GET ?email=...; 500 for fail@..., checks the secret header.
const hits: Array<{ url: string; key: string | undefined }> = [];
let source: Server;
let sourceUrl = '';
test.before(async () => {
  source = createServer((req, res) => {
    hits.push({ url: req.url ?? '', key: req.headers['x-api-key'] as string | undefined });
    const email = new URL(req.url ?? '/', 'http://x').searchParams.get('email') ?? '';
    if (req.headers['x-api-key'] !== 's3cret') return res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"key"}');
    if (email.startsWith('fail')) return res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"down"}');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ customer: { plan: 'Gold', seats: 12 }, tier: `t-${email.split('@')[0]}` }));
  });
  await new Promise<void>((r) => source.listen(0, '127.0.0.1', () => r()));
  sourceUrl = `http://127.0.0.1:${(source.address() as AddressInfo).port}/customers`;
});
test.after.always(() => source?.close());

const formBody = (extra: Record<string, unknown> = {}) => ({
  title: 'Order <desk>',
  hidden_fields: ['tier', 'status'],
  published: true,
  questions: [
    { id: 'name', type: 'short_text', title: 'Name', required: true },
    { id: 'email', type: 'email', title: 'Email', required: true },
    { id: 'mail', type: 'email_step', title: 'Confirmation', properties: { recipient: '{answer.email}', sender_name: 'Ada at Acme', subject: 'Hello {answer.name}', body: 'Thanks <b>{answer.name}</b>, you are {hidden.tier|new}.' } },
    {
      id: 'lookup', type: 'data', title: 'Customer',
      properties: { source: sourceUrl, params: { email: '{answer.email}' }, secret_header_name: 'X-Api-Key', secret_header_value: 's3cret', mapping: { 'var.plan': '$.customer.plan', 'hidden.tier': '$.tier' }, status_field: 'status', cache_seconds: 600 },
      logic_jumps: [{ conditions: [{ field: 'hidden:status', op: 'equals', value: 'failed' }], to: 'fallback' }],
    },
    { id: 'ok', type: 'short_text', title: 'Welcome back, {hidden.tier}', logic_jumps: [{ to: 'end' }] },
    { id: 'fallback', type: 'short_text', title: 'Tell us your plan' },
  ],
  ...extra,
});

async function partial(app: TestApp, form: any, name: string, email: string) {
  const [n, e] = form.questions;
  const r = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { completed: false, answers: [{ question_id: n.id, value: name }, { question_id: e.id, value: email }] } });
  if (r.status !== 201) throw new Error(JSON.stringify(r.body));
  return { id: r.body.id as string, token: r.body.resume_token as string };
}
const step = (app: TestApp, form: any, p: { id: string; token: string }, qid: string) =>
  app.api('POST', `/public/forms/${form.slug}/responses/${p.id}/steps/${qid}`, { headers: { 'x-resume-token': p.token } });

forEachDb(test, (t) => {
  t('email step: readiness at publish; mailed once per response and step through the outbox, recalls escaped in HTML', async (tt, app) => {
    app.formloom.worker.start({ pollMs: 50 });
    const owner = await app.user('pro');
    const missing = await app.api('POST', '/forms', { key: owner.key, body: { title: 'x', published: true, questions: [{ type: 'email_step', title: 'm', properties: { recipient: 'a@example.com', sender_name: 'A', body: 'b' } }] } });
    tt.is(missing.body.publish_error.reason, 'email_node_missing_subject');
    const login = await app.api('POST', '/forms', { key: owner.key, body: { title: 'x', published: true, questions: [{ type: 'email_step', title: 'm', properties: { recipient: '{respondent.email}', sender_name: 'A', subject: 's', body: 'b' } }] } });
    tt.is(login.body.publish_error.reason, 'email_node_requires_login');
    const free = await app.user('free');
    const gated = await app.api('POST', '/forms', { key: free.key, body: formBody() });
    tt.is(gated.body.publish_error.reason, 'data_node_requires_pro');

    const created = await app.api('POST', '/forms', { key: owner.key, body: formBody() });
    tt.is(created.status, 201, JSON.stringify(created.body));
    tt.true(created.body.published, JSON.stringify(created.body.publish_error));
    const form = created.body;
    const mailQ = form.questions[2].id;
    const to = `ada-${app.kind}@example.com`;
    const p = await partial(app, form, 'Ada <Lovelace>', to);
    // A reload and two concurrent retries: one mail.
    const answers = await Promise.all([step(app, form, p, mailQ), step(app, form, p, mailQ), step(app, form, p, mailQ)]);
    tt.deepEqual(answers.map((a) => a.status), [200, 200, 200]);
    tt.is(answers.filter((a) => a.body.duplicate === false).length, 1);
    await waitFor(async () => (await app.raw(`SELECT status FROM outbox WHERE kind = 'mail'`)).every((r: any) => r.status === 'delivered') && sent.some((m) => m.to === to), { timeoutMs: 30_000 });
    tt.is((await step(app, form, p, mailQ)).body.duplicate, true);
    const mine = sent.filter((m) => m.to === to);
    tt.is(mine.length, 1);
    tt.is(mine[0]!.subject, 'Hello Ada <Lovelace>');
    tt.is(mine[0]!.fromName, 'Ada at Acme');
    tt.regex(mine[0]!.text, /Thanks <b>Ada <Lovelace><\/b>, you are new\./);
    tt.regex(mine[0]!.html!, /Thanks &lt;b&gt;Ada &lt;Lovelace&gt;&lt;\/b&gt;/);
    // A wrong token, and a step the saved answers do not reach (a new response without answers).
    tt.is((await step(app, form, { ...p, token: 'nope' }, mailQ)).status, 401);
    const empty = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { completed: false, answers: [] } });
    tt.is((await step(app, form, { id: empty.body.id, token: empty.body.resume_token }, mailQ)).status, 409);
  });

  t('data node: secret kept sealed; mapped, cached per input, fallback on failure; the builder test call', async (tt, app) => {
    const owner = await app.user('pro');
    const created = await app.api('POST', '/forms', { key: owner.key, body: formBody() });
    const form = created.body;
    const dq = form.questions[3];
    tt.is(dq.properties.secret_header_set, true);
    tt.false(JSON.stringify(created.body).includes('s3cret'));
    tt.false(JSON.stringify(await app.raw('SELECT * FROM questions')).includes('s3cret'));
    // Saving the question back without the value keeps it.
    const put = await app.api('PUT', `/forms/${form.id}`, { key: owner.key, body: { questions: form.questions.map((q: any) => ({ ...q, properties: q.properties })) } });
    tt.is(put.status, 200, JSON.stringify(put.body));
    tt.is(put.body.questions[3].properties.secret_header_set, true);

    const email = `grace-${app.kind}@example.com`;
    const p = await partial(app, form, 'Grace', email);
    // The tests of both databases share the source: count this one's calls by its address.
    const mine = () => hits.filter((h) => h.url.includes(encodeURIComponent(email)));
    const first = await step(app, form, p, dq.id);
    tt.is(first.status, 200, JSON.stringify(first.body));
    tt.like(first.body, { type: 'data', status: 'ok', cached: false, variables: { plan: 'Gold' }, hidden: { tier: `t-grace-${app.kind}`, status: 'ok' } });
    tt.is(mine().length, 1);
    tt.is(mine()[0]!.key, 's3cret');
    const again = await step(app, form, await partial(app, form, 'Grace again', email), dq.id);
    tt.like(again.body, { status: 'ok', cached: true, variables: { plan: 'Gold' } });
    tt.is(mine().length, 1, 'the cached answer: no second call');

    // The completion stores what the node set in the response's hidden fields, over a value the link gave.
    const [n, e, , , okQ] = form.questions;
    const given = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { completed: false, hidden: { tier: 'from-the-link' }, answers: [{ question_id: n.id, value: 'Grace' }, { question_id: e.id, value: email }] } });
    const g = { id: given.body.id as string, token: given.body.resume_token as string };
    tt.is((await step(app, form, g, dq.id)).body.status, 'ok');
    const stored = async (id: string) => (await app.api('GET', `/forms/${form.id}/responses/${id}`, { key: owner.key })).body.metadata.hidden;
    tt.deepEqual(await stored(g.id), { tier: 'from-the-link' }, 'a partial response keeps what it was given');
    const completed = await app.api('PATCH', `/public/forms/${form.slug}/responses/${g.id}`, { headers: { 'x-resume-token': g.token }, body: { completed: true, answers: [{ question_id: okQ.id, value: 'Hi' }] } });
    tt.is(completed.status, 200, JSON.stringify(completed.body));
    tt.deepEqual(await stored(g.id), { tier: `t-grace-${app.kind}`, status: 'ok' });

    // A failing source: the fallback path.
    const f = await partial(app, form, 'Bob', `fail-${app.kind}@example.com`);
    const failed = await step(app, form, f, dq.id);
    tt.like(failed.body, { status: 'failed', cached: false, variables: {}, hidden: { status: 'failed' } });
    // Its completion follows the fallback: the required fallback question is on the path.
    const fb = form.questions[5];
    const republished = await app.api('PUT', `/forms/${form.id}`, { key: owner.key, body: { questions: form.questions.map((q: any) => (q.id === fb.id ? { ...q, required: true } : q)) } });
    tt.is(republished.status, 200, JSON.stringify(republished.body));
    tt.true(republished.body.questions[5].required);
    tt.is((await app.api('POST', `/forms/${form.id}/publish`, { key: owner.key })).status, 200);
    const f2 = await partial(app, form, 'Bob', `fail2-${app.kind}@example.com`);
    tt.is((await step(app, form, f2, dq.id)).body.status, 'failed');
    const done = (body: unknown) => app.api('PATCH', `/public/forms/${form.slug}/responses/${f2.id}`, { headers: { 'x-resume-token': f2.token }, body });

    const unanswered = await done({ completed: true });
    tt.is(unanswered.status, 400, JSON.stringify(unanswered.body));
    tt.deepEqual(unanswered.body.error.question_ids, [fb.id]);
    tt.is((await done({ completed: true, answers: [{ question_id: fb.id, value: 'Silver' }] })).status, 200);
    tt.deepEqual(await stored(f2.id), { status: 'failed' }, 'the failed outcome is stored as the fallback path read it');

    // A step on the node's fallback path is reached: what the node set counts for the steps after it.
    const chained = (await app.api('POST', '/forms', { key: owner.key, body: { title: 'Chained', hidden_fields: ['status'], published: true, questions: [
      { id: 'email', type: 'email', title: 'Email', required: true },
      { id: 'lookup', type: 'data', title: 'Customer', properties: { source: sourceUrl, params: { email: '{answer.email}' }, status_field: 'status' }, logic_jumps: [{ conditions: [{ field: 'hidden:status', op: 'equals', value: 'failed' }], to: 'sorry' }] },
      { id: 'fine', type: 'short_text', title: 'Fine', logic_jumps: [{ to: 'end' }] },
      { id: 'sorry', type: 'email_step', title: 'Sorry', properties: { recipient: '{answer.email}', sender_name: 'Acme', subject: 'Lookup {hidden.status}', body: 'We could not find you.' } },
    ] } })).body;
    tt.true(chained.published, JSON.stringify(chained.publish_error));
    const c = await app.api('POST', `/public/forms/${chained.slug}/responses`, { body: { completed: false, answers: [{ question_id: chained.questions[0].id, value: `chain-${app.kind}@example.com` }] } });
    const cp = { id: c.body.id as string, token: c.body.resume_token as string };
    tt.is((await step(app, chained, cp, chained.questions[1].id)).body.status, 'failed', 'no secret header: the source refuses');
    const sorry = await step(app, chained, cp, chained.questions[3].id);
    tt.is(sorry.status, 200, JSON.stringify(sorry.body));
    tt.is(sorry.body.duplicate, false);

    const sample = await app.api('POST', `/forms/${form.id}/questions/${dq.id}/data-test`, { key: owner.key, body: { answers: { [form.questions[1].id]: 'sample@example.com' } } });
    tt.is(sample.status, 200, JSON.stringify(sample.body));
    tt.like(sample.body, { status: 'ok', http_status: 200, error: null, variables: { plan: 'Gold' }, hidden: { tier: 't-sample' }, body: { customer: { seats: 12 } } });
    const other = await app.user('pro');
    tt.is((await app.api('POST', `/forms/${form.id}/questions/${dq.id}/data-test`, { key: other.key, body: {} })).status, 403);
  });

  t("Fuse step: its completion stores what the data node set in metadata.hidden, as the page's completion does", async (tt, app) => {
    const owner = await app.user('pro');
    const make = async (body: Record<string, unknown>) => (await app.api('POST', '/forms', { key: owner.key, body: { published: true, ...body } })).body;
    const plan = await make({ title: 'Plan', hidden_fields: ['tier'], questions: [{ type: 'short_text', title: 'Which plan, {hidden.tier}?' }] });
    const form = await make({
      title: 'Sign-up', hidden_fields: ['tier', 'status'],
      questions: [
        { id: 'email', type: 'email', title: 'Email', required: true },
        { id: 'lookup', type: 'data', title: 'Customer', properties: { source: sourceUrl, params: { email: '{answer.email}' }, secret_header_name: 'X-Api-Key', secret_header_value: 's3cret', mapping: { 'hidden.tier': '$.tier' }, status_field: 'status' } },
        { id: 'go', type: 'fuse', title: 'On to the plan', properties: { fuse_form_id: plan.id, hidden_fields: { tier: '{hidden.tier}' } } },
      ],
    });
    tt.true(form.published, JSON.stringify(form.publish_error));
    const [emailQ, dataQ, fuseQ] = form.questions;
    const email = `fused-${app.kind}@example.com`;
    const r = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { completed: false, hidden: { tier: 'from-the-link' }, answers: [{ question_id: emailQ.id, value: email }] } });
    const p = { id: r.body.id as string, token: r.body.resume_token as string };
    tt.is((await step(app, form, p, dataQ.id)).body.status, 'ok');
    const fused = await step(app, form, p, fuseQ.id);
    tt.like(fused.body, { status: 'continued', next: { hidden: { tier: `t-fused-${app.kind}` } } });
    const done = (await app.api('GET', `/forms/${form.id}/responses/${p.id}`, { key: owner.key })).body;
    tt.truthy(done.completed_at);
    tt.deepEqual(done.metadata.hidden, { tier: `t-fused-${app.kind}`, status: 'ok' }, "the node's values over the link's");
    tt.deepEqual(done.fused_to, { form_id: plan.id, response_id: fused.body.next.response_id });
  });
}, { mailer, allowPrivateWebhooks: true });

test('data node: the webhook transport refuses a private source without the operator allowing it', async (t) => {
  const out = await callSource(createFetchTransport({ allowPrivate: false }), { url: sourceUrl, method: 'GET', params: {}, secret: null, timeoutMs: 2000, mapping: {} });
  t.like(out, { status: 'failed', error: 'The source is on a private or refused address' });
});
