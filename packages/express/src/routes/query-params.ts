import type { QueryParam } from '../route-table';

/**
 * `since` and `until` of the lists that filter by time: an ISO 8601 date-time, or a date that covers its
 * whole UTC day (core's date-range.ts reads both).
 */
const bound = (name: 'since' | 'until'): QueryParam => ({
  name,
  description: `ISO 8601 date-time, or a date (YYYY-MM-DD: ${name === 'since' ? 'from the start' : 'to the end'} of that UTC day); inclusive`,
  schema: { type: 'string', anyOf: [{ format: 'date-time' }, { format: 'date' }] },
});

export const TIME_RANGE_PARAMS: QueryParam[] = [bound('since'), bound('until')];
