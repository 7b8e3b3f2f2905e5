import { h } from '../dom.js';
import type { Control, ControlContext, PublicQuestion } from '../types.js';

const INPUT_TYPES: Record<string, string> = { short_text: 'text', email: 'email', number: 'number', date: 'date' };

/** short_text, long_text, email, number, date: one labelled field. Enter continues; in long text Shift+Enter is a new line. */
export function textControl(q: PublicQuestion, ctx: ControlContext): Control {
  const p = q.properties;
  const common = {
    'aria-labelledby': ctx.labelledBy,
    'aria-describedby': ctx.describedBy,
    'aria-required': ctx.required ? 'true' : undefined,
    placeholder: p.placeholder,
    class: 'fl-input',
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      ctx.next();
    }
  };
  if (q.type === 'long_text') {
    const el = h('textarea', { ...common, rows: 4, maxlength: p.max_length, onkeydown: onKey }) as HTMLTextAreaElement;
    el.value = typeof ctx.value === 'string' ? ctx.value : '';
    el.addEventListener('input', () => ctx.set(el.value));
    return { el, focus: () => el.focus() };
  }
  const type = INPUT_TYPES[q.type] ?? 'text';
  const el = h('input', {
    ...common,
    type,
    inputmode: type === 'number' ? 'decimal' : undefined,
    step: type === 'number' ? 'any' : undefined,
    min: p.min,
    max: p.max,
    maxlength: p.max_length,
    autocomplete: type === 'email' ? 'email' : 'off',
    onkeydown: onKey,
  });
  el.value = ctx.value === null || ctx.value === undefined ? '' : String(ctx.value);
  el.addEventListener('input', () => {
    if (type !== 'number') return ctx.set(el.value);
    // A number field reports '' for text it cannot read: keep that as "not a number" for the error message.
    ctx.set(el.value === '' ? (el.validity.badInput ? NaN : null) : Number(el.value));
  });
  return { el, focus: () => el.focus() };
}
