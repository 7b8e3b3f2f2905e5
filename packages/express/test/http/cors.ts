import test from '../helpers/bounded-test';
import { rendererBundles } from '@formloom/renderer';
import { forEachDb, startTestApp } from '../helpers/app';

/*
 * CORS for the embedded element (docs/respondents.md "Embedding"): the public form endpoints and the
 * element's files answer the embedding origins; key-authenticated endpoints never answer CORS.
 */
forEachDb(test, (it) => {
  it('public endpoints answer any origin by default, with their preflight; authenticated ones answer none', async (t, app) => {
    const u = await app.user('pro');
    const form = (await app.api('POST', '/forms', { key: u.key, body: { title: 'C', published: true, questions: [{ type: 'short_text', title: 'Q' }] } })).body;
    const origin = { origin: 'https://shop.example.com' };
    const read = await app.api('GET', `/public/forms/${form.slug}`, { headers: origin });
    t.is(read.headers.get('access-control-allow-origin'), '*');
    const pre = await fetch(`${app.url}/api/v1/public/forms/${form.slug}/responses`, {
      method: 'OPTIONS',
      headers: { ...origin, 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'content-type,x-resume-token' },
    });
    t.is(pre.status, 204);
    t.is(pre.headers.get('access-control-allow-origin'), '*');
    t.regex(pre.headers.get('access-control-allow-methods')!, /PATCH/);
    t.regex(pre.headers.get('access-control-allow-headers')!.toLowerCase(), /x-resume-token/);
    const submitted = await app.api('POST', `/public/forms/${form.slug}/responses`, { headers: origin, body: { answers: [] } });
    t.is(submitted.status, 201);
    t.is(submitted.headers.get('access-control-allow-origin'), '*');
    for (const path of ['/forms', `/forms/${form.id}`, `/forms/${form.id}/responses`, '/webhooks/secret']) {
      const res = await app.api('GET', path, { key: u.key, headers: origin });
      t.is(res.status, 200, path);
      t.is(res.headers.get('access-control-allow-origin'), null, `${path} answers no CORS`);
      const preflight = await fetch(`${app.url}/api/v1${path}`, { method: 'OPTIONS', headers: { ...origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } });
      t.is(preflight.headers.get('access-control-allow-origin'), null, `${path} preflight answers no CORS`);
    }
    const bundle = `/formloom/assets/${rendererBundles()!.files.form}`;
    for (const path of ['/embed.js', bundle, '/formloom/assets/formloom.css']) {
      const res = await fetch(`${app.url}${path}`, { headers: origin });
      t.is(res.status, 200, path);
      t.is(res.headers.get('access-control-allow-origin'), '*', path);
      t.is(res.headers.get('x-content-type-options'), 'nosniff', path);
    }
    t.is((await fetch(`${app.url}/embed.js`)).headers.get('content-type'), 'text/javascript; charset=utf-8');
    t.is(await (await fetch(`${app.url}/embed.js`)).text(), await (await fetch(`${app.url}${bundle}`)).text(), 'embed.js is the bundle itself, for any kind of script tag');
  });

  it('only built bundles are served from the assets folder', async (t, app) => {
    for (const path of ['/formloom/assets/../../package.json', '/formloom/assets/%2e%2e/%2e%2e/package.json', '/formloom/assets/.tsbuildinfo', '/formloom/assets/renderer/src/browser/index.js', '/formloom/assets/formloom-form.nope.js']) {
      t.is((await fetch(`${app.url}${path}`)).status, 404, path);
    }
  });
});

for (const kind of ['sqlite', 'postgres'] as const) {
  test(`[${kind}] with embedding origins configured, only those origins get CORS answers`, async (t) => {
    const app = await startTestApp(kind, { embedOrigins: ['https://shop.example.com', 'https://*.example.org'] });
    try {
      const u = await app.user();
      const form = (await app.api('POST', '/forms', { key: u.key, body: { title: 'C', published: true } })).body;
      const allow = async (origin: string) => (await app.api('GET', `/public/forms/${form.slug}`, { headers: { origin } })).headers.get('access-control-allow-origin');
      t.is(await allow('https://shop.example.com'), 'https://shop.example.com');
      t.is(await allow('https://a.b.example.org'), 'https://a.b.example.org');
      t.is(await allow('https://example.org'), null, 'the wildcard needs a sub-domain');
      t.is(await allow('https://evil.example.com'), null);
      t.is(await allow('http://shop.example.com'), null, 'the scheme counts');
      const res = await app.api('GET', `/public/forms/${form.slug}`, { headers: { origin: 'https://evil.example.com' } });
      t.regex(res.headers.get('vary') ?? '', /Origin/);
    } finally {
      await app.close();
    }
  });
}
