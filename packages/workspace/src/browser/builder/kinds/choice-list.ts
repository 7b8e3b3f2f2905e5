import { LitElement, html, css, nothing, type TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import Sortable from 'sortablejs';
import { tokens, controls } from '../../controls/styles';

export interface Choice {
  id?: string;
  label: string;
  score?: number;
  ending_id?: string;
}

/**
 * A choice still as the kind's defaults or "Add a choice" made it ("Option 2"), with nothing else set: Enter
 * moves into it to type over it, and pasted lines replace it, so no leftover placeholder has to be removed.
 */
export const isPlaceholder = (c: Choice | undefined) => !!c && /^Option \d+$/.test(c.label) && Object.keys(c).every((k) => k === 'label' || k === 'id');

/** One line per choice, blank lines dropped (pasted text, the bulk editor). */
export const linesOf = (text: string) => text.split(/\r\n|\r|\n/).map((l) => l.trim()).filter((l) => l !== '');

/**
 * `<fl-choice-list>`: the choices of a multiple-choice or dropdown question, typed like a list in a text
 * editor (docs/workspace.md, "Choices"): Enter adds the next choice and moves to it (or into the next one
 * when that is still a placeholder such as "Option 2", to type over it), Backspace in an empty
 * choice removes it, pasting several lines makes one choice per line, Alt+Arrow keys or the move buttons or
 * the drag handle reorder, and "Edit as text" edits them all at once, one per line. Announces `fl-choices`
 * with the new list; `extra` renders what a mode adds under a choice (a score, an ending).
 */
export class FlChoiceList extends LitElement {
  static override styles = [
    tokens,
    controls,
    css`
      :host { display: block; }
      fieldset { border: 1px solid var(--_border); border-radius: var(--_radius); padding: 0.75rem; margin: 0; display: grid; gap: 0.5rem; min-width: 0; }
      legend { font-weight: 600; font-size: 0.875rem; padding: 0 0.25rem; }
      ol { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.4rem; }
      li { display: grid; grid-template-columns: auto minmax(0, 1fr) auto; gap: 0.35rem; align-items: start; }
      .handle { cursor: grab; color: var(--_muted); padding: 0.55rem 0.1rem; user-select: none; touch-action: none; line-height: 1; }
      .main { display: grid; gap: 0.35rem; min-width: 0; }
      .btns { display: flex; gap: 0.2rem; }
      .btns .btn { min-width: 2.25rem; min-height: 2.5rem; padding: 0.2rem; justify-content: center; }
      .more { display: flex; gap: 0.5rem; flex-wrap: wrap; }
      .sortable-ghost { opacity: 0.4; }
      dialog { border: 1px solid var(--_border); border-radius: calc(var(--_radius) * 1.5); padding: 1.25rem; width: min(32rem, calc(100vw - 2rem)); background: var(--_surface); color: var(--_text); }
      dialog::backdrop { background: rgb(0 0 0 / 0.45); }
      dialog form { display: grid; gap: 0.75rem; }
      dialog textarea { min-height: 14rem; }
      .actions { display: flex; gap: 0.5rem; justify-content: flex-end; flex-wrap: wrap; }
    `,
  ];
  static override properties = { choices: { attribute: false }, extra: { attribute: false }, max: { type: Number }, bulkError: { state: true } };
  choices: Choice[] = [];
  /** What a mode shows under each choice (a score, the ending it counts toward). */
  extra: ((c: Choice, i: number) => TemplateResult | typeof nothing) | null = null;
  /** Most choices the question may have (the API's limit for its kind). */
  max = 500;
  bulkError = '';
  private sortable: Sortable | null = null;
  private dragNext: Node | null = null;
  /** Focuses a choice (the first by default), all its text selected when it is a placeholder to type over. */
  focusChoice(index = 0) {
    const input = this.renderRoot.querySelectorAll<HTMLInputElement>('input.choice')[index];
    if (!input) return false;
    input.focus();
    if (isPlaceholder(this.choices[index])) input.select();
    return true;
  }

  /** The choice to focus once the new list is rendered, and where the caret goes. */
  private pendingFocus: { index: number; caret: 'end' | 'all' } | null = null;

  private emit(list: Choice[], focus?: FlChoiceList['pendingFocus']) {
    if (focus) this.pendingFocus = focus;
    this.dispatchEvent(new CustomEvent('fl-choices', { detail: list, bubbles: true, composed: true }));
  }

  override firstUpdated() {
    const ol = this.renderRoot.querySelector('ol')!;
    this.sortable = Sortable.create(ol, {
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

  override connectedCallback() {
    super.connectedCallback();
    if (this.hasUpdated && !this.sortable) this.firstUpdated();
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    this.sortable?.destroy();
    this.sortable = null;
  }

  override updated() {
    const f = this.pendingFocus;
    const input = f && this.renderRoot.querySelectorAll<HTMLInputElement>('input.choice')[f.index];
    if (!f || !input) return;
    this.pendingFocus = null;
    input.focus();
    if (f.caret === 'all') input.select();
    else input.setSelectionRange(input.value.length, input.value.length);
  }

  private say(text: string) {
    const live = this.renderRoot.querySelector('#choice-live');
    if (live) live.textContent = text;
  }

  private move(from: number, to: number, focus = false) {
    if (to < 0 || to >= this.choices.length) return;
    const list = [...this.choices];
    const [c] = list.splice(from, 1);
    list.splice(to, 0, c!);
    this.emit(list);
    this.say(`Choice “${c!.label || 'empty'}” moved to position ${to + 1} of ${list.length}.`);
    if (focus) void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(`[data-move="${to}:${to < from ? -1 : 1}"]:not([disabled])`)?.focus());
  }

  private insert(at: number, labels: string[], focus: 'end' | 'all' = 'end') {
    const room = Math.max(0, this.max - this.choices.length);
    const added = labels.slice(0, room).map((label) => ({ label }));
    if (!added.length) return this.say(`A question has at most ${this.max} choices.`);
    const list = [...this.choices.slice(0, at), ...added, ...this.choices.slice(at)];
    this.emit(list, { index: at + added.length - 1, caret: focus });
    if (added.length > 1) this.say(`${added.length} choices added.`);
  }

  private removeChoice(i: number) {
    if (this.choices.length <= 1) return;
    this.emit(this.choices.filter((_c, j) => j !== i), { index: Math.max(0, i - 1), caret: 'end' });
  }

  private edit(i: number, label: string) {
    this.emit(this.choices.map((c, j) => (j === i ? { ...c, label } : c)));
  }

  private onKey(e: KeyboardEvent, i: number) {
    const input = e.target as HTMLInputElement;
    if (e.isComposing) return;
    if (e.key === 'Enter') {
      e.preventDefault();
      // The next choice is an untouched placeholder: type over it rather than adding one before it.
      if (isPlaceholder(this.choices[i + 1])) {
        this.pendingFocus = { index: i + 1, caret: 'all' };
        this.requestUpdate();
      } else this.insert(i + 1, ['']);
    } else if (e.key === 'Backspace' && input.value === '' && this.choices.length > 1) {
      e.preventDefault();
      this.removeChoice(i);
    } else if (e.altKey && (e.key === 'ArrowUp' || e.key === 'ArrowDown')) {
      e.preventDefault();
      const to = e.key === 'ArrowUp' ? i - 1 : i + 1;
      if (to < 0 || to >= this.choices.length) return;
      this.pendingFocus = { index: to, caret: 'end' };
      this.move(i, to);
    }
  }

  /** Several lines pasted into a choice: the first goes where the caret is, each other one becomes a choice. */
  private onPaste(e: ClipboardEvent, i: number) {
    const lines = linesOf(e.clipboardData?.getData('text/plain') ?? '');
    if (lines.length < 2) return;
    e.preventDefault();
    const input = e.target as HTMLInputElement;
    const start = input.selectionStart ?? input.value.length;
    const end = input.selectionEnd ?? input.value.length;
    const first = `${input.value.slice(0, start)}${lines[0]}${input.value.slice(end)}`;
    // Untouched placeholders after this choice ("Option 2") give way to the pasted lines.
    const after = this.choices.slice(i + 1).filter((c) => !isPlaceholder(c));
    const room = Math.max(0, this.max - i - 1 - after.length);
    const rest = lines.slice(1, 1 + room).map((label) => ({ label }));
    const list = [...this.choices.slice(0, i), { ...this.choices[i]!, label: first }, ...rest, ...after];
    this.emit(list, { index: i + rest.length, caret: 'end' });
    this.say(`${rest.length + 1} choices from ${lines.length} pasted lines.`);
  }

  private openBulk() {
    this.bulkError = '';
    const dialog = this.renderRoot.querySelector('dialog')!;
    dialog.querySelector('textarea')!.value = this.choices.map((c) => c.label).join('\n');
    dialog.showModal();
  }

  /** The lines become the choices; a line that keeps its text keeps that choice's score and ending. */
  private saveBulk(e: Event) {
    e.preventDefault();
    const dialog = this.renderRoot.querySelector('dialog')!;
    const lines = linesOf(dialog.querySelector('textarea')!.value);
    if (!lines.length) return void (this.bulkError = 'Write at least one choice.');
    if (lines.length > this.max) return void (this.bulkError = `A question has at most ${this.max} choices: remove ${lines.length - this.max}.`);
    const pool = new Map<string, Choice[]>();
    for (const c of this.choices) pool.set(c.label, [...(pool.get(c.label) ?? []), c]);
    const list = lines.map((label) => pool.get(label)?.shift() ?? { label });
    dialog.close();
    this.emit(list);
    this.say(`${list.length} choices.`);
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLButtonElement>('.bulk')?.focus());
  }

  override render() {
    const list = this.choices;
    return html`<fieldset>
        <legend>Choices</legend>
        <ol aria-describedby="choice-how">
          ${repeat(list, (_c, i) => i, (c, i) => html`<li>
            <span class="handle" aria-hidden="true" title="Drag to reorder">⠿</span>
            <div class="main">
              <label class="field">Choice ${i + 1}<input class="choice" type="text" .value=${c.label} enterkeyhint="next"
                @input=${(e: Event) => this.edit(i, (e.target as HTMLInputElement).value)} @keydown=${(e: KeyboardEvent) => this.onKey(e, i)} @paste=${(e: ClipboardEvent) => this.onPaste(e, i)} /></label>
              ${this.extra ? this.extra(c, i) : nothing}
            </div>
            <div class="btns">
              <button class="btn small" type="button" data-move="${i}:-1" aria-label="Move choice ${i + 1} up" ?disabled=${i === 0} @click=${() => this.move(i, i - 1, true)}>↑</button>
              <button class="btn small" type="button" data-move="${i}:1" aria-label="Move choice ${i + 1} down" ?disabled=${i === list.length - 1} @click=${() => this.move(i, i + 1, true)}>↓</button>
              <button class="btn small danger" type="button" aria-label="Remove choice ${i + 1}" ?disabled=${list.length <= 1} @click=${() => this.removeChoice(i)}>✕</button>
            </div>
          </li>`)}
        </ol>
        <p id="choice-how" class="sr-only">Enter adds the next choice or moves into a placeholder choice, Backspace in an empty choice removes it, pasting several lines adds one choice per line in place of placeholder choices, Alt plus the arrow keys moves a choice.</p>
        <div class="more">
          <button class="btn small" type="button" ?disabled=${list.length >= this.max} @click=${() => this.insert(list.length, [`Option ${list.length + 1}`], 'all')}>Add a choice</button>
          <button class="btn small bulk" type="button" @click=${() => this.openBulk()}>Edit as text</button>
        </div>
        <p id="choice-live" class="sr-only" role="status" aria-live="polite"></p>
      </fieldset>
      <dialog aria-labelledby="bulk-h" data-native-undo @close=${() => (this.bulkError = '')}>
        <form @submit=${(e: Event) => this.saveBulk(e)}>
          <h2 id="bulk-h">Edit the choices as text</h2>
          <label class="field">One choice per line<textarea spellcheck="false" aria-describedby="bulk-err"></textarea></label>
          <p id="bulk-err" class="error-text" role="alert" style="margin:0">${this.bulkError}</p>
          <div class="actions">
            <button class="btn" type="button" @click=${() => this.renderRoot.querySelector('dialog')!.close()}>Cancel</button>
            <button class="btn primary" type="submit">Save choices</button>
          </div>
        </form>
      </dialog>`;
  }
}
customElements.get('fl-choice-list') || customElements.define('fl-choice-list', FlChoiceList);
