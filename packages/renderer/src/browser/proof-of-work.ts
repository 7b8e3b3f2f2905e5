/*
 * The page's side of `spam_protection.proof_of_work` (docs/respondents.md "Spam protection"): an ALTCHA
 * challenge (SHA-256, cost 1) solved while the respondent reads the first question. The key of counter n is
 * SHA-256(salt ‖ nonce ‖ n as 4 big-endian bytes); the answer is the n whose key starts with the signed
 * prefix. The hashes run here in plain JavaScript (one 64-byte block each, no allocation): WebCrypto's
 * digest is asynchronous per call, which makes tens of thousands of small hashes far slower on a phone.
 */

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
  0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** SHA-256 of a message of at most 55 bytes, whose padded block `w[0..15]` the caller filled; the digest goes to `out`. */
function compress(w: Uint32Array, out: Uint32Array): void {
  for (let i = 16; i < 64; i++) {
    const x = w[i - 15]!;
    const y = w[i - 2]!;
    w[i] = (w[i - 16]! + (((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3)) + w[i - 7]! + (((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10))) | 0;
  }
  // Local variables only: no array is made per hash (tens of thousands of them on a phone).
  let a = 0x6a09e667 | 0;
  let b = 0xbb67ae85 | 0;
  let c = 0x3c6ef372 | 0;
  let d = 0xa54ff53a | 0;
  let e = 0x510e527f | 0;
  let f = 0x9b05688c | 0;
  let g = 0x1f83d9ab | 0;
  let h = 0x5be0cd19 | 0;
  for (let i = 0; i < 64; i++) {
    const t1 = (h + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0;
    const t2 = ((((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  out[0] = (a + 0x6a09e667) | 0;
  out[1] = (b + 0xbb67ae85) | 0;
  out[2] = (c + 0x3c6ef372) | 0;
  out[3] = (d + 0xa54ff53a) | 0;
  out[4] = (e + 0x510e527f) | 0;
  out[5] = (f + 0x9b05688c) | 0;
  out[6] = (g + 0x1f83d9ab) | 0;
  out[7] = (h + 0x5be0cd19) | 0;
}

/** A turn of the event loop without setTimeout's 4 ms clamp on nested calls. */
function yieldToPage(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

const bytes = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (x) => parseInt(x, 16));
const hex = (words: Uint32Array) => [...words].map((x) => (x >>> 0).toString(16).padStart(8, '0')).join('');

export interface AltchaChallenge {
  parameters: { algorithm: string; nonce: string; salt: string; cost: number; keyLength: number; keyPrefix: string; expiresAt?: number };
  signature: string;
}

/** SHA-256(salt ‖ nonce ‖ counter) for every counter from 0, in slices that leave the page responsive. */
export async function solve(challenge: AltchaChallenge, maxCounter = 2_000_000): Promise<{ counter: number; derivedKey: string }> {
  const p = challenge.parameters;
  if (p.algorithm !== 'SHA-256' || p.cost !== 1) throw new Error('unsupported challenge');
  const prefix = bytes(p.salt + p.nonce);
  const len = prefix.length + 4;
  if (len > 55) throw new Error('unsupported challenge');
  const block = new Uint8Array(64);
  block.set(prefix);
  block[len] = 0x80;
  new DataView(block.buffer).setUint32(60, len * 8);
  const w = new Uint32Array(64);
  const view = new DataView(block.buffer);
  for (let i = 0; i < 16; i++) w[i] = view.getUint32(i * 4);
  // The counter's 4 bytes start at `prefix.length`: the words they touch are rewritten for each try.
  const first = prefix.length >> 2;
  const want = p.keyPrefix.toLowerCase();
  const wantFirst = parseInt(want.slice(0, 8).padEnd(8, '0'), 16) >>> 0;
  const mask = want.length >= 8 ? 0xffffffff : (0xffffffff << (32 - want.length * 4)) >>> 0;
  const out = new Uint32Array(8);
  let deadline = performance.now() + 8;
  for (let n = 0; n <= maxCounter; n++) {
    view.setUint32(prefix.length, n);
    w[first] = view.getUint32(first * 4);
    w[first + 1] = view.getUint32((first + 1) * 4);
    compress(w, out);
    if (((out[0]! >>> 0) & mask) === (wantFirst & mask)) {
      const key = hex(out).slice(0, (p.keyLength || 32) * 2);
      if (key.startsWith(want)) return { counter: n, derivedKey: key };
    }
    if ((n & 1023) === 0 && performance.now() > deadline) {
      // Let the page breathe (typing, animations) between slices of about 8 ms.
      await yieldToPage();
      deadline = performance.now() + 8;
    }
  }
  throw new Error('challenge not solved');
}

/** What `spam_check.proof` carries: the challenge and its solution, as base64 JSON (ALTCHA's payload). */
export const proofPayload = (challenge: AltchaChallenge, solution: { counter: number; derivedKey: string }) =>
  btoa(JSON.stringify({ challenge, solution }));
