/**
 * Voice pricing (docs/voice.md, "Billing"): 0.4 credits per spoken character in every language, rounded
 * up to a whole credit once per request. Pauses are free.
 */

/** The rate card version named in `meta.rate_card` and `Service-Rate-Card`. */
export const RATE_CARD = '2026-11-01';
/** Tenths of a credit per spoken character (integer arithmetic: no floating-point rounding surprises). */
const TENTHS_PER_CHARACTER = 4;

export const MAX_SYNC_CHARACTERS = 5_000;
/** About 200 seconds of speech (docs/voice.md, "Streaming"). */
export const MAX_STREAM_CHARACTERS = 3_100;
export const MIN_SPEED = 0.85;
export const MAX_SPEED = 1.15;

/**
 * The characters billed for `text`: every Unicode code point once leading and trailing whitespace is
 * dropped and each run of whitespace counts as one space (line breaks and indentation are not speech).
 */
export function spokenCharacters(text: string): number {
  return [...text.trim().replace(/\s+/gu, ' ')].length;
}

/** Credits for `characters` spoken characters: 75 cost 30, 35 cost 14, 1 costs 1. */
export function creditsFor(characters: number): number {
  return Math.ceil((characters * TENTHS_PER_CHARACTER) / 10);
}

/** A rough playing time: about 15 characters a second at normal speed. */
export function secondsEstimated(characters: number, speed = 1): number {
  return Math.round((characters / 15 / speed) * 10) / 10;
}
