import test from '../helpers/bounded-test';
import { undecodedRequest as raw } from '@formloom/test-browser';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { WorkspaceTestApp } from '../helpers/app';
import { sharedApp } from '../helpers/shared';
import { readWorkspaceManifest } from '../../src/server';

/* The workspace router (docs/workspace.md, "How it is served"): the single page and the hashed files. */

let app: WorkspaceTestApp;
test.before(async () => {
  app = await sharedApp();
});

test('every workspace URL answers the single page with the shell element and its entry script', async (t) => {
  const manifest = readWorkspaceManifest();
  for (const path of ['/', '/signin', '/signup', '/forgot', '/auth/link', '/auth/reset', '/auth/verify', '/auth/finish', '/account', '/admin', '/admin/outbox', '/teams', '/teams/team_abc', '/voice', '/voice/library', '/voice/credits', '/forms/abc', '/forms/abc/versions', '/forms/abc/share', '/forms/abc/signing', '/forms/abc/signing/ses_abc']) {
    const res = await fetch(app.url + path);
    t.is(res.status, 200, path);
    t.regex(res.headers.get('content-type') ?? '', /text\/html/);
    t.is(res.headers.get('cache-control'), 'no-cache');
    t.regex(res.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    const html = await res.text();
    t.true(html.includes('<formloom-workspace base="" api-base="/api/v1" pages-base=""'), path);
    t.true(html.includes(`/workspace/assets/${manifest.entries.workspace.file}`));
  }
});

test('hashed files are served immutable; unknown ones 404; other URLs fall through', async (t) => {
  const manifest = readWorkspaceManifest();
  for (const file of manifest.files) {
    t.regex(file, /-[A-Z0-9]{8}\.js$/, 'every file name carries its content hash');
    const res = await fetch(`${app.url}/workspace/assets/${file}`);
    t.is(res.status, 200, file);
    t.is(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    t.regex(res.headers.get('content-type') ?? '', /javascript/);
  }
  t.is((await fetch(`${app.url}/workspace/assets/nope-AAAAAAAA.js`)).status, 404);
  t.is((await fetch(`${app.url}/workspace/assets/manifest.json/../../package.json`)).status, 404);
  t.is((await fetch(`${app.url}/nothing-here`)).status, 404);
  // The public pages keep their URLs.
  t.is((await fetch(`${app.url}/embed.js`)).status, 200);
  // `/teams/:id` is one segment: the invitation page `/teams/invite/<token>` stays the public pages' (404 here).
  const invite = await fetch(`${app.url}/teams/invite/not-a-token`);
  t.is(invite.status, 404);
  t.false((await invite.text()).includes('<formloom-workspace'));
});

test('every file travels in brotli or gzip as the client accepts, the same bytes as without', async (t) => {
  const manifest = readWorkspaceManifest();
  let plainBytes = 0;
  let brBytes = 0;
  for (const file of manifest.files) {
    const url = `${app.url}/workspace/assets/${file}`;
    const plain = await raw(url, {});
    t.is(plain.status, 200, file);
    t.is(plain.headers['content-encoding'], undefined, file);
    const br = await raw(url, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    t.is(br.headers['content-encoding'], 'br', `${file}: brotli wins a tie`);
    t.is(br.headers.vary, 'Accept-Encoding');
    t.is(br.headers['cache-control'], 'public, max-age=31536000, immutable');
    t.is(br.headers['x-content-type-options'], 'nosniff');
    t.regex(String(br.headers['content-type']), /javascript/);
    t.deepEqual(brotliDecompressSync(br.body), plain.body, `${file}: brotli decodes to the file`);
    const gz = await raw(url, { 'accept-encoding': 'gzip' });
    t.is(gz.headers['content-encoding'], 'gzip', file);
    t.deepEqual(gunzipSync(gz.body), plain.body, `${file}: gzip decodes to the file`);
    const head = await raw(url, { 'accept-encoding': 'br' }, 'HEAD');
    t.is(head.status, 200);
    t.is(head.body.length, 0);
    t.is(head.headers['content-length'], String(br.body.length));
    plainBytes += plain.body.length;
    brBytes += br.body.length;
  }
  t.true(brBytes < plainBytes / 2, `the bundle crosses the network in ${brBytes} bytes, not ${plainBytes}`);
  t.is((await raw(`${app.url}/workspace/assets/%E0%A4%A`, { 'accept-encoding': 'br' })).status, 400, 'a malformed escape is a 400');
});

test('builder.js names the current hashed entry for host pages', async (t) => {
  const manifest = readWorkspaceManifest();
  const res = await fetch(`${app.url}/workspace/builder.js`);
  t.is(res.status, 200);
  t.is(res.headers.get('cache-control'), 'public, max-age=300');
  t.is(await res.text(), `import './assets/${manifest.entries.builder.file}';\n`);
});
