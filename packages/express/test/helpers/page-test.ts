import avaTest, { type TestFn } from 'ava';
import { boundedTest } from '@formloom/core/testing';

/**
 * How many tests of a browser file (the respondent's page: renderer, renderer-journeys, the signing pages) drive
 * a page at a time. They used to run one at a time (`test.serial`): run all at once, seventeen pages loading on
 * two cores beside three other test files left navigations unanswered for 90 s (docs/decisions.md, "Session
 * 13"). One at a time, a file took the sum of its tests, mostly waiting for round trips to the browser (146 s
 * of wall for 6.6 CPU-s in the renderer file); two at a time, as the workspace's browser files run, overlap
 * those waits.
 */
export const PAGES_AT_ONCE = 2;

/**
 * The `test` of the parts that drive a page; one per process, so every part of a file shares the bound. Their
 * apps count apart from `bounded-test.ts`'s four: two pages' tests hold two or three apps at most.
 */
const test: TestFn = boundedTest(avaTest, PAGES_AT_ONCE);
export default test;
