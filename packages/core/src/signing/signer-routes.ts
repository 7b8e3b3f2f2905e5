import type { Formloom } from '../instance';
import type { PluginContext } from '../plugins/plugin';
import type { PluginRoute, RouteRequest } from '../plugins/routes';
import { declineSchema, signSchema, verifyPasswordSchema, verifyPdfSchema } from './schemas';
import { SignerService, type SignerMeta } from './signer-service';
import { SigningVerificationService } from './verification-service';
import { z } from 'zod';

const TAGS = ['Signing (signer)'];
const meta = (req: RouteRequest): SignerMeta => ({
  ip: req.ip,
  user_agent: req.headers['user-agent']?.slice(0, 500) ?? null,
  access_token: req.headers['x-access-token'],
});
const sendCodeSchema = z.object({ email: z.email().max(320).optional() }).strict();

/** Public endpoints by short code: no key; a password-protected session needs `X-Access-Token`. */
export function signerRoutes(ctx: PluginContext): PluginRoute<Formloom>[] {
  const svc = () => ctx.service(SignerService);
  return [
    {
      method: 'get', path: '/s/:shortCode', scope: 'public', tags: TAGS, summary: 'The signing link\'s context', operationId: 'getSigningLink',
      success: { status: 200, description: 'The slot, the session status, what the link needs and whether it is its turn' }, errors: [404],
      handler: async (req) => ({ body: await svc().context(req.params.shortCode) }),
    },
    {
      method: 'post', path: '/s/:shortCode/verify-password', scope: 'public', tags: TAGS, summary: 'Exchange the password for an access token', operationId: 'verifySigningPassword',
      success: { status: 200, description: '{success, access_token} (send it as X-Access-Token for one hour)' },
      body: verifyPasswordSchema, errors: [400, 401, 404, 429], plainErrors: [401],
      handler: async (req) => svc().verifyPassword(req.params.shortCode, req.body),
    },
    {
      method: 'get', path: '/s/:shortCode/document', scope: 'public', tags: TAGS, summary: 'The contracts to read (records the view)', operationId: 'getSigningDocument',
      success: { status: 200, description: '{session_id, slot_number, contracts[], signers[]}' }, errors: [401, 404],
      handler: async (req) => ({ body: await svc().document(req.params.shortCode, meta(req)) }),
    },
    {
      method: 'post', path: '/s/:shortCode/send-code', scope: 'public', tags: TAGS, summary: 'Email a 6-digit verification code', operationId: 'sendSigningCode',
      success: { status: 200, description: '{success, sent_to}' }, body: sendCodeSchema, errors: [400, 401, 404, 409, 429],
      handler: async (req) => ({ body: await svc().sendCode(req.params.shortCode, meta(req), (req.body as { email?: string } | undefined)?.email) }),
    },
    {
      method: 'post', path: '/s/:shortCode/sign', scope: 'public', tags: TAGS, summary: 'Sign', operationId: 'signSigningLink', body: signSchema, errors: [400, 401, 404, 409, 429],
      success: { status: 200, description: '{slot_number, status: "signed", session_status}' },
      handler: async (req) => ({ body: await svc().sign(req.params.shortCode, req.body, meta(req)) }),
    },
    {
      method: 'post', path: '/s/:shortCode/decline', scope: 'public', tags: TAGS, summary: 'Decline to sign', operationId: 'declineSigningLink', body: declineSchema, errors: [400, 401, 404, 409],
      success: { status: 200, description: '{slot_number, status: "declined", session_status: "declined"}' },
      handler: async (req) => ({ body: await svc().decline(req.params.shortCode, req.body, meta(req)) }),
    },
    {
      method: 'get', path: '/s/:shortCode/signed-documents/:docId', scope: 'public', tags: TAGS, summary: 'The signer\'s sealed copy (PDF); 403 when `copy_mode` is `disabled`', operationId: 'downloadSignerCopy', errors: [401, 403, 404],
      success: { status: 200, description: 'The sealed PDF, byte for byte', contentType: 'application/pdf' },
      handler: async (req) => {
        const doc = await svc().signedDocument(req.params.shortCode, req.params.docId, meta(req));
        return { contentType: 'application/pdf', stream: [doc.pdf], attachment: `${doc.question_id}-${doc.id}.pdf` };
      },
    },
    {
      method: 'post', path: '/signing/verify', scope: 'public', tags: ['Signing sessions'],
      summary: 'Verify a signed PDF (body: the PDF as application/pdf, or JSON {pdf_base64})', operationId: 'verifySignedPdf', errors: [400, 413],
      success: { status: 200, description: '{valid, sealed_by_this_instance, known_document, session_id, document_id, audit_chain_intact, problems[], ...}' },
      accepts: [{ contentType: 'application/pdf' }, { contentType: 'application/json', schema: verifyPdfSchema }],
      handler: async (req) => ({ body: await ctx.service(SigningVerificationService).verify(req.body) }),
    },
  ];
}
