import test from '../helpers/bounded-test';
import express from 'express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createFormloom } from '@formloom/core';
import { caldavPlugin } from '@formloom/calendar-caldav';
import { Radicale } from '@formloom/calendar-caldav/testing';
import { createDataSource, createTypeormStorage, runMigrations } from '@formloom/storage-typeorm';
import { createTestDatabase } from '@formloom/storage-typeorm/testing';
import { createFormloomRouter } from '../../src';

/*
 * "Never two bookings of one slot" across instances (docs/booking.md): two Formloom instances on one PostgreSQL
 * database, respondents on both racing for one slot, and for overlapping slots of different durations.
 */
test('two instances on one PostgreSQL: of 12 holds of one slot, and of overlapping ones, exactly one wins', async (t) => {
  const radicale = await Radicale.start({ owner: 'pw' });
  const db = await createTestDatabase('postgres');
  const second = createDataSource(db.url.split('?')[0]!, { schema: db.schema, poolSize: 6 });
  await runMigrations(second);
  const storages = [db.storage, createTypeormStorage(second)];
  const instances = storages.map((storage) => createFormloom({ storage, plugins: [caldavPlugin()], config: { secretKey: 'shared-key' } }));
  const servers = await Promise.all(
    instances.map((formloom) => new Promise<Server>((resolve) => {
      const app = express();
      app.use('/api/v1', createFormloomRouter({ formloom, rateLimits: false }));
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    })),
  );
  t.teardown(async () => {
    for (const s of servers) await new Promise((r) => s.close(r));
    await storages[1]!.close();
    await db.close();
    await radicale.close();
  });
  const urls = servers.map((s) => `http://127.0.0.1:${(s.address() as AddressInfo).port}/api/v1`);
  const call = (i: number, method: string, path: string, body?: unknown, key?: string) =>
    fetch(`${urls[i % 2]}${path}`, { method, headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

  const user = await instances[0]!.accounts.createUser({ email: `race${Date.now()}@example.com`, plan: 'pro' });
  const { api_key: key } = await instances[0]!.accounts.createKey(user.id);
  t.is((await call(0, 'PUT', '/calendar/connection', { url: radicale.url, username: 'owner', password: 'pw' }, key)).status, 200);
  const hours = [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, start: '00:00', end: '24:00' }));
  const form = await call(1, 'POST', '/forms', { title: 'Race', published: true, questions: [{ type: 'booking', title: 'When', properties: { hours, timezone: 'UTC', durations: [30, 60] } }] }, key);
  t.true(form.body.published, JSON.stringify(form.body.publish_error));
  const q = form.body.questions[0].id;
  const slug = form.body.slug;
  const slots = (await call(0, 'GET', `/public/forms/${slug}/bookings/slots?question_id=${q}&duration=60`)).body.data.slots as Array<{ start: string }>;
  const target = slots[10]!.start;

  const same = await Promise.all(Array.from({ length: 12 }, (_, i) => call(i, 'POST', `/public/forms/${slug}/bookings/holds`, { question_id: q, start: target, duration: 60, timezone: 'UTC' })));
  t.is(same.filter((r) => r.status === 201).length, 1, same.map((r) => r.status).join(','));
  t.true(same.filter((r) => r.status !== 201).every((r) => r.status === 409 && r.body.error.reason === 'slot_unavailable'));

  // Overlapping, not equal: 60 minutes at T+2h against 30 minutes at T+2h30 (each from both instances).
  const a = new Date(Date.parse(target) + 2 * 3_600_000).toISOString();
  const b = new Date(Date.parse(target) + 2.5 * 3_600_000).toISOString();
  const mixed = await Promise.all(Array.from({ length: 8 }, (_, i) => call(i, 'POST', `/public/forms/${slug}/bookings/holds`, i % 4 < 2 ? { question_id: q, start: a, duration: 60, timezone: 'UTC' } : { question_id: q, start: b, duration: 30, timezone: 'UTC' })));
  t.is(mixed.filter((r) => r.status === 201).length, 1, mixed.map((r) => r.status).join(','));
  const [{ n }] = await db.raw(`SELECT COUNT(*)::int AS n FROM bookings WHERE status = 'held'`);
  t.is(n, 2, 'one booking per contested time, nothing half-written');
});
