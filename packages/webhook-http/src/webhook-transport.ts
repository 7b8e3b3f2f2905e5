import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';
import type { TransportResult, WebhookTransport } from '@formloom/core';

/** Loopback, private, link-local, CGNAT, metadata and other non-public ranges. */
function privateRanges(): BlockList {
  const b = new BlockList();
  for (const [net, bits] of [
    ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
    ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
  ] as const) b.addSubnet(net, bits, 'ipv4');
  for (const [net, bits] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['::ffff:0:0', 96], ['64:ff9b::', 96]] as const) {
    b.addSubnet(net, bits, 'ipv6');
  }
  return b;
}

export function isPrivateAddress(address: string, blocked = privateRanges()): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

export interface HttpWebhookTransportOptions {
  /** Allow loopback/private targets (FORMLOOM_WEBHOOK_ALLOW_PRIVATE=1). */
  allowPrivate?: boolean;
}

/**
 * Node HTTP(S) transport. The private-address guard runs in the socket's DNS lookup, so the address
 * checked is the address connected to (no window for DNS rebinding). Redirects are not followed.
 */
export function createHttpWebhookTransport(options: HttpWebhookTransportOptions = {}): WebhookTransport {
  const blocked = privateRanges();
  const guardedLookup = (hostname: string, opts: object, cb: (err: Error | null, address: string | LookupAddress[], family?: number) => void) => {
    dnsLookup(hostname, { ...opts, all: true }, (err, addresses) => {
      if (err) return cb(err, []);
      const list = addresses as LookupAddress[];
      if (!options.allowPrivate) {
        const bad = list.find((a) => isPrivateAddress(a.address, blocked));
        if (bad) return cb(new Error(`Refused: ${hostname} resolves to a private address (${bad.address})`), []);
      }
      if ((opts as { all?: boolean }).all) return cb(null, list);
      return cb(null, list[0]!.address, list[0]!.family);
    });
  };
  return {
    post(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<TransportResult> {
      return new Promise((resolve, reject) => {
        let target: URL;
        try {
          target = new URL(url);
        } catch {
          return reject(new Error('Invalid webhook URL'));
        }
        const literal = target.hostname.replace(/^\[|\]$/g, '');
        if (!options.allowPrivate && isIP(literal) && isPrivateAddress(literal, blocked)) {
          return reject(new Error(`Refused: ${literal} is a private address`));
        }
        const mod = target.protocol === 'https:' ? https : http;
        const req = mod.request(
          target,
          { method: 'POST', headers: { ...headers, 'Content-Length': Buffer.byteLength(body).toString() }, lookup: guardedLookup as never, timeout: timeoutMs },
          (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
            res.on('error', reject);
          },
        );
        req.setTimeout(timeoutMs, () => req.destroy(new Error(`Timed out after ${timeoutMs} ms`)));
        req.on('error', reject);
        req.end(body);
      });
    },
  };
}
