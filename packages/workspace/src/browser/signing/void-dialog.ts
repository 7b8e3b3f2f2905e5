import { LitElement, html, css } from 'lit';
import { tokens, controls } from '../controls/styles';

/**
 * `<fl-void-session>`: asks why a session is being voided. `ask()` resolves with the reason, or null when
 * the person cancels (Escape too). The reason is recorded in the audit trail and mailed to those who signed.
 */
export class FlVoidSession extends LitElement {
  static override styles = [
    tokens,
    controls,
    css`
      dialog { border: 1px solid var(--_border); border-radius: calc(var(--_radius) * 1.5); padding: 1.25rem; width: min(30rem, calc(100vw - 2rem)); background: var(--_surface); color: var(--_text); }
      dialog::backdrop { background: rgb(0 0 0 / 0.45); }
      form { display: grid; gap: 0.75rem; }
      .actions { display: flex; gap: 0.5rem; justify-content: flex-end; flex-wrap: wrap; }
      p { margin: 0; line-height: 1.45; }
    `,
  ];
  private resolve: ((reason: string | null) => void) | null = null;
  private opener: HTMLElement | null = null;

  async ask(): Promise<string | null> {
    await this.updateComplete;
    const dialog = this.renderRoot.querySelector('dialog')!;
    this.renderRoot.querySelector('form')!.reset();
    let a = document.activeElement as HTMLElement | null;
    while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement as HTMLElement;
    this.opener = a;
    dialog.showModal();
    return new Promise((ok) => (this.resolve = ok));
  }

  private done(reason: string | null) {
    this.renderRoot.querySelector('dialog')?.close();
    this.resolve?.(reason);
    this.resolve = null;
  }

  override render() {
    return html`<dialog aria-labelledby="void-h" @cancel=${() => this.done(null)} @close=${() => this.opener?.isConnected && this.opener.focus()}>
      <form @submit=${(e: Event) => {
        e.preventDefault();
        const reason = (this.renderRoot.querySelector('textarea') as HTMLTextAreaElement).value.trim();
        if (reason) this.done(reason);
        else (this.renderRoot.querySelector('textarea') as HTMLTextAreaElement).reportValidity();
      }}>
        <h2 id="void-h">Void this session?</h2>
        <p>The links of those who have not signed stop working at once, everyone who signed is told by email, and their signed copies are sealed watermarked VOIDED. This cannot be undone.</p>
        <label class="field">Reason (recorded and sent to those who signed)<textarea name="reason" rows="3" maxlength="1000" required></textarea></label>
        <div class="actions">
          <button class="btn" type="button" @click=${() => this.done(null)}>Cancel</button>
          <button class="btn danger solid" type="submit">Void session</button>
        </div>
      </form>
    </dialog>`;
  }
}
customElements.get('fl-void-session') || customElements.define('fl-void-session', FlVoidSession);
