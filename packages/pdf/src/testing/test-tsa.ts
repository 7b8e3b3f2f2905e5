import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as asn1js from 'asn1js';
import forge from 'node-forge';
import * as pkijs from 'pkijs';

/**
 * A timestamp authority of the tests' own (RFC 3161 over HTTP on loopback), written here with pkijs and
 * node-forge so the code under test is checked against an independent implementation. `down` makes it answer
 * 503 like an authority that is out of service.
 */
export interface TestTsa {
  url: string;
  certificatePem: string;
  requests: number;
  down: boolean;
  /** The `Authorization` header of the last request, if any. */
  lastAuthorization: string | null;
  close(): Promise<void>;
}

const ab = (bytes: Uint8Array) => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;

function tsaCertificate(): { key: KeyObject; der: Buffer; pem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  cert.serialNumber = `01${randomBytes(8).toString('hex')}`;
  cert.validity.notBefore = new Date(Date.now() - 86_400_000);
  cert.validity.notAfter = new Date(Date.now() + 365 * 86_400_000);
  const name = [{ name: 'commonName', value: 'Formloom Test TSA' }, { name: 'organizationName', value: 'Test' }];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true },
    { name: 'extKeyUsage', timeStamping: true, critical: true },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString()), forge.md.sha256.create());
  const der = Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), 'binary');
  return { key: privateKey, der, pem: forge.pki.certificateToPem(cert) };
}

function respond(request: Buffer, key: KeyObject, der: Buffer, serial: number): Buffer {
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
  const signedData = new pkijs.SignedData({
    version: 3,
    digestAlgorithms: [new pkijs.AlgorithmIdentifier({ algorithmId: '2.16.840.1.101.3.4.2.1' })],
    encapContentInfo: new pkijs.EncapsulatedContentInfo({
      eContentType: '1.2.840.113549.1.9.16.1.4',
      eContent: new asn1js.OctetString({ valueHex: ab(infoDer) }),
    }),
    certificates: req.certReq ? [certificate] : [],
    signerInfos: [signerInfo],
  });
  const token = new pkijs.ContentInfo({ contentType: '1.2.840.113549.1.7.2', content: signedData.toSchema(true) });
  const response = new pkijs.TimeStampResp({ status: new pkijs.PKIStatusInfo({ status: 0 }), timeStampToken: token });
  return Buffer.from(response.toSchema().toBER(false));
}

export async function startTestTsa(): Promise<TestTsa> {
  const { key, der, pem } = tsaCertificate();
  let serial = 1;
  const state = { requests: 0, down: false, lastAuthorization: null as string | null };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      state.requests += 1;
      state.lastAuthorization = req.headers.authorization ?? null;
      if (state.down || req.headers['content-type'] !== 'application/timestamp-query') {
        res.writeHead(state.down ? 503 : 415).end();
        return;
      }
      try {
        const body = respond(Buffer.concat(chunks), key, der, serial++);
        res.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(body);
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/tsa`,
    certificatePem: pem,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }) as TestTsa;
}
