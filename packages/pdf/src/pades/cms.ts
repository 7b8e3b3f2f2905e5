import { createHash, type KeyObject, sign } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

/**
 * CAdES detached signatures for PAdES baseline (ETSI EN 319 142-1): the signed attributes are content-type,
 * message-digest and ESS signing-certificate-v2; there is no signing-time attribute (PAdES puts the claimed
 * time in the signature dictionary's `/M`). An RFC 3161 signature timestamp, when there is one, is an unsigned
 * attribute over the signature value. Built with pkijs; the RSA signature itself is made with node:crypto.
 */
export const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  signatureTimeStampToken: '1.2.840.113549.1.9.16.2.14',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  sha256: '2.16.840.1.101.3.4.2.1',
  rsaEncryption: '1.2.840.113549.1.1.1',
  sha256WithRSA: '1.2.840.113549.1.1.11',
} as const;

export interface CadesSigner {
  key: KeyObject;
  /** The signing certificate's DER. */
  certificate: Uint8Array;
  /** Issuers up to the root, DER; carried in the signature. */
  chain: Uint8Array[];
}

function arrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

export function parseCertificate(der: Uint8Array): pkijs.Certificate {
  return pkijs.Certificate.fromBER(arrayBuffer(der));
}

function sha256(bytes: Uint8Array | ArrayBuffer): Buffer {
  return createHash('sha256').update(bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes).digest();
}

/**
 * SigningCertificateV2 ::= SEQUENCE { certs SEQUENCE OF ESSCertIDv2 } with one ESSCertIDv2: the certificate's
 * SHA-256 (the default hash algorithm, so omitted as DER requires) and its issuer and serial (RFC 5035).
 */
function signingCertificateV2(certificate: pkijs.Certificate, der: Uint8Array): asn1js.Sequence {
  const issuerSerial = new asn1js.Sequence({
    value: [
      new asn1js.Sequence({
        value: [new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 4 }, value: [certificate.issuer.toSchema()] })],
      }),
      certificate.serialNumber,
    ],
  });
  const essCertId = new asn1js.Sequence({
    value: [new asn1js.OctetString({ valueHex: arrayBuffer(sha256(der)) }), issuerSerial],
  });
  return new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertId] })] });
}

/** DER of the signed attributes as the signature covers them: a SET, not the `[0]` of SignerInfo. */
function signedAttributesDer(attributes: pkijs.SignedAndUnsignedAttributes): Buffer {
  const der = Buffer.from(attributes.toSchema().toBER(false));
  der[0] = 0x31;
  return der;
}

/**
 * A detached CAdES-BES SignedData over `digest` (SHA-256 of the PDF's byte range), as DER, plus the raw
 * signature value (what a signature timestamp must cover).
 */
export function buildCadesSignature(digest: Uint8Array, signer: CadesSigner): { signerInfo: pkijs.SignerInfo; signedData: pkijs.SignedData } {
  const certificate = parseCertificate(signer.certificate);
  const signedAttrs = new pkijs.SignedAndUnsignedAttributes({
    type: 0,
    attributes: [
      new pkijs.Attribute({ type: OID.contentType, values: [new asn1js.ObjectIdentifier({ value: OID.data })] }),
      new pkijs.Attribute({ type: OID.messageDigest, values: [new asn1js.OctetString({ valueHex: arrayBuffer(digest) })] }),
      new pkijs.Attribute({ type: OID.signingCertificateV2, values: [signingCertificateV2(certificate, signer.certificate)] }),
    ],
  });
  const signature = sign('sha256', signedAttributesDer(signedAttrs), signer.key);
  const signerInfo = new pkijs.SignerInfo({
    version: 1,
    sid: new pkijs.IssuerAndSerialNumber({ issuer: certificate.issuer, serialNumber: certificate.serialNumber }),
    digestAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 }),
    signedAttrs,
    signatureAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID.rsaEncryption, algorithmParams: new asn1js.Null() }),
    signature: new asn1js.OctetString({ valueHex: arrayBuffer(signature) }),
  });
  const signedData = new pkijs.SignedData({
    version: 1,
    digestAlgorithms: [new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 })],
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
    certificates: [certificate, ...signer.chain.map(parseCertificate)],
    signerInfos: [signerInfo],
  });
  return { signerInfo, signedData };
}

/** Adds an RFC 3161 token (a ContentInfo, DER) as the signature-time-stamp unsigned attribute. */
export function addSignatureTimestamp(signerInfo: pkijs.SignerInfo, token: Uint8Array): void {
  const value = asn1js.fromBER(arrayBuffer(token));
  if (value.offset === -1) throw new Error('the timestamp token is not DER');
  signerInfo.unsignedAttrs = new pkijs.SignedAndUnsignedAttributes({
    type: 1,
    attributes: [new pkijs.Attribute({ type: OID.signatureTimeStampToken, values: [value.result] })],
  });
}

/** The signature value a signature timestamp covers (ETSI EN 319 122-1, 5.3). */
export function signatureValue(signerInfo: pkijs.SignerInfo): Buffer {
  return Buffer.from(signerInfo.signature.valueBlock.valueHexView);
}

export function encodeSignedData(signedData: pkijs.SignedData): Buffer {
  const contentInfo = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
  return Buffer.from(contentInfo.toSchema().toBER(false));
}
