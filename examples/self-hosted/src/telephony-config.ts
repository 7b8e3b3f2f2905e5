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

const TWILIO = ['FORMLOOM_TWILIO_ACCOUNT_SID', 'FORMLOOM_TWILIO_AUTH_TOKEN', 'FORMLOOM_TWILIO_FROM'] as const;

/**
 * The Twilio variables' problems, one line each, checked with the others before anything opens: all three or
 * none, the account SID `AC...`, the number E.164. The token is never repeated.
 */
export function twilioProblems(env: Env): string[] {
  const set = TWILIO.filter((k) => env[k]?.trim());
  if (!set.length) return [];
  const out = TWILIO.filter((k) => !env[k]?.trim()).map((k) => `${k}: needed with the other FORMLOOM_TWILIO_* variables (docs/booking.md, "Setting up Twilio")`);
  const sid = env.FORMLOOM_TWILIO_ACCOUNT_SID?.trim();
  if (sid && !/^AC[0-9a-fA-F]{32}$/.test(sid)) out.push('FORMLOOM_TWILIO_ACCOUNT_SID: expected the account SID from the Twilio console (AC followed by 32 hex digits)');
  const from = env.FORMLOOM_TWILIO_FROM?.trim();
  if (from && !/^\+[1-9]\d{6,14}$/.test(from)) out.push(`FORMLOOM_TWILIO_FROM: expected an E.164 number such as +15017122661, got ${JSON.stringify(from)}`);
  return out;
}
