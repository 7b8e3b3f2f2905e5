import { inject, injectable } from 'tsyringe';
import { translatedText } from '../translations/translatable-texts';
import { z } from 'zod';
import type { SecretBox } from '../crypto-box';
import { isEmailAddress } from '../email-address';
import { FormloomError } from '../errors';
import { sha256Hex } from '../hashing';
import { brandingOf, recallFiller, renderMail } from '../notifications/mail-render';
import type { Clock } from '../ports/clock';
import type { MailMessage } from '../ports/mailer';
import type { Storage } from '../ports/storage';
import { TOKENS } from '../tokens';
import { reachedStep } from './step-access';

/** What `POST .../steps/:questionId` answers for an email step. */
export const emailStepOut = z.object({
  question_id: z.string(),
  type: z.literal('email_step'),
  /** `queued`: the mail is in the outbox (now or by an earlier call); `no_recipient`: the recipient resolved to no address, nothing is sent. */
  status: z.enum(['queued', 'no_recipient']),
  /** True when an earlier call had queued this mail already (a reload, a retry): it is not sent again. */
  duplicate: z.boolean(),
});
export type EmailStepOut = z.infer<typeof emailStepOut>;

/** The outbox item of one response's email step: one id per response and step is what makes it never twice. */
export const emailStepItemId = (responseId: string, questionId: string) => `obx_step_${sha256Hex(`email-step:${responseId}:${questionId}`).slice(0, 32)}`;

/**
 * The address an email step mails (docs/logic.md "Email steps"): the recipient text with its recalls filled
 * from the stored answers and hidden fields. A fixed address, or `{answer.<id>}` of an email question.
 * `{respondent.email}` is the address of a respondent the form signed in; forms have no respondent sign-in,
 * so publishing refuses it (`email_node_requires_login`) and it never resolves here.
 */
export function emailStepRecipient(recipient: string, answers: Record<string, unknown>, hidden: Record<string, string>): string | null {
  if (recipient.includes('{respondent.email}')) return null;
  const filled = recallFiller(
    Object.entries(answers).map(([question_id, value]) => ({ question_id, value })),
    hidden,
  )(recipient).trim();
  return isEmailAddress(filled) ? filled : null;
}

/**
 * Email steps (docs/logic.md): when the respondent's page passes the step, it saves the answers so far and
 * asks the server to run it; the mail is rendered from the stored answers and queued in the outbox under an
 * id of its own (response and step), so a reload or a retry finds it queued and nothing is mailed twice.
 */
@injectable()
export class EmailSteps {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.SecretBox) private readonly box: SecretBox,
  ) {}

  async run(slug: string, responseId: string, token: string | undefined, questionId: string): Promise<EmailStepOut> {
    const { form, response, snapshot, question, answers, hidden } = await reachedStep(this.storage, slug, responseId, token, questionId, 'email_step');
    const written = question.properties as { recipient?: string; sender_name?: string; subject?: string; body?: string };
    // Subject, body and sender name in the language the respondent answered in (docs/languages.md).
    const say = (field: 'subject' | 'body' | 'sender_name') => translatedText(snapshot as unknown as Record<string, unknown>, response.language, `questions.${question.id}.${field}`, String(written[field] ?? ''));
    const p = { recipient: written.recipient, subject: say('subject'), body: say('body'), sender_name: say('sender_name') };
    const to = emailStepRecipient(String(p.recipient ?? ''), answers, hidden);
    if (!to) return { question_id: question.id, type: 'email_step', status: 'no_recipient', duplicate: false };
    const id = emailStepItemId(response.id, question.id);
    if (await this.storage.outbox.findById(id)) return { question_id: question.id, type: 'email_step', status: 'queued', duplicate: true };
    const recall = recallFiller(response.answers, hidden);
    // A subject is one line: recalled answers cannot add headers.
    const subject = recall(String(p.subject ?? '')).replace(/[\r\n]+/g, ' ').trim().slice(0, 500);
    const rendered = renderMail({ subject, heading: subject, intro: recall(String(p.body ?? '')), lines: [], links: [], footer: [`Sent by the form "${form.title}"`], branding: brandingOf(form) });
    const message: MailMessage = { to, subject, text: rendered.text, html: rendered.html, fromName: String(p.sender_name ?? '').replace(/[\r\n"<>]+/g, ' ').trim().slice(0, 200) || undefined };
    const now = this.clock.now().toISOString();
    try {
      await this.storage.outbox.enqueue({
        id, kind: 'mail', payload: { sealed: this.box.seal(JSON.stringify(message)) }, status: 'pending', attempts: 0,
        next_attempt_at: now, locked_by: null, locked_until: null, last_error: null, created_at: now, updated_at: now,
      });
    } catch (e) {
      // Two calls at once: the id is taken by the other, which queued the same mail.
      if (e instanceof FormloomError && e.code === 'CONFLICT') return { question_id: question.id, type: 'email_step', status: 'queued', duplicate: true };
      throw e;
    }
    return { question_id: question.id, type: 'email_step', status: 'queued', duplicate: false };
  }
}
