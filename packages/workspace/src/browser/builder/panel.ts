import { LitElement, css } from 'lit';
import { tokens, controls } from '../controls/styles';
import type { FormStore } from './store';
import type { Form } from '../../data/forms';
import { lockControls } from './read-only';

/**
 * Base of the builder's tabs other than the questions (settings, theme, publish, versions, share): each is
 * given the form's `store` and re-renders when the builder's `tick` moves (any edit or save).
 */
export class BuilderPanel extends LitElement {
  static override styles = [
    tokens,
    controls,
    css`
      :host { display: block; }
      .cols { display: grid; gap: 1rem; grid-template-columns: minmax(0, 1fr) minmax(18rem, 26rem); align-items: start; }
      @media (max-width: 900px) { .cols { grid-template-columns: minmax(0, 1fr); } }
      /* Below the builder's title bar, which stays in view (--_bar-h, set by the builder). */
      .sticky { position: sticky; top: calc(var(--_bar-h, 0px) + 0.75rem); }
      @media (max-width: 900px) { .sticky { position: static; } }
      section.card { display: grid; gap: 0.75rem; }
      /* One column that never grows past the panel: a long link or snippet wraps or scrolls in its field. */
      .sections { display: grid; gap: 1rem; grid-template-columns: minmax(0, 1fr); }
      .hint { font-weight: 400; font-size: 0.8125rem; }
      fieldset { border: 1px solid var(--_border); border-radius: var(--_radius); padding: 0.75rem; margin: 0; display: grid; gap: 0.5rem; }
      legend { font-weight: 600; font-size: 0.875rem; padding: 0 0.25rem; }
      .item { display: grid; grid-template-columns: minmax(0, 1fr) auto; gap: 0.5rem; align-items: end; }
      table { border-collapse: collapse; width: 100%; font-size: 0.9375rem; }
      th, td { text-align: left; padding: 0.5rem; border-bottom: 1px solid var(--_border); vertical-align: top; }
      pre, code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.8125rem; }
      pre { white-space: pre-wrap; word-break: break-all; background: var(--_bg); border: 1px solid var(--_border); border-radius: var(--_radius); padding: 0.75rem; margin: 0; }
    `,
  ];
  static override properties = { store: { attribute: false }, pagesBase: { attribute: false }, base: { attribute: false }, tick: { attribute: false }, readOnly: { attribute: false } };
  store!: FormStore;
  /** A team viewer's screen: every control locked (./read-only.ts). */
  readOnly = false;
  private unlock: (() => void) | null = null;
  pagesBase = '';
  base: string | null = null;
  tick = 0;

  override updated(changed: Map<string, unknown>): void {
    super.updated(changed);
    if (this.readOnly && !this.unlock) this.unlock = lockControls(this.renderRoot as ShadowRoot);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.unlock?.();
    this.unlock = null;
  }

  protected get form(): Form {
    return this.store.draft;
  }

  /** Changes form fields (null clears one) and lets the store save them. */
  protected patch(fields: Partial<Record<keyof Form, unknown>>): void {
    this.store.update((f) => ({ ...f, ...fields }) as Form);
  }
}
