import { inject, injectable } from 'tsyringe';
import { badRequest, FormloomError, notFound } from '../errors';
import type { FormRecord, OutboxItem, Question } from '../domain/types';
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

/** Respondents' file uploads for `file_upload` questions, stored through the blob-store port. */
@injectable()
export class UploadService {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(TOKENS.BlobStore) private readonly blobs: BlobStore,
    @inject(TOKENS.Config) private readonly config: FormloomConfig,
  ) {}

  /** The limits for an upload to a published form (and, when given, one of its file_upload questions). */
  async policy(slug: string, questionId?: string): Promise<UploadPolicy> {
    const form = await this.storage.forms.findBySlug(slug);
    if (!form || !form.published || !form.published_version_id) throw notFound('Form');
    const version = await this.storage.versions.findById(form.published_version_id);
    const questions = ((version?.snapshot.questions ?? []) as Question[]).filter((q) => q.type === 'file_upload');
    if (!questions.length) throw badRequest('This form has no file upload question');
    let q: Question | undefined;
    if (questionId) {
      q = questions.find((x) => x.id === questionId);
      if (!q) throw badRequest('question_id: not a file upload question of this form', { field: 'question_id' });
    }
    const mb = q?.properties.max_size_mb as number | undefined;
    const maxBytes = mb ? Math.min(Math.round(mb * 1024 * 1024), this.config.uploadMaxBytesCeiling) : this.config.uploadMaxBytes;
    const allowed = (q?.properties.allowed_types as string[] | undefined) ?? this.config.uploadTypes;
    return { form, maxBytes, allowedTypes: allowed };
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

  /** Stores the file under the form's prefix; returns its key and the name to show. */
  async store(policy: UploadPolicy, fileName: string, contentType: string, data: Uint8Array) {
    const type = this.assertType(policy, contentType);
    if (data.byteLength > policy.maxBytes) throw new FormloomError('PAYLOAD_TOO_LARGE', `Files may be at most ${policy.maxBytes} bytes`);
    const name = safeFileName(fileName);
    const key = `uploads/${policy.form.id}/${this.ids.secret(16)}/${name}`;
    await this.blobs.put(key, data, type);
    return { key, name };
  }

  /** A stored upload by key, for serving. */
  async read(key: string) {
    if (!/^uploads\/[A-Za-z0-9_]+\/[0-9a-f]{32}\/[^/]+$/.test(key)) throw notFound('File');
    const blob = await this.blobs.get(key);
    if (!blob) throw notFound('File');
    return blob;
  }
}

/** Deletes a deleted form's uploads, after the deletion committed (durable, retried on failure). */
@injectable()
export class UploadsCleanupHandler implements OutboxHandler {
  readonly kind = 'uploads_cleanup';
  constructor(@inject(TOKENS.BlobStore) private readonly blobs: BlobStore) {}

  async handle(item: OutboxItem): Promise<OutboxOutcome> {
    const formId = String(item.payload.form_id);
    if (!/^[A-Za-z0-9_]+$/.test(formId)) return { status: 'failed', error: 'bad form id' };
    await this.blobs.deletePrefix(`uploads/${formId}/`);
    return { status: 'delivered' };
  }
}
