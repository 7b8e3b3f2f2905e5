import { createHmac } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import type { FormloomConfig } from '../config';
import type { FormRecord, OutboxItem, Principal, Question } from '../domain/types';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import { newOutboxItem } from '../outbox/outbox-items';
import { badRequest, notFound } from '../errors';
import { authorizeForm } from '../forms/form-access';
import { parseBody } from '../parse';
import type { Storage } from '../ports/storage';
import { sameSecret } from '../sessions/secrets';
import { TOKENS } from '../tokens';
import { emailAddress } from '../email-address';

/** What a person with access gets about a form's new responses: a mail each (`instant`), one a day (`daily`), or nothing. */
export const NEW_RESPONSE_MODES = ['instant', 'daily', 'off'] as const;
export type NewResponseMode = (typeof NEW_RESPONSE_MODES)[number];

export const notificationSettingsSchema = z.object({ new_responses: z.enum(NEW_RESPONSE_MODES) }).strict();
export const notificationSettingsOut = z.object({ form_id: z.string(), new_responses: z.enum(NEW_RESPONSE_MODES) });

export const receiptSettingsSchema = z
  .object({
    enabled: z.boolean(),
    /** The email question whose answer receives the copy; null: the form's first email question. */
    question_id: z.string().min(1).max(100).nullable().optional(),
    reply_to: emailAddress().nullable().optional(),
    subject: z.string().max(200).nullable().optional(),
    message: z.string().max(5000).nullable().optional(),
  })
  .strict();
export const receiptSettingsOut = z.object({
  form_id: z.string(),
  enabled: z.boolean(),
  question_id: z.string().nullable(),
  reply_to: z.string().nullable(),
  subject: z.string().nullable(),
  message: z.string().nullable(),
});
export type ReceiptSettings = Omit<z.infer<typeof receiptSettingsOut>, 'form_id'>;

/** Where the settings live in the form's `options` (never in a version snapshot nor in the form's API shape). */
export const SUBSCRIBERS_KEY = 'notify_subscribers';
export const RECEIPT_KEY = 'respondent_receipt';
/** Per person on `daily`: the id of the outbox item that sends their next digest (an older chain's item finds another id and stops). */
export const DIGESTS_KEY = 'notify_digests';
export const DIGEST_KIND = 'notifications.digest';

/** The next midnight UTC after `now`: when a daily digest goes out. */
export function nextDigestAt(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)).toISOString();
}

/** The outbox item of a person's next digest of a form, covering responses submitted from `since`. */
export function digestItem(ids: IdGenerator, now: Date, formId: string, userId: string, since: string): OutboxItem {
  return { ...newOutboxItem(ids, now.toISOString(), DIGEST_KIND, { form_id: formId, user_id: userId, since }), next_attempt_at: nextDigestAt(now) };
}

/** The people who asked for a mail on each new response (user ids), from the form's options. */
export function subscribersOf(form: Pick<FormRecord, 'options'>): string[] {
  const map = form.options[SUBSCRIBERS_KEY];
  if (!map || typeof map !== 'object') return [];
  return Object.entries(map as Record<string, unknown>).filter(([, mode]) => mode === 'instant').map(([id]) => id);
}

export function receiptOf(form: Pick<FormRecord, 'options'>): ReceiptSettings {
  const r = (form.options[RECEIPT_KEY] ?? {}) as Partial<ReceiptSettings>;
  return {
    enabled: r.enabled === true,
    question_id: typeof r.question_id === 'string' ? r.question_id : null,
    reply_to: typeof r.reply_to === 'string' ? r.reply_to : null,
    subject: typeof r.subject === 'string' ? r.subject : null,
    message: typeof r.message === 'string' ? r.message : null,
  };
}

/** The email question a receipt goes to: the chosen one, else the first; null when the form has none. */
export function receiptQuestion(questions: readonly Question[], chosen: string | null): Question | null {
  const emails = questions.filter((q) => q.type === 'email');
  return (chosen ? emails.find((q) => q.id === chosen) : emails[0]) ?? null;
}

/**
 * Per-person mail settings of a form (docs/notifications.md): each person with read access sets their own
 * `new_responses` (a mail each, a daily digest, or none); the respondent receipt is the form's, set by those who may edit it. Unsubscribe links are
 * an HMAC of the form and the person under a key derived from the instance's secret key: they work without
 * signing in, for that person and form only, and never expire (changing the secret key ends them).
 */
@injectable()
export class NotificationSettings {
  private readonly key: Buffer;

  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Config) config: FormloomConfig,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
  ) {
    this.key = createHmac('sha256', config.secretKey).update('formloom-notification-unsubscribe').digest();
  }

  unsubscribeSignature(formId: string, userId: string): string {
    return createHmac('sha256', this.key).update(`${formId}\n${userId}`).digest('base64url');
  }

  async get(principal: Principal, formId: string) {
    const form = await authorizeForm(this.storage, principal, formId, 'read');
    const mode = (form.options[SUBSCRIBERS_KEY] as Record<string, unknown> | undefined)?.[principal.user_id];
    return { form_id: form.id, new_responses: (mode === 'instant' || mode === 'daily' ? mode : 'off') as NewResponseMode };
  }

  async set(principal: Principal, formId: string, body: unknown) {
    await authorizeForm(this.storage, principal, formId, 'read');
    const { new_responses } = parseBody(notificationSettingsSchema, body);
    await this.setMode(formId, principal.user_id, new_responses);
    return { form_id: formId, new_responses };
  }

  /** A signed unsubscribe link's work: the person's mails for the form stop; the form's title for the page. */
  async unsubscribe(formId: string, userId: string, sig: string): Promise<{ form_title: string }> {
    if (!formId || !userId || !sig || !sameSecret(sig, this.unsubscribeSignature(formId, userId))) {
      throw badRequest('This unsubscribe link is not valid', { reason: 'invalid_link' });
    }
    const form = await this.setMode(formId, userId, 'off');
    return { form_title: form.title };
  }

  /**
   * Reads and writes the form's options in one transaction; only this person's keys change, not the form's
   * draft. Turning `daily` on queues the first digest (next midnight UTC) in the same transaction.
   */
  private async setMode(formId: string, userId: string, mode: NewResponseMode): Promise<FormRecord> {
    return this.storage.transaction(async (tx) => {
      const form = await tx.forms.findById(formId);
      if (!form) throw notFound('Form');
      const before = (form.options[SUBSCRIBERS_KEY] as Record<string, string> | undefined) ?? {};
      if ((before[userId] ?? 'off') === mode) return form;
      const map = { ...before };
      const digests = { ...((form.options[DIGESTS_KEY] as Record<string, string> | undefined) ?? {}) };
      if (mode === 'off') delete map[userId];
      else map[userId] = mode;
      delete digests[userId];
      if (mode === 'daily') {
        const now = this.clock.now();
        const item = digestItem(this.ids, now, formId, userId, now.toISOString());
        await tx.outbox.enqueue(item);
        digests[userId] = item.id;
      }
      return (await tx.forms.update(formId, { options: { ...form.options, [SUBSCRIBERS_KEY]: map, [DIGESTS_KEY]: digests } })) ?? form;
    });
  }

  async getReceipt(principal: Principal, formId: string) {
    const form = await authorizeForm(this.storage, principal, formId, 'read');
    return { form_id: form.id, ...receiptOf(form) };
  }

  /** The owner's setting: refused (400) when turned on for a form without an email question, or naming another question. */
  async setReceipt(principal: Principal, formId: string, body: unknown) {
    await authorizeForm(this.storage, principal, formId, 'edit');
    const input = parseBody(receiptSettingsSchema, body);
    const next: ReceiptSettings = {
      enabled: input.enabled,
      question_id: input.question_id ?? null,
      reply_to: input.reply_to ?? null,
      subject: input.subject?.trim() || null,
      message: input.message?.trim() || null,
    };
    const questions = await this.storage.questions.listByForm(formId);
    if (next.question_id && !questions.some((q) => q.id === next.question_id && q.type === 'email')) {
      throw badRequest('question_id must name an email question of this form', { field: 'question_id', reason: 'not_an_email_question' });
    }
    if (next.enabled && !receiptQuestion(questions, next.question_id)) {
      throw badRequest('A receipt needs an email question in the form', { field: 'enabled', reason: 'no_email_question' });
    }
    await this.storage.transaction(async (tx) => {
      const form = await tx.forms.findById(formId);
      if (!form) throw notFound('Form');
      await tx.forms.update(formId, { options: { ...form.options, [RECEIPT_KEY]: next } });
    });
    return { form_id: formId, ...next };
  }
}
