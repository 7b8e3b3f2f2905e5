import type * as Dns from 'node:dns';
import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import type * as Https from 'node:https';
import { isIP } from 'node:net';
import { DestinationRefusedError, RESPONSE_EXCERPT_BYTES, type TransportAnswer, type TransportRequest, type TransportResult, type WebhookTransport } from '@formloom/core';
import { AddressGuard } from './address-guard';

export { isPrivateAddress } from './address-guard';

export interface HttpWebhookTransportOptions {
  /** Allow loopback/private targets (FORMLOOM_WEBHOOK_ALLOW_PRIVATE=1). */
  allowPrivate?: boolean;
}

/** How long an idle connection to a receiver is kept (ms). */
const IDLE_MS = 4000;

/*
 * node:https (with TLS) and node:dns load at the first delivery, not at start: about 1 MB a server that
 * delivers nothing need not hold (docs/operations.md, "Memory"). CommonJS caches them after the first require.
 */
const loadHttps = () => require('node:https') as typeof Https;
const loadDns = () => require('node:dns') as typeof Dns;

type LookupCallback = (err: Error | null, address: string | LookupAddress[], family?: number) => void;

/**
 * Node HTTP(S) transport. The private-address guard runs in the socket's DNS lookup, so the address
 * checked is the address connected to (no window for DNS rebinding); redirects are never followed, so a
 * public receiver cannot bounce a delivery to an internal one (docs/security.md).
 *
 * Connections are kept alive per receiver (docs/decisions.md, "Webhook connections"): a reused connection
 * goes to the address its guarded lookup checked when it was opened, so reuse skips no check, and a
 * receiver taking hundreds of deliveries a second no longer costs a TCP (and TLS) handshake each.
 */
export function createHttpWebhookTransport(options: HttpWebhookTransportOptions = {}): WebhookTransport {
  const guard = new AddressGuard();
  const guardedLookup = (hostname: string, opts: object, cb: LookupCallback) => {
    loadDns().lookup(hostname, { ...opts, all: true }, (err, addresses) => {
      if (err) return cb(err, []);
      const list = addresses as LookupAddress[];
      if (!options.allowPrivate) {
        for (const a of list) {
          const why = guard.refusal(a.address);
          if (why) return cb(new DestinationRefusedError(`Refused: ${hostname} resolves to ${why}`), []);
        }
      }
      if ((opts as { all?: boolean }).all) return cb(null, list);
      return cb(null, list[0]!.address, list[0]!.family);
    });
  };
  // Idle connections close after IDLE_MS, under the 5 s most servers keep an idle connection open, so a
  // delivery rarely meets one the receiver is closing; the worker bounds deliveries per receiver itself.
  const agentOptions = { keepAlive: true, timeout: IDLE_MS, maxFreeSockets: 8, scheduling: 'lifo' as const, lookup: guardedLookup as never };
  // Each protocol's agent is made at its first delivery (the https one loads TLS).
  let httpAgent: http.Agent | undefined;
  let httpsAgent: Https.Agent | undefined;
  const agentFor = (target: URL): http.Agent =>
    target.protocol === 'https:' ? (httpsAgent ??= new (loadHttps().Agent)(agentOptions)) : (httpAgent ??= new http.Agent(agentOptions));
  /** One request; `limit` bytes of the answer are kept (the rest is read and dropped). */
  const send = (target: URL, method: string, body: string | Uint8Array | undefined, headers: Record<string, string>, timeoutMs: number, limit: number, fresh: boolean): Promise<TransportAnswer> =>
    new Promise((resolve, reject) => {
      const mod = target.protocol === 'https:' ? loadHttps() : http;
      const agent = fresh ? false : agentFor(target);
      const length = body === undefined ? null : typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
      const req = mod.request(
        target,
        { method, agent, headers: { ...headers, ...(length !== null ? { 'Content-Length': String(length) } : {}) }, lookup: guardedLookup as never, timeout: timeoutMs },
        (res) => {
          // The start of the answer; the rest is read and dropped.
          const head: Buffer[] = [];
          let kept = 0;
          res.on('data', (chunk: Buffer) => {
            if (kept >= limit) return;
            head.push(chunk.subarray(0, limit - kept));
            kept += Math.min(chunk.length, limit - kept);
          });
          res.on('end', () => {
            const answerHeaders: Record<string, string> = {};
            for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) answerHeaders[k] = Array.isArray(v) ? v.join(', ') : v;
            resolve({ status: res.statusCode ?? 0, headers: answerHeaders, body: Buffer.concat(head).toString('utf8') });
          });
          res.on('error', reject);
        },
      );
      req.setTimeout(timeoutMs, () => req.destroy(new Error(`Timed out after ${timeoutMs} ms`)));
      req.on('error', (err: NodeJS.ErrnoException) => {
        // A kept connection the receiver closed just as it was reused: nothing reached the receiver, so
        // the request is tried once more at once on a new connection (Node's documented pattern).
        if (!fresh && req.reusedSocket && err.code === 'ECONNRESET') return send(target, method, body, headers, timeoutMs, limit, true).then(resolve, reject);
        reject(err);
      });
      req.end(body);
    });
  /** The URL when it may be connected to at all (http or https, not a refused literal address). */
  const checked = (url: string): URL => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      throw new DestinationRefusedError('Refused: invalid webhook URL');
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') {
      throw new DestinationRefusedError(`Refused: ${target.protocol} URLs are not delivered to`);
    }
    const literal = target.hostname.replace(/^\[|\]$/g, '');
    if (!options.allowPrivate && isIP(literal)) {
      const why = guard.refusal(literal);
      if (why) throw new DestinationRefusedError(`Refused: ${why}`);
    }
    return target;
  };
  return {
    async post(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<TransportResult> {
      const answer = await send(checked(url), 'POST', body, headers, timeoutMs, RESPONSE_EXCERPT_BYTES, false);
      return { status: answer.status, body: answer.body };
    },
    /** Any method, for integrations (docs/integrations.md): the same guard, no redirects followed. */
    async request(req: TransportRequest): Promise<TransportAnswer> {
      return send(checked(req.url), req.method, req.body, req.headers, req.timeoutMs, req.maxBodyBytes, false);
    },
  };
}
