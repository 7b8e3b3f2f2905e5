import { h, uid } from '../dom.js';
import { checkIcon } from '../icons.js';
import type { Control, ControlContext, PublicQuestion } from '../types.js';

/**
 * dropdown: a themed, searchable list (the ARIA 1.2 combobox pattern: a text field with `role=combobox`
 * that filters a `role=listbox` popup). Typing filters by any part of a label; arrows move through the
 * matches, Enter picks the highlighted one and moves on, Escape closes the list, a tap picks a choice.
 */
export function dropdownControl(q: PublicQuestion, ctx: ControlContext): Control {
  const choices = ((q.properties.choices ?? []) as Array<{ label: string }>).map((c) => c.label);
  // A translated choice shows its `display`; its value stays the default-language label (docs/languages.md).
  const shownAs = new Map(((q.properties.choices ?? []) as Array<{ label: string; display?: string }>).map((c) => [c.label, c.display ?? c.label]));
  const disp = (label: string) => shownAs.get(label) ?? label;
  const listId = uid('list');
  let value = typeof ctx.value === 'string' && choices.includes(ctx.value) ? ctx.value : null;
  let shown: string[] = choices;
  let active = -1;
  const input = h('input', {
    type: 'text',
    class: 'fl-input fl-combo',
    role: 'combobox',
    autocomplete: 'off',
    'aria-autocomplete': 'list',
    'aria-expanded': 'false',
    'aria-controls': listId,
    placeholder: ctx.t('pick_option'),
    'aria-labelledby': ctx.labelledBy,
    'aria-describedby': ctx.describedBy,
    'aria-required': ctx.required ? 'true' : undefined,
    value: value === null ? '' : disp(value),
  });
  const list = h('ul', { id: listId, role: 'listbox', class: 'fl-listbox', hidden: true, 'aria-labelledby': ctx.labelledBy });
  const toggle = h('button', { type: 'button', class: 'fl-combo-toggle', tabindex: '-1', 'aria-label': ctx.t('show_options') }, '▾');

  const render = () => {
    list.replaceChildren(
      ...(shown.length
        ? shown.map((label, i) => {
            const li = h('li', { id: `${listId}-${i}`, role: 'option', class: 'fl-option', 'aria-selected': String(label === value) }, h('span', { class: 'fl-label' }, disp(label)), checkIcon());
            if (i === active) li.classList.add('fl-active');
            // pointerdown, not click: the field keeps its focus, so the list does not close first.
            li.addEventListener('pointerdown', (e) => {
              e.preventDefault();
              choose(label, true);
            });
            return li;
          })
        : [h('li', { class: 'fl-empty', role: 'presentation' }, ctx.t('no_match'))]),
    );
    if (active >= 0) {
      input.setAttribute('aria-activedescendant', `${listId}-${active}`);
      list.children[active]?.scrollIntoView?.({ block: 'nearest' });
    } else input.removeAttribute('aria-activedescendant');
  };
  const open = (on: boolean) => {
    list.hidden = !on;
    input.setAttribute('aria-expanded', String(on));
    if (!on) active = -1;
    render();
  };
  const filter = () => {
    const text = input.value.trim().toLowerCase();
    shown = text ? choices.filter((c) => disp(c).toLowerCase().includes(text)) : choices;
    // The exact or only match is highlighted, so Enter picks it.
    const exact = shown.findIndex((c) => disp(c).toLowerCase() === text);
    active = exact >= 0 ? exact : text && shown.length ? 0 : -1;
    open(true);
  };
  const choose = (label: string, advance: boolean) => {
    value = label;
    input.value = disp(label);
    ctx.set(label);
    shown = choices;
    open(false);
    if (advance) ctx.advance();
  };

  input.addEventListener('input', () => {
    value = choices.find((c) => disp(c).toLowerCase() === input.value.trim().toLowerCase()) ?? null;
    ctx.set(value ?? (input.value.trim() ? input.value : null));
    filter();
  });
  input.addEventListener('keydown', (e) => {
    const expanded = !list.hidden;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!expanded) {
        shown = choices;
        active = Math.max(0, value ? choices.indexOf(value) : 0);
        return open(true);
      }
      const n = shown.length;
      const down = e.key === 'ArrowDown';
      if (n) active = active < 0 ? (down ? 0 : n - 1) : (active + (down ? 1 : n - 1)) % n;
      render();
    } else if (e.key === 'Enter' && !e.isComposing) {
      e.preventDefault();
      if (expanded && active >= 0 && shown[active]) return choose(shown[active]!, true);
      open(false);
      ctx.next();
    } else if (e.key === 'Escape' && expanded) {
      e.preventDefault();
      e.stopPropagation();
      open(false);
    }
  });
  // A press elsewhere while the list is open (OK, the page): the field loses its focus at the press, but
  // closing the list then would move what is under the finger before the press's click lands, and the
  // click would be lost (issue 34). The list closes when that press is over: at its click, when it turns
  // into a scroll, or after a moment when no click comes. (A press on the list or the toggle keeps the focus.)
  let pressed = false;
  const press = (e: Event) => (pressed = e.type === 'pointerdown');
  const PRESS_EVENTS = ['pointerdown', 'pointercancel', 'click', 'keydown'];
  let late: ReturnType<typeof setTimeout> | undefined;
  const pressOver = () => {
    window.removeEventListener('click', pressOver, true);
    window.removeEventListener('pointercancel', pressOver, true);
    clearTimeout(late);
    if (!input.matches(':focus')) open(false);
  };
  input.addEventListener('focus', () => {
    pressed = false;
    for (const type of PRESS_EVENTS) window.addEventListener(type, press, true);
  });
  input.addEventListener('blur', () => {
    for (const type of PRESS_EVENTS) window.removeEventListener(type, press, true);
    if (!pressed || list.hidden) return open(false);
    window.addEventListener('click', pressOver, true);
    window.addEventListener('pointercancel', pressOver, true);
    late = setTimeout(pressOver, 1000);
  });
  input.addEventListener('click', () => {
    if (list.hidden) {
      shown = choices;
      open(true);
    }
  });
  toggle.addEventListener('pointerdown', (e) => {
    e.preventDefault();
    input.focus();
    shown = choices;
    open(list.hidden === true);
  });
  return { el: h('div', { class: 'fl-dropdown' }, h('div', { class: 'fl-combo-row' }, input, toggle), list), focus: () => input.focus() };
}
