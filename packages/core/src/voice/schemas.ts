import { z } from 'zod';
import { badRequest, FormloomError } from '../errors';
import { documentAs } from '../api-schemas';
import { MAX_SPEED, MIN_SPEED } from './pricing';
import { MAX_PAUSE_MS, MAX_SPEAKER_LENGTH, MAX_TOTAL_PAUSE_MS } from './script/script-limits';

/** Not blank: script-text.ts and script-cast.ts trim names and text and refuse what is left empty. */
const notBlank = /\S/;
const speakerName = z
  .string()
  .min(1)
  .max(MAX_SPEAKER_LENGTH)
  .regex(notBlank)
  .describe('Who says it, not blank; lines of one speaker share a voice (speakers match ignoring case and runs of white space: `ANNA` is `Anna`)');

/**
 * A `lines` item as the document shows it. script-text.ts checks items one by one (its 400s name the item
 * and field: `lines.3.pause_ms`); the fuzz test sends samples of this schema and requires them accepted.
 */
const scriptLineDoc = z.union([
  z
    .object({
      speaker: speakerName.nullable().optional(),
      voice: z.string().min(1).max(64).regex(notBlank).nullable().optional().describe('An nv_ id; default: the speaker\'s cast voice, else the request\'s voice'),
      text: z.string().min(1).regex(notBlank).describe('The words, not blank; billed by spoken character (runs of white space count as one)'),
    })
    .strict()
    .describe('A spoken line'),
  z
    .object({ pause_ms: z.number().int().min(0).max(MAX_PAUSE_MS).describe(`A silence, in milliseconds; the pauses of a request add up to at most ${MAX_TOTAL_PAUSE_MS}`) })
    .strict()
    .describe('A pause: an item with `pause_ms` carries nothing else'),
]);

/** A `cast` entry as documented (script-cast.ts checks it, naming the entry at fault). */
const castEntryDoc = z.object({ speaker: speakerName, voice: z.string().min(1).describe('An nv_ id') }).strict().describe('One speaker\'s voice');

/**
 * The body as the document shows it: one variant per mode and kind of script, so a generated client knows
 * that `speak` takes `text` and `voice`, and a script `lines` or `script` (not both, and never `text`).
 * checkSpeak and script-text.ts enforce the same with 400s that name the field.
 */
function voiceRequestDoc() {
  const script = {
    voice: requestVoice.optional().describe('The voice of lines without a speaker'),
    cast: z
      .array(castEntryDoc)
      .optional()
      .describe('A voice for each speaker; a speaker named again must get the same voice (else 400, reason `cast_conflict`); a line\'s own `voice` wins for that line'),
    auto_cast: z.boolean().optional().describe('Pick voices for speakers without one'),
  };
  const variants = (mode: 'script' | 'estimate') => [
    z.object({ mode: z.literal(mode), lines: documentAs(z.array(scriptLineDoc).min(1).max(10_000), {
        contains: { required: ['text'] },
        description: `Spoken lines and pauses in order: at least one spoken line, at most 10,000 items, pauses adding up to at most ${MAX_TOTAL_PAUSE_MS} ms`,
      }), ...script }).strict(),
    z.object({ mode: z.literal(mode), script: z.string().min(1).describe('Script text, one `Speaker: words` line each'), auto_convert: z.boolean().optional(), ...script }).strict(),
  ];
  // A retake keeps everything of the generation it makes again but these (docs/voice.md, "Retakes").
  const { retake_of: _retake, ...common } = commonShape;
  const retake = z
    .object({ mode: z.enum(['speak', 'script']), retake_of: z.string().min(1).describe('The generation to make again'), format: common.format, max_credits: common.max_credits, save: common.save })
    .strict();
  const speak = (mode: 'speak' | 'estimate') => z.object({ mode: z.literal(mode), text: speakText, voice: requestVoice.describe('An nv_ id from GET /voice/voices'), ...common }).strict();
  return z.union([speak('speak'), speak('estimate'), ...variants('script').map((v) => v.extend(common)), ...variants('estimate').map((v) => v.extend(common)), retake]);
}

/** What every `POST /voice` body may carry, whatever its mode. */
const commonShape = {
  language: z.string().min(1).max(64).optional(),
  quality: z.enum(['standard', 'studio', 'phone']).optional(),
  speed: z.number().min(MIN_SPEED, `must be between ${MIN_SPEED} and ${MAX_SPEED}`).max(MAX_SPEED, `must be between ${MIN_SPEED} and ${MAX_SPEED}`).optional(),
  format: z.enum(['mp3', 'wav', 'ogg_opus', 'mulaw_8k']).optional(),
  max_credits: z.number().int().min(0).optional(),
  reuse: z.boolean().optional(),
  save: z.boolean().optional(),
  retake_of: z.string().optional(),
  title: z.string().max(200).optional(),
};
const speakText = z.string().min(1);
const requestVoice = z.string().min(1);

/** `POST /api/v1/voice`: speak, script or estimate (docs/voice.md). Unknown fields are refused. */
export const voiceRequestSchema = documentAs(
  z
    .object({
      mode: z.enum(['speak', 'script', 'estimate']),
      text: speakText.optional(),
      voice: requestVoice.optional(),
      lines: documentAs(z.array(z.unknown()).max(10_000), z.array(scriptLineDoc).max(10_000)).optional(),
      script: z.string().min(1).optional(),
      cast: documentAs(z.array(z.unknown()), z.array(castEntryDoc)).optional(),
      auto_convert: z.boolean().optional(),
      auto_cast: z.boolean().optional(),
      ...commonShape,
    })
    .strict(),
  voiceRequestDoc(),
);
export type VoiceRequest = z.infer<typeof voiceRequestSchema>;

/** `POST /api/v1/voice/stream`. `speed`, scripts, `retake_of` and `reuse` are refused with `not_on_stream`. */
export const streamRequestSchema = z
  .object({
    voice: z.string().min(1),
    text: z.string().min(1),
    format: z.enum(['mp3', 'pcm_24k', 'mulaw_8k', 'ulaw_8000']).optional(),
    language: z.string().min(1).max(64).optional(),
    quality: z.enum(['standard', 'studio', 'phone']).optional(),
    max_credits: z.number().int().min(0).optional(),
    save: z.boolean().optional(),
    title: z.string().max(200).optional(),
  })
  .strict();
export type StreamRequest = z.infer<typeof streamRequestSchema>;
export const NOT_ON_STREAM = ['speed', 'script', 'lines', 'cast', 'auto_convert', 'auto_cast', 'retake_of', 'reuse', 'mode'] as const;

export const voiceListQuery = z.object({
  source: z.enum(['all', 'stock', 'mine']).optional(),
  language: z.string().max(64).optional(),
  gender: z.string().max(32).optional(),
  q: z.string().max(200).optional(),
  featured: z.enum(['true', 'false', '1', '0']).optional(),
});

/**
 * GET /voice/generations (the library). `page` and `per_page` are never refused: `paging` clamps them as
 * docs/decisions.md "Lists and paging" says (non-numeric page 1, per_page 20; per_page within 1-100;
 * page at least 1).
 */
export const libraryQuery = z.object({
  page: z.string().optional().catch(undefined).meta({ type: 'integer', minimum: 1, description: '1-based page (default 1; below 1 or not a number: 1)' }),
  per_page: z.string().optional().catch(undefined).meta({ type: 'integer', minimum: 1, maximum: 100, description: 'Items per page (default 20; clamped to 1-100; not a number: 20)' }),
  search: z.string().max(200).optional().describe("Keeps generations whose title, words or voice name contain it, ignoring case (blank: no filter)"),
});

/** GET /voice/credits: the ledger's paging, clamped like the library's. */
export const creditsQuery = libraryQuery.pick({ page: true, per_page: true });

export const audioQuery = z.object({ format: z.enum(['mp3', 'wav', 'ogg_opus', 'mulaw_8k', 'pcm_24k', 'ulaw_8000']).optional() });

/** The first problem of a zod failure as a 400 naming the field. */
export function parseOr400<T>(schema: z.ZodType<T>, value: unknown): T {
  const r = schema.safeParse(value ?? {});
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const field = issue.path.join('.') || (issue.code === 'unrecognized_keys' ? (issue as { keys?: string[] }).keys?.[0] : undefined);
  return fail(badRequest(`${field ? `${field}: ` : ''}${issue.message}`, field ? { field } : {}));
}

const fail = (e: FormloomError): never => {
  throw e;
};

/** `speed` in range (default 1); 400 otherwise. */
export function checkSpeed(body: Pick<VoiceRequest, 'speed'>): number {
  const speed = body.speed ?? 1;
  if (!(speed >= MIN_SPEED && speed <= MAX_SPEED)) {
    throw badRequest(`speed: must be between ${MIN_SPEED} and ${MAX_SPEED}`, { field: 'speed', min: MIN_SPEED, max: MAX_SPEED });
  }
  return speed;
}

/** Fields that only a script (`mode: script`, or its estimate) may carry. */
const SCRIPT_ONLY = ['lines', 'script', 'cast', 'auto_convert', 'auto_cast'] as const;

/** Checks what the schema cannot: text present, speed in range, no script fields (`retake_of` is taken apart before). */
export function checkSpeak(body: VoiceRequest): { text: string; voice: string; speed: number } {
  const scriptField = SCRIPT_ONLY.find((k) => body[k] !== undefined);
  if (scriptField) throw badRequest(`${scriptField}: only for mode script`, { field: scriptField, reason: 'script_only' });
  if (typeof body.text !== 'string' || !body.text.trim()) throw badRequest('text: required', { field: 'text' });
  if (!body.voice) throw badRequest('voice: required (an nv_ id from GET /api/v1/voice/voices)', { field: 'voice' });
  return { text: body.text, voice: body.voice, speed: checkSpeed(body) };
}
