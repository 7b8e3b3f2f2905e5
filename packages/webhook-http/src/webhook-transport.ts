import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { DestinationRefusedError, RESPONSE_EXCERPT_BYTES, type TransportResult, type WebhookTransport } from '@formloom/core';
import { AddressGuard } from './address-guard';

export { isPrivateAddress } from './address-guard';

export interface HttpWebhookTransportOptions {
  /** Allow loopback/private targets (FORMLOOM_WEBHOOK_ALLOW_PRIVATE=1). */
  allowPrivate?: boolean;
}

/** How long an idle connection to a receiver is kept (ms). */
const IDLE_MS = 4000;

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
    dnsLookup(hostname, { ...opts, all: true }, (err, addresses) => {
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
  const agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };
  const send = (target: URL, body: string, headers: Record<string, string>, timeoutMs: number, fresh: boolean): Promise<TransportResult> =>
    new Promise((resolve, reject) => {
      const mod = target.protocol === 'https:' ? https : http;
      const agent = fresh ? false : target.protocol === 'https:' ? agents.https : agents.http;
      const req = mod.request(
        target,
        { method: 'POST', agent, headers: { ...headers, 'Content-Length': Buffer.byteLength(body).toString() }, lookup: guardedLookup as never, timeout: timeoutMs },
        (res) => {
          // The start of the answer, for the delivery log; the rest is read and dropped.
          const head: Buffer[] = [];
          let kept = 0;
          res.on('data', (chunk: Buffer) => {
            if (kept >= RESPONSE_EXCERPT_BYTES) return;
            head.push(chunk.subarray(0, RESPONSE_EXCERPT_BYTES - kept));
            kept += Math.min(chunk.length, RESPONSE_EXCERPT_BYTES - kept);
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(head).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.setTimeout(timeoutMs, () => req.destroy(new Error(`Timed out after ${timeoutMs} ms`)));
      req.on('error', (err: NodeJS.ErrnoException) => {
        // A kept connection the receiver closed just as it was reused: nothing reached the receiver, so
        // the delivery is tried once more at once on a new connection (Node's documented pattern).
        if (!fresh && req.reusedSocket && err.code === 'ECONNRESET') return send(target, body, headers, timeoutMs, true).then(resolve, reject);
        reject(err);
      });
      req.end(body);
    });
  return {
    post(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<TransportResult> {
      return new Promise((resolve, reject) => {
        let target: URL;
        try {
          target = new URL(url);
        } catch {
          return reject(new DestinationRefusedError('Refused: invalid webhook URL'));
        }
        if (target.protocol !== 'http:' && target.protocol !== 'https:') {
          return reject(new DestinationRefusedError(`Refused: ${target.protocol} URLs are not delivered to`));
        }
        const literal = target.hostname.replace(/^\[|\]$/g, '');
        if (!options.allowPrivate && isIP(literal)) {
          const why = guard.refusal(literal);
          if (why) return reject(new DestinationRefusedError(`Refused: ${why}`));
        }
        send(target, body, headers, timeoutMs, false).then(resolve, reject);
      });
    },
  };
}
