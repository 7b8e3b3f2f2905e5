import { Readable } from 'node:stream';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { checkBlobKey, type BlobReadStream, type BlobStore } from '@formloom/core';

export interface S3BlobStoreOptions {
  /** The bucket (`FORMLOOM_S3_BUCKET`); it must exist. */
  bucket: string;
  /** An S3-compatible service's URL (`FORMLOOM_S3_ENDPOINT`); absent: AWS S3 of `region`. */
  endpoint?: string;
  /** `FORMLOOM_S3_REGION` (default `us-east-1`, which most S3-compatible services accept). */
  region?: string;
  /** `FORMLOOM_S3_ACCESS_KEY_ID` and `FORMLOOM_S3_SECRET_ACCESS_KEY`; absent: the AWS SDK's own lookup (environment, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Bucket in the path rather than the host name (`FORMLOOM_S3_FORCE_PATH_STYLE=1`): most self-run services need it. */
  forcePathStyle?: boolean;
  /** Prepended to every key (e.g. `formloom/`), to share a bucket with other data. */
  prefix?: string;
  /** Size of a multipart upload's parts (default 8 MiB, at least 5 MiB): a streamed write holds about one in memory. */
  partBytes?: number;
  /** A client of the host's own; the connection options above are then ignored. */
  client?: S3Client;
}

/** The S3 blob store, with a start-up check of its bucket. */
export interface S3BlobStore extends BlobStore {
  /** Resolves when the bucket answers; else throws a message naming the bucket and what to check. */
  verify(): Promise<void>;
  /** Releases the client's sockets (not a client the host passed in). */
  close(): void;
}

const MIN_PART_BYTES = 5 * 1024 * 1024;
const DEFAULT_PART_BYTES = 8 * 1024 * 1024;
/** DeleteObjects takes at most 1000 keys, as a page of ListObjectsV2 holds. */
const DELETE_BATCH = 1000;

const isMissing = (e: unknown) => {
  const err = e as { name?: string; $metadata?: { httpStatusCode?: number } };
  return err?.name === 'NoSuchKey' || err?.name === 'NotFound' || err?.$metadata?.httpStatusCode === 404;
};

/**
 * Blobs as objects of an S3-compatible bucket (AWS S3, MinIO, Ceph, R2, ...): every instance of a deployment
 * pointed at the bucket sees every blob (docs/scaling.md). A PUT replaces an object whole, so readers see the old
 * blob or the new one. Declares `streams`: a streamed write goes up as a multipart upload of `partBytes` parts
 * (one part in memory; a small stream is one PUT) and a streamed read is the GET's response body, read as the
 * consumer pulls. A failed multipart write is aborted; a bucket lifecycle rule that removes incomplete uploads
 * after a day cleans up after a crash. Checksums are sent only where S3 requires them, which self-run
 * S3-compatible services accept.
 */
export function createS3BlobStore(options: S3BlobStoreOptions): S3BlobStore {
  if (!options.bucket) throw new Error('createS3BlobStore: a bucket is needed (FORMLOOM_S3_BUCKET)');
  const partBytes = options.partBytes ?? DEFAULT_PART_BYTES;
  if (!(partBytes >= MIN_PART_BYTES)) throw new Error(`partBytes: S3 parts are at least ${MIN_PART_BYTES} bytes, got ${partBytes}`);
  const config: S3ClientConfig = {
    region: options.region ?? 'us-east-1',
    forcePathStyle: options.forcePathStyle ?? false,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.credentials ? { credentials: options.credentials } : {}),
  };
  const client = options.client ?? new S3Client(config);
  const Bucket = options.bucket;
  const base = options.prefix ?? '';
  const objectKey = (key: string) => `${base}${key}`;

  const getStream = async (key: string): Promise<BlobReadStream | null> => {
    checkBlobKey(key);
    try {
      const res = await client.send(new GetObjectCommand({ Bucket, Key: objectKey(key) }));
      const body = res.Body as Readable | undefined;
      return {
        contentType: res.ContentType ?? 'application/octet-stream',
        size: res.ContentLength ?? 0,
        // The socket's flow control is the back-pressure; leaving the loop early destroys the response.
        body: body ?? Readable.from([]),
      };
    } catch (e) {
      if (isMissing(e)) return null;
      throw e;
    }
  };

  return {
    streams: {
      async putStream(key, source, contentType) {
        checkBlobKey(key);
        let size = 0;
        let sourceError: { error: unknown } | undefined;
        const counted = Readable.from(
          (async function* () {
            try {
              for await (const piece of source) {
                size += piece.byteLength;
                yield piece;
              }
            } catch (error) {
              sourceError = { error };
              throw error;
            }
          })(),
          { objectMode: false, highWaterMark: 64 * 1024 },
        );
        // queueSize 1: one part in flight, the next read only once it is sent.
        const upload = new Upload({ client, params: { Bucket, Key: objectKey(key), Body: counted, ContentType: contentType }, partSize: partBytes, queueSize: 1 });
        try {
          await upload.done();
        } catch (e) {
          // The source's own failure, not what aborting the multipart upload may have met after it.
          throw sourceError ? sourceError.error : e;
        } finally {
          counted.destroy();
        }
        return { size };
      },
      getStream,
    },
    async put(key, data, contentType) {
      checkBlobKey(key);
      await client.send(new PutObjectCommand({ Bucket, Key: objectKey(key), Body: data, ContentType: contentType, ContentLength: data.byteLength }));
    },
    async get(key) {
      const read = await getStream(key);
      if (!read) return null;
      const parts: Uint8Array[] = [];
      for await (const part of read.body) parts.push(part);
      const data = Buffer.concat(parts);
      return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), contentType: read.contentType };
    },
    async deletePrefix(prefix) {
      checkBlobKey(prefix, { prefix: true });
      let deleted = 0;
      // Deleted objects leave the listing: the first page again until there is none (no continuation token,
      // which some S3-compatible services do not keep across deletions).
      for (;;) {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: objectKey(prefix), MaxKeys: DELETE_BATCH }));
        const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
        if (keys.length === 0) return deleted;
        const res = await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys, Quiet: true } }));
        if (res.Errors?.length) {
          const first = res.Errors[0]!;
          throw new Error(`S3 refused to delete ${res.Errors.length} object(s) under ${JSON.stringify(prefix)}: ${first.Key}: ${first.Code} ${first.Message ?? ''}`.trim());
        }
        deleted += keys.length;
      }
    },
    async verify() {
      try {
        await client.send(new HeadBucketCommand({ Bucket }));
      } catch (e) {
        const status = (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        const why = status === 404 ? 'it does not exist' : status === 403 ? 'access was denied (check FORMLOOM_S3_ACCESS_KEY_ID and FORMLOOM_S3_SECRET_ACCESS_KEY)' : (e as Error).message || String(e);
        throw new Error(
          `The S3 bucket ${JSON.stringify(Bucket)}${options.endpoint ? ` at ${options.endpoint}` : ''} cannot be used: ${why}. ` +
            'Check FORMLOOM_S3_BUCKET, FORMLOOM_S3_ENDPOINT, FORMLOOM_S3_REGION and FORMLOOM_S3_FORCE_PATH_STYLE (docs/scaling.md).',
          { cause: e },
        );
      }
    },
    close() {
      if (!options.client) client.destroy();
    },
  };
}
