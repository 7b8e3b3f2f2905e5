// Not a test: a running app with a booking form, for looking at the page (docs/booking.md screenshots).
// node packages/express/dist/test/helpers/booking-demo.js <port>
import express from 'express';
import { createFormloom } from '@formloom/core';
import { caldavCalendars } from '@formloom/calendar-caldav';
import { Radicale } from '@formloom/calendar-caldav/testing';
import { createTestDatabase } from '@formloom/storage-typeorm/testing';
import { createFormloomRouter, createPublicPagesRouter } from '../../src';

async function main() {
  const port = Number(process.argv[2] ?? 4780);
  const radicale = await Radicale.start({ owner: 'pw' });
  const db = await createTestDatabase('sqlite');
  const formloom = createFormloom({ storage: db.storage, calendars: caldavCalendars(), mailer: { send: async () => ({ id: 'x' }) }, config: { secretKey: 'demo', publicUrl: `http://127.0.0.1:${port}` } });
  const app = express();
  app.use('/api/v1', createFormloomRouter({ formloom, rateLimits: false }));
  app.use(createPublicPagesRouter({ formloom, rateLimits: false }));
  await new Promise<void>((r) => app.listen(port, '127.0.0.1', () => r()));
  const user = await formloom.accounts.createUser({ email: 'owner@example.com', plan: 'pro', first_name: 'Olivia', last_name: 'Owner' });
  const { api_key } = await formloom.accounts.createKey(user.id);
  const api = (method: string, path: string, body?: unknown) =>
    fetch(`http://127.0.0.1:${port}/api/v1${path}`, { method, headers: { authorization: `Bearer ${api_key}`, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) }).then((r) => r.json() as Promise<any>);
  await api('PUT', '/calendar/connection', { url: radicale.url, username: 'owner', password: 'pw' });
  const hours = [1, 2, 3, 4, 5].map((day) => ({ day, start: '09:00', end: '17:00' }));
  const form = await api('POST', '/forms', {
    title: 'Book an intro call', published: true,
    questions: [
      { type: 'email', title: 'Your email', required: true },
      { type: 'booking', title: 'Pick a time for the call', description: 'Thirty minutes or an hour, by video.', required: true, properties: { hours, timezone: 'Europe/Paris', durations: [30, 60] } },
    ],
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void radicale.close().then(() => process.exit(0)));
  console.log(JSON.stringify({ url: `http://127.0.0.1:${port}/f/${form.slug}`, slug: form.slug, key: api_key, radicale: radicale.url }));
}
void main();
