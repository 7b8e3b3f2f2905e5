import { existsSync } from 'node:fs';
import { join } from 'node:path';
import test from '../helpers/bounded-test';
import type { TestApp } from '../helpers/app';
import { filePart, filesUnder, multipartHead, rawRequest } from '../helpers/raw-http';
import type { SharedDb } from '../helpers/shared-apps';

async function uploadForm(app: TestApp) {
  const u = await app.user();
  const res = await app.api('POST', '/forms', { key: u.key, body: { title: 'Uploads', published: true, questions: [{ type: 'file_upload', title: 'Any' }] } });
  if (res.status !== 201) throw new Error(res.text);
  // The owner's key opens the form's files (uploads/access.ts).
  return { id: res.body.id as string, slug: res.body.slug as string, qid: res.body.questions[0].id as string, key: u.key };
}

/** Nothing of this form's uploads on disk. */
const storedFiles = (app: TestApp, formId: string) => {
  const dir = join(app.blobDir, 'uploads', formId);
  return existsSync(dir) ? filesUnder(dir) : [];
};

type UploadForm = Awaited<ReturnType<typeof uploadForm>>;
const byOwner = (form: UploadForm) => ({ headers: { authorization: `Bearer ${form.key}` } });
const uploadPath = (form: UploadForm) => `/api/v1/public/forms/${form.slug}/uploads?question_id=${form.qid}`;

async function send(app: TestApp, form: UploadForm, body: string, boundary = 'B') {
  const path = uploadPath(form);
  return rawRequest(app.url, multipartHead(path, body, boundary), body);
}

function assertBadRequest(t: import('ava').ExecutionContext, res: Awaited<ReturnType<typeof send>>, what: string) {
  t.false(res.timedOut, `${what}: answered`);
  t.is(res.status, 400, `${what}: ${res.body}`);
  const body = JSON.parse(res.body || '{}');
  t.is(body.error?.code, 'BAD_REQUEST', what);
  t.is(body.error?.status, 400, what);
}

/** uploads.test.ts registers these on the apps its parts share (helpers/shared-apps.ts). */
export const register = (forEachDb: SharedDb) => forEachDb((it) => {
  it('a multipart body without its closing boundary is a 400, stores nothing and does not kill the process', async (t, app) => {
    const form = await uploadForm(app);
    const truncated = filePart('B', 'a.txt', 'hi');
    assertBadRequest(t, await send(app, form, truncated), 'no closing boundary');
    assertBadRequest(t, await send(app, form, truncated.slice(0, 40)), 'cut inside the part header');
    assertBadRequest(t, await send(app, form, '--B\r\n'), 'only the first boundary');
    t.deepEqual(storedFiles(app, form.id), []);
    // The process survived: the next upload works.
    const ok = await send(app, form, `${filePart('B', 'a.txt', 'hi')}--B--\r\n`);
    t.is(ok.status, 201, ok.body);
  });

  it('multipart limits (a second file, too many parts) are 400s and store nothing', async (t, app) => {
    const form = await uploadForm(app);
    const two = `${filePart('B', 'a.txt', 'one')}${filePart('B', 'b.txt', 'two')}--B--\r\n`;
    assertBadRequest(t, await send(app, form, two), 'two files');
    const fields = Array.from({ length: 30 }, (_, i) => `--B\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nv\r\n`).join('');
    assertBadRequest(t, await send(app, form, `${fields}${filePart('B', 'a.txt', 'hi')}--B--\r\n`), 'too many parts');
    assertBadRequest(t, await send(app, form, `${filePart('B', 'a.txt', 'hi')}--B--\r\n`, ''), 'no boundary');
    t.deepEqual(storedFiles(app, form.id), []);
  });

  it('a client that goes away mid-upload leaves nothing stored and the server answering', async (t, app) => {
    const form = await uploadForm(app);
    const path = uploadPath(form);
    const partial = filePart('B', 'a.txt', 'x'.repeat(1000));
    const head = multipartHead(path, partial + 'y'.repeat(50_000));
    const gone = await rawRequest(app.url, head, partial, { destroyAfterSend: true });
    t.false(gone.timedOut);
    const ok = await send(app, form, `${filePart('B', 'a.txt', 'hi')}--B--\r\n`);
    t.is(ok.status, 201, ok.body);
    t.is(storedFiles(app, form.id).filter((f) => !f.endsWith('.type')).length, 1, 'only the complete upload');
  });

  it('file names with control characters are refused with a 400 at once (never a hang)', async (t, app) => {
    const form = await uploadForm(app);
    for (const [label, name] of [
      ['\\x01', 'a\x01b.txt'],
      ['\\x7f', 'a\x7fb.txt'],
      ['NUL', 'a\x00b.txt'],
      ['newline', 'a\nb.txt'],
      ['carriage return', 'a\rb.txt'],
    ] as const) {
      assertBadRequest(t, await send(app, form, `${filePart('B', name, 'hi')}--B--\r\n`), `raw ${label}`);
    }
    // The same characters percent-encoded in an RFC 5987 `filename*` pass the part-header parser.
    for (const enc of ['%01', '%7F', '%00', '%0A']) {
      const disposition = `Content-Disposition: form-data; name="file"; filename*=UTF-8''a${enc}b.txt`;
      const res = await send(app, form, `${filePart('B', '', 'hi', 'text/plain', disposition)}--B--\r\n`);
      assertBadRequest(t, res, `filename* ${enc}`);
      t.is(JSON.parse(res.body).error.field, 'file');
    }
    t.deepEqual(storedFiles(app, form.id), []);
  });

  it('a UTF-8 file name round-trips through the upload answer and the download', async (t, app) => {
    const form = await uploadForm(app);
    const name = 'résumé 日本.pdf';
    const fd = new FormData();
    fd.append('file', new Blob(['%PDF-1.4'], { type: 'application/pdf' }), name);
    const res = await fetch(`${app.url}${uploadPath(form)}`, { method: 'POST', body: fd });
    const body = (await res.json()) as { url: string; name: string };
    t.is(res.status, 201, JSON.stringify(body));
    t.is(body.name, name);
    t.true(body.url.endsWith(`/${encodeURIComponent(name)}`), body.url);
    const dl = await fetch(body.url, byOwner(form));
    t.is(dl.status, 200);
    const disposition = dl.headers.get('content-disposition') ?? '';
    const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
    t.truthy(star, disposition);
    t.is(decodeURIComponent(star![1]!), name);
  });

  it('file names too long for the file system are stored and served; an overlong name in a download URL is a 404', async (t, app) => {
    const form = await uploadForm(app);
    const name = `${'日'.repeat(190)}.pdf`; // 190 characters, 574 bytes of UTF-8
    const fd = new FormData();
    fd.append('file', new Blob(['%PDF-1.4'], { type: 'application/pdf' }), name);
    const res = await fetch(`${app.url}${uploadPath(form)}`, { method: 'POST', body: fd });
    const body = (await res.json()) as { url: string; name: string };
    t.is(res.status, 201, JSON.stringify(body));
    t.is(body.name, name);
    const dl = await fetch(body.url, byOwner(form));
    t.is(dl.status, 200);
    t.is(await dl.text(), '%PDF-1.4');
    const base = body.url.slice(0, body.url.lastIndexOf('/'));
    for (const overlong of ['a'.repeat(6000), '%F0%9F%98%80'.repeat(300)]) {
      const miss = await app.api('GET', `${base.slice(`${app.url}/api/v1`.length)}/${overlong}`, { key: form.key });
      t.is(miss.status, 404, miss.text.slice(0, 200));
      t.is(miss.body?.error?.code, 'NOT_FOUND');
    }
    const longForm = await app.api('GET', `/public/uploads/${'a'.repeat(6000)}/${'0'.repeat(32)}/x.pdf`, { key: form.key });
    t.is(longForm.status, 404);
  });

  it('a download URL whose file name is a dot segment (`.`, `%2e%2e`) is a 404, not a 500 from the blob store', async (t, app) => {
    const form = await uploadForm(app);
    const fd = new FormData();
    fd.append('file', new Blob(['%PDF-1.4'], { type: 'application/pdf' }), 'a.pdf');
    const res = await fetch(`${app.url}${uploadPath(form)}`, { method: 'POST', body: fd });
    const { url } = (await res.json()) as { url: string };
    t.is(res.status, 201);
    const base = url.slice(`${app.url}/api/v1`.length, url.lastIndexOf('/'));
    // Sent byte for byte: fetch would resolve the dot segments away before sending.
    for (const name of ['.', '..', '%2e', '%2e%2e', '.%2E']) {
      const miss = await rawRequest(app.url, `GET /api/v1${base}/${name} HTTP/1.1\nHost: localhost\nAuthorization: Bearer ${form.key}\nConnection: close`);
      t.is(miss.status, 404, `${name}: ${miss.body.slice(0, 200)}`);
      t.is(JSON.parse(miss.body).error.code, 'NOT_FOUND');
    }
    t.is((await fetch(url, byOwner(form))).status, 200);
  });
});
