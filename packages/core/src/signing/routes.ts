import type { Formloom } from '../instance';
import type { PluginContext } from '../plugins/plugin';
import type { PluginRoute, RouteRequest } from '../plugins/routes';
import { unauthorized } from '../errors';
import { createSessionSchema, listSessionsQuery, voidSessionSchema } from './schemas';
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
      method: 'post', path: '/forms/:id/signing-sessions', scope: 'forms', tags: TAGS, summary: 'Create a signing session', operationId: 'createSigningSession',
      body: createSessionSchema, success: { status: 201, description: 'The session with its signer links' }, errors: [400, 401, 403, 404],
      handler: async (req) => ({ status: 201, body: await svc().create(principalOf(req), req.params.id, req.body) }),
    },
    {
      method: 'get', path: '/forms/:id/signing-sessions', scope: 'forms', tags: TAGS, summary: 'List signing sessions', operationId: 'listSigningSessions',
      success: { status: 200, description: '{sessions[], total, page, per_page}' }, query: listSessionsQuery, errors: [400, 401, 403, 404],
      handler: async (req) => ({ body: await svc().list(principalOf(req), req.params.id, req.query) }),
    },
    {
      method: 'get', path: '/signing-sessions/:sessionId', scope: 'forms', tags: TAGS, summary: 'Get a signing session', operationId: 'getSigningSession',
      success: { status: 200, description: 'The session with each link\'s status and times' }, errors: [401, 403, 404],
      handler: async (req) => ({ body: await svc().get(principalOf(req), req.params.sessionId) }),
    },
    {
      method: 'post', path: '/signing-sessions/:sessionId/void', scope: 'forms', tags: TAGS, summary: 'Void a signing session', operationId: 'voidSigningSession',
      success: { status: 200, description: '{id, status: "voided", voided_at, void_reason}' }, body: voidSessionSchema, errors: [400, 401, 403, 404, 409],
      handler: async (req) => ({ body: await svc().void(principalOf(req), req.params.sessionId, req.body) }),
    },
    {
      method: 'post', path: '/signing-sessions/:sessionId/resend/:slotNumber', scope: 'forms', tags: TAGS, summary: 'Resend a signing request', operationId: 'resendSigningRequest',
      success: { status: 200, description: '{success, sent_to, slot_number}' }, errors: [400, 401, 403, 404, 409],
      handler: async (req) => ({ body: await svc().resend(principalOf(req), req.params.sessionId, req.params.slotNumber) }),
    },
    {
      method: 'get', path: '/signing-sessions/:sessionId/documents', scope: 'forms', tags: TAGS, summary: 'List signed documents', operationId: 'listSignedDocuments',
      success: { status: 200, description: '{documents[]}: the sealed PDFs (the VOIDED ones of a voided session)' }, errors: [401, 403, 404],
      handler: async (req) => ({ body: await svc().documents(principalOf(req), req.params.sessionId, req.baseUrl) }),
    },
    {
      method: 'get', path: '/signing-sessions/:sessionId/documents/:docId', scope: 'forms', tags: TAGS, summary: 'Download a signed document (PDF)', operationId: 'downloadSignedDocument',
      success: { status: 200, description: 'The sealed PDF, byte for byte', contentType: 'application/pdf' }, errors: [401, 403, 404],
      handler: async (req) => {
        const doc = await svc().document(principalOf(req), req.params.sessionId, req.params.docId);
        return { contentType: 'application/pdf', stream: [doc.pdf], attachment: `${doc.question_id}-${doc.id}.pdf`, headers: { 'x-document-hash': doc.document_hash } };
      },
    },
    {
      method: 'get', path: '/signing-sessions/:sessionId/audit', scope: 'forms', tags: TAGS, summary: 'The audit trail of a session', operationId: 'getSigningAudit',
      success: { status: 200, description: '{entries[]} in order, each with hash and prev_hash' }, errors: [401, 403, 404],
      handler: async (req) => ({ body: await svc().audit(principalOf(req), req.params.sessionId) }),
    },
  ];
}
