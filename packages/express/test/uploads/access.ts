import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from '../helpers/bounded-test';
import { SessionIssuer } from '@formloom/core';
import { waitFor } from '@formloom/core/testing';
import { forEachDb, type TestApp } from '../helpers/app';

/*
 * Uploaded files are private (docs/security.md "Uploaded files"): a file opens for whoever may read the
 * form's responses (key or session), or with a signed link that expires; the URL alone opens nothing.
 */

/** Time under the test's control: signed links expire. */
const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };

async function fileForm(app: TestApp, key: string, extra: Record<string, unknown> = {}) {
  const res = await app.api('POST', '/forms', {
    key,
    body: { title: 'Files', published: true, questions: [{ type: 'file_upload', title: 'CV' }, { type: 'short_text', title: 'Note' }], ...extra },
  });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body;
}

async function uploadAndSubmit(app: TestApp, form: any, text = '%PDF-1.4 private') {
  const fd = new FormData();
  fd.append('file', new Blob([text], { type: 'application/pdf' }), 'cv.pdf');
  const up = await fetch(`${app.url}/api/v1/public/forms/${form.slug}/uploads?question_id=${form.questions[0].id}`, { method: 'POST', body: fd });
  const file = (await up.json()) as { url: string; name: string };
  const sub = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [{ question_id: form.questions[0].id, value: file }] } });
  if (sub.status !== 201) throw new Error(JSON.stringify(sub.body));
  return file;
}

/** GET of a file URL with these headers: status, body text and error body. */
async function get(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  const text = await res.text();
  let error: any;
  try {
    error = JSON.parse(text).error;
  } catch {
    error = undefined;
  }
  return { status: res.status, text, error, headers: res.headers };
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

async function member(app: TestApp, teamId: string, ownerKey: string, role: 'viewer' | 'editor') {
  const u = await app.user();
  const inv = await app.api('POST', `/teams/${teamId}/invitations`, { key: ownerKey, body: { email: u.email, role } });
  const acc = await app.api('POST', `/invitations/${inv.body.token}/accept`, { key: u.key });
  if (acc.status !== 200) throw new Error(JSON.stringify(acc.body));
  return u;
}

/** A person's session cookie, as the workspace's browser sends it. */
async function sessionCookie(app: TestApp, userId: string) {
  const user = (await app.formloom.storage.users.findById(userId))!;
  const opened = await app.formloom.service(SessionIssuer).open(app.formloom.storage, user, { user_agent: null, ip_address: null });
  return { cookie: `formloom_session=${opened.token}` };
}

/** A webhook receiver on loopback that keeps the bodies it gets. */
async function receiver() {
  const bodies: any[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      bodies.push(JSON.parse(body));
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, bodies, close: () => new Promise((r) => server.close(r)) };
}

/** The same link with one character of its signature changed. */
const tampered = (link: string) => link.replace(/sig=(.)/, (_, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`);

forEachDb(
  test,
  (it) => {
    it("a file opens for whoever may read the form's responses: owner, team viewer, sessions; never for the URL alone", async (t, app) => {
      const owner = await app.user('enterprise');
      const team = (await app.api('POST', '/teams', { key: owner.key, body: { name: 'Files' } })).body;
      const viewer = await member(app, team.id, owner.key, 'viewer');
      const outsider = await app.user();
      const form = await fileForm(app, owner.key, { team_id: team.id });
      const file = await uploadAndSubmit(app, form);

      const anonymous = await get(file.url);
      t.is(anonymous.status, 401);
      t.like(anonymous.error, { code: 'UNAUTHORIZED', status: 401 });
      t.false(anonymous.text.includes('PDF'));
      const owned = await get(file.url, bearer(owner.key));
      t.is(owned.status, 200);
      t.is(owned.text, '%PDF-1.4 private');
      t.is(owned.headers.get('cache-control'), 'private, no-store', 'no shared cache keeps a file for the next asker');
      t.is((await get(file.url, bearer(viewer.key))).text, '%PDF-1.4 private', 'a team viewer reads the responses');
      const other = await get(file.url, bearer(outsider.key));
      t.is(other.status, 404, "another account's key: as if the file did not exist");
      t.like(other.error, { code: 'NOT_FOUND' });
      t.is((await get(file.url, { authorization: 'Bearer fl_nope' })).status, 401, 'a bad key is refused as anywhere');
      // The workspace opens files with the person's session cookie; a GET needs no CSRF header.
      const session = await get(file.url, await sessionCookie(app, viewer.id));
      t.is(session.status, 200);
      t.is(session.text, '%PDF-1.4 private');
      t.is((await get(file.url, await sessionCookie(app, outsider.id))).status, 404);
      t.is((await get(file.url, { range: 'bytes=0-3', ...bearer(owner.key) })).text, '%PDF', 'ranges as before');
      t.is((await get(`${file.url.slice(0, -'cv.pdf'.length)}other.pdf`, bearer(owner.key))).status, 404);

      // The answer keeps the API's {url, name}: the URL that needs a key.
      const listed = await app.api('GET', `/forms/${form.id}/responses`, { key: viewer.key });
      t.deepEqual(listed.body.responses[0].answers[0].value, file);
      t.false(file.url.includes('?'));
    });

    it("a personal form's files open for its owner alone", async (t, app) => {
      const owner = await app.user();
      const other = await app.user();
      const form = await fileForm(app, owner.key);
      const file = await uploadAndSubmit(app, form);
      t.is((await get(file.url, bearer(owner.key))).status, 200);
      t.is((await get(file.url, bearer(other.key))).status, 404);
      t.is((await get(file.url)).status, 401);
    });

    it('webhook receivers get a signed link that opens the file until it expires; an altered one never', async (t, app) => {
      app.formloom.worker.start({ pollMs: 50 });
      const owner = await app.user('pro');
      const hook = await receiver();
      t.teardown(() => hook.close());
      const form = await fileForm(app, owner.key, { webhook_url: hook.url });
      const file = await uploadAndSubmit(app, form, '%PDF-1.4 for the receiver');
      const body = await waitFor(() => hook.bodies.find((b) => b.form_id === form.id), { timeoutMs: 60_000 });
      const value = body.response.answers[0].value;
      t.is(value.name, 'cv.pdf');
      t.true(value.url.startsWith(`${file.url}?expires=`), value.url);
      const link = new URL(value.url);
      const expires = Number(link.searchParams.get('expires'));
      const week = clock.now().getTime() / 1000 + 7 * 86_400;
      t.true(expires > week - 120 && expires <= week + 1, 'seven days from the submission');
      t.regex(link.searchParams.get('sig')!, /^[A-Za-z0-9_-]{43}$/);

      const opened = await get(value.url);
      t.is(opened.status, 200);
      t.is(opened.text, '%PDF-1.4 for the receiver');
      t.is((await get(`${value.url}`, { range: 'bytes=0-3' })).status, 206);

      // Altered: one character of the signature, the expiry, the file it names; or malformed.
      t.is((await get(tampered(value.url))).status, 404);
      t.is((await get(value.url.replace(`expires=${expires}`, `expires=${expires + 3600}`))).status, 404);
      const second = await uploadAndSubmit(app, form, 'another');
      t.is((await get(`${second.url}${link.search}`)).status, 404, "a link's signature opens its own file only");
      for (const query of ['?sig=abc', `?expires=${expires}`, `?expires=${expires}&sig=${'A'.repeat(43)}`, `?expires=-1&sig=${link.searchParams.get('sig')}`, `?expires=${expires}&sig=${link.searchParams.get('sig')}x`]) {
        const res = await get(`${file.url}${query}`);
        t.is(res.status, 404, query);
        t.like(res.error, { code: 'NOT_FOUND' });
      }

      // Past its expiry the genuine link is refused, and says so; a key still opens the file.
      clock.offsetMs = 7 * 86_400_000 + 60_000;
      try {
        const late = await get(value.url);
        t.is(late.status, 403);
        t.like(late.error, { code: 'FORBIDDEN', reason: 'link_expired' });
        t.is((await get(value.url, bearer(owner.key))).status, 200);
      } finally {
        clock.offsetMs = 0;
      }
      t.is((await get(value.url)).status, 200, 'within its lifetime again');
    });

    it("the link's lifetime is configurable, and a link that expired a second ago is refused", async (t, app) => {
      const owner = await app.user();
      const form = await fileForm(app, owner.key);
      const file = await uploadAndSubmit(app, form);
      const links = app.formloom.uploads.links;
      const past = links.sign(file.url, -1000);
      t.like((await get(past)).error, { status: 403, reason: 'link_expired' });
      const before = app.formloom.config.fileLinkTtlMs;
      app.formloom.config.fileLinkTtlMs = 60_000;
      try {
        const short = new URL(links.sign(file.url));
        const expires = Number(short.searchParams.get('expires'));
        t.true(Math.abs(expires - (clock.now().getTime() + 60_000) / 1000) <= 2, String(expires));
        t.is((await get(short.href)).status, 200);
      } finally {
        app.formloom.config.fileLinkTtlMs = before;
      }
      t.is(links.sign('https://elsewhere.example/a.pdf'), 'https://elsewhere.example/a.pdf', 'only upload URLs are signed');
    });

    it('the OpenAPI document says who may download: a key, a session, or a signed link without credentials', async (t, app) => {
      const doc: any = await (await fetch(`${app.url}/api/v1/openapi.json`)).json();
      const op = doc.paths['/public/uploads/{formId}/{token}/{name}'].get;
      t.deepEqual(op.security, [{ apiKey: [] }, { sessionCookie: [] }, {}]);
      t.regex(op.description, /signed link/);
      t.deepEqual(op.parameters.filter((p: any) => p.in === 'query').map((p: any) => p.name), ['expires', 'sig']);
      for (const status of ['401', '403', '404']) t.truthy(op.responses[status], status);
    });
  },
  { clock, serial: true, sessions: {}, allowPrivateWebhooks: true, mailer: { send: async () => ({ id: 'm' }) } },
);
