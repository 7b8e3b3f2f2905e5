import { type Api, type Schemas, call } from './client';

/* The voice area of the API (docs/voice.md): typed calls the Voice studio, library and credits screens use. */

export type Voice = Schemas['Voice'];
export type Generation = Schemas['VoiceGeneration'];
export type Estimate = Schemas['VoiceEstimate'];
export type CreditEntry = Schemas['VoiceCreditEntry'];

/** A script item as the studio edits it: a speaker's line or a pause (docs/voice.md, "Scripts"). */
export type ScriptItem = { kind: 'line'; speaker: string; text: string } | { kind: 'pause'; ms: number };

/** What the studio sends for `speak`, `script` or their `estimate`. */
export interface VoiceRequest {
  mode: 'speak' | 'script';
  voice: string;
  text?: string;
  lines?: ScriptItem[];
  /** Script: one voice per speaker (speaker name -> nv_ id); lines of an uncast speaker use `voice`. */
  cast?: Record<string, string>;
  format?: string;
  quality?: string;
  speed?: number;
  title?: string;
  save?: boolean;
}

/** Formats a generation can be downloaded in (`GET .../audio?format=`), with what a person calls them. */
export const DOWNLOAD_FORMATS: ReadonlyArray<readonly [string, string]> = [
  ['mp3', 'MP3'],
  ['wav', 'WAV'],
  ['ogg_opus', 'Ogg Opus'],
  ['mulaw_8k', 'μ-law 8 kHz'],
  ['pcm_24k', 'PCM 24 kHz'],
];

/** Formats a generation can be made in (`POST /voice` `format`). */
export const MAKE_FORMATS = DOWNLOAD_FORMATS.filter(([f]) => f !== 'pcm_24k');

/** The JSON body of a request: script items become `lines`, the cast `[{speaker, voice}]`. */
export function requestBody(r: VoiceRequest, mode: 'speak' | 'script' | 'estimate') {
  const common = { mode, voice: r.voice, format: r.format, quality: r.quality, speed: r.speed === 1 ? undefined : r.speed };
  const made = mode === 'estimate' ? {} : { title: r.title?.trim() || undefined, save: r.save || undefined };
  if (r.mode === 'speak') return { ...common, ...made, text: r.text ?? '' };
  const lines = (r.lines ?? []).map((l) => (l.kind === 'pause' ? { pause_ms: l.ms } : { ...(l.speaker.trim() ? { speaker: l.speaker.trim() } : {}), text: l.text }));
  const cast = Object.entries(r.cast ?? {})
    .filter(([speaker, voice]) => speaker.trim() && voice)
    .map(([speaker, voice]) => ({ speaker, voice }));
  return { ...common, ...made, lines, ...(cast.length ? { cast } : {}) };
}

export const listVoices = (api: Api, q: { language?: string; gender?: string } = {}) =>
  call(api.client.GET('/voice/voices', { params: { query: { language: q.language || undefined, gender: q.gender || undefined } as never } }));

export const estimate = (api: Api, r: VoiceRequest) => call(api.client.POST('/voice', { body: requestBody(r, 'estimate') as never })) as Promise<{ data: Estimate }>;

export const generate = (api: Api, r: VoiceRequest) => call(api.client.POST('/voice', { body: requestBody(r, r.mode) as never })) as Promise<{ data: Generation }>;

export const estimateRetake = (api: Api, id: string) => call(api.client.POST('/voice', { body: { mode: 'estimate', retake_of: id } as never })) as Promise<{ data: Estimate }>;

export const retake = (api: Api, id: string) => call(api.client.POST('/voice', { body: { mode: 'speak', retake_of: id } as never })) as Promise<{ data: Generation }>;

export const listGenerations = (api: Api, q: { search?: string; page?: number; per_page?: number }) =>
  call(api.client.GET('/voice/generations', { params: { query: { search: q.search || undefined, page: q.page, per_page: q.per_page } as never } }));

export const getGeneration = (api: Api, id: string) => call(api.client.GET('/voice/generations/{id}', { params: { path: { id } } }));

export const deleteGeneration = (api: Api, id: string) => call(api.client.DELETE('/voice/generations/{id}', { params: { path: { id } } }));

export const getCredits = (api: Api, page = 1) => call(api.client.GET('/voice/credits', { params: { query: { page, per_page: 20 } as never } }));

/** The URL of a generation's audio in `format` (relative to the page: the API answers mount-relative URLs). */
export function audioUrl(g: Generation, format: string): string {
  const url = g.audio?.url ?? '';
  return url.replace(/format=[^&]*/, `format=${encodeURIComponent(format)}`);
}

/** What 1,000 credits cost through "Buy credits", and whether this server sells them (docs/payments.md, "Voice credits"). */
export const getCreditPrice = (api: Api) => call(api.client.GET('/voice/credits/price'));

/** Opens a Checkout Session for `credits` (by the thousand); the caller sends the browser to `data.url`. */
export const startCreditCheckout = (api: Api, credits: number, returnPath: string, idempotencyKey: string) =>
  call(api.client.POST('/voice/credits/checkout', { body: { credits, return_path: returnPath }, params: { header: { 'Idempotency-Key': idempotencyKey } as never } }));
