import { inject, injectable } from 'tsyringe';
import { badRequest, notFound } from '../errors';
import type { Principal, Question } from '../domain/types';
import type { Storage } from '../ports/storage';
import { authorizeForm } from '../forms/form-access';
import { withPinnedComponents } from '../forms/composite-components';
import { csvLayout } from './codecs/csv';
import { headerWithExtras, linesWithExtras } from './codecs/csv-extras';
import { extraColumns, extraValues, fuseColumnsWanted } from './codecs/export-extras';
import { declaredHiddenFields } from './codecs/csv-lines';
import { CsvPageWriter } from './codecs/csv-page';
import { type ExportColumn, type ExportRow, exportColumns, exportRows, yesNoWords } from './codecs/export-table';
import { ExportLanguages } from './export-languages';
import { paging } from '../pagination';
import { decodeCursor, encodeCursor, responseFilter, totalIsCostly } from './response-query';
import { bulkDeleteSchema } from './response-schemas';
import { parseBody } from '../parse';
import { presentResponse } from './response-presenter';
import { presentPayment } from '../payments/payment-out';
import { presentCall } from '../booking/booking-trails';
import { TOKENS } from '../tokens';
import { inclusiveRange, isDate } from '../date-range';
import { LATEST_SCAN, type QuestionSummary, summarizeQuestions } from './question-summaries';
import { isNpsQuestion, npsOf, trendWeeks } from './question-summary-extras';
import type { Clock } from '../ports/clock';
import type { BlobStore } from '../ports/blob-store';
import type { IdGenerator } from '../ports/id-generator';
import type { FormloomEvents } from '../events';
import type { FormRecord } from '../domain/types';
import { WebhookDispatcher } from '../webhooks/webhook-dispatcher';
import { BLOB_FOLDERS_KIND, eraseResponses } from './erase-responses';

/**
 * Responses per page read. Each page is one buffer of some 350 kB; pages of 2,000 (1.4 MB) left the
 * allocator holding 20-25 MB more after an export for no measurable gain in time (docs/benchmarks.md,
 * "The CSV export").
 */
const EXPORT_PAGE = 500;

/** The owner's side of responses: list, read, delete, export and analytics. */
@injectable()
export class ResponseService {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.BlobStore) private readonly blobs: BlobStore,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(TOKENS.Events) private readonly events: FormloomEvents,
    @inject(WebhookDispatcher) private readonly webhooks: WebhookDispatcher,
  ) {}

  /**
   * A page by number, or after `cursor` (a `next_cursor` of the same filters): one row more than the page
   * is read to know whether another follows (docs/responses-and-webhooks.md, "Cursor paging").
   */
  async list(principal: Principal, formId: string, query: Record<string, unknown>) {
    await authorizeForm(this.storage, principal, formId, 'read');
    const numbered = paging(query, 50);
    const { per_page } = numbered;
    // The questions are read only to check a filter by answer against them.
    const filter = responseFilter(query, query.filter === undefined ? [] : await this.storage.questions.listByForm(formId));
    const cursor = query.cursor === undefined ? null : decodeCursor(query.cursor, filter);
    const offset = cursor ? cursor.offset : numbered.offset;
    const read = await this.storage.responses.list({
      formId,
      ...filter,
      ...(cursor ? { after: cursor.after, ...(cursor.total === undefined ? {} : { total: cursor.total }) } : {}),
      offset,
      limit: per_page + 1,
    });
    const items = read.items.slice(0, per_page);
    const last = items[items.length - 1];
    const next_cursor =
      read.items.length > per_page && last
        ? encodeCursor(
            { after: { submitted_at: last.submitted_at, id: last.id }, offset: offset + per_page, ...(totalIsCostly(filter) ? { total: read.total } : {}) },
            filter,
          )
        : null;
    return { responses: await this.withBookings(await this.withPayments(items.map(presentResponse))), total: read.total, page: Math.floor(offset / per_page) + 1, per_page, next_cursor };
  }

  /** Each response's payments (`payments`, present when it has any: docs/payments.md), one read for the page. */
  private async withPayments<R extends { id: string }>(responses: R[]): Promise<Array<R & { payments?: ReturnType<typeof presentPayment>[] }>> {
    if (!responses.length) return responses;
    const all = await this.storage.payments.forResponses(responses.map((r) => r.id));
    if (!all.length) return responses;
    return responses.map((r) => {
      const own = all.filter((p) => p.response_id === r.id);
      return own.length ? { ...r, payments: own.map(presentPayment) } : r;
    });
  }

  /**
   * Each response's bookings with their state now and their confirmation call (`bookings`, present when it has
   * any: docs/booking.md, "The outcome"): one indexed read for the page, one more only when there are bookings.
   */
  private async withBookings<R extends { id: string }>(responses: R[]) {
    if (!responses.length) return responses;
    const all = await this.storage.bookings.forResponsesAnyState(responses.map((r) => r.id));
    if (!all.length) return responses;
    const calls = new Map((await this.storage.bookingCalls.forBookings(all.map((b) => b.id))).map((c) => [c.booking_id, presentCall(c)]));
    return responses.map((r) => {
      const own = all.filter((b) => b.response_id === r.id && b.status !== 'held' && b.status !== 'expired');
      return own.length ? { ...r, bookings: own.map((b) => ({ id: b.id, question_id: b.question_id, status: b.status, start: b.start, end: b.end, confirmation_call: calls.get(b.id) ?? null })) } : r;
    });
  }

  async get(principal: Principal, formId: string, responseId: string) {
    await authorizeForm(this.storage, principal, formId, 'read');
    const r = await this.storage.responses.findById(formId, responseId);
    if (!r) throw notFound('Response');
    return (await this.withBookings(await this.withPayments([presentResponse(r)])))[0]!;
  }

  /** Deletes one response as an erasure does (docs/privacy.md): with its files, deliveries and counters. */
  async delete(principal: Principal, formId: string, responseId: string) {
    const form = await authorizeForm(this.storage, principal, formId, 'delete_responses');
    if (!(await this.erase(form, [responseId])).erased) throw notFound('Response');
    return { success: true };
  }

  /** Deletes up to 100 responses, all of the form, or none (a deletion short of them all is rolled back). */
  async bulkDelete(principal: Principal, formId: string, body: unknown) {
    const form = await authorizeForm(this.storage, principal, formId, 'delete_responses');
    const ids = [...new Set(parseBody(bulkDeleteSchema, body).response_ids)];
    const done = await this.erase(form, ids, async (_tx, n) => {
      if (n !== ids.length) throw badRequest('response_ids: every id must be a response of this form; nothing was deleted', { field: 'response_ids' });
    });
    return { deleted: done.erased };
  }

  /** `eraseResponses` for the owner's deletes: no file, delivery log or counter keeps a deleted response. */
  private async erase(form: FormRecord, ids: string[], inTx?: (tx: Storage, erased: number) => Promise<void>) {
    const deps = { storage: this.storage, ids: this.ids, clock: this.clock, blobs: this.blobs, webhooks: this.webhooks };
    const done = await eraseResponses(deps, form, ids, { reason: 'deleted', ...(inTx ? { inTx } : {}) });
    if (done.files) this.events.emit('outbox.enqueued', { kind: BLOB_FOLDERS_KIND });
    if (done.events) this.events.emit('outbox.enqueued', { kind: 'webhook' });
    return done;
  }

  /**
   * The CSV export as chunks, read in packed pages so memory stays constant whatever the size. Columns
   * follow the current questions, then the form's current hidden fields; answers to deleted questions and
   * values of hidden fields no longer declared are not exported. The list's filters apply (`since`,
   * `until`, `completed`, `search`), so the workspace's "Download CSV" exports what its table shows.
   */
  async export(principal: Principal, formId: string, query: Record<string, unknown> = {}): Promise<AsyncIterable<string | Uint8Array>> {
    const form = await authorizeForm(this.storage, principal, formId, 'read');
    // A composite's columns are its components' questions (docs/logic.md "Composite").
    const questions: Question[] = await withPinnedComponents(this.storage, form, await this.storage.questions.listByForm(formId));
    const filter = responseFilter(query, questions);
    const hiddenFields = declaredHiddenFields(form.options.hidden_fields);
    const layout = csvLayout(questions, hiddenFields);
    // Lines stored for these columns come as they are; only responses written for other columns (or
    // before lines were stored) are formatted here (docs/responses-and-webhooks.md, "How the CSV export is fast").
    const pages = this.storage.responses.exportPages(formId, EXPORT_PAGE, { hidden: hiddenFields.length > 0, filter, lines: layout.key });
    // A form that takes payments, makes confirmation calls or has Fuse links gets their columns, read page by page (codecs/export-extras.ts).
    const extras = extraColumns(questions, await fuseColumnsWanted(this.storage, formId, questions));
    const storage = this.storage;
    return (async function* () {
      yield extras.length ? headerWithExtras(layout.header, extras) : layout.header;
      let writer: CsvPageWriter | null = null;
      for await (const page of pages) {
        const text = page.lines !== undefined ? page.lines : (writer ??= new CsvPageWriter(layout)).write(page.bytes).csv;
        yield extras.length ? await linesWithExtras(storage, formId, typeof text === 'string' ? text : text.toString('utf8'), extras) : text;
      }
    })();
  }

  /**
   * The export's columns and its rows page by page, each answer as its label and its raw value, for the
   * XLSX and JSON exports (docs/responses-and-webhooks.md, "Export formats"): the CSV's columns (payments,
   * calls and Fuse links too, codecs/export-extras.ts), filters and access, read in packed pages so memory stays at one page.
   */
  async exportTable(principal: Principal, formId: string, query: Record<string, unknown> = {}): Promise<{ columns: ExportColumn[]; rows: AsyncIterable<ExportRow[]> }> {
    const form = await authorizeForm(this.storage, principal, formId, 'read');
    // A composite's columns are its components' questions (docs/logic.md "Composite").
    const questions: Question[] = await withPinnedComponents(this.storage, form, await this.storage.questions.listByForm(formId));
    const filter = responseFilter(query, questions);
    const hiddenFields = declaredHiddenFields(form.options.hidden_fields);
    const layout = csvLayout(questions, hiddenFields);
    const words = yesNoWords(form.options);
    // Each response's language and version come with it: its labels are written as its page showed them.
    const pages = this.storage.responses.exportPages(formId, EXPORT_PAGE, { hidden: hiddenFields.length > 0, filter, language: true });
    const extras = extraColumns(questions, await fuseColumnsWanted(this.storage, formId, questions));
    const storage = this.storage;
    const columns = [...exportColumns(layout, questions), ...extras];
    const languages = new ExportLanguages(form, questions, columns, (id) => storage.versions.findById(id));
    return {
      columns,
      rows: (async function* () {
        for await (const page of pages) {
          const rows = exportRows(page, layout, words);
          await languages.relabel(rows);
          if (extras.length) {
            const values = await extraValues(storage, formId, rows.map((r) => r.id), extras);
            for (const r of rows) {
              const own = values.get(r.id) ?? extras.map(() => null);
              r.values.push(...own);
              r.labels.push(...own);
            }
          }
          yield rows;
        }
      })(),
    };
  }

  /**
   * Analytics computed by the database; `since`/`until` are inclusive dates. With `completed`, `version` or
   * `filter` (docs/responses-and-webhooks.md, "Filtering by answer") they are computed from the matching
   * responses instead of the rollups, which count every response.
   */
  async analytics(principal: Principal, formId: string, query: Record<string, unknown>) {
    await authorizeForm(this.storage, principal, formId, 'read');
    const filter = await this.summaryFilter(formId, query);
    const a = filter.narrowed
      ? (await this.storage.responses.filteredSummary(formId, filter.filter)).analytics
      : await this.storage.responses.analytics(formId, filter.filter.since, filter.filter.until);
    return {
      form_id: formId,
      total_responses: a.total,
      completed_responses: a.completed,
      completion_rate: a.total ? Math.round((a.completed / a.total) * 10000) / 100 : 0,
      average_completion_time_seconds: a.average_completion_seconds === null ? null : Math.round(a.average_completion_seconds),
      responses_by_day: a.by_day,
      question_drop_off: a.questions,
    };
  }

  /**
   * The analytics endpoints' filters: `since`/`until` as dates, then `completed`, `version` and `filter` as the
   * responses list reads them. `narrowed`: one of the latter is given, so the rollups cannot answer.
   */
  private async summaryFilter(formId: string, query: Record<string, unknown>) {
    for (const f of ['since', 'until'] as const) {
      const v = query[f];
      if (v !== undefined && !isDate(v)) throw badRequest(`${f}: must be a date YYYY-MM-DD`, { field: f });
    }
    const questions = query.filter === undefined ? [] : await this.storage.questions.listByForm(formId);
    const filter = responseFilter({ since: query.since, until: query.until, completed: query.completed, version: query.version, language: query.language, filter: query.filter }, questions);
    const narrowed = filter.completed !== undefined || filter.version !== undefined || filter.answers !== undefined || filter.language !== undefined;
    return { filter, narrowed };
  }

  /**
   * Per-question summaries over whole days [since, until] (docs/responses-and-webhooks.md, "Question
   * summaries"): distributions from the storage's counters, text answers from the newest responses. With a
   * filter, the distributions are counted from the matching responses and the NPS trend is left out.
   */
  async questionSummaries(principal: Principal, formId: string, query: Record<string, unknown>) {
    await authorizeForm(this.storage, principal, formId, 'read');
    const { filter, narrowed } = await this.summaryFilter(formId, query);
    const range = { since: filter.since, until: filter.until };
    const firstDay = range.since?.slice(0, 10);
    const lastDay = range.until?.slice(0, 10);
    const listed = this.storage.questions.listByForm(formId);
    if (narrowed) {
      const [questions, counted, newest] = await Promise.all([
        listed,
        this.storage.responses.filteredSummary(formId, filter),
        // Only the newest answers are read: the total comes from the summary, so the list counts nothing.
        this.storage.responses.list({ formId, ...filter, offset: 0, limit: LATEST_SCAN, total: 0 }),
      ]);
      const answered = new Map(counted.analytics.questions.map((q) => [q.question_id, q.answered]));
      return { form_id: formId, total_responses: counted.analytics.total, questions: summarizeQuestions(questions, counted.values, newest.items, answered) };
    }
    // The NPS trend's read starts as soon as the questions are known, beside the others, not after them.
    const trend = listed.then((qs) => this.npsTrend(formId, qs, firstDay, lastDay));
    const [questions, counts, a, newest, byWeek] = await Promise.all([
      listed,
      this.storage.responses.questionValues(formId, firstDay, lastDay),
      this.storage.responses.analytics(formId, range.since, range.until),
      this.storage.responses.list({ formId, ...range, offset: 0, limit: LATEST_SCAN }),
      trend,
    ]);
    const answered = new Map(a.questions.map((q) => [q.question_id, q.answered]));
    const summaries = summarizeQuestions(questions, counts, newest.items, answered);
    for (const q of summaries) {
      const weeks = byWeek.get(q.question_id);
      if (weeks && q.nps_split !== undefined) q.nps_by_week = weeks;
    }
    return { form_id: formId, total_responses: a.total, questions: summaries };
  }

  /** `nps_by_week` per NPS question: their counters on each day of the weeks (one keyed read, never a response). */
  private async npsTrend(formId: string, questions: Question[], firstDay?: string, lastDay?: string) {
    const out = new Map<string, Array<{ week: string; answered: number; nps: number | null }>>();
    const ids = questions.filter(isNpsQuestion).map((q) => q.id);
    if (!ids.length) return out;
    const weeks = trendWeeks(lastDay ?? this.clock.now().toISOString().slice(0, 10), firstDay);
    const rows = await this.storage.responses.questionRangeValues(formId, ids, weeks);
    for (const id of ids) {
      out.set(id, weeks.map((w, i) => {
        const values = new Map<string, number>();
        for (const r of rows) if (r.question_id === id && r.range === i) values.set(r.value, (values.get(r.value) ?? 0) + r.count);
        return { week: w.week, ...npsOf(values) };
      }));
    }
    return out;
  }
}
