/*
 * A team viewer's settings, theme and versions (docs/workspace.md, "Roles"): the same screens as an editor's,
 * every control locked, so the viewer reads what is set without a control the server would refuse. Text
 * fields become read-only (they can still be focused, read and copied), every other control disabled, in
 * the panel and in the elements inside it (shadow roots included), and kept so when they re-render: a
 * MutationObserver per shadow root relocks what appears or is unlocked. Buttons marked `data-viewer-ok`
 * (e.g. "View and compare") stay usable; the "@ Recall" helpers are hidden; the respondent's preview is left
 * alone (it is inert already).
 * The form's store refuses edits of a viewer too (`FormStore.readOnly`): nothing reaches the server.
 */

const TEXT_TYPES = new Set(['text', 'url', 'email', 'number', 'search', 'tel', '']);
const SKIP = new Set(['FL-PREVIEW', 'FORMLOOM-FORM']);

function lock(el: Element): void {
  // The "@ Recall" helpers only insert into a field: nothing to read in them.
  if (el.tagName === 'FL-RECALL') (el as HTMLElement).style.display = 'none';
  if (el instanceof HTMLTextAreaElement || (el instanceof HTMLInputElement && TEXT_TYPES.has(el.getAttribute('type') ?? ''))) {
    if (el.readOnly) return;
    el.readOnly = true;
    // Seen as not editable: the page's background instead of the field's (inline, in whichever shadow root).
    el.style.background = 'var(--_bg)';
  } else if ((el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLButtonElement) && !el.disabled && !el.hasAttribute('data-viewer-ok')) {
    el.disabled = true;
  }
}

/** Locks every control under `root` and keeps them locked; returns the function that stops watching. */
export function lockControls(root: ShadowRoot | Element): () => void {
  const observers: MutationObserver[] = [];
  const seen = new WeakSet<Node>();
  const walk = (node: ShadowRoot | Element) => {
    for (const el of node.querySelectorAll('*')) {
      if (SKIP.has(el.tagName)) continue;
      lock(el);
      if (el.shadowRoot && !seen.has(el.shadowRoot)) watch(el.shadowRoot);
    }
  };
  const watch = (r: ShadowRoot | Element) => {
    seen.add(r);
    const o = new MutationObserver(() => walk(r));
    o.observe(r, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled', 'readonly'] });
    observers.push(o);
    walk(r);
  };
  watch(root);
  return () => observers.forEach((o) => o.disconnect());
}
