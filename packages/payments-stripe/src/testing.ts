// A local server speaking the Stripe calls Formloom uses, for tests (docs/payments.md, "Testing").
export {};
