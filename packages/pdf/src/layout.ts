import PDFDocument from 'pdfkit';
import { needsBidi } from './bidi-chars';
import { bidiLines, type Measure, type VisualLine } from './bidi-lines';
import { type DocumentFonts, type FontName, type FontRun, fontRuns, mirroredFontName, paragraphIsRtl, registerFonts, styleFonts } from './fonts';
import type { Inline } from './markdown';

export const PAGE_MARGIN = 64;
export const BODY_SIZE = 10.5;
export const MUTED = '#555555';

/** Custom document-information keys; `verify` reads them back (see docs/signing.md). */
export const INFO_KEYS = {
  sessionId: 'FormloomSessionId',
  questionId: 'FormloomQuestionId',
  auditHeadHash: 'FormloomAuditHeadHash',
  formId: 'FormloomFormId',
  status: 'FormloomStatus',
} as const;

export interface DocumentMeta {
  title: string;
  sessionId: string;
  questionId: string;
  formId?: string | null;
  auditHeadHash: string;
  status: 'signed' | 'voided';
  /** Fixes CreationDate, ModDate and so the file ID (pdfkit derives it from the info). */
  date: Date;
}

/** A pdfkit document with fixed metadata and buffered pages, and a promise of its bytes once ended. */
export interface OpenDocument {
  doc: PDFKit.PDFDocument;
  bytes: Promise<Buffer>;
}

export function openDocument(meta: DocumentMeta, fonts: DocumentFonts): OpenDocument {
  const info: Record<string, string | Date> = {
    Title: meta.title,
    Author: 'Formloom',
    Subject: meta.status === 'voided' ? 'Voided contract' : 'Signed contract',
    Creator: 'Formloom',
    Producer: 'Formloom (PDFKit)',
    CreationDate: meta.date,
    ModDate: meta.date,
    [INFO_KEYS.sessionId]: meta.sessionId,
    [INFO_KEYS.questionId]: meta.questionId,
    [INFO_KEYS.auditHeadHash]: meta.auditHeadHash,
    [INFO_KEYS.status]: meta.status,
  };
  if (meta.formId) info[INFO_KEYS.formId] = meta.formId;
  const doc = new PDFDocument({
    size: 'A4',
    margin: PAGE_MARGIN,
    bufferPages: true,
    pdfVersion: '1.7',
    info: info as PDFKit.DocumentInfo,
  });
  const chunks: Buffer[] = [];
  const bytes = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  // A failed render must not leave an unhandled rejection behind.
  bytes.catch(() => undefined);
  registerFonts(doc, fonts);
  doc.font('regular').fontSize(BODY_SIZE).fillColor('black');
  return { doc, bytes };
}

export interface TextOptions {
  size?: number;
  x?: number;
  width?: number;
  color?: string;
  align?: 'left' | 'center' | 'right';
  /** Space after the text, in lines of its size. */
  after?: number;
}

/** Draws styled runs as one flowing paragraph, switching fonts where a glyph needs another one. */
export function drawInlines(doc: PDFKit.PDFDocument, fonts: DocumentFonts, inlines: Inline[], options: TextOptions = {}): void {
  const size = options.size ?? BODY_SIZE;
  const x = options.x ?? doc.page.margins.left;
  const width = options.width ?? doc.page.width - doc.page.margins.right - x;
  const pieces = inlines.flatMap((inline) => fontRuns(inline.text, styleFonts(inline), fonts)).filter((run) => run.text);
  doc.fillColor(options.color ?? 'black').fontSize(size);
  if (pieces.length === 0) pieces.push({ font: 'regular', text: ' ' });
  const text = pieces.map((piece) => piece.text).join('');
  if (needsBidi(text)) {
    // Right-to-left letters anywhere: lines are broken and reordered here (bidi-lines.ts), not by pdfkit.
    const rtl = paragraphIsRtl(text);
    drawBidiParagraph(doc, fonts, pieces, { x, width, size, align: options.align ?? (rtl ? 'right' : 'left'), rtl });
  } else {
    // Scripts whose glyphs are reordered or combined (Devanagari) carry their text as ActualText, so copying and
    // search give the characters back as written (the marked span holds exactly the paragraph's glyphs).
    const actual = /[\u0900-\u097f]/.test(text) ? text : null;
    if (actual) doc.markContent('Span', { actual });
    pieces.forEach((piece, i) => {
      const continued = i < pieces.length - 1;
      doc.font(piece.font);
      if (i === 0) doc.text(piece.text, x, doc.y, { width, continued, align: options.align ?? 'left', lineGap: 2 });
      else doc.text(piece.text, { continued });
    });
    if (actual) doc.endMarkedContent();
  }
  doc.fillColor('black');
  if (options.after) doc.moveDown(options.after);
}

const LINE_GAP = 2;

/** Lays a mixed-direction paragraph out in lines (bidi-lines.ts) and draws them, starting a page where needed. */
function drawBidiParagraph(
  doc: PDFKit.PDFDocument,
  fonts: DocumentFonts,
  pieces: FontRun[],
  options: { x: number; width: number; size: number; align: 'left' | 'center' | 'right'; rtl: boolean },
): void {
  const { x, width, size } = options;
  const lines = bidiLines(pieces, width, options.rtl, measureWith(doc, size));
  let y = doc.y;
  for (const line of lines) {
    const height = lineHeight(doc, line, size, pieces[0].font);
    if (y + height > doc.page.height - doc.page.margins.bottom && y > doc.page.margins.top) {
      doc.addPage();
      y = doc.y;
    }
    const offset = options.align === 'right' ? width - line.width : options.align === 'center' ? (width - line.width) / 2 : 0;
    drawVisualLine(doc, fonts, line, x + offset, y, size);
    y += height;
  }
  doc.x = x;
  doc.y = y;
}

/** A line's height: that of its tallest font (an empty line: the paragraph's first font), and the gap. */
function lineHeight(doc: PDFKit.PDFDocument, line: VisualLine, size: number, emptyFont: FontName): number {
  const fontNames = line.runs.length > 0 ? line.runs.map((run) => run.font) : [emptyFont];
  return Math.max(...fontNames.map((font) => doc.font(font).fontSize(size).currentLineHeight(true))) + LINE_GAP;
}

/** The height `drawInlines` takes for these inlines in `width` (without `after`), for laying out table rows. */
export function inlinesHeight(doc: PDFKit.PDFDocument, fonts: DocumentFonts, inlines: Inline[], width: number, size: number, bold: boolean): number {
  const pieces = inlines.flatMap((inline) => fontRuns(inline.text, styleFonts({ ...inline, bold: bold || inline.bold }), fonts)).filter((run) => run.text);
  const text = pieces.map((piece) => piece.text).join('');
  if (!needsBidi(text)) return doc.font(bold ? 'bold' : 'regular').fontSize(size).heightOfString(inlines.map((i) => i.text).join('') || ' ', { width });
  const lines = bidiLines(pieces, width, paragraphIsRtl(text), measureWith(doc, size));
  return lines.reduce((sum, line) => sum + lineHeight(doc, line, size, pieces[0].font), 0);
}

/** Width of a run of text in one font at `size`, as pdfkit will lay it out. */
export function measureWith(doc: PDFKit.PDFDocument, size: number): Measure {
  return (font, text) => doc.font(font).fontSize(size).widthOfString(text);
}

/**
 * Draws one line's runs left to right from `x`, the line's top at `top`, on one baseline (that of the font
 * with the tallest ascender). Devanagari runs carry their text as ActualText, as in left-to-right paragraphs.
 */
export function drawVisualLine(doc: PDFKit.PDFDocument, fonts: DocumentFonts, line: VisualLine, x: number, top: number, size: number): void {
  const ascent = Math.max(0, ...line.runs.map((run) => fonts.fonts[run.font].ascent / fonts.fonts[run.font].unitsPerEm));
  const baseline = top + ascent * size;
  let left = x;
  for (const run of line.runs) {
    doc.font(run.mirrored ? mirroredFontName(run.font) : run.font).fontSize(size);
    const actual = /[\u0900-\u097f]/.test(run.text) ? run.text : null;
    if (actual) doc.markContent('Span', { actual });
    doc.text(run.text, left, baseline, { lineBreak: false, baseline: 'alphabetic' });
    if (actual) doc.endMarkedContent();
    left += run.width;
  }
}

/** Draws plain text (one style) the same way. */
export function drawText(doc: PDFKit.PDFDocument, fonts: DocumentFonts, text: string, options: TextOptions & { bold?: boolean; italic?: boolean } = {}): void {
  drawInlines(doc, fonts, [{ text, bold: options.bold ?? false, italic: options.italic ?? false }], options);
}

/** Starts a new page unless `height` points still fit on this one. */
export function ensureSpace(doc: PDFKit.PDFDocument, height: number): void {
  if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
}

/** A thin horizontal line across the text column at the current position. */
export function rule(doc: PDFKit.PDFDocument, color = '#bbbbbb'): void {
  const y = doc.y + 4;
  doc.save().moveTo(doc.page.margins.left, y).lineTo(doc.page.width - doc.page.margins.right, y).lineWidth(0.6).strokeColor(color).stroke().restore();
  doc.y = y + 8;
}

/** ISO 8601 as `2026-03-01 14:05:09 UTC`, independent of the machine's locale and zone. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '-';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/**
 * Footer on every page and, for a voided document, a `VOIDED` banner and a diagonal `VOIDED` across each page. Drawn after all
 * content (pages are buffered) and before the seal, never after it.
 */
export function finishPages(doc: PDFKit.PDFDocument, fonts: DocumentFonts, footer: string, voidedAt: string | null): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const { width, height, margins } = doc.page;
    // Writing inside the bottom margin would make pdfkit start a new page: lift the margin while drawing.
    const bottom = margins.bottom;
    margins.bottom = 0;
    const label = `${footer}  \u00b7  page ${i + 1} of ${range.count}`;
    const text = fontRuns(label, ['regular'], fonts).map((run) => run.text).join('');
    doc.font('regular').fontSize(7.5).fillColor(MUTED);
    if (needsBidi(label)) {
      // A right-to-left title: shaped in its own font and set in display order within the left-to-right footer.
      const line = bidiLines(fontRuns(label, styleFonts({}), fonts), Infinity, false, measureWith(doc, 7.5))[0];
      drawVisualLine(doc, fonts, line, margins.left + (width - margins.left - margins.right - line.width) / 2, height - bottom / 2 - 4, 7.5);
    } else {
      doc.text(text, margins.left, height - bottom / 2 - 4, { width: width - margins.left - margins.right, align: 'center', lineBreak: false });
    }
    if (voidedAt) {
      doc.font('bold').fontSize(9).fillColor('#cc0000');
      doc.text(`VOIDED ${formatTime(voidedAt)}: this document is not in force.`, margins.left, margins.top / 2 - 4, {
        width: width - margins.left - margins.right,
        align: 'center',
        lineBreak: false,
      });
      // Drawn last on the page, so text extraction finds it after everything else.
      doc.save();
      doc.rotate(-Math.atan2(height, width) * (180 / Math.PI), { origin: [width / 2, height / 2] });
      doc.font('bold').fontSize(120).fillColor('#cc0000').fillOpacity(0.22);
      const textWidth = doc.widthOfString('VOIDED');
      doc.text('VOIDED', width / 2 - textWidth / 2, height / 2 - 120 * 0.6, { lineBreak: false });
      doc.restore();
    }
    margins.bottom = bottom;
    doc.fillColor('black').fillOpacity(1);
  }
}
