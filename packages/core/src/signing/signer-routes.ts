import type { Formloom } from '../instance';
import type { PluginContext } from '../plugins/plugin';
import type { HeaderParam, PluginRoute, RouteRequest } from '../plugins/routes';
import { declineSchema, signSchema, verifyPasswordSchema, verifyPdfSchema } from './schemas';
import { SignerService, type SignerMeta } from './signer-service';
import { SigningVerificationService } from './verification-service';
import { z } from 'zod';
import { emailAddress } from '../email-address';
import { accessTokenOut, codeSentOut, declinedOut, signedOut, signerContextOut, signerDocumentOut, verificationOut, verifyBodies, wrongPasswordOut } from './output-schemas';

const TAGS = ['Signing (signer)'];
const meta = (req: RouteRequest): SignerMeta => ({
  ip: req.ip,
  user_agent: req.headers['user-agent']?.slice(0, 500) ?? null,
  access_token: req.headers['x-access-token'],
});
/** What a password-protected session's links need (from verify-password); other links ignore it. */
const ACCESS: HeaderParam[] = [{ name: 'X-Access-Token', description: 'The `access_token` from verify-password; needed when the session has a password' }];
const sendCodeSchema = z.object({ email: emailAddress().optional() }).strict();

/** Public endpoints by short code: no key; a password-protected session needs `X-Access-Token`. */
export function signerRoutes(ctx: PluginContext): PluginRoute<Formloom>[] {
  const svc = () => ctx.service(SignerService);
  return [
    {
      method: 'get', path: '/s/:shortCode', operationId: 'getSignerContext', scope: 'public', tags: TAGS, summary: 'The signing link\'s context',
      success: { status: 200, description: 'The session and slot of the link', schema: signerContextOut }, errors: [404],
      handler: async (req) => ({ body: await svc().context(req.params.shortCode) }),
    },
    {
      method: 'post', path: '/s/:shortCode/verify-password', operationId: 'verifySignerPassword', scope: 'public', tags: TAGS, summary: 'Exchange the password for an access token',
      body: verifyPasswordSchema, success: { status: 200, description: 'The access token', schema: accessTokenOut }, errors: [400, 401, 404, 429],
      errorBodies: { 401: wrongPasswordOut },
      handler: async (req) => svc().verifyPassword(req.params.shortCode, req.body),
    },
    {
      method: 'get', path: '/s/:shortCode/document', operationId: 'getSignerDocument', headers: ACCESS, scope: 'public', tags: TAGS, summary: 'The contracts to read (records the view)',
      success: { status: 200, description: 'The contracts and signers', schema: signerDocumentOut }, errors: [401, 404, 409],
      handler: async (req) => ({ body: await svc().document(req.params.shortCode, meta(req)) }),
    },
    {
      method: 'post', path: '/s/:shortCode/send-code', operationId: 'sendSignerCode', headers: ACCESS, scope: 'public', tags: TAGS, summary: 'Email a 6-digit verification code',
      body: sendCodeSchema, success: { status: 200, description: 'Where the code was sent', schema: codeSentOut }, errors: [400, 401, 404, 409, 429],
      handler: async (req) => ({ body: await svc().sendCode(req.params.shortCode, meta(req), (req.body as { email?: string } | undefined)?.email) }),
    },
    {
      method: 'post', path: '/s/:shortCode/sign', operationId: 'sign', headers: ACCESS, scope: 'public', tags: TAGS, summary: 'Sign', body: signSchema,
      success: { status: 200, description: 'The signature landed', schema: signedOut }, errors: [400, 401, 404, 409, 429],
      handler: async (req) => ({ body: await svc().sign(req.params.shortCode, req.body, meta(req)) }),
    },
    {
      method: 'post', path: '/s/:shortCode/decline', operationId: 'declineToSign', headers: ACCESS, scope: 'public', tags: TAGS, summary: 'Decline to sign', body: declineSchema,
      success: { status: 200, description: 'The session is declined', schema: declinedOut }, errors: [400, 401, 404, 409],
      handler: async (req) => ({ body: await svc().decline(req.params.shortCode, req.body, meta(req)) }),
    },
    {
      method: 'get', path: '/s/:shortCode/signed-documents/:docId', operationId: 'downloadSignerCopy', headers: ACCESS, scope: 'public', tags: TAGS, summary: 'The signer\'s sealed copy (PDF); 403 when `copy_mode` is `disabled`',
      success: { status: 200, description: 'The sealed PDF', media: ['application/pdf'] }, errors: [401, 403, 404],
      handler: async (req) => {
        const doc = await svc().signedDocument(req.params.shortCode, req.params.docId, meta(req));
        return { contentType: 'application/pdf', stream: [doc.pdf], attachment: `${doc.question_id}-${doc.id}.pdf` };
      },
    },
    {
      method: 'post', path: '/signing/verify', operationId: 'verifySignedPdf', scope: 'public', tags: ['Signing sessions'], accepts: verifyBodies,
      success: { status: 200, description: 'What verification found', schema: verificationOut },
      summary: 'Verify a signed PDF (body: the PDF as application/pdf, or JSON {pdf_base64})', errors: [400, 413],
      handler: async (req) => ({ body: await ctx.service(SigningVerificationService).verify(req.body) }),
    },
    {
      method: 'get', path: '/signing/certificate', operationId: 'getSealCertificate', scope: 'public', tags: ['Signing sessions'],
      summary: 'The certificate to trust for this instance\'s seals (PEM): the instance CA, or the root of the operator\'s chain',
      success: { status: 200, description: 'The CA certificate, PEM', media: ['application/x-pem-file'] }, errors: [404],
      handler: async () => {
        const pem = await ctx.service(SigningVerificationService).trustAnchorPem();
        return { contentType: 'application/x-pem-file', stream: [pem] };
      },
    },
    {
      method: 'get', path: '/signing/ca.crl', operationId: 'getSealCaCrl', scope: 'public', tags: ['Signing sessions'],
      summary: 'The instance CA\'s certificate revocation list (DER), the CRL distribution point its sealing certificate names',
      success: { status: 200, description: 'The CRL, DER', media: ['application/pkix-crl'] }, errors: [404],
      handler: async () => {
        const crl = await ctx.service(SigningVerificationService).caCrl();
        return { contentType: 'application/pkix-crl', stream: [crl] };
      },
    },
  ];
}
