import type { VoiceGeneration } from '@formloom/core';
import { EntitySchema } from 'typeorm';
import { id, str, text, fromJson } from './columns';

/* Voice generations: the columns the library is listed by, the rest of the record as JSON. */

export interface VoiceGenerationRow {
  id: string;
  user_id: string;
  created_at: string;
  record: string;
}

export const VoiceGenerationEntity = new EntitySchema<VoiceGenerationRow>({
  name: 'FormloomVoiceGeneration',
  tableName: 'voice_generations',
  columns: { id, user_id: str, created_at: str, record: text },
  indices: [{ name: 'IDX_voice_generations_user', columns: ['user_id', 'created_at'] }],
});

export const generationFromRow = (r: VoiceGenerationRow): VoiceGeneration => fromJson<VoiceGeneration>(r.record, {} as VoiceGeneration);
