import test from '../helpers/bounded-test';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from '@formloom/core/testing';
import { forEachDb, type TestApp } from '../helpers/app';
import { download, sheetCells } from '../helpers/xlsx-cells';

/*
 * Fuse questions (docs/logic.md "Fuse"): readiness at publish (form missing, not found, another account's,
 * unpublished, pinned session archived); the step completes the response and starts its continuation in the Fuse
 * form with the mapped hidden fields, once (a repeat answers the same continuation); both responses name each
 * other in the API, in their webhooks and in the CSV, XLSX and JSON exports; a pinned session is answered in its
 * version.
 */

// The owners' webhook receiver: every delivery's body, by response id.
const received: Array<{ response: { id: string; fused_from?: unknown; fused_to?: unknown; hidden?: Record<string, string> } }> = [];
let receiver: Server;
let hook = '';
test.before(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => (received.push(JSON.parse(body)), res.writeHead(200).end('ok')));
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
test.after.always(() => receiver?.close());

async function make(app: TestApp, key: string, body: Record<string, unknown>) {
  const r = await app.api('POST', '/forms', { key, body: { published: true, ...body } });
  if (r.status !== 201) throw new Error(JSON.stringify(r.body));
  return r.body;
}
const fuseQuestion = (properties: Record<string, unknown>) => ({ title: 'x', published: true, questions: [{ type: 'fuse', title: 'Go on', properties }] });
const step = (app: TestApp, slug: string, p: { id: string; token: string }, qid: string) =>
  app.api('POST', `/public/forms/${slug}/responses/${p.id}/steps/${qid}`, { headers: { 'x-resume-token': p.token } });

forEachDb(test, (t) => {
  t('readiness: the Fuse form missing, not found (or another account\'s), unpublished, its pinned session archived', async (tt, app) => {
    const owner = await app.user('pro');
    const reason = async (properties: Record<string, unknown>) => (await app.api('POST', '/forms', { key: owner.key, body: fuseQuestion(properties) })).body.publish_error?.reason ?? null;
    const draft = await app.api('POST', '/forms', { key: owner.key, body: { title: 'Draft', questions: [{ type: 'short_text', title: 'q' }] } });
    const live = await make(app, owner.key, { title: 'Live', questions: [{ type: 'short_text', title: 'q' }] });
    const elsewhere = await make(app, owner.key, { title: 'Elsewhere', questions: [{ type: 'short_text', title: 'q' }] });
    const stranger = await app.user('pro');
    const theirs = await make(app, stranger.key, { title: 'Theirs', questions: [{ type: 'short_text', title: 'q' }] });

    tt.is(await reason({}), 'fuse_form_missing');
    tt.is(await reason({ fuse_form_id: 'frm_nothing' }), 'fuse_form_not_found');
    tt.is(await reason({ fuse_form_id: theirs.id }), 'fuse_form_not_found', "another account's form is not found");
    tt.is(await reason({ fuse_form_id: draft.body.id }), 'fuse_form_unpublished');
    tt.is(await reason({ fuse_form_id: live.id, session_id: elsewhere.version.id }), 'fuse_session_archived', "another form's version");
    tt.is(await reason({ fuse_form_id: live.id, session_id: 'ver_gone' }), 'fuse_session_archived');
    tt.is(await reason({ fuse_form_id: live.id, session_id: live.version.id }), null);
    tt.is(await reason({ fuse_form_id: live.id, hidden_fields: { who: '{answer.q_later}' } }), 'recall_deleted_question', 'hidden fields are recall texts');
    const blocked = await app.api('POST', '/forms', { key: owner.key, body: fuseQuestion({ fuse_form_id: live.id, session_id: 'ver_gone' }) });
    tt.deepEqual(blocked.body.publish_error.question_ids, [blocked.body.questions[0].id]);
    const bad = await app.api('POST', '/forms', { key: owner.key, body: fuseQuestion({ fuse_form_id: live.id, hidden_fields: { 'no spaces': 'x' } }) });
    tt.is(bad.status, 400, JSON.stringify(bad.body));
    // Unpublishing the Fuse form blocks the next publish of the form that uses it.
    const user = await make(app, owner.key, fuseQuestion({ fuse_form_id: live.id }));
    tt.is((await app.api('DELETE', `/forms/${live.id}/publish`, { key: owner.key })).status, 200);
    const again = await app.api('POST', `/forms/${user.id}/publish`, { key: owner.key });
    tt.is(again.status, 409);
    tt.is(again.body.error.reason, 'fuse_form_unpublished');
  });

  t('the step completes the response, starts the linked one in the Fuse form with hidden fields; links in the API, webhooks and exports', async (tt, app) => {
    app.formloom.worker.start({ pollMs: 50 });
    const owner = await app.user('pro');
    const target = await make(app, owner.key, {
      title: 'Plan', webhook_url: hook, hidden_fields: ['name', 'source'],
      questions: [{ id: 'plan', type: 'short_text', title: 'Which plan, {hidden.name}?', required: true }],
    });
    const form = await make(app, owner.key, {
      title: 'Sign-up', webhook_url: hook,
      questions: [
        { id: 'name', type: 'short_text', title: 'Name', required: true },
        { id: 'go', type: 'fuse', title: 'On to the plan', properties: { fuse_form_id: target.id, hidden_fields: { name: '{answer.name}', source: 'sign-up', undeclared: 'x' } } },
        { id: 'after', type: 'short_text', title: 'Never asked', required: true },
      ],
    });
    tt.true(form.published, JSON.stringify(form.publish_error));
    const [nameQ, fuseQ] = form.questions;
    const started = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { completed: false, answers: [{ question_id: nameQ.id, value: `Ada ${app.kind}` }] } });
    tt.is(started.status, 201, JSON.stringify(started.body));
    const p = { id: started.body.id as string, token: started.body.resume_token as string };

    tt.is((await step(app, form.slug, { ...p, token: 'nope' }, fuseQ.id)).status, 401);
    const empty = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { completed: false, answers: [] } });
    tt.is((await step(app, form.slug, { id: empty.body.id, token: empty.body.resume_token }, fuseQ.id)).body.error.reason, 'step_not_on_path');

    // Three at once (a reload, retries): one continuation.
    const runs = await Promise.all([step(app, form.slug, p, fuseQ.id), step(app, form.slug, p, fuseQ.id), step(app, form.slug, p, fuseQ.id)]);
    tt.deepEqual(runs.map((r) => r.status), [200, 200, 200], JSON.stringify(runs.map((r) => r.body)));
    tt.is(runs.filter((r) => r.body.duplicate === false).length, 1);
    const next = runs[0]!.body.next;
    tt.like(runs[0]!.body, { type: 'fuse', status: 'continued', next: { form_id: target.id, slug: target.slug, hidden: { name: `Ada ${app.kind}`, source: 'sign-up' } } });
    tt.true(runs.every((r) => r.body.next.response_id === next.response_id && r.body.next.resume_token === next.resume_token));

    const source = await app.api('GET', `/forms/${form.id}/responses/${p.id}`, { key: owner.key });
    tt.truthy(source.body.completed_at, 'completed at the Fuse: the question after it is not asked');
    tt.deepEqual(source.body.fused_to, { form_id: target.id, response_id: next.response_id });
    tt.is(source.body.fused_from, null);
    const linked = await app.api('GET', `/forms/${target.id}/responses/${next.response_id}`, { key: owner.key });
    tt.deepEqual(linked.body.fused_from, { form_id: form.id, response_id: p.id });
    tt.is(linked.body.completed_at, null);
    tt.deepEqual(linked.body.metadata.hidden, { name: `Ada ${app.kind}`, source: 'sign-up' });
    tt.false('fused_from' in linked.body.metadata, 'the links are fields of their own');
    tt.is(linked.body.version_id, target.version.id);

    // The respondent answers the Fuse form in the continuation.
    const done = await app.api('PATCH', `/public/forms/${target.slug}/responses/${next.response_id}`, {
      headers: { 'x-resume-token': next.resume_token }, body: { completed: true, answers: [{ question_id: target.questions[0].id, value: 'Gold' }] },
    });
    tt.is(done.status, 200, JSON.stringify(done.body));
    const listed = await app.api('GET', `/forms/${target.id}/responses`, { key: owner.key });
    tt.deepEqual(listed.body.responses.find((r: any) => r.id === next.response_id).fused_from, { form_id: form.id, response_id: p.id });

    await waitFor(() => received.some((b) => b.response.id === p.id) && received.some((b) => b.response.id === next.response_id), { timeoutMs: 30_000 });
    tt.deepEqual(received.find((b) => b.response.id === p.id)!.response.fused_to, { form_id: target.id, response_id: next.response_id });
    const theirs = received.find((b) => b.response.id === next.response_id)!.response;
    tt.deepEqual(theirs.fused_from, { form_id: form.id, response_id: p.id });
    tt.deepEqual(theirs.hidden, { name: `Ada ${app.kind}`, source: 'sign-up' });
    tt.is((await step(app, form.slug, p, fuseQ.id)).body.duplicate, true, 'still the same continuation afterwards');

    // Both forms' exports have the link columns: each linked response names the other, the others are empty.
    const LINKS = ['Started from - response', 'Started from - form', 'Continued in - response', 'Continued in - form'];
    const csv = async (id: string) => (await app.api('GET', `/forms/${id}/responses/export`, { key: owner.key })).text.split('\r\n').filter(Boolean);
    const line = (lines: string[], id: string) => lines.find((l) => l.startsWith(`${id},`)) ?? '';
    const signUp = await csv(form.id);
    tt.true(signUp[0]!.endsWith(`,${LINKS.join(',')}`), signUp[0]);
    tt.true(line(signUp, p.id).endsWith(`,,,${next.response_id},${target.id}`), line(signUp, p.id));
    tt.true(line(signUp, empty.body.id).endsWith(',,,,'), 'no link: empty cells');
    const plan = await csv(target.id);
    tt.true(plan[0]!.endsWith(`,${LINKS.join(',')}`), 'the Fuse form has them too (its responses started from another)');
    tt.true(line(plan, next.response_id).endsWith(`,${p.id},${form.id},,`), line(plan, next.response_id));
    const { rows } = await sheetCells((await download(app, `/forms/${target.id}/responses/export?format=xlsx`, owner.key)).bytes);
    const at = LINKS.map((l) => rows[0]!.indexOf(l));
    tt.true(at.every((i) => i > 0), rows[0]!.join());
    const row = rows.find((r) => r[0] === next.response_id)!;
    tt.deepEqual(at.map((i) => row[i] ?? null), [p.id, form.id, null, null]);
    const json = async (id: string) => (await app.api('GET', `/forms/${id}/responses/export?format=json`, { key: owner.key })).body as Array<{ id: string; fused_from?: unknown; fused_to?: unknown }>;
    tt.like((await json(target.id)).find((r) => r.id === next.response_id), { fused_from: { form_id: form.id, response_id: p.id }, fused_to: null });
    const mine = await json(form.id);
    tt.like(mine.find((r) => r.id === p.id), { fused_from: null, fused_to: { form_id: target.id, response_id: next.response_id } });
    tt.like(mine.find((r) => r.id === empty.body.id), { fused_from: null, fused_to: null });
  });

  t('a pinned session is answered in its version; an unpublished Fuse form completes the response without one', async (tt, app) => {
    const owner = await app.user('pro');
    const target = await make(app, owner.key, { title: 'Pinned', questions: [{ type: 'short_text', title: 'Version one' }] });
    tt.is((await app.api('PUT', `/forms/${target.id}`, { key: owner.key, body: { questions: [{ type: 'short_text', title: 'Version two' }] } })).status, 200);
    const changed = await app.api('POST', `/forms/${target.id}/publish`, { key: owner.key });
    tt.is(changed.status, 200, JSON.stringify(changed.body));
    tt.not(changed.body.published_version_id, target.version.id);
    const form = await make(app, owner.key, { title: 'Pins', questions: [{ type: 'short_text', title: 'Name' }, { type: 'fuse', title: 'On', properties: { fuse_form_id: target.id, session_id: target.version.id } }] });
    tt.true(form.published, JSON.stringify(form.publish_error));
    const start = async () => {
      const r = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { completed: false, answers: [] } });
      return { id: r.body.id as string, token: r.body.resume_token as string };
    };
    const pinned = await step(app, form.slug, await start(), form.questions[1].id);
    const answered = await app.api('GET', `/forms/${target.id}/responses/${pinned.body.next.response_id}`, { key: owner.key });
    tt.is(answered.body.version_id, target.version.id);
    tt.is(answered.body.version, 1);

    tt.is((await app.api('DELETE', `/forms/${target.id}/publish`, { key: owner.key })).status, 200);
    const p = await start();
    const off = await step(app, form.slug, p, form.questions[1].id);
    tt.like(off.body, { status: 'unavailable', duplicate: false, next: null });
    const mine = await app.api('GET', `/forms/${form.id}/responses/${p.id}`, { key: owner.key });
    tt.truthy(mine.body.completed_at);
    tt.is(mine.body.fused_to, null);
    tt.like((await step(app, form.slug, p, form.questions[1].id)).body, { status: 'unavailable', duplicate: true });
  });
}, { allowPrivateWebhooks: true, strictResponses: true });
