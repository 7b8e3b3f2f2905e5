import type { Question } from '../../domain/types';
import type { Storage } from '../../ports/storage';
import type { CsvLine, CsvLineSource } from '../../ports/storage/responses';
import { type CsvLayout, csvLayout } from './csv';
import { withPinnedComponents } from '../../forms/composite-components';

/*
 * Each response's CSV export line, computed when the response is written and stored with it
 * (docs/responses-and-webhooks.md, "How the CSV export is fast"). Formatting 100,000 responses at export
 * time kept the export at 1.7x the database's own CLI; writing one line per submission costs microseconds,
 * at a moment when the answers are already objects in memory. The line is written by the same `csvLayout`
 * the export uses, for the columns of the version answered; the export uses it only when its own columns
 * have the same key, and formats the response from its answers otherwise.
 */

/** The hidden fields a form (or a version's snapshot) declares, as the export's columns take them. */
export function declaredHiddenFields(declared: unknown): string[] {
  return Array.isArray(declared) ? declared.filter((n): n is string => typeof n === 'string') : [];
}

/** The line of `response` in the columns of `layout`, its hidden field values among them. */
const lineOf = (layout: CsvLayout, { id, submitted_at, completed_at, answers, metadata }: CsvLineSource) =>
  layout.row({ id, submitted_at, completed_at, answers, hidden: metadata.hidden ?? null });

/** Layouts per published snapshot, kept as long as the snapshot itself is (the read cache holds it). */
export class CsvLines {
  private readonly layouts = new WeakMap<object, CsvLayout>();

  /** The line of `response` for the columns of `snapshot` (its questions, then its hidden fields). */
  of(snapshot: { questions: Question[]; hidden_fields?: unknown }, response: CsvLineSource): CsvLine {
    let layout = this.layouts.get(snapshot);
    if (!layout) {
      layout = csvLayout(snapshot.questions, declaredHiddenFields(snapshot.hidden_fields));
      this.layouts.set(snapshot, layout);
    }
    return { layout: layout.key, line: lineOf(layout, response) };
  }
}

/**
 * Writes the export line of each of a form's responses for the columns its export has now (`formloom
 * export lines`): for responses stored before lines existed, or before the form's questions changed. Null
 * for an unknown form; else how many lines were written.
 */
export async function writeExportLines(storage: Storage, formId: string): Promise<number | null> {
  const form = await storage.forms.findById(formId);
  if (!form) return null;
  const questions = await withPinnedComponents(storage, form, await storage.questions.listByForm(formId));
  const layout = csvLayout(questions, declaredHiddenFields(form.options.hidden_fields));
  return storage.responses.writeCsvLines(formId, layout.key, (response) => lineOf(layout, response));
}
