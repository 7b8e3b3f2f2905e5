import type { ResponseRecord, UploadRecord } from '@formloom/core';
import type { Scope } from '../scope';
import { filterOnly, Params } from '../sql/dialect';
import { idBatches, tableOf } from '../sql/statements';
import { ResponseEntity, type ResponseRow, responseFromRow } from '../tables/responses';
import { UploadEntity, type UploadRow, uploadFromRow } from '../tables/uploads';
import { DeliveryEntity } from '../tables/webhooks';

/*
 * What a respondent's rights need of storage (docs/privacy.md): their responses found across forms, and the
 * traces a response leaves besides its row (uploads, webhook deliveries) removed with it.
 */

/** `%text%` for LIKE with its wildcards taken literally (escaped with `\`). */
const contains = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Candidate responses of `formIds`: the visitor id, or the email inside the answers or hidden values (a
 * case-insensitive substring: the caller keeps only exact values). Newest first, at most `limit`.
 */
export async function findByRespondent(scope: Scope, formIds: string[] | null, match: { email?: string; visitor_id?: string }, limit: number): Promise<ResponseRecord[]> {
  if (!match.email && !match.visitor_id) return [];
  const table = tableOf(scope.d, ResponseEntity);
  const out: ResponseRecord[] = [];
  for (const batch of formIds === null ? [null] : idBatches(formIds)) {
    const params = new Params(scope.d);
    const ors: string[] = [];
    if (match.visitor_id) ors.push(`visitor_id = ${params.bind(match.visitor_id)}`);
    if (match.email) {
      const like = contains(match.email);
      ors.push(`LOWER(answers) LIKE ${params.bind(like)} ESCAPE '\\'`, `LOWER(metadata) LIKE ${params.bind(like)} ESCAPE '\\'`);
    }
    const sql =
      `SELECT * FROM ${table} WHERE ${batch === null ? '' : `form_id IN (${params.list(batch)}) AND `}(${ors.join(' OR ')}) ` +
      `ORDER BY submitted_at DESC, id DESC LIMIT ${params.bind(Math.max(0, Math.floor(limit)))}`;
    out.push(...(await scope.db.all<ResponseRow>(sql, params.values)).map(responseFromRow));
  }
  return out.sort((a, b) => (a.submitted_at === b.submitted_at ? b.id.localeCompare(a.id) : b.submitted_at.localeCompare(a.submitted_at))).slice(0, limit);
}

/** Deletes the upload rows of these responses and returns them (their blobs are the caller's to delete). */
export async function takeUploadsOf(scope: Scope, formId: string, responseIds: string[]): Promise<UploadRecord[]> {
  const table = tableOf(scope.d, UploadEntity);
  const out: UploadRecord[] = [];
  for (const batch of idBatches(responseIds)) {
    const params = new Params(scope.d);
    const sql = `DELETE FROM ${table} WHERE ${filterOnly(scope.d, 'form_id')} = ${params.bind(formId)} AND response_id IN (${params.list(batch)}) RETURNING *`;
    out.push(...(await scope.db.all<UploadRow>(sql, params.values)).map(uploadFromRow));
  }
  return out;
}

/** Deletes the webhook deliveries of these responses (their attempts go with them); how many. */
export async function deleteDeliveriesOf(scope: Scope, formId: string, responseIds: string[]): Promise<number> {
  const table = tableOf(scope.d, DeliveryEntity);
  let n = 0;
  for (const batch of idBatches(responseIds)) {
    const params = new Params(scope.d);
    n += await scope.db.run(`DELETE FROM ${table} WHERE form_id = ${params.bind(formId)} AND response_id IN (${params.list(batch)})`, params.values);
  }
  return n;
}
