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
  /**
   * What makes two requests identical for `reuse` (docs/voice.md, "Reuse"): a hash over the words, voice,
   * language, quality, speed and format. Null (or absent on records made before reuse existed): never reused.
   */
  request_hash?: string | null;
  /** The generation this one retakes (a charged retake); null otherwise. */
  retake_of?: string | null;
  /** Free retakes made of this clip so far (at most 2). */
  retakes_used?: number;
  /** When the retention sweep deleted the audio (the record stays in the library); null while it is kept. */
  audio_deleted_at?: string | null;
}

/** A free retake to record (docs/voice.md, "Retakes"). */
export interface FreeRetakeClaim {
  /** Id of the retake record. */
  id: string;
  generation_id: string;
  /** The API key whose monthly budget it counts against; null: the user's (a host's own authentication). */
  key_id: string | null;
  user_id: string;
  /** Spoken characters regenerated for free. */
  characters: number;
  created_at: string;
  /** Start of the month counted (ISO 8601). */
  since: string;
  /** Free retakes one clip may have. */
  max_per_generation: number;
  /** The key's free retake characters since `since`, this one included, may be at most this share of its billed characters. */
  billed_share: number;
}

export type FreeRetakeOutcome = { ok: true; retakes_used: number } | { ok: false; reason: 'retakes_used' | 'budget' };

/** What the key (or the user, without a key) was billed and regenerated for free since a date. */
export interface RetakeUsage {
  /** Spoken characters of generations charged with the key since the date (credited-back ones excluded). */
  billed_characters: number;
  /** Spoken characters of its free retakes since the date. */
  free_retake_characters: number;
}

/** Generations, one user's library. */
export interface VoiceGenerationRepository {
  /** @throws `FormloomError` CONFLICT when the id is taken; nothing is written. */
  insert(generation: VoiceGeneration): Promise<void>;
  /** Applies `patch`; `false` when there is no such generation. */
  update(id: string, patch: Partial<Omit<VoiceGeneration, 'id' | 'user_id'>>): Promise<boolean>;
  findById(id: string): Promise<VoiceGeneration | null>;
  /**
   * The user's generations, newest first (ties by id), and how many there are. `filter.search` keeps those
   * whose title, words or voice name contain it, ignoring case (ASCII letters at least: SQLite's `LOWER`).
   */
  listByUser(userId: string, page: { limit: number; offset: number }, filter?: { search?: string }): Promise<{ items: VoiceGeneration[]; total: number }>;
  /** `false` when there was no such generation. */
  delete(id: string): Promise<boolean>;
  /**
   * The user's newest generation with `requestHash`, created at or after `since`, `ready`, whose audio is
   * still kept (not deleted, and `retained_until` null or after `now`); null when there is none.
   */
  findReusable(userId: string, requestHash: string, since: string, now: string): Promise<VoiceGeneration | null>;
  /**
   * Keeps a generation's audio longer, atomically against the retention sweep: `until` null saves it for
   * good, a date moves `retained_until` later (never earlier; a saved one stays saved). Only while the audio
   * is still kept at `now`.
   * @returns the generation afterwards, or null when its audio is gone (or there is no such generation).
   */
  retain(id: string, until: string | null, now: string): Promise<VoiceGeneration | null>;
  /**
   * Takes up to `limit` generations whose `retained_until` is at or before `before` and whose audio is still
   * kept, marking each `audio_deleted_at = before` in the same step; under concurrent sweeps (any number of
   * instances) each generation is taken once. The caller then deletes their audio blobs.
   */
  takeExpired(before: string, limit: number): Promise<VoiceGeneration[]>;
  /**
   * Records a free retake when, checked and written atomically (concurrent claims of one key see each
   * other): the generation has fewer than `max_per_generation` free retakes (`retakes_used`), and the key's
   * free retake characters since `since`, this one included, stay at or under `billed_share` of the
   * characters billed to the key since then (`budget`). Nothing is written on a refusal.
   */
  claimFreeRetake(claim: FreeRetakeClaim): Promise<FreeRetakeOutcome>;
  /** Forgets a free retake claimed by `claimFreeRetake` (its regeneration failed); nothing when there is none. */
  releaseFreeRetake(id: string): Promise<void>;
  /** Free retakes recorded for a generation. */
  freeRetakes(generationId: string): Promise<number>;
  /** The key's (or, with `keyId` null, the user's) billed and free retake characters since `since`. */
  retakeUsage(keyId: string | null, userId: string, since: string): Promise<RetakeUsage>;
}
