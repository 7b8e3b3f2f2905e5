import avaTest, { type TestFn } from 'ava';
import { boundedTest } from '@formloom/core/testing';

/**
 * How many concurrent tests of a workspace entry run at a time: each drives a page of the browser. A file used
 * to run its tests one after the other (`test.serial`), so an entry merged from ten would take the sum of their
 * times. At three, four entries at once (`npm test`'s concurrency) drove twelve pages on the two cores, and
 * tests that race the page's clock (a typing step, a notice's duration) lost; two keep it at eight
 * (docs/testing.md, "Merged test files").
 */
export const PAGES_AT_ONCE = 2;

/** The one bounded `test` of a test file's process, which every part of the file imports. */
const test: TestFn = boundedTest(avaTest, PAGES_AT_ONCE);
export default test;
