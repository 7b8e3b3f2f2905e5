import anyTest from 'ava';
import { ownContext } from '../helpers/own-context';
import type { RenderedDocument, SealedDocument } from '@formloom/core';
import { voidedInput } from '../helpers/fixtures';
import { sharedRenderer, type Renderer } from '../helpers/shared-renderer';
import { pageCount, pdfsig, pdftotext, qpdfCheck, tempDir, writePdf } from '../helpers/pdf-tools';

const test = ownContext<{
  renderer: Renderer;
  rendered: RenderedDocument;
  sealed: SealedDocument;
  path: string;
}>(anyTest);

test.before(async (t) => {
  const renderer = sharedRenderer();
  const rendered = await renderer.renderVoided(voidedInput());
  const sealed = await renderer.seal(rendered);
  t.context = { renderer, rendered, sealed, path: '' };
});

test('every page carries the VOIDED banner and, drawn last, the diagonal VOIDED watermark', async (t) => {
  const path = await writePdf(await tempDir(t), 'voided.pdf', t.context.sealed.pdf);
  const pages = await pageCount(path);
  t.true(pages >= 4);
  for (let page = 1; page <= pages; page++) {
    const text = await pdftotext(path, { page, raw: true });
    t.true(text.includes('VOIDED 2026-03-02 12:00:00 UTC: this document is not in force.'), `banner on page ${page}`);
    // The rotated watermark comes out of pdftotext a letter at a time, after everything else on the page.
    // (On the last page the seal's widget follows: pdftotext prints annotation appearances after the content.)
    t.true(text.split('Sealed by ')[0].replace(/\s+/g, '').endsWith('notinforce.VOIDED'), `watermark on page ${page}`);
  }
});

test('a voided document is sealed like a signed one', async (t) => {
  const path = await writePdf(await tempDir(t), 'voided.pdf', t.context.sealed.pdf);
  const report = await pdfsig(path);
  t.regex(report, /Signature is Valid\./);
  t.regex(report, /Total document signed/);
  t.regex(await qpdfCheck(path), /No syntax or stream encoding errors found/);
  const result = await t.context.renderer.verify(t.context.sealed.pdf);
  t.true(result.valid);
  t.is(result.session_id, 'ses_test123');
});

test('it shows what was signed so far and the void on the certificate page', async (t) => {
  const path = await writePdf(await tempDir(t), 'voided.pdf', t.context.sealed.pdf);
  const text = await pdftotext(path);
  t.true(text.includes('Name: Alice Marchetti'));
  t.true(text.includes('Not signed'), 'the landlord had not signed');
  const certificate = await pdftotext(path, { page: t.context.rendered.page_count });
  t.true(certificate.includes('Certificate of voided signing'));
  t.true(certificate.includes('Terms changed before the landlord signed'));
  t.true(certificate.includes('2026-03-02 12:00:00 UTC'));
  t.true(certificate.includes(t.context.rendered.unsigned_hash));
});

test('a signed render carries no VOIDED mark', async (t) => {
  const { voided_at: _at, void_reason: _reason, ...input } = voidedInput();
  const sealed = await t.context.renderer.seal(await t.context.renderer.renderSigned(input));
  const path = await writePdf(await tempDir(t), 'signed.pdf', sealed.pdf);
  t.false((await pdftotext(path)).includes('VOIDED'));
});
