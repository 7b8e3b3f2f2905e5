import { LitElement, html, css, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import { kindOf } from './kinds/registry';
import { kindIcon } from './kinds/kind-icons';
import type { Question } from '../../data/forms';

/**
 * `<fl-readonly-questions>`: the questions as a team viewer sees them (issue 36, "Roles in the UI"): numbered,
 * with their kind, whether they are required and their description, and no control that changes the form
 * (the API would refuse it). Choosing a question shows it in the preview: `fl-select` {id}.
 */
export class FlReadonlyQuestions extends LitElement {
  static override styles = [
    tokens,
    controls,
    css`
      :host { display: grid; gap: 0.75rem; align-content: start; }
      .notice { margin: 0; padding: 0.75rem; border: 1px solid var(--_border); border-radius: var(--_radius); background: var(--_surface); }
      ol { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.4rem; }
      li { background: var(--_surface); border: 1px solid var(--_border); border-radius: var(--_radius); }
      li[aria-current='true'] { border-color: var(--_primary); box-shadow: inset 3px 0 0 var(--_primary); }
      button { all: unset; box-sizing: border-box; width: 100%; cursor: pointer; display: grid; gap: 0.2rem; padding: 0.5rem 0.6rem; border-radius: var(--_radius); min-height: 2.75rem; }
      button:focus-visible { outline: 2px solid var(--_primary); outline-offset: 1px; }
      .num { display: flex; align-items: center; gap: 0.35rem; font-size: 0.75rem; color: var(--_muted); }
      .title { overflow-wrap: anywhere; font-size: 0.9375rem; line-height: 1.3; }
      .desc { overflow-wrap: anywhere; font-size: 0.8125rem; color: var(--_muted); }
    `,
  ];
  static override properties = { questions: { attribute: false }, selected: {}, readerRole: { attribute: 'reader-role' }, team: {} };
  questions: Question[] = [];
  selected = '';
  /** The reader's role, named in the notice ("viewer"). */
  readerRole = 'viewer';
  /** The team's name, when known. */
  team = '';

  private pick(id: string) {
    this.dispatchEvent(new CustomEvent('fl-select', { detail: { id }, bubbles: true, composed: true }));
  }

  override render() {
    return html`<p class="notice" role="note">You can read this form and its results${this.team ? html` as a ${this.readerRole} of <strong>${this.team}</strong>` : nothing}; changing it needs the editor role or above.</p>
      ${this.questions.length === 0
        ? html`<p class="muted">This form has no questions yet.</p>`
        : html`<ol aria-label="Questions">
            ${this.questions.map(
              (q, i) => html`<li aria-current=${q.id === this.selected ? 'true' : 'false'}>
                <button type="button" @click=${() => this.pick(q.id)}>
                  <span class="num">${kindIcon(q.type)}<span>${i + 1} · ${kindOf(q.type).label}${q.required ? ' · required' : ''}</span></span>
                  <span class="title">${q.title || 'Untitled question'}</span>
                  ${q.description ? html`<span class="desc">${q.description}</span>` : nothing}
                </button>
              </li>`,
            )}
          </ol>`}`;
  }
}
customElements.get('fl-readonly-questions') || customElements.define('fl-readonly-questions', FlReadonlyQuestions);
