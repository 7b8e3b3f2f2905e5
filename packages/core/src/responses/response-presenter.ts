import type { z } from 'zod';
import type { ResponseRecord } from '../domain/types';
import type { answerOut, respondentResponseOut, responseOut } from './output-schemas';

/** The Response resource (docs/responses-and-webhooks.md): the respondent's view plus the version's id. */
export function presentResponse(r: ResponseRecord): z.infer<typeof responseOut> {
  return { ...presentResponseToRespondent(r), version_id: r.version_id, fused_from: r.metadata.fused_from ?? null, fused_to: r.metadata.fused_to ?? null };
}

/** The metadata as presented: the Fuse links are fields of their own (`fused_from`, `fused_to`). */
function metadataOf(m: ResponseRecord['metadata']): ResponseRecord['metadata'] {
  if (!m.fused_from && !m.fused_to) return m;
  const { fused_from: _from, fused_to: _to, ...rest } = m;
  return rest;
}

/**
 * A response as its respondent gets it back from the public endpoints (docs/security.md "What public
 * endpoints reveal"): what they sent, when, and their own quiz result; no internal ids.
 */
export function presentResponseToRespondent(r: ResponseRecord): z.infer<typeof respondentResponseOut> {
  return {
    id: r.id,
    form_id: r.form_id,
    visitor_id: r.visitor_id,
    submitted_at: r.submitted_at,
    completed_at: r.completed_at,
    metadata: metadataOf(r.metadata),
    // Stored only after answer-validation.ts checked each value against its question.
    answers: r.answers as z.infer<typeof answerOut>[],
    quiz_results: r.quiz_results,
    version: r.version,
    language: r.language ?? null,
  };
}
