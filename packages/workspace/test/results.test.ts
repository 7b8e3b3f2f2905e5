/*
 * The Results screen: the summary, the responses table, filters, charts, files, composites and recalled titles.
 * One test file, one process, for what were six. Each part declares its tests with the bounded `test` of
 * helpers/bounded-test.ts as it is imported; the parts with no app configuration of their own share one app and
 * every part shares one browser connection (helpers/shared.ts), each test under an owner, forms and a browser
 * context of its own (docs/testing.md, "Merged test files").
 */
import './results/screen';
import './results/filters';
import './results/charts';
import './results/files';
import './results/composite';
import './results/recall-titles';
