/*
 * The signing sessions screen and the voice studio, each with an app of its own (the sealing worker and mailer;
 * the speech engine and sessions). One test file, one process, for what were two. Each part declares its tests
 * with the bounded `test` of helpers/bounded-test.ts as it is imported; the parts with no app configuration of
 * their own share one app and every part shares one browser connection (helpers/shared.ts), each test under an
 * owner, forms and a browser context of its own (docs/testing.md, "Merged test files").
 */
import './signing-and-voice/signing';
import './signing-and-voice/voice';
