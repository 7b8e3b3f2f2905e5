import type { ApiError, PublicApi } from './api.js';
import { h, uid } from './dom.js';
import type { Translate } from './i18n/index.js';
import type { Fill } from './recall-text.js';
import type { ResponseWriter } from './response-writer.js';
import { button } from './screens.js';
import type { BookingApi } from './booking-types.js';
import type { PaymentStart, PublicQuestion, StepResult } from './types.js';

// The parts of a form the server does for the page (docs/respondents.md): a payment question's payment, a
// booking question's slots and holds, and the steps it runs (email steps, data nodes).

/** Kinds the server runs when the page reaches them (docs/logic.md): the page waits for them, then goes on. */
export const SERVER_STEPS: ReadonlySet<string> = new Set(['email_step', 'data']);

/**
 * A payment step (docs/payments.md): the answers so far saved as the partial response (made now if there is
 * none), then the server's payment of this question, whose amount it computes from them.
 */
export function paymentRunner(api: PublicApi, slug: string, writer: ResponseWriter, payload: () => unknown[], questionId: string): () => Promise<PaymentStart> {
  return async () => {
    const saved = await writer.save(payload());
    return api.payment(slug, saved.id, saved.token, questionId);
  };
}

/** A booking question's free slots and holds on the form's calendar (docs/booking.md). */
export function bookingRunner(api: PublicApi, slug: string): BookingApi {
  return { slots: (id, query) => api.bookingSlots(slug, id, query), hold: (id, body) => api.holdSlot(slug, id, body) };
}

/** What a step the server runs needs of the page it runs on (form-view.ts). */
export interface StepPage {
  readonly api: PublicApi;
  readonly slug: string;
  readonly level: 1 | 2;
  readonly t: Translate;
  readonly fill: Fill;
  readonly writer: ResponseWriter;
  /** Shows `section` as question `i`'s screen (`heading` takes the focus); answers whether it is still shown. */
  present(i: number, section: HTMLElement, heading: HTMLElement): () => boolean;
  /** The answers to send so far. */
  payload(): unknown[];
  /** Holds the page's moves (OK, arrows) while the server works. */
  setBusy(busy: boolean): void;
  /** What the server answered: a data node's values join the hidden fields and variables. */
  learned(result: StepResult): void;
  /** The step is done and still on screen: the page moves on from question `i`. */
  after(i: number): void;
}

/**
 * An email step or data node (docs/logic.md): the answers so far saved as the partial response, then the
 * server runs the step while the page says what it is doing; the respondent goes on when it is done (a data
 * node's values join the hidden fields and variables; a failed source is the node's fallback path, decided by
 * its jumps). A lost connection offers a retry: the server never mails twice for one response and step.
 */
export async function runServerStep(page: StepPage, q: PublicQuestion, i: number): Promise<void> {
  const { t, writer } = page;
  const titleId = uid('title');
  const status = h('p', { class: 'fl-loading', role: 'status' }, t(q.type === 'data' ? 'step_loading' : 'step_sending'));
  const heading = h(page.level === 1 ? 'h1' : 'h2', { class: 'fl-question', id: titleId, tabindex: '-1' }, page.fill(q.title));
  const section = h('section', { class: 'fl-q fl-step', 'data-type': q.type, 'aria-labelledby': titleId, 'aria-busy': 'true' }, heading, status);
  const shown = page.present(i, section, heading);
  page.setBusy(true);
  try {
    const saved = await writer.save(page.payload());
    page.learned(await page.api.step(page.slug, saved.id, saved.token, q.id));
  } catch (e) {
    if (!shown()) return;
    // The saved partial response is gone or not ours any more: start a new one.
    if ((e as ApiError).status === 401 && writer.partial) writer.forget();
    section.removeAttribute('aria-busy');
    status.setAttribute('role', 'alert');
    status.replaceChildren(h('span', {}, t('step_failed')), ' ', button(t('retry'), () => void runServerStep(page, q, i), 'fl-button fl-retry'));
    return;
  } finally {
    page.setBusy(false);
  }
  if (shown()) page.after(i);
}
