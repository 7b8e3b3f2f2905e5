import { html, nothing } from 'lit';

/** A hint below a field, read as its description (not part of its name). */
function hinted(hint: string | undefined) {
  if (!hint) return { id: nothing, el: nothing };
  // Unique within the shadow root, and stable across renders of the same hint.
  const id = `hint-${[...hint].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7).toString(36)}`;
  return { id, el: html`<span id=${id} class="muted hint">${hint}</span>` };
}

/*
 * Labelled inputs as template helpers (a label wraps its input, so every control has its name). Each calls
 * `set` with the new value as the person types; `null` means "cleared".
 */

export function textField(label: string, value: unknown, set: (v: string | null) => void, o: { placeholder?: string; multiline?: boolean; type?: string; hint?: string; name?: string; rows?: number } = {}) {
  const v = typeof value === 'string' ? value : '';
  const on = (e: Event) => {
    const t = (e.target as HTMLInputElement).value;
    set(t === '' ? null : t);
  };
  const h = hinted(o.hint);
  return html`<label class="field">${label}
    ${o.multiline
      ? html`<textarea name=${o.name ?? nothing} rows=${o.rows ?? 3} .value=${v} placeholder=${o.placeholder ?? nothing} aria-describedby=${h.id} @input=${on}></textarea>`
      : html`<input name=${o.name ?? nothing} type=${o.type ?? 'text'} .value=${v} placeholder=${o.placeholder ?? nothing} aria-describedby=${h.id} @input=${on} />`}
  </label>${h.el}`;
}

export function numberField(label: string, value: unknown, set: (v: number | null) => void, o: { min?: number; max?: number; step?: number; hint?: string; integer?: boolean } = {}) {
  const v = typeof value === 'number' ? String(value) : '';
  const h = hinted(o.hint);
  return html`<label class="field">${label}
    <input type="number" aria-describedby=${h.id} inputmode=${o.integer ? 'numeric' : 'decimal'} .value=${v} min=${o.min ?? nothing} max=${o.max ?? nothing} step=${o.step ?? (o.integer ? 1 : 'any')}
      @input=${(e: Event) => {
        const t = (e.target as HTMLInputElement).value;
        const n = Number(t);
        set(t === '' || !Number.isFinite(n) ? null : n);
      }} />
  </label>${h.el}`;
}

export function checkField(label: string, value: unknown, set: (v: boolean) => void) {
  return html`<label class="check"><input type="checkbox" .checked=${value === true} @change=${(e: Event) => set((e.target as HTMLInputElement).checked)} />${label}</label>`;
}

export function selectField<T extends string>(label: string, value: unknown, options: ReadonlyArray<readonly [T, string]>, set: (v: T) => void) {
  return html`<label class="field">${label}
    <select @change=${(e: Event) => set((e.target as HTMLSelectElement).value as T)}>
      ${options.map(([v, text]) => html`<option value=${v} ?selected=${v === value}>${text}</option>`)}
    </select>
  </label>`;
}

/** Copies `o` without the keys whose value is null or undefined (how a cleared property is removed). */
export function compact<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined)) as T;
}
