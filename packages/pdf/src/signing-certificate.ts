import { createHash, generateKeyPairSync, randomBytes, X509Certificate } from 'node:crypto';
import { chmod, link, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import forge from 'node-forge';
import { certificateSerial } from './certificate-serial';
import { createInstanceCa } from './instance-ca';

/** A P12 that cannot be used for sealing: unreadable, not PKCS#12, wrong password, or no key/certificate. */
export class SigningCertificateError extends Error {
  override name = 'SigningCertificateError';
}

/** What a usable P12 holds. */
export interface SigningIdentity {
  /** `sha256:<hex>` of the certificate's DER. */
  fingerprint: string;
  subject: string;
  issuer: string;
  notBefore: string;
  notAfter: string;
}

export interface SelfSignedOptions {
  /** The certificate's subject common name, e.g. the instance's host name: `Formloom (forms.example.com)`. */
  commonName: string;
  organization?: string;
  /** Protects the P12; empty by default (the file's mode protects it). */
  password?: string;
  /** Default 10 years. */
  validityDays?: number;
  /** Start of validity; default now. */
  now?: Date;
}

/**
 * Makes a self-signed RSA-2048 certificate for `adbe.pkcs7.detached` seals and returns it with its key as
 * PKCS#12 bytes. The key comes from node:crypto (much faster than a pure-JS one); node-forge builds the
 * certificate and the P12.
 */
export function createSelfSignedP12(options: SelfSignedOptions): Uint8Array {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString());
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  cert.serialNumber = certificateSerial(15);
  const start = options.now ?? new Date();
  cert.validity.notBefore = start;
  cert.validity.notAfter = new Date(start.getTime() + (options.validityDays ?? 3650) * 86_400_000);
  const subject = [{ name: 'commonName', value: options.commonName }];
  if (options.organization) subject.push({ name: 'organizationName', value: options.organization });
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(key, forge.md.sha256.create());
  const asn1 = forge.pkcs12.toPkcs12Asn1(key, [cert], options.password ?? '', {
    algorithm: 'aes256',
    friendlyName: options.commonName,
  });
  return Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary');
}

/** Parsed key and certificate of a P12, as the sealer uses them. */
export interface UnlockedP12 {
  key: forge.pki.rsa.PrivateKey;
  certificate: forge.pki.Certificate;
  chain: forge.pki.Certificate[];
  identity: SigningIdentity;
}

/** Opens a P12 and finds the certificate that matches its RSA key. Throws `SigningCertificateError`. */
export function unlockP12(p12: Uint8Array, password = ''): UnlockedP12 {
  let parsed: forge.pkcs12.Pkcs12Pfx;
  try {
    const asn1 = forge.asn1.fromDer(forge.util.createBuffer(Buffer.from(p12).toString('binary')));
    parsed = forge.pkcs12.pkcs12FromAsn1(asn1, false, password);
  } catch (error) {
    const message = (error as Error).message ?? '';
    if (/password|MAC/i.test(message)) {
      throw new SigningCertificateError('the signing certificate (P12) password is wrong');
    }
    throw new SigningCertificateError(`the signing certificate is not a readable PKCS#12 (P12) file: ${message}`);
  }
  const keyBags = [
    ...(parsed.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag })[forge.pki.oids.pkcs8ShroudedKeyBag] ?? []),
    ...(parsed.getBags({ bagType: forge.pki.oids.keyBag })[forge.pki.oids.keyBag] ?? []),
  ];
  const certBags = parsed.getBags({ bagType: forge.pki.oids.certBag })[forge.pki.oids.certBag] ?? [];
  const key = keyBags.find((bag) => bag.key)?.key as forge.pki.rsa.PrivateKey | undefined;
  if (!key || !('n' in key)) {
    throw new SigningCertificateError('the signing certificate (P12) holds no RSA private key (only RSA keys can seal)');
  }
  const chain = certBags.map((bag) => bag.cert).filter((cert): cert is forge.pki.Certificate => Boolean(cert));
  const certificate = chain.find((cert) => {
    const publicKey = cert.publicKey as forge.pki.rsa.PublicKey;
    return publicKey.n?.equals(key.n) && publicKey.e?.equals(key.e);
  });
  if (!certificate) throw new SigningCertificateError('the signing certificate (P12) has no certificate for its private key');
  return { key, certificate, chain, identity: describeCertificate(certificateDer(certificate)) };
}

export function certificateDer(certificate: forge.pki.Certificate): Buffer {
  return Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(certificate)).getBytes(), 'binary');
}

/** Fingerprint, names and validity of a DER certificate. */
export function describeCertificate(der: Buffer): SigningIdentity {
  const x509 = new X509Certificate(der);
  return {
    fingerprint: `sha256:${createHash('sha256').update(der).digest('hex')}`,
    subject: x509.subject.replace(/\n/g, ', '),
    issuer: x509.issuer.replace(/\n/g, ', '),
    notBefore: new Date(x509.validFrom).toISOString(),
    notAfter: new Date(x509.validTo).toISOString(),
  };
}

export interface LoadSigningP12Options {
  /** The instance's data directory; the self-signed default lives at `<dataDir>/signing.p12`. */
  dataDir: string;
  /** The operator's own P12 (`FORMLOOM_SIGNING_P12`); when set, it is read and never written. */
  p12Path?: string;
  /** Its password (`FORMLOOM_SIGNING_P12_PASSWORD`); also protects a self-signed one made here. */
  password?: string;
  /** `O` of a generated instance CA and its sealing certificate (`FORMLOOM_SIGNING_ORG`); default `Formloom`. */
  organization?: string;
  /**
   * Where the instance CA's CRL is served (`<public URL>/api/v1/signing/ca.crl`): named in the sealing
   * certificate of an instance CA made here. A CA made before keeps its certificates as they are.
   */
  crlUrl?: string;
}

export interface LoadedSigningP12 {
  p12: Uint8Array;
  password: string;
  /** Where it was read from (or written to). */
  path: string;
  /** `operator` for `p12Path`; `self-signed` for the data-dir default (an instance CA since PAdES seals). */
  source: 'operator' | 'self-signed';
  /** True when this call made the certificate. */
  created: boolean;
  /**
   * Where an unreadable instance CA made by an earlier version was moved before this call made a new one
   * (docs/signing.md, "The sealing certificate"); absent otherwise.
   */
  replaced?: string;
  identity: SigningIdentity;
  /** PEM of the certificate a relying party trusts: the root of the P12's chain (the instance CA). */
  trustAnchorPem: string;
  /** CRLs (DER) of the chain that this instance holds: the instance CA's. */
  crls: Uint8Array[];
}

/** The root of a P12's chain (a self-issued certificate), else the top one; the certificate itself if alone. */
export function trustAnchorOf(unlocked: UnlockedP12): forge.pki.Certificate {
  const issuers = unlocked.chain.filter((cert) => cert !== unlocked.certificate);
  return issuers.find((cert) => cert.isIssuer(cert)) ?? issuers[issuers.length - 1] ?? unlocked.certificate;
}

function crlPath(dataDir: string, anchorDer: Buffer): string {
  return join(dataDir, `signing-ca-${createHash('sha256').update(anchorDer).digest('hex').slice(0, 16)}.crl`);
}

/**
 * The sealing certificate: the operator's P12 when `p12Path` is given, else `<dataDir>/signing.p12`, made
 * once (self-signed, mode 0600) and reused on every later start. Throws `SigningCertificateError` for a P12
 * that cannot be read or unlocked. See docs/signing.md.
 */
export async function loadOrCreateSigningP12(options: LoadSigningP12Options): Promise<LoadedSigningP12> {
  const password = options.password ?? '';
  if (options.p12Path) {
    const p12 = await readP12(options.p12Path);
    const unlocked = unlockP12(p12, password);
    const anchor = trustAnchorOf(unlocked);
    return { p12, password, path: options.p12Path, source: 'operator', created: false, identity: unlocked.identity, trustAnchorPem: forge.pki.certificateToPem(anchor), crls: [] };
  }
  const path = join(options.dataDir, 'signing.p12');
  let created = false;
  let p12 = await readP12(path, true);
  let unlocked = p12 && unlockedIfReadable(p12, password);
  let replaced: string | undefined;
  if (p12 && !unlocked) {
    // Made by a version whose serials could be non-minimal DER (certificate-serial.ts): no validator reads its
    // seals, so it is kept aside and a new one made. Two processes starting at once: one rename wins, both then
    // take the link race below.
    replaced = `${path}.unreadable-${Date.now()}`;
    await rename(path, replaced).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
      replaced = undefined;
    });
    p12 = await readP12(path, true);
  }
  if (!p12) {
    await mkdir(options.dataDir, { recursive: true });
    const ca = createInstanceCa({ organization: options.organization || 'Formloom', password, crlUrl: options.crlUrl });
    const fresh = ca.p12;
    // The CRL is named after its CA, so whichever P12 wins below finds its own CRL.
    await writeFile(crlPath(options.dataDir, ca.caCertificate), ca.crl, { mode: 0o600 });
    // Written beside the target, then linked into place: a crash leaves no half-written P12, and when two
    // processes start at once exactly one link wins and both use its certificate.
    const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(temporary, fresh, { mode: 0o600, flag: 'wx' });
    try {
      await link(temporary, path);
      created = true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      await unlink(temporary).catch(() => undefined);
    }
    p12 = (await readP12(path))!;
  }
  await chmod(path, 0o600);
  // Unlocked once: above for the file found, here for one made (or linked by another process) meanwhile.
  unlocked ||= unlockP12(p12, password);
  const anchor = trustAnchorOf(unlocked);
  const crl = await readFile(crlPath(options.dataDir, certificateDer(anchor))).catch(() => null);
  return {
    p12,
    password,
    path,
    source: 'self-signed',
    created,
    ...(replaced ? { replaced } : {}),
    identity: unlocked.identity,
    trustAnchorPem: forge.pki.certificateToPem(anchor),
    crls: crl ? [crl] : [],
  };
}

/**
 * The P12 unlocked when every certificate in it is one Node's X509Certificate (OpenSSL 3) reads, signed by its issuer
 * in the P12 as node-forge writes it out (a certificate whose serial was not minimal DER comes back from node-forge
 * re-encoded, and its signature no longer matches); else null. A wrong password still throws: that is the
 * operator's to fix, not a reason to make another.
 */
function unlockedIfReadable(p12: Uint8Array, password: string): UnlockedP12 | null {
  try {
    const unlocked = unlockP12(p12, password);
    const certs = unlocked.chain.map((cert) => new X509Certificate(certificateDer(cert)));
    const signed = certs.every((cert) => {
      const issuer = certs.find((other) => cert.checkIssued(other));
      return !issuer || cert.verify(issuer.publicKey);
    });
    return signed ? unlocked : null;
  } catch (error) {
    if (error instanceof SigningCertificateError) throw error;
    return null;
  }
}

async function readP12(path: string, missingOk: true): Promise<Uint8Array | null>;
async function readP12(path: string): Promise<Uint8Array>;
async function readP12(path: string, missingOk = false): Promise<Uint8Array | null> {
  try {
    return await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (missingOk && code === 'ENOENT') return null;
    throw new SigningCertificateError(`cannot read the signing certificate at ${path}: ${code ?? (error as Error).message}`);
  }
}
