import { timingSafeEqual } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import type { Principal, Question, ResponseRecord } from '../domain/types';
import { conflict, FormloomError, notFound } from '../errors';
import { authorizeForm, planHolderOf } from '../forms/form-access';
import { sha256Hex } from '../hashing';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { Payments } from '../ports/payments';
import type { PaymentRecord, Storage } from '../ports/storage';
import { TOKENS } from '../tokens';
import { paymentAmount, type PaymentSnapshot } from './amounts';
import { refundedStatus } from './payment-status';
import { atProcessor, processorOf } from './processor';

export const startPaymentSchema = z.object({ question_id: z.string().min(1).max(100) }).strict();
export { refundSchema } from './payment-refunds';

export const PAID: ReadonlySet<PaymentRecord['status']> = new Set(['succeeded', 'partially_refunded', 'refunded']);

export { paymentOut, presentPayment } from './payment-out';
import { paymentOut, presentPayment } from './payment-out';

/** What the respondent's page needs to show the processor's payment form. */
export const startPaymentOut = z.object({
  payment_id: z.string(),
  status: paymentOut.shape.status,
  amount: z.number().int(),
  currency: z.string(),
  /** Confirms the payment in the processor's browser element; null once it succeeded. */
  client_secret: z.string().nullable(),
  processor: z.string(),
  publishable_key: z.string(),
});

/**
 * Payment questions (docs/payments.md): the respondent's page asks for the payment of a question of its partial
 * response (the server computes the amount from the stored answers), completion waits for it to succeed, and
 * the owner refunds it.
 */
@injectable()
export class PaymentQuestions {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Payments) private readonly payments: Payments,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
  ) {}

  /** The partial response a resume token opens, with its version's snapshot. */
  private async resumable(slug: string, responseId: string, token: string | undefined) {
    const form = await this.storage.forms.findBySlug(slug);
    if (!form) throw notFound('Response');
    const response = await this.storage.responses.findById(form.id, responseId);
    if (!response || !response.resume_token_hash) throw notFound('Response');
    const given = Buffer.from(sha256Hex(token ?? ''), 'hex');
    if (!token || !timingSafeEqual(given, Buffer.from(response.resume_token_hash, 'hex'))) {
      throw new FormloomError('UNAUTHORIZED', 'X-Resume-Token is missing or does not match this response');
    }
    const version = response.version_id ? await this.storage.versions.findById(response.version_id) : null;
    const snapshot = (version?.snapshot ?? { questions: [] }) as unknown as PaymentSnapshot;
    return { form, response, snapshot };
  }

  /** POST /public/forms/:slug/responses/:responseId/payment: the payment of one question, made or reused. */
  async start(slug: string, responseId: string, token: string | undefined, body: z.infer<typeof startPaymentSchema>): Promise<z.infer<typeof startPaymentOut>> {
    const processor = processorOf(this.payments);
    const { form, response, snapshot } = await this.resumable(slug, responseId, token);
    const question = snapshot.questions.find((q) => q.id === body.question_id && q.type === 'payment');
    if (!question) throw notFound('Payment question');
    const outcome = paymentAmount(snapshot, question, Object.fromEntries(response.answers.map((a) => [a.question_id, a.value])), response.metadata.hidden ?? {});
    if (!outcome.ok) throw conflict(outcome.message, { reason: outcome.reason, question_ids: [question.id] });
    const answer = (p: PaymentRecord, client_secret: string | null) => ({
      payment_id: p.id, status: p.status, amount: p.amount, currency: p.currency, client_secret, processor: processor.id, publishable_key: processor.publishableKey,
    });
    const existing = await this.storage.payments.findFor(response.id, question.id);
    if (existing && PAID.has(existing.status)) return answer(existing, null);
    const destination = question.properties.provider === 'connect' ? await this.connectDestination(form) : null;
    const made = await atProcessor(() =>
      processor.createPayment({
        amount: outcome.amount,
        currency: outcome.currency,
        // The same response, question and amount give back the same payment, however often the page asks.
        idempotency_key: `pay-${response.id}-${question.id}-${outcome.amount}-${outcome.currency}-${destination ?? 'standard'}`,
        metadata: { formloom: 'payment_question', form_id: form.id, response_id: response.id, question_id: question.id },
        description: String(question.properties.description ?? question.title).slice(0, 500),
        destination,
      }),
    );
    const now = this.clock.now().toISOString();
    if (existing) {
      if (existing.processor_payment_id !== made.id) {
        const moved = await this.storage.payments.replacePending(existing.id, { processor_payment_id: made.id, amount: made.amount, currency: made.currency, destination, updated_at: now });
        if (!moved) return answer((await this.storage.payments.findById(existing.id))!, null);
      }
      return answer({ ...existing, processor_payment_id: made.id, amount: made.amount, currency: made.currency, status: 'requires_payment' }, made.client_secret);
    }
    const record: PaymentRecord = {
      id: this.ids.id('pay'), form_id: form.id, response_id: response.id, question_id: question.id,
      provider: question.properties.provider === 'connect' ? 'connect' : 'standard', processor_payment_id: made.id, destination,
      amount: made.amount, currency: made.currency, status: made.status === 'succeeded' ? 'succeeded' : 'requires_payment', amount_refunded: 0, created_at: now, updated_at: now,
    };
    try {
      await this.storage.payments.insert(record);
    } catch (e) {
      // Two requests of one page at once: the processor gave both the same payment; the first record stands.
      const raced = await this.storage.payments.findFor(response.id, question.id);
      if (!raced) throw e;
      return answer(raced, raced.processor_payment_id === made.id ? made.client_secret : null);
    }
    return answer(record, made.client_secret);
  }

  private async connectDestination(form: { owner_id: string; team_id: string | null }): Promise<string> {
    const account = await this.storage.payments.accountOf(await planHolderOf(this.storage, form));
    if (!account?.charges_enabled) throw conflict("This form's payments go to its owner's own account, which cannot take payments yet", { reason: 'payment_account_not_connected' });
    return account.account_id;
  }

  /**
   * The payment questions on the respondent's path that are not paid, asking the processor about those not yet
   * known to have succeeded (its event may still be on its way) and recording what it says.
   */
  async unpaid(snapshotQuestions: Question[], shown: ReadonlySet<string>, response: Pick<ResponseRecord, 'id'> | null): Promise<string[]> {
    const due = snapshotQuestions.filter((q) => q.type === 'payment' && shown.has(q.id));
    if (!due.length) return [];
    const missing: string[] = [];
    for (const q of due) {
      const p = response ? await this.storage.payments.findFor(response.id, q.id) : null;
      if (p && PAID.has(p.status)) continue;
      if (p && this.payments.processor) {
        const fresh = await atProcessor(() => this.payments.processor!.retrievePayment(p.processor_payment_id));
        if (fresh.status === 'succeeded') {
          await this.storage.payments.update(p.id, { status: refundedStatus(p, fresh.amount_refunded), amount_refunded: fresh.amount_refunded, updated_at: this.clock.now().toISOString() });
          continue;
        }
      }
      missing.push(q.id);
    }
    return missing;
  }

  /** The payments of responses, by response id (for the API's responses, results, webhooks and the CSV). */
  async byResponse(responseIds: readonly string[]): Promise<Map<string, PaymentRecord[]>> {
    const out = new Map<string, PaymentRecord[]>();
    for (const p of await this.storage.payments.forResponses(responseIds)) out.set(p.response_id, [...(out.get(p.response_id) ?? []), p]);
    return out;
  }
}
