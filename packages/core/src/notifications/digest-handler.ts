import { inject, injectable } from 'tsyringe';
import type { FormloomConfig } from '../config';
import type { OutboxItem, Question, ResponseRecord } from '../domain/types';
import { assertFormAccess } from '../forms/form-access';
import { errorText } from '../outbox/retry';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { Mailer } from '../ports/mailer';
import type { OutboxHandler, OutboxOutcome } from '../ports/outbox-handler';
import type { Storage } from '../ports/storage';
import { FileLinks } from '../responses/file-links';
import { TOKENS } from '../tokens';
import { answerLines, brandingOf, recallFiller, renderMail } from './mail-render';
import { DIGEST_KIND, DIGESTS_KEY, digestItem } from './notification-settings';
import { ResponseMails } from './response-mails';

/** Most responses a digest shows in full; the rest are counted, with the link to the results. */
export const DIGEST_MAX_RESPONSES = 20;

/**
 * Sends a person's daily digest of a form (docs/notifications.md): at midnight UTC, the responses completed
 * since the last one, when there were any; then queues the next day's item with the settlement (one
 * transaction), so the chain never forks nor breaks. An item whose chain was replaced (the person turned
 * `daily` off, or off and on again) ends without a mail. A failing mail server retries the same item.
 */
@injectable()
export class DigestHandler implements OutboxHandler {
  readonly kind = DIGEST_KIND;

  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Mailer) private readonly mailer: Mailer,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(TOKENS.Config) private readonly config: FormloomConfig,
    @inject(FileLinks) private readonly links: FileLinks,
    @inject(ResponseMails) private readonly mails: ResponseMails,
  ) {}

  async handle(item: OutboxItem): Promise<OutboxOutcome> {
    const formId = String(item.payload.form_id);
    const userId = String(item.payload.user_id);
    const since = String(item.payload.since);
    const form = await this.storage.forms.findById(formId);
    const current = form && (form.options[DIGESTS_KEY] as Record<string, string> | undefined)?.[userId] === item.id;
    if (!form || !current) return { status: 'delivered' };
    try {
      await assertFormAccess(form, { user_id: userId, key_id: null, scope: 'forms' }, 'read', (t, u) => this.storage.teams.findMember(t, u));
    } catch {
      return { status: 'delivered' };
    }
    const user = await this.storage.users.findById(userId);
    if (!user) return { status: 'delivered' };
    const now = this.clock.now();
    const until = now.toISOString();
    const page = await this.storage.responses.list({ formId, since, until, completed: true, offset: 0, limit: DIGEST_MAX_RESPONSES });
    if (page.total > 0) {
      const questions = await this.storage.questions.listByForm(formId);
      try {
        await this.mailer.send({ to: user.email, ...this.render(form.title, formId, userId, page.items, page.total, questions, form) });
      } catch (e) {
        throw new Error(`The digest was not sent: ${errorText(e)}`);
      }
    }
    // The next day's digest starts just after this one's end (the bounds are inclusive).
    const next = digestItem(this.ids, now, formId, userId, new Date(now.getTime() + 1).toISOString());
    return {
      status: 'delivered',
      record: async (tx) => {
        const fresh = await tx.forms.findById(formId);
        const digests = (fresh?.options[DIGESTS_KEY] as Record<string, string> | undefined) ?? {};
        if (!fresh || digests[userId] !== item.id) return;
        await tx.outbox.enqueue(next);
        await tx.forms.update(formId, { options: { ...fresh.options, [DIGESTS_KEY]: { ...digests, [userId]: next.id } } });
      },
    };
  }

  private render(title: string, formId: string, userId: string, responses: ResponseRecord[], total: number, questions: Question[], form: Parameters<typeof brandingOf>[0]) {
    const base = this.config.publicUrl.replace(/\/+$/, '');
    const lines = responses.map((r) => {
      const recall = recallFiller(r.answers, r.metadata.hidden);
      const answers = answerLines(questions, this.links.signAnswers(r.answers, questions), recall);
      return {
        title: `Response of ${r.completed_at ?? r.submitted_at}`,
        value: answers.map((a) => `${a.title}: ${a.value}`).join('\n') || '(no answers)',
        href: `${base}/forms/${encodeURIComponent(formId)}/results/${encodeURIComponent(r.id)}`,
      };
    });
    const more = total - responses.length;
    const word = total === 1 ? 'response' : 'responses';
    return renderMail({
      subject: `${total} new ${word} to ${title}`,
      heading: `${total} new ${word} to ${title}`,
      ...(more > 0 ? { intro: `The newest ${responses.length} are below; ${more} more are in the results.` } : {}),
      lines,
      links: [
        { label: 'See all responses', href: `${base}/forms/${encodeURIComponent(formId)}/results` },
        { label: 'Stop these mails for this form', href: this.mails.unsubscribeLink(formId, userId) },
      ],
      footer: [`You get this mail because you asked for a daily digest of new responses to "${title}".`],
      branding: brandingOf(form),
    });
  }
}
