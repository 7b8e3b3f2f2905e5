import { existsSync } from 'node:fs';
import { join } from 'node:path';
import test from '../helpers/bounded-test';
import type { TestApp } from '../helpers/app';
import type { SharedDb } from '../helpers/shared-apps';
import { sameBytes } from '@formloom/core/testing';

/** Theme logos and library fonts (docs/workspace.md "Theme", docs/respondents.md "Fonts", docs/decisions.md Workspace). */

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR tiny png body')]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('JFIF body')]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([1, 0, 0, 0]), Buffer.from('WEBPVP8 body')]);
const SVG = '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient></defs><rect width="10" height="10" fill="url(#g)"/><use href="#g"/></svg>';

function upload(app: TestApp, formId: string, key: string | null, file: { name: string; type: string; data: string | Buffer }) {
  const fd = new FormData();
  fd.append('file', new Blob([file.data], { type: file.type }), file.name);
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  return fetch(`${app.url}/api/v1/forms/${formId}/logos`, { method: 'POST', body: fd, headers }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
}

/** forms.test.ts registers these on the apps its parts share (helpers/shared-apps.ts). */
export const register = (forEachDb: SharedDb) => forEachDb((it) => {
  it('PNG, JPEG, WebP and a plain SVG are stored by content and served public, immutable, by their hash', async (t, app) => {
    const u = await app.user();
    const form = (await app.api('POST', '/forms', { key: u.key, body: { title: 'Logo' } })).body;
    for (const [file, type, ext] of [
      [{ name: 'logo.png', type: 'image/png', data: PNG }, 'image/png', 'png'],
      // The name and declared type say nothing: the bytes of a JPEG named .png are a JPEG.
      [{ name: 'logo.png', type: 'application/octet-stream', data: JPEG }, 'image/jpeg', 'jpg'],
      [{ name: 'logo.webp', type: 'image/webp', data: WEBP }, 'image/webp', 'webp'],
      [{ name: 'logo.svg', type: 'image/svg+xml', data: SVG }, 'image/svg+xml', 'svg'],
    ] as const) {
      const res = await upload(app, form.id, u.key, file);
      t.is(res.status, 201, JSON.stringify(res.body));
      t.is(res.body.content_type, type);
      t.regex(res.body.url, new RegExp(`^${app.url}/api/v1/public/logos/${form.id}/[0-9a-f]{32}\\.${ext}$`));
      const got = await fetch(res.body.url);
      t.is(got.status, 200);
      t.is(got.headers.get('content-type'), type);
      t.is(got.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      t.is(got.headers.get('x-content-type-options'), 'nosniff');
      t.regex(got.headers.get('content-security-policy') ?? '', /default-src 'none'/);
      sameBytes(t, new Uint8Array(await got.arrayBuffer()), Buffer.from(file.data));
    }
    // The same bytes twice: the same URL. The theme takes it as any logo URL.
    const a = await upload(app, form.id, u.key, { name: 'a.png', type: 'image/png', data: PNG });
    const b = await upload(app, form.id, u.key, { name: 'b.png', type: 'image/png', data: PNG });
    t.is(a.body.url, b.body.url);
    const theme = await app.api('PUT', `/forms/${form.id}/theme`, { key: u.key, body: { top_logo_url: a.body.url } });
    t.is(theme.status, 200);
    t.is(theme.body.top_logo_url, a.body.url);
    t.is((await fetch(a.body.url.replace(/[0-9a-f]{32}/, '0'.repeat(32)))).status, 404);
    t.is((await fetch(`${app.url}/api/v1/public/logos/${form.id}/..%2f..%2fsecret.key`)).status, 404);
  });

  it('refuses what is not a logo: 415 by content, unsafe SVG, 413 past 1 MB, 400 empty; nothing stored', async (t, app) => {
    const u = await app.user();
    const form = (await app.api('POST', '/forms', { key: u.key, body: { title: 'Logo' } })).body;
    const refuse = async (file: { name: string; type: string; data: string | Buffer }, status: number, reason?: string) => {
      const res = await upload(app, form.id, u.key, file);
      t.is(res.status, status, `${file.name}: ${JSON.stringify(res.body)}`);
      t.is(res.body.error.status, status);
      if (reason) t.is(res.body.error.reason, reason, file.name);
      return res;
    };
    // A text file named and declared as PNG.
    await refuse({ name: 'fake.png', type: 'image/png', data: 'just text' }, 415, 'not_an_image');
    await refuse({ name: 'x.gif', type: 'image/gif', data: 'GIF89a' }, 415, 'not_an_image');
    await refuse({ name: 'x.html', type: 'text/html', data: '<svg></svg>' }, 415, 'not_an_image');
    for (const svg of [
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg"><rect onload="alert(1)"/></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg"><a href="javascript:alert(1)"><rect/></a></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg"><use xlink:href="https://evil.example/x.svg#a"/></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><div>x</div></foreignObject></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg"><rect style="fill:url(https://evil.example/t)"/></svg>',
      '<!DOCTYPE svg [<!ENTITY x "y">]><svg xmlns="http://www.w3.org/2000/svg"/>',
      '<svg xmlns="http://www.w3.org/2000/svg"><SCRIPT:x/><svg:script>1</svg:script></svg>',
    ]) {
      const res = await refuse({ name: 'logo.svg', type: 'image/svg+xml', data: svg }, 415, 'unsafe_svg');
      t.regex(res.body.error.message, /This SVG cannot be a logo/);
    }
    await refuse({ name: 'big.png', type: 'image/png', data: Buffer.concat([PNG, Buffer.alloc(1024 * 1024)]) }, 413, 'file_too_large');
    await refuse({ name: 'empty.png', type: 'image/png', data: '' }, 400);
    t.false(existsSync(join(app.blobDir, 'logos', form.id)), 'nothing was stored');
  });

  it('only someone who may edit the form uploads: 401 without credentials, as the theme answers another account', async (t, app) => {
    const owner = await app.user();
    const other = await app.user();
    const form = (await app.api('POST', '/forms', { key: owner.key, body: { title: 'Logo' } })).body;
    const file = { name: 'logo.png', type: 'image/png', data: PNG };
    t.is((await upload(app, form.id, null, file)).status, 401);
    const theirs = await app.api('PUT', `/forms/${form.id}/theme`, { key: other.key, body: { theme_color: '#000000' } });
    t.is(theirs.status, 403);
    t.is((await upload(app, form.id, other.key, file)).status, theirs.status);
    t.is((await upload(app, 'frm_nope', owner.key, file)).status, 404);
  });

  it('a library font: declared and preloaded by the page, its file served from node_modules, immutable; a system font adds nothing', async (t, app) => {
    const u = await app.user();
    const make = async (font: string) =>
      (await app.api('POST', '/forms', { key: u.key, body: { title: 'Fonts', published: true, font_family: font, font_family_button: '"Lora", Georgia, serif', corner_radius: '16px', questions: [{ type: 'short_text', title: 'Name' }] } })).body;
    const form = await make('"Playfair Display", Georgia, serif');
    t.is(form.corner_radius, '16px');
    const page = await (await fetch(`${app.url}/f/${form.slug}`)).text();
    const preloads = [...page.matchAll(/<link rel="preload" href="([^"]+)" as="font" type="font\/woff2" crossorigin>/g)].map((m) => m[1]!);
    t.deepEqual(preloads, ['/formloom/assets/font-5.3.0-playfair-display-latin-400-normal.woff2'], 'only the first screen’s file is preloaded');
    t.regex(page, /@font-face\{font-family:"Playfair Display";font-style:normal;font-weight:400;font-display:swap;src:url\(\/formloom\/assets\/font-5\.3\.0-playfair-display-latin-400-normal\.woff2\)/);
    t.regex(page, /@font-face\{font-family:"Lora";[^}]*font-weight:700/, 'the other fields’ families are declared too');
    t.notRegex(page, /Inter/);
    const file = await fetch(`${app.url}${preloads[0]}`);
    t.is(file.status, 200);
    t.is(file.headers.get('content-type'), 'font/woff2');
    t.is(file.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    t.is(Buffer.from(await file.arrayBuffer()).subarray(0, 4).toString('latin1'), 'wOF2');
    t.is((await fetch(`${app.url}/formloom/assets/font-5.3.0-not-a-font-latin-400-normal.woff2`)).status, 404);

    const plain = await make('Georgia, serif');
    const plainPage = await (await fetch(`${app.url}/f/${plain.slug}`)).text();
    t.notRegex(plainPage, /rel="preload"[^>]*as="font"/);
  });
});
