import { inject, injectable } from 'tsyringe';
import { badRequest, notFound } from '../errors';
import type { SignedDocumentRenderer } from '../ports/signed-documents';
import type { Storage } from '../ports/storage';
import { TOKENS } from '../tokens';
import { checkAuditChain } from './audit-chain';

/** Largest PDF the verification accepts (sealed contracts are far smaller). */
export const VERIFY_MAX_BYTES = 20 * 1024 * 1024;

/**
 * Whether a PDF is one this instance sealed and left untouched (docs/signing.md, "Verification"): the seal
 * checks out with this instance's certificate, the exact bytes are a stored document, and the session's
 * audit chain still holds.
 */
@injectable()
export class SigningVerificationService {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.SignedDocuments) private readonly renderer: SignedDocumentRenderer,
  ) {}

  /** PEM of the certificate relying parties trust for this instance's seals (docs/signing.md). */
  async trustAnchorPem(): Promise<string> {
    const pem = this.renderer.trustAnchorPem ?? (await this.renderer.trustAnchor?.());
    if (!pem) throw notFound('Seal certificate');
    return pem;
  }

  /** The instance CA's CRL (DER), which the sealing certificate names as its CRL distribution point. */
  async caCrl(): Promise<Uint8Array> {
    const crl = await this.renderer.caCrl?.();
    if (!crl) throw notFound('CA revocation list');
    return crl;
  }

  /** `body` is the PDF's bytes, or `{pdf_base64}`. */
  async verify(body: unknown) {
    const pdf = toBytes(body);
    const check = await this.renderer.verify(pdf);
    const doc = await this.storage.signing.findDocumentByHash(check.document_hash);
    const sessionId = doc?.session_id ?? (check.valid ? check.session_id : null);
    const session = sessionId ? await this.storage.signing.findSession(sessionId) : null;
    const chain = session ? checkAuditChain(await this.storage.signing.listAudit(session.id)) : null;
    const problems = [...check.problems];
    if (!check.sealed_by_this_instance) problems.push('not sealed with this instance\'s certificate');
    if (!doc) problems.push('these exact bytes are not a document this instance stored');
    if (chain && !chain.ok) problems.push(`the session's audit chain is broken at entry ${chain.broken_at! + 1}`);
    return {
      valid: check.valid && check.sealed_by_this_instance && !!doc && !!chain?.ok,
      sealed_by_this_instance: check.sealed_by_this_instance,
      signature_valid: check.valid,
      intact: check.intact,
      covers_whole_document: check.covers_whole_document,
      document_hash: check.document_hash,
      known_document: !!doc,
      session_id: session?.id ?? null,
      document_id: doc?.id ?? null,
      question_id: doc?.question_id ?? null,
      kind: doc?.kind ?? null,
      audit_chain_intact: chain ? chain.ok : null,
      signed_at: check.signed_at,
      certificate: check.certificate,
      problems,
    };
  }
}

function toBytes(body: unknown): Uint8Array {
  if (body instanceof Uint8Array) {
    if (body.length === 0) throw badRequest('Send the PDF as the request body (Content-Type: application/pdf)');
    if (!isPdf(body)) throw badRequest('The body is not a PDF (no %PDF- header)', { reason: 'not_a_pdf' });
    return body;
  }
  const b64 = (body as { pdf_base64?: unknown } | null)?.pdf_base64;
  if (typeof b64 !== 'string' || b64.length === 0) {
    throw badRequest('Send the PDF as the body (Content-Type: application/pdf) or as JSON {pdf_base64}', { field: 'pdf_base64' });
  }
  const compact = b64.replace(/\s+/g, '');
  if (!BASE64.test(compact)) throw badRequest('pdf_base64: not valid base64', { field: 'pdf_base64', reason: 'invalid_base64' });
  const bytes = Buffer.from(compact, 'base64');
  if (bytes.length > VERIFY_MAX_BYTES) throw badRequest('The PDF is too large to verify', { field: 'pdf_base64' });
  if (!isPdf(bytes)) throw badRequest('pdf_base64: not a PDF (no %PDF- header)', { field: 'pdf_base64', reason: 'not_a_pdf' });
  return new Uint8Array(bytes);
}

/** Standard base64 (RFC 4648 section 4), padding optional; whitespace is dropped before the test. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;

/** A PDF starts with `%PDF-` within its first 1,024 bytes (ISO 32000 allows leading bytes; readers look that far). */
function isPdf(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024)).includes('%PDF-');
}
