/*
 * The builder's logic (jumps, the map, actions), the Fuse question, recall in titles and the words owner screens
 * show for it. One test file, one process, for what were five. Each part declares its tests with the bounded
 * `test` of helpers/bounded-test.ts as it is imported; the parts with no app configuration of their own share one
 * app and every part shares one browser connection (helpers/shared.ts), each test under an owner, forms and a
 * browser context of its own (docs/testing.md, "Merged test files").
 */
import './logic/jumps';
import './logic/actions';
import './logic/fuse';
import './logic/recall';
import './logic/recall-words';
