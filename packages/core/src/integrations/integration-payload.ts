import type { FormRecord, Question, ResponseRecord } from '../domain/types';
import { formatRecallValue } from '../logic/recall';
import type { IntegrationDeliveryEvent, IntegrationFieldMapping } from '../ports/storage/integrations';
import type { IntegrationAnswer, IntegrationPayload } from './integration-types';

/*
 * What an integration receives of a response (docs/integrations.md, "What a delivery carries"): the mapped
 * questions in order, each raw and in words, and the standard JSON payload made of them.
 */

/** The mapped questions of `questions` (null mapping: every question, named by its title), names made unique. */
export function mappedQuestions(questions: readonly Question[], mapping: readonly IntegrationFieldMapping[] | null): Array<{ q: Question; name: string }> {
  const byId = new Map(questions.map((q) => [q.id, q]));
  const chosen = mapping
    ? mapping.flatMap((m) => (byId.has(m.question_id) ? [{ q: byId.get(m.question_id)!, name: m.name }] : []))
    : questions.map((q) => ({ q, name: String(q.title ?? '').trim() || q.id }));
  const used = new Map<string, number>();
  return chosen.map(({ q, name }) => {
    const n = (used.get(name) ?? 0) + 1;
    used.set(name, n);
    return { q, name: n > 1 ? `${name} (${n})` : name };
  });
}

/** The answers of a response to the mapped questions (file answers already signed by the caller). */
export function integrationAnswers(questions: readonly Question[], mapping: readonly IntegrationFieldMapping[] | null, answers: ResponseRecord['answers']): IntegrationAnswer[] {
  const byId = new Map(answers.map((a) => [a.question_id, a.value]));
  return mappedQuestions(questions, mapping).map(({ q, name }) => {
    const value = byId.get(q.id) ?? null;
    const url = value && typeof value === 'object' && !Array.isArray(value) ? (value as { url?: unknown }).url : undefined;
    return {
      question_id: q.id,
      name,
      title: String(q.title ?? ''),
      type: q.type,
      value,
      text: formatRecallValue(value),
      ...(q.type === 'file_upload' && typeof url === 'string' ? { file_url: url } : {}),
    };
  });
}

/** A made-up answer per question for "Send test" on a form without responses yet. */
export function exampleAnswers(questions: readonly Question[]): ResponseRecord['answers'] {
  const props = (q: Question) => (q.properties ?? {}) as { choices?: Array<{ label?: string }> };
  const example = (q: Question): unknown => {
    switch (q.type) {
      case 'yes_no':
        return true;
      case 'number':
      case 'rating':
      case 'opinion_scale':
        return 5;
      case 'email':
        return 'ada@example.com';
      case 'date':
        return '2026-01-15';
      case 'url':
        return 'https://example.com';
      case 'multiple_choice':
      case 'dropdown':
        return props(q).choices?.[0]?.label ?? 'An option';
      case 'file_upload':
        return null;
      default:
        return 'An example answer';
    }
  };
  return questions.map((q) => ({ question_id: q.id, value: example(q) })).filter((a) => a.value !== null) as ResponseRecord['answers'];
}

export function integrationPayload(p: {
  event: IntegrationDeliveryEvent;
  deliveryId: string;
  form: Pick<FormRecord, 'id' | 'title'>;
  response: Pick<ResponseRecord, 'id' | 'submitted_at' | 'completed_at' | 'metadata'>;
  answers: IntegrationAnswer[];
  responseUrl: string;
}): IntegrationPayload {
  const hidden = p.response.metadata?.hidden;
  return {
    event: p.event,
    delivery_id: p.deliveryId,
    form_id: p.form.id,
    form_title: p.form.title,
    response_id: p.response.id,
    submitted_at: p.response.submitted_at,
    completed_at: p.response.completed_at,
    answers: Object.fromEntries(p.answers.map((a) => [a.name, a.text])),
    fields: p.answers,
    ...(hidden && Object.keys(hidden).length ? { hidden } : {}),
    response_url: p.responseUrl,
    ...(p.event === 'integration.test' ? { test: true } : {}),
  };
}
