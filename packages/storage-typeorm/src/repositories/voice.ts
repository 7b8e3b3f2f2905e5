import { conflict, type VoiceGeneration, type VoiceGenerationRepository } from '@formloom/core';
import { VoiceGenerationEntity, type VoiceGenerationRow, generationFromRow } from '../tables/voice';
import type { Scope } from '../scope';
import type { Dialect } from '../sql/dialect';
import { tableOf } from '../sql/statements';

export const voiceStatements = (d: Dialect) => {
  const t = tableOf(d, VoiceGenerationEntity);
  return {
    insert: `INSERT INTO ${t} (id, user_id, created_at, record) VALUES (${d.p(1)}, ${d.p(2)}, ${d.p(3)}, ${d.p(4)}) ON CONFLICT DO NOTHING`,
    find: `SELECT * FROM ${t} WHERE id = ${d.p(1)}`,
    findForUpdate: `SELECT * FROM ${t} WHERE id = ${d.p(1)}${d.kind === 'postgres' ? ' FOR UPDATE' : ''}`,
    update: `UPDATE ${t} SET record = ${d.p(1)} WHERE id = ${d.p(2)}`,
    list: `SELECT * FROM ${t} WHERE user_id = ${d.p(1)} ORDER BY created_at DESC, id DESC LIMIT ${d.p(2)} OFFSET ${d.p(3)}`,
    count: `SELECT COUNT(*) AS n FROM ${t} WHERE user_id = ${d.p(1)}`,
    delete: `DELETE FROM ${t} WHERE id = ${d.p(1)}`,
  };
};

export class SqlVoiceGenerationRepository implements VoiceGenerationRepository {
  constructor(private readonly scope: Scope) {}

  private get st() {
    return this.scope.statements(voiceStatements);
  }

  async insert(g: VoiceGeneration): Promise<void> {
    const n = await this.scope.db.run(this.st.insert, [g.id, g.user_id, g.created_at, JSON.stringify(g)]);
    if (n === 0) throw conflict(`Generation ${g.id} exists`);
  }

  async update(id: string, patch: Partial<Omit<VoiceGeneration, 'id' | 'user_id'>>): Promise<boolean> {
    // Read and write in one transaction (the row locked on PostgreSQL), so concurrent patches both land.
    return this.scope.atomic(async (db) => {
      const [row] = await db.all<VoiceGenerationRow>(this.st.findForUpdate, [id]);
      if (!row) return false;
      const next = { ...generationFromRow(row), ...patch, id: row.id, user_id: row.user_id };
      await db.run(this.st.update, [JSON.stringify(next), id]);
      return true;
    });
  }

  async findById(id: string): Promise<VoiceGeneration | null> {
    const [row] = await this.scope.db.all<VoiceGenerationRow>(this.st.find, [id]);
    return row ? generationFromRow(row) : null;
  }

  async listByUser(userId: string, page: { limit: number; offset: number }) {
    const rows = await this.scope.db.all<VoiceGenerationRow>(this.st.list, [userId, page.limit, page.offset]);
    const [count] = await this.scope.db.all<{ n: number }>(this.st.count, [userId]);
    return { items: rows.map(generationFromRow), total: Number(count?.n ?? 0) };
  }

  async delete(id: string): Promise<boolean> {
    return (await this.scope.db.run(this.st.delete, [id])) > 0;
  }
}
