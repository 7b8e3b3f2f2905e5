import bidiFactory from 'bidi-js';

/*
 * Character-level facts of the Unicode bidirectional algorithm (UAX #9, bidi-js), shared by the line layout
 * (./bidi-lines.ts) and the fonts' mirrored copies (./fonts.ts). bidi-js builds its tables when its factory
 * runs: that happens at the first call, not when this module is imported.
 */

let instance: ReturnType<typeof bidiFactory> | undefined;

/** The bidi-js instance, made at first use. */
export function bidi(): ReturnType<typeof bidiFactory> {
  return (instance ??= bidiFactory());
}

const NEEDS_BIDI = new Set(['R', 'AL', 'AN', 'RLE', 'RLO', 'RLI', 'FSI']);

/** Whether `text` holds anything the bidi algorithm would move (right-to-left letters, Arabic numbers, controls). */
export function needsBidi(text: string): boolean {
  const b = bidi();
  for (const char of text) if (NEEDS_BIDI.has(b.getBidiCharTypeName(char))) return true;
  return false;
}

/** The mirror image of a character (`(` for `)`), or the character itself. */
export function mirrorCharacter(char: string): string {
  return bidi().getMirroredCharacter(char) ?? char;
}
