import type { MigrationInterface, QueryRunner } from 'typeorm';
import { Table } from 'typeorm';

/*
 * The analytics rollup (docs/responses-and-webhooks.md, "Analytics"): one row per form and UTC day of
 * `submitted_at`, created and filled from the responses already stored, in the migration's transaction.
 * The fill is the recount `formloom analytics rebuild` ran when this was released. Also `question_days`,
 * the per-question drop-off counters, filled by a keyset scan (their answers are JSON, parsed in
 * JavaScript). Frozen once released, like the others: everything it runs is written out in this file.
 */
export class FormloomResponseDays1737100000000 implements MigrationInterface {
  name = 'FormloomResponseDays1737100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const counter = (name: string) => ({ name, type: 'bigint', default: 0 });
    await queryRunner.createTable(
      new Table({
        name: 'response_days',
        columns: [
          { name: 'form_id', type: 'varchar', isPrimary: true },
          { name: 'day', type: 'varchar', isPrimary: true },
          counter('total'),
          counter('completed'),
          counter('seconds_sum'),
          counter('seconds_count'),
        ],
        foreignKeys: [
          { name: 'FK_response_days_form_id', columnNames: ['form_id'], referencedTableName: 'forms', referencedColumnNames: ['id'], onDelete: 'CASCADE' },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'question_days',
        columns: [
          { name: 'form_id', type: 'varchar', isPrimary: true },
          { name: 'day', type: 'varchar', isPrimary: true },
          { name: 'question_id', type: 'varchar', isPrimary: true },
          counter('answered'),
          counter('furthest'),
        ],
        foreignKeys: [
          { name: 'FK_question_days_form_id', columnNames: ['form_id'], referencedTableName: 'forms', referencedColumnNames: ['id'], onDelete: 'CASCADE' },
        ],
      }),
    );
    const seconds = 'CASE WHEN completed_at IS NOT NULL THEN completion_seconds END';
    const table = (name: string) => queryRunner.connection.driver.escape(name);
    const schema = (queryRunner.connection.options as { schema?: string }).schema;
    const qualified = (name: string) => (schema ? `${table(schema)}.${table(name)}` : table(name));
    await queryRunner.query(
      `INSERT INTO ${qualified('response_days')} (form_id, day, total, completed, seconds_sum, seconds_count) ` +
        `SELECT form_id, substr(submitted_at, 1, 10), COUNT(*), COUNT(completed_at), COALESCE(SUM(${seconds}), 0), COUNT(${seconds}) ` +
        `FROM ${qualified('responses')} GROUP BY form_id, substr(submitted_at, 1, 10)`,
    );
    await fillQuestionDays1737100(queryRunner, qualified);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('question_days');
    await queryRunner.dropTable('response_days');
  }
}

/*
 * Frozen copies of what this migration needs (do not import live repository code here: a later change
 * to it must not change what this migration does to a database that has not run it yet). They are the
 * per-question counters' rules as they stood when the migration was released (repositories/question-days.ts
 * and response-days.ts at 1737100000000): a keyset scan of `responses` in pages of 2,000, each response's
 * answered questions and its furthest one by the questions' `sort_order`, added by upsert-increments.
 */

/** A value that counts as an answer. */
const answered1737100 = (v: unknown) =>
  v !== null && v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0) &&
  !(typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).length === 0);

/** The question ids a response's answers (JSON text or parsed) answer, and the furthest of them by `order`. */
function answeredOf1737100(answers: unknown, order: Map<string, number>): { answered: string[]; furthest: string | null } {
  let list: unknown = answers;
  if (typeof answers === 'string') {
    try {
      list = JSON.parse(answers);
    } catch {
      list = [];
    }
  }
  const answered = new Set<string>();
  if (Array.isArray(list)) {
    for (const a of list as Array<{ question_id?: unknown; value?: unknown }>) {
      if (a && typeof a.question_id === 'string' && answered1737100(a.value)) answered.add(a.question_id);
    }
  }
  let furthest: string | null = null;
  for (const q of answered) {
    const pos = order.get(q);
    if (pos !== undefined && (furthest === null || pos > order.get(furthest)!)) furthest = q;
  }
  return { answered: [...answered], furthest };
}

/** Fills `question_days` from every stored response (the table is new and empty). */
async function fillQuestionDays1737100(queryRunner: QueryRunner, qualified: (name: string) => string): Promise<void> {
  const postgres = queryRunner.connection.driver.options.type === 'postgres';
  const p = (i: number) => (postgres ? `$${i}` : `?${i}`);
  const days = qualified('question_days');
  const bump =
    `INSERT INTO ${days} (form_id, day, question_id, answered, furthest) VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}) ` +
    `ON CONFLICT (form_id, day, question_id) DO UPDATE SET answered = ${days}.answered + excluded.answered, ` +
    `furthest = ${days}.furthest + excluded.furthest`;
  const orders = new Map<string, Map<string, number>>();
  const orderOf = async (formId: string) => {
    let order = orders.get(formId);
    if (!order) {
      const rows: Array<{ id: string; sort_order: number | string }> = await queryRunner.query(
        `SELECT id, sort_order FROM ${qualified('questions')} WHERE form_id = ${p(1)}`,
        [formId],
      );
      order = new Map(rows.map((r) => [r.id, Number(r.sort_order)]));
      orders.set(formId, order);
    }
    return order;
  };
  let after: { form_id: string; id: string } | null = null;
  for (;;) {
    const rows: Array<{ form_id: string; id: string; submitted_at: string; answers: unknown }> = after
      ? await queryRunner.query(
          `SELECT form_id, id, submitted_at, answers FROM ${qualified('responses')} ` +
            `WHERE form_id > ${p(1)} OR (form_id = ${p(1)} AND id > ${p(2)}) ORDER BY form_id, id LIMIT 2000`,
          [after.form_id, after.id],
        )
      : await queryRunner.query(`SELECT form_id, id, submitted_at, answers FROM ${qualified('responses')} ORDER BY form_id, id LIMIT 2000`);
    if (rows.length === 0) return;
    /** `form \0 day \0 question` -> counters, applied in key order (a fixed lock order). */
    const deltas = new Map<string, { answered: number; furthest: number }>();
    const add = (key: string, field: 'answered' | 'furthest') => {
      const e = deltas.get(key) ?? { answered: 0, furthest: 0 };
      e[field] += 1;
      deltas.set(key, e);
    };
    for (const r of rows) {
      const day = r.submitted_at.slice(0, 10);
      const { answered, furthest } = answeredOf1737100(r.answers, await orderOf(r.form_id));
      for (const q of answered) add(`${r.form_id}\u0000${day}\u0000${q}`, 'answered');
      if (furthest !== null) add(`${r.form_id}\u0000${day}\u0000${furthest}`, 'furthest');
    }
    for (const key of [...deltas.keys()].sort()) {
      const e = deltas.get(key)!;
      const [form, day, question] = key.split('\u0000');
      await queryRunner.query(bump, [form, day, question, e.answered, e.furthest]);
    }
    const last = rows[rows.length - 1]!;
    after = { form_id: last.form_id, id: last.id };
  }
}
