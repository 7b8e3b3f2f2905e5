import { h, uid } from '../dom.js';
import { checkIcon } from '../icons.js';
import type { Control, ControlContext, PublicQuestion } from '../types.js';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * multiple_choice: radio buttons (one) or check boxes (`allow_multiple`), each with its letter; typing the
 * letter picks the choice, as in Typeform. A single pick moves on by itself. With `randomize`, the choices
 * are shown in the respondent's own order (letters follow the order shown; "Other" stays last); a
 * multiple selection is still sent in the form's order.
 */
export function choiceControl(q: PublicQuestion, ctx: ControlContext): Control {
  const multiple = q.properties.allow_multiple === true;
  const choices = (q.properties.choices ?? []) as Array<{ label: string }>;
  const shown = q.properties.randomize === true ? ctx.shuffle(choices) : choices;
  const name = uid('choice');
  const labels = new Set(choices.map((c) => c.label));
  const given: string[] = multiple ? ((ctx.value as string[] | null) ?? []) : ctx.value ? [ctx.value as string] : [];
  const selected = new Set<string>(given.filter((v) => labels.has(v)));
  const inputs: HTMLInputElement[] = [];
  // `allow_other`: a text field whose answer stands for a choice (docs/decisions.md "Answer values").
  const other =
    q.properties.allow_other === true
      ? h('input', { type: 'text', class: 'fl-input fl-other', placeholder: ctx.t('other'), 'aria-label': ctx.t('other'), maxlength: 1000, value: given.find((v) => !labels.has(v)) ?? '' })
      : null;
  const commit = () => {
    const extra = other?.value.trim() || null;
    if (multiple) return ctx.set([...choices.map((c) => c.label).filter((l) => selected.has(l)), ...(extra ? [extra] : [])]);
    ctx.set([...selected][0] ?? extra);
  };
  other?.addEventListener('input', () => {
    if (!multiple) {
      selected.clear();
      for (const i of inputs) i.checked = false;
    }
    commit();
  });
  other?.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      ctx.next();
    }
  });
  const pick = (label: string, on: boolean, advance: boolean) => {
    if (!multiple) selected.clear();
    if (!multiple && on && other) other.value = '';
    if (on) selected.add(label);
    else selected.delete(label);
    for (const i of inputs) i.checked = selected.has(i.value);
    commit();
    if (advance && !multiple && on) ctx.advance();
  };
  const list = h(
    'div',
    {
      class: 'fl-choices',
      role: multiple ? 'group' : 'radiogroup',
      'aria-labelledby': ctx.labelledBy,
      'aria-describedby': ctx.describedBy,
      'aria-required': !multiple && ctx.required ? 'true' : undefined,
    },
    shown.slice(0, LETTERS.length).map((c, i) => {
      const id = uid('opt');
      const input = h('input', { type: multiple ? 'checkbox' : 'radio', id, name, value: c.label, class: 'fl-sr', checked: selected.has(c.label) });
      // Arrow keys only move the selection; a tap or click on a single choice moves on (as Typeform does),
      // also on the choice already picked (which changes nothing, so no change event says so).
      input.addEventListener('change', () => pick(c.label, input.checked, false));
      input.addEventListener('keydown', (e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          ctx.next();
        }
      });
      inputs.push(input);
      const label = h('label', { for: id }, h('span', { class: 'fl-key', 'aria-hidden': 'true' }, LETTERS[i]), h('span', { class: 'fl-label' }, (c as { display?: string }).display ?? c.label), checkIcon());
      if (!multiple) label.addEventListener('click', () => ctx.advance());
      return h('div', { class: 'fl-choice' }, input, label);
    }),
  );
  if (other) list.append(other);
  return {
    el: list,
    focus: () => (inputs.find((i) => i.checked) ?? inputs[0])?.focus(),
    key: (e) => {
      const i = LETTERS.indexOf(e.key.toUpperCase());
      if (e.key.length !== 1 || i < 0 || i >= inputs.length || e.ctrlKey || e.metaKey || e.altKey) return false;
      const label = shown[i]!.label;
      pick(label, multiple ? !selected.has(label) : true, true);
      inputs[i]!.focus();
      return true;
    },
  };
}
