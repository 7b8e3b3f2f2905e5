import type { TestFn } from 'ava';
import { TelephonyError, TelephonySignatureError, type Telephony } from '../ports/telephony';

/** A signed callback as the provider sends it. */
export interface SignedCallback {
  url: string;
  params: Record<string, string>;
  signature: string;
}

export interface TelephonyHarness {
  /** Prefix of every test title. */
  name: string;
  /** A client of the adapter under test, pointed at the provider's API (a local stand-in in tests). */
  create(): Telephony | Promise<Telephony>;
  /** The callee answers and presses `digit`: the provider's keypad callback to `url`, signed. */
  press(callId: string, url: string, digit: string, options?: { wrongSecret?: boolean }): Promise<SignedCallback>;
  /** The provider's status callback to `url`, signed. */
  statusChange(callId: string, url: string, status: 'completed' | 'no-answer' | 'busy' | 'failed'): Promise<SignedCallback>;
}

const CALL = { to: '+33612345678', from: '+33198765432', audioUrl: 'https://forms.example.com/a.wav', keypadUrl: 'https://forms.example.com/keypad', statusUrl: 'https://forms.example.com/status' };

/**
 * The telephony port's contract (docs/booking.md, "Confirmation calls"): a call placed and read back, a refused
 * number as TelephonyError, keypad and status callbacks verified (a wrong signature, a changed field or none at all
 * is refused) and reduced, and the closing answer.
 */
export function telephonyConformance(test: TestFn, harness: TelephonyHarness) {
  const name = (s: string) => `${harness.name}: ${s}`;
  let made: Promise<Telephony> | undefined;
  const telephony = () => (made ??= Promise.resolve(harness.create()));

  test(name('placeCall: a call is placed and read back; a bad number is a TelephonyError'), async (t) => {
    const tel = await telephony();
    const call = await tel.placeCall(CALL);
    t.truthy(call.id);
    t.true(['queued', 'ringing', 'in_progress'].includes(call.status));
    t.is((await tel.getCall(call.id)).id, call.id);
    const bad = await t.throwsAsync(tel.placeCall({ ...CALL, to: 'not a number' }), { instanceOf: TelephonyError });
    t.true(bad!.status >= 400 && bad!.status < 500);
  });

  test(name('parseCallback: a keypad digit and a status, verified; a wrong, missing or changed signature is refused'), async (t) => {
    const tel = await telephony();
    const call = await tel.placeCall(CALL);
    const pressed = await harness.press(call.id, CALL.keypadUrl, '1');
    t.like(tel.parseCallback(pressed.url, pressed.params, pressed.signature), { callId: call.id, digits: '1' });
    const done = await harness.statusChange(call.id, CALL.statusUrl, 'no-answer');
    t.like(tel.parseCallback(done.url, done.params, done.signature), { callId: call.id, status: 'no_answer', digits: null });
    const forged = await harness.press(call.id, CALL.keypadUrl, '2', { wrongSecret: true });
    t.throws(() => tel.parseCallback(forged.url, forged.params, forged.signature), { instanceOf: TelephonySignatureError });
    t.throws(() => tel.parseCallback(pressed.url, { ...pressed.params, Digits: '2' }, pressed.signature), { instanceOf: TelephonySignatureError }, 'a changed field');
    t.throws(() => tel.parseCallback(pressed.url, pressed.params, undefined), { instanceOf: TelephonySignatureError });
    t.throws(() => tel.parseCallback(`${pressed.url}?x=1`, pressed.params, pressed.signature), { instanceOf: TelephonySignatureError }, 'another URL');
  });

  test(name('closingAnswer: plays the last word and hangs up'), async (t) => {
    const tel = await telephony();
    const a = tel.closingAnswer('https://forms.example.com/bye.wav');
    t.regex(a.contentType, /xml/);
    t.regex(a.body, /bye\.wav/);
    t.notRegex(tel.closingAnswer(null).body, /<Play/);
  });
}
