/*
 * The builder in a browser: building every kind, choices, languages, the phone width, the confirmation call's
 * setting, publishing and an empty form. One test file, one process, for what were seven.
 * Each part declares its tests with the bounded `test` of helpers/bounded-test.ts as it is imported; the parts
 * with no app configuration of their own share one app and every part shares one browser connection
 * (helpers/shared.ts), each test under an owner, forms and a browser context of its own (docs/testing.md, "Merged
 * test files").
 */
import './builder/flow';
import './builder/choices';
import './builder/languages';
import './builder/phone-width';
import './builder/booking-call';
import './builder/publish';
import './builder/publish-empty-form';
