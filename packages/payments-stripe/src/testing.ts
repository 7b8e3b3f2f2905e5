import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import type { ConformanceEvent, SignedProcessorEvent } from '@formloom/core/testing';

/*
 * A local server speaking the Stripe API calls Formloom makes (docs/payments.md, "Testing"), so the real SDK
 * is exercised over HTTP with its documented host/port/protocol options, and events signed the way Stripe signs
 * them (`stripe.webhooks.generateTestHeaderString`). Only the fields Formloom reads are modelled. Not for
 * production: it keeps everything in memory and authenticates nothing but the key's presence.
 */

type Obj = Record<string, any>;

/** `a[b][0][c]=v` form fields (how the SDK encodes bodies) as nested objects; numeric keys stay object keys. */
function parseForm(body: string): Obj {
  const out: Obj = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.replace(/\]/g, '').split('[');
    let at = out;
    for (const p of path.slice(0, -1)) at = at[p] ??= {};
    at[path[path.length - 1]!] = value;
  }
  return out;
}

const listOf = (v: unknown): Obj[] => (v && typeof v === 'object' ? Object.values(v as Obj) : []);

export interface FakeStripeRequest {
  method: string;
  path: string;
  idempotencyKey: string | null;
  body: Obj;
}

export class FakeStripe {
  readonly secretKey = 'sk_test_formloom_fake';
  readonly publishableKey = 'pk_test_formloom_fake';
  readonly webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  readonly requests: FakeStripeRequest[] = [];
  readonly paymentIntents = new Map<string, Obj>();
  readonly charges = new Map<string, Obj>();
  readonly sessions = new Map<string, Obj>();
  readonly accounts = new Map<string, Obj>();
  /** Answers kept by idempotency key, replayed for a repeated key as Stripe does. */
  private readonly replies = new Map<string, { status: number; body: Obj }>();
  private readonly signer = new Stripe('sk_test_signer');
  private seq = 0;
  private constructor(private readonly server: Server) {}

  static async start(): Promise<FakeStripe> {
    const server = createServer();
    const fake = new FakeStripe(server);
    server.on('request', (req, res) => fake.handle(req, res));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return fake;
  }

  /** What to give `createStripeProcessor({apiUrl})` or `FORMLOOM_STRIPE_API_URL`. */
  get apiUrl() {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close() {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }

  private id(prefix: string) {
    return `${prefix}_${(++this.seq).toString(36)}${randomBytes(6).toString('hex')}`;
  }

  /** The respondent paid (what Stripe.js's confirmPayment leads to): the PaymentIntent succeeds with a charge. */
  succeed(paymentIntentId: string): Obj {
    const pi = this.paymentIntents.get(paymentIntentId);
    if (!pi) throw new Error(`no PaymentIntent ${paymentIntentId}`);
    const charge = { id: this.id('ch'), object: 'charge', amount: pi.amount, amount_refunded: 0, refunded: false, currency: pi.currency, payment_intent: pi.id };
    this.charges.set(charge.id, charge);
    Object.assign(pi, { status: 'succeeded', latest_charge: charge.id });
    return pi;
  }

  /** The buyer paid on the Checkout page. */
  completeCheckout(sessionId: string): Obj {
    const s = this.sessions.get(sessionId);
    if (!s) throw new Error(`no Checkout Session ${sessionId}`);
    Object.assign(s, { status: 'complete', payment_status: 'paid' });
    return s;
  }

  /** The owner finished onboarding. */
  enableAccount(accountId: string): Obj {
    const a = this.accounts.get(accountId)!;
    Object.assign(a, { charges_enabled: true, details_submitted: true });
    return a;
  }

  /** An event as Stripe delivers it: its id, raw body and `Stripe-Signature` header (signed with `secret`). */
  event(type: string, object: Obj, secret = this.webhookSecret): { id: string; body: Buffer; signature: string } {
    const id = this.id('evt');
    const payload = JSON.stringify({ id, object: 'event', api_version: Stripe.API_VERSION, created: Math.floor(Date.now() / 1000), type, livemode: false, data: { object } });
    return { id, body: Buffer.from(payload), signature: this.signer.webhooks.generateTestHeaderString({ payload, secret }) };
  }

  /** The event the payments conformance suite asks for, built from this server's state. */
  conformanceEvent(what: ConformanceEvent, wrongSecret = false): SignedProcessorEvent {
    const secret = wrongSecret ? `whsec_${randomBytes(16).toString('hex')}` : this.webhookSecret;
    switch (what.type) {
      case 'payment_succeeded':
        return this.event('payment_intent.succeeded', this.paymentIntents.get(what.payment_id)!, secret);
      case 'payment_failed':
        return this.event('payment_intent.payment_failed', { ...this.paymentIntents.get(what.payment_id)!, status: 'requires_payment_method' }, secret);
      case 'refunded': {
        const pi = this.paymentIntents.get(what.payment_id)!;
        return this.event('charge.refunded', this.charges.get(pi.latest_charge)!, secret);
      }
      case 'checkout_completed':
        return this.event('checkout.session.completed', this.sessions.get(what.session_id)!, secret);
      case 'account_updated':
        return this.event('account.updated', this.accounts.get(what.account_id)!, secret);
      default:
        return this.event('customer.created', { id: this.id('cus'), object: 'customer' }, secret);
    }
  }

  private handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const body = req.method === 'GET' ? parseForm(url.search.slice(1)) : parseForm(Buffer.concat(chunks).toString('utf8'));
      const key = (req.headers['idempotency-key'] as string | undefined) ?? null;
      this.requests.push({ method: req.method ?? '', path: url.pathname, idempotencyKey: key, body });
      const send = (status: number, out: Obj) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${this.seq}` });
        res.end(JSON.stringify(out));
      };
      if (!String(req.headers.authorization ?? '').startsWith('Bearer sk_')) return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
      const replayKey = key && req.method === 'POST' ? `${url.pathname} ${key}` : null;
      const kept = replayKey ? this.replies.get(replayKey) : undefined;
      if (kept) return send(kept.status, kept.body);
      const [status, out] = this.route(req.method ?? '', url.pathname, body);
      if (replayKey) this.replies.set(replayKey, { status, body: out });
      send(status, out);
    });
  }

  private notFound(what: string, id: string): [number, Obj] {
    return [404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}: '${id}'` } }];
  }

  private withCharge(pi: Obj, expand: unknown): Obj {
    const wanted = (listOf(expand) as unknown[]).includes('latest_charge');
    return wanted && pi.latest_charge ? { ...pi, latest_charge: this.charges.get(pi.latest_charge) } : pi;
  }

  private route(method: string, path: string, b: Obj): [number, Obj] {
    let m: RegExpExecArray | null;
    if (method === 'POST' && path === '/v1/payment_intents') {
      const amount = Number(b.amount);
      if (!Number.isInteger(amount) || amount < 1) return [400, { error: { type: 'invalid_request_error', param: 'amount', message: 'Invalid positive integer' } }];
      const id = this.id('pi');
      const pi = {
        id, object: 'payment_intent', amount, currency: b.currency, status: 'requires_payment_method', client_secret: `${id}_secret_${randomBytes(8).toString('hex')}`,
        metadata: b.metadata ?? {}, description: b.description ?? null, latest_charge: null,
        transfer_data: b.transfer_data?.destination ? { destination: b.transfer_data.destination } : null,
      };
      this.paymentIntents.set(id, pi);
      return [200, pi];
    }
    if (method === 'GET' && (m = /^\/v1\/payment_intents\/([^/]+)$/.exec(path))) {
      const pi = this.paymentIntents.get(m[1]!);
      return pi ? [200, this.withCharge(pi, b.expand)] : this.notFound('payment_intent', m[1]!);
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const pi = this.paymentIntents.get(b.payment_intent);
      if (!pi) return this.notFound('payment_intent', b.payment_intent);
      const charge = pi.latest_charge ? this.charges.get(pi.latest_charge) : null;
      if (!charge) return [400, { error: { type: 'invalid_request_error', code: 'charge_not_refundable', message: 'This PaymentIntent does not have a successful charge to refund.' } }];
      const left = charge.amount - charge.amount_refunded;
      const amount = b.amount === undefined ? left : Number(b.amount);
      if (amount > left || amount < 1) return [400, { error: { type: 'invalid_request_error', code: 'amount_too_large', message: `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})` } }];
      charge.amount_refunded += amount;
      charge.refunded = charge.amount_refunded === charge.amount;
      return [200, { id: this.id('re'), object: 'refund', amount, charge: charge.id, payment_intent: pi.id, status: 'succeeded', reverse_transfer: b.reverse_transfer === 'true' }];
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const id = this.id('cs_test');
      const items = listOf(b.line_items);
      const total = items.reduce((s, i) => s + Number(i.price_data?.unit_amount ?? 0) * Number(i.quantity ?? 1), 0);
      const s = {
        id, object: 'checkout.session', mode: b.mode, status: 'open', payment_status: 'unpaid', amount_total: total, currency: items[0]?.price_data?.currency ?? null,
        metadata: b.metadata ?? {}, success_url: b.success_url, cancel_url: b.cancel_url, customer_email: b.customer_email ?? null, url: `https://checkout.stripe.com/c/pay/${id}`,
      };
      this.sessions.set(id, s);
      return [200, s];
    }
    if (method === 'POST' && path === '/v1/accounts') {
      const id = this.id('acct');
      const a = { id, object: 'account', type: b.type, email: b.email ?? null, charges_enabled: false, details_submitted: false };
      this.accounts.set(id, a);
      return [200, a];
    }
    if (method === 'GET' && (m = /^\/v1\/accounts\/([^/]+)$/.exec(path))) {
      const a = this.accounts.get(m[1]!);
      return a ? [200, a] : this.notFound('account', m[1]!);
    }
    if (method === 'POST' && path === '/v1/account_links') {
      if (!this.accounts.has(b.account)) return this.notFound('account', b.account);
      return [200, { object: 'account_link', url: `https://connect.stripe.com/setup/e/${b.account}/${randomBytes(6).toString('hex')}`, created: 0, expires_at: 0 }];
    }
    return [404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path})` } }];
  }
}

/**
 * A stand-in of the Stripe.js calls the respondent's page makes (`Stripe()`, `elements()`,
 * `create('payment').mount()`, `confirmPayment()`), for browser tests that stub only the network boundary: serve it
 * for `https://js.stripe.com/**`; its confirmation posts to `https://api.stripe.com/v1/payment_intents/<id>/confirm`,
 * which the test answers with `FakeStripe.succeed(id)`. It draws a plain "Card number" field where the Payment
 * Element's frame would be, and refuses a shadow root as Stripe.js does.
 */
export const STRIPE_JS_STAND_IN = `(function () {
  function Stripe(key) {
    return {
      _registerWrapper: function () {},
      elements: function (opts) {
        return {
          _secret: opts.clientSecret,
          create: function () {
            return { mount: function (el) {
              // As Stripe.js does: its frames must be reachable from the light DOM.
              if (el.getRootNode() instanceof ShadowRoot) throw new Error('Elements cannot be mounted in a ShadowRoot. Please mount in the Light DOM.');
              var label = document.createElement('label');
              label.textContent = 'Card number ';
              var input = document.createElement('input');
              input.setAttribute('autocomplete', 'cc-number');
              input.setAttribute('inputmode', 'numeric');
              label.appendChild(input);
              el.appendChild(label);
            } };
          },
        };
      },
      confirmPayment: function (o) {
        var secret = o.elements._secret;
        return fetch('https://api.stripe.com/v1/payment_intents/' + secret.split('_secret_')[0] + '/confirm', { method: 'POST', body: 'client_secret=' + encodeURIComponent(secret) })
          .then(function (r) { return r.json(); })
          .then(function (pi) { return pi.error ? { error: pi.error } : { paymentIntent: pi }; });
      },
    };
  }
  Stripe.version = 'endive';
  window.Stripe = Stripe;
})();`;
