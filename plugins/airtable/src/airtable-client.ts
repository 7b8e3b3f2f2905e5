import Airtable from 'airtable';
import { serviceDelivered, serviceFailed, type IntegrationResult } from '@formloom/core';
import { recordFields, type RecordAnswer } from './airtable-fields';

/*
 * Creates a record per response with Airtable's own SDK (`airtable`), `typecast` on. The SDK makes its own
 * requests (node-fetch) to the instance's Airtable address (`endpointUrl`, set by the operator, never by an
 * owner: an owner's settings name only a base and a table), so no owner can point it at another server.
 */

export interface AirtableWriterOptions {
  /** Airtable's API address (`endpointUrl` of the SDK); default Airtable's. Tests give a local server. */
  endpointUrl?: string;
  timeoutMs?: number;
}

/** Airtable asks a client that went over its rate limit to wait 30 seconds (its API docs, "Rate limits"). */
export const RATE_LIMIT_WAIT = '30';

/** What the SDK throws: an `AirtableError` with Airtable's error type, message and status (null: no answer). */
function outcomeOf(e: unknown): IntegrationResult {
  const err = e as { error?: string; message?: string; statusCode?: number | null };
  const status = typeof err?.statusCode === 'number' ? err.statusCode : null;
  const message = [err?.error, err?.message].filter(Boolean).join(': ') || String(e);
  return serviceFailed(status, message, status === 429 ? RATE_LIMIT_WAIT : null);
}

export class AirtableWriter {
  constructor(private readonly options: AirtableWriterOptions = {}) {}

  /**
   * Creates the record of `answers` in `table` of `baseId`; the outcome says whether it was made, or why not.
   * `id`: the response's id and the field that holds it. With `lookFirst` (an earlier attempt may have made
   * the record: docs/plugins.md, "Deliveries that may have been sent") the table is asked for a record with
   * that id first, and an existing one is the outcome; without an id field it cannot look (`mayRepeat`).
   */
  async createRecord(
    token: string,
    baseId: string,
    table: string,
    answers: readonly RecordAnswer[],
    id: { field: string; value: string } | null = null,
    lookFirst = false,
  ): Promise<IntegrationResult> {
    const airtable = new Airtable({
      apiKey: token,
      // The outbox retries on its own schedule; the SDK would otherwise wait and retry inside the delivery.
      noRetryIfRateLimited: true,
      requestTimeout: this.options.timeoutMs ?? 10_000,
      ...(this.options.endpointUrl ? { endpointUrl: this.options.endpointUrl } : {}),
    });
    try {
      const fields = recordFields(answers);
      if (id) fields[id.field] = id.value;
      // The SDK's typings know only its own field shapes; an attachment by URL is `{url, filename}` on the wire.
      const target = airtable.base(baseId).table(table);
      if (lookFirst && id) {
        const formula = `{${id.field.replace(/[{}]/g, '')}} = '${id.value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
        const [found] = await target.select({ filterByFormula: formula, maxRecords: 1, fields: [id.field] }).firstPage();
        if (found) return serviceDelivered(200, `Found record ${found.id}, made before a restart`);
      }
      const create = target.create as (f: Airtable.FieldSet, o: { typecast: boolean }) => Promise<Airtable.Record<Airtable.FieldSet>>;
      const record = await create.call(target, fields as unknown as Airtable.FieldSet, { typecast: true });
      const made = serviceDelivered(200, `Created record ${record.id}`);
      // No field holds the response's id: there was nothing to look in, so this record may be a second one.
      return lookFirst && !id ? { ...made, mayRepeat: true } : made;
    } catch (e) {
      return outcomeOf(e);
    }
  }
}
