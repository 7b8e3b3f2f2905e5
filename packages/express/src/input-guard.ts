import { FormloomError } from '@formloom/core';

/** Depth-first search for a string with a NUL character, which PostgreSQL cannot store in text. */
function findNul(v: unknown, path: string, depth = 0): string | null {
  if (typeof v === 'string') return v.includes('\u0000') ? path : null;
  if (depth > 64 || v === null || typeof v !== 'object') return null;
  for (const [k, child] of Object.entries(v as Record<string, unknown>)) {
    if (k.includes('\u0000')) return path ? `${path}.${k}` : k;
    const hit = findNul(child, path ? `${path}.${k}` : k, depth + 1);
    if (hit !== null) return hit;
  }
  return null;
}

/** Rejects NUL characters anywhere in path parameters, query or body with a 400 naming the field. */
export function assertNoNulCharacters(parts: { params: unknown; query: unknown; body: unknown }) {
  for (const [where, value] of Object.entries(parts)) {
    const hit = findNul(value, '');
    if (hit !== null) {
      throw new FormloomError('BAD_REQUEST', `${hit || where}: must not contain NUL characters`, { field: hit || where });
    }
  }
}
