import { LitElement, css, html, nothing, type PropertyDeclarations, type TemplateResult } from 'lit';
import type { Api } from '../../data/client';

/** The look the Integrations tab's cards share: their sections one under another. */
export const formCardStyles = css`
  :host { display: grid; gap: 1rem; min-width: 0; }
  p { margin: 0; line-height: 1.45; }
`;

/**
 * What the Integrations tab's cards share (docs/workspace.md, "Integrations"): the form they are about and
 * whether this person may change it, loading once per form, a failed call said in the card, and a notice a
 * screen reader speaks after each change. `<fl-integrations-card>` and `<fl-notifications-card>` are ones.
 */
export abstract class FormCard extends LitElement {
  static override properties: PropertyDeclarations = {
    api: { attribute: false },
    formId: { attribute: false },
    canEdit: { attribute: false },
    error: { state: true },
    notice: { state: true },
  };
  api: Api | null = null;
  formId = '';
  canEdit = false;
  error = '';
  notice = '';
  private loaded = '';

  /** Reads what the card shows for `formId`. */
  protected abstract load(): Promise<void>;

  override willUpdate() {
    if (this.api && this.formId && this.loaded !== this.formId) {
      this.loaded = this.formId;
      void this.load();
    }
  }

  /** Runs a call of the card: its failure is said in the card, its success clears that. */
  protected async run(work: () => Promise<void>) {
    try {
      await work();
      this.error = '';
    } catch (e) {
      this.error = (e as Error).message;
    }
  }

  /** The card: `content` once `ready` (till then `loading`, or what failed), then the error and the notice. */
  protected frame(ready: boolean, loading: string, content: () => unknown): TemplateResult {
    if (!ready) return this.error ? html`<p class="error-text" role="alert">${this.error}</p>` : html`<p class="muted" role="status">${loading}</p>`;
    return html`${content()}
      ${this.error ? html`<p class="error-text" role="alert">${this.error}</p>` : nothing}
      <p class="sr-only" role="status" aria-live="polite">${this.notice}</p>`;
  }
}
