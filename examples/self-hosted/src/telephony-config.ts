import type { Telephony } from '@formloom/core';
import type { Env } from './config';

/**
 * Twilio when any `FORMLOOM_TWILIO_*` is set (docs/booking.md "Setting up Twilio", docs/configuration.md): the SDK
 * is loaded only then. A partial or malformed set (no auth token, a `FORMLOOM_TWILIO_FROM` that is not E.164)
 * stops the start, naming what is wrong. Without any, booking questions with a confirmation call are refused at
 * publish (`booking_confirmation_number_missing`).
 */
export async function twilioFromEnv(env: Env): Promise<Telephony | null> {
  if (!['FORMLOOM_TWILIO_ACCOUNT_SID', 'FORMLOOM_TWILIO_AUTH_TOKEN', 'FORMLOOM_TWILIO_FROM'].some((k) => env[k]?.trim())) return null;
  const { createTwilioTelephony, twilioOptionsFromEnv } = await import('@formloom/telephony-twilio');
  return createTwilioTelephony(twilioOptionsFromEnv(env as NodeJS.ProcessEnv)!);
}
