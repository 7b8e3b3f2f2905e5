import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as asn1js from 'asn1js';
import forge from 'node-forge';
import * as pkijs from 'pkijs';
import { emptyCrl } from '../instance-ca';

/**
 * A timestamp authority of the tests' own (RFC 3161 over HTTP on loopback), written here with pkijs and
 * node-forge so the code under test is checked against an independent implementation. Like a public TSA, its
 * certificate is issued by a root of its own and names a CRL distribution point, served by the same server
 * (`GET /root.crl`), so PAdES B-LT has revocation data to fetch. `down` makes it answer 503 like an authority
 * that is out of service.
 */
export interface TestTsa {
  url: string;
  /** The certificate to trust for its tokens: the TSA's root (PEM). */
  certificatePem: string;
  /** The TSA's own certificate (DER), which its tokens carry with the root. */
  leafCertificate: Buffer;
  /** The root's CRL (DER) and where the TSA certificate says it is. */
  crl: Buffer;
  crlUrl: string;
  /** How often the CRL was fetched. */
  crlRequests: number;
  requests: number;
  down: boolean;
  /** The `Authorization` header of the last request, if any. */
  lastAuthorization: string | null;
  close(): Promise<void>;
}

const ab = (bytes: Uint8Array) => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;

function forgeKey(key: KeyObject): forge.pki.rsa.PrivateKey {
  return forge.pki.privateKeyFromPem(key.export({ type: 'pkcs1', format: 'pem' }).toString());
}

function derOf(cert: forge.pki.Certificate): Buffer {
  return Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), 'binary');
}

/** A root (self-signed) and the TSA's certificate under it, naming `crlUrl`; the root's empty CRL. */
function tsaCertificates(crlUrl: string): { key: KeyObject; leaf: Buffer; root: Buffer; rootPem: string; crl: Buffer } {
  const rootKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const leafKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const rootForge = forgeKey(rootKey);
  const leafForge = forgeKey(leafKey);
  const notBefore = new Date(Date.now() - 86_400_000);
  const notAfter = new Date(Date.now() + 365 * 86_400_000);
  const rootName = [{ name: 'commonName', value: 'Formloom Test TSA Root' }, { name: 'organizationName', value: 'Test' }];
  const root = forge.pki.createCertificate();
  root.publicKey = forge.pki.setRsaPublicKey(rootForge.n, rootForge.e);
  root.serialNumber = `01${randomBytes(8).toString('hex')}`;
  root.validity.notBefore = notBefore;
  root.validity.notAfter = notAfter;
  root.setSubject(rootName);
  root.setIssuer(rootName);
  root.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  root.sign(rootForge, forge.md.sha256.create());
  const keyId = root.generateSubjectKeyIdentifier().getBytes();
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(leafForge.n, leafForge.e);
  cert.serialNumber = `01${randomBytes(8).toString('hex')}`;
  cert.validity.notBefore = notBefore;
  cert.validity.notAfter = notAfter;
  cert.setSubject([{ name: 'commonName', value: 'Formloom Test TSA' }, { name: 'organizationName', value: 'Test' }]);
  cert.setIssuer(rootName);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true },
    { name: 'extKeyUsage', timeStamping: true, critical: true },
    { name: 'authorityKeyIdentifier', keyIdentifier: keyId },
    { name: 'cRLDistributionPoints', altNames: [{ type: 6, value: crlUrl }] },
  ]);
  cert.sign(rootForge, forge.md.sha256.create());
  const rootDer = derOf(root);
  return { key: leafKey, leaf: derOf(cert), root: rootDer, rootPem: forge.pki.certificateToPem(root), crl: emptyCrl(rootDer, rootKey, keyId, notBefore, notAfter) };
}

function respond(request: Buffer, key: KeyObject, der: Buffer, root: Buffer, serial: number): Buffer {
  const req = pkijs.TimeStampReq.fromBER(ab(request));
  const info = new pkijs.TSTInfo({
    version: 1,
    policy: '1.3.6.1.4.1.99999.1',
    messageImprint: req.messageImprint,
    serialNumber: new asn1js.Integer({ value: serial }),
    genTime: new Date(),
    nonce: req.nonce,
  });
  const infoDer = Buffer.from(info.toSchema().toBER(false));
  const certificate = pkijs.Certificate.fromBER(ab(der));
  const essCertIdV2 = new asn1js.Sequence({
    value: [
      new asn1js.Sequence({
        value: [new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: ab(createHash('sha256').update(der).digest()) })] })],
      }),
    ],
  });
  const signedAttrs = new pkijs.SignedAndUnsignedAttributes({
    type: 0,
    attributes: [
      new pkijs.Attribute({ type: '1.2.840.113549.1.9.3', values: [new asn1js.ObjectIdentifier({ value: '1.2.840.113549.1.9.16.1.4' })] }),
      new pkijs.Attribute({ type: '1.2.840.113549.1.9.4', values: [new asn1js.OctetString({ valueHex: ab(createHash('sha256').update(infoDer).digest()) })] }),
      new pkijs.Attribute({ type: '1.2.840.113549.1.9.16.2.47', values: [essCertIdV2] }),
    ],
  });
  const toSign = Buffer.from(signedAttrs.toSchema().toBER(false));
  toSign[0] = 0x31;
  const signerInfo = new pkijs.SignerInfo({
    version: 1,
    sid: new pkijs.IssuerAndSerialNumber({ issuer: certificate.issuer, serialNumber: certificate.serialNumber }),
    digestAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: '2.16.840.1.101.3.4.2.1' }),
    signedAttrs,
    signatureAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: '1.2.840.113549.1.1.11', algorithmParams: new asn1js.Null() }),
    signature: new asn1js.OctetString({ valueHex: ab(sign('sha256', toSign, key)) }),
  });
  const encapContentInfo = new pkijs.EncapsulatedContentInfo({ eContentType: '1.2.840.113549.1.9.16.1.4' });
  // Set after construction: pkijs's constructor turns eContent into a constructed (BER) OCTET STRING, which a
  // real TSA never sends and DER-only readers (asn1crypto, so pyHanko) refuse.
  encapContentInfo.eContent = new asn1js.OctetString({ valueHex: ab(infoDer) });
  const signedData = new pkijs.SignedData({
    version: 3,
    digestAlgorithms: [new pkijs.AlgorithmIdentifier({ algorithmId: '2.16.840.1.101.3.4.2.1' })],
    encapContentInfo,
    certificates: req.certReq ? [certificate, pkijs.Certificate.fromBER(ab(root))] : [],
    signerInfos: [signerInfo],
  });
  const token = new pkijs.ContentInfo({ contentType: '1.2.840.113549.1.7.2', content: signedData.toSchema(true) });
  const response = new pkijs.TimeStampResp({ status: new pkijs.PKIStatusInfo({ status: 0 }), timeStampToken: token });
  return Buffer.from(response.toSchema().toBER(false));
}

export async function startTestTsa(): Promise<TestTsa> {
  let serial = 1;
  let issued: ReturnType<typeof tsaCertificates> | null = null;
  const state = { requests: 0, crlRequests: 0, down: false, lastAuthorization: null as string | null };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'GET' && req.url === '/root.crl') {
        state.crlRequests += 1;
        res.writeHead(200, { 'content-type': 'application/pkix-crl' }).end(issued!.crl);
        return;
      }
      state.requests += 1;
      state.lastAuthorization = req.headers.authorization ?? null;
      if (state.down || req.headers['content-type'] !== 'application/timestamp-query') {
        res.writeHead(state.down ? 503 : 415).end();
        return;
      }
      try {
        const body = respond(Buffer.concat(chunks), issued!.key, issued!.leaf, issued!.root, serial++);
        res.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(body);
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const crlUrl = `http://127.0.0.1:${port}/root.crl`;
  issued = tsaCertificates(crlUrl);
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/tsa`,
    certificatePem: issued.rootPem,
    leafCertificate: issued.leaf,
    crl: issued.crl,
    crlUrl,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }) as TestTsa;
}
