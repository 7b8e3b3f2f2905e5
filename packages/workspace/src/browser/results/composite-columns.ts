import type { Api } from '../../data/client';
import { request } from '../../data/auth';
import type { Form, Question } from '../../data/forms';

/*
 * A composite's results are one table (docs/logic.md "Composite"): its answer holds each component question's
 * answer under `<form id>/<question id>`, shown as one sub-column per component question. The draft's composite
 * names its forms only; the live version's components (the public read) give the columns' titles.
 */

interface PublicComponent {
  form_id: string;
  title: string;
  questions: Array<{ id: string; title: string }>;
}

/** The form's questions, each composite with its live components (`properties.components`) when it is published. */
export async function withComponents(api: Api, form: Form): Promise<Question[]> {
  if (!form.published || !form.questions.some((q) => q.type === 'composite')) return form.questions;
  try {
    const live = await request<{ snapshot: { questions: Array<{ id: string; properties?: { components?: PublicComponent[] } }> } }>(api, 'GET', `/public/forms/${encodeURIComponent(form.slug)}`);
    const byId = new Map(live.snapshot.questions.map((q) => [q.id, q.properties?.components]));
    return form.questions.map((q) => {
      const components = q.type === 'composite' ? byId.get(q.id) : undefined;
      return components?.length ? ({ ...q, properties: { ...q.properties, components } } as Question) : q;
    });
  } catch {
    // Without the live version the composite shows as one column.
    return form.questions;
  }
}

/** A composite's sub-columns: one per component question, keyed as its answer is. */
export function componentColumns(q: Question): Array<{ key: string; label: string }> {
  const components = (q.properties as { components?: PublicComponent[] } | undefined)?.components;
  if (q.type !== 'composite' || !Array.isArray(components)) return [];
  return components.flatMap((c) => c.questions.map((cq) => ({ key: `${c.form_id}/${cq.id}`, label: `${c.title}: ${cq.title}` })));
}
