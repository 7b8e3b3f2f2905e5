import { LitElement, html, css, nothing } from 'lit';
import { tokens, controls } from './styles';

/**
 * `<fl-toast>`: a short message at the bottom of the screen with at most one action ("Deleted · Undo").
 * `show()` replaces what is shown; it goes after `duration` ms, on `hide()`, or once its action ran. Read
 * out politely (role status). While the pointer is on it or the focus in it, its time stands still and starts
 * again in full when they leave (docs/workspace.md, "Undo"): an action cannot vanish under the hand about to
 * use it. CSS parts: `toast`.
 */
export class FlToast extends LitElement {
  static override styles = [
    tokens,
    controls,
    css`
      :host { position: fixed; inset: auto 0 1rem; display: flex; justify-content: center; pointer-events: none; z-index: 20; padding: 0 0.75rem; }
      .toast { pointer-events: auto; display: flex; align-items: center; gap: 0.75rem; max-width: 100%; padding: 0.4rem 0.5rem 0.4rem 1rem; border-radius: var(--_radius);
        background: var(--_text); color: var(--_surface); box-shadow: 0 6px 24px rgb(0 0 0 / 0.25); font-size: 0.9375rem; }
      .toast span { overflow-wrap: anywhere; }
      .toast .btn { background: transparent; color: inherit; border-color: currentColor; min-height: 2.25rem; }
    `,
  ];
  static override properties = { text: { state: true }, action: { state: true } };
  text = '';
  action: { label: string; run: () => void } | null = null;
  /** How long a message stays, in ms. */
  duration = 8000;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Whether the pointer is on the message or the focus in it. */
  private pointer = false;
  private focused = false;

  show(text: string, action: { label: string; run: () => void } | null = null): void {
    this.text = text;
    this.action = action;
    this.restart();
  }

  hide(): void {
    clearTimeout(this.timer);
    this.text = '';
    this.action = null;
    this.pointer = this.focused = false;
  }

  private restart(): void {
    clearTimeout(this.timer);
    if (this.text && !this.pointer && !this.focused) this.timer = setTimeout(() => this.hide(), this.duration);
  }

  private hold(kind: 'pointer' | 'focused', on: boolean): void {
    this[kind] = on;
    this.restart();
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    clearTimeout(this.timer);
  }

  override render() {
    const a = this.action;
    return html`<div role="status" aria-live="polite">${this.text
      ? html`<div class="toast" part="toast" @pointerenter=${() => this.hold('pointer', true)} @pointerleave=${() => this.hold('pointer', false)}
          @focusin=${() => this.hold('focused', true)} @focusout=${() => this.hold('focused', false)}><span>${this.text}</span>${a
          ? html`<button class="btn small" type="button" @click=${() => { this.hide(); a.run(); }}>${a.label}</button>`
          : nothing}</div>`
      : nothing}</div>`;
  }
}
customElements.get('fl-toast') || customElements.define('fl-toast', FlToast);
