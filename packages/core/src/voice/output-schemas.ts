import { z } from 'zod';
import { int, named, timestamp } from '../api-schemas';

/** What the voice presenters (presenters.ts) and routes answer; every body is `{data, meta}`. */

const meta = z.object({ rate_card: z.string().describe('The rate card version the credits follow') });

export const voiceQualityOut = named(
  'VoiceQuality',
  z
    .object({
      intelligibility: z.enum(['high', 'medium', 'low', 'unmeasured']).describe('`high`: at most 10% of words misheard; `medium`: at most 25%; `unmeasured`: no measurement (every language but English)'),
      wer: z.number().nullable().describe('Word error rate of a speech recogniser on the voice (0.05 = 5%); null when unmeasured'),
      measured_with: z.string().nullable().describe('The text set `wer` was measured on (`plain prose`); null when unmeasured'),
    })
    .describe('How well the voice is understood, as the voice bench measured it (docs/voice.md, "Voice quality")'),
);

export const voiceOut = named(
  'Voice',
  z.object({
    id: z.string().describe('nv_ id to send as `voice`'),
    object: z.literal('voice'),
    name: z.string(),
    source: z.literal('stock'),
    type: z.literal('stock'),
    language: z.string(),
    language_code: z.string(),
    gender: z.enum(['female', 'male', 'neutral']).nullable(),
    engine: z.string().describe('The speech engine that speaks it (`espeak`, `flite`, or a host engine\'s id)'),
    styles: z.array(z.string()),
    featured: z.boolean().describe('Measured `high` intelligibility; listed first'),
    quality: voiceQualityOut,
    sample_rate: int,
    preview_url: z.string().describe('A short sample sentence in the voice\'s language (mp3): free, counted against no limit; relative to the API mount'),
  }),
);

export const voiceListOut = named('VoiceList', z.object({ data: z.array(voiceOut), meta }));

export const generationLineOut = named(
  'VoiceScriptLine',
  z.object({
    speaker: z.string().nullable(),
    voice: z.object({ id: z.string(), name: z.string().nullable() }).nullable().describe('null for a pause (its length: `end_ms - start_ms`)'),
    text: z.string().nullable().describe('null for a pause'),
    status: z.enum(['rendering', 'ready', 'failed']),
    start_ms: int.nullable(),
    end_ms: int.nullable(),
    credits: z.number().describe('The line\'s share: 0.4 per spoken character (0 for a pause or a failed line)'),
  }),
);

export const generationOut = named(
  'VoiceGeneration',
  z.object({
    id: z.string(),
    object: z.literal('voice.generation'),
    status: z.enum(['ready', 'rendering', 'partial', 'failed']),
    mode: z.enum(['speak', 'script']),
    source: z.literal('api').describe('Origin of the request: `api` for every request of this API, streams included'),
    voice: z.object({ id: z.string(), name: z.string() }),
    language: z.string(),
    characters: int,
    title: z.string().nullable(),
    audio: z
      .object({
        url: z.string().describe('Relative to the API mount'),
        format: z.string(),
        sample_rate: int,
        duration_seconds: z.number().nullable(),
        retained_until: timestamp.nullable(),
      })
      .nullable(),
    credits: z.object({ estimated: z.number(), charged: z.number(), remaining: z.number() }),
    lines: z.array(generationLineOut).optional().describe('Script generations: every line in request order, pauses included'),
    retakes_remaining: int.describe('Free retakes left on this clip (0 for scripts, and after 24 hours)'),
    retake_of: z.string().nullable().describe('The clip a charged retake retakes; null otherwise'),
    reused: z.boolean().describe('This answer is the audio of an identical earlier request, for 0 credits'),
    created_at: timestamp,
  }),
);

export const generationBodyOut = named('VoiceGenerationBody', z.object({ data: generationOut, meta }));

export const estimateOut = named(
  'VoiceEstimate',
  z.object({
    object: z.literal('voice.estimate'),
    characters: int,
    credits: z.number(),
    seconds_estimated: z.number(),
    balance: z.number(),
    enough: z.boolean(),
    free: z.boolean().optional().describe('With `retake_of`: whether the retake would cost nothing; also `true` (with `credits: 0`) when an identical earlier request would be reused'),
  }),
);

export const estimateBodyOut = named('VoiceEstimateBody', z.object({ data: estimateOut, meta }));

/** POST /voice: a generation (speak) or a quote (estimate). */
export const voiceAnswerOut = z.union([generationBodyOut, estimateBodyOut]);

export const generationListOut = named(
  'VoiceGenerationList',
  z.object({ data: z.array(generationOut), meta: z.object({ page: int, per_page: int, total: int, total_pages: int, rate_card: meta.shape.rate_card }) }),
);

export const generationDeletedOut = named(
  'VoiceGenerationDeleted',
  z.object({ data: z.object({ id: z.string(), object: z.literal('voice.generation'), deleted: z.literal(true) }), meta }),
);

export const creditEntryOut = named(
  'VoiceCreditEntry',
  z.object({
    id: z.string(),
    object: z.literal('voice.credit_entry'),
    kind: z.enum(['purchase', 'spend', 'credit_back']).describe('`purchase`: credits bought; `spend`: a generation\'s charge; `credit_back`: what a failed generation (or a script\'s failed lines) gave back'),
    amount: int.describe('Signed: positive for purchases and credit-backs, negative for spends'),
    generation_id: z.string().nullable().describe('The generation a spend paid for (and its credit-back); null for purchases'),
    created_at: timestamp,
  }),
);

export const creditsOut = named(
  'VoiceCredits',
  z.object({
    data: z.object({
      object: z.literal('voice.credits'),
      balance: int.describe('Credits left: the sum of every entry'),
      entries: z.array(creditEntryOut).describe('A page of the ledger, newest first'),
    }),
    meta: z.object({ page: int, per_page: int, total: int.describe('Entries in the whole ledger'), total_pages: int, rate_card: meta.shape.rate_card }),
  }),
);

/** Audio media types a generation is served in (by `format`, or the `Accept` of POST /voice). */
export const AUDIO_MEDIA_TYPES = ['audio/mpeg', 'audio/wav', 'audio/ogg', 'audio/basic', 'application/octet-stream'];
