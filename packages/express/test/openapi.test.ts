import test, { type ExecutionContext } from 'ava';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import express from 'express';
import type { AddressInfo } from 'node:net';
import SwaggerParser from '@apidevtools/swagger-parser';
import { formOut, uploadOut } from '@formloom/core';
import { createFormloomRouter } from '../src';
import { startTestApp, type TestApp } from './helpers/app';
import { assertMatches } from './helpers/schema-check';

const run = promisify(execFile);
let app: TestApp;
let doc: any;

test.before(async () => {
  app = await startTestApp('sqlite');
  doc = (await app.api('GET', '/openapi.json')).body;
});
test.after.always(async () => app?.close());

const operations = () =>
  Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));

test.serial('the served document is valid OpenAPI 3.1 (swagger-parser)', async (t) => {
  t.is(doc.openapi, '3.1.0');
  // validate() dereferences in place: give it a copy.
  await t.notThrowsAsync(SwaggerParser.validate(structuredClone(doc)));
  // A broken document is refused, so the check above can fail.
  const broken = structuredClone(doc);
  broken.paths['/forms'].get.responses['200'].content['application/json'].schema = { $ref: '#/components/schemas/NoSuchSchema' };
  await t.throwsAsync(SwaggerParser.validate(broken));
});

test.serial('every operation: a unique readable operationId, known tags, a real success schema, the error responses', (t) => {
  const ids = new Set<string>();
  const topTags = new Set((doc.tags as Array<{ name: string; description?: string }>).map((x) => x.name));
  t.true(topTags.has('Forms') && topTags.has('Voice') && topTags.has('Signing sessions'));
  for (const { path, method, op } of operations()) {
    const where = `${method.toUpperCase()} ${path}`;
    t.regex(op.operationId, /^[a-z][A-Za-z]+$/, where);
    t.false(ids.has(op.operationId), `${where}: operationId ${op.operationId} is taken`);
    ids.add(op.operationId);
    t.true(op.tags.length > 0 && op.tags.every((x: string) => topTags.has(x)), where);
    const [status, success] = Object.entries(op.responses).find(([s]) => s.startsWith('2')) as [string, any];
    const content = Object.entries(success.content as Record<string, { schema: Record<string, unknown> }>);
    t.true(content.length > 0, where);
    for (const [type, { schema }] of content) {
      // No body may be an open object or an empty schema: a typed client would learn nothing from it.
      t.true(Object.keys(schema).length > 0 && !(schema.type === 'object' && !schema.properties), `${where} ${status} ${type}`);
    }
    t.truthy(op.responses['500'], `${where}: 500`);
    t.truthy(op.responses['429'], `${where}: 429 (rate limits are on)`);
    if (op.security.length) for (const s of ['401', '403']) t.truthy(op.responses[s], `${where}: ${s}`);
    if (path.includes('{')) t.truthy(op.responses['404'], `${where}: 404`);
  }
  t.true(ids.has('getForm') && ids.has('listResponses') && ids.has('createSigningSession') && ids.has('generateSpeech'));
  t.deepEqual(doc.components.responses.NotFound.content['application/json'].schema, { $ref: '#/components/schemas/Error' });
});

test.serial('CSV is text/csv, uploads declare their multipart body, PDFs and audio their media types', (t) => {
  t.deepEqual(Object.keys(doc.paths['/forms/{id}/responses/export'].get.responses['200'].content), ['text/csv']);
  const upload = doc.paths['/public/forms/{slug}/uploads'].post.requestBody.content['multipart/form-data'].schema;
  t.like(upload, { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } });
  t.deepEqual(Object.keys(doc.paths['/signing/verify'].post.requestBody.content).sort(), ['application/json', 'application/pdf']);
  t.truthy(doc.paths['/signing-sessions/{sessionId}/documents/{docId}'].get.responses['200'].content['application/pdf']);
  t.truthy(doc.paths['/voice'].post.responses['200'].content['audio/mpeg']);
  // Past the sync budget POST /voice answers 202 with Location (JSON only); its answers carry the voice rate headers.
  const accepted = doc.paths['/voice'].post.responses['202'];
  t.deepEqual(Object.keys(accepted.content), ['application/json']);
  t.deepEqual(accepted.content['application/json'].schema, { $ref: '#/components/schemas/VoiceGenerationBody' });
  t.truthy(accepted.headers.Location);
  t.truthy(doc.paths['/voice'].post.responses['200'].headers['X-RateLimit-Remaining']);
  for (const k of ['retake_of', 'reused', 'retakes_remaining']) t.true(doc.components.schemas.VoiceGeneration.required.includes(k), k);
  t.true(doc.components.schemas.VoiceGenerationList.properties.meta.required.includes('total_pages'));
  t.truthy(doc.paths['/voice'].post.requestBody.content['application/json']);
  // Document 3 conformance: both generation bodies documented, the library's paging, 503 WARMING_UP, meta.rate_card.
  const streamBody = doc.paths['/voice/stream'].post.requestBody.content['application/json'].schema;
  t.deepEqual(streamBody.required.sort(), ['text', 'voice']);
  t.deepEqual(streamBody.properties.format.enum, ['mp3', 'pcm_24k', 'mulaw_8k', 'ulaw_8000']);
  t.deepEqual(doc.paths['/voice'].post.requestBody.content['application/json'].schema.properties.format.enum, ['mp3', 'wav', 'ogg_opus', 'mulaw_8k']);
  t.deepEqual(doc.paths['/voice/generations'].get.parameters.map((p: { name: string }) => p.name).sort(), ['page', 'per_page']);
  for (const path of ['/voice', '/voice/stream']) t.truthy(doc.paths[path].post.responses['503'], path);
  t.truthy(doc.paths['/voice/generations/{id}'].delete.responses['409']);
  for (const name of ['VoiceList', 'VoiceGenerationDeleted']) t.true(doc.components.schemas[name].required.includes('meta'), name);
  t.false('saved' in doc.components.schemas.VoiceGeneration.properties);
  t.deepEqual(doc.paths['/forms/{id}'].get.responses['200'].content['application/json'].schema, { $ref: '#/components/schemas/Form' });
  // One variant per question type, each with its own properties (question-types.ts).
  const variants = doc.components.schemas.Question.oneOf as any[];
  t.true(variants.length >= 20);
  for (const v of variants) t.deepEqual([...v.required].sort(), ['description', 'id', 'logic_jumps', 'order', 'properties', 'required', 'title', 'type', 'validations']);
  const rating = variants.find((v) => v.properties.type.const === 'rating');
  t.deepEqual(rating.properties.properties.properties.steps, { type: 'integer', minimum: 2, maximum: 10, default: 5 });
});

test.serial('the security scheme follows the host authentication when the router has an authenticate hook', async (t) => {
  t.deepEqual(Object.keys(doc.components.securitySchemes), ['apiKey']);
  t.deepEqual(doc.paths['/forms'].get.security, [{ apiKey: [] }]);
  t.deepEqual(doc.paths['/public/forms/{slug}'].get.security, []);
  const serve = async (options: Partial<Parameters<typeof createFormloomRouter>[0]>): Promise<any> => {
    const host = express();
    host.use('/api', createFormloomRouter({ formloom: app.formloom, rateLimits: false, authenticate: async () => null, ...options }));
    const server = host.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      return await (await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/openapi.json`)).json();
    } finally {
      server.close();
    }
  };
  const hosted = await serve({});
  t.deepEqual(Object.keys(hosted.components.securitySchemes), ['hostAuth']);
  t.regex(hosted.components.securitySchemes.hostAuth.description, /host application/);
  t.notRegex(JSON.stringify(hosted.components.securitySchemes), /formloom key create/);
  t.deepEqual(hosted.paths['/forms'].get.security, [{ hostAuth: [] }]);
  t.deepEqual(hosted.servers, [{ url: '/api' }]);
  const cookie = await serve({ securityScheme: { type: 'apiKey', in: 'cookie', name: 'sid', description: 'The host session cookie' } });
  t.deepEqual(cookie.components.securitySchemes.hostAuth, { type: 'apiKey', in: 'cookie', name: 'sid', description: 'The host session cookie' });
});

test.serial('the schema check of the test helpers fails on an answer that drifts from its schema', async (t) => {
  const user = await app.user();
  const form = (await app.api('POST', '/forms', { key: user.key, body: { title: 'Drift', questions: [{ type: 'short_text', title: 'Name' }] } })).body;
  const got = (await app.api('GET', `/forms/${form.id}`, { key: user.key })).body;
  t.notThrows(() => assertMatches(formOut, got, 'GET /forms/:id'));
  t.throws(() => assertMatches(formOut, { ...got, extra_field: 1 }, 'x'), { message: /\$\.extra_field is answered but not in the schema/ });
  const { title: _title, ...untitled } = got;
  t.throws(() => assertMatches(formOut, untitled, 'x'), { message: /title/ });
  t.throws(() => assertMatches(formOut, { ...got, questions: [{ ...got.questions[0], secret: 'x' }] }, 'x'), { message: /questions\[0\]\.secret/ });
  t.true(app.checked.has('createForm') && app.checked.has('getForm'));
});

test.serial('an upload sent as the document declares (multipart, part "file") answers the Upload schema', async (t) => {
  const user = await app.user();
  const form = (await app.api('POST', '/forms', { key: user.key, body: { title: 'Files', published: true, questions: [{ type: 'file_upload', title: 'CV' }] } })).body;
  const declared = doc.paths['/public/forms/{slug}/uploads'].post.requestBody.content['multipart/form-data'].schema;
  const fd = new FormData();
  for (const part of declared.required as string[]) fd.append(part, new Blob(['%PDF-1.4 tiny'], { type: 'application/pdf' }), 'cv.pdf');
  const res = await fetch(`${app.url}/api/v1/public/forms/${form.slug}/uploads?question_id=${form.questions[0].id}`, { method: 'POST', body: fd });
  const body = await res.json();
  t.is(res.status, 201, JSON.stringify(body));
  t.notThrows(() => assertMatches(uploadOut, body, 'POST /public/forms/:slug/uploads'));
  t.is(res.headers.get('content-type')?.split(';')[0], 'application/json');
});

/** A client written against the generated types: compiles only when the bodies are really described. */
const CLIENT = `
import type { components, operations } from './api';
type Json<O extends keyof operations, S extends keyof operations[O]['responses']> =
  operations[O]['responses'][S] extends { content: { 'application/json': infer B } } ? B : never;
type Body<O extends keyof operations> = operations[O] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

export function titles(form: Json<'getForm', 200>): string[] {
  const first: string = form.questions[0]!.title;
  const type: components['schemas']['Question']['type'] = form.questions[0]!.type;
  // @ts-expect-error: a form has no such field, so the type is not \`any\`
  form.no_such_field;
  return [first, type, form.slug, form.published ? 'on' : 'off'];
}
export function answers(list: Json<'listResponses', 200>): unknown[] {
  const a: Array<{ question_id: string; value?: unknown }> = list.responses[0]!.answers;
  const total: number = list.total;
  return [a, total, list.responses[0]!.completed_at];
}
export function urls(hooks: Json<'listGlobalWebhooks', 200>, log: Json<'listWebhookDeliveries', 200>): string[] {
  const enabled: boolean = hooks.webhooks[0]!.enabled;
  return [hooks.webhooks[0]!.url, log.deliveries[0]!.url, String(enabled), log.deliveries[0]!.status];
}
export function others(
  team: Json<'listTeamMembers', 200>,
  session: Json<'createSigningSession', 201>,
  gen: Json<'getVoiceGeneration', 200>,
  stats: Json<'getFormAnalytics', 200>,
): unknown[] {
  return [team.members[0]!.email, session.signer_links[0]!.signing_url, gen.data.voice.name, stats.question_drop_off[0]!.reached];
}
export const create: Body<'createForm'> = { title: 'Typed', questions: [{ type: 'short_text', title: 'Name' }] };
`;

/** Writes the generated types of `document` and the client into a new folder, and compiles them: the errors, or ''. */
async function compileClient(t: ExecutionContext, document: unknown): Promise<string> {
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  const dir = mkdtempSync(join(tmpdir(), 'formloom-client-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'api.ts'), astToString(await openapiTS(document as never)));
  writeFileSync(join(dir, 'client.ts'), CLIENT);
  const config = { compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: 'nodenext', types: [], skipLibCheck: true }, files: ['client.ts'] };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(config));
  // The project's own compiler, from the repository root.
  const tsc = join(dirname(require.resolve('typescript/package.json', { paths: [resolve(__dirname, '../../../..')] })), 'bin', 'tsc');
  return run(process.execPath, [tsc, '-p', dir], { cwd: dir }).then(
    () => '',
    (e: { stdout?: string }) => e.stdout || String(e),
  );
}

test.serial('openapi-typescript generates types from the served document that a typed client compiles against', async (t) => {
  const served: any = await (await fetch(`${app.url}/api/v1/openapi.json`)).json();
  // The control: the operations the client uses, with bare-object bodies as the document had before.
  const used = new Set(['getForm', 'listResponses', 'listGlobalWebhooks', 'listWebhookDeliveries', 'listTeamMembers', 'createSigningSession', 'getVoiceGeneration', 'getFormAnalytics', 'createForm']);
  const bare = { ...structuredClone(served), components: { ...served.components, schemas: { Error: served.components.schemas.Error } }, paths: {} as Record<string, Record<string, any>> };
  for (const [path, ops] of Object.entries(served.paths as Record<string, Record<string, any>>)) {
    for (const [method, op] of Object.entries(ops)) {
      if (!used.has(op.operationId)) continue;
      const responses = Object.fromEntries(Object.entries(op.responses).map(([s, r]: [string, any]) => [s, r.content ? { ...r, content: { 'application/json': { schema: { type: 'object' } } } } : r]));
      (bare.paths[path] ??= {})[method] = { ...op, requestBody: undefined, responses };
    }
  }
  const [good, control] = await Promise.all([compileClient(t, served), compileClient(t, bare)]);
  t.is(good, '', 'the client compiles against the generated types');
  t.regex(control, /client\.ts\(\d+,\d+\): error TS2339: Property 'title' does not exist on type 'never'/, 'bare object bodies do not compile: the check can fail');
});
