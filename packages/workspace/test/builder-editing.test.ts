/*
 * Editing in the builder by the keyboard alone, undo and redo, and the focus after an Undo. One test file, one
 * process, for what were four. Each part declares its tests with the bounded `test` of helpers/bounded-test.ts as
 * it is imported; the parts with no app configuration of their own share one app and every part shares one
 * browser connection (helpers/shared.ts), each test under an owner, forms and a browser context of its own
 * (docs/testing.md, "Merged test files").
 */
import './builder-editing/keyboard-all';
import './builder-editing/keyboard';
import './builder-editing/undo';
import './builder-editing/undo-focus';
