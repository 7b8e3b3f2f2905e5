import { MEASURED_VOICES } from './measured-voices';

/** The bench's table, typed here so the generated file holds data only. */
const MEASURED: Readonly<Record<string, MeasuredVoice>> = MEASURED_VOICES;

/**
 * How well a voice is understood, as the voice bench measured it (docs/voice.md, "Voice quality"): the word
 * error rate of a speech recogniser (pocketsphinx, US English model) on the voice reading plain prose.
 * Only English can be measured that way, so every other voice is `unmeasured`.
 */
export type Intelligibility = 'high' | 'medium' | 'low' | 'unmeasured';

export interface VoiceQuality {
  intelligibility: Intelligibility;
  /** Word error rate on the prose set (0.05 = 5%), or null when the voice was not measured. */
  wer: number | null;
  /** The text set `wer` was measured on (`plain prose`), or null when the voice was not measured. */
  measured_with: string | null;
}

/** One voice's row of the bench's table (measured-voices.ts). */
export interface MeasuredVoice {
  /** Word error rate on the plain prose set: what `quality.wer` and the level say. */
  prose_wer: number;
  /** Word error rate on the Harvard sentences (harder: rare words, no context); shown in the docs only. */
  harvard_wer: number;
  /** The voice's language (BCP 47) when it was measured; for the docs. */
  language: string;
  /** The day of the bench run (YYYY-MM-DD). */
  measured_at: string;
}

/** The text set `quality.wer` comes from (bench/lib/voice-text.js, PROSE). */
export const MEASURED_WITH = 'plain prose';

/**
 * The bar of `high` (and of `featured`): at most 10% of the prose's words misheard. Up to 25% is `medium`;
 * the bench fails when a featured English voice is over the bar (docs/benchmarks.md, "voice intelligibility").
 */
export const INTELLIGIBILITY_BARS = { high: 0.1, medium: 0.25 } as const;

/** The level of a measured word error rate. */
export function intelligibilityOf(wer: number): Exclude<Intelligibility, 'unmeasured'> {
  if (wer <= INTELLIGIBILITY_BARS.high) return 'high';
  return wer <= INTELLIGIBILITY_BARS.medium ? 'medium' : 'low';
}

/** The key of an engine voice in the bench's table. */
export const measuredVoiceKey = (engine: string, engineVoice: string) => `${engine}:${engineVoice}`;

/**
 * What the bench measured for an engine voice; `table` is the generated one unless a test or host gives its
 * own (engines of a host's own, such as an OpenAI-compatible server, are not in it: `unmeasured`).
 */
export function qualityOf(engine: string, engineVoice: string, table: Readonly<Record<string, MeasuredVoice>> = MEASURED): VoiceQuality {
  const row = table[measuredVoiceKey(engine, engineVoice)];
  if (!row) return { intelligibility: 'unmeasured', wer: null, measured_with: null };
  return { intelligibility: intelligibilityOf(row.prose_wer), wer: row.prose_wer, measured_with: MEASURED_WITH };
}

/** Sort key of a quality: lower is better; every measured voice before every unmeasured one. */
export const qualityRank = (q: VoiceQuality) => (q.wer === null ? Number.POSITIVE_INFINITY : q.wer);
