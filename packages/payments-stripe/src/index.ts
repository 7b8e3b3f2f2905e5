// The Stripe adapter of the payments port (docs/payments.md); filled in by the next commits.
export {};
