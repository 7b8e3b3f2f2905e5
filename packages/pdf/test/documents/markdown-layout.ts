import test from 'ava';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { signedInput } from '../helpers/fixtures';
import { sharedRenderer } from '../helpers/shared-renderer';
import { pdftotext, tempDir, writePdf } from '../helpers/pdf-tools';

/* Issue 23: markdown as a reader expects it (poppler's reading of the rendered pages). */

const run = promisify(execFile);
const CONTRACT = [
  '# Rental terms',
  '',
  '1. Pay the rent',
  '2. Keep the flat clean',
  '',
  '> Quoted clause: the landlord may inspect.',
  '',
  '| Item | Amount | Due |',
  '|---|---|---|',
  '| Rent | 1,200 EUR | monthly |',
  '| Deposit | 2,400 EUR | at signing |',
].join('\n');

async function firstPage(t: Parameters<typeof tempDir>[0], contract: string, options: { layout?: boolean; bbox?: boolean } = {}) {
  const rendered = await sharedRenderer().renderSigned(signedInput({ contract, question_title: 'Rental contract' }));
  const path = await writePdf(await tempDir(t), 'doc.pdf', rendered.pdf);
  if (options.bbox) return (await run('pdftotext', ['-bbox', '-f', '1', '-l', '1', path, '-'])).stdout;
  if (options.layout) return (await run('pdftotext', ['-layout', '-enc', 'UTF-8', '-f', '1', '-l', '1', path, '-'])).stdout;
  return pdftotext(path, { page: 1 });
}

test('a contract with its own heading does not get the question title printed again above it', async (t) => {
  const own = await firstPage(t, CONTRACT);
  const body = own.slice(0, own.lastIndexOf('Rental contract')); // the footer keeps the title
  t.false(body.includes('Rental contract'), own);
  t.true(body.includes('Rental terms'));
  const plain = await firstPage(t, 'Just a paragraph, no heading.');
  t.true(plain.slice(0, plain.indexOf('Just a paragraph')).includes('Rental contract'), 'without a heading, the title leads');
});

test('a table is laid out in columns, one row per line', async (t) => {
  const text = await firstPage(t, CONTRACT, { layout: true });
  t.regex(text, /Item\s{3,}Amount\s{3,}Due/);
  t.regex(text, /Rent\s{3,}1,200 EUR\s{3,}monthly/);
  t.regex(text, /Deposit\s{3,}2,400 EUR\s{3,}at signing/);
  t.notRegex(text, /\|/, 'no pipes printed');
});

test('a block quote is set in from the list above it, not as one of its items', async (t) => {
  const html = await firstPage(t, CONTRACT, { bbox: true });
  const xOf = (word: string) => Number(new RegExp(`<word xMin="([\\d.]+)"[^>]*>${word}</word>`).exec(html)![1]);
  t.true(xOf('Quoted') > xOf('Keep') + 4, `quote at ${xOf('Quoted')}, list text at ${xOf('Keep')}`);
  t.false(/<word[^>]*>3\.<\/word>/.test(html), 'the quote has no list number');
});
