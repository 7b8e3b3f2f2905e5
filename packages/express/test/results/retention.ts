import test from '../helpers/bounded-test';
import { ResponseRetentionHandler } from '@formloom/core';
import { forEachDb, type TestApp } from '../helpers/app';
import { tracesOf } from '../helpers/traces';

/*
 * Per-form retention (docs/privacy.md, "Retention"): `response_retention` on a form deletes its older responses,
 * with their files and counters, at the hourly sweep; bad policies are a 400 naming the field. The same
 * housekeeping deletes expired idempotency keys.
 */

async function submit(app: TestApp, slug: string, qid: string, value: unknown) {
  const r = await app.api('POST', `/public/forms/${slug}/responses`, { body: { answers: [{ question_id: qid, value }] } });
  if (r.status !== 201) throw new Error(r.text);
  return r.body.id as string;
}

forEachDb(test, (t) => {
  t('keep_newest and older_than_days delete older responses, their files and counters; bad policies are refused; expired Idempotency-Keys are purged', async (tt, app) => {
    const owner = await app.user('pro');
    for (const bad of [{ older_than_days: 0 }, { keep_newest: 1.5 }, { days: 3 }, 'forever']) {
      const r = await app.api('POST', '/forms', { key: owner.key, body: { title: 'Bad', response_retention: bad } });
      tt.is(r.status, 400, JSON.stringify(bad));
      tt.regex(r.body.error.message, /response_retention/);
    }
    const created = await app.api('POST', '/forms', {
      key: owner.key,
      body: { title: 'Kept short', published: true, webhook_url: 'https://hooks.example.com/kept', response_retention: { keep_newest: 2 }, questions: [{ type: 'short_text', title: 'Name' }, { type: 'file_upload', title: 'CV' }] },
    });
    tt.is(created.status, 201, created.text);
    const form = created.body;
    tt.deepEqual(form.response_retention, { keep_newest: 2 });
    const body = new FormData();
    body.append('file', new Blob(['%PDF-1.4 old'], { type: 'application/pdf' }), 'cv.pdf');
    const file = (await (await fetch(`${app.url}/api/v1/public/forms/${form.slug}/uploads?question_id=${form.questions[1].id}`, { method: "POST", body })).json()) as { url: string; name: string };
    const first = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [{ question_id: form.questions[0].id, value: 'first' }, { question_id: form.questions[1].id, value: file }] } });
    tt.is(first.status, 201, first.text);
    const ids = [first.body.id];
    for (const name of ['second', 'third', 'fourth']) ids.push(await submit(app, form.slug, form.questions[0].id, name));

    const gone = new RegExp(`${ids[0]}|${ids[1]}|"first\\\\?"|"second\\\\?"`);
    tt.true('responses' in (await tracesOf(app, gone)), 'the search finds them before the sweep');
    const sweeper = app.formloom.service(ResponseRetentionHandler);
    const swept = await sweeper.applyAll();
    tt.true(swept.erased >= 2);
    const list = await app.api('GET', `/forms/${form.id}/responses`, { key: owner.key });
    tt.deepEqual(list.body.responses.map((r: any) => r.id).sort(), ids.slice(2).sort(), 'the two newest stay');
    tt.like((await app.api('GET', `/forms/${form.id}/analytics`, { key: owner.key })).body, { total_responses: 2 });
    tt.is((await app.api('GET', `/forms/${form.id}`, { key: owner.key })).body.response_count, 2);
    const path = new URL(file.url).pathname;
    tt.is((await fetch(`${app.url}${path}`, { headers: { authorization: `Bearer ${owner.key}` } })).status, 404, 'the old file went with its response');
    // The summary counts only what stays, and nothing of the deleted two is left in any table.
    const summary = await app.api('GET', `/forms/${form.id}/analytics/questions`, { key: owner.key });
    const name = summary.body.questions.find((q: { question_id: string }) => q.question_id === form.questions[0].id);
    tt.like(summary.body, { total_responses: 2 });
    tt.deepEqual(name.latest.map((a: { value: string }) => a.value).sort(), ['fourth', 'third']);
    // The webhook is told which responses went, and why; no other row holds anything of them.
    const told = await app.raw("SELECT body FROM webhook_deliveries WHERE form_id = $1 AND event = 'response.deleted'", [form.id]);
    tt.deepEqual(told.map((d: { body: string }) => JSON.parse(d.body)).flatMap((b: { response_ids: string[]; reason: string }) => b.response_ids.map((id) => [id, b.reason])).sort(), ids.slice(0, 2).map((id) => [id, 'retention']).sort());
    const traces = await tracesOf(app, gone);
    tt.deepEqual(Object.keys(traces), ['webhook_deliveries']);
    tt.true(traces.webhook_deliveries!.every((row) => row.includes('"event":"response.deleted"') && !/"first\\?"|"second\\?"/.test(row)));

    // A day-based policy, applied as of 31 days from now: nothing is that recent.
    const patched = await app.api('PUT', `/forms/${form.id}`, { key: owner.key, body: { response_retention: { older_than_days: 30 } } });
    tt.is(patched.status, 200, patched.text);
    await sweeper.applyAll(new Date(Date.now() + 31 * 86_400_000));
    tt.is((await app.api('GET', `/forms/${form.id}/responses`, { key: owner.key })).body.total, 0);
    // Turned off, nothing more goes.
    tt.is((await app.api('PUT', `/forms/${form.id}`, { key: owner.key, body: { response_retention: null } })).status, 200);
    await submit(app, form.slug, form.questions[0].id, 'kept');
    await sweeper.applyAll(new Date(Date.now() + 400 * 86_400_000));
    tt.is((await app.api('GET', `/forms/${form.id}/responses`, { key: owner.key })).body.total, 1);

    // The same housekeeping deletes a submission's Idempotency-Key once its 24 hours are over (docs/operations.md,
    // "Outbox"): before that, a retry still answers the stored response.
    const key = `retention-${tt.title}`;
    const sent = () => app.api('POST', `/public/forms/${form.slug}/responses`, { headers: { 'Idempotency-Key': key }, body: { answers: [{ question_id: form.questions[0].id, value: 'once' }] } });
    const once = await sent();
    tt.is(once.status, 201, once.text);
    const claims = () => app.raw("SELECT \"key\" FROM idempotency_keys WHERE \"key\" LIKE $1", [`submission:${form.id}:%`]);
    tt.is((await claims()).length, 1);
    await app.formloom.worker.housekeep(new Date(Date.now() + 23 * 3_600_000));
    tt.is((await claims()).length, 1, 'kept for 24 hours');
    tt.is((await sent()).body.id, once.body.id);
    await app.formloom.worker.housekeep(new Date(Date.now() + 25 * 3_600_000));
    tt.deepEqual(await claims(), [], 'gone after 24 hours');
  });
});
