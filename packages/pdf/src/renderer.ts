import type {
  RenderedDocument,
  SealedDocument,
  SignatureInput,
  SignedDocumentInput,
  SignedDocumentRenderer,
  SignedDocumentVerification,
  VoidedDocumentInput,
} from '@formloom/core';
import { drawCertificatePage } from './certificate-page';
import { drawContractPages } from './contract-pages';
import { type DocumentFonts, loadDocumentFonts, unsupportedCharacters } from './fonts';
import { type DocumentMeta, finishPages, openDocument } from './layout';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import forge from 'node-forge';
import { addSealPlaceholder } from './pades/placeholder';
import { type PadesLevel, sealPades } from './pades/seal-pdf';
import { crlIssuedBy, type RevocationFetcher } from './pades/revocation';
import type { TimestampClient } from './pades/timestamp';
import { documentHash, signatureLengthFor } from './seal';
import { checkSignature, SignatureImageError } from './signature-check';
import { certificateDer, describeCertificate, unlockP12 } from './signing-certificate';
import { verifyPdf } from './verify';

export interface PdfRendererOptions {
  /** The sealing certificate and key, PKCS#12 (see `loadOrCreateSigningP12`). */
  p12: Uint8Array;
  /** The P12's password; default empty. */
  password?: string;
  /**
   * The PAdES level of every seal (docs/signing.md, "The seal"): default `B-LTA` with a timestamp authority,
   * `B-B` without one. From `B-T` on, `timestamps` is required.
   */
  level?: PadesLevel;
  /** An RFC 3161 client (`createTimestampClient`), e.g. for `FORMLOOM_SIGNING_TSA_URL`. */
  timestamps?: TimestampClient;
  /** CRLs (DER) of the certificate chain, put into the DSS from B-LT on. */
  crls?: Uint8Array[];
  /**
   * From B-LT on, fetches the CRLs that the TSA's certificates (and an operator's chain) name for the DSS;
   * default a plain HTTP GET with a 15 s limit. A failure fails the seal, which is retried.
   */
  fetchRevocation?: RevocationFetcher;
}

/** Raised for input that cannot be rendered (bad dates, a signature that cannot be drawn). */
export class DocumentInputError extends Error {
  override name = 'DocumentInputError';
}

/**
 * The `SignedDocumentRenderer` port with pdfkit: A4 pages, DejaVu Sans text, typed signatures in Dancing
 * Script. Opening the P12 happens here, so a wrong password fails at start-up (`SigningCertificateError`), not
 * at the first seal. Fonts load on first render and stay with this renderer.
 */
export function createPdfDocumentRenderer(options: PdfRendererOptions): SignedDocumentRenderer & {
  /** `sha256:<hex>` of this renderer's sealing certificate. */
  readonly certificateFingerprint: string;
  /** `sha256:<hex>` of the certificate relying parties trust: the chain's root (the instance CA by default). */
  readonly trustFingerprint: string;
  readonly trustAnchorPem: string;
  readonly level: PadesLevel;
  /** The trust anchor's CRL when given in `crls` (the instance CA's), else `null`. */
  caCrl(): Promise<Uint8Array | null>;
  unsupportedCharacters(text: string): Promise<string[]>;
} {
  const password = options.password ?? '';
  const p12 = Uint8Array.from(options.p12);
  const unlocked = unlockP12(p12, password);
  const level: PadesLevel = options.level ?? (options.timestamps ? 'B-LTA' : 'B-B');
  if (level !== 'B-B' && !options.timestamps) throw new DocumentInputError(`PAdES ${level} needs a timestamp authority`);
  const certificate = certificateDer(unlocked.certificate);
  const issuers = unlocked.chain.filter((cert) => cert !== unlocked.certificate).map(certificateDer);
  const chainBytes = [certificate, ...issuers].reduce((sum, der) => sum + der.length, 0);
  const signatureLength = signatureLengthFor(chainBytes, level !== 'B-B');
  const sealName = unlocked.certificate.subject.getField('CN')?.value ?? 'Formloom';
  const sealOrg = unlocked.certificate.subject.getField('O')?.value ?? sealName;
  const root = issuers.find((der) => { const d = describeCertificate(der); return d.subject === d.issuer; }) ?? issuers[issuers.length - 1];
  const trustFingerprint = root ? describeCertificate(root).fingerprint : unlocked.identity.fingerprint;
  const trustAnchorPem = new X509Certificate(root ?? certificate).toString();
  const signer = {
    key: createPrivateKey(forge.pki.privateKeyToPem(unlocked.key)),
    certificate,
    chain: issuers,
  };
  const crls = (options.crls ?? []).map((crl) => Buffer.from(crl));
  let fontsLoading: Promise<DocumentFonts> | null = null;
  const fonts = () => {
    fontsLoading ??= loadDocumentFonts().catch((error: unknown) => {
      fontsLoading = null;
      throw error;
    });
    return fontsLoading;
  };

  async function render(input: SignedDocumentInput | VoidedDocumentInput, voided: boolean): Promise<RenderedDocument> {
    const date = parseDate(input.generated_at, 'generated_at');
    const voidedAt = voided ? parseDate((input as VoidedDocumentInput).voided_at, 'voided_at').toISOString() : null;
    for (const signer of input.signers) {
      if (signer.status !== 'signed' || !signer.signature) continue;
      const problem = checkSignature(signer.signature);
      if (problem) throw new DocumentInputError(`slot ${signer.slot_number}: ${problem}`);
    }
    const loaded = await fonts();
    const meta: DocumentMeta = {
      title: input.question_title || 'Contract',
      sessionId: input.session_id,
      questionId: input.question_id,
      formId: input.form_id,
      auditHeadHash: input.audit_head_hash,
      status: voided ? 'voided' : 'signed',
      date,
    };
    const shortTitle = meta.title.length > 60 ? `${meta.title.slice(0, 59)}\u2026` : meta.title;
    const footer = `${shortTitle}  \u00b7  ${input.session_id}`;

    // The unsigned rendering: the contract pages alone, so their hash can be printed on the certificate page.
    const unsigned = openDocument(meta, loaded);
    drawSafely(() => drawContractPages(unsigned.doc, loaded, input));
    const contractPages = unsigned.doc.bufferedPageRange().count;
    finishPages(unsigned.doc, loaded, footer, voidedAt);
    unsigned.doc.end();
    const unsignedHash = documentHash(await unsigned.bytes);

    const full = openDocument(meta, loaded);
    drawSafely(() => drawContractPages(full.doc, loaded, input));
    const box = drawCertificatePage(full.doc, loaded, input, { unsignedHash, contractPages, voided, trustFingerprint });
    finishPages(full.doc, loaded, footer, voidedAt);
    const pageCount = full.doc.bufferedPageRange().count;
    full.doc.switchToPage(pageCount - 1);
    addSealPlaceholder(full.doc, {
      signingTime: date,
      signatureLength,
      name: sealName,
      appearance: {
        ...box,
        lines: [
          `Sealed by ${sealOrg}`,
          `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC  -  PAdES ${level}`,
          'Seal certificate SHA-256:',
          unlocked.identity.fingerprint.replace(/^sha256:/, ''),
        ],
      },
    });
    full.doc.end();
    const pdf = await full.bytes;
    return { pdf: new Uint8Array(pdf), unsigned_hash: unsignedHash, generated_at: date.toISOString(), page_count: pageCount };
  }

  return {
    certificateFingerprint: unlocked.identity.fingerprint,
    trustFingerprint,
    trustAnchorPem,
    level,
    // Served at GET /signing/ca.crl: the instance CA's own CRL, never one of another issuer.
    caCrl: async () => (root ? crlIssuedBy(crls, root) : null),
    renderSigned: (input) => render(input, false),
    renderVoided: (input) => render(input, true),
    async seal(document): Promise<SealedDocument> {
      const sealed = await sealPades(document.pdf, { signer, level, timestamps: options.timestamps, crls, fetchRevocation: options.fetchRevocation });
      return {
        pdf: new Uint8Array(sealed),
        document_hash: documentHash(sealed),
        certificate_fingerprint: unlocked.identity.fingerprint,
      };
    },
    async verify(pdf: Uint8Array): Promise<SignedDocumentVerification> {
      return verifyPdf(pdf, unlocked.identity.fingerprint);
    },
    checkSignature(signature: SignatureInput) {
      return checkSignature(signature);
    },
    async unsupportedCharacters(text: string) {
      return unsupportedCharacters(text, await fonts());
    },
  };
}

function parseDate(value: string, field: string): Date {
  const date = new Date(value);
  if (typeof value !== 'string' || Number.isNaN(date.getTime())) {
    throw new DocumentInputError(`${field} must be an ISO 8601 timestamp`);
  }
  return date;
}

function drawSafely(draw: () => void): void {
  try {
    draw();
  } catch (error) {
    if (error instanceof SignatureImageError) throw new DocumentInputError(error.message);
    throw error;
  }
}
