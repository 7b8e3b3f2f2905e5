import { createHash } from 'node:crypto';
import { FormloomError, stableJson } from '@formloom/core';
import { param, type RouteContext, type RouteResult, type RouteSpec } from './route-table';
import { FormJsonMemo } from './form-json';

/*
 * Optimistic concurrency for the owner's form endpoints (docs/decisions.md, "Form ETags"): `GET /forms/:id`
 * answers an `ETag`, and the form's writes honour `If-Match`, answering 412 PRECONDITION_FAILED (reason
 * `etag_mismatch`) when the form changed since the client read it. Two browser tabs editing one form thus
 * never overwrite each other silently. Without `If-Match` a write behaves exactly as before.
 */

/** The writes that honour `If-Match`, by method and path (restore is served where sessions are). */
const CONDITIONAL = new Set([
  'put /forms/:id',
  'delete /forms/:id',
  'put /forms/:id/theme',
  'post /forms/:id/publish',
  'delete /forms/:id/publish',
  'post /forms/:id/versions/:versionId/restore',
]);
/** Answers that are the full form (so their ETag is computed from the answer itself). */
const ANSWERS_FORM = new Set(['get /forms/:id', 'put /forms/:id', 'post /forms/:id/publish', 'delete /forms/:id/publish', 'post /forms/:id/versions/:versionId/restore']);

const IF_MATCH = {
  name: 'If-Match',
  description: "The form's `ETag` as last read: the write is refused with 412 when the form has changed since",
  schema: { type: 'string' },
};
const ETAG_DESCRIPTION = "The form's entity tag: send it back as `If-Match` with a write";

/**
 * The entity tag of a presented form: a hash of everything the owner can change. `response_count` is left
 * out, so that responses arriving while an owner edits a live form are not a conflict.
 */
export function formEtag(form: Record<string, unknown>, memo?: EtagMemo): string {
  // Reads of one cached revision share the presentation's `questions` array (FormService.get), and a
  // presentation is never changed once built: one hash per revision rather than one per read.
  const questions = typeof form.questions === 'object' && form.questions !== null ? form.questions : null;
  const known = questions && memo?.get(questions);
  if (known) return known;
  const { response_count: _count, version: _version, publish_error: _err, ...content } = form;
  const tag = `"${createHash('sha256').update(stableJson(content)).digest('base64url').slice(0, 32)}"`;
  if (questions) memo?.set(questions, tag);
  return tag;
}

/** Entity tags by the `questions` array of the presentation they were computed from. */
type EtagMemo = WeakMap<object, string>;

/** Refuses the write when `If-Match` names none of the form's current tags (`*` matches any existing form). */
async function checkIfMatch(ctx: RouteContext, memo: EtagMemo): Promise<void> {
  const header = ctx.req.get('if-match');
  if (header === undefined) return;
  const current = formEtag((await ctx.formloom.forms.get(ctx.principal, param(ctx, 'id'))) as unknown as Record<string, unknown>, memo);
  const given = header.split(',').map((t) => t.trim().replace(/^W\//, ''));
  if (given.includes('*') || given.includes(current)) return;
  throw new FormloomError('PRECONDITION_FAILED', 'The form changed since it was read: read it again (its ETag), then retry', {
    reason: 'etag_mismatch',
  });
}

/** The answer with the form's ETag; a promise only when the form must be read first (not a read's own answer). */
function withEtagHeader(ctx: RouteContext, key: string, result: RouteResult, memo: EtagMemo, json: FormJsonMemo): RouteResult | Promise<RouteResult> {
  if (!('body' in result) || (result.status ?? 200) >= 300) return result;
  if (ANSWERS_FORM.has(key)) return tagged(key, result, result.body as Record<string, unknown>, memo, json);
  if (key === 'delete /forms/:id') return result;
  return ctx.formloom.forms.get(ctx.principal, param(ctx, 'id')).then((form) => tagged(key, result, form as unknown as Record<string, unknown>, memo, json));
}

function tagged(key: string, result: RouteResult, form: Record<string, unknown>, memo: EtagMemo, json: FormJsonMemo): RouteResult {
  // The read's JSON is kept per cached revision (form-json.ts); writes answer fresh presentations.
  const serialized = key === 'get /forms/:id' ? json.serialize(form) : null;
  return { ...result, headers: { ...result.headers, ETag: formEtag(form, memo) }, ...(serialized ? { serialized } : {}) };
}

/** The forms area's routes with ETags on reads and `If-Match` on writes, documented as such. */
export function withFormEtags(routes: RouteSpec[]): RouteSpec[] {
  const memo: EtagMemo = new WeakMap();
  const json = new FormJsonMemo();
  return routes.map((r) => {
    const key = `${r.method} ${r.path}`;
    const conditional = CONDITIONAL.has(key);
    if (!conditional && key !== 'get /forms/:id') return r;
    const handler = r.handler;
    return {
      ...r,
      ...(conditional ? { headers: [...(r.headers ?? []), IF_MATCH], errors: [...(r.errors ?? []), 412] } : {}),
      success: key === 'delete /forms/:id' ? r.success : { ...r.success, headers: { ...r.success.headers, ETag: ETAG_DESCRIPTION } },
      handler: async (ctx: RouteContext) => {
        if (conditional) await checkIfMatch(ctx, memo);
        return withEtagHeader(ctx, key, await handler(ctx), memo, json);
      },
    };
  });
}
