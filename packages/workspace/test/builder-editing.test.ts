/*
 * Editing in the builder by the keyboard alone: every kind at 390 px, reordering, a save that cannot reach the
 * server, a refused save, jump targets. One test file, one process, for what were two; its first test is the
 * longest of the workspace's, so it runs beside the other part's tests rather than after tests that must be alone
 * (builder-history.test.ts has those). Each part declares its tests with the bounded `test` of
 * helpers/bounded-test.ts as it is imported; they share one app and one browser connection (helpers/shared.ts),
 * each test under an owner, forms and a browser context of its own (docs/testing.md, "Merged test files").
 */
import './builder-editing/keyboard-all';
import './builder-editing/keyboard';
