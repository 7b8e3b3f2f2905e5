import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { inflateSync } from 'node:zlib';
import * as fontkit from 'fontkit';
import { mirrorCharacter } from './bidi-chars';

/**
 * The fonts a document uses, all shipped in npm packages so nothing is downloaded at run time:
 * DejaVu Sans (Bitstream Vera licence; Latin, Greek, Cyrillic and more) for text, and Dancing Script (SIL OFL
 * 1.1) for typed signatures. Standard PDF fonts are not used: they cannot draw most of Unicode.
 */
export type FontName =
  | 'regular' | 'bold' | 'italic' | 'boldItalic' | 'script' | 'scriptExt'
  | 'arabic' | 'arabicBold' | 'hebrew' | 'hebrewBold' | 'devanagari' | 'devanagariBold'
  | 'han' | 'hanBold' | 'hangul' | 'hangulBold';

const FONT_FILES: Record<FontName, string> = {
  regular: 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf',
  bold: 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf',
  italic: 'dejavu-fonts-ttf/ttf/DejaVuSans-Oblique.ttf',
  boldItalic: 'dejavu-fonts-ttf/ttf/DejaVuSans-BoldOblique.ttf',
  script: '@fontsource/dancing-script/files/dancing-script-latin-400-normal.woff',
  scriptExt: '@fontsource/dancing-script/files/dancing-script-latin-ext-400-normal.woff',
  // Noto (SIL OFL 1.1) for the scripts DejaVu does not draw well or at all: shaped Arabic, Hebrew,
  // Devanagari (with its conjuncts), Chinese and Japanese (Noto Sans Hans: GB2312 with kana), Korean.
  arabic: '@embedpdf/fonts-arabic/fonts/NotoNaskhArabic-Regular.ttf',
  arabicBold: '@embedpdf/fonts-arabic/fonts/NotoNaskhArabic-Bold.ttf',
  hebrew: '@embedpdf/fonts-hebrew/fonts/NotoSansHebrew-Regular.ttf',
  hebrewBold: '@embedpdf/fonts-hebrew/fonts/NotoSansHebrew-Bold.ttf',
  devanagari: '@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-400-normal.woff',
  devanagariBold: '@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-700-normal.woff',
  han: '@embedpdf/fonts-sc/fonts/NotoSansHans-Regular.otf',
  hanBold: '@embedpdf/fonts-sc/fonts/NotoSansHans-Bold.otf',
  hangul: '@embedpdf/fonts-kr/fonts/NotoSansKR-Regular.otf',
  hangulBold: '@embedpdf/fonts-kr/fonts/NotoSansKR-Bold.otf',
};

/** The Noto fallbacks after the style's own fonts, regular or bold. */
const FALLBACKS: FontName[] = ['arabic', 'hebrew', 'devanagari', 'han', 'hangul'];
const BOLD_FALLBACKS: FontName[] = ['arabicBold', 'hebrewBold', 'devanagariBold', 'hanBold', 'hangulBold'];

/** Arabic and Hebrew go to their Noto fonts first (DejaVu has some of their letters, unshaped). */
function scriptFonts(codePoint: number, bold: boolean): FontName[] | null {
  if ((codePoint >= 0x0600 && codePoint <= 0x08ff) || (codePoint >= 0xfb50 && codePoint <= 0xfdff) || (codePoint >= 0xfe70 && codePoint <= 0xfeff)) {
    return bold ? ['arabicBold', 'arabic'] : ['arabic'];
  }
  if ((codePoint >= 0x0590 && codePoint <= 0x05ff) || (codePoint >= 0xfb1d && codePoint <= 0xfb4f)) return bold ? ['hebrewBold', 'hebrew'] : ['hebrew'];
  return null;
}

/** Whether a character is written right to left (Hebrew, Arabic and their presentation forms). */
export function isRtl(codePoint: number): boolean {
  return (codePoint >= 0x0590 && codePoint <= 0x08ff) || (codePoint >= 0xfb1d && codePoint <= 0xfdff) || (codePoint >= 0xfe70 && codePoint <= 0xfeff);
}

/** The direction of a paragraph: that of its first strongly directional letter. */
export function paragraphIsRtl(text: string): boolean {
  for (const char of text) {
    const codePoint = char.codePointAt(0)!;
    if (isRtl(codePoint)) return true;
    if (/\p{L}/u.test(char)) return false;
  }
  return false;
}

/** The characters of `text` that no shipped font can draw (distinct, in order of appearance). */
export function unsupportedCharacters(text: string, fonts: DocumentFonts): string[] {
  const missing = new Set<string>();
  for (const char of text.normalize('NFC')) {
    const codePoint = char.codePointAt(0)!;
    if (codePoint < 0x20 || (codePoint >= 0x7f && codePoint < 0xa0) || isZeroWidth(codePoint)) continue;
    if (!ALL_TEXT_FONTS.some((font) => fonts.has(font, codePoint))) missing.add(char);
  }
  return [...missing];
}

const ALL_TEXT_FONTS: FontName[] = ['regular', ...FALLBACKS];

/**
 * The parsed fonts plus a glyph-coverage check, loaded once per renderer. pdfkit takes the parsed fontkit
 * objects directly, so each document does not parse (and decompress) the font files again.
 */
export interface DocumentFonts {
  fonts: Record<FontName, fontkit.Font>;
  /** Each font again, for mirrored brackets (mirroredGlyphFont). */
  mirrored: Record<FontName, fontkit.Font>;
  has(font: FontName, codePoint: number): boolean;
}

/** One stretch of text drawn in one font. */
export interface FontRun {
  font: FontName;
  text: string;
}

/**
 * The path of a file inside an installed package, also when the package's `exports` map does not list it
 * (the @embedpdf font packages export only their index): found from the package's resolved entry.
 */
function resolveFontFile(spec: string): string {
  try {
    return require.resolve(spec);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_PACKAGE_PATH_NOT_EXPORTED') throw error;
  }
  const parts = spec.split('/');
  const name = spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  const rest = parts.slice(name.split('/').length).join('/');
  let dir = dirname(require.resolve(name));
  while (!existsSync(join(dir, 'package.json')) || basename(dir) !== basename(name)) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`cannot find the package folder of ${name}`);
    dir = up;
  }
  return join(dir, rest);
}

/**
 * Text extraction reads a right-to-left run in visual order and reverses it, glyph by glyph; a ligature
 * (lam-alef) stands for several characters, which would come out swapped. Its characters are therefore
 * recorded (ToUnicode) in visual order too, so the reversal gives the logical text back.
 */
function reverseRtlLigatures(font: fontkit.Font): void {
  const layout = font.layout.bind(font);
  font.layout = ((...args: Parameters<typeof font.layout>) => {
    const run = layout(...args);
    if (run.direction === 'rtl') {
      // fontkit caches glyph objects: a copy carries the reversed characters, the cached one stays as it is.
      run.glyphs = run.glyphs.map((glyph) =>
        glyph.codePoints.length > 1 ? (Object.create(glyph, { codePoints: { value: [...glyph.codePoints].reverse() } }) as typeof glyph) : glyph,
      );
    }
    return run;
  }) as typeof font.layout;
}

/**
 * fontkit caches one glyph object per glyph id for the life of the font, with the characters of the first
 * request. Subsetting a document's font at its end asks for the parts of composite glyphs (the "c" inside
 * "ć") with no characters, so when a part was not drawn on its own first, the cache keeps it characterless
 * and every later document that shares these parsed fonts maps it to nothing in its ToUnicode map: text
 * extraction, copy and search lose the letter. A glyph asked for with characters therefore always carries
 * them (a copy when the cached one differs; the cached object stays as it is).
 */
function keepGlyphCharacters(font: fontkit.Font): void {
  const getGlyph = font.getGlyph.bind(font);
  font.getGlyph = ((id: number, codePoints?: number[]) => {
    const glyph = getGlyph(id, codePoints);
    if (!codePoints || codePoints.length === 0 || sameCodePoints(glyph.codePoints, codePoints)) return glyph;
    return Object.create(glyph, { codePoints: { value: codePoints } }) as typeof glyph;
  }) as typeof font.getGlyph;
}

/**
 * A bracket at a right-to-left level is drawn with its mirror image's glyph: `(` shows as `)`. A font's
 * character map gives one text per glyph, and that glyph also draws the real `)`, so copy, search and text
 * extraction would read the bracket reversed. Mirrored characters are therefore drawn from a second
 * embedding of the font (its own PostScript name, so pdfkit keeps it apart) whose glyphs map back to the
 * characters they stand for.
 */
function mirroredGlyphFont(font: fontkit.Font): fontkit.Font {
  const mirrored = Object.create(font) as fontkit.Font;
  Object.defineProperty(mirrored, 'postscriptName', { value: `${font.postscriptName}-Mirrored` });
  mirrored.layout = ((...args: Parameters<typeof font.layout>) => {
    const run = font.layout(...args);
    run.glyphs = run.glyphs.map((glyph) => {
      const codePoints = (glyph.codePoints ?? []).map((codePoint) => mirrorCharacter(String.fromCodePoint(codePoint)).codePointAt(0)!);
      return Object.create(glyph, { codePoints: { value: codePoints } }) as typeof glyph;
    });
    return run;
  }) as typeof font.layout;
  return mirrored;
}

/** The name under which `registerFonts` registers a font's mirrored-glyph embedding. */
export function mirroredFontName(font: FontName): string {
  return `${font}:mirrored`;
}

function sameCodePoints(a: number[], b: number[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

/** Reads the font files and parses them for glyph coverage. */
export async function loadDocumentFonts(): Promise<DocumentFonts> {
  const names = Object.keys(FONT_FILES) as FontName[];
  const buffers = await Promise.all(names.map((name) => readFile(resolveFontFile(FONT_FILES[name]))));
  const parsed = new Map<FontName, fontkit.Font>();
  const seenNames = new Set<string>();
  names.forEach((name, i) => {
    const font = fontkit.create(woffToSfnt(buffers[i]));
    if (!('hasGlyphForCodePoint' in font)) throw new Error(`font ${FONT_FILES[name]} is a collection`);
    keepGlyphCharacters(font);
    if (name === 'arabic' || name === 'arabicBold') reverseRtlLigatures(font);
    // pdfkit keeps one embedded font per PostScript name: the two Dancing Script files (Latin, Latin Extended)
    // share one, so the second would be drawn with the first's glyph ids and character map (a signature's
    // letters then came out of copy and search wrong). Each file gets a name of its own.
    if (seenNames.has(font.postscriptName)) Object.defineProperty(font, 'postscriptName', { value: `${font.postscriptName}-${name}` });
    seenNames.add(font.postscriptName);
    parsed.set(name, font);
  });
  const cache = new Map<string, boolean>();
  return {
    fonts: Object.fromEntries(parsed) as Record<FontName, fontkit.Font>,
    mirrored: Object.fromEntries([...parsed].map(([name, font]) => [name, mirroredGlyphFont(font)])) as Record<FontName, fontkit.Font>,
    has(font, codePoint) {
      const key = `${font}:${codePoint}`;
      let hit = cache.get(key);
      if (hit === undefined) {
        hit = parsed.get(font)!.hasGlyphForCodePoint(codePoint);
        cache.set(key, hit);
      }
      return hit;
    },
  };
}

/** Registers every font with a pdfkit document under its `FontName`. */
export function registerFonts(doc: PDFKit.PDFDocument, fonts: DocumentFonts): void {
  // pdfkit accepts a fontkit font object where its types say bytes.
  for (const [name, font] of Object.entries(fonts.fonts)) doc.registerFont(name, font as unknown as Buffer);
  // Embedded only when a mirrored bracket is drawn (pdfkit opens a registered font on first use).
  for (const [name, font] of Object.entries(fonts.mirrored)) doc.registerFont(mirroredFontName(name as FontName), font as unknown as Buffer);
}

const REPLACEMENT = 0xfffd;

function isZeroWidth(codePoint: number): boolean {
  // Combining marks and joiners: they go with the run of the character before them.
  return (
    (codePoint >= 0x0300 && codePoint <= 0x036f) ||
    (codePoint >= 0x200b && codePoint <= 0x200f) ||
    (codePoint >= 0xfe00 && codePoint <= 0xfe0f)
  );
}

/**
 * Splits `text` into runs, each in the first of `candidates` that can draw its characters. A character no
 * candidate has becomes U+FFFD (or `?`) in the last candidate, so any Unicode input renders without failing.
 * Control characters other than a line break become spaces.
 */
export function fontRuns(text: string, candidates: FontName[], fonts: DocumentFonts): FontRun[] {
  const runs: FontRun[] = [];
  const last = candidates[candidates.length - 1];
  const push = (font: FontName, chunk: string) => {
    const previous = runs[runs.length - 1];
    if (previous && previous.font === font) previous.text += chunk;
    else runs.push({ font, text: chunk });
  };
  for (const char of text.normalize('NFC')) {
    const codePoint = char.codePointAt(0)!;
    if (char === '\n') {
      push(runs[runs.length - 1]?.font ?? candidates[0], char);
      continue;
    }
    if (codePoint < 0x20 || (codePoint >= 0x7f && codePoint < 0xa0)) {
      push(runs[runs.length - 1]?.font ?? candidates[0], ' ');
      continue;
    }
    if (isZeroWidth(codePoint) && runs.length > 0) {
      const current = runs[runs.length - 1];
      if (fonts.has(current.font, codePoint)) current.text += char;
      continue;
    }
    // Spaces and punctuation stay in the run they are in when its font has them: a right-to-left run is then
    // one piece that fontkit shapes and orders as a whole.
    const current = runs[runs.length - 1];
    if (current && /[\s\p{P}]/u.test(char) && !/[A-Za-z0-9]/.test(char) && FALLBACKS.concat(BOLD_FALLBACKS).includes(current.font) && fonts.has(current.font, codePoint)) {
      current.text += char;
      continue;
    }
    const bold = candidates[0] === 'bold' || candidates[0] === 'boldItalic';
    const font = (scriptFonts(codePoint, bold) ?? candidates).find((name) => fonts.has(name, codePoint)) ?? candidates.find((name) => fonts.has(name, codePoint));
    if (font) push(font, char);
    else push(last, fonts.has(last, REPLACEMENT) ? String.fromCodePoint(REPLACEMENT) : '?');
  }
  return runs;
}

/** The fonts to try, in order, for text of a given style. */
export function styleFonts(style: { bold?: boolean; italic?: boolean }): FontName[] {
  if (style.bold && style.italic) return ['boldItalic', 'bold', 'regular', ...BOLD_FALLBACKS, ...FALLBACKS];
  if (style.bold) return ['bold', 'regular', ...BOLD_FALLBACKS, ...FALLBACKS];
  if (style.italic) return ['italic', 'regular', ...FALLBACKS];
  return ['regular', ...FALLBACKS];
}

/** Typed signatures: the handwriting face where it has the letters, else the text fonts. */
export const SIGNATURE_FONTS: FontName[] = ['script', 'scriptExt', 'regular', ...FALLBACKS];

/**
 * Unwraps a WOFF 1.0 font into the plain TrueType/OpenType (sfnt) it carries (W3C WOFF, section 5). fontkit
 * reads WOFF itself, but re-inflates whole tables with a pure-JS inflater every time pdfkit subsets a glyph;
 * unwrapping once with node:zlib makes rendering several times faster. Other input is returned unchanged.
 */
export function woffToSfnt(font: Buffer): Buffer {
  if (font.length < 44 || font.toString('latin1', 0, 4) !== 'wOFF') return font;
  const flavor = font.readUInt32BE(4);
  const numTables = font.readUInt16BE(12);
  const tables: Array<{ tag: Buffer; checksum: number; data: Buffer }> = [];
  for (let i = 0; i < numTables; i++) {
    const entry = 44 + i * 20;
    const offset = font.readUInt32BE(entry + 4);
    const compressedLength = font.readUInt32BE(entry + 8);
    const length = font.readUInt32BE(entry + 12);
    const stored = font.subarray(offset, offset + compressedLength);
    const data = compressedLength < length ? inflateSync(stored) : stored;
    if (data.length !== length) throw new Error('corrupt WOFF table');
    tables.push({ tag: font.subarray(entry, entry + 4), checksum: font.readUInt32BE(entry + 16), data });
  }
  const entrySelector = Math.floor(Math.log2(numTables));
  const searchRange = 2 ** entrySelector * 16;
  const header = Buffer.alloc(12 + numTables * 16);
  header.writeUInt32BE(flavor, 0);
  header.writeUInt16BE(numTables, 4);
  header.writeUInt16BE(searchRange, 6);
  header.writeUInt16BE(entrySelector, 8);
  header.writeUInt16BE(numTables * 16 - searchRange, 10);
  const parts: Buffer[] = [header];
  let offset = header.length;
  tables.forEach((table, i) => {
    const record = 12 + i * 16;
    table.tag.copy(header, record);
    header.writeUInt32BE(table.checksum, record + 4);
    header.writeUInt32BE(offset, record + 8);
    header.writeUInt32BE(table.data.length, record + 12);
    const padded = Buffer.alloc((table.data.length + 3) & ~3);
    table.data.copy(padded);
    parts.push(padded);
    offset += padded.length;
  });
  return Buffer.concat(parts);
}
