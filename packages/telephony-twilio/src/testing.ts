import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import twilio from 'twilio';

/*
 * A local server speaking the Twilio REST calls the adapter uses (POST /2010-04-01/Accounts/{sid}/Calls.json,
 * GET .../Calls/{sid}.json), checking the account's Basic credentials, and callbacks signed as Twilio signs them
 * (`getExpectedTwilioSignature`). The SDK reaches it through `apiUrl`.
 */
export interface FakeCall {
  sid: string;
  to: string;
  from: string;
  twiml: string;
  statusCallback: string | null;
  status: string;
}

export class FakeTwilio {
  readonly accountSid = `AC${randomBytes(16).toString('hex')}`;
  readonly authToken = randomBytes(16).toString('hex');
  readonly calls = new Map<string, FakeCall>();
  /** How many placed calls were refused by `failNext`. */
  refused = 0;
  private failures: number[] = [];
  private constructor(private readonly server: Server, readonly apiUrl: string) {}

  static async start(): Promise<FakeTwilio> {
    let fake: FakeTwilio;
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => fake.answer(req.method ?? 'GET', req.url ?? '/', req.headers.authorization ?? '', body, res));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    fake = new FakeTwilio(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return fake;
  }

  private answer(method: string, url: string, auth: string, body: string, res: import('node:http').ServerResponse) {
    const json = (status: number, data: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(data));
    };
    if (auth !== `Basic ${Buffer.from(`${this.accountSid}:${this.authToken}`).toString('base64')}`) return json(401, { code: 20003, message: 'Authenticate', status: 401 });
    const base = `/2010-04-01/Accounts/${this.accountSid}/Calls`;
    const path = url.split('?')[0]!;
    if (method === 'POST' && path === `${base}.json`) {
      const failure = this.failures.shift();
      if (failure) {
        this.refused++;
        return json(failure, { code: 20500, message: 'An internal server error has occurred', status: failure });
      }
      const f = new URLSearchParams(body);
      const to = f.get('To') ?? '';
      if (!/^\+[1-9]\d{6,14}$/.test(to)) return json(400, { code: 21211, message: `The 'To' number ${to} is not a valid phone number.`, status: 400 });
      const call: FakeCall = { sid: `CA${randomBytes(16).toString('hex')}`, to, from: f.get('From') ?? '', twiml: f.get('Twiml') ?? '', statusCallback: f.get('StatusCallback'), status: 'queued' };
      this.calls.set(call.sid, call);
      return json(201, this.present(call));
    }
    const one = path.startsWith(`${base}/`) && path.endsWith('.json') ? this.calls.get(path.slice(base.length + 1, -5)) : undefined;
    if (method === 'GET' && one) return json(200, this.present(one));
    json(404, { code: 20404, message: 'The requested resource was not found', status: 404 });
  }

  private present(c: FakeCall) {
    return { sid: c.sid, account_sid: this.accountSid, to: c.to, from: c.from, status: c.status, direction: 'outbound-api', date_created: new Date().toUTCString() };
  }

  /** The next placed call is answered with `status` (e.g. 503) and not placed, as when Twilio is having trouble. */
  failNext(status: number) {
    this.failures.push(status);
  }

  /** A callback Twilio would send to `url` with `fields`, signed with the account's token (or another one). */
  signed(url: string, fields: Record<string, string>, wrongSecret = false) {
    const params = { AccountSid: this.accountSid, ApiVersion: '2010-04-01', ...fields };
    return { url, params, signature: twilio.getExpectedTwilioSignature(wrongSecret ? 'not-the-token' : this.authToken, url, params) };
  }

  /** The callee pressed `digit` during the call's `<Gather>`. */
  press(callId: string, url: string, digit: string, wrongSecret = false) {
    const call = this.calls.get(callId);
    if (call) call.status = 'in-progress';
    return this.signed(url, { CallSid: callId, CallStatus: 'in-progress', Digits: digit, From: call?.from ?? '', To: call?.to ?? '' }, wrongSecret);
  }

  close(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
}
