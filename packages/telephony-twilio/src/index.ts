// The Twilio adapter of the telephony port (docs/booking.md, "Confirmation calls").
export { createTwilioTelephony, type TwilioTelephonyOptions } from './twilio-telephony';

import { definePlugin, type FormloomPlugin } from '@formloom/core';
import { createTwilioTelephony, type TwilioTelephonyOptions } from './twilio-telephony';

/** A plugin giving an instance Twilio telephony: `createFormloom({ plugins: [twilioPlugin(options)] })`. */
export function twilioPlugin(options: TwilioTelephonyOptions): FormloomPlugin<TwilioTelephonyOptions> {
  return definePlugin({ name: 'telephony-twilio', version: '0.1.0', options, adapters: { telephony: createTwilioTelephony(options) } });
}

/**
 * The adapter's options from `FORMLOOM_TWILIO_ACCOUNT_SID`, `FORMLOOM_TWILIO_AUTH_TOKEN` and `FORMLOOM_TWILIO_FROM`
 * (docs/configuration.md); null when none is set; an error naming what is missing or malformed otherwise.
 */
export function twilioOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): TwilioTelephonyOptions | null {
  const accountSid = env.FORMLOOM_TWILIO_ACCOUNT_SID?.trim();
  const authToken = env.FORMLOOM_TWILIO_AUTH_TOKEN?.trim();
  const from = env.FORMLOOM_TWILIO_FROM?.trim();
  if (!accountSid && !authToken && !from) return null;
  if (!accountSid || !authToken) throw new Error('FORMLOOM_TWILIO_ACCOUNT_SID and FORMLOOM_TWILIO_AUTH_TOKEN are both needed (docs/booking.md)');
  if (!from) throw new Error('FORMLOOM_TWILIO_FROM is needed: the number of the Twilio account that calls come from (docs/booking.md)');
  if (!/^\+[1-9]\d{6,14}$/.test(from)) throw new Error(`FORMLOOM_TWILIO_FROM must be an E.164 number such as +15017122661, not ${JSON.stringify(from)}`);
  return { accountSid, authToken, from, ...(env.FORMLOOM_TWILIO_API_URL ? { apiUrl: env.FORMLOOM_TWILIO_API_URL } : {}) };
}
