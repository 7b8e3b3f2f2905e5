import test from '../helpers/bounded-test';
import { startTestApp } from '../helpers/app';
import { lazyRenderer } from '../helpers/signing';

/** Every signing endpoint in GET /api/v1/openapi.json (docs/signing.md, "Endpoints"). */

interface Expected {
  method: string;
  path: string;
  operationId: string;
  success: number;
  /** Media types of the request body, when it has one. */
  body?: string[];
  /** The success answer's media type when not JSON. */
  file?: string;
  errors: number[];
  key: boolean;
}

const team = (method: string, path: string, operationId: string, success: number, errors: number[], extra: Partial<Expected> = {}): Expected => ({
  method, path, operationId, success, errors, key: true, ...extra,
});
const signer = (method: string, path: string, operationId: string, errors: number[], extra: Partial<Expected> = {}): Expected => ({
  method, path, operationId, success: 200, errors, key: false, ...extra,
});
const JSON_BODY = { body: ['application/json'] };

const EXPECTED: Expected[] = [
  team('post', '/forms/{id}/signing-sessions', 'createSigningSession', 201, [400, 401, 403, 404], JSON_BODY),
  team('get', '/forms/{id}/signing-sessions', 'listSigningSessions', 200, [400, 401, 403, 404]),
  team('get', '/signing-sessions/{sessionId}', 'getSigningSession', 200, [401, 403, 404]),
  team('post', '/signing-sessions/{sessionId}/void', 'voidSigningSession', 200, [400, 401, 403, 404, 409], JSON_BODY),
  team('post', '/signing-sessions/{sessionId}/resend/{slotNumber}', 'resendSigningRequest', 200, [400, 401, 403, 404, 409]),
  team('get', '/signing-sessions/{sessionId}/documents', 'listSignedDocuments', 200, [401, 403, 404]),
  team('get', '/signing-sessions/{sessionId}/documents/{docId}', 'downloadSignedDocument', 200, [401, 403, 404], { file: 'application/pdf' }),
  team('get', '/signing-sessions/{sessionId}/audit', 'getSigningAuditTrail', 200, [401, 403, 404]),
  signer('get', '/s/{shortCode}', 'getSignerContext', [404]),
  signer('post', '/s/{shortCode}/verify-password', 'verifySignerPassword', [400, 401, 404, 429], JSON_BODY),
  signer('get', '/s/{shortCode}/document', 'getSignerDocument', [401, 404, 409]),
  signer('post', '/s/{shortCode}/send-code', 'sendSignerCode', [400, 401, 404, 409, 429], JSON_BODY),
  signer('post', '/s/{shortCode}/sign', 'sign', [400, 401, 404, 409, 429], JSON_BODY),
  signer('post', '/s/{shortCode}/decline', 'declineToSign', [400, 401, 404, 409], JSON_BODY),
  signer('get', '/s/{shortCode}/signed-documents/{docId}', 'downloadSignerCopy', [401, 403, 404], { file: 'application/pdf' }),
  signer('post', '/signing/verify', 'verifySignedPdf', [400, 413], { body: ['application/pdf', 'application/json'] }),
  signer('get', '/signing/certificate', 'getSealCertificate', [404], { file: 'application/x-pem-file' }),
  signer('get', '/signing/ca.crl', 'getSealCaCrl', [404], { file: 'application/pkix-crl' }),
];

const isSigningPath = (p: string) => /^\/(signing-sessions|s|signing)\/|\/signing-sessions$/.test(p);

test('openapi.json documents every signing endpoint with its operationId, tags, request body and responses', async (t) => {
  const app = await startTestApp('sqlite', { signedDocuments: lazyRenderer() });
  t.teardown(() => app.close());
  const doc = (await app.api('GET', '/openapi.json')).body;

  const listed = Object.entries(doc.paths as Record<string, Record<string, any>>)
    .filter(([p]) => isSigningPath(p))
    .flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`))
    .sort();
  t.deepEqual(listed, EXPECTED.map((e) => `${e.method} ${e.path}`).sort(), 'exactly the signing endpoints');

  for (const e of EXPECTED) {
    const op = doc.paths[e.path][e.method];
    const where = `${e.method} ${e.path}`;
    t.is(op.operationId, e.operationId, where);
    t.true(op.tags.length > 0 && op.tags.every((tag: string) => tag.startsWith('Signing')), where);
    t.true(typeof op.summary === 'string' && op.summary.length > 0, where);
    t.deepEqual(op.security, e.key ? [{ apiKey: [] }] : [], `${where}: ${e.key ? 'an API key' : 'public'}`);
    t.deepEqual(Object.keys(op.requestBody?.content ?? {}), e.body ?? [], `${where}: request body`);
    const success = op.responses[e.success];
    t.truthy(success?.description, `${where}: ${e.success} documented`);
    t.deepEqual(Object.keys(success.content), [e.file ?? 'application/json'], where);
    if (e.file) t.like(success.content[e.file].schema, { type: 'string', format: 'binary' });
    // The shipped rate limits (on here) add 429 to every route; every route documents 400 and 500, and 413
    // when it reads a body.
    const errors = [...new Set([...e.errors, 400, 429, 500, ...(e.body ? [413] : [])])].sort((a, b) => a - b);
    t.deepEqual(Object.keys(op.responses).map(Number).filter((s) => s >= 400).sort((a, b) => a - b), errors, `${where}: errors`);
    const pathParams = [...e.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    t.deepEqual(op.parameters.filter((p: any) => p.in === 'path').map((p: any) => p.name), pathParams, where);
  }

  const body = (path: string, method = 'post', type = 'application/json') => doc.paths[path][method].requestBody.content[type].schema;
  t.deepEqual(body('/s/{shortCode}/sign').required, ['signature']);
  // A signature by its type: typed (a name) or drawn (a PNG data URL).
  t.deepEqual(body('/s/{shortCode}/sign').properties.signature.oneOf.map((v: any) => v.properties.type.const), ['typed', 'drawn']);
  t.deepEqual(body('/signing-sessions/{sessionId}/void').required, ['reason']);
  t.deepEqual(body('/signing/verify').required, ['pdf_base64']);
  t.like(doc.paths['/signing/verify'].post.requestBody.content['application/pdf'].schema, { type: 'string', format: 'binary' });
  const create = body('/forms/{id}/signing-sessions');
  for (const field of ['signers', 'signing_order', 'expiry_days', 'password', 'copy_mode', 'notify_emails', 'notify_events', 'send_signing_emails', 'custom_email_body']) {
    t.truthy(create.properties[field], field);
  }
  t.deepEqual(create.properties.notify_events.items.enum, ['each_signature', 'all_complete', 'decline', 'expiry']);
  const listParams = doc.paths['/forms/{id}/signing-sessions'].get.parameters.filter((p: any) => p.in === 'query');
  t.deepEqual(listParams.map((p: any) => p.name), ['status', 'page', 'per_page']);
  t.deepEqual(listParams[0].schema.enum, ['active', 'fully_signed', 'declined', 'voided', 'expired']);
  t.like(listParams[1].schema, { type: 'integer', minimum: 1 });
  t.like(listParams[2].schema, { type: 'integer', minimum: 1, maximum: 100 });
  t.regex(listParams[2].description, /default 20/);
  // A wrong password answers the plain {error: "..."} shape (docs/signing.md).
  const wrongPassword = doc.paths['/s/{shortCode}/verify-password'].post.responses[401].content['application/json'].schema;
  t.true(JSON.stringify(wrongPassword).includes('{"error":{"type":"string"}}'), 'the plain error shape is documented');

  const ids = Object.values(doc.paths as Record<string, Record<string, any>>).flatMap((ops) => Object.values(ops).map((o) => o.operationId));
  t.is(new Set(ids).size, ids.length, 'operationIds are unique across the document');
});
