import test from '../helpers/bounded-test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { emailAddress } from '@formloom/core';
import { SIGNATURE_LIMITS } from '@formloom/pdf';
import { startTestApp, type TestApp } from '../helpers/app';
import { contractForm, lazyRenderer } from '../helpers/signing';
import { voiceAppOptions, voiceUser } from '../helpers/voice';
import { signaturePng } from '../helpers/png';

/*
 * The document says what the server checks (issue 34, item 33): an email field's pattern and maxLength give
 * the server's verdict; hidden_fields are unique items; the NUL rule, the items of voice `lines` and `cast`,
 * and the PDF and PNG rules are in the document, and the server does what it says.
 */
let app: TestApp;
let doc: any;

test.before(async () => {
  app = await startTestApp('sqlite', { signedDocuments: lazyRenderer(), ...voiceAppOptions() });
  doc = (await app.api('GET', '/openapi.json')).body;
});
test.after.always(async () => app?.close());

const jsonBody = (path: string, method = 'post') => doc.paths[path][method].requestBody.content['application/json'].schema;
/** A property's schema, its null alternative left out. */
const nonNull = (s: any) => (s.anyOf ? s.anyOf.find((x: any) => x.type !== 'null') : s);

/** Every string schema of the document with `format: email`, where it is. */
function emailSchemas(): Array<{ where: string; schema: any }> {
  const found: Array<{ where: string; schema: any }> = [];
  const walk = (v: unknown, where: string) => {
    if (!v || typeof v !== 'object') return;
    if ((v as any).format === 'email') found.push({ where, schema: v });
    for (const [k, x] of Object.entries(v)) walk(x, `${where}/${k}`);
  };
  walk(doc, '');
  return found;
}

const label63 = 'a'.repeat(63);
/** 254 characters: a 64-character local part and three labels (63, 63, 61). */
const LONGEST = `${'l'.repeat(64)}@${label63}.${'b'.repeat(63)}.${'c'.repeat(61)}`;
const SAMPLE = [
  // Accepted by the server.
  'x@a.io',
  "o'brien+tag@mail.example.co.uk",
  '{}^=!?@example.com',
  'a!#$%&*/=?^_`{|}~-@x-y.example',
  'A.B@EXAMPLE.COM',
  'a@example.c1',
  'a@xn--bcher-kva.example',
  '  padded@example.com\t',
  '\u00a0nbsp@example.com\n',
  LONGEST,
  `${'l'.repeat(64)}@example.com`,
  `someone@${label63}.com`,
  // Refused by the server.
  '0@com',
  'someone@example',
  'x@bad-.example.com',
  'x@-bad.example.com',
  `${'l'.repeat(65)}@example.com`,
  `someone@${'d'.repeat(64)}.com`,
  `${LONGEST} `, // 255 characters as sent
  `${'l'.repeat(64)}@${label63}.${'b'.repeat(63)}.${'c'.repeat(62)}`,
  'some..one@example.com',
  '.someone@example.com',
  'someone.@example.com',
  'someone@example..com',
  'someone@example.com.',
  'some one@example.com',
  'someone@[192.0.2.1]',
  'someone@192.0.2.1',
  'a@example.123',
  '"quoted"@example.com',
  'é@example.com',
  'a@exämple.com',
  'a@ex_ample.com',
  '@example.com',
  'a@',
  'a@@example.com',
  'a@b@example.com',
  '',
  ' ',
];

test.serial('every email field: format email, the pattern and maxLength 254; a valid document (swagger-parser)', async (t) => {
  await t.notThrowsAsync(SwaggerParser.validate(structuredClone(doc)));
  const fields = emailSchemas();
  t.true(fields.length >= 6, fields.map((f) => f.where).join('\n'));
  const first = fields[0]!.schema;
  for (const { where, schema } of fields) {
    t.is(schema.maxLength, 254, where);
    t.is(schema.pattern, first.pattern, where);
    t.truthy(schema.description, where);
  }
  // An ECMA-262 pattern, as JSON Schema validators compile it (with and without the u flag).
  t.notThrows(() => new RegExp(first.pattern, 'u'));
});

test.serial('the email pattern and maxLength give the server\'s verdict, over HTTP, for a sample of addresses', async (t) => {
  const { pattern, maxLength } = nonNull(jsonBody('/teams/{teamId}/invitations').properties.email);
  const documented = (s: string) => [...s].length <= maxLength && new RegExp(pattern, 'u').test(s) && new RegExp(pattern).test(s);
  const owner = await app.user('pro');
  const team = (await app.api('POST', '/teams', { key: owner.key, body: { name: 'Verdicts' } })).body;
  for (const email of SAMPLE) {
    const r = await app.api('POST', `/teams/${team.id}/invitations`, { key: owner.key, body: { email, role: 'viewer' } });
    t.not(r.status, 500, r.text);
    // Refused as an address: 400 naming the field; anything else (201, the team out of seats) took the address.
    const accepted = !(r.status === 400 && r.body.error.field === 'email' && r.body.error.reason !== 'no_seats_left');
    t.is(documented(email), accepted, `${JSON.stringify(email)}: ${r.status} ${r.text}`);
  }
  t.true(documented('{}^=!?@example.com') && !documented('0@com'));
});

test.serial('the email pattern agrees with the server\'s schema on thousands of generated strings', (t) => {
  const { pattern, maxLength } = nonNull(jsonBody('/teams/{teamId}/invitations').properties.email);
  const re = new RegExp(pattern, 'u');
  const server = emailAddress();
  // A small deterministic generator: strings near the rule's edges (dots, hyphens, digits, white space, lengths).
  let seed = 34;
  // mulberry32
  const rnd = (n: number) => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return (((x ^ (x >>> 14)) >>> 0) / 2 ** 32) * n | 0;
  };
  const pick = (s: string) => [...s][rnd([...s].length)];
  const ALPHABET = 'aZ09.-_@+{}!?=^ \t\u00a0"é[]\n';
  const label = () => Array.from({ length: rnd(3) ? 1 + rnd(8) : 60 + rnd(6) }, () => pick('ab0-')).join('');
  const local = () => Array.from({ length: rnd(3) ? 1 + rnd(8) : 60 + rnd(8) }, () => pick('ab0.{}!?_-')).join('');
  let agreed = 0;
  for (let i = 0; i < 6000; i++) {
    const s =
      i % 3 === 0
        ? Array.from({ length: rnd(24) }, () => pick(ALPHABET)).join('')
        : `${rnd(8) ? '' : ' '}${local()}@${Array.from({ length: 1 + rnd(4) }, label).join('.')}${rnd(8) ? '' : '\t'}`;
    const documented = [...s].length <= maxLength && re.test(s);
    t.is(documented, server.safeParse(s).success, JSON.stringify(s));
    agreed += documented ? 1 : 0;
  }
  t.true(agreed > 200, `the sample holds accepted addresses too (${agreed})`);
});

test.serial('hidden_fields: uniqueItems in the document; the server refuses a repeated name', async (t) => {
  const schema = nonNull(jsonBody('/forms').properties.hidden_fields);
  t.like(schema, { type: 'array', uniqueItems: true, maxItems: 20 });
  const u = await app.user();
  const repeated = await app.api('POST', '/forms', { key: u.key, body: { title: 'Hidden', hidden_fields: ['source', 'source'] } });
  t.is(repeated.status, 400);
  t.is(repeated.body.error.field, 'hidden_fields');
  const distinct = await app.api('POST', '/forms', { key: u.key, body: { title: 'Hidden', hidden_fields: ['source', 'Source'] } });
  t.is(distinct.status, 201, distinct.text);
  t.deepEqual(distinct.body.hidden_fields, ['source', 'Source']);
});

test.serial('the NUL rule and the depth limit are in the document, and the server keeps them', async (t) => {
  t.regex(doc.info.description, /U\+0000/);
  t.regex(doc.info.description, /at most 32 levels/);
  t.regex(doc.components.responses.BadRequest.description, /U\+0000/);
  const u = await app.user();
  const body = await app.api('POST', '/forms', { key: u.key, body: { title: 'NUL', questions: [{ type: 'short_text', title: 'a\u0000b' }] } });
  t.is(body.status, 400);
  t.like(body.body.error, { code: 'BAD_REQUEST', field: 'questions.0.title' });
  t.regex(body.body.error.message, /NUL/);
  const key = await app.api('POST', '/forms', { key: u.key, body: { title: 'NUL', variables: { 'k\u0000': 1 } } });
  t.like(key.body.error, { field: 'variables.k\u0000' });
  const query = await app.api('GET', '/forms?search=%00', { key: u.key });
  t.is(query.status, 400);
  let deep: unknown = 'x';
  for (let i = 0; i < 33; i++) deep = [deep];
  t.is((await app.api('POST', '/forms', { key: u.key, body: { title: 'Deep', variables: { deep } } })).status, 400);
});

test.serial('voice lines and cast: their items in the document, not blank, as the server checks them', async (t) => {
  const script = (doc.paths['/voice'].post.requestBody.content['application/json'].schema.anyOf as any[]).find(
    (v) => v.properties.mode.const === 'script' && v.properties.lines,
  );
  const [spoken, pause] = script.properties.lines.items.anyOf;
  t.deepEqual(Object.keys(spoken.properties).sort(), ['speaker', 'text', 'voice']);
  t.deepEqual(spoken.required, ['text']);
  t.deepEqual(pause.required, ['pause_ms']);
  t.is(pause.additionalProperties, false);
  t.regex(script.properties.lines.description, /300000 ms/);
  const castItem = script.properties.cast.items;
  t.deepEqual(castItem.required, ['speaker', 'voice']);
  t.regex(script.properties.cast.description, /cast_conflict/);
  for (const s of [spoken.properties.text, nonNull(spoken.properties.speaker), nonNull(spoken.properties.voice), castItem.properties.speaker]) {
    t.is(s.pattern, '\\S');
  }
  const notBlank = new RegExp(spoken.properties.text.pattern, 'u');
  t.false(notBlank.test(' \t'));

  const user = await voiceUser(app, { credits: 100 });
  const voice = (await app.api('GET', '/voice/voices?language=en', { key: user.key })).body.data[0].id;
  const estimate = (body: Record<string, unknown>) => app.api('POST', '/voice', { key: user.key, body: { mode: 'estimate', voice, ...body } });
  const good = await estimate({ lines: [{ speaker: 'Anna', text: 'Hello there.' }, { pause_ms: 500 }], cast: [{ speaker: 'anna', voice }] });
  t.is(good.status, 200, good.text);
  for (const [lines, field] of [
    [[{ speaker: ' \t', text: 'Hello.' }], 'lines.0.speaker'],
    [[{ text: '   ' }], 'lines.0.text'],
    [[{ text: 'Hi.', voice: ' ' }], 'lines.0.voice'],
  ] as const) {
    const r = await estimate({ lines });
    t.is(r.status, 400, r.text);
    t.is(r.body.error.field, field);
  }
  const blankCast = await estimate({ lines: [{ speaker: 'Anna', text: 'Hi.' }], cast: [{ speaker: '  ', voice }] });
  t.is(blankCast.body.error.field, 'cast.0.speaker');
  const conflict = await estimate({ lines: [{ speaker: 'Anna', text: 'Hi.' }], cast: [{ speaker: 'Anna', voice }, { speaker: 'ANNA', voice: 'nv_other' }] });
  t.like(conflict.body.error, { field: 'cast.1', reason: 'cast_conflict' });
});

test.serial('a drawn signature: the pattern and maxLength the PDF renderer keeps, the PNG rules in words', async (t) => {
  const sign = jsonBody('/s/{shortCode}/sign');
  const [typed, drawn] = sign.properties.signature.oneOf.map((v: any) => v.properties.value);
  t.is(typed.pattern, '\\S');
  t.is(drawn.maxLength, Math.ceil(SIGNATURE_LIMITS.drawnMaxBytes / 3) * 4 + 'data:image/png;base64,'.length);
  t.regex(drawn.description, /IHDR/);
  t.regex(drawn.description, /2000 pixels/);
  const re = new RegExp(drawn.pattern, 'u');

  const { user, form } = await contractForm(app);
  const session = (await app.api('POST', `/forms/${form.id}/signing-sessions`, { key: user.key, body: {} })).body;
  const [a, b] = session.signer_links.map((l: any) => l.short_code);
  const png = signaturePng();
  const payload = png.slice('data:image/png;base64,'.length);
  const wrapped = `data:image/png;base64,${payload.match(/.{1,76}/g)!.join('\r\n')}`;
  const cases: Array<[string, string]> = [
    [` ${png}`, 'white space before the prefix'],
    [png.replace('data:', 'data: '), 'white space inside the prefix'],
    [`${png}==`, 'more padding than base64 has'],
    ['data:image/png;base64,AAAA', 'not a PNG'],
  ];
  for (const [value, why] of cases) {
    const r = await app.api('POST', `/s/${a}/sign`, { body: { signature: { type: 'drawn', value } } });
    t.is(r.status, 400, `${why}: ${r.text}`);
    t.is(r.body.error.field, 'signature', why);
  }
  // Syntax the pattern can judge: refused by both.
  t.false(re.test(cases[0]![0]) || re.test(cases[1]![0]));
  // Line breaks inside the base64 (as MIME wraps it) are taken, by the pattern and the server.
  t.true(re.test(wrapped) && wrapped.length <= drawn.maxLength);
  const ok = await app.api('POST', `/s/${a}/sign`, { body: { signature: { type: 'drawn', value: wrapped }, first_name: 'Tom', last_name: 'Tenant' } });
  t.is(ok.status, 200, ok.text);
  const blank = await app.api('POST', `/s/${b}/sign`, { body: { signature: { type: 'typed', value: '   ' } } });
  t.is(blank.status, 400);
  t.false(new RegExp(typed.pattern, 'u').test('   '));
});

test.serial('PDF and upload content rules are in the document; the server checks what it says', async (t) => {
  const verify = doc.paths['/signing/verify'].post.requestBody.content;
  t.regex(verify['application/pdf'].schema.description, /%PDF-.*first 1,024 bytes/);
  t.regex(verify['application/json'].schema.properties.pdf_base64.description, /%PDF-/);
  const pdfAt = (offset: number) => Buffer.concat([Buffer.alloc(offset, 0x20), Buffer.from('%PDF-1.7\n%%EOF\n')]);
  const post = (bytes: Buffer) =>
    fetch(`${app.url}/api/v1/signing/verify`, { method: 'POST', headers: { 'content-type': 'application/pdf' }, body: bytes });
  t.is((await post(pdfAt(1000))).status, 200, 'a %PDF- header within the first 1,024 bytes is read');
  const late = await post(pdfAt(1024));
  t.is(late.status, 400);
  t.is(((await late.json()) as any).error.reason, 'not_a_pdf');

  const file = doc.paths['/public/forms/{slug}/uploads'].post.requestBody.content['multipart/form-data'].schema.properties.file;
  t.regex(file.description, /Only the declared type is checked, not the bytes/);
  for (const logo of [jsonBody('/forms').properties.top_logo_url, jsonBody('/forms').properties.branding_logo_url, jsonBody('/teams/{teamId}/branding', 'put').properties.logo_url]) {
    t.regex(nonNull(logo).description, /never fetches it/);
  }
  // An upload declared image/png is stored as sent, whatever its bytes, and served back as that type.
  const u = await app.user();
  const form = (await app.api('POST', '/forms', { key: u.key, body: { title: 'Files', published: true, questions: [{ type: 'file_upload', title: 'Scan', properties: { allowed_types: ['image/png'] } }] } })).body;
  const body = new FormData();
  body.append('file', new Blob([Buffer.from('not a png at all')], { type: 'image/png' }), 'scan.png');
  const up = await fetch(`${app.url}/api/v1/public/forms/${form.slug}/uploads?question_id=${form.questions[0].id}`, { method: 'POST', body });
  t.is(up.status, 201);
  const back = await fetch(((await up.json()) as any).url, { headers: { authorization: `Bearer ${u.key}` } });
  t.is(back.headers.get('content-type'), 'image/png');
  t.is(back.headers.get('x-content-type-options'), 'nosniff');
  t.is(await back.text(), 'not a png at all');
});
