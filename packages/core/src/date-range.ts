import { badRequest } from './errors';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * An inclusive bound: a date covers its whole UTC day; a date-time is taken as is. An empty value (`?until=`)
 * is a bad value, as in analytics: leaving the parameter out is how a range stays open.
 */
function bound(v: unknown, field: string, end: boolean): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw badRequest(`${field}: must be an ISO 8601 date or date-time`, { field });
  const d = new Date(DATE.test(v) ? `${v}T${end ? '23:59:59.999' : '00:00:00.000'}Z` : v);
  if (!DATE_TIME.test(v) || Number.isNaN(d.getTime()) || (DATE.test(v) && !d.toISOString().startsWith(v))) {
    throw badRequest(`${field}: must be an ISO 8601 date or date-time`, { field });
  }
  return d.toISOString();
}

/** `since`/`until` query parameters as inclusive ISO bounds; 400 for a bad value or an empty range. */
export function inclusiveRange(query: { since?: unknown; until?: unknown }) {
  const since = bound(query.since, 'since', false);
  const until = bound(query.until, 'until', true);
  if (since && until && since > until) throw badRequest('since: must not be after until', { field: 'since' });
  return { since, until };
}

export const isDate = (v: unknown): v is string => typeof v === 'string' && DATE.test(v);
