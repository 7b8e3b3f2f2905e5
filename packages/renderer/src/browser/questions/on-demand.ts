/*
 * The on-demand bundle's entry (scripts/bundle.mjs builds it apart, as an ES module): the controls of the kinds
 * in src/on-demand.ts, loaded by on-demand-control.ts only for forms that have them. It carries its own copy of
 * the small helpers it uses (dom.ts): its element ids have prefixes of their own (`slot`, `dur`, `day`, `t`),
 * so they never meet the main script's.
 */
export { paymentControl } from './payment.js';
export { bookingControl } from './booking.js';
