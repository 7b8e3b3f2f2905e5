/**
 * Stores files: uploads, audio, signed PDFs. Keys are relative paths of `/`-separated segments
 * (`uploads/<form id>/<file id>`); a key with an empty, `.` or `..` segment, or a NUL character, is
 * invalid and every method rejects it, so no key reaches outside the store (`checkBlobKey` checks one). Segments
 * may be long (an upload's file name: 300 bytes of UTF-8 and more). A key names a blob, never a folder: do not
 * store both `a/b` and `a/b/c` (a store on a file system cannot hold both).
 *
 * Adapters: `@formloom/blob-store-file` (a local folder), `createPostgresBlobStore` of
 * `@formloom/storage-typeorm` (the database itself), `@formloom/blob-store-s3` (S3-compatible object storage).
 * Several instances of one deployment share blobs only through the last two (docs/scaling.md).
 */
export interface BlobStore {
  /**
   * Stores `data` under `key`, replacing any previous blob and its content type. Atomic: a concurrent
   * `get` sees the previous blob (or none) or the new one, never part of one; of concurrent puts of one
   * key, one whole blob stays.
   * @throws for an invalid key.
   */
  put(key: string, data: Uint8Array, contentType: string): Promise<void>;
  /**
   * The blob with the content type it was stored with, or `null` when there is none.
   * @throws for an invalid key.
   */
  get(key: string): Promise<{ data: Uint8Array; contentType: string } | null>;
  /**
   * Deletes every blob under `prefix`, a folder of keys ending with `/` (`uploads/<form id>/`): keys that
   * merely start with the same characters (`uploads/<form id>x/...`) stay.
   * @returns how many blobs were deleted (0 when there were none).
   * @throws for an empty or invalid prefix (nothing is deleted).
   */
  deletePrefix(prefix: string): Promise<number>;
  /**
   * Declared by a store that reads and writes blobs piece by piece, so a big blob is never whole in memory:
   * uploads and downloads then stream through it. Absent: use `put` and `get` (`putBlobStream` and
   * `openBlobStream` do either; an upload is then gathered whole in memory). Every adapter shipped with
   * Formloom declares it.
   */
  readonly streams?: BlobStreams;
}

/** A blob being read: its bytes come as the consumer pulls them. */
export interface BlobReadStream {
  contentType: string;
  /** The blob's size in bytes. */
  size: number;
  /**
   * The bytes, in order. The store reads ahead at most one piece of a few hundred KiB: a slow consumer slows
   * the reads (back-pressure). Ending the loop early (`break`, a client gone) releases what the read holds.
   * Throws part-way when the blob is replaced or deleted while it is read and the store cannot keep the old
   * bytes; it never yields bytes of two blobs.
   */
  body: AsyncIterable<Uint8Array>;
}

/** Streaming reads and writes of a `BlobStore` (its `streams` capability). */
export interface BlobStreams {
  /**
   * Stores the bytes `source` yields under `key`, as `put` does (atomic, replacing any previous blob), pulling
   * the next piece only when the previous one is on its way to storage: memory use does not grow with the size.
   * When `source` throws, nothing is stored, the previous blob stays, and the error is rethrown.
   * @returns the stored size in bytes.
   * @throws for an invalid key (before `source` is read).
   */
  putStream(key: string, source: AsyncIterable<Uint8Array>, contentType: string): Promise<{ size: number }>;
  /**
   * The blob as a stream, or `null` when there is none.
   * @throws for an invalid key.
   */
  getStream(key: string): Promise<BlobReadStream | null>;
}

/**
 * Throws unless `key` is a valid blob key (see `BlobStore`); for a folder prefix (`deletePrefix`) pass
 * `{ prefix: true }`: it must end with `/` and be valid without it.
 */
export function checkBlobKey(key: string, options: { prefix?: boolean } = {}): void {
  const body = options.prefix ? (key.endsWith('/') ? key.slice(0, -1) : '') : key;
  const segments = body.split('/');
  if (!body || segments.some((s) => !s || s === '.' || s === '..' || s.includes('\u0000'))) {
    throw new Error(`Invalid blob ${options.prefix ? 'prefix' : 'key'}: ${JSON.stringify(key)}`);
  }
}

async function* single(data: Uint8Array) {
  yield data;
}

/**
 * Reads a blob as a stream whatever the store: through `streams.getStream` when the store declares it, else
 * `get` (the whole blob in memory, yielded as one piece). `null` when there is none.
 */
export async function openBlobStream(store: BlobStore, key: string): Promise<BlobReadStream | null> {
  if (store.streams) return store.streams.getStream(key);
  const blob = await store.get(key);
  return blob && { contentType: blob.contentType, size: blob.data.byteLength, body: single(blob.data) };
}

/**
 * Stores what `source` yields whatever the store: through `streams.putStream` when the store declares it (memory
 * does not grow with the size), else gathered whole and given to `put`. As `putStream`: when `source` throws,
 * nothing is stored and the error is rethrown.
 * @returns the stored size in bytes.
 */
export async function putBlobStream(store: BlobStore, key: string, source: AsyncIterable<Uint8Array>, contentType: string): Promise<{ size: number }> {
  if (store.streams) return store.streams.putStream(key, source, contentType);
  checkBlobKey(key);
  const pieces: Uint8Array[] = [];
  let size = 0;
  for await (const piece of source) {
    pieces.push(piece.slice()); // a copy: the source may reuse its buffer once it resumes
    size += piece.byteLength;
  }
  const data = new Uint8Array(size);
  let at = 0;
  for (const piece of pieces) {
    data.set(piece, at);
    at += piece.byteLength;
  }
  await store.put(key, data, contentType);
  return { size };
}
