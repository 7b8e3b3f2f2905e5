import { createHash, randomBytes } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { OID } from './cms';

/** The timestamp authority could not give a usable token: down, refused, or answered something else. */
export class TimestampError extends Error {
  override name = 'TimestampError';
}

/** Fetches RFC 3161 tokens from one authority. */
export interface TimestampClient {
  /** A TimeStampToken (ContentInfo DER) over the SHA-256 of `data`. */
  timestamp(data: Uint8Array): Promise<Buffer>;
  readonly url: string;
}

export interface TimestampClientOptions {
  url: string;
  /** Per request; default 15 s. */
  timeoutMs?: number;
}

function arrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

/**
 * An RFC 3161 client over HTTP (`application/timestamp-query`). The answer is checked before use: status
 * granted, a token whose TSTInfo carries our SHA-256 imprint and our nonce. Any failure is a `TimestampError`,
 * so the seal job fails and is retried rather than sealing without the timestamp the operator asked for.
 */
export function createTimestampClient(options: TimestampClientOptions): TimestampClient {
  const timeoutMs = options.timeoutMs ?? 15_000;
  // Credentials in the URL (a TSA behind basic auth) go into a header: fetch refuses them in the URL, and the
  // messages, which reach the logs, must not carry them.
  const target = new URL(options.url);
  const auth = target.username ? `Basic ${Buffer.from(`${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`).toString('base64')}` : null;
  target.username = '';
  target.password = '';
  const shown = target.toString();
  return {
    url: shown,
    async timestamp(data) {
      const imprint = createHash('sha256').update(data).digest();
      const nonce = randomBytes(8);
      // A positive INTEGER in minimal DER: a first byte of 0x40-0x7f (0x00 there can be illegal padding, refused by
      // OpenSSL when it reads the token's TSTInfo; one nonce in 512 had it).
      nonce[0] = (nonce[0]! & 0x3f) | 0x40;
      const request = new pkijs.TimeStampReq({
        version: 1,
        messageImprint: new pkijs.MessageImprint({
          hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 }),
          hashedMessage: new asn1js.OctetString({ valueHex: arrayBuffer(imprint) }),
        }),
        nonce: new asn1js.Integer({ valueHex: arrayBuffer(nonce) }),
        certReq: true,
      });
      let body: Buffer;
      try {
        const response = await fetch(shown, {
          method: 'POST',
          headers: { 'content-type': 'application/timestamp-query', accept: 'application/timestamp-reply', ...(auth ? { authorization: auth } : {}) },
          body: Buffer.from(request.toSchema().toBER(false)),
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (!response.ok) throw new TimestampError(`the timestamp authority ${shown} answered HTTP ${response.status}`);
        body = Buffer.from(await response.arrayBuffer());
      } catch (error) {
        if (error instanceof TimestampError) throw error;
        throw new TimestampError(`the timestamp authority ${shown} cannot be reached: ${(error as Error).message}`);
      }
      return checkResponse(body, imprint, nonce, shown);
    },
  };
}

function checkResponse(body: Buffer, imprint: Buffer, nonce: Buffer, url: string): Buffer {
  let response: pkijs.TimeStampResp;
  try {
    response = pkijs.TimeStampResp.fromBER(arrayBuffer(body));
  } catch {
    throw new TimestampError(`the timestamp authority ${url} did not answer with an RFC 3161 response`);
  }
  const status = response.status.status;
  if (status !== 0 && status !== 1) {
    const text = response.status.statusStrings?.map((s) => s.valueBlock.value).join('; ') ?? '';
    throw new TimestampError(`the timestamp authority ${url} refused the request (status ${status}${text ? `: ${text}` : ''})`);
  }
  if (!response.timeStampToken) throw new TimestampError(`the timestamp authority ${url} granted no token`);
  const info = tstInfoOf(response.timeStampToken);
  const hashed = Buffer.from(info.messageImprint.hashedMessage.valueBlock.valueHexView);
  if (info.messageImprint.hashAlgorithm.algorithmId !== OID.sha256 || !hashed.equals(imprint)) {
    throw new TimestampError(`the timestamp authority ${url} stamped a different message imprint`);
  }
  const gotNonce = info.nonce ? Buffer.from(info.nonce.valueBlock.valueHexView) : null;
  if (!gotNonce || BigInt(`0x${gotNonce.toString('hex') || '0'}`) !== BigInt(`0x${nonce.toString('hex')}`)) {
    throw new TimestampError(`the timestamp authority ${url} answered with another nonce`);
  }
  return Buffer.from(response.timeStampToken.toSchema().toBER(false));
}

/** The TSTInfo inside a token (ContentInfo -> SignedData -> eContent). */
export function tstInfoOf(token: pkijs.ContentInfo): pkijs.TSTInfo {
  const signedData = new pkijs.SignedData({ schema: token.content });
  const content = signedData.encapContentInfo.eContent;
  if (signedData.encapContentInfo.eContentType !== OID.tstInfo || !content) throw new TimestampError('the token carries no TSTInfo');
  return pkijs.TSTInfo.fromBER(content.getValue());
}

/** The certificates a token carries (DER), for the DSS. */
export function tokenCertificates(token: Uint8Array): Buffer[] {
  const info = pkijs.ContentInfo.fromBER(arrayBuffer(token));
  const signedData = new pkijs.SignedData({ schema: info.content });
  return (signedData.certificates ?? [])
    .filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate)
    .map((c) => Buffer.from(c.toSchema().toBER(false)));
}
