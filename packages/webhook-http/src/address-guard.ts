import { BlockList, isIP } from 'node:net';

/**
 * Which resolved addresses a webhook may connect to (docs/security.md). IPv4 and IPv6 rules live in two
 * lists: a rule such as `::ffff:0:0/96` in one shared list makes node's BlockList match every IPv4 address,
 * which once refused every public destination. IPv6 forms that carry an IPv4 address (mapped `::ffff:a.b.c.d`,
 * NAT64 `64:ff9b::a.b.c.d`) are judged as the IPv4 address they carry.
 */
const V4_BLOCKED: Array<[string, number]> = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // TEST-NET-1
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // TEST-NET-2
  ['203.0.113.0', 24], // TEST-NET-3
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and 255.255.255.255 broadcast
];

const V6_BLOCKED: Array<[string, number]> = [
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible ::a.b.c.d (e.g. ::7f00:1)
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard-only
  ['2001::', 32], // Teredo: carries an obfuscated IPv4 address
  ['2001:db8::', 32], // documentation
  ['2001:10::', 28], // ORCHID
  ['2002::', 16], // 6to4: carries an IPv4 address that a relay would reach
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated, still routed by some stacks)
  ['ff00::', 8], // multicast
];

/** The 16 bytes of an IPv6 address (already validated by `isIP`). */
function v6Bytes(address: string): number[] {
  let text = address.split('%')[0]!.toLowerCase();
  // A dotted IPv4 tail (`::ffff:10.0.0.1`) becomes its two hex groups.
  text = text.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_m, a, b, c, d) =>
    `${((+a << 8) | +b).toString(16)}:${((+c << 8) | +d).toString(16)}`);
  const [head, rest] = text.includes('::') ? (text.split('::') as [string, string]) : [text, null];
  const groups = (s: string | null) => (s ? s.split(':') : []);
  const h = groups(head);
  const r = groups(rest);
  const all = rest === null ? h : [...h, ...Array<string>(8 - h.length - r.length).fill('0'), ...r];
  return all.flatMap((g) => {
    const n = parseInt(g, 16);
    return [(n >> 8) & 0xff, n & 0xff];
  });
}

/** The IPv4 address an IPv6 address stands for (mapped or well-known NAT64), or `null`. */
export function embeddedIPv4(address: string): string | null {
  const b = v6Bytes(address);
  const zero = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  const mapped = zero(0, 10) && b[10] === 0xff && b[11] === 0xff;
  const nat64 = b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zero(4, 12);
  return mapped || nat64 ? b.slice(12).join('.') : null;
}

/** A reusable guard; build it once per transport. */
export class AddressGuard {
  private readonly v4 = new BlockList();
  private readonly v6 = new BlockList();
  constructor() {
    for (const [net, bits] of V4_BLOCKED) this.v4.addSubnet(net, bits, 'ipv4');
    for (const [net, bits] of V6_BLOCKED) this.v6.addSubnet(net, bits, 'ipv6');
  }

  /** Why `address` may not be connected to, or `null` when it is a public address. Not an IP: refused. */
  refusal(address: string): string | null {
    const family = isIP(address.split('%')[0]!);
    if (family === 4) return this.v4.check(address, 'ipv4') ? `${address} is not a public address` : null;
    if (family !== 6) return `${address} is not an IP address`;
    const v4 = embeddedIPv4(address);
    if (v4) return this.v4.check(v4, 'ipv4') ? `${address} maps to ${v4}, which is not a public address` : null;
    return this.v6.check(address.split('%')[0]!, 'ipv6') ? `${address} is not a public address` : null;
  }
}

/** Whether `address` is loopback, private, link-local, reserved or otherwise not a public address. */
export function isPrivateAddress(address: string, guard = new AddressGuard()): boolean {
  return guard.refusal(address) !== null;
}
