import { h, uid } from '../dom.js';
import type { Control, ControlContext, PublicQuestion } from '../types.js';

const SHAPES: Record<string, string> = { star: '★', heart: '♥', thumb: '👍', circle: '●' };

/**
 * A row of radio buttons for the whole numbers `from`..`to`, each drawn by `face(n)` and named `label(n)`.
 * A tap moves on, as on a single choice; arrow keys only move the selection.
 */
function scale(ctx: ControlContext, from: number, to: number, face: (n: number) => string, label: (n: number) => string, cls: string, ends?: [string?, string?]): Control {
  const name = uid('scale');
  const inputs: HTMLInputElement[] = [];
  // The answer as it is now (ctx.value is the one the question was shown with).
  let v = typeof ctx.value === 'number' ? ctx.value : null;
  const paint = () => {
    for (const i of inputs) {
      const n = Number(i.value);
      i.checked = n === v;
      i.parentElement!.classList.toggle('fl-lit', cls === 'fl-rating' && v !== null && n <= v);
    }
  };
  const row = h(
    'div',
    { class: `fl-scale ${cls}`, role: 'radiogroup', 'aria-labelledby': ctx.labelledBy, 'aria-describedby': ctx.describedBy, 'aria-required': ctx.required ? 'true' : undefined },
    Array.from({ length: to - from + 1 }, (_, k) => {
      const n = from + k;
      const id = uid('step');
      const input = h('input', { type: 'radio', id, name, value: n, class: 'fl-sr' });
      input.addEventListener('change', () => {
        v = n;
        ctx.set(n);
        paint();
      });
      input.addEventListener('keydown', (e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          ctx.next();
        }
      });
      inputs.push(input);
      const tap = h('label', { for: id }, h('span', { 'aria-hidden': 'true' }, face(n)), h('span', { class: 'fl-sr' }, label(n)));
      tap.addEventListener('click', () => ctx.advance());
      return h('span', { class: 'fl-step' }, input, tap);
    }),
  );
  paint();
  const el = ends && (ends[0] || ends[1]) ? h('div', {}, row, h('div', { class: 'fl-ends' }, h('span', {}, ends[0] ?? ''), h('span', {}, ends[1] ?? ''))) : row;
  return { el, focus: () => (inputs.find((i) => i.checked) ?? inputs[0])?.focus() };
}

/** rating: `steps` shapes (star, heart, thumb, circle or number). */
export function ratingControl(q: PublicQuestion, ctx: ControlContext): Control {
  const steps = Number(q.properties.steps ?? 5);
  const shape = String(q.properties.shape ?? 'star');
  return scale(ctx, 1, steps, (n) => (shape === 'number' ? String(n) : (SHAPES[shape] ?? '★')), (n) => ctx.t('rating_step', { n, max: steps }), 'fl-rating');
}

/** opinion_scale: numbered steps from `min` to `max`, with their end labels. */
export function opinionControl(q: PublicQuestion, ctx: ControlContext): Control {
  const min = Number(q.properties.min ?? 0);
  const max = Number(q.properties.max ?? 10);
  const ends: [string?, string?] = [q.properties.min_label, q.properties.max_label];
  return scale(ctx, min, max, String, (n) => `${n}${n === min && ends[0] ? ` (${ends[0]})` : ''}${n === max && ends[1] ? ` (${ends[1]})` : ''}`, 'fl-opinion', ends);
}

/** yes_no: two radio buttons; Y and N pick them. A tap or a letter moves on; arrow keys only move the selection. */
export function yesNoControl(_q: PublicQuestion, ctx: ControlContext): Control {
  const name = uid('yn');
  const keys = [ctx.t('key_yes').toLowerCase(), ctx.t('key_no').toLowerCase()];
  const inputs = [true, false].map((v) => {
    const input = h('input', { type: 'radio', id: uid('yn'), name, value: String(v), class: 'fl-sr', checked: ctx.value === v });
    input.addEventListener('change', () => ctx.set(v));
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        e.preventDefault();
        ctx.next();
      }
    });
    return input;
  });
  const el = h(
    'div',
    { class: 'fl-choices fl-yesno', role: 'radiogroup', 'aria-labelledby': ctx.labelledBy, 'aria-describedby': ctx.describedBy, 'aria-required': ctx.required ? 'true' : undefined },
    inputs.map((input, i) => {
      const tap = h('label', { for: input.id }, h('span', { class: 'fl-key', 'aria-hidden': 'true' }, keys[i]!.toUpperCase()), h('span', {}, ctx.t(i ? 'no' : 'yes')));
      tap.addEventListener('click', () => ctx.advance());
      return h('div', { class: 'fl-choice' }, input, tap);
    }),
  );
  return {
    el,
    focus: () => (inputs.find((i) => i.checked) ?? inputs[0])!.focus(),
    key: (e) => {
      const k = e.key.toLowerCase();
      // The language's own letters (J/N, O/N, S/N...), and Y/N wherever they mean nothing else.
      const i = k === keys[0] || (k === 'y' && keys[1] !== 'y') ? 0 : k === keys[1] || (k === 'n' && keys[0] !== 'n') ? 1 : -1;
      if (i < 0 || e.ctrlKey || e.metaKey || e.altKey) return false;
      inputs[i]!.checked = true;
      inputs[i]!.dispatchEvent(new Event('change'));
      inputs[i]!.focus();
      ctx.advance();
      return true;
    },
  };
}
