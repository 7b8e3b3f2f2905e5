import anyTest from 'ava';
import { ownContext } from '../helpers/own-context';
import { createPdfDocumentRenderer, createSelfSignedP12, documentHash, verifyPdf } from '../../src';
import type { RenderedDocument, SealedDocument } from '@formloom/core';
import { signedInput } from '../helpers/fixtures';
import { pageCount, pdfsig, pdftotext, qpdfCheck, tempDir, writePdf } from '../helpers/pdf-tools';

const test = ownContext<{
  renderer: ReturnType<typeof createPdfDocumentRenderer>;
  rendered: RenderedDocument;
  sealed: SealedDocument;
}>(anyTest);

test.before(async (t) => {
  const renderer = createPdfDocumentRenderer({ p12: createSelfSignedP12({ commonName: 'Formloom Test Seal', password: 'pw' }), password: 'pw' });
  const rendered = await renderer.renderSigned(signedInput());
  const sealed = await renderer.seal(rendered);
  t.context = { renderer, rendered, sealed };
});

test('pdfsig reports the seal valid and the total document signed', async (t) => {
  const path = await writePdf(await tempDir(t), 'signed.pdf', t.context.sealed.pdf);
  const report = await pdfsig(path);
  t.regex(report, /Signature Validation: Signature is Valid\./);
  t.regex(report, /Total document signed/);
  t.regex(report, /Signature Type: ETSI\.CAdES\.detached/);
  t.regex(report, /Signer Certificate Common Name: Formloom Test Seal/);
  t.regex(report, /Signing Time: Mar 02 2026 10:01:31/);
  t.is(report.match(/Signature #\d+/g)?.length, 1);
});

test('qpdf --check finds no errors in the sealed PDF', async (t) => {
  const path = await writePdf(await tempDir(t), 'signed.pdf', t.context.sealed.pdf);
  t.regex(await qpdfCheck(path), /No syntax or stream encoding errors found/);
});

test('the contract pages show the headings, emphasis text, list items and both signers', async (t) => {
  const path = await writePdf(await tempDir(t), 'signed.pdf', t.context.sealed.pdf);
  const pages = await pageCount(path);
  t.is(pages, t.context.rendered.page_count);
  t.true(pages >= 4, 'three contract pages and the certificate page');
  const text = await pdftotext(path);
  for (const expected of [
    'Lease agreement',
    'Residential Lease Agreement',
    'Section 1: Obligations part 1',
    'Section 6: Obligations part 6',
    'This agreement is made between the Landlord and the Tenant.',
    '1. First duty of section 1',
    '3. Third duty of section 6',
    'nested detail beta',
    'Bullet clause 2B with bold italic words',
    'Signed in good faith.',
    'Tenant (slot 1)',
    'Landlord (slot 2)',
    'Name: Alice Marchetti',
    'Name: Bruno Okafor',
    'Signed: 2026-03-02 10:01:30 UTC',
    'IP address: 203.0.113.7',
  ]) {
    t.true(text.includes(expected), `missing: ${expected}`);
  }
  t.false(text.includes('**'), 'markdown markers are rendered, not printed');
  t.false(text.includes('## '), 'heading markers are rendered, not printed');
});

test('the typed signature is drawn in the script font and the drawn one as an image', async (t) => {
  const pdf = Buffer.from(t.context.sealed.pdf).toString('latin1');
  t.regex(pdf, /\/BaseFont \/[A-Z]{6}\+DancingScript-Regular/);
  t.regex(pdf, /\/Subtype \/Image/);
  const path = await writePdf(await tempDir(t), 'signed.pdf', t.context.sealed.pdf);
  const signaturesPage = await pdftotext(path, { page: t.context.rendered.page_count - 1 });
  t.true(signaturesPage.includes('Alice Marchetti'));
});

test('the certificate page records ids, hashes and every signer event', async (t) => {
  const path = await writePdf(await tempDir(t), 'signed.pdf', t.context.sealed.pdf);
  const certificate = await pdftotext(path, { page: t.context.rendered.page_count });
  const input = signedInput();
  for (const expected of [
    'Certificate of completion',
    input.session_id,
    input.question_id,
    input.form_id!,
    input.audit_head_hash,
    t.context.rendered.unsigned_hash,
    'signing link, session password, email code',
    '2026-03-01 09:00:00 UTC · IP 203.0.113.7',
    '2026-03-01 09:04:12 UTC · IP 203.0.113.7',
    'Mozilla/5.0 (X11; Linux x86_64) Firefox/135.0',
    '2026-03-02 10:01:30 UTC · IP 198.51.100.23',
    'Mozilla/5.0 (Macintosh) Safari/17.4',
    '2 of 2 signed',
  ]) {
    t.true(certificate.includes(expected), `missing: ${expected}`);
  }
});

test('verify accepts the sealed PDF and reads back the embedded ids', async (t) => {
  const result = await t.context.renderer.verify(t.context.sealed.pdf);
  t.deepEqual(result.problems, []);
  t.true(result.valid);
  t.true(result.signed && result.covers_whole_document && result.intact && result.signature_verified);
  t.true(result.sealed_by_this_instance);
  t.is(result.certificate?.fingerprint, t.context.renderer.certificateFingerprint);
  t.is(result.certificate?.subject, 'CN=Formloom Test Seal');
  t.is(result.signed_at, '2026-03-02T10:01:31.000Z');
  t.is(result.session_id, 'ses_test123');
  t.is(result.question_id, 'q_contract1');
  t.is(result.audit_head_hash, signedInput().audit_head_hash);
  t.is(result.document_hash, t.context.sealed.document_hash);
});

test('another instance verifies the seal but knows it did not make it', async (t) => {
  const other = createPdfDocumentRenderer({ p12: createSelfSignedP12({ commonName: 'Other instance' }) });
  const result = await other.verify(t.context.sealed.pdf);
  t.true(result.valid);
  t.false(result.sealed_by_this_instance);
  t.false(verifyPdf(t.context.sealed.pdf).sealed_by_this_instance);
});

test('document_hash is sha256: of the sealed bytes', (t) => {
  t.regex(t.context.sealed.document_hash, /^sha256:[0-9a-f]{64}$/);
  t.is(t.context.sealed.document_hash, documentHash(t.context.sealed.pdf));
  t.not(t.context.sealed.document_hash, t.context.rendered.unsigned_hash);
});

test('the same input renders the same bytes, so the unsigned hash is reproducible', async (t) => {
  const again = await t.context.renderer.renderSigned(signedInput());
  t.is(again.unsigned_hash, t.context.rendered.unsigned_hash);
  t.true(Buffer.from(again.pdf).equals(Buffer.from(t.context.rendered.pdf)));
  const resealed = await t.context.renderer.seal(again);
  t.is(resealed.document_hash, t.context.sealed.document_hash);
  const pdf = Buffer.from(t.context.rendered.pdf).toString('latin1');
  t.regex(pdf, /\(D:20260302100131Z\)/);

  const changed = await t.context.renderer.renderSigned(signedInput({ contract: `${signedInput().contract}\nOne more clause.` }));
  t.not(changed.unsigned_hash, t.context.rendered.unsigned_hash);
});

test('a rendered document is not valid before it is sealed, and is sealed only once', async (t) => {
  const result = await t.context.renderer.verify(t.context.rendered.pdf);
  t.false(result.valid);
  t.false(result.signed);
  const error = await t.throwsAsync(() => t.context.renderer.seal({ pdf: t.context.sealed.pdf, generated_at: '2026-03-02T10:01:31.000Z' }));
  t.is(error?.name, 'SealError');
  t.regex(error!.message, /sealed already/);
});
