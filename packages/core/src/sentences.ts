/**
 * Splitting text into the sentences speech engines synthesize one at a time (see docs/voice.md, "Speech
 * engines"). Shared by every engine so that sentence markers mean the same thing whatever the engine.
 */

export interface Sentence {
  /** The sentence as written, without surrounding white space. */
  text: string;
  /** 0-based index among the sentences of the text (pieces of an over-long sentence count separately). */
  index: number;
}

/** A sentence longer than this is cut at a comma or space, so one piece of work stays short and abortable. */
export const MAX_SENTENCE_CHARS = 400;

/**
 * Sentences of `text` by Unicode sentence boundaries (`Intl.Segmenter`, in the language's own rules when
 * `locale` is a known tag). Segments with nothing to pronounce (white space, punctuation, symbols only)
 * are dropped, so empty text gives none. Sentences over `maxChars` are cut into pieces of at most that
 * length, preferring a clause boundary, then a space.
 */
export function splitSentences(text: string, locale?: string, maxChars = MAX_SENTENCE_CHARS): Sentence[] {
  const segmenter = new Intl.Segmenter(safeLocale(locale), { granularity: 'sentence' });
  const out: Sentence[] = [];
  for (const { segment } of segmenter.segment(text)) {
    for (const piece of cut(segment.trim(), maxChars)) {
      if (speakable(piece)) out.push({ text: piece, index: out.length });
    }
  }
  return out;
}

/** Whether a piece holds a letter or a digit (anything an engine would pronounce). */
export function speakable(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(text);
}

function safeLocale(locale: string | undefined): string | undefined {
  if (!locale) return undefined;
  try {
    return Intl.getCanonicalLocales(locale)[0];
  } catch {
    return undefined; // a language name such as "German": the default rules split it just as well
  }
}

function cut(sentence: string, maxChars: number): string[] {
  const pieces: string[] = [];
  let rest = sentence;
  while (rest.length > maxChars) {
    const window = rest.slice(0, maxChars + 1);
    let at = Math.max(
      window.lastIndexOf(', '),
      window.lastIndexOf('; '),
      window.lastIndexOf(': '),
      window.lastIndexOf('、'),
      window.lastIndexOf('，'),
    );
    if (at < maxChars / 2) at = window.lastIndexOf(' ');
    // No break in the window (a run of CJK text or one giant token): cut hard, on a code point boundary.
    if (at < maxChars / 4) at = maxChars - (/[\uD800-\uDBFF]/.test(rest[maxChars - 1] ?? '') ? 1 : 0) - 1;
    pieces.push(rest.slice(0, at + 1).trim());
    rest = rest.slice(at + 1).trim();
  }
  if (rest) pieces.push(rest);
  return pieces;
}
