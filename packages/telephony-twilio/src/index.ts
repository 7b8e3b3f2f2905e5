// The Twilio adapter of the telephony port (docs/booking.md, "Confirmation calls").
export { createTwilioTelephony, type TwilioTelephonyOptions } from './twilio-telephony';

import { definePlugin, type FormloomPlugin } from '@formloom/core';
import { createTwilioTelephony, type TwilioTelephonyOptions } from './twilio-telephony';

/** A plugin giving an instance Twilio telephony: `createFormloom({ plugins: [twilioPlugin(options)] })`. */
export function twilioPlugin(options: TwilioTelephonyOptions): FormloomPlugin<TwilioTelephonyOptions> {
  return definePlugin({ name: 'telephony-twilio', version: '0.1.0', options, adapters: { telephony: createTwilioTelephony(options) } });
}

/** The adapter's options from `FORMLOOM_TWILIO_ACCOUNT_SID` and `FORMLOOM_TWILIO_AUTH_TOKEN`; null when unset. */
export function twilioOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): TwilioTelephonyOptions | null {
  const accountSid = env.FORMLOOM_TWILIO_ACCOUNT_SID?.trim();
  const authToken = env.FORMLOOM_TWILIO_AUTH_TOKEN?.trim();
  if (!accountSid && !authToken) return null;
  if (!accountSid || !authToken) throw new Error('FORMLOOM_TWILIO_ACCOUNT_SID and FORMLOOM_TWILIO_AUTH_TOKEN are both needed (docs/booking.md)');
  return { accountSid, authToken, ...(env.FORMLOOM_TWILIO_API_URL ? { apiUrl: env.FORMLOOM_TWILIO_API_URL } : {}) };
}
