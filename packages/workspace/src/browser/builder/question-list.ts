import { LitElement, html, css, nothing, svg } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import Sortable from 'sortablejs';
import { tokens, controls } from '../controls/styles';
import { KINDS, kindOf } from './kinds/registry';
import type { Question, QuestionType } from '../../data/forms';

const COPY_ICON = svg`<svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="1.5"><rect x="5" y="5" width="9" height="9" rx="1.5"/><path d="M11 5V3.5A1.5 1.5 0 0 0 9.5 2h-6A1.5 1.5 0 0 0 2 3.5v6A1.5 1.5 0 0 0 3.5 11H5"/></svg>`;

/**
 * `<fl-question-list>`: the questions in order, to select, reorder (drag and drop with sortablejs, or the
 * move buttons and Alt+Arrow keys), duplicate and delete, and the "Add a question" control. Announces
 * `fl-select` {id}, `fl-move` {from, to}, `fl-duplicate` {id}, `fl-delete` {id}, `fl-add` {type}.
 */
export class FlQuestionList extends LitElement {
  static override styles = [
    tokens,
    controls,
    css`
      :host { display: grid; gap: 0.75rem; align-content: start; }
      ol { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.4rem; }
      li { display: grid; grid-template-columns: auto minmax(0, 1fr) auto; align-items: center; gap: 0.25rem; background: var(--_surface); border: 1px solid var(--_border); border-radius: var(--_radius); padding: 0.25rem; }
      li[aria-current='true'] { border-color: var(--_primary); box-shadow: inset 3px 0 0 var(--_primary); }
      li.problem { border-color: var(--_danger); }
      .handle { cursor: grab; color: var(--_muted); padding: 0 0.35rem; user-select: none; font-size: 1.1rem; }
      .pick { all: unset; cursor: pointer; display: grid; gap: 0.1rem; padding: 0.35rem 0.4rem; border-radius: calc(var(--_radius) - 2px); min-width: 0; min-height: 2.25rem; }
      .pick:focus-visible { outline: 2px solid var(--_primary); outline-offset: 1px; }
      .num { font-size: 0.75rem; color: var(--_muted); }
      .title { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; font-size: 0.9375rem; }
      .tools { display: flex; gap: 0.15rem; }
      .tools .btn { min-height: 2rem; min-width: 2rem; padding: 0.2rem; font-size: 0.875rem; }
      .add { display: grid; grid-template-columns: minmax(0, 1fr) auto; gap: 0.5rem; align-items: end; }
      .sortable-ghost { opacity: 0.4; }
      .warn { color: var(--_danger); font-size: 0.75rem; }
    `,
  ];
  static override properties = { questions: { attribute: false }, selected: {}, problems: { attribute: false }, addType: { state: true }, keyOf: { attribute: false } };
  questions: Question[] = [];
  /** A question's stable key (its id survives the server's renaming of new questions under it). */
  keyOf: (id: string) => string = (id) => id;
  selected = '';
  /** Question ids with publish-check problems. */
  problems: Set<string> = new Set();
  addType: QuestionType = 'short_text';
  private sortable: Sortable | null = null;
  private dragNext: Node | null = null;
  private pendingFocus: { key: string; what: 'up' | 'down' | 'pick' } | null = null;

  private emit(name: string, detail: unknown) {
    this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
  }

  override firstUpdated() {
    const list = this.renderRoot.querySelector('ol')!;
    this.sortable = Sortable.create(list, {
      handle: '.handle',
      animation: 120,
      onStart: (e) => (this.dragNext = e.item.nextSibling),
      onEnd: (e) => {
        // Put the node back where Lit left it; the move happens in the data and Lit re-renders the order.
        e.from.insertBefore(e.item, this.dragNext);
        if (e.oldIndex !== undefined && e.newIndex !== undefined && e.oldIndex !== e.newIndex) this.move(e.oldIndex, e.newIndex);
      },
    });
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    this.sortable?.destroy();
    this.sortable = null;
  }

  override connectedCallback() {
    super.connectedCallback();
    if (this.hasUpdated && !this.sortable) this.firstUpdated();
  }

  /** Moves a question and keeps the keyboard on it; the live region says where it went. */
  private move(from: number, to: number, focus?: 'up' | 'down' | 'pick') {
    if (to < 0 || to >= this.questions.length) return;
    const q = this.questions[from]!;
    this.emit('fl-move', { from, to });
    this.say(`“${q.title || 'Untitled'}” moved to position ${to + 1} of ${this.questions.length}.`);
    // The builder hands back the new order in a later update: the focus is placed then (see updated()).
    if (focus) this.pendingFocus = { key: this.keyOf(q.id), what: focus };
  }

  override updated() {
    const f = this.pendingFocus;
    if (!f) return;
    const index = this.questions.findIndex((q) => this.keyOf(q.id) === f.key);
    const li = this.renderRoot.querySelectorAll('li')[index];
    if (!li || li.getAttribute('data-key') !== f.key) return;
    this.pendingFocus = null;
    const target = li.querySelector<HTMLButtonElement>(f.what === 'pick' ? '.pick' : `[data-act="${f.what}"]`);
    (target && !target.disabled ? target : li.querySelector<HTMLElement>('.pick'))?.focus();
  }

  private say(text: string) {
    const live = this.renderRoot.querySelector('#live');
    if (live) live.textContent = text;
  }

  private onKey(e: KeyboardEvent, i: number) {
    if (!e.altKey || (e.key !== 'ArrowUp' && e.key !== 'ArrowDown')) return;
    e.preventDefault();
    this.move(i, e.key === 'ArrowUp' ? i - 1 : i + 1, 'pick');
  }

  private add() {
    this.emit('fl-add', { type: this.addType });
  }

  override render() {
    const n = this.questions.length;
    const groups = [...new Set(KINDS.map((k) => k.group))];
    return html`<ol aria-label="Questions" aria-describedby="how">
        ${repeat(this.questions, (q) => this.keyOf(q.id), (q, i) => html`<li data-id=${q.id} data-key=${this.keyOf(q.id)} aria-current=${q.id === this.selected ? 'true' : 'false'} class=${this.problems.has(q.id) ? 'problem' : ''}>
          <span class="handle" aria-hidden="true" title="Drag to reorder">⠿</span>
          <button class="pick" type="button" @click=${() => this.emit('fl-select', { id: q.id })} @keydown=${(e: KeyboardEvent) => this.onKey(e, i)}>
            <span class="num">${i + 1} · ${kindOf(q.type).label}</span>
            <span class="title">${q.title || 'Untitled question'}</span>
            ${this.problems.has(q.id) ? html`<span class="warn">needs attention</span>` : nothing}
          </button>
          <span class="tools">
            <button class="btn" type="button" data-act="up" aria-label="Move question ${i + 1} up" ?disabled=${i === 0} @click=${() => this.move(i, i - 1, 'up')}>↑</button>
            <button class="btn" type="button" data-act="down" aria-label="Move question ${i + 1} down" ?disabled=${i === n - 1} @click=${() => this.move(i, i + 1, 'down')}>↓</button>
            <button class="btn" type="button" aria-label="Duplicate question ${i + 1}" @click=${() => this.emit('fl-duplicate', { id: q.id })}>${COPY_ICON}</button>
            <button class="btn danger" type="button" aria-label="Delete question ${i + 1}" @click=${() => this.emit('fl-delete', { id: q.id })}>✕</button>
          </span>
        </li>`)}
      </ol>
      ${n === 0 ? html`<p class="muted">No questions yet: add the first one below.</p>` : nothing}
      <p id="how" class="sr-only">Drag a question by its handle, or use the move buttons, or Alt plus the arrow keys on a question, to change the order.</p>
      <div class="add">
        <label class="field">New question
          <select @change=${(e: Event) => (this.addType = (e.target as HTMLSelectElement).value as QuestionType)}>
            ${groups.map((g) => html`<optgroup label=${g}>${KINDS.filter((k) => k.group === g).map((k) => html`<option value=${k.type} ?selected=${k.type === this.addType}>${k.label}</option>`)}</optgroup>`)}
          </select>
        </label>
        <button class="btn primary" type="button" ?disabled=${n >= 500} @click=${() => this.add()}>Add question</button>
      </div>
      <p id="live" class="sr-only" role="status" aria-live="polite"></p>`;
  }
}
customElements.get('fl-question-list') || customElements.define('fl-question-list', FlQuestionList);
