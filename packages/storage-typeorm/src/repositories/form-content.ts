import {
  FormloomError,
  type Question,
  type QuestionRepository,
  type Version,
  type VersionRepository,
} from '@formloom/core';
import { type QuestionRow, QuestionEntity, type VersionRow, VersionEntity, questionFromRow, questionToRow, versionFromRow, versionToRow } from '../tables/form-content';
import type { Scope } from '../scope';
import type { Dialect } from '../sql/dialect';
import { insertIgnoring, insertMany, tableOf } from '../sql/statements';

export const formContentStatements = (d: Dialect) => {
  const questions = tableOf(d, QuestionEntity);
  const versions = tableOf(d, VersionEntity);
  return {
    questionsOf: `SELECT * FROM ${questions} WHERE form_id = ${d.p(1)} ORDER BY sort_order, id`,
    deleteQuestionsOf: `DELETE FROM ${questions} WHERE form_id = ${d.p(1)}`,
    insertVersion: insertIgnoring(d, VersionEntity),
    versionsOf: `SELECT * FROM ${versions} WHERE form_id = ${d.p(1)} ORDER BY version DESC`,
    versionById: `SELECT * FROM ${versions} WHERE id = ${d.p(1)}`,
    latestVersion: `SELECT * FROM ${versions} WHERE form_id = ${d.p(1)} ORDER BY version DESC LIMIT 1`,
  };
};

/** Rows per INSERT: 10 columns each stays far below both databases' bound-parameter limits. */
const BATCH = 200;

export class SqlQuestionRepository implements QuestionRepository {
  constructor(private readonly scope: Scope) {}

  private get st() {
    return this.scope.statements(formContentStatements);
  }

  async listByForm(formId: string): Promise<Question[]> {
    const rows = await this.scope.db.all<QuestionRow>(this.st.questionsOf, [formId]);
    return rows.map(questionFromRow);
  }

  /**
   * Deleting the form's rows and inserting the new set leaves exactly the state the port describes
   * (kept ids updated, new ones inserted, others gone) in two statements. Always atomic: from the root
   * storage it opens its own transaction.
   */
  async replaceForForm(formId: string, questions: Question[]): Promise<void> {
    const ids = new Set<string>();
    for (const q of questions) {
      if (ids.has(q.id)) throw new FormloomError('BAD_REQUEST', `Question id ${q.id} appears twice`);
      ids.add(q.id);
    }
    const rows = questions.map((q) => questionToRow(formId, q));
    await this.scope.atomic(async (db) => {
      await db.run(this.st.deleteQuestionsOf, [formId]);
      for (let i = 0; i < rows.length; i += BATCH) {
        const insert = insertMany(this.scope.d, QuestionEntity, rows.slice(i, i + BATCH));
        await db.run(insert.sql, insert.values);
      }
    });
  }
}

/** Versions kept in memory per storage (least recently used dropped first): a version never changes once written. */
const VERSION_CACHE_SIZE = 512;

/** One storage's cache of versions read by id, shared by its transactions (through `Scope.statements`). */
const versionCache = (): Map<string, Version> => new Map();

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as Record<string, unknown>)) deepFreeze(v);
  }
  return value;
}

export class SqlVersionRepository implements VersionRepository {
  constructor(private readonly scope: Scope) {}

  private get st() {
    return this.scope.statements(formContentStatements);
  }

  async insert(version: Version): Promise<void> {
    const { sql, values } = this.st.insertVersion;
    if ((await this.scope.db.run(sql, values(versionToRow(version)))) === 0) {
      throw new FormloomError('CONFLICT', `Version ${version.version} of form ${version.form_id} already exists`);
    }
  }

  async listByForm(formId: string): Promise<Version[]> {
    const rows = await this.scope.db.all<VersionRow>(this.st.versionsOf, [formId]);
    return rows.map(versionFromRow);
  }

  /**
   * A version is never rewritten once stored: each submission reads the published one, so it comes
   * from memory after the first read, frozen so that no caller can change what the next one gets.
   */
  async findById(id: string): Promise<Version | null> {
    const cache = this.scope.statements(versionCache);
    const cached = cache.get(id);
    if (cached) {
      cache.delete(id);
      cache.set(id, cached);
      return cached;
    }
    const [row] = await this.scope.db.all<VersionRow>(this.st.versionById, [id]);
    if (!row) return null;
    const version = deepFreeze(versionFromRow(row));
    cache.set(id, version);
    if (cache.size > VERSION_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    return version;
  }

  async latest(formId: string): Promise<Version | null> {
    const [row] = await this.scope.db.all<VersionRow>(this.st.latestVersion, [formId]);
    return row ? versionFromRow(row) : null;
  }
}
