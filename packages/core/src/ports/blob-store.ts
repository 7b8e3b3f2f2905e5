/**
 * Stores files: uploads, audio, signed PDFs. Keys are relative paths of `/`-separated segments
 * (`uploads/<form id>/<file id>`); a key with an empty, `.` or `..` segment, or a NUL character, is
 * invalid and every method rejects it, so no key reaches outside the store. Segments may be long (an
 * upload's file name: 300 bytes of UTF-8 and more). A key names a blob, never a folder: do not store
 * both `a/b` and `a/b/c` (a store on a file system cannot hold both).
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
}
