import { LitElement, html, css, nothing, svg } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import Sortable from 'sortablejs';
import { tokens, controls } from '../controls/styles';
import { KINDS, kindOf } from './kinds/registry';
import { kindIcon } from './kinds/kind-icons';
import { parseRecalls } from '../../../../core/src/logic/recall.js';
import { readableText as readable } from './recall-ids';
import type { Question, QuestionType } from '../../data/forms';

/** Whether a question's texts recall an answer, hidden field or variable (core/src/logic/recall.ts). */
const recalls = (q: Question) =>
  [q.title, q.description, ...(Array.isArray(q.properties?.choices) ? (q.properties.choices as Array<{ label?: unknown }>).map((c) => c.label) : [])].some((t) => parseRecalls(t).length > 0);

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
    // A long form's list is laid out item by item (flex, not grid), and items out of view skip layout and paint
    // (content-visibility, with the last height seen as their size): undo and typing at 200 questions re-lay a
    // few items, not all of them (docs/benchmarks.md, "The builder at 200 questions"). Said here, not in the CSS
    // the page carries.
    css`
      :host { display: grid; gap: 0.75rem; align-content: start; }
      ol { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 0.4rem; }
      li { content-visibility: auto; contain-intrinsic-size: auto 4.75rem; }
      /* The tools sit over the first line (kind and number), so the title below has the item's whole width. */
      li { position: relative; display: grid; grid-template-columns: auto minmax(0, 1fr); align-items: start; gap: 0.15rem; background: var(--_surface); border: 1px solid var(--_border); border-radius: var(--_radius); padding: 0.25rem; }
      li[aria-current='true'] { border-color: var(--_primary); box-shadow: inset 3px 0 0 var(--_primary); }
      li.problem { border-color: var(--_danger); }
      .handle { cursor: grab; color: var(--_muted); padding: 0.45rem 0.3rem; user-select: none; font-size: 1.1rem; line-height: 1; touch-action: none; }
      .pick { all: unset; cursor: pointer; display: grid; gap: 0.2rem; padding: 0.3rem 0.4rem; border-radius: calc(var(--_radius) - 2px); min-width: 0; min-height: 2.25rem; }
      .pick:focus-visible { outline: 2px solid var(--_primary); outline-offset: 1px; }
      .num { display: flex; align-items: center; gap: 0.35rem; min-height: 1.9rem; padding-right: 8.4rem; font-size: 0.75rem; color: var(--_muted); }
      .kind-icon { flex: none; color: var(--_text); }
      .title { display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical; overflow: hidden; overflow-wrap: anywhere; font-size: 0.9375rem; line-height: 1.3; }
      .title.untitled { color: var(--_muted); font-style: italic; }
      .badges { display: flex; flex-wrap: wrap; gap: 0.25rem; }
      .tag { font-size: 0.75rem; line-height: 1.2; padding: 0.05rem 0.45rem; border-radius: 999px; border: 1px solid var(--_border); color: var(--_muted); }
      .tag.todo { border-color: var(--_warning); color: var(--_warning); }
      .warn { color: var(--_danger); font-size: 0.75rem; }
      .tools { position: absolute; top: 0.25rem; right: 0.25rem; display: flex; gap: 0.15rem; }
      .tools .btn { min-height: 2rem; min-width: 2rem; padding: 0.2rem; font-size: 0.875rem; justify-content: center; }
      .add { display: grid; grid-template-columns: minmax(0, 1fr) auto; gap: 0.5rem; align-items: end; }
      .sortable-ghost { opacity: 0.4; }
    `,
  ];
  static override properties = { questions: { attribute: false }, selected: {}, problems: { attribute: false }, unfinished: { attribute: false }, addType: { state: true }, keyOf: { attribute: false } };
  questions: Question[] = [];
  /** A question's stable key (its id survives the server's renaming of new questions under it). */
  keyOf: (id: string) => string = (id) => id;
  selected = '';
  /** Question ids with publish-check problems. */
  problems: Set<string> = new Set();
  /** Questions kept in the browser until finished, with why ("Needs a title"): a publish check, not an error. */
  unfinished: Map<string, string> = new Map();
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

  /**
   * Puts the keyboard on a question once the list shows it (the builder's delete and its Undo, whose question comes
   * back in a later update), or on the new question's kind when `id` is null.
   */
  focusQuestion(id: string | null) {
    if (id === null) return void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('select')?.focus());
    this.pendingFocus = { key: this.keyOf(id), what: 'pick' };
    this.requestUpdate();
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

  /** Required, logic and recall at a glance, and what a publish would refuse. */
  private badges(q: Question) {
    const tags: Array<[string, string]> = [];
    const todo = this.unfinished.get(q.id);
    if (todo) tags.push([todo, 'todo']);
    if (q.required && kindOf(q.type).answerable) tags.push(['Required', '']);
    if ((q.logic_jumps ?? []).length) tags.push(['Logic', '']);
    if (recalls(q)) tags.push(['Recall', '']);
    return tags.length ? html`<span class="badges">${tags.map(([t, c]) => html`<span class="tag ${c}">${t}</span>`)}</span>` : nothing;
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
          <button class="pick" type="button" title=${readable(q.title, this.questions)} @click=${() => this.emit('fl-select', { id: q.id })} @keydown=${(e: KeyboardEvent) => this.onKey(e, i)}>
            <span class="num">${kindIcon(q.type)}<span>${i + 1} · ${kindOf(q.type).label}</span></span>
            <span class="title ${q.title.trim() ? '' : 'untitled'}">${q.title.trim() ? readable(q.title, this.questions) : 'Untitled question'}</span>
            ${this.badges(q)}
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
