import type { Formloom } from '../instance';
import type { PluginContext } from '../plugins/plugin';
import type { PluginRoute, RouteRequest } from '../plugins/routes';
import { unauthorized } from '../errors';
import { createSessionSchema, listSessionsQuery, voidSessionSchema } from './schemas';
import { resentOut, signedDocumentListOut, signingAuditOut, signingSessionListOut, signingSessionOut, voidedSessionOut } from './output-schemas';
import { SigningSessionService } from './session-service';

const principalOf = (req: RouteRequest) => {
  if (!req.principal) throw unauthorized();
  return req.principal;
};

const TAGS = ['Signing sessions'];

/** The team's endpoints (API key, `forms` scope). The signer's public endpoints are in signer-routes.ts. */
export function sessionRoutes(ctx: PluginContext): PluginRoute<Formloom>[] {
  const svc = () => ctx.service(SigningSessionService);
  return [
    {
      method: 'post', path: '/forms/:id/signing-sessions', operationId: 'createSigningSession', scope: 'forms', tags: TAGS, summary: 'Create a signing session',
      body: createSessionSchema, success: { status: 201, description: 'The session with its signer links', schema: signingSessionOut }, errors: [400, 401, 403, 404],
      handler: async (req) => ({ status: 201, body: await svc().create(principalOf(req), req.params.id, req.body) }),
    },
    {
      method: 'get', path: '/forms/:id/signing-sessions', operationId: 'listSigningSessions', scope: 'forms', tags: TAGS, summary: 'List signing sessions',
      query: listSessionsQuery, success: { status: 200, description: 'A page of sessions, newest first', schema: signingSessionListOut }, errors: [400, 401, 403, 404],
      handler: async (req) => ({ body: await svc().list(principalOf(req), req.params.id, req.query) }),
    },
    {
      method: 'get', path: '/signing-sessions/:sessionId', operationId: 'getSigningSession', scope: 'forms', tags: TAGS, summary: 'Get a signing session',
      success: { status: 200, description: 'The session with its signer links', schema: signingSessionOut }, errors: [401, 403, 404],
      handler: async (req) => ({ body: await svc().get(principalOf(req), req.params.sessionId) }),
    },
    {
      method: 'post', path: '/signing-sessions/:sessionId/void', operationId: 'voidSigningSession', scope: 'forms', tags: TAGS, summary: 'Void a signing session',
      body: voidSessionSchema, success: { status: 200, description: 'The voided session', schema: voidedSessionOut }, errors: [400, 401, 403, 404, 409],
      handler: async (req) => ({ body: await svc().void(principalOf(req), req.params.sessionId, req.body) }),
    },
    {
      method: 'post', path: '/signing-sessions/:sessionId/resend/:slotNumber', operationId: 'resendSigningRequest', scope: 'forms', tags: TAGS, summary: 'Resend a signing request',
      success: { status: 200, description: 'Where the request was sent', schema: resentOut }, errors: [400, 401, 403, 404, 409],
      handler: async (req) => ({ body: await svc().resend(principalOf(req), req.params.sessionId, req.params.slotNumber) }),
    },
    {
      method: 'get', path: '/signing-sessions/:sessionId/documents', operationId: 'listSignedDocuments', scope: 'forms', tags: TAGS, summary: 'List signed documents',
      success: { status: 200, description: 'The sealed documents of the session', schema: signedDocumentListOut }, errors: [401, 403, 404],
      handler: async (req) => ({ body: await svc().documents(principalOf(req), req.params.sessionId, req.baseUrl) }),
    },
    {
      method: 'get', path: '/signing-sessions/:sessionId/documents/:docId', operationId: 'downloadSignedDocument', scope: 'forms', tags: TAGS, summary: 'Download a signed document (PDF)',
      success: { status: 200, description: 'The sealed PDF, byte for byte', media: ['application/pdf'] }, errors: [401, 403, 404],
      handler: async (req) => {
        const doc = await svc().document(principalOf(req), req.params.sessionId, req.params.docId);
        return { contentType: 'application/pdf', stream: [doc.pdf], attachment: `${doc.question_id}-${doc.id}.pdf`, headers: { 'x-document-hash': doc.document_hash } };
      },
    },
    {
      method: 'get', path: '/signing-sessions/:sessionId/audit', operationId: 'getSigningAuditTrail', scope: 'forms', tags: TAGS, summary: 'The audit trail of a session',
      success: { status: 200, description: 'The hash-chained entries, oldest first', schema: signingAuditOut }, errors: [401, 403, 404],
      handler: async (req) => ({ body: await svc().audit(principalOf(req), req.params.sessionId) }),
    },
  ];
}
