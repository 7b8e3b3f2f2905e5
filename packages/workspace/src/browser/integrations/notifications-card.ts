import { html, css, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import { FormCard, formCardStyles } from './form-card';
import { getNotifications, getReceipt, setNotifications, setReceipt, type NewResponses, type Receipt } from '../../data/notifications';

const CHOICES: Array<[NewResponses, string]> = [
  ['instant', 'A mail for each response'],
  ['daily', 'One digest a day'],
  ['off', 'No mails'],
];

/**
 * `<fl-notifications-card>` on the Integrations tab (docs/notifications.md): the signed-in person's own mail
 * about the form's new responses (each chooses for themselves, viewers included), and, for those who may edit
 * the form, the respondent receipt. Shown whatever the plan: notifications are not webhooks.
 */
export class FlNotificationsCard extends FormCard {
  static override styles = [
    tokens,
    controls,
    formCardStyles,
    css`
      fieldset { border: 0; margin: 0; padding: 0; display: grid; gap: 0.35rem; }
      legend { font-weight: 600; margin-bottom: 0.35rem; }
      textarea { min-height: 4rem; }
    `,
  ];
  static override properties = {
    mode: { state: true },
    receipt: { state: true },
  };
  mode: NewResponses | null = null;
  receipt: Receipt | null = null;

  protected override load() {
    return this.run(async () => {
      const [mine, receipt] = await Promise.all([getNotifications(this.api!, this.formId), getReceipt(this.api!, this.formId)]);
      this.mode = mine.new_responses;
      this.receipt = receipt;
    });
  }

  private choose(mode: NewResponses) {
    return this.run(async () => {
      this.mode = (await setNotifications(this.api!, this.formId, mode)).new_responses;
      this.notice = mode === 'off' ? 'You will get no mails about new responses.' : mode === 'daily' ? 'You will get a daily digest of new responses.' : 'You will get a mail for each new response.';
    });
  }

  private saveReceipt(e: Event) {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const value = (name: string) => ((form.elements.namedItem(name) as HTMLInputElement).value.trim() || null);
    const next: Receipt = {
      enabled: (form.elements.namedItem('enabled') as HTMLInputElement).checked,
      question_id: this.receipt?.question_id ?? null,
      reply_to: value('reply_to'),
      subject: value('subject'),
      message: value('message'),
    };
    return this.run(async () => {
      const r = await setReceipt(this.api!, this.formId, next);
      this.receipt = r;
      this.notice = r.enabled ? 'Respondents will get a copy of their answers.' : 'Respondents get no copy.';
    });
  }

  override render() {
    const r = this.receipt;
    return this.frame(!!this.mode, 'Loading notifications…', () => html`
      <section class="card stack" aria-labelledby="h-notify">
        <h3 id="h-notify">Email me about new responses</h3>
        <fieldset>
          <legend>For this form, just for you</legend>
          ${CHOICES.map(([value, label]) => html`<label class="check"><input type="radio" name="new-responses" .checked=${this.mode === value} @change=${() => void this.choose(value)} />${label}</label>`)}
        </fieldset>
        <p class="muted">Each mail lists the answers and links to the response; it has a link to stop them.</p>
      </section>
      ${this.canEdit && r
        ? html`<section class="card stack" aria-labelledby="h-receipt">
            <h3 id="h-receipt">Respondent receipt</h3>
            <p class="muted">Respondents who answer the form's email question get a copy of their answers, in the form's colours.</p>
            <form class="stack" @submit=${(e: Event) => void this.saveReceipt(e)}>
              <label class="check"><input type="checkbox" name="enabled" .checked=${r.enabled} />Send respondents a copy of their answers</label>
              <label class="field">Reply-to address<input name="reply_to" type="email" autocomplete="email" .value=${r.reply_to ?? ''} /></label>
              <label class="field">Subject<input name="subject" type="text" placeholder="Your answers to …" .value=${r.subject ?? ''} /></label>
              <label class="field">Message<textarea name="message" placeholder="Thank you. Here is a copy of your answers." .value=${r.message ?? ''}></textarea></label>
              <div class="row"><button class="btn primary" type="submit">Update receipt</button></div>
            </form>
          </section>`
        : nothing}`);
  }
}
customElements.get('fl-notifications-card') || customElements.define('fl-notifications-card', FlNotificationsCard);
