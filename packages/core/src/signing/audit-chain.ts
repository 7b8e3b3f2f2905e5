import { sha256Hex } from '../hashing';
import type { SigningAuditEntry } from '../domain/signing';
import type { AuditEntryBuilder } from '../ports/storage/signing';

/** JSON with object keys sorted at every level: the same entry always hashes the same (docs/signing.md). */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** `hash` = SHA-256 hex over the canonical JSON of the entry (without `hash`) followed by `prev_hash`. */
export function auditEntryHash(entry: Omit<SigningAuditEntry, 'hash'>): string {
  const { hash: _hash, ...body } = entry as SigningAuditEntry;
  return sha256Hex(canonicalJson(body) + (entry.prev_hash ?? ''));
}

export type AuditFacts = Omit<SigningAuditEntry, 'seq' | 'prev_hash' | 'hash'>;

/** A builder for `SigningRepository.appendAudit`: links `facts` to the chain's head and hashes it. */
export const chainedEntry = (facts: AuditFacts): AuditEntryBuilder => (head) => {
  const entry = { ...facts, seq: head ? head.seq + 1 : 1, prev_hash: head ? head.hash : null };
  return { ...entry, hash: auditEntryHash(entry) };
};

/** Whether every entry links to the one before and hashes to its `hash`; the index of the first break. */
export function checkAuditChain(entries: readonly SigningAuditEntry[]): { ok: boolean; broken_at: number | null } {
  let prev: string | null = null;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    if (e.seq !== i + 1 || e.prev_hash !== prev || auditEntryHash(e) !== e.hash) return { ok: false, broken_at: i };
    prev = e.hash;
  }
  return { ok: true, broken_at: null };
}
