/**
 * Telephony (docs/booking.md, "Confirmation calls"): place a call that plays audio and reads one keypad digit, and
 * read the provider's signed callbacks. None until configured: `@formloom/telephony-twilio`.
 * Conformance suite: `telephonyConformance` in `@formloom/core/testing`.
 * Used by the booking area's confirmation calls (booking/confirmation-calls.ts).
 */

/** A call's state, in Formloom's words. */
export type CallStatus = 'queued' | 'ringing' | 'in_progress' | 'completed' | 'busy' | 'no_answer' | 'failed' | 'canceled';

export interface CallRequest {
  /** E.164 (`+33612345678`). */
  to: string;
  /** The number the call comes from (the adapter's `from`: `FORMLOOM_TWILIO_FROM`), E.164. */
  from: string;
  /** Audio the callee hears, at a URL the provider fetches (public, unguessable). */
  audioUrl: string;
  /** Where the provider posts the digit pressed (signed). */
  keypadUrl: string;
  /** Where the provider posts status changes (signed). */
  statusUrl: string;
  /** Seconds to wait for a digit after the audio (default 8); with no digit the audio is played once more. */
  timeoutSeconds?: number;
}

export interface PlacedCall {
  /** The provider's id (`CA...`). */
  id: string;
  status: CallStatus;
}

/** A verified callback reduced to what Formloom acts on. */
export interface CallCallback {
  callId: string;
  /** The call's status when the callback says it, else null. */
  status: CallStatus | null;
  /** The digits pressed (keypad callbacks), else null. */
  digits: string | null;
}

/** A callback whose signature does not verify (or is missing). */
export class TelephonySignatureError extends Error {
  override readonly name = 'TelephonySignatureError';
}

/** A provider's refusal (a bad number, an unknown call); its message is safe to show the owner. */
export class TelephonyError extends Error {
  override readonly name = 'TelephonyError';
  constructor(message: string, readonly status: number, readonly code: string | null = null) {
    super(message);
  }
}

export interface Telephony {
  /** The provider's name, e.g. `twilio`. */
  readonly id: string;
  /** The instance's number calls come from (E.164), null when none is set: then no call can be placed. */
  readonly from?: string | null;
  placeCall(request: CallRequest): Promise<PlacedCall>;
  getCall(id: string): Promise<PlacedCall>;
  /**
   * Verifies a callback: `url` exactly as the provider called it (the public URL), `params` the posted form
   * fields, `signature` the provider's header. Throws TelephonySignatureError when it does not verify.
   */
  parseCallback(url: string, params: Record<string, string>, signature: string | undefined): CallCallback;
  /** What to answer a keypad callback: play `audioUrl` (a last word), then hang up. */
  closingAnswer(audioUrl: string | null): { contentType: string; body: string };
}

/** The instance without a telephony adapter: every call is refused with a clear message. */
export const noTelephony = (): Telephony => {
  const no = (): never => {
    throw new TelephonyError('No telephony adapter is configured on this server (docs/booking.md)', 409, 'not_configured');
  };
  return { id: 'none', from: null, placeCall: async () => no(), getCall: async () => no(), parseCallback: () => no(), closingAnswer: () => no() };
};
