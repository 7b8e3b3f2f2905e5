import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { runCli } from '@formloom/cli';
import { migratedSqliteFile } from '@formloom/storage-typeorm/testing';
import { waitFor } from '@formloom/core/testing';
import { Radicale } from '@formloom/calendar-caldav/testing';
import { FakeTwilio } from '@formloom/telephony-twilio/testing';
import { startAppProcess } from './helpers/app-process';

/*
 * A confirmation call survives kill -9 (docs/booking.md, "Confirmation calls"): the self-hosted app, configured with
 * FORMLOOM_TWILIO_* and pointed at FakeTwilio (a local server speaking Twilio's API), places the call for a booking;
 * the process is killed with SIGKILL while Twilio's keypad callbacks are being delivered, between the call and its
 * status callback; after the restart, Twilio's callbacks (repeated) record the outcome once, the call is not placed
 * again and the prompt was charged once. The owner's calendar is a real Radicale.
 */
test('kill -9 between the call and its callbacks: after the restart the outcome is recorded once, the call placed and charged once', async (t) => {
  t.timeout(240_000);
  const [fake, radicale] = await Promise.all([FakeTwilio.start(), Radicale.start({ owner: 'pw' })]);
  const dir = mkdtempSync(join(tmpdir(), 'formloom-call-crash-'));
  t.teardown(async () => {
    await Promise.all([fake.close(), radicale.close()]);
    rmSync(dir, { recursive: true, force: true });
  });
  // Twilio signs callbacks over the public URL the calls name; the test posts them to wherever the app listens.
  const publicUrl = 'https://forms.example.test';
  const env = {
    ...process.env,
    PORT: '0',
    FORMLOOM_DATA_DIR: dir,
    FORMLOOM_DATABASE_URL: `sqlite:${join(dir, 'formloom.sqlite')}`,
    FORMLOOM_PUBLIC_URL: publicUrl,
    FORMLOOM_TWILIO_ACCOUNT_SID: fake.accountSid,
    FORMLOOM_TWILIO_AUTH_TOKEN: fake.authToken,
    FORMLOOM_TWILIO_FROM: '+15005550003',
    FORMLOOM_TWILIO_API_URL: fake.apiUrl,
  };
  // The file comes migrated (a copy of the test template): what is checked is the restart, not a new file's migrations.
  await migratedSqliteFile(join(dir, 'formloom.sqlite'));
  const cli = async (...argv: string[]) => JSON.parse((await runCli(argv, env)).stdout);
  await cli('user', 'create', '--email', 'owner@example.com', '--plan', 'pro', '--verified');
  const { api_key: key } = await cli('key', 'create', '--user', 'owner@example.com');
  const { api_key: voiceKey } = await cli('key', 'create', '--user', 'owner@example.com', '--scope', 'voice');
  await cli('credits', 'purchase', '--user', 'owner@example.com', '--credits', '1000');

  let app = await startAppProcess(env);
  t.teardown(() => void app.child.kill('SIGKILL'));
  const api = (method: string, path: string, body?: unknown, auth = key) =>
    fetch(`${app.url}/api/v1${path}`, { method, headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
  t.is((await api('PUT', '/calendar/connection', { url: radicale.url, username: 'owner', password: 'pw' })).status, 200);
  const hours = [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, start: '00:00', end: '24:00' }));
  const contact = { type: 'contact_info', title: 'You', required: true, properties: { fields: ['first_name', 'phone'] } };
  const booking = { type: 'booking', title: 'When', required: true, properties: { hours, timezone: 'UTC', durations: [30], confirmation_call: true } };
  const created = await api('POST', '/forms', { title: 'Fitting', questions: [contact, booking] });
  const [who, book] = created.body.questions.map((q: { id: string }) => q.id);
  t.is((await api('PUT', `/forms/${created.body.id}`, { title: 'Fitting', questions: [{ ...contact, id: who }, { ...booking, id: book, properties: { ...booking.properties, confirmation_call_question: who } }] })).status, 200);
  const published = await api('POST', `/forms/${created.body.id}/publish`);
  t.is(published.status, 200, JSON.stringify(published.body));
  const slug = published.body.slug;

  const slot = (await api('GET', `/public/forms/${slug}/bookings/slots?question_id=${book}&duration=30`)).body.data.slots[3];
  const hold = await api('POST', `/public/forms/${slug}/bookings/holds`, { question_id: book, start: slot.start, duration: 30, timezone: 'UTC' });
  const { id: bookingId, start, end, timezone } = hold.body.data;
  const sent = await api('POST', `/public/forms/${slug}/responses`, { answers: [{ question_id: who, value: { first_name: 'Kim', phone: '+44 20 7946 0000' } }, { question_id: book, value: { id: bookingId, start, end, timezone } }] });
  t.is(sent.status, 201, JSON.stringify(sent.body));
  const state = async () => (await api('GET', `/forms/${created.body.id}/responses/${sent.body.id}/bookings`)).body.bookings[0];
  const call = await waitFor(() => [...fake.calls.values()].find((c) => c.twiml.includes(bookingId)), { what: 'the call' });
  await waitFor(async () => (await state()).confirmation_call?.state === 'calling', { what: 'the call recorded' });
  const charged = 1000 - (await api('GET', '/voice/credits', undefined, voiceKey)).body.data.balance;
  t.true(charged > 0, `the prompt charged ${charged}`);

  const keypad = /action="([^"]+)"/.exec(call.twiml)![1]!.replace(/&amp;/g, '&');
  t.true(keypad.startsWith(publicUrl));
  const pressed = fake.press(call.sid, keypad, '1');
  const done = fake.signed(call.statusCallback!, { CallSid: call.sid, CallStatus: 'completed' });
  const deliver = (base: string, url: string, signed: { params: Record<string, string>; signature: string }) =>
    fetch(`${base}${new URL(url).pathname}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signed.signature }, body: new URLSearchParams(signed.params) });

  // The keypad callbacks are on their way (Twilio may send again) when the process dies.
  const inFlight = Array.from({ length: 3 }, () => deliver(app.url, keypad, pressed).then((r) => r.status, () => 0));
  app.child.kill('SIGKILL');
  await new Promise((r) => app.child.once('exit', r));
  await Promise.all(inFlight);

  app = await startAppProcess(env);
  for (let i = 0; i < 2; i++) t.is((await deliver(app.url, keypad, pressed)).status, 200, 'the keypad callback after the restart');
  for (let i = 0; i < 2; i++) t.is((await deliver(app.url, call.statusCallback!, done)).status, 200, 'the status callback after the restart');

  const after = await state();
  t.like(after, { status: 'confirmed', confirmation_call: { state: 'done', outcome: 'confirmed' } });
  const kinds = (after.trail as Array<{ kind: string }>).map((e) => e.kind);
  for (const kind of ['call_placed', 'keypad', 'call_outcome']) t.is(kinds.filter((k) => k === kind).length, 1, `${kind} once: ${kinds.join()}`);
  // The call's row says it was placed (and now done): a restarted worker never places it again, nor charges again.
  t.is([...fake.calls.values()].filter((c) => c.twiml.includes(bookingId)).length, 1, 'placed once');
  t.is(1000 - (await api('GET', '/voice/credits', undefined, voiceKey)).body.data.balance, charged, 'charged once');
});
