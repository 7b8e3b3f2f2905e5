import { inject, injectable } from 'tsyringe';
import { badRequest, forbidden, FormloomError, isFormloomError, notFound, unauthorized } from '../errors';
import type { Answer, FormRecord, OutboxItem, Principal, Question } from '../domain/types';
import type { Clock } from '../ports/clock';
import { openBlobStream, putBlobStream, type BlobReadStream, type BlobStore } from '../ports/blob-store';
import type { IdGenerator } from '../ports/id-generator';
import type { Storage } from '../ports/storage';
import type { FormloomConfig } from '../config';
import { TOKENS } from '../tokens';
import type { OutboxHandler, OutboxOutcome } from '../ports/outbox-handler';
import { authorizeForm } from '../forms/form-access';
import { FileLinks } from './file-links';

/** Types accepted when a question does not narrow them: documents and images, never HTML or SVG. */
export const DEFAULT_UPLOAD_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
  'text/plain',
  'text/csv',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/zip',
];
const NEVER = new Set(['text/html', 'image/svg+xml', 'application/xhtml+xml', 'text/javascript', 'application/javascript']);

export interface UploadPolicy {
  form: FormRecord;
  /** The file_upload question of the published version the file is for. */
  questionId: string;
  maxBytes: number;
  allowedTypes: string[];
}

const typeAllowed = (type: string, allowed: string[]) =>
  !NEVER.has(type) && allowed.some((a) => a === type || (a.endsWith('/*') && type.startsWith(a.slice(0, -1))));

/** A file name safe to use as the last path segment of a key (and to show back). */
export function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base.replace(/[\u0000-\u001f\u007f"<>|:*?]/g, '_').replace(/^\.+/, '').slice(0, 200);
  return cleaned || 'file';
}

/** A stored upload's blob key; a name of `.` or `..` (as `%2e%2e` decodes) is no file: blob stores refuse such keys outright. */
const UPLOAD_KEY = /^uploads\/([A-Za-z0-9_]+)\/[0-9a-f]{32}\/(?!\.\.?$)[^/]+$/;

const UPLOAD_PATH = /\/public\/uploads\/([A-Za-z0-9_]+)\/([0-9a-f]{32})\/([^/?#]+)$/;

/** The blob keys of this form's uploads named by answers (`{url, name}` values). */
export function uploadKeysIn(formId: string, answers: Answer[]): string[] {
  const keys: string[] = [];
  for (const a of answers) {
    const url = (a.value as { url?: unknown } | null)?.url;
    const m = typeof url === 'string' ? UPLOAD_PATH.exec(url) : null;
    if (!m || m[1] !== formId) continue;
    try {
      keys.push(`uploads/${m[1]}/${m[2]}/${decodeURIComponent(m[3]!)}`);
    } catch {
      // A malformed escape names no stored file.
    }
  }
  return keys;
}

/**
 * Respondents' file uploads for `file_upload` questions, stored through the blob-store port. Each upload
 * names a question of the published version and obeys its limits; a form's uploads share a quota; an
 * upload no response names within `uploadUnattachedMs` is swept (docs/security.md).
 */
@injectable()
export class UploadService {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(TOKENS.BlobStore) private readonly blobs: BlobStore,
    @inject(TOKENS.Config) private readonly config: FormloomConfig,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(FileLinks) readonly links: FileLinks,
  ) {}

  /** The limits for an upload to one file_upload question of a published form. */
  async policy(slug: string, questionId?: string): Promise<UploadPolicy> {
    const form = await this.storage.forms.findBySlug(slug);
    if (!form || !form.published || !form.published_version_id) throw notFound('Form');
    const version = await this.storage.versions.findById(form.published_version_id);
    const questions = ((version?.snapshot.questions ?? []) as Question[]).filter((q) => q.type === 'file_upload');
    if (!questions.length) throw badRequest('This form has no file upload question');
    // Without a question, its type and size limits could be dodged.
    if (!questionId) {
      throw badRequest('question_id: name the file_upload question the file answers', { field: 'question_id', reason: 'question_id_required' });
    }
    const q = questions.find((x) => x.id === questionId);
    if (!q) {
      throw badRequest('question_id: not a file upload question of this form', { field: 'question_id', reason: 'not_a_file_upload_question' });
    }
    const mb = q.properties.max_size_mb;
    const maxBytes =
      typeof mb === 'number' && mb > 0 ? Math.min(Math.round(mb * 1024 * 1024), this.config.uploadMaxBytesCeiling) : this.config.uploadMaxBytes;
    const types = q.properties.allowed_types;
    const allowed = Array.isArray(types) && types.length && types.every((x) => typeof x === 'string') ? (types as string[]) : this.config.uploadTypes;
    return { form, questionId: q.id, maxBytes, allowedTypes: allowed };
  }

  /** Checks the declared content type against the policy (415 otherwise). */
  assertType(policy: UploadPolicy, contentType: string) {
    const type = contentType.split(';')[0]!.trim().toLowerCase();
    if (!typeAllowed(type, policy.allowedTypes)) {
      throw new FormloomError('UNSUPPORTED_MEDIA_TYPE', `Files of type ${type || 'unknown'} are not accepted here`, {
        allowed_types: policy.allowedTypes.filter((t) => !NEVER.has(t)),
      });
    }
    return type;
  }

  /**
   * Stores the file under the form's prefix as its bytes arrive; returns its key and the name to show. The
   * upload is recorded (size 0) before the first byte is stored, so a crash mid-upload leaves a row the sweep
   * deletes with whatever is stored. Past the question's limit or the form's quota the read stops at once:
   * 413, and neither the row nor any byte stays; so too when `data` throws (a client gone mid-upload: its
   * error is rethrown). Once stored, the size is recorded and the form's total checked with it counted, so
   * concurrent uploads can never pass the quota together (at worst both are refused).
   */
  async store(policy: UploadPolicy, fileName: string, contentType: string, data: Uint8Array | AsyncIterable<Uint8Array>) {
    const type = this.assertType(policy, contentType);
    const quota = this.config.uploadQuotaBytes;
    const used = await this.storage.uploads.totalSize(policy.form.id);
    const name = safeFileName(fileName);
    const key = `uploads/${policy.form.id}/${this.ids.secret(16)}/${name}`;
    const id = this.ids.id('upl');
    await this.storage.uploads.insert({ id, form_id: policy.form.id, question_id: policy.questionId, key, size: 0, response_id: null, created_at: this.clock.now().toISOString() });
    let stored = false;
    try {
      const source = data instanceof Uint8Array ? single(data) : data;
      const { size } = await putBlobStream(this.blobs, key, withinLimits(source, policy.maxBytes, quota, used), type);
      stored = true;
      await this.storage.uploads.setSize(id, size);
      if ((await this.storage.uploads.totalSize(policy.form.id)) > quota) throw quotaExceeded(quota);
    } catch (e) {
      // The bytes first: should their deletion fail, the row stays for the sweep to retry it.
      if (stored) await this.blobs.deletePrefix(`${key.slice(0, key.lastIndexOf('/'))}/`);
      await this.storage.uploads.delete(id).catch(() => undefined);
      throw e;
    }
    return { key, name };
  }

  /**
   * A stored upload for a caller allowed to read it (docs/security.md "Uploaded files"): whoever may read the
   * form's responses (`caller`, by key or session), or the holder of a signed link (`link`, the query's
   * `expires` and `sig`). Without either: 401, before anything is looked up. A caller who may not read the
   * responses, a forged or altered link and an unknown file are all the same 404, so a URL alone reveals
   * nothing; a genuine link past its expiry is 403 `link_expired`.
   */
  async open(key: string, caller: Principal | null, link: { expires?: unknown; sig?: unknown }): Promise<BlobReadStream> {
    const hasLink = link.expires !== undefined || link.sig !== undefined;
    if (!caller && !hasLink) {
      throw unauthorized("This file opens for someone who may read the form's responses (an API key or a signed-in session) or with a signed link");
    }
    const formId = UPLOAD_KEY.exec(key)?.[1];
    if (!formId) throw notFound('File');
    if (hasLink) {
      const verdict = this.links.verify(key, link.expires, link.sig);
      if (verdict === 'ok') return this.read(key);
      // A caller who may read the responses still gets the file with a link gone stale.
      if (!caller) {
        if (verdict === 'expired') throw forbidden('This link to the file has expired; ask for a new one', { reason: 'link_expired' });
        throw notFound('File');
      }
    }
    try {
      await authorizeForm(this.storage, caller!, formId, 'read');
    } catch (e) {
      // Another account's form or a team the caller is not in: as if the file did not exist.
      if (isFormloomError(e) && (e.status === 403 || e.status === 404)) throw notFound('File');
      throw e;
    }
    return this.read(key);
  }

  /** A stored upload by key, for serving: its bytes come as the reader pulls them. Access is `open`'s to check. */
  async read(key: string): Promise<BlobReadStream> {
    if (!UPLOAD_KEY.test(key)) throw notFound('File');
    const blob = await openBlobStream(this.blobs, key);
    if (!blob) throw notFound('File');
    return blob;
  }
}

async function* single(data: Uint8Array) {
  yield data;
}

export const fileTooLarge = (maxBytes: number) =>
  new FormloomError('PAYLOAD_TOO_LARGE', `Files may be at most ${maxBytes} bytes`, { reason: 'file_too_large' });

const quotaExceeded = (quota: number) =>
  new FormloomError('PAYLOAD_TOO_LARGE', `This form's uploads may total at most ${quota} bytes`, { reason: 'upload_quota_exceeded' });

/** Passes `source` through, throwing (413) as soon as it passes `maxBytes` or what the quota has left. */
async function* withinLimits(source: AsyncIterable<Uint8Array>, maxBytes: number, quota: number, used: number) {
  let size = 0;
  for await (const piece of source) {
    size += piece.byteLength;
    if (size > maxBytes) throw fileTooLarge(maxBytes);
    if (used + size > quota) throw quotaExceeded(quota);
    yield piece;
  }
}

/**
 * Deletes a deleted form's uploads, after the deletion committed (durable, retried on failure); its sweep,
 * run by the outbox worker's housekeeping, deletes uploads no response named within `uploadUnattachedMs`.
 */
@injectable()
export class UploadsCleanupHandler implements OutboxHandler {
  readonly kind = 'uploads_cleanup';
  constructor(
    @inject(TOKENS.BlobStore) private readonly blobs: BlobStore,
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Config) private readonly config: FormloomConfig,
  ) {}

  async sweep(now: Date): Promise<void> {
    const before = new Date(now.getTime() - this.config.uploadUnattachedMs).toISOString();
    for (let round = 0; round < 100; round++) {
      // The rows go first (only those still unattached): a file whose row is gone is never served as an answer.
      const taken = await this.storage.uploads.takeUnattached(before, 200);
      for (const u of taken) await this.blobs.deletePrefix(`${u.key.slice(0, u.key.lastIndexOf('/'))}/`);
      if (taken.length < 200) return;
    }
  }

  async handle(item: OutboxItem): Promise<OutboxOutcome> {
    const formId = String(item.payload.form_id);
    if (!/^[A-Za-z0-9_]+$/.test(formId)) return { status: 'failed', error: 'bad form id' };
    await this.blobs.deletePrefix(`uploads/${formId}/`);
    // The theme's uploaded logos (forms/logo-service.ts) go with the form too.
    await this.blobs.deletePrefix(`logos/${formId}/`);
    return { status: 'delivered' };
  }
}
