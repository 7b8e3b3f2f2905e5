import { TelephonyError, TelephonySignatureError, type CallCallback, type CallRequest, type CallStatus, type PlacedCall, type Telephony } from '@formloom/core';
import twilio from 'twilio';

export interface TwilioTelephonyOptions {
  accountSid: string;
  authToken: string;
  /**
   * Another base URL for Twilio's REST API (tests: a local server speaking the calls used). The SDK keeps its
   * own request building; only the origin of each request changes, through the SDK's `httpClient` option.
   */
  apiUrl?: string;
  /** The number calls come from (`FORMLOOM_TWILIO_FROM`, E.164): a number of the Twilio account. */
  from?: string;
}

const STATUS: Record<string, CallStatus> = {
  queued: 'queued', initiated: 'queued', ringing: 'ringing', 'in-progress': 'in_progress', answered: 'in_progress',
  completed: 'completed', busy: 'busy', 'no-answer': 'no_answer', failed: 'failed', canceled: 'canceled',
};
const statusOf = (s: unknown): CallStatus => STATUS[String(s)] ?? 'failed';

/** XML text escaping for the TwiML attributes and bodies we write. */
const xml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

/**
 * The telephony port on Twilio (docs/booking.md, "Confirmation calls"): a call whose TwiML plays the audio inside
 * a one-digit `<Gather>` posting to `keypadUrl`, status callbacks to `statusUrl`, and callbacks verified with the
 * SDK's `validateRequest` (HMAC-SHA1 of the URL and the sorted form fields with the auth token).
 */
export function createTwilioTelephony(options: TwilioTelephonyOptions): Telephony {
  if (!options.accountSid || !options.authToken) throw new Error('FORMLOOM_TWILIO_ACCOUNT_SID and FORMLOOM_TWILIO_AUTH_TOKEN are both needed');
  let httpClient: InstanceType<typeof twilio.RequestClient> | undefined;
  if (options.apiUrl) {
    const base = options.apiUrl.replace(/\/+$/, '');
    const rewriting = new twilio.RequestClient();
    const send = rewriting.request.bind(rewriting);
    rewriting.request = (opts) => send({ ...opts, uri: opts.uri.replace(/^https:\/\/[^/]+/, base) });
    httpClient = rewriting;
  }
  const client = twilio(options.accountSid, options.authToken, httpClient ? { httpClient } : {});
  const refused = (e: unknown): never => {
    const err = e as { status?: number; code?: number; message?: string };
    throw new TelephonyError(err.message ?? 'Twilio refused the call', typeof err.status === 'number' ? err.status : 502, err.code != null ? String(err.code) : null);
  };
  return {
    id: 'twilio',
    from: options.from ?? null,
    async placeCall(r: CallRequest): Promise<PlacedCall> {
      const timeout = Math.max(3, Math.min(30, r.timeoutSeconds ?? 8));
      // Without a digit Twilio goes on to the next verb: the second Gather plays the audio once more (docs/booking.md).
      const gather = `<Gather numDigits="1" timeout="${timeout}" action="${xml(r.keypadUrl)}" method="POST"><Play>${xml(r.audioUrl)}</Play></Gather>`;
      const twiml = `<Response>${gather}${gather}</Response>`;
      const call = await client.calls
        .create({ to: r.to, from: r.from, twiml, statusCallback: r.statusUrl, statusCallbackMethod: 'POST', statusCallbackEvent: ['initiated', 'ringing', 'answered', 'completed'] })
        .catch(refused);
      return { id: call.sid, status: statusOf(call.status) };
    },
    async getCall(id: string): Promise<PlacedCall> {
      const call = await client.calls(id).fetch().catch(refused);
      return { id: call.sid, status: statusOf(call.status) };
    },
    parseCallback(url: string, params: Record<string, string>, signature: string | undefined): CallCallback {
      if (!signature || !twilio.validateRequest(options.authToken, signature, url, params)) {
        throw new TelephonySignatureError('The callback is not signed by Twilio with this account');
      }
      return { callId: String(params.CallSid ?? ''), status: params.CallStatus ? statusOf(params.CallStatus) : null, digits: params.Digits ? String(params.Digits) : null };
    },
    closingAnswer(audioUrl: string | null) {
      return { contentType: 'text/xml', body: `<?xml version="1.0" encoding="UTF-8"?><Response>${audioUrl ? `<Play>${xml(audioUrl)}</Play>` : ''}<Hangup/></Response>` };
    },
  };
}
