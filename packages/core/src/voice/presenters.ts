import type { GenerationLine, VoiceGeneration } from '../ports/storage/voice-generations';
import type { CreditEntry } from '../ports/storage/credits';
import type { StockVoice } from './catalog';
import { RATE_CARD } from './pricing';
import type { z } from 'zod';
import type { creditEntryOut, generationOut, voiceOut } from './output-schemas';

/** A catalog voice as a list item of `GET /api/v1/voice/voices`; `preview_url` is relative to the API mount (`baseUrl`). */
export const presentVoice = (v: StockVoice, baseUrl: string): z.infer<typeof voiceOut> => ({
  id: v.id,
  object: 'voice',
  name: v.name,
  source: 'stock',
  type: 'stock',
  language: v.language,
  language_code: v.language_code,
  gender: v.gender,
  engine: v.engine,
  styles: v.styles,
  featured: v.featured,
  quality: { ...v.quality },
  sample_rate: v.sample_rate,
  preview_url: `${baseUrl}/voice/voices/${v.id}/preview`,
});

/** What one answer adds to a generation's body: this request's charge, reuse, and the clip's free retakes. */
export interface GenerationView {
  /** Credits this answer's request took (default: the generation's own charge). */
  charged?: number;
  reused?: boolean;
  retakesRemaining?: number;
}

/** The API body of a generation; `audio.url` is relative to the API mount (`baseUrl`). */
export function presentGeneration(g: VoiceGeneration, balance: number, baseUrl: string, view: GenerationView = {}): z.infer<typeof generationOut> {
  const sampleRate = (g.status === 'ready' || g.status === 'partial') && !g.audio_deleted_at ? g.sample_rate : null;
  return {
    id: g.id,
    object: 'voice.generation',
    status: g.status,
    mode: g.mode,
    // The origin of the request (docs/voice.md): streams are API requests too.
    source: 'api',
    voice: { id: g.voice_id, name: g.voice_name },
    language: g.language,
    characters: g.characters,
    title: g.title,
    audio: sampleRate !== null
      ? {
          url: `${baseUrl}/voice/generations/${g.id}/audio?format=${g.format}`,
          format: g.format,
          sample_rate: sampleRate,
          duration_seconds: g.duration_seconds,
          retained_until: g.retained_until,
        }
      : null,
    credits: { estimated: g.credits_estimated, charged: view.charged ?? g.credits_charged, remaining: balance },
    ...(g.mode === 'script' ? { lines: (g.lines ?? []).map(presentLine) } : {}),
    retakes_remaining: view.retakesRemaining ?? 0,
    retake_of: g.retake_of ?? null,
    reused: view.reused ?? false,
    created_at: g.created_at,
  };
}

/**
 * A script line of a generation, with the API's fields only: `credits` is the line's decimal share (0.4
 * per spoken character; 0 for a failed line or a pause); the request as a whole is rounded up once. A pause
 * has `voice` and `text` null; its length is `end_ms - start_ms`.
 */
export const presentLine = (l: GenerationLine) => ({
  speaker: l.speaker,
  voice: l.voice_id ? { id: l.voice_id, name: l.voice_name } : null,
  text: l.text,
  status: l.status,
  start_ms: l.start_ms,
  end_ms: l.end_ms,
  credits: l.status === 'ready' ? Math.round(l.characters * 4) / 10 : 0,
});

export interface VoiceHeaderValues {
  generationId?: string;
  estimated?: number;
  charged?: number;
  remaining: number;
  durationSeconds?: number | null;
  replayed?: boolean;
  retakesRemaining?: number;
}

/** The `Service-*` headers every voice answer carries (docs/voice.md, "Response headers"). */
export function serviceHeaders(v: VoiceHeaderValues): Record<string, string> {
  const h: Record<string, string> = {
    'Service-Credits-Estimated': String(v.estimated ?? 0),
    'Service-Credits-Charged': String(v.charged ?? 0),
    'Service-Credits-Remaining': String(v.remaining),
    'Service-Rate-Card': RATE_CARD,
    'Service-Retakes-Remaining': String(v.retakesRemaining ?? 0),
  };
  if (v.generationId) h['Service-Generation-Id'] = v.generationId;
  if (v.durationSeconds != null) h['Service-Audio-Duration'] = String(v.durationSeconds);
  if (v.replayed !== undefined) h['Idempotent-Replayed'] = String(v.replayed);
  return h;
}

export const dataBody = (data: unknown) => ({ data, meta: { rate_card: RATE_CARD } });

/** `meta` of every successful JSON answer of the voice API (docs/voice.md: `{data, meta: {rate_card}}`), with a list's paging. */
export const voiceMeta = <T extends object>(more?: T) => ({ ...more, rate_card: RATE_CARD });

/** A ledger entry of `GET /voice/credits`: the key it was spent with stays out (a key's spending is the account page's). */
export const presentCreditEntry = (e: CreditEntry): z.infer<typeof creditEntryOut> => ({
  id: e.id,
  object: 'voice.credit_entry',
  kind: e.kind,
  amount: e.amount,
  generation_id: e.generation_id,
  created_at: e.created_at,
});
