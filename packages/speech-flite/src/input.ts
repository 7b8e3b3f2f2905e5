/**
 * What the Flite engine accepts: its four built-in voices, the speed range, and the text cut into the
 * sentence-sized pieces that one Flite run synthesizes. See docs/voice.md ("Flite voices").
 */
import type { EngineVoice } from '@formloom/core';

/**
 * The voices built into the Flite wasm binary (no voice files are loaded). Every one produces 16,000 Hz
 * mono 16-bit PCM (measured: the RIFF header of each voice's output). `rms` is the clearest and the
 * default the voice service offers first; `kal` (8 kHz diphone) is left out as markedly worse than `kal16`.
 */
export const FLITE_VOICES: readonly EngineVoice[] = Object.freeze([
  { id: 'rms', name: 'Flite RMS (American English, male)', language: 'en-US', gender: 'male', sampleRate: 16_000 },
  { id: 'slt', name: 'Flite SLT (American English, female)', language: 'en-US', gender: 'female', sampleRate: 16_000 },
  {
    id: 'awb',
    name: 'Flite AWB (Scottish English, male)',
    language: 'en-GB-scotland',
    gender: 'male',
    sampleRate: 16_000,
  },
  { id: 'kal16', name: 'Flite KAL16 (American English, male)', language: 'en-US', gender: 'male', sampleRate: 16_000 },
] satisfies EngineVoice[]);

/** The default voice: the most intelligible of the four as measured for docs/voice.md. */
export const DEFAULT_FLITE_VOICE = 'rms';

/**
 * Speeds outside this range are refused with `RangeError`. The API allows 0.85-1.15; the engine accepts
 * more so that other callers (previews, tests) can use it, but not values that make Flite produce
 * nonsense or run for minutes.
 */
export const MIN_SPEED = 0.25;
export const MAX_SPEED = 4;

/** Flite's `duration_stretch` for a speaking rate: 2 makes speech twice as long, so it is 1 / speed. */
export function durationStretch(speed: number): number {
  if (typeof speed !== 'number' || !Number.isFinite(speed) || speed < MIN_SPEED || speed > MAX_SPEED) {
    throw new RangeError(`speed must be a number from ${MIN_SPEED} to ${MAX_SPEED}, got ${String(speed)}`);
  }
  return 1 / speed;
}

/** One Flite run's worth of text. */
export interface TextPiece {
  /** What Flite is given (normalized, at most `maxChars` long). */
  text: string;
  /** 0-based index of the sentence it belongs to (sentences without a letter or digit are not counted). */
  sentence: number;
  /** The whole sentence as written, on the first piece of each sentence (for its marker). */
  sentenceText?: string;
}

/** Longer sentences are cut into pieces of at most this many characters (one Flite run each). */
export const DEFAULT_MAX_PIECE_CHARS = 400;

const SPOKEN = /[\p{L}\p{N}]/u;

/**
 * Splits `text` into sentences with `Intl.Segmenter` and cuts sentences longer than `maxChars` at the
 * last clause break (`,;:` or a dash) or space before the limit, so that no single Flite run (which
 * cannot be interrupted) takes long and a text without full stops still starts speaking early.
 */
export function splitText(text: string, maxChars = DEFAULT_MAX_PIECE_CHARS): TextPiece[] {
  const pieces: TextPiece[] = [];
  let sentence = 0;
  for (const { segment } of new Intl.Segmenter('en', { granularity: 'sentence' }).segment(text)) {
    const written = segment.trim();
    if (!SPOKEN.test(written)) continue;
    const parts = cut(forFlite(written), maxChars);
    if (parts.length === 0) continue;
    parts.forEach((part, i) => {
      pieces.push(i === 0 ? { text: part, sentence, sentenceText: written } : { text: part, sentence });
    });
    sentence++;
  }
  return pieces;
}

/**
 * Flite reads its input as 8-bit text and knows only ASCII punctuation: accents are dropped (`café` ->
 * `cafe`, which it pronounces well), typographic quotes and dashes become their ASCII forms, and control
 * and format characters become spaces. Other scripts pass through; Flite skips what it cannot read.
 */
export function forFlite(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[\u2018\u2019\u201A\u2032]/g, "'")
    .replace(/[\u201C\u201D\u201E\u2033]/g, '"')
    .replace(/[\u2013\u2014\u2212]/g, ' - ')
    .replace(/\u2026/g, '...')
    .replace(/[\p{Cc}\p{Cf}]/gu, ' ') // control characters (a NUL cannot even be a process argument)
    .replace(/\s+/g, ' ')
    .trim();
}

function cut(text: string, maxChars: number): string[] {
  const parts: string[] = [];
  let rest = text;
  while (rest.length > maxChars) {
    const window = rest.slice(0, maxChars + 1);
    let at = Math.max(
      window.lastIndexOf(', '),
      window.lastIndexOf('; '),
      window.lastIndexOf(': '),
      window.lastIndexOf(' - ')
    );
    if (at < maxChars / 4) at = window.lastIndexOf(' ');
    const end = at < maxChars / 4 ? maxChars : at + 1; // no break in reach (one very long word): a hard cut
    const head = rest.slice(0, end).trim();
    if (head) parts.push(head);
    rest = rest.slice(end).trim();
  }
  if (rest) parts.push(rest);
  return parts.filter((part) => SPOKEN.test(part));
}

/** Finds a voice by id; `undefined` for an unknown one. */
export function findVoice(id: string): EngineVoice | undefined {
  return FLITE_VOICES.find((voice) => voice.id === id);
}
