import { LitElement, html, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import type { Api } from '../../data/client';
import { dropStuck, listStuck, retryStuck, type StuckItem } from '../../data/admin';
import { errorLine, messageOf } from '../auth/auth-card';
import { sectionStyles, when } from '../account/account-styles';
import type { FlConfirm } from '../controls/confirm-dialog';
import '../controls/confirm-dialog';
import { adminStyles } from './admin-styles';

const KINDS: Record<string, string> = {
  mail: 'A mail',
  webhook: 'A webhook delivery',
  signing_seal: 'Sealing a signed document',
};

/**
 * `<fl-admin-outbox>`: mails and deliveries the server could not send (no mailer set up, a receiver that
 * fails), with "Try again now" and "Give up" (`formloom outbox retry / drop`). Contents are never shown:
 * mails are sealed and deliveries carry respondents' answers.
 */
export class FlAdminOutbox extends LitElement {
  static override styles = [tokens, controls, sectionStyles, adminStyles];
  static override properties = { api: { attribute: false }, items: { state: true }, error: { state: true }, said: { state: true }, busy: { state: true } };
  api!: Api;
  items: StuckItem[] | null = null;
  error: string | null = null;
  said: string | null = null;
  busy = false;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load() {
    try {
      this.items = (await listStuck(this.api)).items;
    } catch (e) {
      this.error = messageOf(e);
    }
  }

  private async act(work: () => Promise<unknown>, said: string) {
    this.busy = true;
    this.error = null;
    try {
      await work();
      this.said = said;
      await this.load();
    } catch (e) {
      this.error = messageOf(e);
    } finally {
      this.busy = false;
    }
  }

  private async onDrop(item: StuckItem) {
    const ok = await this.renderRoot.querySelector<FlConfirm>('fl-confirm')!.ask({
      heading: 'Give up on it?',
      body: 'It is deleted and never sent.',
      confirmText: 'Give up',
      danger: true,
    });
    if (ok) void this.act(() => dropStuck(this.api, item.id), 'It was given up on.');
  }

  override render() {
    const items = this.items;
    return html`${this.said ? html`<p class="ok-text" role="status">${this.said}</p>` : nothing}
      ${errorLine(this.error)}
      ${items === null
        ? html`<p class="muted" role="status">Loading…</p>`
        : items.length === 0
          ? html`<p>Nothing is stuck: every mail and delivery went out.</p>`
          : html`<p class="muted">These could not be sent. Fix the cause (for example the mail settings), then try again.</p>
            <ul class="rows">${items.map((i) => html`<li>
              <span class="what"><strong>${KINDS[i.kind] ?? `A ${i.kind.replace(/_/g, ' ')}`}</strong>
                <span class="meta">${i.status === 'failed' ? 'No more tries' : 'Will be tried again'} · ${i.attempts === 1 ? '1 attempt' : `${i.attempts} attempts`} so far · since ${when(i.created_at)}</span>
                ${i.last_error ? html`<span class="meta">What went wrong: ${i.last_error}</span>` : nothing}</span>
              <span class="row">
                <button class="btn small" type="button" ?disabled=${this.busy} @click=${() => void this.act(() => retryStuck(this.api, i.id), 'It will be sent again now.')}>Try again now</button>
                <button class="btn small danger" type="button" ?disabled=${this.busy} @click=${() => void this.onDrop(i)}>Give up</button>
              </span>
            </li>`)}</ul>`}
      <fl-confirm></fl-confirm>`;
  }
}
customElements.get('fl-admin-outbox') || customElements.define('fl-admin-outbox', FlAdminOutbox);
