import type { FunnelCounts } from '@formloom/core';
import { ResponseFunnelEntity } from '../tables/response-answers';
import type { Db } from '../sql/db';
import type { Dialect } from '../sql/dialect';
import { tableOf, writeRows } from '../sql/statements';
import { answeredOf } from './question-days';

/*
 * The funnel's counters (docs/responses-and-webhooks.md, "Funnel"): per form, version and step, kept by
 * the same signed upsert-increments as the other rollups, in the same transaction as each response write
 * (response-days.ts, applyToRollup). Steps: `$views` and `$starts` (the respondent's page reports them),
 * `$responses`, `$completed`, `q:<question>` (responses whose furthest answered question it is, by the
 * questions' positions when written) and `$s:<seconds>` (completion seconds rounded to 3 significant
 * digits, so the median is read from at most a few thousand rows and is within 0.5%).
 */

type Num = number | string;

/** The columns of a response the funnel depends on. */
export interface FunnelKey {
  version?: Num | null;
  completed_at: string | null;
  completion_seconds: Num | null;
  answers: unknown;
}

/** Deltas keyed by `version \u0000 step`. */
export type FunnelDeltas = Map<string, number>;

const rounded = (s: number) => Number(s.toPrecision(3));

export function addFunnelDeltas(into: FunnelDeltas, r: FunnelKey, order: Map<string, number>, sign: 1 | -1): void {
  const version = r.version == null ? 0 : Number(r.version);
  const bump = (step: string) => {
    const key = `${version}\u0000${step}`;
    into.set(key, (into.get(key) ?? 0) + sign);
  };
  bump('$responses');
  const { furthest } = answeredOf(r.answers, order);
  if (furthest !== null) bump(`q:${furthest}`);
  if (r.completed_at !== null) {
    bump('$completed');
    if (r.completion_seconds !== null) bump(`$s:${rounded(Math.max(0, Number(r.completion_seconds)))}`);
  }
}

/** Adds `rows` (`[form, version, step, n]`) to their counters. */
const upsert = (db: Db, d: Dialect, rows: unknown[][]) => {
  const table = tableOf(d, ResponseFunnelEntity);
  return writeRows(db, d, ResponseFunnelEntity, ['form_id', 'version', 'step', 'count'], rows, `ON CONFLICT (form_id, version, step) DO UPDATE SET count = ${table}.count + excluded.count`);
};

/** Applies the deltas in key order (one lock order across transactions), skipping zero ones. */
export async function applyFunnelDeltas(db: Db, d: Dialect, formId: string, deltas: FunnelDeltas): Promise<void> {
  const rows: unknown[][] = [];
  for (const key of [...deltas.keys()].sort()) {
    const n = deltas.get(key)!;
    if (n === 0) continue;
    const [version, step] = key.split('\u0000') as [string, string];
    rows.push([formId, Number(version), step, n]);
  }
  await upsert(db, d, rows);
}

/** Adds views and starts of a version: one upsert each. A form deleted meanwhile is ignored (its counters went with it). */
export async function recordVisits(db: Db, d: Dialect, formId: string, version: number, views: number, starts: number): Promise<void> {
  const rows: unknown[][] = [];
  if (starts) rows.push([formId, version, '$starts', starts]);
  if (views) rows.push([formId, version, '$views', views]);
  if (!rows.length) return;
  await upsert(db, d, rows);
}

/** The counters of one version (0: responses without a version). */
export async function readFunnel(db: Db, d: Dialect, formId: string, version: number): Promise<FunnelCounts> {
  const table = tableOf(d, ResponseFunnelEntity);
  const rows = await db.all<{ step: string; count: Num }>(
    `SELECT step, count FROM ${table} WHERE form_id = ${d.p(1)} AND version = ${d.p(2)} AND count <> 0`,
    [formId, version],
  );
  const out: FunnelCounts = { views: 0, starts: 0, responses: 0, completed: 0, furthest: new Map(), seconds: new Map() };
  for (const r of rows) {
    const n = Number(r.count);
    if (r.step === '$views') out.views = n;
    else if (r.step === '$starts') out.starts = n;
    else if (r.step === '$responses') out.responses = n;
    else if (r.step === '$completed') out.completed = n;
    else if (r.step.startsWith('q:')) out.furthest.set(r.step.slice(2), n);
    else if (r.step.startsWith('$s:')) out.seconds.set(Number(r.step.slice(3)), n);
  }
  return out;
}

/** The versions with counters, newest first (0, responses without a version, left out). */
export async function readFunnelVersions(db: Db, d: Dialect, formId: string): Promise<number[]> {
  const table = tableOf(d, ResponseFunnelEntity);
  const rows = await db.all<{ version: Num }>(`SELECT DISTINCT version FROM ${table} WHERE form_id = ${d.p(1)} AND version > 0 AND count <> 0`, [formId]);
  return rows.map((r) => Number(r.version)).sort((a, b) => b - a);
}

/** Deletes the counters computed from responses (views and starts stay: they are not in the responses). */
export async function deleteFunnelCounts(db: Db, d: Dialect, formId?: string): Promise<void> {
  const table = tableOf(d, ResponseFunnelEntity);
  const where = `step NOT IN ('$views', '$starts')${formId === undefined ? '' : ` AND form_id = ${d.p(1)}`}`;
  await db.run(`DELETE FROM ${table} WHERE ${where}`, formId === undefined ? [] : [formId]);
}
