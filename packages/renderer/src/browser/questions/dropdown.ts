import { h, uid } from '../dom.js';
import type { Control, ControlContext, PublicQuestion } from '../types.js';

/** dropdown: a text field with the choices as suggestions, so a long list is searched by typing. */
export function dropdownControl(q: PublicQuestion, ctx: ControlContext): Control {
  const listId = uid('list');
  const choices = (q.properties.choices ?? []) as Array<{ label: string }>;
  const el = h('input', {
    type: 'text',
    class: 'fl-input',
    list: listId,
    autocomplete: 'off',
    placeholder: 'Type to search',
    'aria-labelledby': ctx.labelledBy,
    'aria-describedby': ctx.describedBy,
    'aria-required': ctx.required ? 'true' : undefined,
    value: typeof ctx.value === 'string' ? ctx.value : '',
    onkeydown: (e: KeyboardEvent) => {
      if (e.key === 'Enter') {
        e.preventDefault();
        ctx.next();
      }
    },
  });
  // A typed label in another case still names the choice: the answer is the choice's own label.
  el.addEventListener('input', () => {
    const match = choices.find((c) => c.label.toLowerCase() === el.value.trim().toLowerCase());
    ctx.set(match ? match.label : el.value);
  });
  const list = h('datalist', { id: listId }, choices.map((c) => h('option', { value: c.label })));
  return { el: h('div', { class: 'fl-dropdown' }, el, list), focus: () => el.focus() };
}
