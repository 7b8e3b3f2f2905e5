import PDFDocument from 'pdfkit';
import { type DocumentFonts, fontRuns, paragraphIsRtl, registerFonts, styleFonts } from './fonts';
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
  // A right-to-left paragraph (Arabic, Hebrew): fontkit shapes each run and lays it out right to left; the
  // runs themselves go right to left too, and the paragraph is set flush right. (Runs that wrap over several
  // lines keep this order per paragraph, not per line: a simplification of the Unicode bidi algorithm.)
  const rtl = paragraphIsRtl(inlines.map((inline) => inline.text).join(''));
  if (rtl) pieces.reverse();
  // Scripts whose glyphs are reordered or combined (Devanagari) carry their text as ActualText, so copying and
  // search give the characters back as written (the marked span holds exactly the paragraph's glyphs).
  const text = pieces.map((piece) => piece.text).join('');
  const actual = !rtl && /[\u0900-\u097f]/.test(text) ? text : null;
  if (actual) doc.markContent('Span', { actual });
  pieces.forEach((piece, i) => {
    const continued = i < pieces.length - 1;
    doc.font(piece.font);
    // (A word spacing makes pdfkit place right-to-left words one by one, keeping every space.)
    if (i === 0) doc.text(piece.text, x, doc.y, { width, continued, align: options.align ?? (rtl ? 'right' : 'left'), lineGap: 2, ...(rtl ? { wordSpacing: 0.0001 } : {}) });
    else doc.text(piece.text, { continued });
  });
  if (actual) doc.endMarkedContent();
  doc.fillColor('black');
  if (options.after) doc.moveDown(options.after);
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
    doc.text(text, margins.left, height - bottom / 2 - 4, { width: width - margins.left - margins.right, align: 'center', lineBreak: false });
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
