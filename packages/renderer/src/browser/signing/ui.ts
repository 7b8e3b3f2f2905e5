import { h, uid } from '../dom.js';

/** Small building blocks of the signer's page. */

export const button = (text: string, onclick: (() => void) | null, cls = 'fls-button', type: 'button' | 'submit' = 'button') =>
  h('button', { type, class: cls, onclick: onclick ?? undefined }, text);

/** A labelled input; the label is a real `<label for>`. */
export function field(label: string, attrs: Record<string, unknown>, hint?: string) {
  const id = uid('f');
  const hintId = hint ? `${id}-hint` : undefined;
  const input = h('input', { id, class: 'fls-input', 'aria-describedby': hintId, ...attrs });
  return { input, element: h('div', { class: 'fls-field' }, h('label', { for: id }, label), hint ? h('p', { id: hintId, class: 'fls-hint' }, hint) : null, input) };
}

/** An error line, announced by screen readers as soon as it is set. */
export function errorLine() {
  const el = h('p', { class: 'fls-error', role: 'alert', 'aria-live': 'assertive' });
  return {
    element: el,
    show(message: string, target?: HTMLElement) {
      el.textContent = message;
      if (target) {
        target.setAttribute('aria-invalid', 'true');
        target.focus();
      }
    },
    clear() {
      el.textContent = '';
      el.parentElement?.querySelectorAll('[aria-invalid]').forEach((n) => n.removeAttribute('aria-invalid'));
    },
  };
}

/** Disables a form's buttons while a request runs, so one press sends one request. */
export async function busy<T>(form: HTMLElement, run: () => Promise<T>): Promise<T> {
  const buttons = [...form.querySelectorAll('button')];
  buttons.forEach((b) => (b.disabled = true));
  form.setAttribute('aria-busy', 'true');
  try {
    return await run();
  } finally {
    buttons.forEach((b) => (b.disabled = false));
    form.removeAttribute('aria-busy');
  }
}

/** A section with a focusable heading (focus moves there when the screen changes). */
export const section = (title: string, ...children: (Node | null)[]) =>
  h('section', { class: 'fls-section' }, h('h2', { tabindex: '-1' }, title), ...children);
