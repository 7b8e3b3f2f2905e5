import type { ResponseFilter } from '../../data/results';
import { EMPTY_FILTER, isComplete, type FilterCondition, type FilterState } from './filter-bar';

/*
 * The results' filters in the page's URL (docs/workspace.md, "Results"): the same parameters the API reads
 * (`since`, `until`, `completed`, `version`, `filter` as JSON), so a filtered view can be bookmarked, shared
 * with a teammate, reloaded, and its address says what the exports hold. Other parameters of the URL are
 * kept as they are (a host page's own).
 */

const KEYS = ['since', 'until', 'completed', 'version', 'language', 'filter', 'view'] as const;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The filters of a query string; anything malformed is left out (the screen opens unfiltered rather than broken). */
export function readFilterState(search: string): { state: FilterState; view: string | null } {
  const q = new URLSearchParams(search);
  const state: FilterState = { ...EMPTY_FILTER, conditions: [] };
  const since = q.get('since');
  const until = q.get('until');
  if (since && DATE.test(since)) state.since = since;
  if (until && DATE.test(until)) state.until = until;
  const completed = q.get('completed');
  if (completed === 'true' || completed === 'false') state.completed = completed;
  const version = q.get('version');
  if (version && /^\d{1,9}$/.test(version)) state.version = version;
  const language = q.get('language');
  if (language && /^[a-z]{2,3}(?:-[A-Za-z0-9]{1,8}){0,3}$/.test(language)) state.language = language;
  const raw = q.get('filter');
  if (raw) {
    try {
      const body = JSON.parse(raw) as { match?: unknown; conditions?: unknown };
      if (body.match === 'any') state.match = 'any';
      if (Array.isArray(body.conditions)) {
        state.conditions = body.conditions.filter(
          (c): c is FilterCondition => !!c && typeof c === 'object' && typeof (c as FilterCondition).question_id === 'string' && typeof (c as FilterCondition).op === 'string',
        );
      }
    } catch {
      // Not JSON: no conditions.
    }
  }
  return { state, view: q.get('view') };
}

/** The JSON of the complete conditions, or undefined when there are none. */
export function filterParam(state: FilterState): string | undefined {
  const conditions = state.conditions.filter(isComplete).map((c) => ({ question_id: c.question_id, op: c.op, ...(c.value === undefined ? {} : { value: c.value }) }));
  return conditions.length ? JSON.stringify({ match: state.match, conditions }) : undefined;
}

/** What the API is asked: the state's applied filters. */
export function apiFilter(state: FilterState): ResponseFilter {
  const out: ResponseFilter = {};
  if (state.since) out.since = state.since;
  if (state.until) out.until = state.until;
  if (state.completed) out.completed = state.completed === 'true';
  if (state.version) out.version = Number(state.version);
  if (state.language) out.language = state.language;
  const filter = filterParam(state);
  if (filter) out.filter = filter;
  return out;
}

/** Replaces the URL's filter parameters with the state's (no new history entry per change). */
export function writeFilterState(state: FilterState, view: string): void {
  const url = new URL(location.href);
  for (const k of KEYS) url.searchParams.delete(k);
  const { filter: _applied, ...rest } = apiFilter(state);
  for (const [k, v] of Object.entries(rest)) url.searchParams.set(k, String(v));
  // Every condition, incomplete ones too, so a reload shows what was being chosen.
  if (state.conditions.length) url.searchParams.set('filter', JSON.stringify({ match: state.match, conditions: state.conditions }));
  if (view !== 'summary') url.searchParams.set('view', view);
  if (url.href !== location.href) history.replaceState(history.state, '', url);
}
