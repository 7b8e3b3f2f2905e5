import type { UploadRecord } from '../../domain/types';

/**
 * Respondents' uploaded files as rows (the bytes are in the blob store): a form's quota counts them, and
 * an upload no response took is swept after a while.
 */
export interface UploadRepository {
  /**
   * Records an upload.
   * @throws `FormloomError` CONFLICT when the id or the key is taken; nothing is written.
   */
  insert(upload: UploadRecord): Promise<void>;
  /**
   * Sets an upload's `size` (a streamed upload is recorded before its bytes are counted); an unknown id
   * changes nothing.
   */
  setSize(id: string, size: number): Promise<void>;
  /** Deletes one upload's row; an unknown id changes nothing. */
  delete(id: string): Promise<void>;
  /** Deletes the form's uploads that are answers of these responses and returns them (the caller deletes their blobs). */
  takeByResponses(formId: string, responseIds: string[]): Promise<UploadRecord[]>;
  /** Bytes of all the form's uploads (attached or not); 0 when it has none. */
  totalSize(formId: string): Promise<number>;
  /**
   * Marks the form's unattached uploads with these keys as answers of `responseId` (another form's uploads,
   * and uploads already attached, stay as they are).
   * @returns how many were attached.
   */
  attach(formId: string, keys: string[], responseId: string): Promise<number>;
  /**
   * Deletes up to `limit` uploads still unattached that were created before `before` and returns them, in
   * one statement: an upload attached meanwhile is never taken, and of concurrent sweeps each upload is
   * taken by one.
   */
  takeUnattached(before: string, limit: number): Promise<UploadRecord[]>;
}
