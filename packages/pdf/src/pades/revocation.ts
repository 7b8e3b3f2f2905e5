import * as pkijs from 'pkijs';

/**
 * Revocation data for PAdES B-LT (EN 319 142-1, 5.4): every certificate of the seal's chain and of the
 * timestamp authority's chain that names a CRL distribution point gets that CRL in the DSS, so a validator
 * with the embedded data alone can check each of them. CRLs the renderer already holds (the instance CA's)
 * are used as they are; the others are fetched, each URL once per seal.
 */

/** Fetches the bytes at an http(s) URL (a CRL). Injectable so tests and hosts control the network. */
export type RevocationFetcher = (url: string) => Promise<Uint8Array>;

/** Raised when revocation data a certificate names cannot be had: B-LT is not sealed without it. */
export class RevocationError extends Error {
  override name = 'RevocationError';
}

const ab = (bytes: Uint8Array) => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;

/** The plain fetch of a CRL, with a time limit: `timeoutMs` per URL (default 15 s). */
export function httpRevocationFetcher(timeoutMs = 15_000): RevocationFetcher {
  return async (url) => {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  };
}

/** The http(s) URLs of a certificate's CRL distribution points (fullName URIs only). */
export function crlDistributionUrls(der: Uint8Array): string[] {
  const certificate = pkijs.Certificate.fromBER(ab(der));
  const extension = certificate.extensions?.find((e) => e.extnID === '2.5.29.31');
  if (!extension?.parsedValue) return [];
  const points = (extension.parsedValue as pkijs.CRLDistributionPoints).distributionPoints ?? [];
  const urls: string[] = [];
  for (const point of points) {
    const names = Array.isArray(point.distributionPoint) ? point.distributionPoint : [];
    for (const name of names) {
      if (name.type === 6 && typeof name.value === 'string' && /^https?:\/\//i.test(name.value)) urls.push(name.value);
    }
  }
  return urls;
}

const nameKey = (name: pkijs.RelativeDistinguishedNames) => Buffer.from(name.toSchema().toBER(false)).toString('hex');

/** The CRL among `crls` that `issuerDer` (a CA certificate) issued, by name; `null` when none. */
export function crlIssuedBy(crls: Uint8Array[], issuerDer: Uint8Array): Uint8Array | null {
  const subject = nameKey(pkijs.Certificate.fromBER(ab(issuerDer)).subject);
  return crls.find((der) => nameKey(pkijs.CertificateRevocationList.fromBER(ab(der)).issuer) === subject) ?? null;
}

function isSelfIssued(certificate: pkijs.Certificate): boolean {
  return nameKey(certificate.issuer) === nameKey(certificate.subject);
}

/**
 * The CRLs (DER) that cover `certificates`: `known` ones whose issuer is a certificate's issuer, else the CRL
 * its distribution point names, fetched and checked to be a CRL of that issuer. Roots (self-issued) need
 * none. Throws `RevocationError` when a named CRL cannot be fetched or is not one.
 */
export async function revocationData(certificates: Uint8Array[], known: Uint8Array[], fetcher: RevocationFetcher): Promise<Buffer[]> {
  const crls: Buffer[] = known.map((der) => Buffer.from(der));
  const issuersCovered = new Set(crls.map((der) => nameKey(pkijs.CertificateRevocationList.fromBER(ab(der)).issuer)));
  const fetched = new Map<string, Buffer>();
  for (const der of certificates) {
    const certificate = pkijs.Certificate.fromBER(ab(der));
    if (isSelfIssued(certificate) || issuersCovered.has(nameKey(certificate.issuer))) continue;
    for (const url of crlDistributionUrls(der)) {
      if (fetched.has(url)) continue;
      let body: Buffer;
      try {
        body = Buffer.from(await fetcher(url));
      } catch (error) {
        throw new RevocationError(`the CRL at ${url} cannot be fetched: ${(error as Error).message}`);
      }
      let crl: pkijs.CertificateRevocationList;
      try {
        crl = pkijs.CertificateRevocationList.fromBER(ab(body));
      } catch {
        throw new RevocationError(`${url} did not answer with a CRL`);
      }
      if (nameKey(crl.issuer) !== nameKey(certificate.issuer)) throw new RevocationError(`the CRL at ${url} is not one of the certificate's issuer`);
      fetched.set(url, body);
      crls.push(body);
      issuersCovered.add(nameKey(certificate.issuer));
      break;
    }
  }
  return crls;
}
