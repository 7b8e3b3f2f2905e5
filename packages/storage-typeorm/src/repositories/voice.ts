import type { FreeRetakeClaim, FreeRetakeOutcome, RetakeUsage, VoiceGeneration, VoiceGenerationRepository } from '@formloom/core';
import { conflict } from '@formloom/core';
import { derivedColumns, generationFromRow, keyRefOf, VoiceGenerationEntity, type VoiceGenerationRow, VoiceRetakeEntity } from '../tables/voice';
import type { Scope } from '../scope';
import type { Dialect } from '../sql/dialect';
import type { Db } from '../sql/db';
import { tableOf } from '../sql/statements';

export const voiceStatements = (d: Dialect) => {
  const t = tableOf(d, VoiceGenerationEntity);
  const r = tableOf(d, VoiceRetakeEntity);
  const p = d.p;
  const kept = `audio_deleted_at IS NULL AND (retained_until IS NULL OR retained_until > ${p(4)})`;
  return {
    insert:
      `INSERT INTO ${t} (id, user_id, created_at, record, key_ref, request_hash, status, retained_until, audio_deleted_at, billed_characters) ` +
      `VALUES (${[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(p).join(', ')}) ON CONFLICT DO NOTHING`,
    find: `SELECT * FROM ${t} WHERE id = ${p(1)}`,
    findForUpdate: `SELECT * FROM ${t} WHERE id = ${p(1)}${d.kind === 'postgres' ? ' FOR UPDATE' : ''}`,
    update:
      `UPDATE ${t} SET record = ${p(1)}, key_ref = ${p(3)}, request_hash = ${p(4)}, status = ${p(5)}, retained_until = ${p(6)}, ` +
      `audio_deleted_at = ${p(7)}, billed_characters = ${p(8)} WHERE id = ${p(2)}`,
    list: `SELECT * FROM ${t} WHERE user_id = ${p(1)} ORDER BY created_at DESC, id DESC LIMIT ${p(2)} OFFSET ${p(3)}`,
    count: `SELECT COUNT(*) AS n FROM ${t} WHERE user_id = ${p(1)}`,
    /** The library's search (`p(4)`: a lower-case LIKE pattern) reads the record's JSON: no column to keep in step. */
    search: `SELECT * FROM ${t} WHERE user_id = ${p(1)} AND ${searched(d, p(4))} ORDER BY created_at DESC, id DESC LIMIT ${p(2)} OFFSET ${p(3)}`,
    searchCount: `SELECT COUNT(*) AS n FROM ${t} WHERE user_id = ${p(1)} AND ${searched(d, p(2))}`,
    delete: `DELETE FROM ${t} WHERE id = ${p(1)}`,
    reusable:
      `SELECT * FROM ${t} WHERE user_id = ${p(1)} AND request_hash = ${p(2)} AND created_at >= ${p(3)} AND status = 'ready' AND ${kept} ` +
      `ORDER BY created_at DESC, id DESC LIMIT 1`,
    expired:
      `SELECT id FROM ${t} WHERE retained_until IS NOT NULL AND retained_until <= ${p(1)} AND audio_deleted_at IS NULL ` +
      `ORDER BY retained_until, id LIMIT ${p(2)}`,
    /** Conditional: of concurrent sweeps (and a concurrent `retain`), one changes the row. */
    takeExpired:
      `UPDATE ${t} SET audio_deleted_at = ${p(1)} WHERE id = ${p(2)} AND audio_deleted_at IS NULL ` +
      `AND retained_until IS NOT NULL AND retained_until <= ${p(1)}`,
    lockKey: d.kind === 'postgres' ? `SELECT pg_advisory_xact_lock(hashtext(${p(1)})) AS locked` : null,
    retakesOf: `SELECT COUNT(*) AS n FROM ${r} WHERE generation_id = ${p(1)}`,
    freeCharacters: `SELECT COALESCE(SUM(characters), 0) AS n FROM ${r} WHERE key_ref = ${p(1)} AND created_at >= ${p(2)}`,
    billedCharacters: `SELECT COALESCE(SUM(billed_characters), 0) AS n FROM ${t} WHERE key_ref = ${p(1)} AND created_at >= ${p(2)}`,
    insertRetake: `INSERT INTO ${r} (id, generation_id, key_ref, characters, created_at) VALUES (${[1, 2, 3, 4, 5].map(p).join(', ')})`,
    deleteRetake: `DELETE FROM ${r} WHERE id = ${p(1)}`,
  };
};

/** A record field as text (JSON null: SQL NULL, which LIKE never matches). */
const field = (d: Dialect, name: string) => (d.kind === 'postgres' ? `(record::json ->> '${name}')` : `json_extract(record, '$.${name}')`);
/** Title, words or voice name contain the pattern, ignoring case; `!` escapes LIKE's wildcards (forms.ts). */
const searched = (d: Dialect, pattern: string) =>
  `(${['title', 'text', 'voice_name'].map((f) => `LOWER(${field(d, f)}) LIKE ${pattern} ESCAPE '!'`).join(' OR ')})`;
const likeContains = (s: string) => `%${s.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`;

const count = async (db: Db, sql: string, params: unknown[]) => Number((await db.all<{ n: number | string }>(sql, params))[0]?.n ?? 0);

export class SqlVoiceGenerationRepository implements VoiceGenerationRepository {
  constructor(private readonly scope: Scope) {}

  private get st() {
    return this.scope.statements(voiceStatements);
  }

  private writeParams(g: VoiceGeneration) {
    const c = derivedColumns(g);
    return [JSON.stringify(g), g.id, c.key_ref, c.request_hash, c.status, c.retained_until, c.audio_deleted_at, c.billed_characters];
  }

  async insert(g: VoiceGeneration): Promise<void> {
    const c = derivedColumns(g);
    const n = await this.scope.db.run(this.st.insert, [
      g.id, g.user_id, g.created_at, JSON.stringify(g), c.key_ref, c.request_hash, c.status, c.retained_until, c.audio_deleted_at, c.billed_characters,
    ]);
    if (n === 0) throw conflict(`Generation ${g.id} exists`);
  }

  async update(id: string, patch: Partial<Omit<VoiceGeneration, 'id' | 'user_id'>>): Promise<boolean> {
    // Read and write in one transaction (the row locked on PostgreSQL), so concurrent patches both land.
    return this.scope.atomic(async (db) => {
      const [row] = await db.all<VoiceGenerationRow>(this.st.findForUpdate, [id]);
      if (!row) return false;
      const next = { ...generationFromRow(row), ...patch, id: row.id, user_id: row.user_id };
      await db.run(this.st.update, this.writeParams(next));
      return true;
    });
  }

  async findById(id: string): Promise<VoiceGeneration | null> {
    const [row] = await this.scope.db.all<VoiceGenerationRow>(this.st.find, [id]);
    return row ? generationFromRow(row) : null;
  }

  async listByUser(userId: string, page: { limit: number; offset: number }, filter: { search?: string } = {}) {
    if (filter.search) {
      const pattern = likeContains(filter.search);
      const rows = await this.scope.db.all<VoiceGenerationRow>(this.st.search, [userId, page.limit, page.offset, pattern]);
      return { items: rows.map(generationFromRow), total: await count(this.scope.db, this.st.searchCount, [userId, pattern]) };
    }
    const rows = await this.scope.db.all<VoiceGenerationRow>(this.st.list, [userId, page.limit, page.offset]);
    const [total] = await this.scope.db.all<{ n: number }>(this.st.count, [userId]);
    return { items: rows.map(generationFromRow), total: Number(total?.n ?? 0) };
  }

  async delete(id: string): Promise<boolean> {
    return (await this.scope.db.run(this.st.delete, [id])) > 0;
  }

  async findReusable(userId: string, requestHash: string, since: string, now: string): Promise<VoiceGeneration | null> {
    const [row] = await this.scope.db.all<VoiceGenerationRow>(this.st.reusable, [userId, requestHash, since, now]);
    return row ? generationFromRow(row) : null;
  }

  async retain(id: string, until: string | null, now: string): Promise<VoiceGeneration | null> {
    return this.scope.atomic(async (db) => {
      const [row] = await db.all<VoiceGenerationRow>(this.st.findForUpdate, [id]);
      if (!row) return null;
      const g = generationFromRow(row);
      const kept = !g.audio_deleted_at && (g.retained_until === null || g.retained_until > now);
      if (!kept) return null;
      const retained_until = g.retained_until === null || until === null ? null : until > g.retained_until ? until : g.retained_until;
      const next = { ...g, retained_until, save: g.save || until === null };
      await db.run(this.st.update, this.writeParams(next));
      return next;
    });
  }

  async takeExpired(before: string, limit: number): Promise<VoiceGeneration[]> {
    const ids = await this.scope.db.all<{ id: string }>(this.st.expired, [before, limit]);
    const taken: VoiceGeneration[] = [];
    for (const { id } of ids) {
      if ((await this.scope.db.run(this.st.takeExpired, [before, id])) === 0) continue;
      const g = await this.findById(id);
      if (g) taken.push(g);
    }
    return taken;
  }

  async claimFreeRetake(claim: FreeRetakeClaim): Promise<FreeRetakeOutcome> {
    const keyRef = keyRefOf(claim.key_id, claim.user_id);
    return this.scope.atomic(async (db) => {
      // Claims of one key wait for each other (SQLite runs one transaction at a time anyway).
      if (this.st.lockKey) await db.all(this.st.lockKey, [keyRef]);
      const used = await count(db, this.st.retakesOf, [claim.generation_id]);
      if (used >= claim.max_per_generation) return { ok: false, reason: 'retakes_used' } as const;
      const free = await count(db, this.st.freeCharacters, [keyRef, claim.since]);
      const billed = await count(db, this.st.billedCharacters, [keyRef, claim.since]);
      if (free + claim.characters > billed * claim.billed_share) return { ok: false, reason: 'budget' } as const;
      await db.run(this.st.insertRetake, [claim.id, claim.generation_id, keyRef, claim.characters, claim.created_at]);
      return { ok: true, retakes_used: used + 1 } as const;
    });
  }

  async releaseFreeRetake(id: string): Promise<void> {
    await this.scope.db.run(this.st.deleteRetake, [id]);
  }

  async freeRetakes(generationId: string): Promise<number> {
    return count(this.scope.db, this.st.retakesOf, [generationId]);
  }

  async retakeUsage(keyId: string | null, userId: string, since: string): Promise<RetakeUsage> {
    const keyRef = keyRefOf(keyId, userId);
    return {
      billed_characters: await count(this.scope.db, this.st.billedCharacters, [keyRef, since]),
      free_retake_characters: await count(this.scope.db, this.st.freeCharacters, [keyRef, since]),
    };
  }
}
