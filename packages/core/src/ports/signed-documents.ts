/**
 * Signed documents: one PDF per contract question of a signing session, rendered once the last signer has
 * signed (or the session is voided), then sealed with a digital signature. See docs/signing.md, "Sealed PDFs
 * and verification". Types only: the adapter (`@formloom/pdf`) does the rendering, sealing and file work.
 */

/** How a signer proved who they were, besides holding the signing link. */
export type SignerVerificationMethod = 'link' | 'password' | 'email_code';

/**
 * A signature as the signer gave it: `typed` is their name as text (drawn in a script font), `drawn` is a PNG
 * data URL (`data:image/png;base64,...`) from the signing pad.
 */
export type SignatureInput = { type: 'typed'; value: string } | { type: 'drawn'; value: string };

/** Something a signer did, with where it came from (as recorded in the audit trail). */
export interface SignerEvent {
  /** ISO 8601 UTC timestamp. */
  at: string;
  ip_address?: string | null;
  user_agent?: string | null;
}

/** One signer slot of the session, as it stands when the document is rendered. */
export interface SignedDocumentSigner {
  slot_number: number;
  /** The role name of the slot ("Tenant", "Landlord"). */
  slot_label: string;
  first_name?: string | null;
  last_name?: string | null;
  email?: string | null;
  /** `signed` slots carry `signature` and `signed`; `declined` slots carry `declined`. */
  status: 'pending' | 'signed' | 'declined';
  signature?: SignatureInput | null;
  /**
   * Every way this signer was verified: always `link`, plus `password` for a password-protected session and
   * `email_code` when email verification was required.
   */
  verification_methods: SignerVerificationMethod[];
  /** The first time the signer opened the document. */
  viewed?: SignerEvent | null;
  signed?: SignerEvent | null;
  declined?: (SignerEvent & { reason?: string | null }) | null;
}

/** Everything one signed-contract PDF shows. The same input always renders the same bytes. */
export interface SignedDocumentInput {
  session_id: string;
  form_id?: string | null;
  question_id: string;
  /** The contract question's title, shown as the document's title. */
  question_title: string;
  /** The contract text (the question's `document` property), markdown. */
  contract: string;
  /** In slot order. */
  signers: SignedDocumentSigner[];
  /** The hash of the newest audit entry of the session (the head of the hash chain). */
  audit_head_hash: string;
  /**
   * ISO 8601 UTC time the document is generated: the PDF's creation date and the seal's signing time. Fixed by
   * the caller (from its clock), so that a render can be repeated byte for byte.
   */
  generated_at: string;
  /** The session's own record for the certificate page (older callers may leave it out). */
  session?: SessionFacts;
}

/** Who started the session and what it sent, from the session and its audit trail. */
export interface SessionFacts {
  created_at: string;
  expires_at: string;
  /** The team member's email who created the session (or their user id when no email is known). */
  created_by: string | null;
  form_title: string | null;
  /** The form's published version when the session was created; null for a draft. */
  form_version_id: string | null;
  /** Every email the session sent before the document was generated (the address and what kind of mail). */
  emails: Array<{ at: string; to: string; kind: string }>;
  /** Who voided it (a voided session). */
  voided_by?: string | null;
}

/** A session voided before completion: what was signed so far, watermarked `VOIDED`. */
export interface VoidedDocumentInput extends SignedDocumentInput {
  voided_at: string;
  void_reason: string;
}

/** A rendered document, ready to be sealed exactly once and never changed afterwards. */
export interface RenderedDocument {
  /** The PDF with an empty signature placeholder. Not a valid signed PDF until sealed. */
  pdf: Uint8Array;
  /**
   * `sha256:<hex>` of the unsigned rendering: the contract pages (text, signatures, any `VOIDED` watermark)
   * rendered on their own, without certificate page or seal. Printed on the certificate page; reproducible
   * from the same input.
   */
  unsigned_hash: string;
  /** Copied from the input: the seal's signing time. */
  generated_at: string;
  page_count: number;
}

/** The final document, to be stored and served unchanged. */
export interface SealedDocument {
  pdf: Uint8Array;
  /** `sha256:<hex>` of `pdf`: the signed document's `document_hash`. */
  document_hash: string;
  /** `sha256:<hex>` of the DER of the certificate that sealed it. */
  certificate_fingerprint: string;
}

/** The certificate a PDF was sealed with. */
export interface SealCertificate {
  /** `sha256:<hex>` of its DER encoding. */
  fingerprint: string;
  subject: string;
  issuer: string;
  /** ISO 8601 validity bounds. */
  not_before: string;
  not_after: string;
}

/** What verification found. `valid` is the one answer that matters; the rest says why. */
export interface SignedDocumentVerification {
  /**
   * True only when the PDF carries a signature that covers every byte but the signature itself, its digest
   * matches the bytes, the signature checks out against the certificate inside it, and (for a self-signed
   * certificate) the certificate's own signature verifies. Whether that certificate is trusted is the
   * caller's question: compare `certificate.fingerprint`, or see `sealed_by_this_instance`.
   */
  valid: boolean;
  /** The PDF has a signature dictionary with a byte range and contents. */
  signed: boolean;
  /** The byte range starts at 0, ends at the last byte, and leaves out only the signature contents. */
  covers_whole_document: boolean;
  /** The message digest in the signature equals the SHA-256 of the signed bytes. */
  intact: boolean;
  /** The signer's RSA signature over the signed attributes verifies with the certificate's key. */
  signature_verified: boolean;
  /** Whether this instance's own sealing certificate made the seal. */
  sealed_by_this_instance: boolean;
  certificate: SealCertificate | null;
  /** ISO 8601 signing time from the signature, when present. */
  signed_at: string | null;
  /** `sha256:<hex>` of the bytes given. */
  document_hash: string;
  /** Embedded by the renderer (document information); `null` when absent. Trust them only when `valid`. */
  session_id: string | null;
  question_id: string | null;
  audit_head_hash: string | null;
  /** Human-readable reasons the document is not valid (empty when valid). */
  problems: string[];
}

/**
 * Renders, seals and verifies signed-contract PDFs. An implementation holds the instance's sealing certificate.
 * Call `renderSigned` or `renderVoided`, store nothing yet, then `seal` once as the last step: changing a
 * sealed PDF in any way breaks its signature.
 */
export interface SignedDocumentRenderer {
  /** The contract text, each signer's block, then a certificate page built from the audit trail. */
  renderSigned(input: SignedDocumentInput): Promise<RenderedDocument>;
  /** What was signed so far, with a diagonal `VOIDED` watermark on every page and the void on the certificate. */
  renderVoided(input: VoidedDocumentInput): Promise<RenderedDocument>;
  /**
   * PEM of the certificate a relying party should trust for these seals (the instance CA, or the root of the
   * operator's chain); served at `GET /signing/certificate`. Absent when the implementation has none to offer.
   */
  readonly trustAnchorPem?: string;
  /** The same PEM for a renderer that loads its certificate on first use (`null`: none to offer). */
  trustAnchor?(): Promise<string | null>;
  /**
   * The trust anchor's CRL (DER) when this instance holds it (the instance CA's, which its sealing certificate
   * names); served at `GET /signing/ca.crl`. `null` or absent: none (an operator's CA publishes its own).
   */
  caCrl?(): Promise<Uint8Array | null>;
  /** Seals the byte range (PAdES, `ETSI.CAdES.detached`) with the instance's certificate. */
  seal(document: Pick<RenderedDocument, 'pdf' | 'generated_at'>): Promise<SealedDocument>;
  /** Checks a PDF's seal and reads the ids the renderer embedded. Never throws on bad input: reports it. */
  verify(pdf: Uint8Array): Promise<SignedDocumentVerification>;
  /**
   * Why a signature cannot go into a document (`null` when it can): a typed name that is empty or too long, a
   * drawn one that is not a PNG data URL of acceptable size. Lets the signing endpoint answer 400 up front.
   */
  checkSignature(signature: SignatureInput): string | null;
  /**
   * The characters of `text` that no font of the document can draw (distinct, in order); forms with such a
   * contract are refused at save. Optional: without it, no check is made.
   */
  unsupportedCharacters?(text: string): Promise<string[]>;
}
