import { LitElement, html, css, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import { recallParts, recallToken, type Recall, type RecallKind } from '../../../../core/src/logic/recall.js';
import { kindOf } from './kinds/registry';
import type { Form, Question } from '../../data/forms';

/*
 * `<fl-recall>` (docs/workspace.md, "Recall"): placed right after a text field (title, description, choice
 * label, welcome and thank-you texts, redirect URL), it offers what that text may recall (earlier questions,
 * hidden fields, variables) when `@` is typed in the field or its "Recall" button is pressed, inserts the
 * id-based token (`{answer.<id>|fallback}`) where the caret was, and shows under the field how the text reads,
 * each recall as a chip named by the question's title. The field keeps the raw token: plain inputs stay plain.
 *
 * `at` says where the text is: a question's id (questions before it may be recalled), `before` (the welcome
 * screen: no answer yet) or `after` (the thank-you screen, the redirect URL: every question). The form comes
 * from the builder's store, found up the tree.
 */

interface Choice {
  kind: RecallKind;
  name: string;
  label: string;
}

interface StoreLike {
  draft?: Form;
  flush?(): Promise<boolean>;
  keyOf?(id: string): string;
}

/** The builder's store, from the nearest element up the (shadow-crossing) tree that holds it. */
function storeOf(from: Node): StoreLike | null {
  let n: Node | null = from;
  while (n) {
    const s = (n as Node & { store?: StoreLike }).store;
    if (s?.draft) return s;
    n = n.parentNode ?? (n as ShadowRoot).host ?? null;
  }
  return null;
}

const draftOf = (from: Node): Form | null => storeOf(from)?.draft ?? null;

/** Puts the caret at `at`; a URL field has none (its selection API throws), so it stays where it is. */
function caretAt(field: HTMLInputElement | HTMLTextAreaElement | null, at: number) {
  try {
    field?.setSelectionRange(at, at);
  } catch {
    // type=url: no selection to set.
  }
}

export class FlRecall extends LitElement {
  static override styles = [
    tokens,
    controls,
    css`
      :host { display: block; position: relative; margin-top: -0.35rem; }
      .row { display: flex; flex-wrap: wrap; gap: 0.4rem; align-items: center; font-size: 0.8125rem; }
      .reads { margin: 0; color: var(--_muted); overflow-wrap: anywhere; }
      .chip { display: inline-block; padding: 0 0.4rem; border-radius: 999px; background: color-mix(in srgb, var(--_primary) 14%, var(--_surface)); color: var(--_text); border: 1px solid color-mix(in srgb, var(--_primary) 40%, transparent); }
      .chip.bad { border-color: var(--_danger); color: var(--_danger); background: var(--_surface); }
      .menu { position: absolute; z-index: 30; top: 100%; left: 0; margin-top: 0.25rem; width: min(24rem, 100%); min-width: min(16rem, 90vw); max-width: 90vw; display: grid; gap: 0.5rem;
        background: var(--_surface); border: 1px solid var(--_border); border-radius: var(--_radius); padding: 0.6rem; box-shadow: 0 6px 24px rgb(0 0 0 / 0.18); }
      ul { list-style: none; margin: 0; padding: 0; max-height: 14rem; overflow: auto; }
      li { padding: 0.45rem 0.5rem; border-radius: calc(var(--_radius) - 2px); cursor: pointer; overflow-wrap: anywhere; }
      li[aria-selected='true'] { background: color-mix(in srgb, var(--_primary) 18%, var(--_surface)); outline: 1px solid var(--_primary); }
      .kind { color: var(--_muted); font-size: 0.8125rem; }
      .empty { color: var(--_muted); font-size: 0.875rem; margin: 0; }
      label { display: grid; gap: 0.2rem; font-size: 0.8125rem; }
      input { font: inherit; min-height: 2.25rem; padding: 0.3rem 0.5rem; border: 1px solid var(--_border); border-radius: var(--_radius); background: var(--_surface); color: var(--_text); }
    `,
  ];
  static override properties = { value: {}, at: {}, label: {}, open: { state: true }, query: { state: true }, active: { state: true } };
  /** The field's text, for the line that says how it reads. */
  value: string | null = '';
  at = 'after';
  /** The field's name, for the button's accessible name. */
  label = 'this text';
  open = false;
  query = '';
  active = 0;
  /** Ids are looked up in this element's own shadow root: the same in every instance. */
  private readonly uid = 'recall';
  /** Where the caret was in the field when the menu opened, and whether an `@` typed there opened it. */
  private caret = 0;
  private typedAt = false;
  private fallback = '';
  private field: HTMLInputElement | HTMLTextAreaElement | null = null;
  private readonly onFieldInput = (e: Event) => {
    const ie = e as InputEvent;
    if (ie.inputType === 'insertText' && ie.data === '@' && this.field) this.show(true);
  };

  override connectedCallback() {
    super.connectedCallback();
    void this.updateComplete.then(() => this.bind());
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    this.field?.removeEventListener('input', this.onFieldInput);
    this.field = null;
  }

  /** The field this element follows: the input or text area of the nearest element before it. */
  private bind() {
    let prev = this.previousElementSibling;
    for (let i = 0; prev && i < 3; i++, prev = prev.previousElementSibling) {
      const f = prev.matches('input, textarea') ? (prev as HTMLInputElement) : prev.querySelector<HTMLInputElement | HTMLTextAreaElement>('input, textarea');
      if (f) {
        if (f !== this.field) {
          this.field?.removeEventListener('input', this.onFieldInput);
          f.addEventListener('input', this.onFieldInput);
          this.field = f;
        }
        return;
      }
    }
  }

  /** What this text may recall: questions before it (those that take an answer), hidden fields, variables. */
  choices(): Choice[] {
    const f = draftOf(this);
    if (!f) return [];
    const qs = f.questions;
    const end = this.at === 'before' ? 0 : this.at === 'after' ? qs.length : Math.max(0, qs.findIndex((q) => q.id === this.at));
    const out: Choice[] = [];
    qs.slice(0, end).forEach((q, i) => kindOf(q.type).answerable && out.push({ kind: 'answer', name: q.id, label: `Question ${i + 1}: ${q.title || 'Untitled question'}` }));
    for (const n of (f.hidden_fields as string[] | null | undefined) ?? []) out.push({ kind: 'hidden', name: n, label: `Hidden field: ${n}` });
    for (const n of Object.keys((f.variables as Record<string, unknown> | null | undefined) ?? {})) out.push({ kind: 'var', name: n, label: `Variable: ${n}` });
    return out;
  }

  private shown(): Choice[] {
    const q = this.query.trim().toLowerCase();
    return q ? this.choices().filter((c) => c.label.toLowerCase().includes(q)) : this.choices();
  }

  /** Opens the menu; `typed`: an `@` just typed in the field, which the token will replace. */
  show(typed: boolean) {
    this.bind();
    if (!this.field) return;
    this.caret = this.field.selectionStart ?? this.field.value.length;
    this.typedAt = typed;
    this.query = '';
    this.fallback = '';
    this.active = 0;
    this.open = true;
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLInputElement>('input[role="combobox"]')?.focus());
  }

  close(refocus = true) {
    if (!this.open) return;
    this.open = false;
    if (refocus) {
      this.field?.focus();
      caretAt(this.field, this.caret);
    }
  }

  /**
   * A question made in this tab has a temporary id until its first save: the save goes out first, so that the
   * token names the id the service gave it (which later saves and reorderings keep).
   */
  private async savedName(c: Choice): Promise<string> {
    if (c.kind !== 'answer' || !c.name.startsWith('new_')) return c.name;
    const store = storeOf(this);
    if (!store?.flush || !store.keyOf) return c.name;
    await store.flush();
    return store.draft?.questions.find((q) => store.keyOf!(q.id) === c.name)?.id ?? c.name;
  }

  /** Puts the token at the caret (in place of the typed `@`) and tells the field's owner, as typing would. */
  async insert(c: Choice) {
    const field = this.field;
    if (!field) return;
    c = { ...c, name: await this.savedName(c) };
    const v = field.value;
    const start = this.typedAt && v[this.caret - 1] === '@' ? this.caret - 1 : this.caret;
    // From the button, after a word: a space first, as one would type it.
    const token = (start > 0 && !/\s/.test(v[start - 1]!) && !this.typedAt ? ' ' : '') + recallToken(c.kind, c.name, this.fallback);
    field.value = v.slice(0, start) + token + v.slice(this.caret);
    this.caret = start + token.length;
    this.open = false;
    field.focus();
    caretAt(field, this.caret);
    field.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    this.live(`Inserted ${c.label}.`);
  }

  private live(text: string) {
    const el = this.renderRoot.querySelector('.live');
    if (el) el.textContent = text;
  }

  private onKey(e: KeyboardEvent) {
    const list = this.shown();
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (list.length) this.active = (this.active + (e.key === 'ArrowDown' ? 1 : -1) + list.length) % list.length;
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const c = list[this.active];
      if (c) void this.insert(c);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      this.close();
    }
  }

  /** How a recall reads in the line under the field: the question's title, or what is wrong with it. */
  private chip(r: Recall, f: Form | null) {
    const or = r.fallback ? ` · or “${r.fallback}”` : '';
    if (r.kind !== 'answer') return html`<span class="chip">${r.name}${or}</span>`;
    const qs: Question[] = f?.questions ?? [];
    const i = qs.findIndex((q) => q.id === r.name);
    const here = this.at === 'before' ? 0 : this.at === 'after' ? qs.length : qs.findIndex((q) => q.id === this.at);
    if (i < 0) return html`<span class="chip bad">a deleted question</span>`;
    if (i >= here) return html`<span class="chip bad">question ${i + 1}, not answered yet here</span>`;
    return html`<span class="chip">${qs[i]!.title || `Question ${i + 1}`}${or}</span>`;
  }

  override render() {
    const v = this.value ?? '';
    const parts = v.includes('{') ? recallParts(v) : [];
    const hasRecall = parts.some((p) => typeof p !== 'string');
    const f = hasRecall ? draftOf(this) : null;
    const list = this.open ? this.shown() : [];
    const active = Math.min(this.active, Math.max(0, list.length - 1));
    return html`<div class="row">
        <button class="btn small" type="button" aria-haspopup="listbox" aria-expanded=${String(this.open)} aria-label="Recall an answer in ${this.label}" @click=${() => (this.open ? this.close() : this.show(false))}>@ Recall</button>
        ${hasRecall ? html`<p class="reads">Reads: ${parts.map((p) => (typeof p === 'string' ? p : this.chip(p, f)))}</p>` : nothing}
        <span class="live sr-only" role="status"></span>
      </div>
      ${this.open
        ? html`<div class="menu" role="group" aria-label="Recall in ${this.label}" @focusout=${(e: FocusEvent) => !this.renderRoot.contains(e.relatedTarget as Node) && this.close(false)}>
            <input type="text" role="combobox" aria-label="Find what to recall" aria-expanded="true" aria-controls="${this.uid}-list" aria-autocomplete="list"
              aria-activedescendant=${list.length ? `${this.uid}-${active}` : nothing} .value=${this.query} autocomplete="off"
              @input=${(e: Event) => { this.query = (e.target as HTMLInputElement).value; this.active = 0; }} @keydown=${(e: KeyboardEvent) => this.onKey(e)} />
            ${list.length
              ? html`<ul role="listbox" id="${this.uid}-list" aria-label="What to recall">${list.map((c, i) => html`<li role="option" id="${this.uid}-${i}" aria-selected=${String(i === active)}
                  @pointerdown=${(e: Event) => e.preventDefault()} @click=${() => void this.insert(c)}>${c.label}</li>`)}</ul>`
              : html`<p class="empty" id="${this.uid}-list">${this.at === 'before' ? 'No question is answered before the welcome screen: add hidden fields or variables to recall them here.' : 'Nothing to recall here: only answers to earlier questions, hidden fields and variables.'}</p>`}
            <label>If it is empty, show<input type="text" maxlength="200" placeholder="e.g. there" @input=${(e: Event) => (this.fallback = (e.target as HTMLInputElement).value)}
              @keydown=${(e: KeyboardEvent) => (e.key === 'Enter' || e.key === 'Escape') && this.onKey(e)} /></label>
          </div>`
        : nothing}`;
  }
}
customElements.get('fl-recall') || customElements.define('fl-recall', FlRecall);
