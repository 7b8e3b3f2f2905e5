/** Page parameters after the clamps each list endpoint documents (OpenAPI `page`/`per_page`). */
const MAX_PAGE = 1_000_000;

export interface Paging {
  page: number;
  per_page: number;
  offset: number;
}

function toInt(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return Math.trunc(v);
  if (typeof v !== 'string' || !/^\s*-?\d+\s*$/.test(v)) return null;
  return Number.parseInt(v, 10);
}

/**
 * `page` is 1-based (non-numeric, zero or negative become 1); `per_page` is clamped to 1..max, and a
 * non-numeric one becomes the endpoint's default.
 */
export function paging(query: { page?: unknown; per_page?: unknown }, defaultPerPage = 20, max = 100): Paging {
  const p = toInt(query.page);
  // Pages past any real collection are empty anyway; the cap keeps offsets within what databases accept.
  const page = p === null || p < 1 ? 1 : Math.min(p, MAX_PAGE);
  const pp = toInt(query.per_page);
  const per_page = pp === null ? defaultPerPage : Math.min(max, Math.max(1, pp));
  return { page, per_page, offset: (page - 1) * per_page };
}

/** A boolean query parameter: `true`/`false` (also 1/0); absent is undefined; anything else is an error message. */
export function queryBoolean(v: unknown): boolean | undefined | Error {
  if (v === undefined || v === '') return undefined;
  if (v === true || v === 'true' || v === '1') return true;
  if (v === false || v === 'false' || v === '0') return false;
  return new Error('must be true or false');
}
