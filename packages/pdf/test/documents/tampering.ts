import anyTest from 'ava';
import { ownContext } from '../helpers/own-context';
import type { SealedDocument } from '@formloom/core';
import { verifyPdf } from '../../src';
import { signedInput } from '../helpers/fixtures';
import { sharedRenderer, type Renderer } from '../helpers/shared-renderer';
import { flipByte, pdfsig, tempDir, writePdf } from '../helpers/pdf-tools';

const test = ownContext<{ renderer: Renderer; sealed: SealedDocument }>(anyTest);

test.before(async (t) => {
  const renderer = sharedRenderer();
  const sealed = await renderer.seal(await renderer.renderSigned(signedInput()));
  t.context = { renderer, sealed };
});

/** Offset of the first occurrence of `needle` in the PDF (a byte inside the first signed range). */
function offsetOf(pdf: Uint8Array, needle: string): number {
  const offset = Buffer.from(pdf).indexOf(needle, 0, 'latin1');
  if (offset < 0) throw new Error(`${needle} not found`);
  return offset;
}

test('a byte flipped inside the signed range fails pdfsig and verify', async (t) => {
  const { sealed, renderer } = t.context;
  // The session id in the document information: early in the file, inside the first signed range.
  const tampered = flipByte(sealed.pdf, offsetOf(sealed.pdf, 'ses_test123') + 4);
  const path = await writePdf(await tempDir(t), 'tampered.pdf', tampered);
  const report = await pdfsig(path);
  t.regex(report, /Signature Validation: Digest Mismatch\./);
  t.notRegex(report, /Signature is Valid/);

  const result = await renderer.verify(tampered);
  t.false(result.valid);
  t.false(result.intact);
  t.true(result.covers_whole_document);
  t.true(result.problems.some((problem) => problem.includes('digest mismatch')));
  t.not(result.document_hash, sealed.document_hash);
});

test('a byte flipped near the end (the second signed range) fails too', async (t) => {
  const { sealed } = t.context;
  const tampered = flipByte(sealed.pdf, sealed.pdf.length - 20);
  const path = await writePdf(await tempDir(t), 'tampered-end.pdf', tampered);
  t.regex(await pdfsig(path), /Digest Mismatch/);
  t.false(verifyPdf(tampered).valid);
});

test('bytes appended after the seal are outside the signature and fail verify', async (t) => {
  const { sealed } = t.context;
  const appended = Buffer.concat([Buffer.from(sealed.pdf), Buffer.from('\n% appended later\n')]);
  const path = await writePdf(await tempDir(t), 'appended.pdf', appended);
  t.notRegex(await pdfsig(path), /Total document signed/);
  const result = verifyPdf(appended);
  t.false(result.valid);
  t.false(result.covers_whole_document);
  t.true(result.intact, 'the signed ranges themselves are unchanged');
  t.true(result.problems.includes('the signature does not cover the whole document'));
});

/** The PKCS#7 blob's offset in the file and its DER length (from the outer SEQUENCE header). */
function signatureBlob(pdf: Uint8Array): { start: number; length: number } {
  const text = Buffer.from(pdf).toString('latin1');
  const start = text.indexOf('/Contents <', text.lastIndexOf('/ByteRange [')) + '/Contents <'.length;
  const header = Buffer.from(text.slice(start, start + 8), 'hex');
  if (header[0] !== 0x30 || header[1] !== 0x82) throw new Error('unexpected DER header');
  return { start, length: 4 + header.readUInt16BE(2) };
}

function changeHexDigit(pdf: Uint8Array, position: number): Uint8Array {
  const copy = Buffer.from(pdf);
  copy[position] = copy[position] === 0x30 ? 0x31 : 0x30;
  return copy;
}

test('a changed RSA signature inside the blob fails verify', (t) => {
  const { sealed } = t.context;
  const blob = signatureBlob(sealed.pdf);
  // The encrypted digest is the last 256 bytes of the SignerInfo, which ends the DER.
  const result = verifyPdf(changeHexDigit(sealed.pdf, blob.start + 2 * (blob.length - 40)));
  t.false(result.valid);
  t.false(result.signature_verified);
  t.true(result.intact);
});

test('a changed certificate inside the blob fails verify', (t) => {
  const { sealed } = t.context;
  const blob = signatureBlob(sealed.pdf);
  // The certificate follows the SignedData header; its own signature sits a few hundred bytes in.
  const result = verifyPdf(changeHexDigit(sealed.pdf, blob.start + 2 * 700));
  t.false(result.valid);
  t.not(result.certificate?.fingerprint, t.context.renderer.certificateFingerprint);
});

test('input that is not a sealed PDF is reported, never thrown', (t) => {
  for (const bytes of [new Uint8Array(0), Buffer.from('hello world'), Buffer.from('%PDF-1.7\n%%EOF\n')]) {
    const result = verifyPdf(bytes);
    t.false(result.valid);
    t.false(result.signed);
    t.true(result.problems.length > 0);
    t.is(result.session_id, null);
  }
});
