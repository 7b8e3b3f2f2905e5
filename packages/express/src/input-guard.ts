import { FormloomError } from '@formloom/core';

/**
 * How deeply objects and arrays may nest in a JSON body (docs/security.md, "Input limits"). The
 * deepest legitimate documents (logic jumps with nested conditions) stay well below it; past it, code
 * that walks values recursively (zod, JSON.stringify, the database drivers) could overflow the stack.
 */
export const MAX_JSON_DEPTH = 32;

/** The longest `field` path reported back, so that an error never echoes a huge key. */
const MAX_PATH_CHARS = 200;

interface Frame {
  value: unknown;
  key: string | null;
  parent: Frame | null;
  /** Containers from the root down to this value's parent. */
  depth: number;
}

function pathOf(frame: Frame, extra?: string): string {
  const keys: string[] = extra === undefined ? [] : [extra];
  for (let f: Frame | null = frame; f && f.key !== null; f = f.parent) keys.push(f.key);
  const path = keys.reverse().join('.');
  return path.length > MAX_PATH_CHARS ? `${path.slice(0, MAX_PATH_CHARS)}…` : path;
}

type Finding = { problem: 'nul' | 'depth'; path: string };

/**
 * One walk over a parsed value, with an explicit stack (never recursion, so no input can overflow it):
 * the first NUL character (PostgreSQL cannot store it in text) or nesting past `maxDepth`, in document order.
 */
export function inspectValue(value: unknown, maxDepth = MAX_JSON_DEPTH): Finding | null {
  const stack: Frame[] = [{ value, key: null, parent: null, depth: 0 }];
  while (stack.length) {
    const frame = stack.pop()!;
    const v = frame.value;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return { problem: 'nul', path: pathOf(frame) };
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    const depth = frame.depth + 1;
    if (depth > maxDepth) return { problem: 'depth', path: pathOf(frame) };
    const keys = Object.keys(v);
    for (const k of keys) if (k.includes('\u0000')) return { problem: 'nul', path: pathOf(frame, k) };
    for (let i = keys.length - 1; i >= 0; i--) {
      stack.push({ value: (v as Record<string, unknown>)[keys[i]!], key: keys[i]!, parent: frame, depth });
    }
  }
  return null;
}

function refuse(finding: Finding, where: string): FormloomError {
  const field = finding.path || where;
  return finding.problem === 'nul'
    ? new FormloomError('BAD_REQUEST', `${field}: must not contain NUL characters`, { field })
    : new FormloomError('BAD_REQUEST', `${field}: nested deeper than ${MAX_JSON_DEPTH} levels`, { field });
}

/**
 * Whether `value` is an object of strings without NUL, keys included: path parameters and most queries,
 * told apart without the walk's allocations (this runs on every request).
 */
function isFlatAndClean(value: object): boolean {
  for (const key in value) {
    const v = (value as Record<string, unknown>)[key];
    if (typeof v !== 'string' || v.includes('\u0000') || key.includes('\u0000')) return false;
  }
  return true;
}

/** Rejects NUL characters anywhere in path parameters, query or body with a 400 naming the field. */
export function assertNoNulCharacters(parts: Record<string, unknown>) {
  for (const where in parts) {
    const value = parts[where];
    if (typeof value === 'object' && value !== null && isFlatAndClean(value)) continue;
    const finding = inspectValue(value);
    if (finding) throw refuse(finding, where);
  }
}

/**
 * Runs right after JSON parsing, before any route code or schema sees the body: too deep a body or a
 * NUL character anywhere in it is a 400 naming the field (dotted path).
 */
export function assertBodyWithinLimits(body: unknown) {
  const finding = inspectValue(body);
  if (finding) throw refuse(finding, 'body');
}
