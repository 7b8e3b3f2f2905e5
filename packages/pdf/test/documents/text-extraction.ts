import test from 'ava';
import { createPdfDocumentRenderer, createSelfSignedP12 } from '../../src';
import { signedInput, signer } from '../helpers/fixtures';
import { pdftotext, tempDir, writePdf } from '../helpers/pdf-tools';

/* Issue 23: text extraction gives back every signer's name and the whole contract exactly, also in the later
   documents of a renderer (the parsed fonts, and fontkit's glyph cache in them, live as long as the renderer). */

const signed = { status: 'signed' as const, signed: { at: '2026-03-02T10:00:00.000Z', ip_address: '203.0.113.7' } };

function polishSigners() {
  return [
    signer({ slot_number: 1, slot_label: 'Tenant', first_name: 'Łukasz', last_name: 'Żółć', ...signed, signature: { type: 'typed', value: 'Łukasz Żółć' } }),
    signer({ slot_number: 2, slot_label: 'Landlord', first_name: 'Lena', last_name: 'Landlord', ...signed, signature: { type: 'typed', value: 'Lena Landlord' } }),
  ];
}

const CONTRACT_WITH_C = [
  'Each clause concerns a civic practice: accept, cancel, according to the contract.',
  '',
  'The occupancy certificate, the electricity account and the conscientious conduct of Łukasz Żółć are checked.',
].join('\n');

test('a "c" inside a composite glyph ("ć") does not lose the plain "c" from the text of later documents', async (t) => {
  const renderer = createPdfDocumentRenderer({ p12: createSelfSignedP12({ commonName: 'Text Extraction Test' }) });
  const dir = await tempDir(t);
  // The first document draws "ć" (DejaVu builds it from "c" and an accent) with no email and a contract
  // without the letter c, so its font subset is the first to meet DejaVu's "c" glyph.
  const first = await renderer.seal(await renderer.renderSigned(signedInput({ contract: 'Rent is due on the first day.', signers: polishSigners() })));
  const firstText = await pdftotext(await writePdf(dir, 'first.pdf', first.pdf));
  t.true(firstText.includes('Name: Łukasz Żółć'), firstText);
  t.true(firstText.includes('Rent is due on the first day.'), firstText);

  for (const name of ['second.pdf', 'third.pdf']) {
    const sealed = await renderer.seal(await renderer.renderSigned(signedInput({ contract: CONTRACT_WITH_C, signers: polishSigners() })));
    const text = await pdftotext(await writePdf(dir, name, sealed.pdf));
    for (const line of CONTRACT_WITH_C.split('\n').filter(Boolean)) t.true(text.replace(/\s+/g, ' ').includes(line), `${name}: ${line}\n${text}`);
    t.true(text.includes('Name: Łukasz Żółć'), text);
    t.true(text.includes('Name: Lena Landlord'), text);
    t.true(text.includes('Certificate of completion'), text);
  }
});
