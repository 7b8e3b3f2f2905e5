import { LitElement, html, css, nothing, type TemplateResult } from 'lit';
import { tokens, controls } from '../../controls/styles';
import type { FormStore } from '../store';
import type { MergeResult, Side } from '../../../../../core/src/forms/form-merge.js';
import type { Form } from '../../../data/forms';
import { placeName, sides } from './conflict-words';

/**
 * `<fl-conflict-panel>`: shown while the form's store holds a conflict (docs/workspace.md, "When the form
 * changed elsewhere"): the other side's changes that touch nothing of this tab's are already in the draft
 * (listed); for each thing both changed, "Keep mine" or "Take theirs", or one of them for all; then
 * "Save the merged form" saves with the server's new ETag. Edits made meanwhile stay in the draft and are
 * part of the merge. Announced when it appears (role alert), and it never takes the focus from a field.
 */
export class FlConflictPanel extends LitElement {
  static override styles = [
    tokens,
    controls,
    css`
      :host { display: block; margin: 0.75rem 1rem 0; }
      @media (max-width: 720px) { :host { margin: 0.75rem 0.75rem 0; } }
      section { border: 1px solid var(--_warning); background: color-mix(in srgb, var(--_warning) 6%, var(--_surface)); border-radius: calc(var(--_radius) * 1.5); padding: 1rem; display: grid; gap: 0.75rem; }
      p { margin: 0; }
      ul.conflicts { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.75rem; }
      fieldset { border: 1px solid var(--_border); border-radius: var(--_radius); background: var(--_surface); padding: 0.5rem 0.75rem 0.75rem; margin: 0; display: grid; gap: 0.5rem; grid-template-columns: repeat(auto-fit, minmax(min(16rem, 100%), 1fr)); min-width: 0; }
      legend { font-weight: 600; padding: 0 0.25rem; overflow-wrap: anywhere; }
      label.side { display: grid; grid-template-columns: auto minmax(0, 1fr); gap: 0.15rem 0.5rem; align-items: start; padding: 0.5rem; border: 1px solid var(--_border); border-radius: var(--_radius); cursor: pointer; min-height: 2.75rem; }
      label.side:has(input:checked) { border-color: var(--_primary); box-shadow: inset 0 0 0 1px var(--_primary); }
      /* Not the text fields' size (controls' input rule). */
      label.side input[type='radio'] { width: 1.15rem; height: 1.15rem; min-height: 0; padding: 0; margin: 0.15rem 0 0; accent-color: var(--_primary); }
      label.side input:focus-visible { outline: 2px solid var(--_primary); outline-offset: 2px; }
      .choice { font-weight: 600; }
      .value { grid-column: 2; color: var(--_muted); font-size: 0.9375rem; overflow-wrap: anywhere; }
      .taken { font-size: 0.9375rem; }
      .actions { display: flex; gap: 0.5rem; flex-wrap: wrap; align-items: center; }
      .actions .primary { margin-inline-start: auto; }
      @media (max-width: 520px) { .actions .btn { flex: 1 1 100%; justify-content: center; } .actions .primary { margin: 0; } }
    `,
  ];
  static override properties = { store: { attribute: false }, tick: { attribute: false }, choices: { state: true } };
  store!: FormStore;
  tick = 0;
  /** The side chosen per conflict id; mine where none is. */
  choices = new Map<string, Side>();

  private choose(id: string, side: Side) {
    this.choices = new Map(this.choices).set(id, side);
  }

  private all(side: Side, ids: string[]) {
    this.choices = new Map(ids.map((id) => [id, side]));
    const live = this.renderRoot.querySelector('#conflict-live');
    if (live) live.textContent = side === 'mine' ? 'Your version is chosen everywhere.' : 'Their version is chosen everywhere.';
  }

  private save() {
    const choices = this.choices;
    this.store.resolve((id) => choices.get(id) ?? 'mine');
    this.choices = new Map();
    this.dispatchEvent(new CustomEvent('fl-resolved', { bubbles: true, composed: true }));
  }

  override render() {
    const s = this.store;
    const theirs = s.conflict?.theirs;
    if (!theirs) return nothing;
    const { conflicts } = s.mergeWith(theirs);
    const taken = s.conflict!.taken;
    const ids = conflicts.map((c) => c.id);
    const n = conflicts.length;
    return html`<section aria-labelledby="conflict-h">
      <h2 id="conflict-h">This form was also changed elsewhere</h2>
      <p role="alert">Someone saved changes in another tab or by another person while you were editing. ${n === 0 ? 'Nothing is left to choose: save the merged form.' : `${n === 1 ? 'One thing was changed on both sides' : `${n} things were changed on both sides`}: choose which version to keep. Nothing is saved until you do.`}</p>
      ${taken.length
        ? html`<p class="taken">Their other changes are already in your draft: ${taken.map((c) => placeName(c.place, s.draft, theirs)).join(', ')}.</p>`
        : nothing}
      <ul class="conflicts">
        ${conflicts.map((c, i) => {
          const name = placeName(c.place, s.draft, theirs);
          const v = sides(c, s.draft, theirs);
          const side = this.choices.get(c.id) ?? 'mine';
          return html`<li><fieldset><legend>${name}</legend>
            <label class="side"><input type="radio" name="c${i}" value="mine" .checked=${side === 'mine'} @change=${() => this.choose(c.id, 'mine')} />
              <span class="choice">Keep mine</span><span class="value">Yours: ${v.mine}</span></label>
            <label class="side"><input type="radio" name="c${i}" value="theirs" .checked=${side === 'theirs'} @change=${() => this.choose(c.id, 'theirs')} />
              <span class="choice">Take theirs</span><span class="value">Theirs: ${v.theirs}</span></label>
          </fieldset></li>`;
        })}
      </ul>
      <div class="actions">
        <button class="btn" type="button" @click=${() => this.all('mine', ids)}>Keep mine for all</button>
        <button class="btn" type="button" @click=${() => this.all('theirs', ids)}>Take theirs for all</button>
        <button class="btn primary" type="button" @click=${() => this.save()}>Save the merged form</button>
      </div>
      <p id="conflict-live" class="sr-only" role="status" aria-live="polite"></p>
    </section>`;
  }
}
customElements.get('fl-conflict-panel') || customElements.define('fl-conflict-panel', FlConflictPanel);

/**
 * What the builder shows under its header in conflict: the panel, or, when the server's form could not be
 * read back to merge (deleted, offline), the offer to load the latest version.
 */
export function conflictArea(s: FormStore, tick: number, onResolved: () => void): TemplateResult | typeof nothing {
  if (s.state !== 'conflict') return nothing;
  if (s.conflict) return html`<fl-conflict-panel .store=${s} .tick=${tick} @fl-resolved=${onResolved}></fl-conflict-panel>`;
  return html`<div class="banner" role="alert"><p><strong>This form was changed elsewhere</strong> (another tab or person) and could not be read back to merge it with yours. Your latest edits are not saved.</p>
    <button class="btn primary" type="button" @click=${() => void s.reload()}>Load the latest version</button></div>`;
}

/** The notice of a merge without conflicts: what was taken from the other side. */
export function mergedMessage({ taken, form }: MergeResult<Form>): string {
  return `Changes made elsewhere were merged with yours${taken.length ? `: ${taken.map((c) => placeName(c.place, form, form)).join(', ')}` : ''}.`;
}
