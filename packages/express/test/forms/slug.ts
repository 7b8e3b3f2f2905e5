import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from '../helpers/bounded-test';
import express from 'express';
import { createFormloom, type Formloom } from '@formloom/core';
import { createDataSource, createTypeormStorage, runMigrations } from '@formloom/storage-typeorm';
import { createTestDatabase, type TestDatabaseKind } from '@formloom/storage-typeorm/testing';
import { createFormloomRouter } from '../../src';

/*
 * PUT /forms/:id/slug (issue 36, docs/decisions.md "The form's address"): a person chooses the address; it
 * is checked (400), unique (409 slug_taken), live at once on every instance sharing the database (the public
 * read's cache is checked against the revision), and the old address answers 404.
 */

async function twoInstances(kind: TestDatabaseKind) {
  const db = await createTestDatabase(kind);
  const second = kind === 'postgres' ? createDataSource(db.url.split('?')[0]!, { schema: db.schema, poolSize: 5 }) : createDataSource(db.url);
  await runMigrations(second);
  const storages = [db.storage, createTypeormStorage(second)];
  const instances = storages.map((storage) => createFormloom({ storage, config: { secretKey: 'shared-key' } }));
  const servers = await Promise.all(
    instances.map(
      (formloom) =>
        new Promise<Server>((resolve) => {
          const app = express();
          app.use('/api/v1', createFormloomRouter({ formloom, rateLimits: false }));
          const s = app.listen(0, '127.0.0.1', () => resolve(s));
        }),
    ),
  );
  const urls = servers.map((s) => `http://127.0.0.1:${(s.address() as AddressInfo).port}/api/v1`);
  const close = async () => {
    for (const s of servers) await new Promise((r) => s.close(r));
    await storages[1]!.close();
    await db.close();
  };
  return { instances: instances as [Formloom, Formloom], urls: urls as [string, string], close };
}

const call = async (url: string, method: string, path: string, key: string | null, body?: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, etag: res.headers.get('etag'), body: text ? (JSON.parse(text) as any) : null };
};

for (const kind of ['sqlite', 'postgres'] as const) {
  test(`${kind}: a form's address is chosen, checked, unique, and live at once on every instance`, async (t) => {
    t.timeout(120_000);
    const { instances, urls, close } = await twoInstances(kind);
    const [a, b] = urls;
    try {
      const owner = await instances[0].accounts.createUser({ email: `slug-${kind}-${Date.now()}@example.com` });
      const { api_key: key } = await instances[0].accounts.createKey(owner.id);
      const stranger = await instances[0].accounts.createUser({ email: `slug-other-${kind}-${Date.now()}@example.com` });
      const { api_key: strangerKey } = await instances[0].accounts.createKey(stranger.id);
      const form = (await call(a, 'POST', '/forms', key, { title: 'Feedback', published: true, questions: [{ type: 'short_text', title: 'Name' }] })).body;
      const other = (await call(a, 'POST', '/forms', key, { title: 'Other', published: true })).body;
      const old = form.slug as string;
      // Both instances have the form in their public cache under its old address.
      for (const url of urls) t.is((await call(url, 'GET', `/public/forms/${old}`, null)).status, 200);

      const changed = await call(a, 'PUT', `/forms/${form.id}/slug`, key, { slug: 'customer-feedback-2026' });
      t.is(changed.status, 200);
      t.is(changed.body.slug, 'customer-feedback-2026');
      t.truthy(changed.etag);
      t.false(changed.body.has_unpublished_changes, 'an address is not content: nothing to publish');
      t.is(changed.body.published_version_id, form.published_version_id, 'no new version');
      // The ETag answered is the one GET gives, so the next edit's If-Match holds.
      t.is((await call(a, 'GET', `/forms/${form.id}`, key)).etag, changed.etag);

      // Live at once on both instances: the new address reads, the old one is 404 (no redirect).
      for (const url of [b, a]) {
        const read = await call(url, 'GET', '/public/forms/customer-feedback-2026', null);
        t.is(read.status, 200, url);
        t.is(read.body.form_id, form.id);
        t.is(read.body.slug, 'customer-feedback-2026');
        t.is(read.body.snapshot.slug, 'customer-feedback-2026');
        t.is((await call(url, 'GET', `/public/forms/${old}`, null)).status, 404, `old address on ${url}`);
      }
      const submitted = await call(b, 'POST', '/public/forms/customer-feedback-2026/responses', null, { answers: [{ question_id: form.questions[0].id, value: 'Ada' }] });
      t.is(submitted.status, 201, JSON.stringify(submitted.body));

      // Taken by another form: 409 slug_taken, nothing changes.
      const taken = await call(a, 'PUT', `/forms/${other.id}/slug`, key, { slug: 'customer-feedback-2026' });
      t.is(taken.status, 409);
      t.is(taken.body.error.code, 'CONFLICT');
      t.is(taken.body.error.reason, 'slug_taken');
      t.is((await call(b, 'GET', `/forms/${other.id}`, key)).body.slug, other.slug);
      // The same address again is no change; the old address is free for any form.
      t.is((await call(a, 'PUT', `/forms/${form.id}/slug`, key, { slug: 'customer-feedback-2026' })).status, 200);
      t.is((await call(a, 'PUT', `/forms/${other.id}/slug`, key, { slug: old })).status, 200);
      t.is((await call(b, 'GET', `/public/forms/${old}`, null)).body.form_id, other.id);

      // Invalid addresses: 400 naming the field, in the structured shape.
      for (const slug of ['ab', 'Customer', 'with space', '-edge', 'edge-', 'two--hyphens', 'ü-mlaut', 'x'.repeat(65), 'admin', 'api', 42]) {
        const bad = await call(a, 'PUT', `/forms/${form.id}/slug`, key, { slug });
        t.is(bad.status, 400, String(slug));
        t.is(bad.body.error.field, 'slug', String(slug));
      }
      t.is((await call(a, 'PUT', `/forms/${form.id}/slug`, key, {})).status, 400);
      t.is((await call(a, 'PUT', `/forms/${form.id}/slug`, key, { slug: 'fine-one', extra: 1 })).status, 400);
      // Someone else's form: 403 as every form write answers it; no key: 401.
      t.is((await call(a, 'PUT', `/forms/${form.id}/slug`, strangerKey, { slug: 'mine-now' })).status, 403);
      t.is((await call(a, 'PUT', `/forms/${form.id}/slug`, null, { slug: 'mine-now' })).status, 401);
      t.is((await call(a, 'GET', `/forms/${form.id}`, key)).body.slug, 'customer-feedback-2026');
    } finally {
      await close();
    }
  });

  test(`${kind}: restoring the live version leaves nothing unpublished`, async (t) => {
    t.timeout(120_000);
    const { instances, urls, close } = await twoInstances(kind);
    const [a] = urls;
    try {
      const owner = await instances[0].accounts.createUser({ email: `restore-${kind}-${Date.now()}@example.com` });
      const { api_key: key } = await instances[0].accounts.createKey(owner.id);
      const form = (await call(a, 'POST', '/forms', key, { title: 'Restore', published: true, questions: [{ type: 'short_text', title: 'Name' }] })).body;
      const v1 = (await call(a, 'GET', `/forms/${form.id}/versions`, key)).body.versions[0];
      await call(a, 'PUT', `/forms/${form.id}`, key, { title: 'Restore (edited)' });
      t.true((await call(a, 'GET', `/forms/${form.id}`, key)).body.has_unpublished_changes);
      const restored = await call(a, 'POST', `/forms/${form.id}/versions/${v1.id}/restore`, key);
      t.is(restored.status, 200);
      t.is(restored.body.title, 'Restore');
      t.false(restored.body.has_unpublished_changes, 'the draft is the live version again');
      // Restoring an older version than the live one is a change to publish.
      await call(a, 'PUT', `/forms/${form.id}`, key, { title: 'Second' });
      t.is((await call(a, 'POST', `/forms/${form.id}/publish`, key)).status, 200);
      const older = await call(a, 'POST', `/forms/${form.id}/versions/${v1.id}/restore`, key);
      t.true(older.body.has_unpublished_changes);
      const published = await call(a, 'POST', `/forms/${form.id}/publish`, key);
      t.is(published.body.version.changelog[0].type, 'version_restored');
    } finally {
      await close();
    }
  });
}
