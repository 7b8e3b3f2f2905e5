import test from '../helpers/bounded-test';
import { DB_KINDS, startTestApp } from '../helpers/app';
import { mailbox } from '../helpers/session-client';
import { CHEAP_PASSWORDS } from '../helpers/password-cost';

/*
 * The instance admin's routes (docs/accounts.md, "The admin area") over HTTP on SQLite and PostgreSQL: the
 * first account is the admin and may list and search people, change a plan (which takes effect at the
 * person's next request), add credits, revoke a key, and retry and drop stuck outbox items; everyone else,
 * including for their own account, gets 403; bad input gets 400 and unknown ids 404. Every answer is checked
 * against the OpenAPI document by the test app.
 */

for (const kind of DB_KINDS) {
  test(`instance admin routes on ${kind}`, async (t) => {
    t.timeout(120_000);
    // The admin's changes are written to the server log (docs/decisions.md): kept here to be checked.
    const logged: { message: string; details?: Record<string, unknown> }[] = [];
    const keep = (message: string, details?: Record<string, unknown>) => void logged.push({ message, ...(details ? { details } : {}) });
    const logger = { debug: keep, info: keep, warn: keep, error: keep };
    const app = await startTestApp(kind, { sessions: { signup: 'open' }, mailer: mailbox(), logger, config: CHEAP_PASSWORDS });
    try {
      const admin = await app.user();
      const bob = await app.user();
      const carol = await app.user('pro');

      for (const [method, path, body] of [
        ['GET', '/admin/users', undefined],
        ['GET', `/admin/users/${bob.id}`, undefined],
        ['PATCH', `/admin/users/${bob.id}`, { plan: 'enterprise' }],
        ['PATCH', `/admin/users/${bob.id}`, { plan: 'nonsense' }],
        ['POST', `/admin/users/${bob.id}/credits`, { credits: 10 }],
        ['DELETE', `/admin/users/${admin.id}/api-keys/key_x`, undefined],
        ['GET', '/admin/outbox', undefined],
        ['POST', '/admin/outbox/obx_x/retry', undefined],
        ['DELETE', '/admin/outbox/obx_x', undefined],
      ] as const) {
        const r = await app.api(method, path, { key: bob.key, body });
        t.is(r.status, 403, `${method} ${path} by someone else`);
        t.is(r.body.error.reason, 'not_instance_admin');
      }

      const all = await app.api('GET', '/admin/users', { key: admin.key });
      t.is(all.status, 200);
      t.deepEqual(all.body.people.map((p: { user_id: string }) => p.user_id), [admin.id, bob.id, carol.id]);
      t.deepEqual(all.body.people.map((p: { is_admin: boolean }) => p.is_admin), [true, false, false]);
      const pro = await app.api('GET', '/admin/users?plan=pro', { key: admin.key });
      t.deepEqual(pro.body.people.map((p: { user_id: string }) => p.user_id), [carol.id]);
      const found = await app.api('GET', `/admin/users?q=${encodeURIComponent(bob.email.slice(0, 12).toUpperCase())}&admin=false&limit=1`, { key: admin.key });
      t.is(found.body.total, 2, 'bob and carol share the test prefix');
      t.is(found.body.people.length, 1);
      t.is((await app.api('GET', '/admin/users?limit=0', { key: admin.key })).status, 400);
      t.is((await app.api('GET', '/admin/users?plan=gold', { key: admin.key })).status, 400);
      t.is((await app.api('GET', '/admin/users/usr_nobody', { key: admin.key })).status, 404);

      // A plan change takes effect at the person's next request: webhooks need Pro.
      const form = await app.api('POST', '/forms', { key: bob.key, body: { title: 'Orders' } });
      t.is((await app.api('GET', `/forms/${form.body.id}/webhooks`, { key: bob.key })).status, 403);
      t.is((await app.api('PATCH', `/admin/users/${bob.id}`, { key: admin.key, body: { plan: 'nonsense' } })).status, 400);
      const moved = await app.api('PATCH', `/admin/users/${bob.id}`, { key: admin.key, body: { plan: 'pro' } });
      t.is(moved.status, 200);
      t.is(moved.body.person.plan, 'pro');
      t.is((await app.api('GET', `/forms/${form.body.id}/webhooks`, { key: bob.key })).status, 200);

      const before = (await app.api('GET', `/admin/users/${bob.id}`, { key: admin.key })).body.credits as number;
      const credited = await app.api('POST', `/admin/users/${bob.id}/credits`, { key: admin.key, body: { credits: 250 } });
      t.deepEqual(credited.body, { user_id: bob.id, credits: before + 250 });
      t.is((await app.api('POST', `/admin/users/${bob.id}/credits`, { key: admin.key, body: { credits: 0 } })).status, 400);

      const detail = await app.api('GET', `/admin/users/${bob.id}`, { key: admin.key });
      const keyId = detail.body.api_keys[0].key_id as string;
      t.is((await app.api('DELETE', `/admin/users/${carol.id}/api-keys/${keyId}`, { key: admin.key })).status, 404, "another person's key");
      t.is((await app.api('DELETE', `/admin/users/${bob.id}/api-keys/${keyId}`, { key: admin.key })).status, 204);
      t.is((await app.api('GET', '/forms', { key: bob.key })).status, 401, 'the revoked key stops at once');

      const now = new Date().toISOString();
      for (const id of ['obx_admin_a', 'obx_admin_b']) {
        await app.formloom.storage.outbox.enqueue({ id, kind: 'digest', payload: { secret: 'never shown' }, status: 'pending', attempts: 2, next_attempt_at: '2100-01-01T00:00:00.000Z', locked_by: null, locked_until: null, last_error: 'refused', created_at: now, updated_at: now });
      }
      const stuck = await app.api('GET', '/admin/outbox', { key: admin.key });
      t.deepEqual(stuck.body.items.map((i: { id: string }) => i.id).filter((id: string) => id.startsWith('obx_admin')).sort(), ['obx_admin_a', 'obx_admin_b']);
      t.false(stuck.text.includes('never shown'), 'no payload');
      t.is((await app.api('POST', '/admin/outbox/obx_admin_a/retry', { key: admin.key })).status, 204);
      t.true((await app.formloom.storage.outbox.findById('obx_admin_a'))!.next_attempt_at < '2100');
      t.is((await app.api('DELETE', '/admin/outbox/obx_admin_b', { key: admin.key })).status, 204);
      t.is(await app.formloom.storage.outbox.findById('obx_admin_b'), null);
      t.is((await app.api('DELETE', '/admin/outbox/obx_admin_b', { key: admin.key })).status, 404);

      const actions = logged.filter((l) => l.message.startsWith('instance admin: '));
      t.deepEqual(actions.map((l) => l.message), ['instance admin: plan set', 'instance admin: credits added', 'instance admin: API key revoked', 'instance admin: outbox item retried', 'instance admin: outbox item dropped']);
      t.like(actions[0]!.details, { admin_id: admin.id, user_id: bob.id, plan: 'pro' });
      t.like(actions[2]!.details, { admin_id: admin.id, user_id: bob.id, key_id: keyId });

      // The admin may lift their own plan; the role itself is what the routes check.
      t.is((await app.api('PATCH', `/admin/users/${admin.id}`, { key: admin.key, body: { plan: 'enterprise' } })).body.person.plan, 'enterprise');
    } finally {
      await app.close();
    }
  });
}
