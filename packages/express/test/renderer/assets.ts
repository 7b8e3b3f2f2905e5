import test from '../helpers/bounded-test';
import { readFileSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { rendererBundles } from '@formloom/renderer';
import { undecodedRequest } from '@formloom/test-browser';
import { startTestApp, type TestApp } from '../helpers/app';
import { preferredEncoding } from '../../src/renderer-assets';

/*
 * The renderer's files as clients get them (docs/respondents.md "Speed"): compressed as the client accepts,
 * the same bytes whatever the encoding; the bundles' compressed copies come from the build, the rest are
 * compressed at their first request; fonts, compressed inside already, are sent as they are.
 */
let app: TestApp;
test.before(async () => {
  app = await startTestApp('sqlite');
});
test.after.always(async () => {
  await app?.close();
});

/** The answer as it crossed the wire: the test decodes it. */
const get = (path: string, acceptEncoding?: string) => undecodedRequest(`${app.url}${path}`, acceptEncoding ? { 'accept-encoding': acceptEncoding } : {});

const bundles = () => rendererBundles()!;

test('every script, language file, stylesheet and icon is the same in brotli, gzip and as it is', async (t) => {
  const b = bundles();
  const paths = [
    '/embed.js',
    `/formloom/assets/${b.files.form}`,
    `/formloom/assets/${b.files.onDemand}`,
    `/formloom/assets/${b.files.signing}`,
    `/formloom/assets/${b.files.invitation}`,
    `/formloom/assets/${b.files.languages.de}`,
    '/formloom/assets/formloom.css',
    '/formloom/assets/signing.css',
    '/favicon.ico',
  ];
  for (const path of paths) {
    const plain = await get(path);
    t.is(plain.status, 200, path);
    t.is(plain.headers['content-encoding'], undefined, `${path}: no encoding unless asked`);
    t.true(plain.body.length > 0, path);
    const br = await get(path, 'gzip, deflate, br');
    t.is(br.headers['content-encoding'], 'br', path);
    t.is(br.headers.vary, 'Accept-Encoding', path);
    t.true(br.body.length < plain.body.length, `${path}: smaller in brotli`);
    t.deepEqual(brotliDecompressSync(br.body), plain.body, `${path}: brotli decodes to the file`);
    const gz = await get(path, 'gzip');
    t.is(gz.headers['content-encoding'], 'gzip', path);
    t.deepEqual(gunzipSync(gz.body), plain.body, `${path}: gzip decodes to the file`);
    // A second request gets the same bytes (kept, not made again differently).
    t.deepEqual((await get(path, 'br')).body, br.body, `${path}: the same brotli bytes twice`);
  }
});

test('the build writes each bundle\'s compressed copies beside it, and those are what is sent', async (t) => {
  const b = bundles();
  for (const name of [b.files.form, b.files.onDemand, b.files.signing, b.files.invitation, ...Object.values(b.files.languages)]) {
    const file = `${b.dir}/${name}`;
    const raw = readFileSync(file);
    const br = readFileSync(`${file}.br`);
    t.deepEqual(brotliDecompressSync(br), raw, `${name}.br`);
    t.deepEqual(gunzipSync(readFileSync(`${file}.gz`)), raw, `${name}.gz`);
    t.deepEqual((await get(`/formloom/assets/${name}`, 'br')).body, br, `${name}: the build's copy is sent`);
  }
});

test('the payment and booking controls are a module apart, which a form without those questions never names', async (t) => {
  const b = bundles();
  const form = readFileSync(`${b.dir}/${b.files.form}`, 'utf8');
  const onDemand = readFileSync(`${b.dir}/${b.files.onDemand}`, 'utf8');
  t.true(form.includes(b.files.onDemand), 'the script imports it by its hashed name');
  t.false(form.includes('js.stripe.com') || form.includes('data-fl-payment-element'), "Stripe's loader and the payment control are not in the script");
  t.true(onDemand.includes('js.stripe.com') && onDemand.includes('data-fl-payment-element') && onDemand.includes('fl-booking-move'));
  const u = await app.user();
  const created = await app.api('POST', '/forms', { key: u.key, body: { title: 'Plain', published: true, questions: [{ type: 'short_text', title: 'Name' }] } });
  const page = await get(`/f/${created.body.slug}`);
  t.is(page.status, 200);
  t.false(page.body.toString('utf8').includes('modulepreload'), 'no preload for a form that does not need it');
});

test('the signature fonts are sent as they are, whatever the client accepts', async (t) => {
  for (const name of ['signature-latin.woff2', 'signature-latin-ext.woff2']) {
    const res = await get(`/formloom/assets/${name}`, 'gzip, br');
    t.is(res.status, 200, name);
    t.is(res.headers['content-type'], 'font/woff2', name);
    t.is(res.headers['content-encoding'], undefined, name);
    t.is(res.body.subarray(0, 4).toString('latin1'), 'wOF2', `${name} is a WOFF2 file`);
  }
});

test('brotli is chosen when the client weighs it as much as gzip, in any order; weights and identity are honoured', (t) => {
  t.is(preferredEncoding('gzip, deflate, br, zstd'), 'br');
  t.is(preferredEncoding('br;q=0.5, gzip'), 'gzip');
  t.is(preferredEncoding('gzip;q=0.8, br;q=0.9'), 'br');
  t.is(preferredEncoding('deflate, gzip;q=0.1'), 'gzip');
  t.is(preferredEncoding('*'), 'br');
  t.is(preferredEncoding('*, br;q=0'), 'gzip');
  t.is(preferredEncoding('identity'), null);
  t.is(preferredEncoding('gzip;q=0.5, identity'), null);
  t.is(preferredEncoding('br;q=0, gzip;q=0'), null);
  t.is(preferredEncoding('BR ; Q=1'), 'br');
  t.is(preferredEncoding(''), null);
  t.is(preferredEncoding(undefined), null);
  t.is(preferredEncoding('gzip;q=nonsense'), null, 'a weight that is no number is not an acceptance');
  t.is(preferredEncoding('deflate'), null);
});
