import { h } from '../dom.js';
import type { Control, ControlContext, PublicQuestion } from '../types.js';
import { choiceControl } from './choice.js';
import { dropdownControl } from './dropdown.js';
import { fileControl } from './file-upload.js';
import { groupControl } from './group.js';
import { opinionControl, ratingControl, yesNoControl } from './scale.js';
import { textControl } from './text.js';
import { onDemandControl } from './on-demand-control.js';

type Factory = (q: PublicQuestion, ctx: ControlContext) => Control;

/** One control per question kind the page can offer (docs/respondents.md). */
const CONTROLS: Record<string, Factory> = {
  short_text: textControl,
  long_text: textControl,
  email: textControl,
  number: textControl,
  date: textControl,
  multiple_choice: choiceControl,
  dropdown: dropdownControl,
  yes_no: yesNoControl,
  rating: ratingControl,
  opinion_scale: opinionControl,
  file_upload: fileControl,
  question_group: groupControl,
  multi_question_page: groupControl,
  contact_info: groupControl,
  address: groupControl,
  // Without the page's API (the builder's preview) it shows its notice like the other server-run kinds.
  // Its code comes with the payment's from the on-demand bundle (on-demand-control.ts).
  booking: (q, ctx) => {
    const booking = ctx.booking;
    return booking ? onDemandControl(ctx, (k) => k.bookingControl(q, { ...ctx, booking, lang: ctx.lang ?? 'en' })) : notice(ctx);
  },
};

/** True when the page offers a control for the type; the others are run by the service, not answered here. */
export const answerable = (type: string) => type in CONTROLS;

/** The control for `q`, or a notice for kinds the page cannot offer (booking, payment, contract, ...). */
export function controlFor(q: PublicQuestion, ctx: ControlContext): Control {
  const make = CONTROLS[q.type];
  if (make) return make(q, ctx);
  const pay = ctx.pay;
  if (q.type === 'payment' && pay) return onDemandControl(ctx, (k) => k.paymentControl(q, { ...ctx, pay }));
  // A composite with forms reaches the live page as their questions (composite-flow.ts): only the preview shows it.
  if (q.type === 'composite' && q.properties.composite_ids?.length) return notice(ctx, 'composite_preview');
  return notice(ctx, q.type === 'email_step' || q.type === 'data' || q.type === 'fuse' ? 'step_preview' : 'cannot_complete');
}

function notice(ctx: ControlContext, key: 'step_preview' | 'cannot_complete' | 'composite_preview' = 'cannot_complete'): Control {
  const el = h('p', { class: 'fl-notice', role: 'note' }, ctx.t(key));
  return { el, focus: () => undefined };
}
