import {
  type DeliveryAttempt,
  type DeliveryRepository,
  FormloomError,
  type GlobalWebhook,
  type Page,
  type WebhookDelivery,
  type WebhookRepository,
} from '@formloom/core';
import { type DeliveryAttemptRow, DeliveryAttemptEntity, type DeliveryRow, DeliveryEntity, type GlobalWebhookRow, GlobalWebhookEntity, WebhookSecretEntity, attemptFromRow, attemptToRow, deliveryFromRow, deliveryToRow, globalWebhookFromRow } from '../tables/webhooks';
import type { Scope } from '../scope';
import { deleteDeliveriesOf } from './respondent-data';
import { type Dialect, Params } from '../sql/dialect';
import { type InsertStatement, insertIgnoring, insertMany, tableOf } from '../sql/statements';
import type { Row } from '../sql/db';
import { Coalescer, insertCoalescer, sqlOf, updateFromRows } from '../sql/coalesce';

export const webhookStatements = (d: Dialect) => {
  const hooks = tableOf(d, GlobalWebhookEntity);
  const secrets = tableOf(d, WebhookSecretEntity);
  const deliveries = tableOf(d, DeliveryEntity);
  const attempts = tableOf(d, DeliveryAttemptEntity);
  return {
    listGlobal: `SELECT * FROM ${hooks} WHERE user_id = ${d.p(1)} ORDER BY position`,
    deleteGlobal: `DELETE FROM ${hooks} WHERE user_id = ${d.p(1)}`,
    getSecret: `SELECT secret FROM ${secrets} WHERE user_id = ${d.p(1)}`,
    insertSecret: `INSERT INTO ${secrets} (user_id, secret) VALUES (${d.p(1)}, ${d.p(2)}) ON CONFLICT (user_id) DO NOTHING`,
    setSecret:
      `INSERT INTO ${secrets} (user_id, secret) VALUES (${d.p(1)}, ${d.p(2)}) ` +
      `ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret`,
    deliveries,
    insertDelivery: insertIgnoring(d, DeliveryEntity),
    deliveryById: `SELECT * FROM ${deliveries} WHERE id = ${d.p(1)}`,
    deliveriesOf:
      `SELECT * FROM ${deliveries} WHERE form_id = ${d.p(1)} ORDER BY created_at DESC, id DESC ` +
      `LIMIT ${d.p(2)} OFFSET ${d.p(3)}`,
    countDeliveriesOf: `SELECT COUNT(*) AS n FROM ${deliveries} WHERE form_id = ${d.p(1)}`,
    insertAttempt: insertIgnoring(d, DeliveryAttemptEntity),
    attemptsOf: `SELECT * FROM ${attempts} WHERE delivery_id = ${d.p(1)} ORDER BY created_at, attempt, id`,
  };
};

export class SqlWebhookRepository implements WebhookRepository {
  constructor(private readonly scope: Scope) {}

  private get st() {
    return this.scope.statements(webhookStatements);
  }

  async listGlobal(userId: string): Promise<GlobalWebhook[]> {
    const rows = await this.scope.db.all<GlobalWebhookRow>(this.st.listGlobal, [userId]);
    return rows.map(globalWebhookFromRow);
  }

  /** Delete and insert in one transaction (the current one inside a transaction). */
  async replaceGlobal(userId: string, hooks: GlobalWebhook[]): Promise<void> {
    const rows: GlobalWebhookRow[] = hooks.map((h, position) => ({ user_id: userId, position, url: h.url, enabled: !!h.enabled }));
    await this.scope.atomic(async (db) => {
      await db.run(this.st.deleteGlobal, [userId]);
      if (rows.length > 0) {
        const insert = insertMany(this.scope.d, GlobalWebhookEntity, rows);
        await db.run(insert.sql, insert.values);
      }
    });
  }

  async getSecret(userId: string): Promise<string | null> {
    const [row] = await this.scope.db.all<{ secret: string }>(this.st.getSecret, [userId]);
    return row ? row.secret : null;
  }

  /**
   * Insert-or-nothing, then read: of concurrent callers exactly one insert lands, and every caller reads
   * that one (on PostgreSQL a conflicting insert waits for the other to commit, then reads it committed).
   */
  async createSecretIfAbsent(userId: string, secret: string): Promise<string> {
    await this.scope.db.run(this.st.insertSecret, [userId, secret]);
    const stored = await this.getSecret(userId);
    if (stored === null) throw new Error(`The webhook secret of ${userId} vanished while it was created`);
    return stored;
  }

  async setSecret(userId: string, secret: string): Promise<void> {
    await this.scope.db.run(this.st.setSecret, [userId, secret]);
  }
}

export class SqlDeliveryRepository implements DeliveryRepository {
  constructor(private readonly scope: Scope) {}

  deleteByResponses(formId: string, responseIds: string[]): Promise<number> {
    return deleteDeliveriesOf(this.scope, formId, responseIds);
  }

  private get st() {
    return this.scope.statements(webhookStatements);
  }

  // In a transaction, rows sent together go in one statement each kind (sql/coalesce.ts).
  private coalesced: { deliveries: Coalescer<Row, boolean>; attempts: Coalescer<Row, boolean>; updates: Map<string, Coalescer<Row, void>> } | null = null;

  private get together() {
    if (!this.scope.beforeCommit) return null;
    const { d, db } = this.scope;
    return (this.coalesced ??= {
      deliveries: insertCoalescer(d, db, DeliveryEntity, (row) => this.insertRow(this.st.insertDelivery, row)),
      attempts: insertCoalescer(d, db, DeliveryAttemptEntity, (row) => this.insertRow(this.st.insertAttempt, row)),
      updates: new Map(),
    });
  }

  /** One row; true when it went in (not refused by a conflict). */
  private async insertRow(st: InsertStatement, row: Row): Promise<boolean> {
    return (await this.scope.db.run(st.sql, st.values(row))) > 0;
  }

  async insert(delivery: WebhookDelivery): Promise<void> {
    const row = deliveryToRow(delivery);
    const inserted = await (this.together?.deliveries.call(row) ?? this.insertRow(this.st.insertDelivery, row));
    if (!inserted) throw new FormloomError('CONFLICT', `Webhook delivery ${delivery.id} already exists`);
  }

  async findById(id: string): Promise<WebhookDelivery | null> {
    const [row] = await this.scope.db.all<DeliveryRow>(this.st.deliveryById, [id]);
    return row ? deliveryFromRow(row) : null;
  }

  async update(id: string, patch: Partial<Omit<WebhookDelivery, 'id'>>): Promise<void> {
    const { id: _id, ...set } = deliveryToRow(patch);
    const columns = Object.keys(set) as (keyof typeof set)[];
    if (columns.length === 0) return;
    const together = this.together;
    if (together) {
      // Updates of the same columns sent together (the worker's settlements) go in one statement.
      const key = columns.join(',');
      let updates = together.updates.get(key);
      if (!updates) {
        const { d, db } = this.scope;
        const assignments = columns.map((c) => `"${c}" = v."${c}"`).join(', ');
        const many = async (rows: Row[]) => void (await db.all(...sqlOf(updateFromRows(d, this.st.deliveries, DeliveryEntity, rows, 'id', assignments))));
        together.updates.set(key, (updates = new Coalescer<Row, void>(async (rows) => (await many(rows), rows.map(() => undefined)), (row) => this.updateOne(row))));
      }
      return updates.call({ id, ...set });
    }
    return this.updateOne({ id, ...set });
  }

  private async updateOne({ id, ...set }: Row): Promise<void> {
    const columns = Object.keys(set);
    const params = new Params(this.scope.d);
    const assignments = columns.map((c) => `"${c}" = ${params.bind(set[c])}`).join(', ');
    await this.scope.db.run(
      `UPDATE ${this.st.deliveries} SET ${assignments} WHERE id = ${params.bind(id)}`,
      params.values,
    );
  }

  async listByForm(formId: string, offset: number, limit: number): Promise<Page<WebhookDelivery>> {
    const { db } = this.scope;
    const st = this.st;
    const page = [formId, Math.max(0, Math.floor(limit)), Math.max(0, Math.floor(offset))];
    const [rows, [count]] = await Promise.all([
      db.all<DeliveryRow>(st.deliveriesOf, page),
      db.all<{ n: number | string }>(st.countDeliveriesOf, [formId]),
    ]);
    return { items: rows.map(deliveryFromRow), total: Number(count.n) };
  }

  async insertAttempt(attempt: DeliveryAttempt): Promise<void> {
    const row = attemptToRow(attempt);
    const inserted = await (this.together?.attempts.call(row) ?? this.insertRow(this.st.insertAttempt, row));
    if (!inserted) throw new FormloomError('CONFLICT', `Delivery attempt ${attempt.id} already exists`);
  }

  async listAttempts(deliveryId: string): Promise<DeliveryAttempt[]> {
    const rows = await this.scope.db.all<DeliveryAttemptRow>(this.st.attemptsOf, [deliveryId]);
    return rows.map(attemptFromRow);
  }
}
