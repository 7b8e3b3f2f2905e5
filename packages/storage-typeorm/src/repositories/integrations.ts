import {
  FormloomError,
  type IntegrationDeliveryPatch,
  type IntegrationDeliveryRecord,
  type IntegrationPatch,
  type IntegrationRecord,
  type IntegrationRepository,
} from '@formloom/core';
import {
  IntegrationDeliveryEntity, type IntegrationDeliveryRow, IntegrationEntity, type IntegrationRow,
  integrationDeliveryFromRow, integrationDeliveryToRow, integrationFromRow, integrationToRow,
} from '../tables/integrations';
import type { Scope } from '../scope';
import { type Dialect, Params } from '../sql/dialect';
import { insertIgnoring, tableOf } from '../sql/statements';
import type { Row } from '../sql/db';
import { Coalescer, insertCoalescer, sqlOf, updateFromRows } from '../sql/coalesce';

export const integrationStatements = (d: Dialect) => {
  const integrations = tableOf(d, IntegrationEntity);
  const deliveries = tableOf(d, IntegrationDeliveryEntity);
  return {
    integrations,
    deliveries,
    insert: insertIgnoring(d, IntegrationEntity),
    byId: `SELECT * FROM ${integrations} WHERE id = ${d.p(1)}`,
    byForm: `SELECT * FROM ${integrations} WHERE form_id = ${d.p(1)} ORDER BY created_at, id`,
    // Deliveries first: SQLite enforces the cascade only with foreign keys on; deleting them here never depends on it.
    deleteDeliveries: `DELETE FROM ${deliveries} WHERE integration_id = ${d.p(1)}`,
    delete: `DELETE FROM ${integrations} WHERE id = ${d.p(1)}`,
    insertDelivery: insertIgnoring(d, IntegrationDeliveryEntity),
    deliveryById: `SELECT * FROM ${deliveries} WHERE id = ${d.p(1)}`,
    deliveriesOf: `SELECT * FROM ${deliveries} WHERE integration_id = ${d.p(1)} ORDER BY created_at DESC, id DESC LIMIT ${d.p(2)}`,
    deleteSettled:
      `DELETE FROM ${deliveries} WHERE id IN (SELECT id FROM ${deliveries} WHERE status <> 'pending' AND created_at < ${d.p(1)} LIMIT ${d.p(2)})`,
  };
};

export class SqlIntegrationRepository implements IntegrationRepository {
  constructor(private readonly scope: Scope) {}

  private get st() {
    return this.scope.statements(integrationStatements);
  }

  async insert(record: IntegrationRecord): Promise<void> {
    const n = await this.scope.db.run(this.st.insert.sql, this.st.insert.values(integrationToRow(record)));
    if (n === 0) throw new FormloomError('CONFLICT', `Integration ${record.id} already exists`);
  }

  async findById(id: string): Promise<IntegrationRecord | null> {
    const [row] = await this.scope.db.all<IntegrationRow>(this.st.byId, [id]);
    return row ? integrationFromRow(row) : null;
  }

  async listByForm(formId: string): Promise<IntegrationRecord[]> {
    return (await this.scope.db.all<IntegrationRow>(this.st.byForm, [formId])).map(integrationFromRow);
  }

  // In a transaction, rows sent together go in one statement each kind (sql/coalesce.ts): a submission's
  // deliveries (one per integration) and the worker's settlements, as webhook deliveries do.
  private coalesced: { deliveries: Coalescer<Row, boolean>; updates: Map<string, Coalescer<Row, void>> } | null = null;

  private get together() {
    if (!this.scope.beforeCommit) return null;
    const { d, db } = this.scope;
    return (this.coalesced ??= {
      deliveries: insertCoalescer(d, db, IntegrationDeliveryEntity, (row) => this.insertDeliveryRow(row)),
      updates: new Map(),
    });
  }

  private async set(table: string, id: string, row: Record<string, unknown>): Promise<number> {
    const columns = Object.keys(row).filter((c) => c !== 'id');
    if (!columns.length) return 1;
    const params = new Params(this.scope.d);
    const assignments = columns.map((c) => `"${c}" = ${params.bind(row[c])}`).join(', ');
    return this.scope.db.run(`UPDATE ${table} SET ${assignments} WHERE id = ${params.bind(id)}`, params.values);
  }

  async update(id: string, patch: IntegrationPatch): Promise<IntegrationRecord | null> {
    const { id: _i, form_id: _f, type: _t, created_at: _c, created_by: _b, ...row } = integrationToRow(patch);
    await this.set(this.st.integrations, id, row);
    return this.findById(id);
  }

  async delete(id: string): Promise<boolean> {
    return this.scope.atomic(async (db) => {
      await db.run(this.st.deleteDeliveries, [id]);
      return (await db.run(this.st.delete, [id])) > 0;
    });
  }

  private async insertDeliveryRow(row: Row): Promise<boolean> {
    return (await this.scope.db.run(this.st.insertDelivery.sql, this.st.insertDelivery.values(row))) > 0;
  }

  async insertDelivery(delivery: IntegrationDeliveryRecord): Promise<void> {
    const row = integrationDeliveryToRow(delivery) as Row;
    const inserted = await (this.together?.deliveries.call(row) ?? this.insertDeliveryRow(row));
    if (!inserted) throw new FormloomError('CONFLICT', `Integration delivery ${delivery.id} already exists`);
  }

  async findDelivery(id: string): Promise<IntegrationDeliveryRecord | null> {
    const [row] = await this.scope.db.all<IntegrationDeliveryRow>(this.st.deliveryById, [id]);
    return row ? integrationDeliveryFromRow(row) : null;
  }

  async updateDelivery(id: string, patch: IntegrationDeliveryPatch): Promise<void> {
    const { id: _i, integration_id: _n, form_id: _f, response_id: _r, event: _e, created_at: _c, ...row } = integrationDeliveryToRow(patch as Partial<IntegrationDeliveryRecord>);
    const columns = Object.keys(row);
    const together = this.together;
    if (!together || !columns.length) return void (await this.set(this.st.deliveries, id, row));
    // Updates of the same columns sent together (the worker's settlements) go in one statement.
    const key = columns.join(',');
    let updates = together.updates.get(key);
    if (!updates) {
      const { d, db } = this.scope;
      const assignments = columns.map((c) => `"${c}" = v."${c}"`).join(', ');
      const many = async (rows: Row[]) => void (await db.all(...sqlOf(updateFromRows(d, this.st.deliveries, IntegrationDeliveryEntity, rows, 'id', assignments))));
      const one = async ({ id: rowId, ...set }: Row) => void (await this.set(this.st.deliveries, String(rowId), set));
      together.updates.set(key, (updates = new Coalescer<Row, void>(async (rows) => (await many(rows), rows.map(() => undefined)), one)));
    }
    return updates.call({ id, ...row });
  }

  async deleteSettledBefore(before: string, limit: number): Promise<number> {
    return this.scope.db.run(this.st.deleteSettled, [before, Math.max(0, Math.floor(limit))]);
  }

  async listDeliveries(integrationId: string, limit: number): Promise<IntegrationDeliveryRecord[]> {
    const rows = await this.scope.db.all<IntegrationDeliveryRow>(this.st.deliveriesOf, [integrationId, Math.max(0, Math.floor(limit))]);
    return rows.map(integrationDeliveryFromRow);
  }
}
