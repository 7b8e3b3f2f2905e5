import type { FormRecord } from '@formloom/core';
import type { Scope } from '../scope';
import { Params } from '../sql/dialect';
import { tableOf } from '../sql/statements';
import { FormEntity, type FormRow, formFromRow } from '../tables/forms';
import { ResponseEntity } from '../tables/responses';

/*
 * Per-form retention of responses (docs/privacy.md, "Retention"): the forms that have a policy, and the responses
 * past it. The sweep deletes them through the repositories' usual deletes, so counters stay right.
 */

/** Forms whose options hold a `response_retention` policy, by id after `afterId`, at most `limit`. */
export async function formsWithRetention(scope: Scope, afterId: string | null, limit: number): Promise<FormRecord[]> {
  const table = tableOf(scope.d, FormEntity);
  const params = new Params(scope.d);
  // The options are JSON text: a null policy is written as `"response_retention":null`, which this leaves out.
  const sql =
    `SELECT * FROM ${table} WHERE options LIKE ${params.bind('%"response_retention":{%')}` +
    (afterId ? ` AND id > ${params.bind(afterId)}` : '') +
    ` ORDER BY id LIMIT ${params.bind(Math.max(0, Math.floor(limit)))}`;
  return (await scope.db.all<FormRow>(sql, params.values)).map(formFromRow);
}

/**
 * Ids of the form's responses past the policy: submitted before `before`, or older than the `keep_newest` newest
 * (by `submitted_at`, then id), oldest first, at most `limit`.
 */
export async function responsesPastRetention(scope: Scope, formId: string, policy: { before?: string; keep_newest?: number }, limit: number): Promise<string[]> {
  const table = tableOf(scope.d, ResponseEntity);
  const n = Math.max(0, Math.floor(limit));
  const out = new Set<string>();
  if (policy.before) {
    const params = new Params(scope.d);
    const sql = `SELECT id FROM ${table} WHERE form_id = ${params.bind(formId)} AND submitted_at < ${params.bind(policy.before)} ORDER BY submitted_at, id LIMIT ${params.bind(n)}`;
    for (const r of await scope.db.all<{ id: string }>(sql, params.values)) out.add(r.id);
  }
  if (policy.keep_newest !== undefined && out.size < n) {
    const params = new Params(scope.d);
    // Everything but the newest `keep_newest`: LIMIT with an OFFSET over the newest-first order.
    const sql =
      `SELECT id FROM ${table} WHERE form_id = ${params.bind(formId)} ORDER BY submitted_at DESC, id DESC ` +
      `LIMIT ${params.bind(n)} OFFSET ${params.bind(Math.max(0, Math.floor(policy.keep_newest)))}`;
    for (const r of await scope.db.all<{ id: string }>(sql, params.values)) out.add(r.id);
  }
  return [...out].slice(0, n);
}
