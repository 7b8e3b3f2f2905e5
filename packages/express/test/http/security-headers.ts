import test from '../helpers/bounded-test';
import express from 'express';
import { createFormloom } from '@formloom/core';
import { createTestDatabase } from '@formloom/storage-typeorm/testing';
import { forEachDb, startTestApp, type ApiResponse, type TestApp } from '../helpers/app';
import { createPublicPagesRouter } from '../../src';

const NO_STORE = 'no-store';

function secureApiAnswer(t: import('ava').ExecutionContext, res: ApiResponse, label: string, cache: string | null = NO_STORE) {
  t.is(res.headers.get('x-content-type-options'), 'nosniff', label);
  t.is(res.headers.get('cache-control'), cache, label);
}

async function published(app: TestApp, key: string, extra: Record<string, unknown> = {}) {
  const res = await app.api('POST', '/forms', { key, body: { title: 'Page', published: true, questions: [{ type: 'short_text', title: 'Name' }], ...extra } });
  return res.body as { id: string; slug: string };
}

const cspOf = (res: Response) =>
  Object.fromEntries(
    (res.headers.get('content-security-policy') ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((p) => p[0])
      .map(([name, ...values]) => [name!, values]),
  ) as Record<string, string[]>;

forEachDb(test, (it) => {
  it('API answers: nosniff everywhere, no-store on authenticated and secret-carrying answers', async (t, app) => {
    const u = await app.user('pro');
    secureApiAnswer(t, await app.api('GET', '/forms', { key: u.key }), 'authenticated list');
    secureApiAnswer(t, await app.api('GET', '/webhooks/secret', { key: u.key }), 'GET webhook secret');
    secureApiAnswer(t, await app.api('POST', '/webhooks/secret', { key: u.key }), 'POST webhook secret');
    const team = await app.api('POST', '/teams', { key: u.key, body: { name: 'Headers' } });
    secureApiAnswer(t, team, 'team');
    const inv = await app.api('POST', `/teams/${team.body.id}/invitations`, { key: u.key, body: { email: 'invitee@example.com', role: 'editor' } });
    t.is(inv.status, 201);
    secureApiAnswer(t, inv, 'invitation with its token');
    secureApiAnswer(t, await app.api('GET', `/teams/${team.body.id}/invitations`, { key: u.key }), 'invitation list with tokens');
    secureApiAnswer(t, await app.api('GET', '/forms'), '401');
    secureApiAnswer(t, await app.api('POST', '/forms', { key: u.key, body: '{not json' }), '400 from the JSON parser');
    secureApiAnswer(t, await app.api('GET', '/no-such-route'), 'unknown route');
  });

  it('public API answers: nosniff; reads may be cached, submissions (resume tokens) may not', async (t, app) => {
    const u = await app.user();
    const form = await published(app, u.key, { incremental_submission: true });
    secureApiAnswer(t, await app.api('GET', `/public/forms/${form.slug}`), 'published form', null);
    secureApiAnswer(t, await app.api('GET', '/openapi.json'), 'OpenAPI document', null);
    const partial = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [], completed: false } });
    t.truthy(partial.body.resume_token);
    secureApiAnswer(t, partial, 'submission with a resume token');
  });

  it('the /f/ page: CSP with self sources, a nonce for its one style block, the logo origins, frame-ancestors *', async (t, app) => {
    const u = await app.user();
    const form = await published(app, u.key, { top_logo_url: 'https://cdn.example.com/logo.png' });
    const res = await fetch(`${app.url}/f/${form.slug}`);
    t.is(res.status, 200);
    t.is(res.headers.get('x-content-type-options'), 'nosniff');
    const csp = cspOf(res);
    t.deepEqual(csp['default-src'], ["'none'"]);
    t.deepEqual(csp['script-src'], ["'self'"]);
    t.deepEqual(csp['img-src'], ["'self'", 'blob:', 'https://cdn.example.com']);
    t.deepEqual(csp['frame-ancestors'], ['*']);
    t.deepEqual(csp['base-uri'], ["'none'"]);
    t.false(JSON.stringify(csp).includes('unsafe'), 'no unsafe-inline nor unsafe-eval');
    const [self, nonce] = csp['style-src']!;
    t.is(self, "'self'");
    const html = await res.text();
    const m = /<style nonce="([^"]+)">/.exec(html);
    t.truthy(m, 'the inline style carries a nonce');
    t.is(nonce, `'nonce-${m![1]}'`);
    // The form's JSON rides in a data block, which runs nothing; every script is a file of ours.
    t.false(/<script(?![^>]*\b(?:src=|type="application\/json"))/.test(html), 'no inline script');
    const again = cspOf(await fetch(`${app.url}/f/${form.slug}`));
    t.not(again['style-src']![1], nonce, 'a new nonce per answer');
    const missing = await fetch(`${app.url}/f/no-such-form`);
    t.is(missing.status, 404);
    t.is(missing.headers.get('x-content-type-options'), 'nosniff');
    t.deepEqual(cspOf(missing)['default-src'], ["'none'"]);
  });
});

for (const kind of ['sqlite', 'postgres'] as const) {
  test(`[${kind}] the /f/ page: frame-ancestors from the configured embedding origins`, async (t) => {
    const app = await startTestApp(kind, { embedOrigins: ['https://shop.example.com', 'https://*.example.org'] });
    try {
      const u = await app.user();
      const form = await published(app, u.key);
      const res = await fetch(`${app.url}/f/${form.slug}`);
      t.deepEqual(cspOf(res)['frame-ancestors'], ['https://shop.example.com', 'https://*.example.org']);
    } finally {
      await app.close();
    }
  });
}

test('embedding origins that are not origins are refused when the pages router is made', async (t) => {
  const db = await createTestDatabase('sqlite');
  try {
    const formloom = createFormloom({ storage: db.storage });
    for (const bad of [['https://a.example; script-src *'], ['javascript:'], ['https://a.example x'], ['https://a.example/path'], []]) {
      t.throws(() => express().use(createPublicPagesRouter({ formloom, embedOrigins: bad })), { message: /embed origins/ }, JSON.stringify(bad));
    }
    t.notThrows(() => createPublicPagesRouter({ formloom, embedOrigins: ["'self'", 'https://a.example:8443'] }));
  } finally {
    await db.close();
  }
});
