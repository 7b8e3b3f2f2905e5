/** One line of a script generation: words of one voice, or a pause (`pause_ms` set, no voice or text). */
export interface GenerationLine {
  speaker: string | null;
  voice_id: string | null;
  voice_name: string | null;
  text: string | null;
  pause_ms: number | null;
  /** `rendering` until the generation ends, then `ready` or `failed` (a failed line is silent and free). */
  status: 'rendering' | 'ready' | 'failed';
  /** Spoken characters billed for the line (0 for a pause). */
  characters: number;
  /** Position of the line in the audio; a failed line has a zero-length position where it would have been. */
  start_ms: number | null;
  end_ms: number | null;
}

/** A speech generation as stored (docs/voice.md); the API body is made from it by the voice presenters. */
export interface VoiceGeneration {
  id: string;
  user_id: string;
  key_id: string | null;
  status: 'ready' | 'rendering' | 'partial' | 'failed';
  mode: 'speak' | 'script';
  /** `api` for POST /voice, `stream` for POST /voice/stream. */
  source: 'api' | 'stream';
  voice_id: string;
  voice_name: string;
  /** Language name (for example `English`). */
  language: string;
  text: string;
  speed: number;
  quality: string;
  /** Format the request asked for; downloads may ask for another. */
  format: string;
  characters: number;
  credits_estimated: number;
  credits_charged: number;
  sample_rate: number | null;
  duration_seconds: number | null;
  title: string | null;
  save: boolean;
  /** When unsaved audio is deleted; null when saved. */
  retained_until: string | null;
  error: string | null;
  /** Script generations: every line, pauses included, in request order; absent or null for speak. */
  lines?: GenerationLine[] | null;
  created_at: string;
  updated_at: string;
}

/** Generations, one user's library. */
export interface VoiceGenerationRepository {
  /** @throws `FormloomError` CONFLICT when the id is taken; nothing is written. */
  insert(generation: VoiceGeneration): Promise<void>;
  /** Applies `patch`; `false` when there is no such generation. */
  update(id: string, patch: Partial<Omit<VoiceGeneration, 'id' | 'user_id'>>): Promise<boolean>;
  findById(id: string): Promise<VoiceGeneration | null>;
  /** The user's generations, newest first (ties by id), and how many there are. */
  listByUser(userId: string, page: { limit: number; offset: number }): Promise<{ items: VoiceGeneration[]; total: number }>;
  /** `false` when there was no such generation. */
  delete(id: string): Promise<boolean>;
}
