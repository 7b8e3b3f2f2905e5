import type { FuseLink, ResponseRecord } from '../../domain/types';
import type { Page } from './page';
import type { AnswerFilter } from '../../responses/answer-filter';

/** What `ResponseRepository.list` returns. */
export interface ResponseListQuery {
  formId: string;
  /** Inclusive bounds on `submitted_at` (ISO strings). */
  since?: string;
  until?: string;
  /** Only completed (`true`) or partial (`false`) responses. */
  completed?: boolean;
  /**
   * Only responses with an answer value (a string or number, at any depth of the answer) that contains
   * this text, ignoring case (on SQLite for ASCII letters only). Not an index lookup: the database reads
   * every response of the range (docs/responses-and-webhooks.md, "Searching the answers").
   */
  search?: string;
  /** Only responses to this published version (its number). */
  version?: number;
  /**
   * Only responses whose answers pass these checked tests (core's `parseAnswerFilter`; docs/responses-and-webhooks.md,
   * "Filtering by answer"). Tests other than `text` are answered from an index of the answers kept with every write.
   */
  answers?: AnswerFilter;
  /** Only responses answered in this language (docs/languages.md). */
  language?: string;
  /**
   * Keyset: only responses after this one in the list's order (older `submitted_at`, or the same and a
   * smaller id); `offset` is then ignored. Deep pages cost what the first one does.
   */
  after?: { submitted_at: string; id: string };
  /** The total the caller already knows for these filters: returned as is, nothing is counted. */
  total?: number;
  offset: number;
  limit: number;
}

/** The filters the CSV export applies (the list's, without paging). */
export type ResponseFilter = Pick<ResponseListQuery, 'since' | 'until' | 'completed' | 'search' | 'version' | 'answers' | 'language'>;

/** Aggregates of a form's responses, computed by the storage (never by reading every response). */
export interface ResponseAnalytics {
  total: number;
  completed: number;
  /** Mean `completion_seconds` of completed responses, or null when none. */
  average_completion_seconds: number | null;
  /** Per UTC day of `submitted_at` (YYYY-MM-DD), ascending; days without responses are absent. */
  by_day: Array<{ date: string; total: number; completed: number }>;
  /** The form's current questions in order, with their drop-off (docs/responses-and-webhooks.md). */
  questions: QuestionDropOff[];
}

/** The funnel's counters of one version (ResponseRepository.funnel). */
export interface FunnelCounts {
  views: number;
  starts: number;
  /** Responses stored, partial ones included. */
  responses: number;
  completed: number;
  /** Per question id, how many responses' furthest answered question it is. */
  furthest: Map<string, number>;
  /** Completion seconds (rounded to 3 significant digits) -> completed responses. */
  seconds: Map<number, number>;
}

/** How many responses gave `value` (a counted key: docs/responses-and-webhooks.md, "Question summaries") to a question. */
export interface QuestionValueCount {
  question_id: string;
  value: string;
  count: number;
}

/**
 * How far respondents (partial ones included) got: `answered` counts responses with a non-empty answer to
 * the question; `reached` those whose furthest answered question (by position when the response was
 * written) is this one or a later one.
 */
export interface QuestionDropOff {
  question_id: string;
  reached: number;
  answered: number;
}

/**
 * Responses packed for the CSV export, in UTF-8: for each response, `id`, `submitted_at`, `completed_at`
 * (empty when null), its hidden field values (the JSON object of `metadata.hidden`; empty when it has
 * none or they were not asked for) and its answers' JSON text as stored, separated by 0x1F (unit
 * separator) and closed by 0x1E (record separator). Neither can occur in those fields: ids and timestamps
 * are ours, and JSON escapes control characters inside strings.
 */
export interface PackedResponses {
  /** Responses in `bytes`. */
  count: number;
  /** Valid until the next page is asked for: an adapter may reuse one buffer for every page. Empty with `lines`. */
  bytes: Uint8Array;
  /**
   * Instead of packed responses, the CSV lines stored with the page's responses (`CsvLine.line`, one after
   * the other in order), when the export asked for them with `options.lines`. Text, not bytes: it lives in
   * the JavaScript heap, which the garbage collector sizes by itself, where 200 pages of bytes outside it
   * (external memory) piled up to 15 MB between collections (docs/benchmarks.md, "Where the memory goes").
   */
  lines?: string;
}

/**
 * A response's line in the CSV export, CRLF included, computed when the response is written
 * (docs/responses-and-webhooks.md, "How the CSV export is fast"). `layout` is the key of the columns it was
 * written for (`CsvLayout.key`): an export with other columns formats that response from its answers.
 */
export interface CsvLine {
  layout: string;
  line: string;
}

/** The fields of a response its CSV line is made of. */
export type CsvLineSource = Pick<ResponseRecord, 'id' | 'submitted_at' | 'completed_at' | 'answers' | 'metadata'>;

/**
 * A form's responses. Every method takes the form id and never sees another form's responses. A form that
 * sets `unique_visitor` on its responses has at most one response per value (limit-one-response).
 */
export interface ResponseRepository {
  /**
   * Inserts a response. The refused insert leaves a surrounding transaction usable.
   * @throws `FormloomError` CONFLICT when the id is taken or `unique_visitor` repeats one of the same form
   * (of concurrent inserts with one value exactly one is stored); nothing is written. `csv`: the
   * response's export line, stored with it for `exportPages`' `lines` (none: the export formats it).
   */
  insert(response: ResponseRecord, csv?: CsvLine | null): Promise<void>;
  /** The form's response, or `null` (also when the response belongs to another form). */
  findById(formId: string, id: string): Promise<ResponseRecord | null>;
  /**
   * Updates a partial response only while it is still partial (`completed_at` null), as one conditional
   * update: of concurrent completions exactly one returns `true`.
   * @returns `false` when it is missing, another form's or already completed (nothing is written).
   * @throws `FormloomError` CONFLICT when the new `unique_visitor` repeats one of the same form; nothing is
   * written. `csv` replaces the stored export line (none: the response has none after the update).
   * `metadata`, when given, replaces the stored metadata (a Fuse completion's `fused_to`); absent, it is kept.
   */
  updatePartial(
    formId: string,
    id: string,
    patch: Pick<ResponseRecord, 'answers' | 'completed_at' | 'completion_seconds' | 'quiz_results' | 'unique_visitor' | 'submitted_at'> & { metadata?: ResponseRecord['metadata'] },
    csv?: CsvLine | null,
  ): Promise<boolean>;
  /** Newest `submitted_at` first (ties by id descending), with the total before paging. */
  list(query: ResponseListQuery): Promise<Page<ResponseRecord>>;
  /**
   * Deletes one response.
   * @returns `false` when it is not the form's (another form's response stays).
   */
  delete(formId: string, id: string): Promise<boolean>;
  /** How many of `ids` (distinct) belong to the form. */
  countOwned(formId: string, ids: string[]): Promise<number>;
  /**
   * Deletes those of `ids` that belong to the form (others stay), atomically.
   * @returns how many were deleted.
   */
  deleteMany(formId: string, ids: string[]): Promise<number>;
  /**
   * Responses of `formIds` (`null`: of every form, for the instance's admin) that may hold one respondent's data (docs/privacy.md): `visitor_id` equal to
   * `match.visitor_id`, or answers or hidden values containing `match.email` case-insensitively (a candidate:
   * the caller keeps only exact values). Newest `submitted_at` first, at most `limit`; `[]` without a match.
   */
  /**
   * Ids of the form's responses past a retention policy (docs/privacy.md, "Retention"): submitted before `before`,
   * or beyond the `keep_newest` newest (by `submitted_at`, then id); at most `limit`.
   */
  pastRetention(formId: string, policy: { before?: string; keep_newest?: number }, limit: number): Promise<string[]>;
  findByRespondent(formIds: string[] | null, match: { email?: string; visitor_id?: string }, limit: number): Promise<ResponseRecord[]>;
  /**
   * The form's responses in (`submitted_at`, `id`) ascending order after the keyset `after` (`null`: from
   * the start), at most `limit`: export reads a form of any size in constant memory, with no duplicates or
   * gaps between pages.
   */
  scan(formId: string, after: { submitted_at: string; id: string } | null, limit: number): Promise<ResponseRecord[]>;
  /**
   * The form's responses for the CSV export, in (`submitted_at`, `id`) ascending order, as packed pages
   * of at most `pageSize`: one buffer per page instead of an object per response, which is what keeps an
   * export of 100,000 responses near the database's own speed. The adapter may read the next page while
   * the caller formats the current one; it releases what it holds when iteration ends or is abandoned
   * (`return()`). `options.hidden`: pack each response's hidden field values too (otherwise that field is
   * left empty, at no cost). `options.filter`: only the responses the list would show with those filters.
   * `options.lines`, a layout key: a page whose every response was stored with a `CsvLine` of that key
   * may come as those lines (`lines`); any other page comes packed. `options.language`: each packed response
   * has two more fields after its answers, its `language` and its `version_id` (empty when null), for the
   * XLSX and JSON exports' labels in the respondent's language.
   */
  exportPages(
    formId: string,
    pageSize: number,
    options?: { hidden?: boolean; filter?: ResponseFilter; lines?: string; language?: boolean },
  ): AsyncIterable<PackedResponses>;
  /**
   * Whether a response of the form names another through a Fuse (`metadata.fused_from` or `fused_to`, docs/logic.md
   * "Fuse"): the exports then have the link columns. It may answer true for a form whose metadata only mentions
   * `"fused_` in a value (the columns are then empty), never false for a form with a link.
   */
  hasFuseLinks(formId: string): Promise<boolean>;
  /** The Fuse links of those of `ids` that are the form's and have one (in no set order). */
  fuseLinks(formId: string, ids: string[]): Promise<Array<{ id: string; fused_from: FuseLink | null; fused_to: FuseLink | null }>>;
  /**
   * Stores `line(response)` as the export line for the columns of key `layout` of each of the form's
   * responses that has none for them, in batches (`formloom export lines`). A response changed between its
   * read and its write (a partial one completed meanwhile) keeps what that change wrote.
   * @returns how many lines were written.
   */
  writeCsvLines(
    formId: string,
    layout: string,
    line: (response: CsvLineSource) => string,
  ): Promise<number>;
  /**
   * Aggregates over `submitted_at` in [since, until] (either bound optional), at a cost that depends on
   * the days asked for, not on the responses stored: adapters keep per-day counters in step with every
   * insert, completion and deletion in the same transaction (docs/responses-and-webhooks.md).
   */
  analytics(formId: string, since?: string, until?: string): Promise<ResponseAnalytics>;
  /**
   * Recomputes those counters from the stored responses, of one form or of every form (`formloom
   * analytics rebuild`): a repair after responses were changed behind the storage's back.
   */
  rebuildAnalytics(formId?: string): Promise<void>;
  /**
   * Answer distributions over the whole UTC days [firstDay, lastDay] (YYYY-MM-DD, either optional): per
   * question and counted value, the responses that gave it, only counts above 0. Like `analytics`, read from
   * counters kept in step with every write, at a cost independent of the responses stored.
   */
  questionValues(formId: string, firstDay?: string, lastDay?: string): Promise<QuestionValueCount[]>;
  /**
   * The same counters for the given questions summed over each of `ranges` (whole UTC days, YYYY-MM-DD, both
   * included, ascending and not overlapping): one row per range (its index), question and value with a count
   * above 0. Read by key, one lookup per day and question (the NPS trend: 12 weeks of one question), so the cost
   * is days × those questions' values, not every question's.
   */
  questionRangeValues(formId: string, questionIds: string[], ranges: Array<{ first: string; last: string }>): Promise<Array<QuestionValueCount & { range: number }>>;
  /**
   * Analytics and answer distributions of the responses `filter` selects (issue 37: filters by answer),
   * computed from those responses in SQL (the rollups count every response, so a filter cannot use them):
   * `analytics` as `analytics` answers (drop-off by the form's current order), `values` as `questionValues`.
   */
  filteredSummary(formId: string, filter: ResponseFilter): Promise<{ analytics: ResponseAnalytics; values: QuestionValueCount[] }>;
  /**
   * The funnel's counters of one version (`null`: responses stored without one): views and starts recorded
   * by `recordVisits`, per question how many responses stopped there (`furthest`), completions and the
   * completion times' distribution (seconds rounded to 3 significant digits), kept in step with every write.
   */
  funnel(formId: string, version: number | null): Promise<FunnelCounts>;
  /** The versions the funnel has counts for, newest first. */
  funnelVersions(formId: string): Promise<number[]>;
  /** Adds page views and starts of the published form's `version` (atomic increments; a deleted form is ignored). */
  recordVisits(formId: string, version: number, views: number, starts: number): Promise<void>;
  /** Whether the form has a completed response with this `unique_visitor`. */
  hasUniqueVisitor(formId: string, visitor: string): Promise<boolean>;
}
