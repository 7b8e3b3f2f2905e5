import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import test from '../helpers/bounded-test';
import { forEachDb, type TestApp } from '../helpers/app';
import { rawRequest } from '../helpers/raw-http';

const BAD_ENCODINGS = ['%ff', '%', '%zz', '%ED%A0%80', '%C0%AF', '%E0%80', 'a%'];

/** `depth` nested containers as JSON text around `leaf` (built as text: no recursion on our side). */
const nestedObjects = (depth: number, leaf = '1') => '{"a":'.repeat(depth) + leaf + '}'.repeat(depth);
const nestedArrays = (depth: number, leaf = '1') => '['.repeat(depth) + leaf + ']'.repeat(depth);

async function fixture(app: TestApp) {
  const u = await app.user();
  const form = await app.api('POST', '/forms', { key: u.key, body: { title: 'Hardening', published: true, questions: [{ type: 'short_text', title: 'Name' }] } });
  if (form.status !== 201) throw new Error(form.text);
  return { key: u.key, form: form.body as { id: string; slug: string; questions: Array<{ id: string }> } };
}

function assertStructured(t: import('ava').ExecutionContext, res: { status: number; body: any; text: string }, status: number, what: string) {
  t.is(res.status, status, `${what}: ${res.text.slice(0, 300)}`);
  t.is(res.body?.error?.status, status, `${what}: structured`);
  t.is(typeof res.body?.error?.message, 'string', what);
}

/** The caller's forms (tests share one database, so counts are per user). */
const countForms = async (app: TestApp, key: string) => Number((await app.api('GET', '/forms', { key })).body.total);

forEachDb(test, (it) => {
  it('malformed percent-encoding in a path parameter is a structured 400 on every kind of route', async (t, app) => {
    const { key, form } = await fixture(app);
    const routes = (x: string): Array<[string, string]> => [
      ['GET', `/forms/${x}`],
      ['PUT', `/forms/${x}`],
      ['DELETE', `/forms/${x}/responses/${x}`],
      ['GET', `/forms/${form.id}/responses/${x}`],
      ['GET', `/teams/${x}/members`],
      ['POST', `/invitations/${x}/accept`],
      ['GET', `/public/forms/${x}`],
      ['POST', `/public/forms/${x}/responses`],
      ['PATCH', `/public/forms/${form.slug}/responses/${x}`],
      ['POST', `/public/forms/${x}/uploads`],
      ['GET', `/public/uploads/${x}/${x}/${x}`],
    ];
    for (const enc of BAD_ENCODINGS) {
      for (const [method, path] of routes(enc)) {
        for (const k of [key, undefined]) {
          const res = await app.api(method, path, { key: k, body: method === 'GET' || method === 'DELETE' ? undefined : {} });
          assertStructured(t, res, 400, `${method} ${path}`);
          t.is(res.body?.error?.code, 'BAD_REQUEST');
        }
      }
    }
  });

  it('malformed percent-encoding or a NUL on the public page is a plain 400 page without a stack trace', async (t, app) => {
    const { form } = await fixture(app);
    for (const enc of BAD_ENCODINGS) {
      const res = await fetch(`${app.url}/f/${enc}`);
      const text = await res.text();
      t.is(res.status, 400, `/f/${enc}`);
      t.regex(res.headers.get('content-type') ?? '', /text\/html/);
      t.false(/URIError|node_modules|\/work\/|\bat \w/.test(text), `/f/${enc} leaks: ${text.slice(0, 200)}`);
    }
    for (const odd of ['a%00b', '%00']) {
      const res = await fetch(`${app.url}/f/${odd}`);
      t.is(res.status, 400, `/f/${odd}`);
      t.false((await res.text()).includes('NUL'), 'a plain page');
    }
    t.is((await fetch(`${app.url}/f/${'a'.repeat(6000)}`)).status, 404);
    t.is((await fetch(`${app.url}/f/no-such-form`)).status, 404);
    t.is((await fetch(`${app.url}/f/${form.slug}`)).status, 200);
  });

  it('a body that is not encoded as its Content-Encoding says is a 400; an unknown encoding or charset too', async (t, app) => {
    const { key, form } = await fixture(app);
    const before = await countForms(app, key);
    const targets: Array<[string, string, object]> = [
      ['POST', '/forms', { title: 'x' }],
      ['PUT', `/forms/${form.id}`, { title: 'y' }],
      ['POST', '/teams', { name: 'T' }],
      ['POST', `/public/forms/${form.slug}/responses`, { answers: [] }],
    ];
    for (const [method, path, body] of targets) {
      for (const encoding of ['gzip', 'deflate', 'br', 'GZIP']) {
        const res = await app.api(method, path, { key, body, headers: { 'content-encoding': encoding } });
        assertStructured(t, res, 400, `${encoding} ${method} ${path}`);
        t.is(res.body.error.reason, 'undecodable_body');
      }
      for (const encoding of ['compress', 'x-unknown', 'gzip, br']) {
        const res = await app.api(method, path, { key, body, headers: { 'content-encoding': encoding } });
        assertStructured(t, res, 400, `${encoding} ${method} ${path}`);
        t.is(res.body.error.reason, 'unsupported_content_encoding');
      }
      for (const charset of ['latin1', 'iso-8859-1', 'x-nope']) {
        const res = await app.api(method, path, { key, body, headers: { 'content-type': `application/json; charset=${charset}` } });
        assertStructured(t, res, 400, `charset ${charset} ${method} ${path}`);
        t.is(res.body.error.reason, 'unsupported_charset');
      }
    }
    t.is(await countForms(app, key), before, 'nothing written');
    // Bodies that really are compressed keep working.
    const json = Buffer.from(JSON.stringify({ title: 'Compressed' }));
    for (const [encoding, data] of [['gzip', gzipSync(json)], ['deflate', deflateSync(json)], ['br', brotliCompressSync(json)]] as const) {
      const res = await fetch(`${app.url}/api/v1/forms`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-encoding': encoding },
        body: data,
      });
      t.is(res.status, 201, `${encoding}: ${await res.text()}`);
    }
  });

  it('a body shorter than its Content-Length: the server neither hangs nor writes, and keeps answering', async (t, app) => {
    const { key } = await fixture(app);
    const before = await countForms(app, key);
    const body = JSON.stringify({ title: 'Short' });
    const head = `POST /api/v1/forms HTTP/1.1\nHost: localhost\nAuthorization: Bearer ${key}\nContent-Type: application/json\nContent-Length: ${body.length + 100}`;
    const cut = await rawRequest(app.url, head, body, { destroyAfterSend: true });
    t.false(cut.timedOut);
    const invalidLength = await rawRequest(app.url, `${head.replace(/Content-Length: \d+/, 'Content-Length: 12abc')}\nConnection: close`, body);
    t.is(invalidLength.status, 400);
    t.is(await countForms(app, key), before);
    t.is((await app.api('GET', '/forms', { key })).status, 200);
  });

  it('JSON nested past 32 levels is a 400 naming the field, wherever it is; 32 levels are accepted', async (t, app) => {
    const { key, form } = await fixture(app);
    const before = await countForms(app, key);
    const q = (extra: string) => `{"title":"Deep","questions":[{"type":"short_text","title":"Q",${extra}}]}`;
    const cases: Array<[string, string, string, string]> = [
      ['POST', '/forms', `{"title":"Deep","variables":${nestedObjects(10_000)}}`, 'variables.a.a'],
      ['POST', '/forms', `{"title":"Deep","quiz_settings":${nestedObjects(10_000)}}`, 'quiz_settings.a.a'],
      ['POST', '/forms', `{"title":"Deep","start_logic_jumps":${nestedArrays(10_000)}}`, 'start_logic_jumps.0.0'],
      ['POST', '/forms', q(`"validations":${nestedObjects(10_000)}`), 'questions.0.validations.a'],
      ['POST', '/forms', q(`"logic_jumps":${nestedArrays(10_000)}`), 'questions.0.logic_jumps.0'],
      ['PUT', `/forms/${form.id}`, `{"variables":${nestedObjects(3_000)}}`, 'variables.a.a'],
      ['PUT', `/forms/${form.id}`, q(`"logic_jumps":[{"if":${nestedArrays(3_000)}}]`).replace('"title":"Deep",', ''), 'questions.0.logic_jumps.0.if.0'],
      ['POST', `/public/forms/${form.slug}/responses`, `{"answers":[{"question_id":"${form.questions[0]!.id}","value":${nestedArrays(10_000)}}]}`, 'answers.0.value.0'],
      ['POST', `/public/forms/${form.slug}/responses`, `{"answers":[{"question_id":"${form.questions[0]!.id}","value":${nestedObjects(10_000)}}]}`, 'answers.0.value.a'],
      ['POST', '/teams', nestedArrays(10_000), '0.0.0'],
    ];
    for (const [method, path, body, field] of cases) {
      const res = await app.api(method, path, { key, body });
      assertStructured(t, res, 400, `${method} ${path} ${field}`);
      t.true(String(res.body.error.field).startsWith(field), `${field}: got ${res.body.error.field}`);
      t.regex(res.body.error.message, /nested deeper than 32 levels/);
    }
    t.is(await countForms(app, key), before, 'nothing written');
    // The body is level 1 and the `variables` object level 2, so 30 more levels make 32: still accepted.
    const fits = await app.api('POST', '/forms', { key, body: `{"title":"Deep enough","variables":{"v":${nestedObjects(30)}}}` });
    t.is(fits.status, 201, fits.text.slice(0, 300));
    const over = await app.api('POST', '/forms', { key, body: `{"title":"Too deep","variables":{"v":${nestedObjects(31)}}}` });
    t.is(over.status, 400);
  });

  it('a NUL character deep in a body is a 400 naming its path', async (t, app) => {
    const { key } = await fixture(app);
    const res = await app.api('POST', '/forms', { key, body: { title: 'Nul', variables: { outer: { list: ['ok', 'bad\u0000'] } } } });
    assertStructured(t, res, 400, 'nul');
    t.is(res.body.error.field, 'variables.outer.list.1');
    const key0 = await app.api('POST', '/forms', { key, body: { title: 'Nul', variables: { 'k\u0000': 1 } } });
    t.is(key0.body?.error?.field, 'variables.k\u0000');
  });
});
