import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from '../helpers/bounded-test';
import express from 'express';
import { createFormloom, type Formloom } from '@formloom/core';
import { createDataSource, createTypeormStorage, runMigrations } from '@formloom/storage-typeorm';
import { createTestDatabase, type TestDatabaseKind } from '@formloom/storage-typeorm/testing';
import { createFormloomRouter } from '../../src';

/*
 * Two instances over one database, each with its own connections and its own in-memory caches
 * (docs/decisions.md, "Caches checked against a revision"): what one changes, the other serves at the
 * very next request: form edits, response counts, publications, key revocations, team memberships, and a
 * completed response's webhook targets (global webhooks, the owner's plan).
 */

async function twoInstances(kind: TestDatabaseKind) {
  const db = await createTestDatabase(kind);
  const second =
    kind === 'postgres' ? createDataSource(db.url.split('?')[0]!, { schema: db.schema, poolSize: 5 }) : createDataSource(db.url);
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

// fetch() adds `Cache-Control: no-cache` to a conditional request unless the caller sets Cache-Control.
const call = async (url: string, method: string, path: string, key: string | null, body?: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, etag: res.headers.get('etag'), body: text ? (JSON.parse(text) as any) : null };
};

for (const kind of ['postgres', 'sqlite'] as const) {
  test(`${kind}: an edit, a submission, a publication, a revocation and a membership on one instance show at the other's next request`, async (t) => {
    const { instances, urls, close } = await twoInstances(kind);
    const [a, b] = urls;
    try {
      const owner = await instances[0].accounts.createUser({ email: `cache-${kind}-${Date.now()}@example.com`, plan: 'pro' });
      const { api_key: key } = await instances[0].accounts.createKey(owner.id);
      const created = await call(a, 'POST', '/forms', key, { title: 'First', published: true, questions: [{ type: 'short_text', title: 'Name' }] });
      t.is(created.status, 201);
      const id = created.body.id as string;
      const slug = created.body.slug as string;
      // Both instances now keep the form, the key and the public form in memory.
      for (const url of urls) {
        t.is((await call(url, 'GET', `/forms/${id}`, key)).body.title, 'First');
        t.is((await call(url, 'GET', `/public/forms/${slug}`, null)).status, 200);
      }

      t.is((await call(b, 'PUT', `/forms/${id}`, key, { title: 'Second' })).status, 200);
      t.is((await call(a, 'GET', `/forms/${id}`, key)).body.title, 'Second', 'an edit on B is served by A at once');

      const question = created.body.questions[0].id as string;
      t.is((await call(b, 'POST', `/public/forms/${slug}/responses`, null, { answers: [{ question_id: question, value: 'Ada' }] })).status, 201);
      t.is((await call(a, 'GET', `/forms/${id}`, key)).body.response_count, 1, 'a submission on B counts on A at once');

      // The public form: an ETag, 304 while it holds, and the new version at once after a publication on B.
      const pub = await call(a, 'GET', `/public/forms/${slug}`, null);
      t.is(pub.body.title, 'First');
      t.truthy(pub.etag);
      const again = await call(a, 'GET', `/public/forms/${slug}`, null, undefined, { 'if-none-match': pub.etag!, 'cache-control': 'max-age=0' });
      t.is(again.status, 304);
      t.is((await call(b, 'POST', `/forms/${id}/publish`, key)).status, 200);
      const republished = await call(a, 'GET', `/public/forms/${slug}`, null, undefined, { 'if-none-match': pub.etag!, 'cache-control': 'max-age=0' });
      t.is(republished.status, 200, 'a publication on B changes what A answers');
      t.is(republished.body.title, 'Second');
      t.not(republished.etag, pub.etag);
      t.is((await call(b, 'DELETE', `/forms/${id}/publish`, key)).status, 200);
      t.is((await call(a, 'GET', `/public/forms/${slug}`, null)).status, 404, 'an unpublication on B shows on A at once');
      t.is((await call(a, 'POST', `/public/forms/${slug}/responses`, null, { answers: [{ question_id: question, value: 'Bo' }] })).status, 404);

      // A team form read by a member; the membership removed on B refuses the next read on A.
      const member = await instances[0].accounts.createUser({ email: `cache-m-${kind}-${Date.now()}@example.com`, plan: 'pro' });
      const { api_key: memberKey } = await instances[0].accounts.createKey(member.id);
      const team = await call(a, 'POST', '/teams', key, { name: 'Cachers' });
      t.is(team.status, 201, JSON.stringify(team.body));
      const teamForm = await call(a, 'POST', '/forms', key, { title: 'Team form', team_id: team.body.id, questions: [] });
      t.is(teamForm.status, 201, JSON.stringify(teamForm.body));
      t.is((await call(a, 'GET', `/forms/${teamForm.body.id}`, memberKey)).status, 404, 'not a member yet');
      // As an accepted invitation would (the invitation flow is tested in teams.test.ts).
      await instances[1].storage.teams.insertMember({ id: `tm_${Date.now()}`, team_id: team.body.id, user_id: member.id, role: 'viewer', joined_at: new Date().toISOString() });
      t.is((await call(a, 'GET', `/forms/${teamForm.body.id}`, memberKey)).status, 200, 'a membership added on B lets A serve the form');

      await instances[1].accounts.revokeKey(`key_${key.split('_')[1]}`);
      t.is((await call(a, 'GET', `/forms/${id}`, key)).status, 401, 'a key revoked on B is refused by A at its next request');
    } finally {
      await close();
    }
  });

  test(`${kind}: a completed response's webhook targets follow global webhooks and the plan changed on the other instance`, async (t) => {
    const { instances, urls, close } = await twoInstances(kind);
    const [a, b] = urls;
    try {
      const owner = await instances[0].accounts.createUser({ email: `targets-${kind}-${Date.now()}@example.com`, plan: 'pro' });
      const { api_key: key } = await instances[0].accounts.createKey(owner.id);
      const created = await call(a, 'POST', '/forms', key, { title: 'Hooks', published: true, questions: [{ type: 'short_text', title: 'Name' }] });
      const { id, slug } = created.body as { id: string; slug: string };
      const question = created.body.questions[0].id as string;
      const submit = async () => {
        const res = await call(a, 'POST', `/public/forms/${slug}/responses`, null, { answers: [{ question_id: question, value: 'Ada' }] });
        t.is(res.status, 201);
        return res.body.id as string;
      };
      /** The URLs the response's deliveries were recorded for (they are never sent here: no transport). */
      const targetsOf = async (responseId: string) => {
        const list = await call(b, 'GET', `/forms/${id}/webhooks/deliveries?limit=100`, key);
        t.is(list.status, 200, JSON.stringify(list.body));
        return (list.body.deliveries as Array<{ response_id: string; url: string }>).filter((d) => d.response_id === responseId).map((d) => d.url).sort();
      };
      // Two submissions on A: the second is served from A's memory (no webhooks yet).
      t.deepEqual(await targetsOf(await submit()), []);
      t.deepEqual(await targetsOf(await submit()), []);

      const hooks = { webhooks: [{ url: 'https://hooks.example.com/one', enabled: true }, { url: 'https://hooks.example.com/off', enabled: false }] };
      t.is((await call(b, 'PUT', '/webhooks', key, hooks)).status, 200);
      t.deepEqual(await targetsOf(await submit()), ['https://hooks.example.com/one'], 'global webhooks set on B are used by A at once');
      t.deepEqual(await targetsOf(await submit()), ['https://hooks.example.com/one']);

      // The delivery log needs the Pro plan too: the free plan's submission is looked at once back on Pro.
      await instances[1].accounts.setPlan(owner.id, 'free');
      const onFree = await submit();
      await instances[1].accounts.setPlan(owner.id, 'pro');
      t.deepEqual(await targetsOf(onFree), [], 'a plan without webhooks, set on B, stops them on A at once');
      t.deepEqual(await targetsOf(await submit()), ['https://hooks.example.com/one'], 'and the plan back brings them back');

      t.is((await call(b, 'PUT', '/webhooks', key, { webhooks: [] })).status, 200);
      t.deepEqual(await targetsOf(await submit()), [], 'global webhooks removed on B are gone on A at once');
    } finally {
      await close();
    }
  });
}

for (const kind of ['postgres', 'sqlite'] as const) {
  test(`${kind}: a forms list's total kept by one instance follows forms created, published and deleted on the other`, async (t) => {
    const { instances, urls, close } = await twoInstances(kind);
    const [a, b] = urls;
    try {
      const owner = await instances[0].accounts.createUser({ email: `totals-${kind}-${Date.now()}@example.com`, plan: 'pro' });
      const { api_key: key } = await instances[0].accounts.createKey(owner.id);
      const list = async (query = '') => {
        const res = await call(a, 'GET', `/forms?per_page=2${query}`, key);
        t.is(res.status, 200, JSON.stringify(res.body));
        return { total: res.body.total as number, ids: (res.body.forms as Array<{ id: string }>).map((f) => f.id) };
      };
      t.is((await list()).total, 0);
      // A form without questions: only the forms table changes.
      const first = await call(b, 'POST', '/forms', key, { title: 'One', questions: [] });
      t.is(first.status, 201);
      t.deepEqual(await list(), { total: 1, ids: [first.body.id] }, 'a form created on B counts on A at once');
      t.is((await list('&published=true')).total, 0);
      const second = await call(b, 'POST', '/forms', key, { title: 'Two', questions: [] });
      const third = await call(b, 'POST', '/forms', key, { title: 'Three', questions: [] });
      t.is((await list()).total, 3);
      t.deepEqual((await list('&page=2')).ids, [first.body.id], 'the last page is placed from the kept total');
      t.is((await call(b, 'POST', `/forms/${second.body.id}/publish`, key)).status, 200);
      t.is((await list('&published=true')).total, 1, 'a publication on B moves the filtered total on A');
      t.is((await list('&search=thr')).total, 1);
      t.is((await call(b, 'PUT', `/forms/${third.body.id}`, key, { title: 'Renamed' })).status, 200);
      t.is((await list('&search=thr')).total, 0, 'a rename on B changes a search total on A');
      t.is((await call(b, 'DELETE', `/forms/${first.body.id}`, key)).status, 200);
      const after = await list('&page=2');
      t.deepEqual(after, { total: 2, ids: [] }, 'a deletion on B shows on A at once');
    } finally {
      await close();
    }
  });
}
