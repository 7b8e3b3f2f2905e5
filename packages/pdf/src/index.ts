/**
 * @formloom/pdf: renders, seals and verifies the signed-contract PDFs of signing sessions, implementing the
 * core's `SignedDocumentRenderer` port. See README.md and docs/signing.md. Importing has no side effects.
 */
export { createPdfDocumentRenderer, DocumentInputError, type PdfRendererOptions } from './renderer';
export { verifyPdf } from './verify';
export { documentHash, SealError } from './seal';
export {
  createSelfSignedP12,
  loadOrCreateSigningP12,
  SigningCertificateError,
  unlockP12,
  type LoadedSigningP12,
  type LoadSigningP12Options,
  type SelfSignedOptions,
  type SigningIdentity,
} from './signing-certificate';
export { checkSignature, decodeDrawnSignature, SignatureImageError, SIGNATURE_LIMITS } from './signature-check';
export { INFO_KEYS } from './layout';
