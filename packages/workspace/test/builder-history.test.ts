/*
 * The builder's history and drafts: undo and redo, the focus after a deleted question's Undo, drafts that wait
 * for a title, and two tabs merged. One test file, one process, for what were four. Each part declares its tests
 * with the bounded `test` of helpers/bounded-test.ts as it is imported; they share one app and one browser
 * connection (helpers/shared.ts), each test under an owner, forms and a browser context of its own
 * (docs/testing.md, "Merged test files").
 */
import './builder-history/undo';
import './builder-history/undo-focus';
import './builder-history/drafts';
import './builder-history/conflict-merge';
