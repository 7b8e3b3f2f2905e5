import { inject, injectable } from 'tsyringe';
import { badRequest, FormloomError, notFound } from '../errors';
import type { Answer, FormRecord, OutboxItem, Question } from '../domain/types';
import type { Clock } from '../ports/clock';
import type { BlobStore } from '../ports/blob-store';
import type { IdGenerator } from '../ports/id-generator';
import type { Storage } from '../ports/storage';
import type { FormloomConfig } from '../config';
import { TOKENS } from '../tokens';
import type { OutboxHandler, OutboxOutcome } from '../ports/outbox-handler';

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
   * Stores the file under the form's prefix; returns its key and the name to show. The upload is recorded
   * first and the form's total checked with it counted, so concurrent uploads can never pass the quota
   * together (at worst both are refused).
   */
  async store(policy: UploadPolicy, fileName: string, contentType: string, data: Uint8Array) {
    const type = this.assertType(policy, contentType);
    if (data.byteLength > policy.maxBytes) {
      throw new FormloomError('PAYLOAD_TOO_LARGE', `Files may be at most ${policy.maxBytes} bytes`, { reason: 'file_too_large' });
    }
    const name = safeFileName(fileName);
    const key = `uploads/${policy.form.id}/${this.ids.secret(16)}/${name}`;
    const id = this.ids.id('upl');
    await this.storage.uploads.insert({
      id,
      form_id: policy.form.id,
      question_id: policy.questionId,
      key,
      size: data.byteLength,
      response_id: null,
      created_at: this.clock.now().toISOString(),
    });
    try {
      if ((await this.storage.uploads.totalSize(policy.form.id)) > this.config.uploadQuotaBytes) {
        throw new FormloomError('PAYLOAD_TOO_LARGE', `This form's uploads may total at most ${this.config.uploadQuotaBytes} bytes`, {
          reason: 'upload_quota_exceeded',
        });
      }
      await this.blobs.put(key, data, type);
    } catch (e) {
      await this.storage.uploads.delete(id).catch(() => undefined);
      throw e;
    }
    return { key, name };
  }

  /** A stored upload by key, for serving. */
  async read(key: string) {
    // A name of `.` or `..` (as `%2e%2e` decodes) is no file: blob stores refuse such keys outright.
    if (!/^uploads\/[A-Za-z0-9_]+\/[0-9a-f]{32}\/(?!\.\.?$)[^/]+$/.test(key)) throw notFound('File');
    const blob = await this.blobs.get(key);
    if (!blob) throw notFound('File');
    return blob;
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
    return { status: 'delivered' };
  }
}
