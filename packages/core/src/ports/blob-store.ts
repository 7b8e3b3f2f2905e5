/** Stores files: uploads, audio, signed PDFs. */
export interface BlobStore {
  /** Stores `data` under `key` (a relative path), replacing any previous blob. */
  put(key: string, data: Uint8Array, contentType: string): Promise<void>;
  /** The blob, or `null` when there is none. */
  get(key: string): Promise<{ data: Uint8Array; contentType: string } | null>;
  /** Deletes every blob whose key starts with `prefix`; returns how many. */
  deletePrefix(prefix: string): Promise<number>;
}
