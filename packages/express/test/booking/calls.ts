import test from '../helpers/bounded-test';
import { definePlugin, type Telephony } from '@formloom/core';
import { waitFor } from '@formloom/core/testing';
import { caldavPlugin } from '@formloom/calendar-caldav';
import { Radicale } from '@formloom/calendar-caldav/testing';
import { createTwilioTelephony } from '@formloom/telephony-twilio';
import { FakeTwilio } from '@formloom/telephony-twilio/testing';
import { forEachDb, type TestApp } from '../helpers/app';
import { download, sheetCells } from '../helpers/xlsx-cells';
import { memoryMailer } from '../helpers/signing';
import { webhookReceiver } from '../helpers/browser';
import { toneEngine, toneVoiceAppOptions } from '../helpers/voice';

/*
 * Confirmation calls of bookings (docs/booking.md, "Confirmation calls") through the HTTP API, on SQLite and
 * PostgreSQL: readiness and the 402 credit check at publish, the call placed through the outbox on the local
 * Twilio (FakeTwilio of @formloom/telephony-twilio), its prompt made by the tone engine and charged once, the
 * audio at its token's URL, signed keypad and status callbacks (unsigned or forged: 403; repeated: no change),
 * a keypad cancel that cancels the booking as its link does, and the outcome with the booking's trail.
 */

let radicale: Radicale;
let fake: FakeTwilio;
const USERS = { sqlite_c: 'pe', postgres_c: 'pf', sqlite_l: 'pg', postgres_l: 'ph' } as const;
const FROM = '+15005550001';
test.before(async () => {
  [radicale, fake] = await Promise.all([Radicale.start({ ...USERS }), FakeTwilio.start()]);
});
test.after.always(async () => {
  await Promise.all([radicale?.close(), fake?.close()]);
});

// The adapter is made once the local Twilio is up (after the apps' options are fixed): a thin forwarder.
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

const mailer = memoryMailer();
const HOURS = [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, start: '08:00', end: '20:00' }));

async function setUp(app: TestApp, suffix = 'c') {
  const user = `${app.kind}_${suffix}` as keyof typeof USERS;
  const email = `calls_${app.kind}_${suffix}_${Date.now()}@example.com`;
  const owner = await app.formloom.accounts.createUser({ email, plan: 'pro', verified: true });
  const key = (await app.formloom.accounts.createKey(owner.id)).api_key;
  const put = await app.api('PUT', '/calendar/connection', { key, body: { url: radicale.url, username: user, password: USERS[user] } });
  if (put.status !== 200) throw new Error(`connect: ${put.status} ${put.text}`);
  return { owner, key, user };
}

const post = (url: string, signed: { params: Record<string, string>; signature: string } | { params: Record<string, string>; signature?: undefined }) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...(signed.signature ? { 'x-twilio-signature': signed.signature } : {}) }, body: new URLSearchParams(signed.params) });

forEachDb(test, (it) => {
  it('confirmation call: readiness and credits at publish, the call placed once, audio, signed callbacks, a keypad cancel', async (t, app) => {
    app.formloom.worker.start({ pollMs: 50 });
    const { owner, key, user } = await setUp(app);
    const hook = await webhookReceiver();
    t.teardown(() => hook.close());
    const booking = { type: 'booking', title: 'Pick a time', required: true, properties: { hours: HOURS, timezone: 'Europe/Paris', durations: [30], confirmation_call: true } };
    const contact = { type: 'contact_info', title: 'You', required: true, properties: { fields: ['first_name', 'email', 'phone'] } };

    // No phone question named: the number is missing. Then a question that is not a contact-info one.
    const created = await app.api('POST', '/forms', { key, body: { title: 'Fitting', published: true, webhook_url: hook.url, questions: [contact, booking] } });
    t.is(created.status, 201, created.text);
    const [who, book] = (created.body.questions as Array<{ id: string }>).map((q) => q.id) as [string, string];
    t.like(created.body.publish_error, { reason: 'booking_confirmation_number_missing', question_ids: [book] });
    const formId = created.body.id as string;
    const withQuestion = (q: string) => app.api('PUT', `/forms/${formId}`, { key, body: { title: 'Fitting', webhook_url: hook.url, questions: [{ ...contact, id: who }, { ...booking, id: book, properties: { ...booking.properties, confirmation_call_question: q } }] } });
    const put = await withQuestion(book);
    t.is(put.status, 200, put.text);
    t.like((await app.api('POST', `/forms/${formId}/publish`, { key })).body.error, { reason: 'booking_confirmation_number_missing' });
    t.is((await withQuestion(who)).status, 200);

    // The owner's credits cannot pay a call: 402 in the documented shape, with what it costs.
    const poor = await app.api('POST', `/forms/${formId}/publish`, { key });
    t.is(poor.status, 402, poor.text);
    t.like(poor.body.error, { code: 'INSUFFICIENT_CREDITS', status: 402, reason: 'booking_confirmation_credits_insufficient', balance: 0, question_ids: [book] });
    const cost = poor.body.error.credits_required as number;
    t.true(cost > 10 && cost < 100, `a call costs ${cost} credits`);
    const quote = await app.api('GET', `/forms/${formId}/bookings/call-quote`, { key });
    t.deepEqual(quote.body.data, { credits_per_call: cost, calls_covered_at_publish: 1, balance: 0, enough: false, configured: true }, 'the builder\'s quote');
    await app.formloom.accounts.purchaseCredits(owner.id, 1000);
    const published = await app.api('POST', `/forms/${formId}/publish`, { key });
    t.is(published.status, 200, published.text);
    const slug = published.body.slug as string;
    const outcome = async (r: { responseId: string }) => (await app.api('GET', `/forms/${formId}/responses/${r.responseId}/bookings`, { key })).body.bookings[0];
    // Twilio calls back once the call rings, after the call is recorded: the test waits for that too.
    const calling = (r: { responseId: string }) => waitFor(async () => (await outcome(r)).confirmation_call?.state === 'calling', { what: 'the call recorded' });

    // A respondent books, giving their number as they would type it.
    const respond = async (phone: string) => {
      const slots = (await app.api('GET', `/public/forms/${slug}/bookings/slots?question_id=${book}&duration=30`)).body.data.slots as Array<{ start: string }>;
      for (const s of slots.slice(3)) {
        const hold = await app.api('POST', `/public/forms/${slug}/bookings/holds`, { body: { question_id: book, start: s.start, duration: 30, timezone: 'Europe/Paris' } });
        if (hold.status !== 201) continue;
        const { id, start, end, timezone } = hold.body.data;
        const sent = await app.api('POST', `/public/forms/${slug}/responses`, { body: { answers: [{ question_id: who, value: { first_name: 'Ann', email: 'ann@example.com', phone } }, { question_id: book, value: { id, start, end, timezone } }] } });
        if (sent.status !== 201) throw new Error(`respond: ${sent.status} ${sent.text}`);
        return { bookingId: id as string, responseId: sent.body.id as string };
      }
      throw new Error('no slot');
    };
    const first = await respond('+33 6 12 34 56 78');
    const { bookingId, responseId } = first;
    const call = await waitFor(() => [...fake.calls.values()].find((c) => c.to === '+33612345678' && c.twiml.includes(bookingId)), { what: 'the call' });
    await calling(first);
    t.is(call.from, FROM);
    const audioUrl = /<Play>([^<]+)<\/Play>/.exec(call.twiml)![1]!.replace(/&amp;/g, '&');
    const keypadUrl = /action="([^"]+)"/.exec(call.twiml)![1]!.replace(/&amp;/g, '&');
    const statusUrl = call.statusCallback!;
    t.is(keypadUrl, `${app.url}/api/v1/public/booking-calls/${bookingId}/keypad`);
    t.is((call.twiml.match(/<Gather /g) ?? []).length, 2, 'played once more when no digit comes');

    // The prompt: audio Twilio plays (WAV), at an unguessable URL; charged to the owner once.
    const audio = await fetch(audioUrl);
    t.is(audio.status, 200);
    t.is(audio.headers.get('content-type'), 'audio/wav');
    t.is(Buffer.from(await audio.arrayBuffer()).subarray(0, 4).toString(), 'RIFF');
    t.is((await fetch(`${audioUrl}x`)).status, 404);
    const spent = 1000 - (await app.formloom.storage.credits.balance(owner.id));
    t.true(spent > 0 && spent <= cost, `charged ${spent} of the quoted ${cost}`);

    // Callbacks: unsigned or signed with another token are refused; a signed keypad 2 cancels, once.
    t.is((await post(keypadUrl, { params: { CallSid: call.sid, Digits: '2' } })).status, 403);
    t.is((await post(keypadUrl, fake.press(call.sid, keypadUrl, '2', true))).status, 403);
    t.is((await post(statusUrl, fake.signed(statusUrl, { CallSid: call.sid, CallStatus: 'completed' }, true))).status, 403);
    const pressed = fake.press(call.sid, keypadUrl, '2');
    const answer = await post(keypadUrl, pressed);
    t.is(answer.status, 200);
    t.regex(answer.headers.get('content-type') ?? '', /xml/);
    t.regex(await answer.text(), /<Hangup\/>/);
    t.is((await post(keypadUrl, pressed)).status, 200, 'a repeat is answered');
    t.is((await post(statusUrl, fake.signed(statusUrl, { CallSid: call.sid, CallStatus: 'completed' }))).status, 200);
    t.is((await post(statusUrl, fake.signed(statusUrl, { CallSid: call.sid, CallStatus: 'completed' }))).status, 200);

    const read = await app.api('GET', `/forms/${formId}/responses/${responseId}/bookings`, { key });
    t.is(read.status, 200, read.text);
    const [b] = read.body.bookings;
    t.like(b, { id: bookingId, status: 'cancelled', confirmation_call: { state: 'done', outcome: 'cancelled' } });
    const kinds = (b.trail as Array<{ kind: string }>).map((e) => e.kind);
    // Each once; the three are written in one transaction at one time, so their order among themselves is not fixed.
    t.deepEqual(kinds.filter((k) => k === 'keypad' || k === 'booking_cancelled' || k === 'call_outcome').sort(), ['booking_cancelled', 'call_outcome', 'keypad'], 'each once');
    t.true(['booking_confirmed', 'call_queued', 'call_prompt', 'call_placed', 'call_status'].every((k) => kinds.includes(k)), kinds.join());
    t.false(JSON.stringify(read.body).includes('+33612345678'), 'the number is not shown');
    const response = await app.api('GET', `/forms/${formId}/responses/${responseId}`, { key });
    t.like(response.body.bookings[0], { id: bookingId, status: 'cancelled', confirmation_call: { outcome: 'cancelled' } }, 'in the response API');
    // Cancelled as the link cancels: the event leaves the calendar, the cancellation is mailed.
    await waitFor(async () => (await radicale.getRaw(user, bookingId)) === null, { what: 'the event removed' });
    await waitFor(() => mailer.sent.find((m) => m.calendar?.method === 'CANCEL' && m.calendar.content.includes(bookingId)), { what: 'the cancellation mail' });
    t.is(1000 - (await app.formloom.storage.credits.balance(owner.id)), spent, 'charged once');
    // The outcome's own webhook event (the submission's went out before the call), once despite the repeats.
    const outcomeHook = (id: string) => hook.bodies.filter((b) => b.event === 'booking.call_completed' && b.booking.id === id);
    const sent = await waitFor(() => outcomeHook(bookingId)[0], { what: 'the outcome webhook' });
    t.like(sent.booking, { status: 'cancelled', response_id: responseId, confirmation_call: { outcome: 'cancelled' } });
    // The delivery log lists it as its event (answers are checked against the API document: strictResponses).
    const log = await waitFor(async () => {
      const r = await app.api('GET', `/forms/${formId}/webhooks/deliveries`, { key });
      if (r.status !== 200) throw new Error(`deliveries: ${r.status} ${r.text}`);
      return (r.body.deliveries as Array<{ event: string; response_id: string; status: string }>).find((d) => d.event === 'booking.call_completed' && d.status === 'delivered');
    }, { what: 'the outcome delivered in the log' });
    t.is(log.response_id, responseId);

    // Another booking: 1 confirms it; one more: no answer. 
    const second = await respond('0033 6 12 34 56 79');
    const call2 = await waitFor(() => [...fake.calls.values()].find((c) => c.twiml.includes(second.bookingId)), { what: 'the second call' });
    await calling(second);
    const k2 = /action="([^"]+)"/.exec(call2.twiml)![1]!;
    t.is((await post(k2, fake.press(call2.sid, k2, '1'))).status, 200);
    t.is((await post(call2.statusCallback!, fake.signed(call2.statusCallback!, { CallSid: call2.sid, CallStatus: 'completed' }))).status, 200);
    // Twilio refuses with a 503: nothing placed, the outbox tries again (made due now here) and the call is placed once.
    fake.failNext(503);
    const refusedBefore = fake.refused;
    const third = await respond('+33 6 12 34 56 80');
    await waitFor(() => fake.refused > refusedBefore, { what: 'the refused attempt' });
    await waitFor(async () => {
      await app.raw(`UPDATE outbox SET next_attempt_at = '2000-01-01T00:00:00.000Z' WHERE kind = 'booking.call' AND status = 'pending'`);
      return [...fake.calls.values()].some((c) => c.twiml.includes(third.bookingId));
    }, { what: 'the retried call' });
    const call3 = await waitFor(() => [...fake.calls.values()].find((c) => c.twiml.includes(third.bookingId)), { what: 'the third call' });
    await calling(third);
    t.is((await post(call3.statusCallback!, fake.signed(call3.statusCallback!, { CallSid: call3.sid, CallStatus: 'no-answer' }))).status, 200);
    t.like(await outcome(second), { status: 'confirmed', confirmation_call: { outcome: 'confirmed' } });
    t.like(await outcome(third), { status: 'confirmed', confirmation_call: { outcome: 'no_answer', reason: 'no_answer' } });
    await waitFor(() => outcomeHook(third.bookingId).length === 1, { what: "the third call's webhook" });
    t.is([...fake.calls.values()].filter((c) => c.twiml.includes(third.bookingId)).length, 1, 'placed once after the retry');
    t.is(outcomeHook(bookingId).length, 1, 'one outcome webhook per call');
    t.is((await post(k2.replace(second.bookingId, third.bookingId), fake.press(call2.sid, k2.replace(second.bookingId, third.bookingId), '2'))).status, 404, "another call's id");

    // The outcome is a column of the CSV, XLSX and JSON exports, as it stands at export time.
    const expected = new Map([[first.responseId, 'cancelled'], [second.responseId, 'confirmed'], [third.responseId, 'no_answer']]);
    const csv = (await app.api('GET', `/forms/${formId}/responses/export`, { key })).text.split('\r\n').filter(Boolean);
    t.true(csv[0]!.endsWith(',Pick a time - call outcome'), csv[0]);
    for (const line of csv.slice(1)) t.true(line.endsWith(`,${expected.get(line.slice(0, line.indexOf(',')))}`), line);
    const { rows } = await sheetCells((await download(app, `/forms/${formId}/responses/export?format=xlsx`, key)).bytes);
    const col = rows[0]!.indexOf('Pick a time - call outcome');
    t.true(col > 0);
    t.deepEqual(new Map(rows.slice(1).map((r) => [r[0], r[col]])), expected);
    const json = (await app.api('GET', `/forms/${formId}/responses/export?format=json`, { key })).body as Array<{ id: string; confirmation_calls: unknown }>;
    t.deepEqual(new Map(json.map((r) => [r.id, r.confirmation_calls])), new Map([...expected].map(([id, outcome]) => [id, [{ question_id: book, outcome }]])));
  });

  it("a form in a language no voice of the server speaks: its quote covers the English prompt, and the call speaks English", async (t, app) => {
    app.formloom.worker.start({ pollMs: 50 });
    const { owner, key } = await setUp(app, 'l');
    await app.formloom.accounts.purchaseCredits(owner.id, 1000);
    const contact = { type: 'contact_info', title: 'Vous', required: true, properties: { fields: ['first_name', 'phone'] } };
    const created = await app.api('POST', '/forms', { key, body: { title: 'Essayage', language: 'fr', questions: [contact, { type: 'booking', title: 'Quand ?', required: true, properties: { hours: HOURS, timezone: 'Europe/Paris', durations: [30] } }] } });
    const [who, book] = (created.body.questions as Array<{ id: string }>).map((q) => q.id) as [string, string];
    const put = await app.api('PUT', `/forms/${created.body.id}`, { key, body: { title: 'Essayage', language: 'fr', questions: [{ ...contact, id: who }, { id: book, type: 'booking', title: 'Quand ?', required: true, properties: { hours: HOURS, timezone: 'Europe/Paris', durations: [30], confirmation_call: true, confirmation_call_question: who } }] } });
    t.is(put.status, 200, put.text);
    const quote = (await app.api('GET', `/forms/${created.body.id}/bookings/call-quote`, { key })).body.data.credits_per_call as number;
    const english = await app.api('POST', '/forms', { key, body: { title: 'Essayage', questions: [] } });
    t.true(quote >= (await app.api('GET', `/forms/${english.body.id}/bookings/call-quote`, { key })).body.data.credits_per_call, 'at least the English prompt');
    const published = await app.api('POST', `/forms/${created.body.id}/publish`, { key });
    t.is(published.status, 200, published.text);
    const slot = (await app.api('GET', `/public/forms/${published.body.slug}/bookings/slots?question_id=${book}&duration=30`)).body.data.slots[5];
    const hold = await app.api('POST', `/public/forms/${published.body.slug}/bookings/holds`, { body: { question_id: book, start: slot.start, duration: 30, timezone: 'Europe/Paris' } });
    const { id, start, end, timezone } = hold.body.data;
    const sent = await app.api('POST', `/public/forms/${published.body.slug}/responses`, { body: { answers: [{ question_id: who, value: { first_name: 'Léa', phone: '+33 6 98 76 54 32' } }, { question_id: book, value: { id, start, end, timezone } }] } });
    t.is(sent.status, 201, sent.text);
    const prompt = await waitFor(async () => {
      const b = (await app.api('GET', `/forms/${created.body.id}/responses/${sent.body.id}/bookings`, { key })).body.bookings[0];
      return (b.trail as Array<{ kind: string; detail: Record<string, unknown> }>).find((e) => e.kind === 'call_prompt');
    }, { what: 'the prompt made' });
    t.is(prompt.detail.language, 'en', 'the tone engine speaks English only');
    const spent = 1000 - (await app.formloom.storage.credits.balance(owner.id));
    t.true(spent > 0 && spent <= quote, `charged ${spent} of the quoted ${quote}`);
  });
}, { ...toneVoiceAppOptions(), speechEngines: [toneEngine()], mailer, plugins: [caldavPlugin(), definePlugin({ name: 'test-telephony', version: '0.1.0', adapters: { telephony } })], allowPrivateWebhooks: true, strictResponses: true });
