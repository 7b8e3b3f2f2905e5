import type { SignedDocumentInput, SignedDocumentSigner } from '@formloom/core';
import { needsBidi } from './bidi-chars';
import { bidiLines } from './bidi-lines';
import { type DocumentFonts, fontRuns, paragraphIsRtl, SIGNATURE_FONTS } from './fonts';
import { BODY_SIZE, drawInlines, drawText, drawVisualLine, ensureSpace, formatTime, inlinesHeight, measureWith, MUTED, rule } from './layout';
import { type Block, markdownBlocks } from './markdown';
import { decodeDrawnSignature, SignatureImageError } from './signature-check';

const HEADING_SIZES = [18, 15, 13, 12, 11, 11];
const INDENT = 16;
const MARKER_WIDTH = 18;
const SIGNATURE_HEIGHT = 56;

/** The contract pages: title, the contract text, then one block per signer. */
export function drawContractPages(doc: PDFKit.PDFDocument, fonts: DocumentFonts, input: SignedDocumentInput): void {
  const blocks = markdownBlocks(typeof input.contract === 'string' ? input.contract : '');
  // A contract that opens with its own heading is not given the question's title again above it.
  const ownHeading = blocks[0]?.kind === 'heading';
  if (!ownHeading) drawText(doc, fonts, input.question_title || 'Contract', { size: 20, bold: true, after: 0.2 });
  drawText(doc, fonts, `Signing session ${input.session_id}`, { size: 8.5, color: MUTED, after: 0.6 });
  rule(doc);
  for (const block of blocks) drawBlock(doc, fonts, block);
  drawSignatures(doc, fonts, input.signers);
}

function drawBlock(doc: PDFKit.PDFDocument, fonts: DocumentFonts, block: Block): void {
  const left = doc.page.margins.left;
  switch (block.kind) {
    case 'heading': {
      const size = HEADING_SIZES[block.level - 1] ?? BODY_SIZE;
      ensureSpace(doc, size * 3);
      doc.moveDown(0.4);
      drawInlines(doc, fonts, block.inlines.map((inline) => ({ ...inline, bold: true })), { size, after: 0.3 });
      return;
    }
    case 'paragraph': {
      const x = left + block.indent * INDENT;
      ensureSpace(doc, BODY_SIZE * 2);
      if (paragraphIsRtl(block.inlines.map((inline) => inline.text).join(''))) {
        drawRtlParagraph(doc, fonts, block);
        return;
      }
      if (block.marker) {
        const y = doc.y;
        drawText(doc, fonts, block.marker, { x: x - (block.indent > 0 ? INDENT : 0), width: MARKER_WIDTH + INDENT });
        doc.y = y;
        drawInlines(doc, fonts, block.inlines, { x: x - (block.indent > 0 ? INDENT : 0) + MARKER_WIDTH, after: 0.25 });
      } else if (block.quote) {
        // A quote: set in from its bar, in the muted colour, so it never reads as part of a list above it.
        const top = doc.y;
        drawInlines(doc, fonts, block.inlines, { x: x + 14, color: '#333333', after: 0.5 });
        const bottom = doc.y - BODY_SIZE * 0.5;
        if (doc.y > top) doc.save().moveTo(x + 2, top).lineTo(x + 2, bottom).lineWidth(2).strokeColor('#9aa5b8').stroke().restore();
      } else {
        drawInlines(doc, fonts, block.inlines, { x, after: 0.5 });
      }
      return;
    }
    case 'table':
      drawTable(doc, fonts, block, left + block.indent * INDENT);
      return;
    case 'code':
      drawText(doc, fonts, block.text, { x: left + block.indent * INDENT + 8, size: 9, color: '#333333', after: 0.5 });
      return;
    case 'rule':
      rule(doc);
      return;
  }
}

/**
 * A right-to-left paragraph mirrors the left-to-right layout: indented from the right margin, a list marker
 * to the right of its text, a quote's bar on its right.
 */
function drawRtlParagraph(doc: PDFKit.PDFDocument, fonts: DocumentFonts, block: Extract<Block, { kind: 'paragraph' }>): void {
  const left = doc.page.margins.left;
  const right = doc.page.width - doc.page.margins.right - block.indent * INDENT;
  if (block.marker) {
    const end = right + (block.indent > 0 ? INDENT : 0);
    const y = doc.y;
    drawText(doc, fonts, block.marker, { x: end - MARKER_WIDTH, width: MARKER_WIDTH, align: 'right' });
    doc.y = y;
    drawInlines(doc, fonts, block.inlines, { x: left, width: end - MARKER_WIDTH - 4 - left, after: 0.25 });
  } else if (block.quote) {
    const top = doc.y;
    drawInlines(doc, fonts, block.inlines, { x: left, width: right - 14 - left, color: '#333333', after: 0.5 });
    const bottom = doc.y - BODY_SIZE * 0.5;
    if (doc.y > top) doc.save().moveTo(right - 2, top).lineTo(right - 2, bottom).lineWidth(2).strokeColor('#9aa5b8').stroke().restore();
  } else {
    drawInlines(doc, fonts, block.inlines, { x: left, width: right - left, after: 0.5 });
  }
}

/** A table as a grid: equal columns, the header row bold on a tint, every cell wrapping in its column. */
function drawTable(doc: PDFKit.PDFDocument, fonts: DocumentFonts, table: Extract<Block, { kind: 'table' }>, x: number): void {
  const width = doc.page.width - doc.page.margins.right - x;
  const rows = [...(table.header ? [table.header] : []), ...table.rows];
  const columns = Math.max(1, ...rows.map((row) => row.length));
  // A right-to-left table's first column is on the right.
  const rtl = paragraphIsRtl(rows.flat(2).map((inline) => inline.text).join(' '));
  if (rtl) rows.forEach((row, r) => (rows[r] = Array.from({ length: columns }, (_, c) => row[columns - 1 - c] ?? [])));
  const cell = width / columns;
  const pad = 4;
  doc.moveDown(0.2);
  rows.forEach((row, r) => {
    const header = r === 0 && table.header !== null;
    // The row is as tall as its tallest cell (measured in the cell's width).
    const heights = row.map((inlines) => inlinesHeight(doc, fonts, inlines, cell - 2 * pad, 9.5, header));
    const height = Math.max(...heights, 12) + 2 * pad;
    ensureSpace(doc, height + 4);
    const top = doc.y;
    if (header) doc.save().rect(x, top, width, height).fill('#eef1f6').restore();
    for (let c = 0; c < columns; c++) {
      doc.save().rect(x + c * cell, top, cell, height).lineWidth(0.5).strokeColor('#9aa5b8').stroke().restore();
      const inlines = row[c] ?? [];
      doc.y = top + pad;
      drawInlines(doc, fonts, header ? inlines.map((i) => ({ ...i, bold: true })) : inlines, { x: x + c * cell + pad, width: cell - 2 * pad, size: 9.5 });
    }
    doc.y = top + height;
  });
  doc.x = doc.page.margins.left;
  doc.moveDown(0.6);
}

function signerName(signer: SignedDocumentSigner): string {
  return [signer.first_name, signer.last_name].filter((part) => part && part.trim()).join(' ');
}

function drawSignatures(doc: PDFKit.PDFDocument, fonts: DocumentFonts, signers: SignedDocumentSigner[]): void {
  ensureSpace(doc, 60 + SIGNATURE_HEIGHT + 50);
  doc.moveDown(1);
  drawText(doc, fonts, 'Signatures', { size: 14, bold: true, after: 0.4 });
  for (const signer of [...signers].sort((a, b) => a.slot_number - b.slot_number)) {
    drawSignerBlock(doc, fonts, signer);
  }
}

function drawSignerBlock(doc: PDFKit.PDFDocument, fonts: DocumentFonts, signer: SignedDocumentSigner): void {
  ensureSpace(doc, SIGNATURE_HEIGHT + 100);
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  drawText(doc, fonts, `${signer.slot_label || 'Signer'} (slot ${signer.slot_number})`, { bold: true, size: 11, after: 0.2 });

  const top = doc.y;
  if (signer.status === 'signed' && signer.signature) {
    if (signer.signature.type === 'typed') drawTypedSignature(doc, fonts, signer.signature.value, left, top, width);
    else drawDrawnSignature(doc, signer.signature.value, left, top);
  } else {
    const text = signer.status === 'declined' ? 'Declined to sign' : 'Not signed';
    drawText(doc, fonts, text, { italic: true, color: MUTED, x: left, size: 12 });
  }
  doc.y = top + SIGNATURE_HEIGHT;
  doc.save().moveTo(left, doc.y).lineTo(left + Math.min(width, 300), doc.y).lineWidth(0.8).strokeColor('#333333').stroke().restore();
  doc.y += 6;

  const name = signerName(signer) || '-';
  const lines = [`Name: ${name}`, `Email: ${signer.email || '-'}`];
  if (signer.status === 'signed') {
    lines.push(`Signed: ${formatTime(signer.signed?.at)}`, `IP address: ${signer.signed?.ip_address || '-'}`);
  } else if (signer.status === 'declined') {
    lines.push(`Declined: ${formatTime(signer.declined?.at)}`, `IP address: ${signer.declined?.ip_address || '-'}`);
  }
  for (const line of lines) drawText(doc, fonts, line, { size: 9.5 });
  doc.moveDown(1.2);
}

function drawTypedSignature(doc: PDFKit.PDFDocument, fonts: DocumentFonts, value: string, x: number, y: number, width: number): void {
  // The script font covers Latin; other scripts fall back to the text font rather than failing.
  const runs = fontRuns(value.replace(/\s+/g, ' ').trim(), SIGNATURE_FONTS, fonts);
  const text = runs.map((run) => run.text).join('');
  if (needsBidi(text)) {
    // A right-to-left name: one line in display order (bidi-lines.ts), as large as fits.
    const lineAt = (size: number) => bidiLines(runs, Infinity, paragraphIsRtl(text), measureWith(doc, size))[0];
    let size = 30;
    let line = lineAt(size);
    while (size > 12 && line.width > width) line = lineAt((size -= 2));
    doc.fillColor('#10245e');
    drawVisualLine(doc, fonts, line, x, y + 6, size);
    doc.fillColor('black');
    return;
  }
  let size = 30;
  const measure = () => runs.reduce((sum, run) => sum + doc.font(run.font).fontSize(size).widthOfString(run.text), 0);
  while (size > 12 && measure() > width) size -= 2;
  doc.fillColor('#10245e').fontSize(size);
  runs.forEach((run, i) => {
    doc.font(run.font);
    const continued = i < runs.length - 1;
    if (i === 0) doc.text(run.text, x, y + 6, { width, continued, lineBreak: true, height: SIGNATURE_HEIGHT });
    else doc.text(run.text, { continued });
  });
  doc.fillColor('black');
}

function drawDrawnSignature(doc: PDFKit.PDFDocument, value: string, x: number, y: number): void {
  const { png } = decodeDrawnSignature(value);
  try {
    doc.image(png, x, y + 2, { fit: [240, SIGNATURE_HEIGHT - 4] });
  } catch (error) {
    throw new SignatureImageError(`a drawn signature could not be decoded as PNG: ${(error as Error).message}`);
  }
}
