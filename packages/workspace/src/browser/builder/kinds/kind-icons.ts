import { svg, type SVGTemplateResult } from 'lit';

/*
 * A small picture of each question kind (16 px line drawings in the text colour), shown in the question list
 * beside the kind's name. Decorative: the kind's name is always written next to it.
 */

const P: Record<string, string> = {
  short_text: 'M2 6h12M2 10h7',
  long_text: 'M2 3.5h12M2 6.5h12M2 9.5h12M2 12.5h7',
  email: 'M2 4h12v8H2zM2 4l6 5 6-5',
  number: 'M6 2 5 14M11 2l-1 12M2.5 6h11.5M2 10h11.5',
  date: 'M2.5 3.5h11v10h-11zM2.5 6.5h11M5.5 2v3M10.5 2v3',
  yes_no: 'M3 8.5l3 3 7-7',
  multiple_choice: 'M2 4.5h3v3H2zM7.5 6h6.5M2 10h3v3H2zM7.5 11.5h6.5',
  dropdown: 'M2 4h12v8H2zM8.5 7l1.5 1.5L11.5 7',
  rating: 'M8 2l1.8 3.8 4.2.5-3.1 2.9.8 4.1L8 11.3l-3.7 2 .8-4.1L2 6.3l4.2-.5z',
  opinion_scale: 'M2.5 13V10M6 13V8M9.5 13V5.5M13 13V3',
  file_upload: 'M8 11V2.5M4.5 6 8 2.5 11.5 6M2.5 10.5v3h11v-3',
  contact_info: 'M8 8a2.75 2.75 0 1 0 0-5.5A2.75 2.75 0 0 0 8 8zM3 14c.5-3 2.5-4.5 5-4.5s4.5 1.5 5 4.5',
  address: 'M8 14s4.5-4.2 4.5-7.5a4.5 4.5 0 0 0-9 0C3.5 9.8 8 14 8 14zM8 8a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3z',
  question_group: 'M2 2.5h12v4H2zM2 9.5h12v4H2z',
  multi_question_page: 'M3 1.5h10v13H3zM5.5 5h5M5.5 8h5M5.5 11h3',
  contract: 'M3 13.5h10M4 11l7.5-7.5 1.5 1.5L5.5 12.5H4z',
  booking: 'M2.5 3.5h11v10h-11zM2.5 6.5h11M5.5 10l1.7 1.5 3.3-3',
  payment: 'M1.5 4h13v8h-13zM1.5 7h13M4 10h3',
  data: 'M2.5 4c0-1.1 2.5-2 5.5-2s5.5.9 5.5 2-2.5 2-5.5 2-5.5-.9-5.5-2zM2.5 4v8c0 1.1 2.5 2 5.5 2s5.5-.9 5.5-2V4M2.5 8c0 1.1 2.5 2 5.5 2s5.5-.9 5.5-2',
  email_step: 'M14 2 7 9M14 2l-4.5 12L7 9 2 6.5z',
  fuse: 'M6.5 9.5a3 3 0 0 0 4.2 0l2.3-2.3a3 3 0 0 0-4.2-4.2l-.8.8M9.5 6.5a3 3 0 0 0-4.2 0L3 8.8A3 3 0 0 0 7.2 13l.8-.8',
  composite: 'M2 2h5v5H2zM9 2h5v5H9zM2 9h5v5H2zM9 9h5v5H9z',
};

export const kindIcon = (type: string): SVGTemplateResult =>
  svg`<svg class="kind-icon" width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="1.4" stroke-linecap="round" stroke-linejoin="round"><path d=${P[type] ?? P.short_text!} /></svg>`;
