import { deflateSync } from 'node:zlib';
import anyTest from 'ava';
import { ownContext } from '../helpers/own-context';
import { checkSignature, DocumentInputError, SIGNATURE_LIMITS } from '../../src';
import { LANDLORD, signedInput, signer, TENANT } from '../helpers/fixtures';
import { sharedRenderer, type Renderer } from '../helpers/shared-renderer';
import { pngBytes, pngDataUrl } from '../helpers/png';
import { pdfsig, pdftotext, qpdfCheck, tempDir, writePdf } from '../helpers/pdf-tools';

const test = ownContext<{ renderer: Renderer }>(anyTest);

test.before((t) => {
  t.context = { renderer: sharedRenderer() };
});

const dataUrl = (png: Buffer) => `data:image/png;base64,${png.toString('base64')}`;

test('checkSignature accepts typed names and real PNG data URLs', (t) => {
  t.is(checkSignature({ type: 'typed', value: 'Zoë Łukasiewicz' }), null);
  t.is(checkSignature({ type: 'drawn', value: pngDataUrl(400, 120) }), null);
  t.is(t.context.renderer.checkSignature({ type: 'drawn', value: pngDataUrl(1, 1) }), null);
});

test('checkSignature refuses empty, oversized and fake signatures with a reason', (t) => {
  const png = pngBytes(200, 60);
  const cases: Array<[Parameters<typeof checkSignature>[0], RegExp]> = [
    [{ type: 'typed', value: '   ' }, /must not be empty/],
    [{ type: 'typed', value: 'x'.repeat(SIGNATURE_LIMITS.typedMaxLength + 1) }, /at most 200 characters/],
    [{ type: 'drawn', value: 'https://example.com/sig.png' }, /data URL/],
    [{ type: 'drawn', value: 'data:image/jpeg;base64,/9j/4AAQ' }, /data URL/],
    [{ type: 'drawn', value: dataUrl(Buffer.from('GIF89a not a png at all, just some bytes here')) }, /must be a PNG/],
    [{ type: 'drawn', value: dataUrl(png.subarray(0, png.length - 20)) }, /complete PNG/],
    [{ type: 'drawn', value: `data:image/png;base64,${'A'.repeat(SIGNATURE_LIMITS.drawnMaxBytes * 2)}` }, /at most 524288 bytes/],
    [{ type: 'drawn', value: pngDataUrl(SIGNATURE_LIMITS.drawnMaxSide + 1, 2) }, /pixels/],
    [{ type: 'other', value: 'x' } as never, /"typed" or "drawn"/],
  ];
  for (const [signature, reason] of cases) t.regex(checkSignature(signature) ?? 'accepted', reason);
});

test('a PNG whose image data is corrupt is refused before pdfkit decodes it', (t) => {
  const png = Buffer.from(pngBytes(50, 20));
  // Replace the IDAT payload with deflated bytes of the wrong size (keeping the chunk structure valid).
  const idat = png.indexOf('IDAT');
  const length = png.readUInt32BE(idat - 4);
  const wrong = deflateSync(Buffer.alloc(10));
  const rebuilt = Buffer.concat([png.subarray(0, idat - 4), Buffer.from([0, 0, 0, wrong.length]), Buffer.from('IDAT'), wrong, Buffer.alloc(4), png.subarray(idat + 4 + length + 4)]);
  t.regex(checkSignature({ type: 'drawn', value: dataUrl(rebuilt) }) ?? 'accepted', /wrong size/);
  const garbage = Buffer.concat([png.subarray(0, idat + 4), Buffer.alloc(length, 0x41), png.subarray(idat + 4 + length)]);
  t.regex(checkSignature({ type: 'drawn', value: dataUrl(garbage) }) ?? 'accepted', /corrupt image data/);
});

test('rendering refuses a document with a bad signature instead of crashing', async (t) => {
  const input = signedInput({ signers: [TENANT, { ...LANDLORD, signature: { type: 'drawn', value: 'data:image/png;base64,AAAA' } }] });
  const error = await t.throwsAsync(t.context.renderer.renderSigned(input), { instanceOf: DocumentInputError });
  t.regex(error!.message, /^slot 2: /);
  await t.throwsAsync(t.context.renderer.renderSigned(signedInput({ generated_at: 'yesterday' })), {
    instanceOf: DocumentInputError,
    message: 'generated_at must be an ISO 8601 timestamp',
  });
});

test('any Unicode renders without failing: other scripts fall back, undrawable characters are replaced', async (t) => {
  const input = signedInput({
    question_title: 'Договор аренды 📄',
    contract: [
      '# Договор — Ελληνικά — 東京',
      '',
      'Emoji 😀 and a zero width joiner 👩‍💻, control\u0007 characters, RTL שלום, a lone combining mark \u0301 and a lone surrogate \ud800 here.',
      '',
      '<b>raw html stays text</b>',
      '',
      '| Party | Role |',
      '|---|---|',
      '| Łukasz | Tenant |',
    ].join('\n'),
    signers: [
      signer({ slot_number: 1, slot_label: 'Арендатор', first_name: 'Жанна', last_name: 'Łukasiewicz', status: 'signed', signature: { type: 'typed', value: 'Жанна Łukasiewicz 山田 😀' }, signed: { at: '2026-03-02T10:00:00.000Z', ip_address: '2001:db8::1' } }),
      signer({ slot_number: 2, slot_label: 'Witness', first_name: 'Zoë', status: 'declined', declined: { at: '2026-03-02T10:05:00.000Z', reason: 'Not today 🙅' } }),
    ],
  });
  const sealed = await t.context.renderer.seal(await t.context.renderer.renderSigned(input));
  const path = await writePdf(await tempDir(t), 'unicode.pdf', sealed.pdf);
  t.regex(await pdfsig(path), /Signature is Valid\./);
  t.regex(await qpdfCheck(path), /No syntax or stream encoding errors found/);
  const text = await pdftotext(path);
  for (const expected of ['Договор аренды', 'Ελληνικά', 'Name: Жанна Łukasiewicz', 'Арендатор (slot 1)', 'Declined to sign', '<b>raw html stays text</b>', 'Not today', 'IP address: 2001:db8::1']) {
    t.true(text.includes(expected), `missing: ${expected}`);
  }
  t.regex(await pdftotext(path, { raw: true }), /Łukasz\s+Tenant/, 'the table cells, one row');
  t.true(text.includes('\ufffd'), 'characters no font can draw become U+FFFD');
  const result = await t.context.renderer.verify(sealed.pdf);
  t.true(result.valid);
});
