import { LitElement, html, css } from 'lit';
import { tokens, controls } from '../../controls/styles';
import type { JumpShift } from './reorder-check';

/** The element that has the focus, through shadow roots, to give it back when the dialog closes. */
function deepActive(): HTMLElement | null {
  let el = document.activeElement as HTMLElement | null;
  while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement as HTMLElement;
  return el;
}

/**
 * `<fl-reorder-warning>`: asks before a move that changes what a jump does (./reorder-check.ts). "Move and
 * keep the targets" moves the question, every jump still going to the question it named; "Don't move" leaves
 * the order as it was. Resolves true to move.
 */
export class FlReorderWarning extends LitElement {
  static override styles = [
    tokens,
    controls,
    css`
      dialog { border: 1px solid var(--_border); border-radius: var(--_radius); padding: 1rem; width: min(34rem, calc(100vw - 2rem)); box-sizing: border-box; color: var(--_text); background: var(--_bg, #fff); }
      dialog::backdrop { background: rgba(0, 0, 0, 0.35); }
      h2 { margin: 0 0 0.5rem; font-size: 1.1rem; }
      ul { padding-inline-start: 1.2rem; margin: 0.5rem 0 1rem; display: grid; gap: 0.35rem; overflow-wrap: anywhere; }
      .buttons { display: flex; gap: 0.5rem; flex-wrap: wrap; justify-content: flex-end; }
    `,
  ];
  static override properties = { shifts: { attribute: false } };
  shifts: JumpShift[] = [];
  private answer: (move: boolean) => void = () => undefined;

  /** Shows the warning in `host`'s page and resolves with the choice; the focus goes back where it was. */
  static ask(shifts: JumpShift[]): Promise<boolean> {
    const back = deepActive();
    const el = document.createElement('fl-reorder-warning') as FlReorderWarning;
    el.shifts = shifts;
    document.body.append(el);
    return new Promise((resolve) => {
      el.answer = (move) => {
        el.remove();
        back?.focus();
        resolve(move);
      };
      void el.updateComplete.then(() => el.renderRoot.querySelector('dialog')?.showModal());
    });
  }

  override render() {
    return html`<dialog aria-labelledby="t" aria-describedby="d" @cancel=${(e: Event) => { e.preventDefault(); this.answer(false); }}>
      <h2 id="t">This move changes where jumps go</h2>
      <ul id="d">${this.shifts.map((s) => html`<li>${s.message}</li>`)}</ul>
      <div class="buttons">
        <button class="btn" type="button" @click=${() => this.answer(false)}>Don't move</button>
        <button class="btn primary" type="button" @click=${() => this.answer(true)}>Move and keep the targets</button>
      </div>
    </dialog>`;
  }
}
customElements.get('fl-reorder-warning') || customElements.define('fl-reorder-warning', FlReorderWarning);
