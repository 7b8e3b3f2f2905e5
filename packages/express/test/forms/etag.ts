import test from '../helpers/bounded-test';
import type { SharedDb } from '../helpers/shared-apps';

/* ETag and If-Match on the owner's form endpoints (docs/decisions.md, "Form ETags"). */

const stale = (app: { api: any }, key: string, id: string) => app.api('GET', `/forms/${id}`, { key }).then((r: any) => r.headers.get('etag') as string);

/** forms.test.ts registers these on the apps its parts share (helpers/shared-apps.ts). */
export const register = (forEachDb: SharedDb) => forEachDb((it) => {
  it('a write with the ETag last read succeeds and answers the next one; a stale one is refused with 412 and changes nothing', async (t, app) => {
    const u = await app.user();
    const created = await app.api('POST', '/forms', { key: u.key, body: { title: 'One', questions: [{ type: 'short_text', title: 'Name' }] } });
    const id = created.body.id;
    const first = await stale(app, u.key, id);
    t.regex(first, /^"[A-Za-z0-9_-]{32}"$/);
    t.is(await stale(app, u.key, id), first, 'the same form reads with the same tag');

    // Tab A saves with the tag it read.
    const a = await app.api('PUT', `/forms/${id}`, { key: u.key, headers: { 'if-match': first }, body: { title: 'From tab A' } });
    t.is(a.status, 200);
    const second = a.headers.get('etag');
    t.truthy(second);
    t.not(second, first);
    t.is(await stale(app, u.key, id), second, 'the write answers the tag a read now gives');

    // Tab B still holds the first tag: refused, in the documented error shape, and nothing is written.
    const b = await app.api('PUT', `/forms/${id}`, { key: u.key, headers: { 'if-match': first }, body: { title: 'From tab B' } });
    t.is(b.status, 412);
    t.deepEqual(b.body.error, { code: 'PRECONDITION_FAILED', status: 412, reason: 'etag_mismatch', message: b.body.error.message });
    t.is((await app.api('GET', `/forms/${id}`, { key: u.key })).body.title, 'From tab A');

    // Weak comparison and lists are accepted; `*` matches any existing form; no header behaves as before.
    t.is((await app.api('PUT', `/forms/${id}`, { key: u.key, headers: { 'if-match': `"x", W/${second}` }, body: { description: 'd' } })).status, 200);
    t.is((await app.api('PUT', `/forms/${id}`, { key: u.key, headers: { 'if-match': '*' }, body: { description: 'e' } })).status, 200);
    t.is((await app.api('PUT', `/forms/${id}`, { key: u.key, body: { description: 'f' } })).status, 200);
  });

  it('theme, publish, unpublish and delete honour If-Match; a stale delete keeps the form', async (t, app) => {
    const u = await app.user();
    const id = (await app.api('POST', '/forms', { key: u.key, body: { title: 'Two', questions: [{ type: 'short_text', title: 'Name' }] } })).body.id;
    const old = await stale(app, u.key, id);
    t.is((await app.api('PUT', `/forms/${id}`, { key: u.key, body: { title: 'Changed elsewhere' } })).status, 200);
    for (const [method, path, body] of [
      ['PUT', `/forms/${id}/theme`, { theme_color: '#112233' }],
      ['POST', `/forms/${id}/publish`, undefined],
      ['DELETE', `/forms/${id}/publish`, undefined],
      ['DELETE', `/forms/${id}`, undefined],
    ] as const) {
      const r = await app.api(method, path, { key: u.key, headers: { 'if-match': old }, ...(body ? { body } : {}) });
      t.is(r.status, 412, `${method} ${path}`);
      t.is(r.body.error.reason, 'etag_mismatch');
    }
    const now = await app.api('GET', `/forms/${id}`, { key: u.key });
    t.is(now.body.published, false);
    t.not(now.body.theme_color, '#112233');

    const theme = await app.api('PUT', `/forms/${id}/theme`, { key: u.key, headers: { 'if-match': now.headers.get('etag')! }, body: { theme_color: '#112233' } });
    t.is(theme.status, 200);
    t.is(theme.headers.get('etag'), await stale(app, u.key, id), "the theme write answers the form's new tag");
    const published = await app.api('POST', `/forms/${id}/publish`, { key: u.key, headers: { 'if-match': theme.headers.get('etag')! } });
    t.is(published.status, 200);
    t.is(published.headers.get('etag'), await stale(app, u.key, id));
    const gone = await app.api('DELETE', `/forms/${id}`, { key: u.key, headers: { 'if-match': published.headers.get('etag')! } });
    t.is(gone.status, 200);
  });

  it('responses arriving on a live form do not change its tag', async (t, app) => {
    const u = await app.user();
    const created = await app.api('POST', '/forms', { key: u.key, body: { title: 'Live', published: true, questions: [{ type: 'short_text', title: 'Name' }] } });
    const before = await stale(app, u.key, created.body.id);
    const q = created.body.questions[0].id;
    t.is((await app.api('POST', `/public/forms/${created.body.slug}/responses`, { body: { answers: [{ question_id: q, value: 'Ada' }] } })).status, 201);
    const after = await app.api('GET', `/forms/${created.body.id}`, { key: u.key });
    t.is(after.body.response_count, 1);
    t.is(after.headers.get('etag'), before);
  });

  it('the OpenAPI document declares the ETag header, the If-Match parameter and the 412 answer', async (t, app) => {
    const doc = (await app.api('GET', '/openapi.json')).body;
    t.truthy(doc.paths['/forms/{id}'].get.responses['200'].headers.ETag);
    for (const [path, method] of [['/forms/{id}', 'put'], ['/forms/{id}', 'delete'], ['/forms/{id}/theme', 'put'], ['/forms/{id}/publish', 'post'], ['/forms/{id}/publish', 'delete']]) {
      const op = doc.paths[path][method];
      t.truthy(op.parameters.find((p: any) => p.in === 'header' && p.name === 'If-Match'), `${method} ${path}`);
      t.is(op.responses['412'].$ref, '#/components/responses/PreconditionFailed');
    }
    t.truthy(doc.components.responses.PreconditionFailed);
  });
});
