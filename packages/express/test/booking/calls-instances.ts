import test from '../helpers/bounded-test';
import { createAudioCodecs } from '@formloom/audio';
import { definePlugin, type Telephony } from '@formloom/core';
import { waitFor } from '@formloom/core/testing';
import { caldavPlugin } from '@formloom/calendar-caldav';
import { Radicale } from '@formloom/calendar-caldav/testing';
import { createTwilioTelephony } from '@formloom/telephony-twilio';
import { FakeTwilio } from '@formloom/telephony-twilio/testing';
import { startTwoInstances } from '../helpers/two-instances';
import { toneEngine } from '../helpers/voice';
import { memoryMailer } from '../helpers/signing';

/*
 * Confirmation calls with two instances on one PostgreSQL database (docs/booking.md, "Confirmation calls"): both
 * run their outbox workers; a booking made on one is called once (one call at the local Twilio), its prompt charged
 * to the owner's credits once, and Twilio's callbacks, delivered to both instances at once and repeated, record one
 * outcome and one trail entry each.
 */
const FROM = '+15005550002';
const mailer = memoryMailer();

test('two instances: one booking, one call placed, credits charged once; callbacks at both instances record one outcome', async (t) => {
  t.timeout(120_000);
  const [radicale, fake] = await Promise.all([Radicale.start({ owner: 'pi' }), FakeTwilio.start()]);
  let twilio: Telephony | undefined;
  const tel = () => (twilio ??= createTwilioTelephony({ accountSid: fake.accountSid, authToken: fake.authToken, apiUrl: fake.apiUrl, from: FROM }));
  const telephony: Telephony = {
    id: 'twilio',
    from: FROM,
    placeCall: (r) => tel().placeCall(r),
    getCall: (id) => tel().getCall(id),
    parseCallback: (url, params, signature) => tel().parseCallback(url, params, signature),
    closingAnswer: (audio) => tel().closingAnswer(audio),
  };
  const two = await startTwoInstances({
    plugins: [caldavPlugin(), definePlugin({ name: 'test-telephony', version: '0.1.0', adapters: { telephony } })],
    speechEngines: [toneEngine()],
    audio: createAudioCodecs(),
    config: { voice: { syncBudgetMs: 600_000 } },
    sharedBlobs: true,
    mailers: [mailer, mailer],
  });
  t.teardown(async () => {
    await two.close();
    await Promise.all([radicale.close(), fake.close()]);
  });
  const owner = await two.instances[0].accounts.createUser({ email: `calls-two-${Date.now()}@example.com`, plan: 'pro', verified: true });
  const { api_key: key } = await two.instances[0].accounts.createKey(owner.id);
  await two.instances[1].accounts.purchaseCredits(owner.id, 1000);
  t.is((await two.api(0, 'PUT', '/calendar/connection', { key, body: { url: radicale.url, username: 'owner', password: 'pi' } })).status, 200);
  const hours = [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, start: '00:00', end: '24:00' }));
  const contact = { type: 'contact_info', title: 'You', required: true, properties: { fields: ['first_name', 'phone'] } };
  const created = await two.api(1, 'POST', '/forms', { key, body: { title: 'Fitting', questions: [contact, { type: 'booking', title: 'When', required: true, properties: { hours, timezone: 'UTC', durations: [30], confirmation_call: true } }] } });
  const [who, book] = (created.body.questions as Array<{ id: string }>).map((q) => q.id) as [string, string];
  const put = await two.api(0, 'PUT', `/forms/${created.body.id}`, { key, body: { title: 'Fitting', questions: [{ ...contact, id: who }, { id: book, type: 'booking', title: 'When', required: true, properties: { hours, timezone: 'UTC', durations: [30], confirmation_call: true, confirmation_call_question: who } }] } });
  t.is(put.status, 200, put.text);
  const published = await two.api(1, 'POST', `/forms/${created.body.id}/publish`, { key });
  t.is(published.status, 200, published.text);
  const slug = published.body.slug as string;
  two.startWorkers();

  const slot = ((await two.api(0, 'GET', `/public/forms/${slug}/bookings/slots?question_id=${book}&duration=30`)).body.data.slots as Array<{ start: string }>)[4]!;
  const hold = await two.api(1, 'POST', `/public/forms/${slug}/bookings/holds`, { body: { question_id: book, start: slot.start, duration: 30, timezone: 'UTC' } });
  t.is(hold.status, 201, hold.text);
  const { id: bookingId, start, end, timezone } = hold.body.data;
  const sent = await two.api(0, 'POST', `/public/forms/${slug}/responses`, { body: { answers: [{ question_id: who, value: { first_name: 'Ida', phone: '+33 6 11 22 33 44' } }, { question_id: book, value: { id: bookingId, start, end, timezone } }] } });
  t.is(sent.status, 201, sent.text);
  const bookings = () => two.api(1, 'GET', `/forms/${created.body.id}/responses/${sent.body.id}/bookings`, { key }).then((r) => r.body.bookings[0]);
  const call = await waitFor(() => [...fake.calls.values()].find((c) => c.twiml.includes(bookingId)), { what: 'the call' });
  await waitFor(async () => (await bookings()).confirmation_call?.state === 'calling', { what: 'the call recorded' });

  // Twilio's callbacks, each sent to both instances at once and repeated: "1", then the final status.
  const keypad = /action="([^"]+)"/.exec(call.twiml)![1]!.replace(/&amp;/g, '&');
  const path = (url: string) => new URL(url).pathname;
  const post = (i: number, url: string, signed: { params: Record<string, string>; signature: string }) =>
    fetch(`${two.urls[i]}${path(url)}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signed.signature }, body: new URLSearchParams(signed.params) }).then((r) => r.status);
  const pressed = fake.press(call.sid, keypad, '1');
  const done = fake.signed(call.statusCallback!, { CallSid: call.sid, CallStatus: 'completed' });
  const statuses = await Promise.all([0, 1, 0, 1].map((i) => post(i, keypad, pressed)));
  statuses.push(...(await Promise.all([0, 1, 0, 1].map((i) => post(i, call.statusCallback!, done)))));
  t.deepEqual(statuses, [200, 200, 200, 200, 200, 200, 200, 200]);

  const b = await bookings();
  t.like(b, { status: 'confirmed', confirmation_call: { state: 'done', outcome: 'confirmed' } });
  const kinds = (b.trail as Array<{ kind: string }>).map((e) => e.kind);
  for (const kind of ['booking_confirmed', 'call_queued', 'call_prompt', 'call_placed', 'keypad', 'call_outcome']) t.is(kinds.filter((k) => k === kind).length, 1, `${kind} once: ${kinds.join()}`);
  // Both workers kept polling meanwhile: still one call, one charge, one outcome event.
  await waitFor(async () => (await two.raw(`SELECT status FROM outbox WHERE kind = 'booking.call'`)).every((r) => r.status !== 'pending'), { what: 'the call item settled' });
  t.is([...fake.calls.values()].filter((c) => c.twiml.includes(bookingId)).length, 1, 'placed once');
  const ledger = await two.raw(`SELECT kind, amount FROM credit_entries WHERE user_id = $1 ORDER BY created_at`, [owner.id]);
  t.is(ledger.filter((e) => e.kind !== 'purchase').length, 1, JSON.stringify(ledger));
  const spent = 1000 - (await two.instances[0].storage.credits.balance(owner.id));
  t.true(spent > 0 && spent < 100, `one prompt: ${spent} credits`);
});
