import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';

/*
 * `@formloom/blob-store-s3/testing`: a local S3 server for tests (this package's and a host's: needs the optional
 * peer dependency `s3rver`, as a dev dependency): s3rver (the S3 protocol over HTTP: signatures, XML, multipart uploads) started
 * in this process. Its own store writes objects into the final file in place and answers before the write has
 * reached the disk, and keeps a key as a file name (255 bytes at most): it would fail S3's guarantees, not
 * ours. So objects live in memory here, each replaced whole, as S3 does; buckets stay s3rver's folders.
 * Two gaps of s3rver are filled: AbortMultipartUpload (it answers 405), and listings longer than max-keys
 * (its continuation tokens use DES, which Node's OpenSSL 3 no longer has): they are cut at max-keys without
 * a token, which the store under test does not use.
 */

/* eslint-disable @typescript-eslint/no-require-imports */
const S3rver = require('s3rver') as new (options: Record<string, unknown>) => { run(): Promise<{ port: number }>; close(): Promise<void>; store: unknown; context: { store: unknown }; middleware: unknown[] };
const FilesystemStore = require('s3rver/lib/stores/filesystem') as new (dir: string) => object;
const S3Object = require('s3rver/lib/models/object') as new (bucket: string, key: string, content: unknown, metadata: Record<string, unknown>) => Record<string, any>;
const ALLOWED_METADATA = (S3Object as unknown as { ALLOWED_METADATA: string[] }).ALLOWED_METADATA;

interface Stored {
  data: Buffer;
  metadata: Record<string, unknown>;
}

const collect = async (content: unknown): Promise<Buffer> => {
  if (Buffer.isBuffer(content)) return content;
  const parts: Buffer[] = [];
  for await (const part of content as AsyncIterable<Buffer>) parts.push(part);
  return Buffer.concat(parts);
};

const md5 = (data: Buffer) => createHash('md5').update(data).digest('hex');

class MemoryObjectStore extends FilesystemStore {
  private readonly objects = new Map<string, Stored>();
  private readonly uploads = new Map<string, { key: string; metadata: Record<string, unknown>; parts: Map<number, Buffer> }>();
  private readonly id = (bucket: string, key: string) => `${bucket}\u0000${key}`;

  private meta(stored: Stored) {
    return { ...stored.metadata, etag: JSON.stringify(md5(stored.data)), 'content-length': stored.data.length };
  }

  async existsObject(bucket: string, key: string) {
    return this.objects.has(this.id(bucket, key));
  }

  async getObject(bucket: string, key: string, options?: { start?: number; end?: number }) {
    const stored = this.objects.get(this.id(bucket, key));
    if (!stored) return null;
    const last = Math.max(0, stored.data.length - 1);
    const range = { start: options?.start ?? 0, end: Math.min(options?.end ?? Infinity, last) };
    const ranged = options && (options.start !== undefined || options.end);
    if (range.start < 0 || range.end < range.start) {
      const object = new S3Object(bucket, key, null, this.meta(stored));
      if (ranged) object.range = range;
      return object;
    }
    // Pieces of 64 KiB, as a file read would give them.
    const slice = stored.data.subarray(range.start, range.end + 1);
    const pieces = Array.from({ length: Math.ceil(slice.length / 65536) }, (_, i) => slice.subarray(i * 65536, (i + 1) * 65536));
    const object = new S3Object(bucket, key, Readable.from(pieces), this.meta(stored));
    if (ranged) object.range = range;
    return object;
  }

  async putObject(object: { bucket: string; key: string; content: unknown; metadata: Record<string, unknown> }) {
    const data = await collect(object.content);
    const metadata = Object.fromEntries(Object.entries(object.metadata).filter(([k]) => ALLOWED_METADATA.includes(k) || k.startsWith('x-amz-meta-')));
    metadata['last-modified'] = new Date().toUTCString();
    this.objects.set(this.id(object.bucket, object.key), { data, metadata });
    return { size: data.length, md5: md5(data) };
  }

  async deleteObject(bucket: string, key: string) {
    this.objects.delete(this.id(bucket, key));
  }

  async copyObject(): Promise<never> {
    throw new Error('copyObject: not used by these tests');
  }

  async listObjects(bucket: string, options: { delimiter?: string; startAfter?: string; prefix?: string; maxKeys?: number }) {
    const { delimiter = '', startAfter = '', prefix = '', maxKeys = Infinity } = options;
    const keys = [...this.objects.keys()]
      .filter((id) => id.startsWith(`${bucket}\u0000`))
      .map((id) => id.slice(bucket.length + 1))
      .filter((k) => k > startAfter && k.startsWith(prefix))
      .sort();
    const commonPrefixes = new Set<string>();
    const objects: unknown[] = [];
    for (const key of keys) {
      const idx = delimiter ? key.slice(prefix.length).indexOf(delimiter) : -1;
      if (idx !== -1) {
        commonPrefixes.add(key.slice(0, prefix.length + idx + 1));
        continue;
      }
      if (objects.length >= maxKeys) break;
      objects.push(new S3Object(bucket, key, null, this.meta(this.objects.get(this.id(bucket, key))!)));
    }
    return { objects, commonPrefixes: [...commonPrefixes].sort(), isTruncated: false };
  }

  async initiateUpload(_bucket: string, key: string, uploadId: string, metadata: Record<string, unknown>) {
    this.uploads.set(uploadId, { key, metadata, parts: new Map() });
  }

  async putPart(_bucket: string, uploadId: string, partNumber: string, content: unknown) {
    const upload = this.uploads.get(uploadId);
    if (!upload) throw Object.assign(new Error('no such upload'), { code: 'ENOENT' });
    const data = await collect(content);
    upload.parts.set(Number(partNumber), data);
    return { size: data.length, md5: md5(data) };
  }

  async putObjectMultipart(bucket: string, uploadId: string, parts: Array<{ number: number }>) {
    const upload = this.uploads.get(uploadId);
    if (!upload) throw Object.assign(new Error('no such upload'), { code: 'ENOENT' });
    const data = Buffer.concat([...parts].sort((a, b) => a.number - b.number).map((p) => upload.parts.get(p.number) ?? Buffer.alloc(0)));
    this.uploads.delete(uploadId);
    return this.putObject({ bucket, key: upload.key, content: data, metadata: upload.metadata });
  }

  abortUpload(uploadId: string): boolean {
    return this.uploads.delete(uploadId);
  }

  /** Multipart uploads begun and neither completed nor aborted, of keys under `prefix`. */
  openUploads(prefix: string): number {
    return [...this.uploads.values()].filter((u) => u.key.startsWith(prefix)).length;
  }

  /** The stored objects of `bucket` under `prefix`. */
  list(bucket: string, prefix: string): Array<{ key: string; size: number }> {
    return [...this.objects.entries()]
      .filter(([id]) => id.startsWith(`${bucket}\u0000${prefix}`))
      .map(([id, o]) => ({ key: id.slice(bucket.length + 1), size: o.data.length }))
      .sort((a, b) => (a.key < b.key ? -1 : 1));
  }
}

export interface TestS3Server {
  endpoint: string;
  bucket: string;
  /** The keys of the bucket's objects under `prefix`, sorted, with their sizes in bytes. */
  objects(prefix?: string): Array<{ key: string; size: number }>;
  /** Multipart uploads begun and neither completed nor aborted, of keys under `prefix`. */
  openUploads(prefix: string): number;
  close(): Promise<void>;
}

/** s3rver on a free port of 127.0.0.1 with one bucket; credentials are s3rver's `S3RVER`/`S3RVER`. */
export async function startS3Server(bucket = 'formloom-test'): Promise<TestS3Server> {
  const dir = await mkdtemp(join(tmpdir(), 'formloom-s3rver-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: bucket }] });
  const store = new MemoryObjectStore(dir);
  server.store = server.context.store = store;
  // AbortMultipartUpload (DELETE /<bucket>/<key>?uploadId=...), ahead of s3rver's routes.
  server.middleware.unshift(async (ctx: { method: string; query: Record<string, string>; status: number }, next: () => Promise<void>) => {
    if (ctx.method !== 'DELETE' || !ctx.query.uploadId) return next();
    ctx.status = store.abortUpload(ctx.query.uploadId) ? 204 : 404;
  });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    openUploads: (prefix) => store.openUploads(prefix),
    objects: (prefix = '') => store.list(bucket, prefix),
    close: async () => {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
