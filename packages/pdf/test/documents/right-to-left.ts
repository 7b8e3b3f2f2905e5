import test, { type ExecutionContext } from 'ava';
import bidiFactory from 'bidi-js';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { SignedDocumentInput } from '@formloom/core';
import { signedInput, signer } from '../helpers/fixtures';
import { sharedRenderer } from '../helpers/shared-renderer';
import { pageCount, pdftotext, tempDir, writePdf } from '../helpers/pdf-tools';

/*
 * Issue 34, item 16: right-to-left text reads back exactly. pdftotext (poppler) gives each line in logical order,
 * marking right-to-left and left-to-right stretches with directional formatting characters (U+202A-U+202C);
 * without them, a line is its logical text. Where poppler's own reading of a mixed line places a space or a
 * neutral mark at the other side of a direction change, the line still *displays* as the sentence does: that
 * is compared through the bidi algorithm, display order against display order.
 */

const run = promisify(execFile);
const bidi = bidiFactory();
const PAGE_WIDTH = 595.28;
const MARGIN = 64;

/** The logical text of a pdftotext line: without directional formatting characters. */
function logical(line: string): string {
  return line.replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '');
}

/** The characters of `text` left to right as displayed with the given base direction (mirrored brackets too; formatting characters stay). */
function displayed(text: string, base: 'ltr' | 'rtl'): string {
  return bidi.getReorderedString(text, bidi.getEmbeddingLevels(text, base));
}

interface Rendered {
  path: string;
  pages: number;
  /** pdftotext lines of a page (1-based). */
  lines(page: number): Promise<string[]>;
}

async function render(t: ExecutionContext, input: SignedDocumentInput): Promise<Rendered> {
  const renderer = sharedRenderer();
  const sealed = await renderer.seal(await renderer.renderSigned(input));
  const path = await writePdf(await tempDir(t), 'rtl.pdf', sealed.pdf);
  const pages = await pageCount(path);
  return { path, pages, lines: async (page) => (await pdftotext(path, { page })).split('\n').filter((line) => line.trim()) };
}

/** Asserts a line of `lines` is exactly `sentence` (logical order). */
function hasLine(t: ExecutionContext, lines: string[], sentence: string): void {
  t.true(lines.map(logical).includes(sentence), `no line reads\n${sentence}\nin\n${lines.map(logical).join('\n')}`);
}

/** Asserts a line of `lines` displays exactly as `sentence` does in a paragraph of direction `base`. */
function displaysLine(t: ExecutionContext, lines: string[], sentence: string, base: 'ltr' | 'rtl'): void {
  const want = displayed(sentence, base);
  t.true(lines.some((line) => logical(displayed(line, 'ltr')) === want), `no line displays as\n${sentence}\nin\n${lines.join('\n')}`);
}

/** Word boxes of a page from `pdftotext -bbox`: right-to-left words come in display order, letters reversed. */
async function words(path: string, page: number): Promise<Array<{ xMin: number; xMax: number; yMin: number; yMax: number; text: string }>> {
  const { stdout } = await run('pdftotext', ['-bbox', '-f', String(page), '-l', String(page), path, '-']);
  return [...stdout.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((m) => ({
    xMin: Number(m[1]),
    yMin: Number(m[2]),
    xMax: Number(m[3]),
    yMax: Number(m[4]),
    text: m[5],
  }));
}

function reversed(text: string): string {
  return [...text].reverse().join('');
}

const CAIRO = 'تم توقيع هذا العقد في القاهرة.';
const JERUSALEM = 'החוזה נחתם בירושלים.';
const signed = { status: 'signed' as const, signed: { at: '2026-03-02T10:00:00.000Z', ip_address: '203.0.113.7' } };

/**
 * Two signers of a contract written in Arabic or Hebrew. (poppler reads a page right to left when most of its
 * letters are; a page of English signature blocks under a short contract is read left to right, and then it
 * gives a right-to-left line's final full stop first: a line that displays right, checked as such below.)
 */
function signersNamed(names: Array<[string, string]>) {
  return names.map(([first, last], i) =>
    signer({ slot_number: i + 1, slot_label: i === 0 ? 'Tenant' : 'Landlord', first_name: first, last_name: last, ...signed, signature: { type: 'typed', value: `${first} ${last}` } }),
  );
}

test('an Arabic contract reads back exactly: full stop, brackets, lam-alef, numbers and Latin words in place', async (t) => {
  const mixed = 'يدفع المستأجر 1200 جنيه شهريا عبر PayPal Checkout في القاهرة.';
  const contract = [
    '# عقد إيجار',
    CAIRO,
    'السلام عليكم ورحمة الله.',
    'يدفع المستأجر الإيجار (ألف جنيه) كل شهر.',
    mixed,
  ].join('\n\n');
  const doc = await render(t, signedInput({ question_title: 'عقد إيجار', contract, signers: signersNamed([['محمد', 'العربي'], ['فاطمة', 'الزهراء']]) }));
  const lines = await doc.lines(1);
  for (const sentence of [CAIRO, 'السلام عليكم ورحمة الله.', 'يدفع المستأجر الإيجار (ألف جنيه) كل شهر.']) hasLine(t, lines, sentence);
  displaysLine(t, lines, mixed, 'rtl');
  // Right-to-left paragraphs are set flush right; their full stop is the leftmost mark of the line.
  const boxes = await words(doc.path, 1);
  const line = boxes.find((word) => reversed(word.text) === 'توقيع')!.yMin;
  const cairo = boxes.filter((word) => word.yMin === line);
  t.is(cairo.length, 6, JSON.stringify(boxes.slice(0, 12)));
  t.true(Math.abs(Math.max(...cairo.map((word) => word.xMax)) - (PAGE_WIDTH - MARGIN)) < 1.5, JSON.stringify(cairo));
  const last = cairo.find((word) => reversed(word.text) === 'القاهرة.')!;
  t.is(last.xMin, Math.min(...cairo.map((word) => word.xMin)), 'the last word, with its full stop, is at the left');
});

test('a Hebrew contract reads back exactly, its full stop at the end of the sentence', async (t) => {
  const mixed = 'השוכר ישלם 4,500 ש"ח בכל חודש דרך Bank Leumi.';
  const contract = ['# חוזה שכירות', JERUSALEM, 'שלום עליכם, ותודה על שיתוף הפעולה (בכל עת).', mixed, 'הצדדים מסכימים לכל התנאים המפורטים בחוזה זה ומתחייבים לקיים אותם.'].join('\n\n');
  const doc = await render(t, signedInput({ question_title: 'חוזה שכירות', contract, signers: signersNamed([['דוד', 'לוי'], ['שרה', 'כהן']]) }));
  const lines = await doc.lines(1);
  hasLine(t, lines, JERUSALEM);
  hasLine(t, lines, 'הצדדים מסכימים לכל התנאים המפורטים בחוזה זה ומתחייבים לקיים אותם.');
  // poppler takes a comma for left-to-right and puts the space before it: these lines display right.
  displaysLine(t, lines, 'שלום עליכם, ותודה על שיתוף הפעולה (בכל עת).', 'rtl');
  displaysLine(t, lines, mixed, 'rtl');
  // The full stop is not drawn over the first word at the right margin: the first word ends the line there.
  const boxes = await words(doc.path, 1);
  const first = boxes.find((word) => reversed(word.text) === 'החוזה')!;
  const stop = boxes.find((word) => reversed(word.text) === 'בירושלים.')!;
  t.true(Math.abs(first.xMax - (PAGE_WIDTH - MARGIN)) < 1.5, JSON.stringify(first));
  t.true(stop.xMax < first.xMin, `${JSON.stringify(stop)} left of ${JSON.stringify(first)}`);
});

test('a long right-to-left paragraph breaks into lines in reading order', async (t) => {
  const paragraph = Array.from({ length: 6 }, () => 'يلتزم كل طرف بما ورد في هذا العقد من شروط وأحكام دون استثناء أو تحفظ من أي نوع كان').join(' و') + '.';
  const doc = await render(t, signedInput({ question_title: 'عقد', contract: `# عقد\n\n${paragraph}` }));
  const lines = (await doc.lines(1)).map(logical);
  const start = lines.findIndex((line) => paragraph.startsWith(line));
  t.true(start >= 0, lines.join('\n'));
  const end = lines.findIndex((line) => line.endsWith('كان.'));
  t.true(end - start >= 2, 'the paragraph takes several lines');
  t.is(lines.slice(start, end + 1).join(' '), paragraph);
});

test('Arabic and Hebrew signer names keep their space: typed signature, name line and certificate page', async (t) => {
  const signers = signersNamed([['محمد', 'العربي'], ['דוד', 'לוי']]);
  const doc = await render(t, signedInput({ contract: 'The parties sign below.', signers }));
  t.is(doc.pages, 2);
  const contract = await doc.lines(1);
  for (const name of ['محمد العربي', 'דוד לוי']) {
    hasLine(t, contract, name); // the typed signature
    hasLine(t, contract, `Name: ${name}`);
  }
  const certificate = await doc.lines(2);
  for (const name of ['محمد العربي', 'דוד לוי']) hasLine(t, certificate, name);
  t.false(contract.concat(certificate).some((line) => /العربيمحمد|לוידוד/.test(logical(line))), 'no name loses its space');
});

test('right-to-left words inside an English contract, and Latin text left as it was', async (t) => {
  const english = 'The tenant pays 1,200 EUR (in advance) on the 5th of each month.';
  const contract = [english, `The parties met in القاهرة on 1 March 2026.`, CAIRO].join('\n\n');
  const doc = await render(t, signedInput({ contract }));
  const lines = await doc.lines(1);
  hasLine(t, lines, english);
  displaysLine(t, lines, 'The parties met in القاهرة on 1 March 2026.', 'ltr');
  displaysLine(t, lines, CAIRO, 'rtl');
  const boxes = await words(doc.path, 1);
  const tenant = boxes.find((word) => word.text === 'tenant')!;
  const met = boxes.find((word) => word.text === 'met')!;
  t.true(Math.abs(boxes.find((word) => word.text === 'The' && word.yMin === tenant.yMin)!.xMin - MARGIN) < 1, 'Latin paragraphs start at the left margin');
  t.true(Math.abs(boxes.find((word) => word.text === 'The' && word.yMin === met.yMin)!.xMin - MARGIN) < 1, 'so do mixed ones that start in Latin');
});

test('right-to-left lists, quotes and tables mirror: markers and first columns on the right, rows as tall as their lines', async (t) => {
  const long = 'يدفع المستأجر الإيجار الشهري في اليوم الخامس من كل شهر ميلادي عن طريق التحويل البنكي إلى حساب المؤجر المذكور في هذا العقد دون أي تأخير';
  const contract = ['# عقد', '1. دفع الإيجار في موعده', '2. المحافظة على نظافة الشقة', '', '> بند مقتبس للمراجعة', '', '| البند | الوصف |', '|---|---|', `| الإيجار | ${long} |`, '| التأمين | مبلغ يعادل شهرين |'].join('\n');
  const doc = await render(t, signedInput({ question_title: 'عقد', contract, signers: signersNamed([['محمد', 'العربي'], ['فاطمة', 'الزهراء']]) }));
  const boxes = await words(doc.path, 1);
  const word = (text: string) => boxes.find((box) => box.text === text || reversed(box.text) === text)!;
  t.true(word('1.').xMin > word('موعده').xMax, 'the number is right of its item');
  t.true(Math.abs(word('1.').xMax - (PAGE_WIDTH - MARGIN)) < 12, JSON.stringify(word('1.')));
  t.true(word('البند').xMin > word('الوصف').xMax, 'the first column is on the right');
  t.true(word('مقتبس').xMax < PAGE_WIDTH - MARGIN - 10, 'a quote is set in from the right, where its bar is');
  t.true(word('تأخير').yMax <= word('التأمين').yMin, 'the long cell ends above the next row');
  t.true(word('تأخير').yMin > word('يدفع').yMin, 'it wraps in its column');
  hasLine(t, await doc.lines(1), 'مبلغ يعادل شهرين');
});
