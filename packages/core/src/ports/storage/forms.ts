import type { FormRecord } from '../../domain/types';
import type { Page } from './page';

/** What `FormRepository.list` returns: the forms a user can see, filtered. */
export interface FormListQuery {
  /** Forms owned personally by this user (`team_id` null) ... */
  ownerId: string;
  /** ... or belonging to one of these teams (empty: personal forms only). */
  teamIds: string[];
  /** Case-insensitive partial match on the title; `%`, `_` and other characters match themselves. */
  search?: string;
  /** Only the forms of this team. */
  teamId?: string;
  /** Only published (`true`) or unpublished (`false`) forms. */
  published?: boolean;
  /** Items to skip; negative counts as 0. */
  offset: number;
  /** Page size; 0 gives an empty page with the total. */
  limit: number;
  /**
   * The number of forms matching the filters, when the caller knows it (kept from an earlier call under the
   * same cache revision): not counted again, returned as the page's `total` and used to place the page.
   */
  total?: number;
}

/** Forms. Their questions, versions, responses and deliveries hang off them (see `delete`). */
export interface FormRepository {
  /**
   * Inserts the form (its `questions`, if the record carries any, are stored by `QuestionRepository`).
   * @throws `FormloomError` CONFLICT when the id or the slug is taken; nothing is written.
   */
  insert(form: FormRecord): Promise<void>;
  /** The form, or `null` when there is none. */
  findById(id: string): Promise<FormRecord | null>;
  /** The form with this slug (exact match), or `null`. */
  findBySlug(slug: string): Promise<FormRecord | null>;
  /** Forms matching the query, newest `updated_at` first (ties by id ascending), with the total before paging. */
  list(query: FormListQuery): Promise<Page<FormRecord>>;
  /**
   * Applies the patch (absent fields stay; unknown keys are ignored) and returns the updated form; an empty
   * patch returns it unchanged.
   * @returns `null` when there is no such form.
   * @throws `FormloomError` CONFLICT when the new slug is another form's; nothing is written.
   */
  update(id: string, patch: Partial<Omit<FormRecord, 'id'>>): Promise<FormRecord | null>;
  /**
   * Adds `delta` (may be negative) to `response_count` as one atomic update: concurrent calls never lose
   * an increment.
   * @returns the new count, or `null` when there is no such form.
   */
  addResponseCount(id: string, delta: number): Promise<number | null>;
  /**
   * Adds one to `response_count` only while it is below `limit`, as one conditional update (the check and
   * the write are one statement): of concurrent calls on a form holding `limit - k` responses exactly `k`
   * succeed, in one process or in several sharing the database. Inside a transaction, the form's row stays
   * claimed until it ends, so a rolled-back submission gives its slot back.
   * @returns the new count, or `null` when the form is at its limit or missing (nothing is written).
   */
  claimResponseSlot(id: string, limit: number): Promise<number | null>;
  /**
   * Deletes the form with its questions, versions, responses and webhook deliveries (with their attempts),
   * atomically.
   * @returns `false` when there was no such form.
   */
  delete(id: string): Promise<boolean>;
  /** Forms whose options hold a `response_retention` policy, by id after `afterId` (null: from the start), at most `limit`. */
  listWithRetention(afterId: string | null, limit: number): Promise<FormRecord[]>;
}
