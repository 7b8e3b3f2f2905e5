import { html } from 'lit';
import type { FormStore } from './store';

/*
 * The builder's undo and redo controls (docs/workspace.md, "Undo and redo"): the keys, the header buttons,
 * and how an input event tells the history which field is being typed in (its keystrokes make one step).
 */

const MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
const MOD = MAC ? '⌘' : 'Ctrl';

/** Ctrl/⌘+Z undoes; Ctrl/⌘+Shift+Z and Ctrl+Y redo. */
export function undoKey(e: KeyboardEvent): 'undo' | 'redo' | null {
  if (!(e.ctrlKey || e.metaKey) || e.altKey || e.isComposing) return null;
  const k = e.key.toLowerCase();
  if (k === 'z') return e.shiftKey ? 'redo' : 'undo';
  if (k === 'y' && !e.shiftKey) return 'redo';
  return null;
}

/** Whether a key event comes from a place that keeps the browser's own undo (marked `data-native-undo`). */
const wantsNativeUndo = (e: Event) => e.composedPath().some((n) => n instanceof HTMLElement && n.hasAttribute('data-native-undo'));

/**
 * Whether an undo or redo key is the builder's (`host`) to take: from inside it or from nowhere in particular
 * (the page's body, where the focus falls when the element it was on goes), not from the host page's own
 * fields, nor one already handled or from a place that keeps the browser's own undo.
 */
export function undoKeyFor(host: Element, e: KeyboardEvent): boolean {
  if (e.defaultPrevented || wantsNativeUndo(e)) return false;
  const path = e.composedPath();
  const from = path[0];
  return path.includes(host) || from === document.body || from === document.documentElement || from === document;
}

const TYPED = new Set(['text', 'search', 'email', 'url', 'tel', 'number', 'password', 'color', 'range', 'date', 'time', 'datetime-local']);

/** A label's own words: its text before the control and any hint inside it. */
function labelText(label: HTMLLabelElement | undefined): string {
  let text = '';
  for (const n of label?.childNodes ?? []) {
    if (n.nodeType === Node.ELEMENT_NODE) break;
    if (n.nodeType === Node.TEXT_NODE) text += n.textContent;
  }
  return text;
}

/** The control an input or change event came from, and its name as a person reads it. */
export function editSource(e: Event): { group: unknown; label: string } {
  const el = e.composedPath()[0];
  if (!(el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement)) return { group: undefined, label: 'Edit' };
  const name = (el.getAttribute('aria-label') || labelText(el.labels?.[0]) || '').trim().replace(/\s+/g, ' ');
  // Keystrokes in one field make one step; a select or a checkbox is a step each time.
  const typed = el instanceof HTMLTextAreaElement || (el instanceof HTMLInputElement && e.type === 'input' && TYPED.has(el.type));
  return { group: typed ? el : undefined, label: name ? `Change “${name}”` : 'Edit' };
}

/** The Undo and Redo buttons of the header. */
export function undoButtons(store: FormStore, run: (what: 'undo' | 'redo') => void) {
  const h = store.history;
  return html`<span class="history" role="group" aria-label="Undo and redo">
    <button class="btn small" type="button" aria-label="Undo" aria-keyshortcuts="Control+Z Meta+Z" title=${h.canUndo ? `Undo: ${h.undoLabel} (${MOD}+Z)` : `Nothing to undo (${MOD}+Z)`}
      ?disabled=${!h.canUndo} @click=${() => run('undo')}>↶<span class="label">Undo</span></button>
    <button class="btn small" type="button" aria-label="Redo" aria-keyshortcuts="Control+Shift+Z Meta+Shift+Z Control+Y" title=${h.canRedo ? `Redo: ${h.redoLabel} (${MOD}+Shift+Z)` : `Nothing to redo (${MOD}+Shift+Z)`}
      ?disabled=${!h.canRedo} @click=${() => run('redo')}>↷<span class="label">Redo</span></button>
  </span>`;
}
