import test from 'ava';
import { telephonyConformance } from '@formloom/core/testing';
import { createTwilioTelephony, twilioOptionsFromEnv, twilioPlugin } from '../src/index';
import { FakeTwilio } from '../src/testing';

// The Twilio adapter against a local server speaking the Twilio calls used, callbacks signed as Twilio signs them.
let fake: FakeTwilio;
test.before(async () => {
  fake = await FakeTwilio.start();
});
test.after.always(() => fake?.close());

telephonyConformance(test, {
  name: 'twilio',
  create: () => createTwilioTelephony({ accountSid: fake.accountSid, authToken: fake.authToken, apiUrl: fake.apiUrl }),
  press: async (callId, url, digit, o) => fake.press(callId, url, digit, o?.wrongSecret),
  statusChange: async (callId, url, status) => fake.signed(url, { CallSid: callId, CallStatus: status }),
});

test('twilio: the call plays the audio inside a one-digit Gather posting to the keypad URL, with status callbacks', async (t) => {
  const tel = createTwilioTelephony({ accountSid: fake.accountSid, authToken: fake.authToken, apiUrl: fake.apiUrl });
  const call = await tel.placeCall({ to: '+15005550006', from: '+15005550001', audioUrl: 'https://f.example/a.wav?s=1&t=2', keypadUrl: 'https://f.example/k', statusUrl: 'https://f.example/s' });
  const sent = fake.calls.get(call.id)!;
  const gather = '<Gather numDigits="1" timeout="8" action="https://f.example/k" method="POST"><Play>https://f.example/a.wav?s=1&amp;t=2</Play></Gather>';
  t.is(sent.twiml, `<Response>${gather}${gather}</Response>`, 'played once more when no digit comes');
  t.is(sent.statusCallback, 'https://f.example/s');
});

test('twilio: wrong credentials are refused by the API as a TelephonyError 401; missing ones when the adapter is made', async (t) => {
  const tel = createTwilioTelephony({ accountSid: fake.accountSid, authToken: 'wrong', apiUrl: fake.apiUrl });
  const e = await t.throwsAsync(tel.placeCall({ to: '+15005550006', from: '+15005550001', audioUrl: 'https://f/a', keypadUrl: 'https://f/k', statusUrl: 'https://f/s' }));
  t.is((e as { status?: number }).status, 401);
  t.throws(() => createTwilioTelephony({ accountSid: '', authToken: 'x' }), { message: /FORMLOOM_TWILIO_ACCOUNT_SID/ });
});

test('twilio: options from FORMLOOM_TWILIO_*, and the plugin provides the telephony port', (t) => {
  t.is(twilioOptionsFromEnv({}), null, 'unset: no telephony');
  t.throws(() => twilioOptionsFromEnv({ FORMLOOM_TWILIO_ACCOUNT_SID: 'AC1' }), { message: /FORMLOOM_TWILIO_AUTH_TOKEN/ });
  t.throws(() => twilioOptionsFromEnv({ FORMLOOM_TWILIO_ACCOUNT_SID: 'AC1', FORMLOOM_TWILIO_AUTH_TOKEN: 'tok' }), { message: /FORMLOOM_TWILIO_FROM/ });
  t.throws(() => twilioOptionsFromEnv({ FORMLOOM_TWILIO_ACCOUNT_SID: 'AC1', FORMLOOM_TWILIO_AUTH_TOKEN: 'tok', FORMLOOM_TWILIO_FROM: '0612' }), { message: /E\.164/ });
  t.deepEqual(twilioOptionsFromEnv({ FORMLOOM_TWILIO_ACCOUNT_SID: ' AC1 ', FORMLOOM_TWILIO_AUTH_TOKEN: 'tok', FORMLOOM_TWILIO_FROM: '+15005550001' }), { accountSid: 'AC1', authToken: 'tok', from: '+15005550001' });
  t.is(twilioPlugin({ accountSid: fake.accountSid, authToken: fake.authToken }).adapters?.telephony && 'twilio', 'twilio');
});
