import { inject, injectable } from 'tsyringe';
import { apiBase, type FormloomConfig } from '../config';
import type { SecretBox } from '../crypto-box';
import type { FormRecord, Question, ResponseRecord } from '../domain/types';
import { isEmailAddress } from '../email-address';
import { assertFormAccess } from '../forms/form-access';
import { enqueueMail } from '../outbox/mail-handler';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { MailMessage } from '../ports/mailer';
import type { Storage } from '../ports/storage';
import { FileLinks } from '../responses/file-links';
import { SubmissionService } from '../responses/submission-service';
import { TOKENS } from '../tokens';
import { answerLines, brandingOf, recallFiller, renderMail } from './mail-render';
import { NotificationSettings, receiptOf, receiptQuestion, subscribersOf } from './notification-settings';

/**
 * Turns a completed response into its mails inside the response's own transaction (docs/notifications.md):
 * one sealed `mail` outbox item per subscriber with access, and the respondent's receipt when the form has it
 * on. The items exist exactly when the response does, and the outbox sends each once, retrying a failing
 * server; nothing is read for a form that has neither.
 */
@injectable()
export class ResponseMails {
  constructor(
    @inject(TOKENS.Config) private readonly config: FormloomConfig,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(TOKENS.SecretBox) private readonly box: SecretBox,
    @inject(FileLinks) private readonly links: FileLinks,
    @inject(NotificationSettings) private readonly settings: NotificationSettings,
    @inject(SubmissionService) private readonly submissions: SubmissionService,
  ) {}

  /**
   * Queues the mails of a response in `tx`; false when there were none to queue. In a submission's own
   * transaction the form, response and questions are the ones the submission read (the form current under
   * the cache revision, which every change of these settings bumps), so nothing is read while the write
   * transaction is held; otherwise they are read in `tx`.
   */
  async queue(tx: Storage, formId: string, responseId: string): Promise<boolean> {
    const held = this.submissions.committingIn(tx, responseId);
    const form = held?.form ?? (await tx.forms.findById(formId));
    if (!form) return false;
    const subscribers = subscribersOf(form);
    const receipt = receiptOf(form);
    if (!subscribers.length && !receipt.enabled) return false;
    const response = held?.response ?? (await tx.responses.findById(formId, responseId));
    if (!response || !response.completed_at) return false;
    const questions = held?.questions ?? (await this.questionsOf(tx, formId, response));
    const messages: MailMessage[] = [];
    for (const userId of subscribers) {
      const to = await this.subscriberAddress(tx, form, userId);
      if (to) messages.push({ to, ...this.newResponseMail(form, response, questions, userId) });
    }
    if (receipt.enabled) {
      const m = this.receiptMail(form, response, questions);
      if (m) messages.push(m);
    }
    for (const m of messages) await enqueueMail(tx, this.ids, this.clock, this.box, m);
    return messages.length > 0;
  }

  /** The questions of the version the response answered (the form's own when it has none). */
  private async questionsOf(tx: Storage, formId: string, response: ResponseRecord): Promise<Question[]> {
    const version = response.version_id ? await tx.versions.findById(response.version_id) : null;
    return ((version?.snapshot as { questions?: Question[] } | undefined)?.questions ?? (await tx.questions.listByForm(formId))) as Question[];
  }

  /** The person's address while they may still read the form's responses; null otherwise (left a team, deleted). */
  private async subscriberAddress(tx: Storage, form: FormRecord, userId: string): Promise<string | null> {
    try {
      await assertFormAccess(form, { user_id: userId, key_id: null, scope: 'forms' }, 'read', (teamId, uid) => tx.teams.findMember(teamId, uid));
    } catch {
      return null;
    }
    return (await tx.users.findById(userId))?.email ?? null;
  }

  private base() {
    return this.config.publicUrl.replace(/\/+$/, '');
  }

  /** The signed link that turns this person's mails about this form off, without signing in. */
  unsubscribeLink(formId: string, userId: string): string {
    const query = new URLSearchParams({ form: formId, user: userId, sig: this.settings.unsubscribeSignature(formId, userId) });
    return `${apiBase(this.config)}/notifications/unsubscribe?${query}`;
  }

  newResponseMail(form: FormRecord, response: ResponseRecord, questions: Question[], userId: string) {
    const recall = recallFiller(response.answers, response.metadata.hidden);
    const answers = this.links.signAnswers(response.answers, questions);
    const unsubscribe = this.unsubscribeLink(form.id, userId);
    return renderMail({
      subject: `New response to ${form.title}`,
      heading: `New response to ${form.title}`,
      lines: answerLines(questions, answers, recall),
      links: [
        { label: 'See the response', href: `${this.base()}/forms/${encodeURIComponent(form.id)}/results/${encodeURIComponent(response.id)}` },
        { label: 'Stop these mails for this form', href: unsubscribe },
      ],
      footer: [`You get this mail because you asked for a mail on each new response to "${form.title}".`],
      branding: brandingOf(form),
    });
  }

  /** The respondent's copy, to the answer of the form's email question; null when that answer is no address. */
  receiptMail(form: FormRecord, response: ResponseRecord, questions: Question[]): MailMessage | null {
    const settings = receiptOf(form);
    const q = receiptQuestion(questions, settings.question_id);
    const value = q ? response.answers.find((a) => a.question_id === q.id)?.value : null;
    const to = typeof value === 'string' ? value.trim() : '';
    if (!to || !isEmailAddress(to)) return null;
    const recall = recallFiller(response.answers, response.metadata.hidden);
    const branding = brandingOf(form);
    const mail = renderMail({
      subject: recall(settings.subject ?? `Your answers to ${form.title}`),
      heading: form.title,
      intro: recall(settings.message ?? 'Thank you. Here is a copy of your answers.'),
      lines: answerLines(questions, this.links.signAnswers(response.answers, questions), recall),
      links: [],
      footer: branding.footer ? [branding.footer] : [],
      branding,
    });
    return { to, ...mail, ...(settings.reply_to ? { replyTo: settings.reply_to } : {}) };
  }
}
