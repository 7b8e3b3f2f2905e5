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
  trustAnchorOf,
  SigningCertificateError,
  unlockP12,
  type LoadedSigningP12,
  type LoadSigningP12Options,
  type SelfSignedOptions,
  type SigningIdentity,
} from './signing-certificate';
export { checkSignature, decodeDrawnSignature, SignatureImageError, SIGNATURE_LIMITS } from './signature-check';
export { INFO_KEYS } from './layout';
export { createInstanceCa, type InstanceCa, type InstanceCaOptions } from './instance-ca';
export { createTimestampClient, TimestampError, type TimestampClient, type TimestampClientOptions } from './pades/timestamp';
export { PADES_LEVELS, type PadesLevel } from './pades/seal-pdf';
export { crlDistributionUrls, httpRevocationFetcher, RevocationError, type RevocationFetcher } from './pades/revocation';
