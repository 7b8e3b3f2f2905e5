import { inject, injectable } from 'tsyringe';
import type { FormRecord } from '../domain/types';
import type { IdGenerator } from '../ports/id-generator';
import type { BlobStore } from '../ports/blob-store';
import type { FormloomEvents } from '../events';
import type { Clock } from '../ports/clock';
import type { Logger } from '../logger';
import type { OutboxHandler, OutboxOutcome } from '../ports/outbox-handler';
import type { Storage } from '../ports/storage';
import { TOKENS } from '../tokens';
import { BLOB_FOLDERS_KIND, eraseResponses } from './erase-responses';
import { WebhookDispatcher } from '../webhooks/webhook-dispatcher';

const FORMS_PER_PAGE = 100;
const IDS_PER_ROUND = 500;
/** A form past its policy by more than this many responses finishes at the next sweep: one sweep stays short. */
const ROUNDS_PER_FORM = 20;
/** How often an instance applies the policies (each sweep reads every form that has one). */
export const RETENTION_EVERY_MS = 60 * 60 * 1000;

export interface RetentionPolicy {
  older_than_days?: number;
  keep_newest?: number;
}

/** A form's policy, or null when it keeps every response. */
export function retentionOf(form: Pick<FormRecord, 'options'>): RetentionPolicy | null {
  const p = form.options.response_retention as RetentionPolicy | null | undefined;
  if (!p || (p.older_than_days === undefined && p.keep_newest === undefined)) return null;
  return p;
}

/**
 * Per-form retention of responses (docs/privacy.md, "Retention"), run by the outbox worker's housekeeping at most
 * once an hour on each instance: responses submitted too long ago, or beyond the newest N, are deleted with their
 * files and deliveries, the counters corrected (`eraseResponses`). Two instances sweeping at once delete each
 * response once: a delete of a response already gone counts nothing.
 */
@injectable()
export class ResponseRetentionHandler implements OutboxHandler {
  readonly kind = 'response_retention';
  private lastSweep = 0;

  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.BlobStore) private readonly blobs: BlobStore,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Events) private readonly events: FormloomEvents,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(WebhookDispatcher) private readonly webhooks: WebhookDispatcher,
  ) {}

  async sweep(now: Date): Promise<void> {
    if (now.getTime() - this.lastSweep < RETENTION_EVERY_MS) return;
    this.lastSweep = now.getTime();
    await this.applyAll(now);
  }

  /** Applies every form's policy as of `now` (the sweep, and tests that do not wait an hour). */
  async applyAll(now: Date = this.clock.now()): Promise<{ forms: number; erased: number }> {
    let forms = 0;
    let erased = 0;
    for (let after: string | null = null; ; ) {
      const page: FormRecord[] = await this.storage.forms.listWithRetention(after, FORMS_PER_PAGE);
      for (const form of page) {
        const n = await this.apply(form, now);
        if (n) (forms += 1), (erased += n);
      }
      if (page.length < FORMS_PER_PAGE) break;
      after = page[page.length - 1]!.id;
    }
    if (erased) this.logger.info(`response retention: ${erased} responses deleted in ${forms} forms`);
    return { forms, erased };
  }

  private async apply(form: FormRecord, now: Date): Promise<number> {
    const policy = retentionOf(form);
    if (!policy) return 0;
    const before = policy.older_than_days ? new Date(now.getTime() - policy.older_than_days * 86_400_000).toISOString() : undefined;
    let total = 0;
    for (let round = 0; round < ROUNDS_PER_FORM; round++) {
      const ids = await this.storage.responses.pastRetention(form.id, { ...(before ? { before } : {}), ...(policy.keep_newest ? { keep_newest: policy.keep_newest } : {}) }, IDS_PER_ROUND);
      if (!ids.length) break;
      const done = await eraseResponses({ storage: this.storage, ids: this.ids, clock: this.clock, blobs: this.blobs, webhooks: this.webhooks }, form, ids, { reason: 'retention' });
      total += done.erased;
      if (done.files) this.events.emit('outbox.enqueued', { kind: BLOB_FOLDERS_KIND });
      if (done.events) this.events.emit('outbox.enqueued', { kind: 'webhook' });
      if (ids.length < IDS_PER_ROUND) break;
    }
    return total;
  }

  /** Nothing is enqueued of this kind; the handler exists for its sweep. */
  async handle(): Promise<OutboxOutcome> {
    return { status: 'delivered' };
  }
}
