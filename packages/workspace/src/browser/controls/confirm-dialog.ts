import { LitElement, html, css, type TemplateResult } from 'lit';
import { tokens, controls } from './styles';

/**
 * `<fl-confirm>`: a modal question with a confirm and a cancel button. `ask()` opens it and resolves true
 * when the person confirms. Focus moves into the dialog and back; Escape cancels (native `<dialog>`).
 * CSS parts: `dialog`.
 */
export class FlConfirm extends LitElement {
  static override styles = [
    tokens,
    controls,
    css`
      dialog { border: 1px solid var(--_border); border-radius: calc(var(--_radius) * 1.5); padding: 1.25rem; max-width: min(30rem, calc(100vw - 2rem)); background: var(--_surface); color: var(--_text); }
      dialog::backdrop { background: rgb(0 0 0 / 0.45); }
      .actions { display: flex; gap: 0.5rem; justify-content: flex-end; flex-wrap: wrap; margin-top: 1rem; }
      p { margin: 0.5rem 0 0; line-height: 1.45; }
    `,
  ];
  static override properties = { heading: { state: true }, body: { state: true }, confirmText: { state: true }, danger: { state: true } };
  heading = '';
  body: TemplateResult | string = '';
  confirmText = 'Confirm';
  danger = false;
  private resolve: ((ok: boolean) => void) | null = null;

  /** Opens the dialog; resolves true on confirm, false on cancel or Escape. */
  async ask(o: { heading: string; body: TemplateResult | string; confirmText?: string; danger?: boolean }): Promise<boolean> {
    this.heading = o.heading;
    this.body = o.body;
    this.confirmText = o.confirmText ?? 'Confirm';
    this.danger = o.danger ?? false;
    await this.updateComplete;
    const dialog = this.renderRoot.querySelector('dialog')!;
    dialog.showModal();
    return new Promise((ok) => (this.resolve = ok));
  }

  private done(ok: boolean) {
    this.renderRoot.querySelector('dialog')?.close();
    this.resolve?.(ok);
    this.resolve = null;
  }

  override render() {
    return html`<dialog part="dialog" aria-labelledby="h" @cancel=${() => this.done(false)}>
      <h2 id="h">${this.heading}</h2>
      <div>${typeof this.body === 'string' ? html`<p>${this.body}</p>` : this.body}</div>
      <div class="actions">
        <button class="btn" type="button" @click=${() => this.done(false)}>Cancel</button>
        <button class="btn ${this.danger ? 'danger solid' : 'primary'}" type="button" @click=${() => this.done(true)}>${this.confirmText}</button>
      </div>
    </dialog>`;
  }
}
customElements.get('fl-confirm') || customElements.define('fl-confirm', FlConfirm);
