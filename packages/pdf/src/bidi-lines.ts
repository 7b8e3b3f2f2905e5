import { bidi } from './bidi-chars';
import type { FontName, FontRun } from './fonts';

/*
 * Right-to-left and mixed-direction text (Arabic, Hebrew, with numbers and Latin words inside): lines are
 * broken in logical order, then each line is reordered for display with the Unicode bidirectional algorithm
 * (UAX #9, bidi-js): embedding levels per paragraph, visual order per line, mirrored brackets at odd levels.
 * The result is a list of runs in left-to-right drawing order, each in one font and one direction.
 *
 * pdfkit and fontkit only shape: fontkit lays a run out right to left (reverses its glyphs) whenever the run's
 * first letter of a real script is of a right-to-left script, and pdfkit lays text out in pieces split at
 * spaces, in logical order. So every run here is one word or one stretch of spaces, and its text is handed
 * over in the order that makes fontkit's own reversal come out in visual order.
 */


/** A run in drawing order: text as pdfkit must receive it, and its width at the measured size. */
export interface VisualRun {
  font: FontName;
  text: string;
  width: number;
  /** A mirrored character (a bracket at a right-to-left level): drawn with its mirror image's glyph. */
  mirrored?: boolean;
}

/** One line of a paragraph, its runs left to right. */
export interface VisualLine {
  runs: VisualRun[];
  width: number;
}

/** Width of `text` in `font` at the paragraph's size. */
export type Measure = (font: FontName, text: string) => number;

/** Scripts fontkit lays out right to left (its `Script.direction`); only Arabic and Hebrew have fonts here. */
const RTL_SCRIPT = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}]/u;
const COMMON_SCRIPT = /[\p{Script=Common}\p{Script=Inherited}\p{Script=Unknown}]/u;

/** Whether fontkit reverses this text: it goes by the script of the first character that has one. */
function fontkitReverses(text: string): boolean {
  for (const char of text) if (!COMMON_SCRIPT.test(char)) return RTL_SCRIPT.test(char);
  return false;
}

/** A paragraph as one string with the font of each UTF-16 unit. */
interface Styled {
  text: string;
  fontAt: FontName[];
}

function styled(pieces: FontRun[]): Styled {
  const fontAt: FontName[] = [];
  for (const piece of pieces) for (let i = 0; i < piece.text.length; i++) fontAt.push(piece.font);
  return { text: pieces.map((piece) => piece.text).join(''), fontAt };
}

/** Width of the logical range [start, end) measured font by font. */
function rangeWidth(par: Styled, start: number, end: number, measure: Measure): number {
  let width = 0;
  let from = start;
  for (let i = start + 1; i <= end; i++) {
    if (i === end || par.fontAt[i] !== par.fontAt[from]) {
      width += measure(par.fontAt[from], par.text.slice(from, i));
      from = i;
    }
  }
  return width;
}

/**
 * Breaks a paragraph into lines of at most `width` (at spaces; a word longer than a line at grapheme
 * boundaries) and orders each line for display. `rtl` is the paragraph's base direction. A `\n` ends a line.
 */
export function bidiLines(pieces: FontRun[], width: number, rtl: boolean, measure: Measure): VisualLine[] {
  const par = styled(pieces);
  const lines: VisualLine[] = [];
  let offset = 0;
  for (const segment of par.text.split('\n')) {
    const part: Styled = { text: segment, fontAt: par.fontAt.slice(offset, offset + segment.length) };
    offset += segment.length + 1;
    const levels = bidi().getEmbeddingLevels(segment, rtl ? 'rtl' : 'ltr');
    for (const [start, end] of breakLines(part, width, measure)) lines.push(orderLine(part, levels, start, end, measure));
  }
  return lines;
}

/** Greedy line breaking in logical order: [start, end) ranges without their trailing spaces. */
function breakLines(par: Styled, width: number, measure: Measure): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  let lineStart = 0;
  let lineEnd = 0; // end of the last word on the line
  let lineWidth = 0;
  let spaceWidth = 0; // spaces after the last word, counted once a word follows them
  const tokens = par.text.matchAll(/\s+|\S+/gu);
  for (const token of tokens) {
    const start = token.index;
    const end = start + token[0].length;
    const tokenWidth = rangeWidth(par, start, end, measure);
    if (/^\s/u.test(token[0])) {
      spaceWidth += tokenWidth;
      continue;
    }
    if (lineEnd > lineStart && lineWidth + spaceWidth + tokenWidth > width) {
      ranges.push([lineStart, lineEnd]);
      lineStart = start;
      lineEnd = start;
      lineWidth = 0;
      spaceWidth = 0;
    }
    if (lineEnd === lineStart && tokenWidth > width) {
      // A word wider than the line: as many graphemes per line as fit.
      for (const { segment, index } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(token[0])) {
        const from = start + index;
        const to = from + segment.length;
        const graphemeWidth = rangeWidth(par, from, to, measure);
        if (lineEnd > lineStart && lineWidth + spaceWidth + graphemeWidth > width) {
          ranges.push([lineStart, lineEnd]);
          lineStart = from;
          lineWidth = 0;
          spaceWidth = 0;
        }
        lineEnd = to;
        lineWidth += spaceWidth + graphemeWidth;
        spaceWidth = 0;
      }
      continue;
    }
    lineWidth += spaceWidth + tokenWidth;
    spaceWidth = 0;
    lineEnd = end;
  }
  if (lineEnd > lineStart || ranges.length === 0) ranges.push([lineStart, lineEnd]);
  return ranges;
}

/** One line's runs in visual order (UAX #9 rule L2 from bidi-js, mirroring by rule L4). */
function orderLine(par: Styled, levels: ReturnType<ReturnType<typeof bidi>['getEmbeddingLevels']>, start: number, end: number, measure: Measure): VisualLine {
  if (end <= start) return { runs: [], width: 0 };
  const order = bidi().getReorderedIndices(par.text, levels, start, end - 1).slice(start, end);
  const mirrored = bidi().getMirroredCharactersMap(par.text, levels.levels, start, end - 1);
  const isSpace = (i: number) => /\s/u.test(par.text[i]);
  // Group the visual order into runs of adjacent characters of one font, one level, all spaces or none. A
  // mirrored character is a run of its own: it shows its mirror image's glyph but must read as itself
  // (fonts.ts, mirroredGlyphFont).
  const groups: number[][] = [];
  for (const index of order) {
    const group = groups[groups.length - 1];
    const last = group?.[group.length - 1];
    const joins =
      last !== undefined &&
      !mirrored.has(index) &&
      !mirrored.has(last) &&
      Math.abs(index - last) === 1 &&
      par.fontAt[index] === par.fontAt[last] &&
      levels.levels[index] === levels.levels[last] &&
      isSpace(index) === isSpace(last);
    if (joins) group.push(index);
    else groups.push([index]);
  }
  const runs = groups.map((group): VisualRun => {
    const from = Math.min(...group);
    const to = Math.max(...group) + 1;
    let logical = '';
    for (let i = from; i < to; i++) logical += mirrored.get(i) ?? par.text[i];
    const odd = (levels.levels[from] & 1) === 1;
    // Visual order is the reverse of logical order at odd levels; fontkit reverses some runs itself.
    const text = odd !== fontkitReverses(logical) ? [...logical].reverse().join('') : logical;
    const font = par.fontAt[from];
    const run: VisualRun = { font, text, width: measure(font, text) };
    if (mirrored.has(from)) run.mirrored = true;
    return run;
  });
  return { runs, width: runs.reduce((sum, run) => sum + run.width, 0) };
}
