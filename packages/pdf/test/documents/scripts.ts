import anyTest from 'ava';
import { ownContext } from '../helpers/own-context';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { signedInput } from '../helpers/fixtures';
import { sharedRenderer, type Renderer } from '../helpers/shared-renderer';
import { pdftotext, tempDir, writePdf } from '../helpers/pdf-tools';

/* Issue 23, "what is sealed is what was signed": every script prints with a shipped font and comes back out of
   the PDF as written (pdftotext, poppler's own reading), Polish names in the signature font included. */

const run = promisify(execFile);
const LINES = [
  'Zażółć gęślą jaźń: Łukasz Żółć, Ångström, Øre, Çağrı, Đorđe, Nguyễn Văn Ả.',
  'Ελληνικά: Σύμβαση μίσθωσης κατοικίας.',
  'Русский: Договор аренды квартиры.',
  '中文：本合同自签署之日起生效。',
  '日本語：この契約は署名の日から有効です。',
  '한국어: 이 계약은 서명일부터 유효합니다.',
  'हिन्दी: यह अनुबंध हस्ताक्षर की तिथि से प्रभावी है।',
];
const ARABIC = 'عقد الإيجار بين الطرفين';
const HEBREW = 'חוזה שכירות בין הצדדים';
const contract = ['# Umowa najmu', '', ...LINES.flatMap((line) => [line, '']), ARABIC, '', HEBREW].join('\n');

const test = ownContext<{ renderer: Renderer; pdf: Uint8Array }>(anyTest);
const file = async (t: { teardown(fn: () => Promise<void>): void; context: { pdf: Uint8Array } }) => writePdf(await tempDir(t), 'scripts.pdf', t.context.pdf);

test.before(async (t) => {
  const renderer = sharedRenderer();
  const input = signedInput({ contract });
  input.signers[0] = { ...input.signers[0], first_name: 'Łukasz', last_name: 'Żółć', signature: { type: 'typed', value: 'Łukasz Żółć' } };
  input.signers[1] = { ...input.signers[1], first_name: '王', last_name: 'Ἀριστοτέλης', status: 'signed', signature: { type: 'typed', value: '王 Ἀριστοτέλης' } };
  const rendered = await renderer.renderSigned(input);
  const sealed = await renderer.seal(rendered);
  t.context = { renderer, pdf: sealed.pdf };
});

test('pdftotext gives back every line of the contract exactly, and each signer name', async (t) => {
  const text = await pdftotext(await file(t), { raw: true });
  for (const line of LINES) t.true(text.includes(line), `missing: ${line}`);
  // Right-to-left lines are drawn in display order, so poppler's reading (not -raw, which keeps drawing order)
  // gives them in logical order, within RLE/PDF marks (right-to-left.ts covers them fully).
  const plain = (await pdftotext(await file(t))).replace(/[\u202a-\u202e]/g, '');
  t.true(plain.includes(ARABIC), 'Arabic, shaped (lam-alef ligature included), in logical order');
  t.true(plain.includes(HEBREW), 'Hebrew in logical order');
  for (const name of ['Name: Łukasz Żółć', 'Name: 王 Ἀριστοτέλης']) t.true(text.includes(name), name);
  // The typed signatures themselves (script face, with text-font fallbacks): no letter lost between fonts.
  const signatures = text.split('\n').filter((line) => line.trim() === 'Łukasz Żółć' || line.trim() === '王 Ἀριστοτέλης');
  t.is(signatures.length, 2, text);
  t.false(text.includes('\ufffd'), 'no replacement characters');
});

test('the Noto fonts are embedded as subsets, and the page shows no replacement glyph', async (t) => {
  const { stdout } = await run('pdffonts', [await file(t)]);
  for (const font of ['NotoSansHans-Regular', 'NotoSansKR-Regular', 'NotoNaskhArabic', 'NotoSansHebrew', 'NotoSansDevanagari-Regular', 'DejaVuSans', 'DancingScript-Regular']) {
    t.regex(stdout, new RegExp(`[A-Z]{6}\\+${font}\\s.*\\byes\\s+yes\\s+yes\\b`), font);
  }
});

test('unsupportedCharacters names what no shipped font draws, once each', async (t) => {
  t.deepEqual(await t.context.renderer.unsupportedCharacters(`${LINES.join('\n')}\n${ARABIC}\n${HEBREW}`), []);
  t.deepEqual(await t.context.renderer.unsupportedCharacters('Hieroglyphs: 𓀀𓀁 and 𓀀 again; Klingon \uf8d0'), ['𓀀', '𓀁', '\uf8d0']);
});
