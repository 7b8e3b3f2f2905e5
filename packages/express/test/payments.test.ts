/*
 * Payments (docs/payments.md), one process for all its parts: each part in payments/ declares its tests when it is
 * imported and keeps its own apps and FakeStripe; they share the process and its loaded modules (docs/testing.md,
 * "What it costs"). A deposit with a booking: booking/deposit-embed.ts.
 */
import './payments/credits';
import './payments/question';
import './payments/page';
