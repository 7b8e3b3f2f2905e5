import test from '../helpers/bounded-test';
import { readdir } from 'node:fs/promises';
import { waitFor } from '@formloom/core/testing';
import { forEachDb, type TestApp } from '../helpers/app';
import { tracesOf } from '../helpers/traces';

/** Every file of the app's blob store (the test app's is a folder on both databases). */
async function blobFiles(app: TestApp): Promise<string[]> {
  return (await readdir(app.blobDir, { recursive: true }).catch(() => [])).map(String);
}

/*
 * A respondent's rights (docs/privacy.md): an owner finds every response one person submitted across their
 * forms (by the email they gave, or their visitor id), exports them, and erases them with their files, webhook
 * deliveries and counters; the admin does the same across the instance; nobody reaches another owner's forms.
 */

async function publish(app: TestApp, key: string, body: Record<string, unknown>) {
  const r = await app.api('POST', '/forms', { key, body: { published: true, ...body } });
  if (r.status !== 201) throw new Error(JSON.stringify(r.body));
  return r.body as { id: string; slug: string; questions: { id: string }[] };
}

async function submit(app: TestApp, form: { slug: string }, body: Record<string, unknown>) {
  const r = await app.api('POST', `/public/forms/${form.slug}/responses`, { body });
  if (r.status !== 201) throw new Error(JSON.stringify(r.body));
  return r.body.id as string;
}

async function upload(app: TestApp, form: { slug: string; questions: { id: string }[] }, qid: string) {
  const body = new FormData();
  body.append('file', new Blob(['%PDF-1.4 ada'], { type: 'application/pdf' }), 'cv.pdf');
  const r = await fetch(`${app.url}/api/v1/public/forms/${form.slug}/uploads?question_id=${qid}`, { method: 'POST', body });
  if (r.status !== 201) throw new Error(await r.text());
  return (await r.json()) as { url: string; name: string };
}

forEachDb(test, (t) => {
  t('an owner finds, exports and erases one respondent across forms: files, deliveries and counters go with them', async (tt, app) => {
    // The first person of an instance is its admin (docs/accounts.md).
    const admin = await app.user('pro');
    const owner = await app.user('enterprise');
    const stranger = await app.user('pro');
    const email = `ada.${Date.now()}@example.com`;
    const team = (await app.api('POST', '/teams', { key: owner.key, body: { name: 'Research' } })).body;
    const a = await publish(app, owner.key, { title: 'Signup', questions: [{ type: 'email', title: 'Email' }, { type: 'file_upload', title: 'CV' }], webhook_url: 'https://hooks.example.com/x' });
    const b = await publish(app, owner.key, { title: 'Survey', team_id: team.id, hidden_fields: ['email'], questions: [{ type: 'short_text', title: 'Why' }] });
    const theirs = await publish(app, stranger.key, { title: 'Not yours', questions: [{ type: 'email', title: 'Email' }] });

    const file = await upload(app, a, a.questions[1]!.id);
    const r1 = await submit(app, a, { answers: [{ question_id: a.questions[0]!.id, value: email.toUpperCase() }, { question_id: a.questions[1]!.id, value: file }] });
    const r2 = await submit(app, b, { answers: [{ question_id: b.questions[0]!.id, value: 'curious' }], hidden: { email }, visitor_id: 'v-ada' });
    const r3 = await submit(app, b, { answers: [{ question_id: b.questions[0]!.id, value: 'again' }], visitor_id: 'v-ada' });
    // Someone else, whose answer merely contains the address, and another owner's respondent: never touched.
    const other = await submit(app, a, { answers: [{ question_id: a.questions[0]!.id, value: `x${email}` }] });
    const foreign = await submit(app, theirs, { answers: [{ question_id: theirs.questions[0]!.id, value: email }] });

    // What is theirs: the address (the other respondent's `x...` answer is not), their visitor id, an answer, the response ids.
    const theirTraces = new RegExp(`(?<!x)${email.replace(/[.]/g, '\\.')}|v-ada|curious|${[r1, r2, r3, foreign].join('|')}`, 'i');
    tt.true('responses' in (await tracesOf(app, theirTraces)), 'the search finds them before the erasure');

    const byEmail = await app.api('GET', `/respondents/responses?email=${encodeURIComponent(email)}`, { key: owner.key });
    tt.is(byEmail.status, 200, byEmail.text);
    tt.deepEqual(byEmail.body.responses.map((r: any) => r.response.id).sort(), [r1, r2].sort());
    tt.like(byEmail.body.responses.find((r: any) => r.response.id === r1), { form_id: a.id, form_title: 'Signup' });
    const byVisitor = await app.api('GET', '/respondents/responses?visitor_id=v-ada', { key: owner.key });
    tt.deepEqual(byVisitor.body.responses.map((r: any) => r.response.id).sort(), [r2, r3].sort());
    tt.is((await app.api('GET', `/respondents/responses?email=${encodeURIComponent(email)}`, { key: stranger.key })).body.total, 1, "the stranger sees only their own form's");

    for (const [body, message] of [
      [{}, /Give email or visitor_id/],
      [{ email: 'not an address' }, /email: not an email address/],
      [{ email, extra: 1 }, /extra/],
      [{ visitor_id: '' }, /visitor_id/],
    ] as const) {
      const bad = await app.api('POST', '/respondents/erase', { key: owner.key, body });
      tt.is(bad.status, 400, JSON.stringify(body));
      tt.regex(bad.body.error.message, message);
    }
    tt.is((await app.api('POST', '/admin/respondents/erase', { key: owner.key, body: { email } })).status, 403, 'not the admin');
    tt.is((await app.api('GET', `/admin/respondents/responses?email=${encodeURIComponent(email)}`, { key: stranger.key })).status, 403);

    const fileUrl = new URL(file.url);
    tt.is((await fetch(`${app.url}${fileUrl.pathname}`, { headers: { authorization: `Bearer ${owner.key}` } })).status, 200);
    const folder = decodeURIComponent(fileUrl.pathname).split('/').slice(-2, -1)[0]!;
    tt.true((await blobFiles(app)).some((f) => f.includes(folder)), 'the upload is in the blob store before');
    const erased = await app.api('POST', '/respondents/erase', { key: owner.key, body: { email, visitor_id: 'v-ada' } });
    tt.is(erased.status, 200, erased.text);
    tt.deepEqual(erased.body, { erased: 3, forms: 2, files: 1, kept: [] });

    tt.is((await app.api('GET', `/respondents/responses?email=${encodeURIComponent(email)}&visitor_id=v-ada`, { key: owner.key })).body.total, 0);
    for (const [form, id] of [[a, r1], [b, r2], [b, r3]] as const) tt.is((await app.api('GET', `/forms/${form.id}/responses/${id}`, { key: owner.key })).status, 404);
    tt.is((await app.api('GET', `/forms/${a.id}/responses/${other}`, { key: owner.key })).status, 200);
    tt.is((await app.api('GET', `/forms/${theirs.id}/responses/${foreign}`, { key: stranger.key })).status, 200);
    tt.is((await fetch(`${app.url}${fileUrl.pathname}`, { headers: { authorization: `Bearer ${owner.key}` } })).status, 404, 'the file is gone');
    // Its bytes too, through the outbox, once the erasure committed.
    app.formloom.worker.start(); // the erasure's cleanup item wakes it: no fast poll for the file's rest
    await waitFor(async () => (await blobFiles(app)).every((f) => !f.includes(folder)), { what: 'the erased upload deleted from the blob store' });
    tt.deepEqual(await app.raw('SELECT id FROM uploads WHERE form_id = $1', [a.id]), []);
    tt.deepEqual(await app.raw('SELECT id FROM webhook_deliveries WHERE response_id = $1', [r1]), [], 'its deliveries (which carried the answers) are gone');
    // The form's webhook hears of it, by id and never by content, so a receiver can delete its copy too.
    const told = await app.raw("SELECT body FROM webhook_deliveries WHERE form_id = $1 AND event = 'response.deleted'", [a.id]);
    tt.is(told.length, 1);
    tt.like(JSON.parse(told[0].body), { event: 'response.deleted', form_id: a.id, form_title: 'Signup', response_ids: [r1], reason: 'erasure' });
    tt.false(told[0].body.toLowerCase().includes(email), 'the event names no address');
    tt.deepEqual(await app.raw("SELECT id FROM webhook_deliveries WHERE form_id = $1 AND event = 'response.deleted'", [b.id]), [], 'a form without a webhook tells no one');
    const analytics = (await app.api('GET', `/forms/${a.id}/analytics`, { key: owner.key })).body;
    tt.like(analytics, { total_responses: 1, completed_responses: 1 }, 'the counters follow');
    tt.is(analytics.responses_by_day.reduce((n: number, d: any) => n + d.total, 0), 1);
    tt.is((await app.api('GET', `/forms/${a.id}`, { key: owner.key })).body.response_count, 1);
    // The funnel and the question summaries count only the other respondent now.
    const funnel = (await app.api('GET', `/forms/${a.id}/analytics/funnel`, { key: owner.key })).body as { steps: Array<{ kind: string; count: number }> };
    tt.deepEqual(funnel.steps.filter((s) => s.kind === 'completed').map((s) => s.count), [1]);
    tt.true(funnel.steps.filter((s) => s.kind === 'question').every((s) => s.count <= 1), JSON.stringify(funnel.steps));
    const summaries = (await app.api('GET', `/forms/${a.id}/analytics/questions`, { key: owner.key })).body;
    tt.is(summaries.questions.find((q: { question_id: string }) => q.question_id === a.questions[0]!.id).answered, 1);
    const audit = await app.api('GET', `/teams/${team.id}/audit-logs?action=responses.erased`, { key: owner.key });
    tt.is(audit.status, 200, audit.text);
    tt.is(audit.body.events.length, 1);
    tt.like(audit.body.events[0].details, { form_id: b.id, responses: 2 });
    tt.false(JSON.stringify(audit.body).includes(email), 'the trail keeps a fingerprint, never the address');

    // The admin, across the instance: the other owner's respondent too.
    const everywhere = await app.api('GET', `/admin/respondents/responses?email=${encodeURIComponent(email)}`, { key: admin.key });
    tt.deepEqual(everywhere.body.responses.map((r: any) => r.response.id), [foreign]);
    tt.deepEqual((await app.api('POST', '/admin/respondents/erase', { key: admin.key, body: { email } })).body, { erased: 1, forms: 1, files: 0, kept: [] });
    tt.is((await app.api('GET', `/forms/${theirs.id}/responses/${foreign}`, { key: stranger.key })).status, 404);

    // No trace anywhere: no table holds anything of theirs, whatever index or rollup a submission wrote.
    const traces = await tracesOf(app, theirTraces);
    tt.deepEqual(Object.keys(traces), ['webhook_deliveries'], 'the erased respondent left nothing in the database...');
    tt.true(traces.webhook_deliveries!.every((row) => row.includes('"event":"response.deleted"') && !new RegExp(`(?<!x)${email.replace(/[.]/g, '\\.')}|v-ada|curious`, 'i').test(row)), '...but the ids the response.deleted events name');
  });
  t("the owner's delete of a response (one, or in bulk) takes its file and deliveries too, and tells the webhook", async (tt, app) => {
    const owner = await app.user('pro');
    const form = await publish(app, owner.key, { title: 'Applications', questions: [{ type: 'short_text', title: 'Name' }, { type: 'file_upload', title: 'CV' }], webhook_url: 'https://hooks.example.com/apps' });
    const withFile = async (name: string) => {
      const file = await upload(app, form, form.questions[1]!.id);
      return { file, id: await submit(app, form, { answers: [{ question_id: form.questions[0]!.id, value: name }, { question_id: form.questions[1]!.id, value: file }] }) };
    };
    const one = await withFile('deleted-one');
    const two = await withFile('deleted-two');
    const three = await withFile('deleted-three');
    const kept = await withFile('kept');
    const folder = (f: { url: string }) => decodeURIComponent(new URL(f.url).pathname).split('/').slice(-2, -1)[0]!;

    tt.is((await app.api('DELETE', `/forms/${form.id}/responses/${one.id}`, { key: owner.key })).status, 200);
    const refused = await app.api('POST', `/forms/${form.id}/responses/bulk-delete`, { key: owner.key, body: { response_ids: [two.id, 'rsp_not_of_this_form'] } });
    tt.is(refused.status, 400, 'all of the form, or none');
    tt.is((await app.api('GET', `/forms/${form.id}/responses/${two.id}`, { key: owner.key })).status, 200, 'nothing was deleted');
    tt.deepEqual((await app.api('POST', `/forms/${form.id}/responses/bulk-delete`, { key: owner.key, body: { response_ids: [two.id, three.id] } })).body, { deleted: 2 });

    app.formloom.worker.start(); // the erasure's cleanup item wakes it: no fast poll for the file's rest
    await waitFor(async () => (await blobFiles(app)).every((f) => ![one, two, three].some((r) => f.includes(folder(r.file)))), { what: 'the deleted responses\' files gone' });
    tt.true((await blobFiles(app)).some((f) => f.includes(folder(kept.file))), 'the kept response keeps its file');
    const told = (await app.raw("SELECT body FROM webhook_deliveries WHERE form_id = $1 AND event = 'response.deleted'", [form.id])).map((d: { body: string }) => JSON.parse(d.body));
    tt.deepEqual(told.flatMap((b: { response_ids: string[] }) => b.response_ids).sort(), [one.id, two.id, three.id].sort());
    tt.true(told.every((b: { reason: string }) => b.reason === 'deleted'));
    tt.deepEqual(await tracesOf(app, /deleted-(one|two|three)/), {}, 'no row keeps their answers (their delivery bodies went too)');
    tt.like((await app.api('GET', `/forms/${form.id}/analytics`, { key: owner.key })).body, { total_responses: 1 });
  });
  // In order: the first test's first user is the instance's admin.
}, { serial: true });
