import avaTest, { type TestFn } from 'ava';
import { boundedTest } from '@formloom/core/testing';

/**
 * How many concurrent tests of a merged test file run at a time. ava starts every concurrent test of a file at
 * once: a file merged from ten used to be ten processes of which four ran at a time, and all of its tests'
 * apps at once would hold more PostgreSQL connections (five per pool) than the server's 100 ("sorry, too many
 * clients already" under a full run). At eight, auth.test.ts alone held 21 connections and four such files
 * at once would pass the 100; four keeps a file near ten.
 */
export const MERGED_TESTS_AT_ONCE = 4;

/** The one bounded `test` of a test file's process, which every part of the file imports. */
const test: TestFn = boundedTest(avaTest, MERGED_TESTS_AT_ONCE);
export default test;
