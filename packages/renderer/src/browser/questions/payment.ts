import { loadStripe } from '@stripe/stripe-js/pure';
import type { Stripe, StripeElements } from '@stripe/stripe-js';
import { h } from '../dom.js';
import type { Control, ControlContext, PaymentStart, PublicQuestion } from '../types.js';

/** `amount` (smallest unit) of `currency` in the respondent's words, e.g. `€12.50`. */
export function money(amount: number, currency: string, lang?: string): string {
  const upper = currency.toUpperCase();
  try {
    const digits = new Intl.NumberFormat('en', { style: 'currency', currency: upper }).resolvedOptions().maximumFractionDigits ?? 2;
    return new Intl.NumberFormat(lang, { style: 'currency', currency: upper }).format(amount / 10 ** digits);
  } catch {
    return `${amount} ${upper}`;
  }
}

/**
 * Stripe's Elements cannot be mounted in a shadow root (their frames talk to the light DOM: "Elements cannot be
 * mounted in a ShadowRoot"), and the page's element renders in one. So the Payment Element goes into a light-DOM
 * child of the host element, shown in place through a named slot; the previous step's child is removed.
 */
function lightMount(placeholder: HTMLElement): HTMLElement {
  const root = placeholder.getRootNode();
  if (!(root instanceof ShadowRoot)) return placeholder;
  for (const old of root.host.querySelectorAll(':scope > [data-fl-payment-element]')) old.remove();
  const name = `fl-payment-${Math.random().toString(36).slice(2)}`;
  const light = h('div', { slot: name, 'data-fl-payment-element': '' });
  root.host.append(light);
  placeholder.replaceChildren(h('slot', { name }));
  return light;
}

/** One Stripe.js per page and key: loading it injects https://js.stripe.com, only when a payment step is reached. */
const loaded = new Map<string, Promise<Stripe | null>>();
const stripeFor = (key: string) => {
  let p = loaded.get(key);
  if (!p) loaded.set(key, (p = loadStripe(key)));
  return p;
};

/**
 * payment (docs/payments.md): the server computes the amount from the saved answers and makes the payment; the
 * page shows Stripe's Payment Element with a Pay button, and the step is done once Stripe says the payment
 * succeeded (or is processing). The page never says how much: it only shows what the server answered.
 */
export function paymentControl(q: PublicQuestion, ctx: ControlContext & { pay: () => Promise<PaymentStart> }): Control {
  const status = h('p', { class: 'fl-pay-status', role: 'status' }, ctx.t('payment_preparing'));
  const mount = h('div', { class: 'fl-pay-element' });
  const problem = h('p', { class: 'fl-pay-problem', role: 'alert' });
  const payButton = h('button', { type: 'button', class: 'fl-button fl-pay-button', disabled: '' }, ctx.t('payment_pay')) as HTMLButtonElement;
  const el = h('div', { class: 'fl-pay' }, status, mount, problem, payButton);
  let paid = ctx.value === 'paid';
  let stripe: Stripe | null = null;
  let elements: StripeElements | null = null;
  let start: PaymentStart | null = null;

  const done = (text: string) => {
    paid = true;
    ctx.set('paid');
    status.textContent = text;
    mount.hidden = true;
    payButton.hidden = true;
    problem.textContent = '';
  };

  const prepare = async () => {
    try {
      start = await ctx.pay();
      const amount = money(start.amount, start.currency);
      if (start.status === 'succeeded' || !start.client_secret) return done(ctx.t('payment_done', { amount }));
      stripe = await stripeFor(start.publishable_key);
      if (!stripe) throw new Error(ctx.t('payment_unavailable'));
      elements = stripe.elements({ clientSecret: start.client_secret });
      elements.create('payment').mount(lightMount(mount));
      status.textContent = ctx.t('payment_amount', { amount });
      payButton.textContent = ctx.t('payment_pay_amount', { amount });
      payButton.disabled = false;
    } catch (e) {
      status.textContent = '';
      problem.textContent = (e as Error).message || ctx.t('payment_unavailable');
    }
  };

  payButton.addEventListener('click', async () => {
    if (!stripe || !elements || !start || paid) return;
    payButton.disabled = true;
    problem.textContent = '';
    const result = await stripe.confirmPayment({ elements, redirect: 'if_required', confirmParams: { return_url: location.href } });
    if (result.error) {
      problem.textContent = result.error.message ?? ctx.t('payment_failed');
      payButton.disabled = false;
      return;
    }
    const s = result.paymentIntent?.status;
    if (s === 'succeeded') {
      done(ctx.t('payment_done', { amount: money(start.amount, start.currency) }));
      ctx.next();
    } else if (s === 'processing') {
      // Some methods settle later: Stripe's payment_intent.succeeded completes the response then (docs/payments.md).
      status.textContent = ctx.t('payment_processing');
      mount.hidden = true;
      payButton.hidden = true;
    } else {
      problem.textContent = ctx.t('payment_failed');
      payButton.disabled = false;
    }
  });

  if (paid) done(ctx.t('payment_done_short'));
  else void prepare();
  return {
    el,
    focus: () => (payButton.disabled ? el : payButton).focus(),
    ready: () => (paid ? null : ctx.t('payment_required')),
  };
}
