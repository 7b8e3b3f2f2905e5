import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import test from '../helpers/bounded-test';
import { DB_KINDS, forEachDb, startTestApp, type TestApp } from '../helpers/app';

async function uploadForm(app: TestApp, key: string) {
  const res = await app.api('POST', '/forms', {
    key,
    body: {
      title: 'Uploads',
      published: true,
      questions: [
        { type: 'file_upload', title: 'CV', required: true, properties: { max_size_mb: 0.001, allowed_types: ['application/pdf', 'image/*'] } },
        { type: 'file_upload', title: 'Anything' },
      ],
    },
  });
  return res.body;
}

function upload(app: TestApp, slug: string, file: { name: string; type: string; data: string | Buffer }, questionId?: string) {
  const fd = new FormData();
  fd.append('file', new Blob([file.data], { type: file.type }), file.name);
  const q = questionId ? `?question_id=${questionId}` : '';
  return fetch(`${app.url}/api/v1/public/forms/${slug}/uploads${q}`, { method: 'POST', body: fd }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
}

forEachDb(test, (it) => {
  it('upload, answer with {url, name}, download; limits and types enforced', async (t, app) => {
    const u = await app.user();
    const form = await uploadForm(app, u.key);
    const [cv, any] = form.questions;
    const ok = await upload(app, form.slug, { name: '../../cv.pdf', type: 'application/pdf', data: '%PDF-1.4 tiny' }, cv.id);
    t.is(ok.status, 201, JSON.stringify(ok.body));
    t.is(ok.body.name, 'cv.pdf');
    t.true(ok.body.url.startsWith(`${app.url}/api/v1/public/uploads/${form.id}/`));
    // The file opens for whoever may read the form's responses (uploads/access.ts).
    const dl = await fetch(ok.body.url, { headers: { authorization: `Bearer ${u.key}` } });
    t.is(dl.status, 200);
    t.is(await dl.text(), '%PDF-1.4 tiny');
    t.is(dl.headers.get('x-content-type-options'), 'nosniff');
    t.regex(dl.headers.get('content-disposition') ?? '', /attachment/);

    const big = await upload(app, form.slug, { name: 'big.pdf', type: 'application/pdf', data: Buffer.alloc(5000, 1) }, cv.id);
    t.is(big.status, 413);
    t.is(big.body.error.code, 'PAYLOAD_TOO_LARGE');
    const html = await upload(app, form.slug, { name: 'x.html', type: 'text/html', data: '<script>' }, any.id);
    t.is(html.status, 415);
    const txt = await upload(app, form.slug, { name: 'a.txt', type: 'text/plain', data: 'hi' }, cv.id);
    t.is(txt.status, 415, 'the question narrows the types');
    t.is((await upload(app, form.slug, { name: 'a.txt', type: 'text/plain', data: 'hi' }, any.id)).status, 201);
    t.is((await upload(app, form.slug, { name: 'a.txt', type: 'text/plain', data: 'hi' }, 'q_nope')).status, 400);
    const notMultipart = await app.api('POST', `/public/forms/${form.slug}/uploads`, { body: { file: 'x' } });
    t.is(notMultipart.status, 400);
    t.is((await upload(app, 'no-such-form', { name: 'a.pdf', type: 'application/pdf', data: 'x' })).status, 404);

    const sub = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [{ question_id: cv.id, value: ok.body }] } });
    t.is(sub.status, 201);
    t.deepEqual(sub.body.answers[0].value, ok.body);
    const wrong = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [{ question_id: cv.id, value: 'cv.pdf' }] } });
    t.is(wrong.status, 400);
    t.is((await fetch(`${app.url}/api/v1/public/uploads/${form.id}/${'0'.repeat(32)}/cv.pdf`, { headers: { authorization: `Bearer ${u.key}` } })).status, 404);
  });

  it("a deleted form's uploads are removed by the worker", async (t, app) => {
    app.formloom.worker.start({ pollMs: 50 });
    const u = await app.user();
    const form = await uploadForm(app, u.key);
    t.is((await upload(app, form.slug, { name: 'a.png', type: 'image/png', data: 'png' }, form.questions[1].id)).status, 201);
    const dir = join(app.blobDir, 'uploads', form.id);
    t.true(existsSync(dir));
    t.is((await app.api('DELETE', `/forms/${form.id}`, { key: u.key })).status, 200);
    const deadline = Date.now() + 60_000;
    while (existsSync(dir) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    t.false(existsSync(dir));
    t.true(readdirSync(join(app.blobDir, 'uploads')).every((f) => f !== form.id));
  });
});

forEachDb(test, (it) => {
  it('an upload must name a file_upload question of the published version', async (t, app) => {
    const u = await app.user();
    const form = await uploadForm(app, u.key);
    const file = { name: 'a.pdf', type: 'application/pdf', data: '%PDF' };
    const none = await upload(app, form.slug, file);
    t.is(none.status, 400);
    t.like(none.body.error, { code: 'BAD_REQUEST', status: 400, field: 'question_id', reason: 'question_id_required' });
    const unknown = await upload(app, form.slug, file, 'q_nope');
    t.like(unknown.body.error, { code: 'BAD_REQUEST', reason: 'not_a_file_upload_question' });
    // A draft question (added after publishing) is not part of the published version.
    const put = await app.api('PUT', `/forms/${form.id}`, {
      key: u.key,
      body: { questions: [...form.questions.map((q: any) => ({ id: q.id, type: q.type, title: q.title, properties: q.properties })), { type: 'file_upload', title: 'Draft' }] },
    });
    t.is(put.status, 200);
    const draftQ = put.body.questions[2].id;
    t.like((await upload(app, form.slug, file, draftQ)).body.error, { code: 'BAD_REQUEST', reason: 'not_a_file_upload_question' });
    const tooBig = await upload(app, form.slug, { name: 'big.pdf', type: 'application/pdf', data: Buffer.alloc(5000, 1) }, form.questions[0].id);
    t.like(tooBig.body.error, { code: 'PAYLOAD_TOO_LARGE', status: 413 });
    t.false(existsSync(join(app.blobDir, 'uploads', form.id)), 'nothing stored by refused uploads');
  });
});

for (const kind of DB_KINDS) {
  test(`[${kind}] a form's uploads share a quota: past it, 413 upload_quota_exceeded and nothing stored`, async (t) => {
    const app = await startTestApp(kind);
    t.teardown(() => app.close());
    app.formloom.config.uploadQuotaBytes = 250;
    const u = await app.user();
    const form = await uploadForm(app, u.key);
    const any = form.questions[1].id;
    const file = (n: number) => ({ name: 'a.txt', type: 'text/plain', data: Buffer.alloc(n, 97) });
    t.is((await upload(app, form.slug, file(100), any)).status, 201);
    t.is((await upload(app, form.slug, file(100), any)).status, 201);
    const over = await upload(app, form.slug, file(100), any);
    t.is(over.status, 413);
    t.like(over.body.error, { code: 'PAYLOAD_TOO_LARGE', reason: 'upload_quota_exceeded' });
    t.is((await upload(app, form.slug, file(50), any)).status, 201, 'what still fits is accepted');
    const [row] = await app.raw(`SELECT COUNT(*) AS n, SUM(size) AS total FROM uploads WHERE form_id = '${form.id}'`);
    t.deepEqual([Number(row.n), Number(row.total)], [3, 250]);
    t.is(readdirSync(join(app.blobDir, 'uploads', form.id)).length, 3);
    const other = await uploadForm(app, u.key);
    t.is((await upload(app, other.slug, file(100), other.questions[1].id)).status, 201, 'the quota is per form');
  });

  test(`[${kind}] uploads no response names within a day are swept by the worker; answered ones stay`, async (t) => {
    const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
    const app = await startTestApp(kind, { clock });
    t.teardown(() => app.close());
    const u = await app.user();
    const form = await uploadForm(app, u.key);
    const [cv, any] = form.questions;
    const kept = (await upload(app, form.slug, { name: 'cv.pdf', type: 'application/pdf', data: '%PDF' }, cv.id)).body;
    const second = (await upload(app, form.slug, { name: 'b.txt', type: 'text/plain', data: 'b' }, any.id)).body;
    const abandoned = (await upload(app, form.slug, { name: 'a.txt', type: 'text/plain', data: 'a' }, any.id)).body;
    const sub = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [{ question_id: cv.id, value: kept }, { question_id: any.id, value: second }] } });
    t.is(sub.status, 201, JSON.stringify(sub.body));
    app.formloom.worker.start({ pollMs: 50 });
    const status = async (url: string) => (await fetch(url, { headers: { authorization: `Bearer ${u.key}` } })).status;
    t.is(await status(abandoned.url), 200, 'not swept before a day has passed');
    clock.offsetMs = 25 * 3600_000;
    const deadline = Date.now() + 60_000;
    while ((await status(abandoned.url)) !== 404 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    t.is(await status(abandoned.url), 404);
    t.is(await status(kept.url), 200);
    t.is(await status(second.url), 200);
    const rows = await app.raw(`SELECT response_id FROM uploads WHERE form_id = '${form.id}'`);
    t.deepEqual(rows.map((r: any) => r.response_id), [sub.body.id, sub.body.id]);
  });
}
