import type { AuditEntry } from '../../data/signing';

/*
 * The audit trail's hash chain, checked in the browser from the API's answer alone, exactly as the script of
 * docs/signing.md ("The audit chain's canonical form") does: the workspace vouches for what it shows rather
 * than repeating a verdict of the server (docs/decisions.md, "Signing screens").
 */

export type ChainCheck =
  | { state: 'intact'; count: number; head: string | null }
  | { state: 'broken'; entry: number; action: string; problems: string[] }
  | { state: 'unavailable'; reason: string };

/** JSON without whitespace, the keys of every object sorted by UTF-16 code units. */
export function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const o = value as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
    .join(',')}}`;
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Recomputes every entry's hash and link; names the first entry that does not hold. */
export async function checkChain(entries: readonly AuditEntry[]): Promise<ChainCheck> {
  // WebCrypto exists only in secure contexts (https, localhost): on plain http the check cannot run here.
  if (!globalThis.crypto?.subtle) return { state: 'unavailable', reason: 'This browser can check the chain only over https (or on localhost).' };
  let previous: string | null = null;
  for (const [i, entry] of entries.entries()) {
    const { hash, ...fields } = entry;
    const recomputed = await sha256Hex(canonical(fields) + (fields.prev_hash ?? ''));
    const problems: string[] = [];
    if (fields.seq !== i + 1) problems.push(`its sequence number is ${fields.seq}, expected ${i + 1}`);
    if (fields.prev_hash !== previous) problems.push("it does not link to the previous entry's hash");
    if (hash !== recomputed) problems.push('its fields do not hash to its recorded hash (it was changed after it was written)');
    if (problems.length) return { state: 'broken', entry: i + 1, action: fields.action, problems };
    previous = hash;
  }
  return { state: 'intact', count: entries.length, head: previous };
}
