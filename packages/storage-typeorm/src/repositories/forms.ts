import {
  type FormListQuery,
  FormloomError,
  type FormRecord,
  type FormRepository,
  type Page,
} from '@formloom/core';
import { type FormRow, FormEntity, formFromRow, formToRow } from '../tables/forms';
import { ResponseEntity } from '../tables/responses';
import type { Scope } from '../scope';
import { formsWithRetention } from './response-retention';
import { type Dialect, isUniqueViolation, Params } from '../sql/dialect';
import { insertIgnoring, tableOf, updateReturning } from '../sql/statements';
import { Coalescer } from '../sql/coalesce';
import { lockIndexing } from './response-indexer';

export const formStatements = (d: Dialect) => {
  const forms = tableOf(d, FormEntity);
  return {
    table: forms,
    insert: insertIgnoring(d, FormEntity),
    byId: `SELECT * FROM ${forms} WHERE id = ${d.p(1)}`,
    bySlug: `SELECT * FROM ${forms} WHERE slug = ${d.p(1)}`,
    addResponses: `UPDATE ${forms} SET response_count = response_count + ${d.p(1)} WHERE id = ${d.p(2)} RETURNING response_count`,
    /**
     * The limit's check and the increment in one statement. PostgreSQL (READ COMMITTED) re-reads the row
     * after a concurrent writer commits before it tests the WHERE again; SQLite runs one writer at a time.
     */
    claimSlot:
      `UPDATE ${forms} SET response_count = response_count + 1 ` +
      `WHERE id = ${d.p(1)} AND response_count < ${d.p(2)} RETURNING response_count`,
    /**
     * Questions, versions, responses and webhook deliveries (with their attempts) go with the form by
     * ON DELETE CASCADE, in the same statement (SQLite: TypeORM's driver turns foreign keys on).
     */
    delete: `DELETE FROM ${forms} WHERE id = ${d.p(1)}`,
    /** The form's responses, locked in id order (the order their writers lock them in), counted in one row. */
    lockResponses: `SELECT COUNT(*) AS n FROM (SELECT id FROM ${tableOf(d, ResponseEntity)} WHERE form_id = ${d.p(1)} ORDER BY id FOR UPDATE) AS locked`,
  };
};

/** The forms list's order, and its reverse (the same index read backwards). */
const FORWARD = 'updated_at DESC, id ASC';
const BACKWARD = 'updated_at ASC, id DESC';
/** Below this offset a page is read forwards, alongside the count; past it the shorter way from either end. */
const DEEP_OFFSET = 200;

/** `!` escapes LIKE's wildcards: unlike a backslash it means the same in SQLite and PostgreSQL literals. */
const likeContains = (s: string) => `%${s.replace(/[!%_]/g, (c) => `!${c}`)}%`;

export class SqlFormRepository implements FormRepository {
  constructor(private readonly scope: Scope) {}

  listWithRetention(afterId: string | null, limit: number): Promise<FormRecord[]> {
    return formsWithRetention(this.scope, afterId, limit);
  }

  private get st() {
    return this.scope.statements(formStatements);
  }

  async insert(form: FormRecord): Promise<void> {
    const { sql, values } = this.st.insert;
    if ((await this.scope.db.run(sql, values(formToRow(form)))) === 0) {
      throw new FormloomError('CONFLICT', 'A form with this id or slug already exists', { field: 'slug' });
    }
  }

  async findById(id: string): Promise<FormRecord | null> {
    const [row] = await this.scope.db.all<FormRow>(this.st.byId, [id]);
    return row ? formFromRow(row) : null;
  }

  async findBySlug(slug: string): Promise<FormRecord | null> {
    const [row] = await this.scope.db.all<FormRow>(this.st.bySlug, [slug]);
    return row ? formFromRow(row) : null;
  }

  async list(query: FormListQuery): Promise<Page<FormRecord>> {
    const { db, d } = this.scope;
    const st = this.st;
    const params = new Params(d);
    const bind = params.bind;
    const personal = `(owner_id = ${bind(query.ownerId)} AND team_id IS NULL)`;
    const where = [query.teamIds.length > 0 ? `(${personal} OR team_id IN (${params.list(query.teamIds)}))` : personal];
    if (query.search) where.push(`title_search LIKE ${bind(likeContains(query.search.toLowerCase()))} ESCAPE '!'`);
    if (query.teamId !== undefined) where.push(`team_id = ${bind(query.teamId)}`);
    if (query.published !== undefined) where.push(`published = ${bind(query.published)}`);
    const filter = `FROM ${st.table} WHERE ${where.join(' AND ')}`;
    const filterValues = [...params.values];
    // The page's ids first, then its rows: for an owner's personal forms (or one team's), the ids come
    // from IDX_forms_owner_list (IDX_forms_team_list) alone, an index in this very order (migration
    // 1738500000100), so a deep page walks index entries instead of sorting the owner's forms. Several
    // teams at once still sort (id, updated_at) only, far cheaper than whole rows with their options.
    const n = filterValues.length;
    const pageSql = (order: string) => `SELECT id ${filter} ORDER BY ${order} LIMIT ${d.p(n + 1)} OFFSET ${d.p(n + 2)}`;
    const limit = Math.max(0, Math.floor(query.limit));
    const offset = Math.max(0, Math.floor(query.offset));
    const known = query.total;
    const countOf = async () =>
      known !== undefined ? known : Number((await db.all<{ n: number | string }>(`SELECT COUNT(*) AS n ${filter}`, filterValues))[0]!.n);
    let ids: Array<{ id: string }>;
    let total: number;
    if (offset < DEEP_OFFSET) {
      [ids, total] = await Promise.all([db.all<{ id: string }>(pageSql(FORWARD), [...filterValues, limit, offset]), countOf()]);
    } else {
      // A page past the middle is walked to from the end, the index read backwards: the last page costs
      // what the first does (docs/benchmarks.md, "The forms list"). That needs the total first.
      total = await countOf();
      const rest = total - offset;
      if (rest <= 0) ids = [];
      else if (offset <= total / 2) ids = await db.all<{ id: string }>(pageSql(FORWARD), [...filterValues, limit, offset]);
      else {
        const take = Math.min(limit, rest);
        ids = (await db.all<{ id: string }>(pageSql(BACKWARD), [...filterValues, take, rest - take])).reverse();
      }
    }
    if (!ids.length) return { items: [], total };
    const rowsParams = new Params(d);
    const rows = await db.all<FormRow>(
      `SELECT * FROM ${st.table} WHERE id IN (${rowsParams.list(ids.map((r) => r.id))})`,
      rowsParams.values,
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    const items = ids.map((r) => byId.get(r.id)).filter((r): r is FormRow => !!r);
    return { items: items.map(formFromRow), total };
  }

  async update(id: string, patch: Partial<Omit<FormRecord, 'id'>>): Promise<FormRecord | null> {
    const { id: _id, ...set } = formToRow(patch);
    const statement = updateReturning(this.scope.d, FormEntity, set, 'id', id);
    if (!statement) return this.findById(id);
    try {
      const [row] = await this.scope.db.all<FormRow>(statement.sql, statement.values);
      return row ? formFromRow(row) : null;
    } catch (err) {
      if (isUniqueViolation(err)) throw new FormloomError('CONFLICT', 'A form with this slug already exists', { field: 'slug' });
      throw err;
    }
  }

  // In a transaction, counts added together (a group commit's submissions) go in one update a form.
  private counts: Coalescer<{ id: string; delta: number }, number | null> | null = null;

  async addResponseCount(id: string, delta: number): Promise<number | null> {
    if (!this.scope.beforeCommit) return this.addCount(id, delta);
    this.counts ??= new Coalescer(
      async (calls) => {
        // The deltas of each form summed; every caller of a form gets its count after them all.
        const sums = new Map<string, number>();
        for (const c of calls) sums.set(c.id, (sums.get(c.id) ?? 0) + c.delta);
        const after = new Map<string, number | null>();
        await Promise.all([...sums].map(async ([form, sum]) => after.set(form, await this.addCount(form, sum))));
        return calls.map((c) => after.get(c.id) ?? null);
      },
      (c) => this.addCount(c.id, c.delta),
    );
    return this.counts.call({ id, delta });
  }

  private async addCount(id: string, delta: number): Promise<number | null> {
    const [row] = await this.scope.db.all<{ response_count: number }>(this.st.addResponses, [delta, id]);
    return row ? Number(row.response_count) : null;
  }

  async claimResponseSlot(id: string, limit: number): Promise<number | null> {
    const [row] = await this.scope.db.all<{ response_count: number }>(this.st.claimSlot, [id, limit]);
    return row ? Number(row.response_count) : null;
  }

  /**
   * On PostgreSQL the form's indexer batches are waited for and held off first (`lockIndexing`), then the form
   * row and its rows go (docs/decisions.md, "Lock order of a form's delete"): a batch holds queue rows and
   * responses, then inserts day, value and pair rows whose foreign key check takes the form row, so a delete that
   * held the form row while its cascade waited for the batch's rows closed a cycle (40P01).
   */
  async delete(id: string): Promise<boolean> {
    if (this.scope.d.kind !== 'postgres') return (await this.scope.db.run(this.st.delete, [id])) > 0;
    return this.scope.atomic(async (db) => {
      await lockIndexing(db, this.scope.d, id);
      await db.all(this.st.lockResponses, [id]);
      return (await db.run(this.st.delete, [id])) > 0;
    });
  }
}
