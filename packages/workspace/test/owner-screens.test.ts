/*
 * The owner's other screens: webhooks, integrations, notifications, themes and templates, the form's settings and
 * credits with Stripe. One test file, one process, for what were six. Each part declares its tests with the
 * bounded `test` of helpers/bounded-test.ts as it is imported; the parts with no app configuration of their own
 * share one app and every part shares one browser connection (helpers/shared.ts), each test under an owner, forms
 * and a browser context of its own (docs/testing.md, "Merged test files").
 */
import './owner-screens/integrations';
import './owner-screens/integration-services';
import './owner-screens/notifications';
import './owner-screens/theme-templates';
import './owner-screens/address-label';
import './owner-screens/credits-checkout';
