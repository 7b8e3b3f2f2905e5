import type { VoiceGeneration } from '@formloom/core';
import { EntitySchema } from 'typeorm';
import { id, int, optStr, str, text, fromJson } from './columns';

/*
 * Voice generations: the columns the library, reuse, retakes and the retention sweep query by; the rest of
 * the record as JSON. `retained_until` and `audio_deleted_at` are authoritative in their columns (the
 * sweep and `retain` change them with conditional updates); the others are copies kept in step by every
 * write of the record.
 */

export interface VoiceGenerationRow {
  id: string;
  user_id: string;
  created_at: string;
  record: string;
  /** The key's id, or `user:<user id>` for a generation made without a key: what retake budgets count by. */
  key_ref: string | null;
  request_hash: string | null;
  status: string | null;
  retained_until: string | null;
  audio_deleted_at: string | null;
  /** The spoken characters while the generation stays charged, else 0. */
  billed_characters: number;
}

export const VoiceGenerationEntity = new EntitySchema<VoiceGenerationRow>({
  name: 'FormloomVoiceGeneration',
  tableName: 'voice_generations',
  columns: {
    id,
    user_id: str,
    created_at: str,
    record: text,
    key_ref: optStr,
    request_hash: optStr,
    status: optStr,
    retained_until: optStr,
    audio_deleted_at: optStr,
    billed_characters: { ...int, default: 0 },
  },
  indices: [
    { name: 'IDX_voice_generations_user', columns: ['user_id', 'created_at'] },
    { name: 'IDX_voice_generations_reuse', columns: ['user_id', 'request_hash', 'created_at'] },
    { name: 'IDX_voice_generations_retention', columns: ['retained_until'] },
    { name: 'IDX_voice_generations_key', columns: ['key_ref', 'created_at'] },
  ],
});

/** Free retakes (docs/voice.md, "Retakes"): one row each, counted per clip and per key and month. */
export interface VoiceRetakeRow {
  id: string;
  generation_id: string;
  key_ref: string;
  characters: number;
  created_at: string;
}

export const VoiceRetakeEntity = new EntitySchema<VoiceRetakeRow>({
  name: 'FormloomVoiceRetake',
  tableName: 'voice_retakes',
  columns: { id, generation_id: str, key_ref: str, characters: int, created_at: str },
  indices: [
    { name: 'IDX_voice_retakes_generation', columns: ['generation_id'] },
    { name: 'IDX_voice_retakes_key', columns: ['key_ref', 'created_at'] },
  ],
});

export const keyRefOf = (keyId: string | null | undefined, userId: string) => keyId ?? `user:${userId}`;

/** The columns a record's write keeps in step (`retained_until` included: the record is its source then). */
export function derivedColumns(g: VoiceGeneration) {
  const charged = g.credits_charged > 0 && g.status !== 'failed';
  return {
    key_ref: keyRefOf(g.key_id, g.user_id),
    request_hash: g.request_hash ?? null,
    status: g.status,
    retained_until: g.retained_until,
    audio_deleted_at: g.audio_deleted_at ?? null,
    billed_characters: charged ? g.characters : 0,
  };
}

export function generationFromRow(r: VoiceGenerationRow): VoiceGeneration {
  const g = fromJson<VoiceGeneration>(r.record, {} as VoiceGeneration);
  // Columns changed by conditional updates win over the JSON copy (absent optional fields stay absent).
  const deleted = r.audio_deleted_at ?? null;
  return { ...g, retained_until: r.retained_until ?? null, ...(deleted !== null || 'audio_deleted_at' in g ? { audio_deleted_at: deleted } : {}) };
}
