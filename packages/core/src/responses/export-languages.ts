import type { FormRecord, Question, Version } from '../domain/types';
import { answerLabel, type ExportColumn, type ExportRow } from './codecs/export-table';
import { type AnswerWords, answerWordsIn } from './codecs/export-words';

/*
 * The XLSX and JSON exports' labels in each response's language (docs/responses-and-webhooks.md, "Export
 * formats"; docs/languages.md). A response records the language it was given in and the version it answered;
 * its yes/no words and choices are written as that version's page showed them in that language. A response
 * in the form's default language (or without one) keeps the labels `exportRows` gave it. The raw values are
 * never touched.
 */

/** Reads a version by id: the storage's `versions.findById`, passed in so this file does no I/O of its own. */
type FindVersion = (id: string) => Promise<Version | null>;

/**
 * Relabels export pages' rows. Versions are read once each (a page names few), and the words of each
 * (version, language) are worked out once: memory stays at the versions a form has, whatever its size.
 */
export class ExportLanguages {
  private readonly snapshots = new Map<string, Promise<Record<string, unknown>>>();
  private readonly words = new Map<string, AnswerWords | null>();
  /** Per column: an answer's column holds its question's id ('' for a group's sub-field, whose choices are not translated); others undefined. */
  private readonly questionOf: Array<string | undefined>;

  constructor(
    private readonly form: FormRecord,
    private readonly questions: readonly Question[],
    columns: readonly ExportColumn[],
    private readonly findVersion: FindVersion,
  ) {
    this.questionOf = columns.map((c) => (c.kind !== 'answer' ? undefined : c.sub_field === undefined ? c.question_id : ''));
  }

  /** The snapshot a response answered: its version's, else the published one's, else the form as it is now. */
  private snapshot(versionId: string | null | undefined): Promise<Record<string, unknown>> {
    const id = versionId || this.form.published_version_id || '';
    let s = this.snapshots.get(id);
    if (!s) {
      const current = { ...this.form.options, questions: this.questions };
      s = (id ? this.findVersion(id) : Promise.resolve(null)).then((v) => (v && v.form_id === this.form.id ? v.snapshot : current));
      this.snapshots.set(id, s);
    }
    return s;
  }

  /** The words of a language other than the snapshot's default one; null for its default language. */
  private async wordsOf(row: ExportRow): Promise<AnswerWords | null> {
    const language = row.language!;
    const key = `${row.version_id ?? ''}\u0000${language}`;
    if (this.words.has(key)) return this.words.get(key)!;
    const snapshot = await this.snapshot(row.version_id);
    const base = typeof snapshot.language === 'string' ? snapshot.language : null;
    const words = base !== null && base.toLowerCase() === language.toLowerCase() ? null : answerWordsIn(snapshot, language);
    this.words.set(key, words);
    return words;
  }

  /** Writes the labels of the rows given in another language than the form's default one. */
  async relabel(rows: ExportRow[]): Promise<void> {
    for (const row of rows) {
      if (!row.language) continue;
      const words = await this.wordsOf(row);
      if (!words) continue;
      for (let i = 3; i < row.values.length; i++) {
        const q = this.questionOf[i];
        if (q === undefined) continue;
        row.labels[i] = answerLabel(row.values[i], words, q ? words.choices.get(q) : undefined);
      }
    }
  }
}
