import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import * as asn1js from 'asn1js';
import forge from 'node-forge';
import * as pkijs from 'pkijs';
import { certificateSerial } from './certificate-serial';

/**
 * The instance CA (docs/signing.md, "Trusting the instance CA"): without an operator P12, each installation
 * makes its own root, a sealing certificate under it, and one CRL (empty, valid as long as the certificate)
 * for the DSS. The CA's private key is then thrown away: no one, not even this server, can issue another
 * certificate under it, so trusting it means trusting exactly the seals of this instance.
 */
export interface InstanceCaOptions {
  /** `O` of both certificates: `FORMLOOM_SIGNING_ORG`, by default the public URL's host. */
  organization: string;
  /** Protects the P12; empty by default (the file's mode protects it). */
  password?: string;
  /** Default 10 years. */
  validityDays?: number;
  /**
   * Where the CA's CRL is published (`<public URL>/api/v1/signing/ca.crl`): named in the sealing certificate's
   * CRL distribution points, so a validator can check it for revocation at any level. Omitted, the
   * certificate names none.
   */
  crlUrl?: string;
  now?: Date;
}

export interface InstanceCa {
  /** The sealing key and certificate, with the CA certificate as its chain. */
  p12: Uint8Array;
  /** The CA certificate (DER). */
  caCertificate: Buffer;
  /** An empty CRL signed by the CA (DER). */
  crl: Buffer;
}

const ab = (bytes: Uint8Array) => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;

function forgeKey(key: KeyObject): forge.pki.rsa.PrivateKey {
  return forge.pki.privateKeyFromPem(key.export({ type: 'pkcs1', format: 'pem' }).toString());
}

function der(cert: forge.pki.Certificate): Buffer {
  return Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), 'binary');
}

export function createInstanceCa(options: InstanceCaOptions): InstanceCa {
  const start = options.now ?? new Date();
  const end = new Date(start.getTime() + (options.validityDays ?? 3650) * 86_400_000);
  const org = options.organization;
  const caKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const sealKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const caForgeKey = forgeKey(caKey);
  const sealForgeKey = forgeKey(sealKey);

  const ca = forge.pki.createCertificate();
  ca.publicKey = forge.pki.setRsaPublicKey(caForgeKey.n, caForgeKey.e);
  ca.serialNumber = certificateSerial();
  ca.validity.notBefore = start;
  // The root outlives the sealing certificate by a day, so the chain is valid for the whole of it.
  ca.validity.notAfter = new Date(end.getTime() + 86_400_000);
  const caName = [
    { name: 'commonName', value: `${org} Formloom seal CA` },
    { name: 'organizationName', value: org },
  ];
  ca.setSubject(caName);
  ca.setIssuer(caName);
  ca.setExtensions([
    { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  ca.sign(caForgeKey, forge.md.sha256.create());

  const seal = forge.pki.createCertificate();
  seal.publicKey = forge.pki.setRsaPublicKey(sealForgeKey.n, sealForgeKey.e);
  seal.serialNumber = certificateSerial();
  seal.validity.notBefore = start;
  seal.validity.notAfter = end;
  seal.setSubject([
    { name: 'commonName', value: `${org} Formloom seal` },
    { name: 'organizationName', value: org },
  ]);
  seal.setIssuer(caName);
  seal.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true, critical: true },
    { name: 'subjectKeyIdentifier' },
    { name: 'authorityKeyIdentifier', keyIdentifier: ca.generateSubjectKeyIdentifier().getBytes() },
    ...(options.crlUrl ? [{ name: 'cRLDistributionPoints', altNames: [{ type: 6, value: options.crlUrl }] }] : []),
  ]);
  seal.sign(caForgeKey, forge.md.sha256.create());

  const caDer = der(ca);
  const crl = emptyCrl(caDer, caKey, ca.generateSubjectKeyIdentifier().getBytes(), start, end);
  const asn1 = forge.pkcs12.toPkcs12Asn1(sealForgeKey, [seal, ca], options.password ?? '', {
    algorithm: 'aes256',
    friendlyName: `${org} Formloom seal`,
  });
  return { p12: Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary'), caCertificate: caDer, crl };
}

/** A v2 CRL with no revoked certificates, a CRL number and the CA's key identifier (RFC 5280, 5.1). */
export function emptyCrl(caDer: Buffer, caKey: KeyObject, keyId: string, thisUpdate: Date, nextUpdate: Date): Buffer {
  const ca = pkijs.Certificate.fromBER(ab(caDer));
  const algorithm = () => new pkijs.AlgorithmIdentifier({ algorithmId: '1.2.840.113549.1.1.11', algorithmParams: new asn1js.Null() });
  const crl = new pkijs.CertificateRevocationList({
    version: 1,
    signature: algorithm(),
    issuer: ca.subject,
    thisUpdate: new pkijs.Time({ type: 0, value: thisUpdate }),
    nextUpdate: new pkijs.Time({ type: nextUpdate.getUTCFullYear() < 2050 ? 0 : 1, value: nextUpdate }),
    crlExtensions: new pkijs.Extensions({
      extensions: [
        new pkijs.Extension({
          extnID: '2.5.29.35',
          extnValue: new pkijs.AuthorityKeyIdentifier({
            keyIdentifier: new asn1js.OctetString({ valueHex: ab(Buffer.from(keyId, 'binary')) }),
          }).toSchema().toBER(false),
        }),
        new pkijs.Extension({ extnID: '2.5.29.20', extnValue: new asn1js.Integer({ value: 1 }).toBER(false) }),
      ],
    }),
  });
  // encodeTBS is protected in the typings but is how pkijs itself signs a CRL.
  const tbs = Buffer.from((crl as unknown as { encodeTBS(): asn1js.Sequence }).encodeTBS().toBER(false));
  crl.signatureAlgorithm = algorithm();
  crl.signatureValue = new asn1js.BitString({ valueHex: ab(sign('sha256', tbs, caKey)) });
  return Buffer.from(crl.toSchema(true).toBER(false));
}
