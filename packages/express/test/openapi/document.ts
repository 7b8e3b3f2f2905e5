import type { ExecutionContext } from 'ava';
import test from '../helpers/bounded-test';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import express from 'express';
import type { AddressInfo } from 'node:net';
import SwaggerParser from '@apidevtools/swagger-parser';
import { formOut, uploadOut } from '@formloom/core';
import { createFormloomRouter } from '../../src';
import { startTestApp, type TestApp } from '../helpers/app';
import { assertMatches } from '../helpers/schema-check';
import { BUILT_IN_COMPONENTS } from '../../src/openapi-parts';

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

test.serial('the list of built-in component names the mount checks plugins against is the served document\'s', (t) => {
  // A name missing from BUILT_IN_COMPONENTS would let a plugin's clashing component through the mount (plugins/contracts.ts).
  t.deepEqual([...BUILT_IN_COMPONENTS].sort(), Object.keys(doc.components.schemas).sort());
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
    // A 204 has no body, so no content (issue 34): anything else documents one.
    const content = Object.entries((success.content ?? {}) as Record<string, { schema: Record<string, unknown> }>);
    t.is(content.length > 0, status !== '204', `${where} ${status}`);
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
  t.deepEqual(Object.keys(doc.paths['/forms/{id}/responses/export'].get.responses['200'].content), [
    'application/json',
    'text/csv',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ]);
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
  // The voice API of docs/voice.md: both generation bodies documented, the library's paging, 503 WARMING_UP, meta.rate_card.
  const streamBody = doc.paths['/voice/stream'].post.requestBody.content['application/json'].schema;
  t.deepEqual(streamBody.required.sort(), ['text', 'voice']);
  t.deepEqual(streamBody.properties.format.enum, ['mp3', 'pcm_24k', 'mulaw_8k', 'ulaw_8000']);
  // One variant per mode: speak needs text and voice; a script lines or script; a retake only its own fields.
  const voiceBody = doc.paths['/voice'].post.requestBody.content['application/json'].schema.anyOf as any[];
  for (const v of voiceBody) if (v.properties.format) t.deepEqual(v.properties.format.enum, ['mp3', 'wav', 'ogg_opus', 'mulaw_8k']);
  t.true(voiceBody.some((v) => v.properties.mode.const === 'speak' && ['text', 'voice'].every((k) => v.required.includes(k))));
  t.true(voiceBody.some((v) => v.properties.mode.const === 'script' && v.required.includes('lines') && !('text' in v.properties)));
  t.deepEqual(doc.paths['/voice/generations'].get.parameters.map((p: { name: string }) => p.name).sort(), ['page', 'per_page', 'search']);
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

test.serial('the document says exactly what the server takes: per-type unions, enums, bounds, formats, headers, 206, 413 only with a body', (t) => {
  const s = doc.components.schemas;
  const create = doc.paths['/forms'].post.requestBody.content['application/json'].schema;
  // Question properties per type, from the schemas that check them; a group needs its questions.
  const variants = create.properties.questions.items.oneOf as any[];
  const byType = (type: string) => variants.find((v) => v.properties.type.const === type);
  t.deepEqual(byType('multiple_choice').properties.properties.properties.choices.minItems, 1);
  t.true(byType('question_group').required.includes('properties'));
  t.false(byType('short_text').required.includes('properties'));
  t.deepEqual(byType('contract').properties.properties.properties.signer_slots.items.properties.slot_number, { type: 'integer', minimum: 1, maximum: 20 });
  // Blank refused: minLength 1; URLs as URIs; logic jumps with their item schema.
  t.is(create.properties.title.minLength, 1);
  t.deepEqual(create.properties.redirect_url.anyOf[0].format, 'uri');
  // A rule jumps (`to`, with or without actions) or only runs its actions: one variant each.
  const jumpVariants = (create.properties.start_logic_jumps.anyOf[0].items.anyOf ?? create.properties.start_logic_jumps.anyOf[0].items.oneOf) as any[];
  t.deepEqual(jumpVariants.map((v) => v.required.filter((k: string) => k === 'to' || k === 'actions')), [['to'], ['actions']]);
  // Answers: value by type; the invitation just created always carries its token and link.
  t.true((s.AnswerValue.anyOf as any[]).some((v) => v.type === 'boolean' && /yes_no/.test(v.description)));
  const created = doc.paths['/teams/{teamId}/invitations'].post.responses['201'].content['application/json'].schema;
  t.deepEqual(created, { $ref: '#/components/schemas/CreatedInvitation' });
  t.true(['token', 'invite_url'].every((k) => s.CreatedInvitation.required.includes(k)));
  t.false(s.Invitation.required.includes('token'));
  // Enums.
  t.true(s.Error.properties.error.properties.code.enum.includes('RANGE_NOT_SATISFIABLE'));
  t.true(s.AuditEvent.properties.action.enum.includes('member.invited'));
  t.true(s.SigningAuditEntry.properties.action.enum.includes('document_sealed'));
  t.deepEqual(s.WebhookDelivery.properties.event.enum, ['response.submitted', 'response.deleted', 'booking.call_completed', 'webhook.test']);
  t.deepEqual(JSON.stringify(s.Response).match(/"form_mode":\{[^}]*\}/)?.[0], '"form_mode":{"type":"string","enum":["knowledge_quiz","lead_qualification","match_quiz"]}');
  // since/until as date-time (or a whole day); speed bounds; script line and cast items.
  for (const op of [doc.paths['/forms/{id}/responses'].get, doc.paths['/teams/{teamId}/audit-logs'].get]) {
    const since = op.parameters.find((p: any) => p.name === 'since');
    t.deepEqual(since.schema.anyOf.map((a: any) => a.format), ['date-time', 'date']);
  }
  const speak = (doc.paths['/voice'].post.requestBody.content['application/json'].schema.anyOf as any[]).find((v) => v.properties.mode.const === 'speak');
  t.like(speak.properties.speed, { minimum: 0.85, maximum: 1.15 });
  const script = (doc.paths['/voice'].post.requestBody.content['application/json'].schema.anyOf as any[]).find((v) => v.properties.lines);
  t.is(script.properties.lines.items.anyOf.length, 2);
  t.deepEqual(script.properties.cast.items.required, ['speaker', 'voice']);
  // Headers the server reads are parameters.
  const header = (path: string, method: string, name: string) => doc.paths[path][method].parameters.find((p: any) => p.in === 'header' && p.name === name);
  t.like(header('/public/forms/{slug}/responses/{responseId}', 'patch', 'X-Resume-Token'), { required: true });
  t.truthy(header('/s/{shortCode}/sign', 'post', 'X-Access-Token'));
  t.like(header('/voice', 'post', 'Idempotency-Key'), { schema: { maxLength: 255 } });
  // Ranged downloads answer 206; 413 only where a body is read.
  t.truthy(doc.paths['/public/uploads/{formId}/{token}/{name}'].get.responses['206'].headers['Content-Range']);
  t.falsy(doc.paths['/forms/{id}'].get.responses['413']);
  t.falsy(doc.paths['/forms/{id}'].delete.responses['413']);
  t.truthy(doc.paths['/forms/{id}'].put.responses['413']);
});

test.serial('a route that reads no body ignores one: no 413 and no JSON parse error there', async (t) => {
  const user = await app.user();
  const huge = JSON.stringify({ x: 'y'.repeat(2_000_000) });
  const del = await fetch(`${app.url}/api/v1/forms/frm_nope`, { method: 'DELETE', headers: { authorization: `Bearer ${user.key}`, 'content-type': 'application/json' }, body: '{not json' });
  t.is(del.status, 404);
  const big = await fetch(`${app.url}/api/v1/forms/frm_nope/publish`, { method: 'POST', headers: { authorization: `Bearer ${user.key}`, 'content-type': 'application/json' }, body: huge });
  t.is(big.status, 404);
  // Where a body is read, the limit holds.
  const put = await fetch(`${app.url}/api/v1/forms/frm_nope`, { method: 'PUT', headers: { authorization: `Bearer ${user.key}`, 'content-type': 'application/json' }, body: huge });
  t.is(put.status, 413);
  t.is(((await put.json()) as any).error.code, 'PAYLOAD_TOO_LARGE');
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
  const tsc = join(dirname(require.resolve('typescript/package.json', { paths: [resolve(__dirname, '../../../../..')] })), 'bin', 'tsc');
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

test.serial('204 answers have no content; the upload\'s question_id is required; a submission answers one of two shapes', async (t) => {
  // The sign-in endpoints (a router with `sessions`) answer the 204s: sign-out, its "everywhere", revoking a
  // session, removing a passkey, and the account's session; so do the instance admin's key revocation and
  // the outbox's retry and drop.
  const host = express();
  host.use('/api/v1', createFormloomRouter({ formloom: app.formloom, sessions: { signup: 'closed' } }));
  const server = host.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  const withSessions = (await (await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/openapi.json`)).json()) as any;
  await t.notThrowsAsync(SwaggerParser.validate(structuredClone(withSessions)));
  const noContent = Object.entries(withSessions.paths as Record<string, Record<string, any>>).flatMap(([path, ops]) =>
    Object.entries(ops).filter(([, op]) => op.responses?.['204']).map(([method, op]) => ({ where: `${method.toUpperCase()} ${path}`, op })),
  );
  t.is(noContent.length, 8, noContent.map((x) => x.where).join(', '));
  for (const { where, op } of noContent) t.false('content' in op.responses['204'], where);
  const questionId = doc.paths['/public/forms/{slug}/uploads'].post.parameters.find((p: any) => p.name === 'question_id');
  t.like(questionId, { in: 'query', required: true });
  // SubmittedResponse: completed (a timestamp, no resume_token) or partial (completed_at null, resume_token required).
  const submitted = doc.components.schemas.SubmittedResponse;
  const shapes = (submitted.anyOf ?? submitted.oneOf) as any[];
  t.is(shapes.length, 2);
  const partial = shapes.find((x) => x.properties.resume_token);
  const completed = shapes.find((x) => !x.properties.resume_token);
  t.true(partial.required.includes('resume_token') && partial.required.includes('completed_at'));
  t.deepEqual(partial.properties.completed_at, { type: 'null' });
  t.is(completed.properties.completed_at.type, 'string');
  t.deepEqual(doc.paths['/public/forms/{slug}/responses'].post.responses['201'].content['application/json'].schema, { $ref: '#/components/schemas/SubmittedResponse' });
  // Continuing a response answers it without a token.
  const patched = doc.paths['/public/forms/{slug}/responses/{responseId}'].patch.responses['200'].content['application/json'].schema;
  t.deepEqual(patched, { $ref: '#/components/schemas/RespondentResponse' });
  t.is(doc.components.schemas.RespondentResponse.properties.resume_token, undefined);
});

test.serial('what a submission answers matches the document: a token for a partial response, none for a completed one', async (t) => {
  const u = await app.user();
  const form = (await app.api('POST', '/forms', { key: u.key, body: { title: 'Two shapes', published: true, incremental_submission: true, questions: [{ type: 'short_text', title: 'Name' }] } })).body;
  const answers = [{ question_id: form.questions[0].id, value: 'Ada' }];
  const completed = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers } });
  t.is(completed.status, 201);
  t.false('resume_token' in completed.body);
  const partial = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers, completed: false } });
  t.is(partial.status, 201);
  t.is(partial.body.completed_at, null);
  t.is(typeof partial.body.resume_token, 'string');
  // app.api held both answers to the route's schema (helpers/schema-check.ts).
  t.true(app.checked.has('submitResponse'), [...app.checked].join(', '));
  const missing = await fetch(`${app.url}/api/v1/public/forms/${form.slug}/uploads`, { method: 'POST', body: new FormData() });
  t.is(missing.status, 400, 'the server refuses an upload without question_id, as the document says');
});
