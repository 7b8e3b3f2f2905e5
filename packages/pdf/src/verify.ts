import { createHash, verify as verifySignature, X509Certificate } from 'node:crypto';
import type { SealCertificate, SignedDocumentVerification } from '@formloom/core';
import forge from 'node-forge';
import { INFO_KEYS } from './layout';
import { readInfoString } from './pdf-info';
import { appendedIsRevisions, appendedIsValidationDataOnly, documentTimestampMatches, locateSignatures } from './pades/revisions';
import { documentHash } from './seal';
import { describeCertificate } from './signing-certificate';

type Node = forge.asn1.Asn1;

const OIDS = {
  signedData: '1.2.840.113549.1.7.2',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
};
const DIGESTS: Record<string, string> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};

/** What the PKCS#7 blob says, before it is checked against the document. */
interface ParsedSignature {
  digestAlgorithm: string;
  messageDigest: Buffer;
  signedAttributes: Buffer;
  signature: Buffer;
  signingTime: Date | null;
  certificate: X509Certificate;
  certificateDer: Buffer;
  /** The other certificates the blob carries (the chain). */
  others: X509Certificate[];
}

/**
 * Checks the last signature of a PDF: its byte range must cover the whole file but the signature contents,
 * the signed `messageDigest` must equal the digest of those bytes, and the RSA/ECDSA signature over the signed
 * attributes must verify with the certificate carried in the blob. Reads the ids embedded by the renderer.
 * Never throws: every failure lands in `problems`.
 */
export function verifyPdf(bytes: Uint8Array, ownFingerprint?: string): SignedDocumentVerification {
  const pdf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const result: SignedDocumentVerification = {
    valid: false,
    signed: false,
    covers_whole_document: false,
    intact: false,
    signature_verified: false,
    sealed_by_this_instance: false,
    certificate: null,
    signed_at: null,
    document_hash: documentHash(pdf),
    session_id: safe(() => readInfoString(pdf, INFO_KEYS.sessionId)),
    question_id: safe(() => readInfoString(pdf, INFO_KEYS.questionId)),
    audit_head_hash: safe(() => readInfoString(pdf, INFO_KEYS.auditHeadHash)),
    problems: [],
  };
  if (pdf.subarray(0, 5).toString('latin1') !== '%PDF-') {
    result.problems.push('not a PDF file');
    return result;
  }
  const all = locateSignatures(pdf);
  const location = all.find((found) => !found.documentTimestamp);
  if (!location) {
    result.problems.push('the PDF carries no signature (no byte range with signature contents)');
    return result;
  }
  result.signed = true;
  const [a, b, c, d] = location.byteRange;
  const sealEnd = c + d;
  const later = all.slice(all.indexOf(location) + 1);
  if (later.some((found) => !found.documentTimestamp)) {
    result.problems.push('the PDF carries more than one signature');
  } else if (a !== 0 || sealEnd > pdf.length || (sealEnd < pdf.length && !appendedIsRevisions(pdf, sealEnd))) {
    result.problems.push('the signature does not cover the whole document');
  } else if (sealEnd === pdf.length) {
    result.covers_whole_document = true;
  } else if (!appendedIsValidationDataOnly(pdf, sealEnd)) {
    result.problems.push('the document was changed after sealing (a later revision changes more than validation data)');
  } else if (later.some((found) => !documentTimestampMatches(pdf, found))) {
    result.problems.push('a document timestamp does not match the bytes it covers');
  } else {
    // PAdES B-LT/B-LTA: the DSS and document timestamps come after the seal and may only add validation data.
    result.covers_whole_document = true;
  }
  let parsed: ParsedSignature;
  try {
    parsed = parseSignature(location.contents);
  } catch (error) {
    result.problems.push(`the signature cannot be read: ${(error as Error).message}`);
    return result;
  }
  result.certificate = certificateFacts(parsed.certificateDer);
  result.sealed_by_this_instance = ownFingerprint !== undefined && result.certificate.fingerprint === ownFingerprint;
  const claimed = parsed.signingTime ?? location.claimedTime;
  result.signed_at = claimed ? claimed.toISOString() : null;

  const digest = createHash(parsed.digestAlgorithm)
    .update(pdf.subarray(a, a + b))
    .update(pdf.subarray(c, c + d))
    .digest();
  result.intact = digest.equals(parsed.messageDigest);
  if (!result.intact) result.problems.push('digest mismatch: the signed bytes were changed after sealing');
  try {
    result.signature_verified = verifySignature(
      parsed.digestAlgorithm,
      parsed.signedAttributes,
      parsed.certificate.publicKey,
      parsed.signature,
    );
  } catch (error) {
    result.problems.push(`the signature cannot be checked: ${(error as Error).message}`);
  }
  if (!result.signature_verified && result.problems.every((problem) => !problem.startsWith('the signature cannot'))) {
    result.problems.push('the signature does not verify with its certificate');
  }
  // A self-issued certificate must at least carry its own valid signature; chains to a CA are for the reader.
  // (Not `checkIssued`: OpenSSL's check also wants keyCertSign, which a sealing certificate need not have.)
  let certificateSound = true;
  if (parsed.certificate.subject === parsed.certificate.issuer) {
    certificateSound = safe(() => parsed.certificate.verify(parsed.certificate.publicKey)) ?? false;
    if (!certificateSound) result.problems.push("the self-signed certificate's own signature does not verify");
  } else {
    const issuer = parsed.others.find((other) => other.subject === parsed.certificate.issuer);
    if (issuer) {
      certificateSound = safe(() => parsed.certificate.verify(issuer.publicKey)) ?? false;
      if (!certificateSound) result.problems.push("the signing certificate does not verify with its issuer's key");
    }
  }
  result.valid = result.covers_whole_document && result.intact && result.signature_verified && certificateSound;
  return result;
}

function safe<T>(read: () => T | null): T | null {
  try {
    return read();
  } catch {
    return null;
  }
}

function certificateFacts(der: Buffer): SealCertificate {
  const identity = describeCertificate(der);
  return {
    fingerprint: identity.fingerprint,
    subject: identity.subject,
    issuer: identity.issuer,
    not_before: identity.notBefore,
    not_after: identity.notAfter,
  };
}

function bytes(value: Node['value'] | undefined): Buffer {
  return Buffer.from(raw(value), 'binary');
}

function raw(value: Node['value'] | undefined): string {
  if (typeof value !== 'string') throw new Error('expected a primitive ASN.1 value');
  return value;
}

function children(node: Node | undefined, what: string): Node[] {
  if (!node || !Array.isArray(node.value)) throw new Error(`malformed ${what}`);
  return node.value as Node[];
}

function isContext(node: Node | undefined, tag: number): boolean {
  return node?.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && node.type === tag;
}

function serialHex(value: string): string {
  return value.toUpperCase().replace(/^0+/, '') || '0';
}

/** Walks ContentInfo -> SignedData -> the first SignerInfo (RFC 5652), keeping the raw pieces to check. */
function parseSignature(der: Buffer): ParsedSignature {
  // The contents are zero-padded to the placeholder's size: parse one element and ignore the rest.
  // (@types/node-forge knows only the older boolean `strict` argument; node-forge 1.x takes these options.)
  const options = { parseAllBytes: false, decodeBitStrings: false } as unknown as boolean;
  const asn1 = forge.asn1.fromDer(forge.util.createBuffer(der.toString('binary')), options);
  const contentInfo = children(asn1, 'ContentInfo');
  if (forge.asn1.derToOid(raw(contentInfo[0]?.value)) !== OIDS.signedData) throw new Error('not PKCS#7 signed data');
  const signedData = children(children(contentInfo[1], 'content')[0], 'SignedData');
  const certificates = signedData.find((node) => isContext(node, 0));
  const signerInfos = children(signedData[signedData.length - 1], 'signerInfos');
  const signer = children(signerInfos[0], 'SignerInfo');
  const [, issuerAndSerial, digestAlgorithm] = signer;
  const serial = serialHex(bytes(children(issuerAndSerial, 'issuerAndSerialNumber')[1]?.value).toString('hex'));
  const digestName = DIGESTS[forge.asn1.derToOid(raw(children(digestAlgorithm, 'digestAlgorithm')[0].value))];
  if (!digestName) throw new Error('unsupported digest algorithm');
  const attributesNode = signer.find((node) => isContext(node, 0));
  if (!attributesNode) throw new Error('no signed attributes');
  const encryptedDigest = signer[signer.indexOf(attributesNode) + 2];

  let messageDigest: Buffer | null = null;
  let signingTime: Date | null = null;
  for (const attribute of children(attributesNode, 'signed attributes')) {
    const [type, values] = children(attribute, 'attribute');
    const oid = forge.asn1.derToOid(raw(type.value));
    const value = children(values, 'attribute values')[0];
    if (oid === OIDS.messageDigest) messageDigest = bytes(value.value);
    if (oid === OIDS.signingTime) {
      const text = bytes(value.value).toString('latin1');
      signingTime = value.type === forge.asn1.Type.UTCTIME ? forge.asn1.utcTimeToDate(text) : forge.asn1.generalizedTimeToDate(text);
    }
  }
  if (!messageDigest) throw new Error('no message digest among the signed attributes');
  // The signature covers the attributes DER-encoded as a SET, not with their [0] context tag.
  const asSet = forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.SET, true, attributesNode.value as Node[]);
  const signedAttributes = Buffer.from(forge.asn1.toDer(asSet).getBytes(), 'binary');

  const candidates = certificates ? children(certificates, 'certificates') : [];
  const all = candidates.map((node) => {
    const der = Buffer.from(forge.asn1.toDer(node).getBytes(), 'binary');
    return { der, certificate: new X509Certificate(der) };
  });
  for (const { der: certificateDer, certificate } of all) {
    if (serialHex(certificate.serialNumber) === serial) {
      return {
        digestAlgorithm: digestName,
        messageDigest,
        signedAttributes,
        signature: bytes(encryptedDigest?.value),
        signingTime,
        certificate,
        certificateDer,
        others: all.filter((other) => other.certificate !== certificate).map((other) => other.certificate),
      };
    }
  }
  throw new Error("the signer's certificate is not in the signature");
}
