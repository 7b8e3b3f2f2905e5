'use strict';
/*
 * Loaded by ava in every test file's worker process (package.json "ava.require"), before the test file. ava
 * starts each worker with `--enable-source-maps`, which makes Node read and parse the source map of every
 * module it loads: about 0.2 CPU-seconds of an express test file's 1.2 of loading (docs/testing.md, "What it
 * costs"). Under `npm test` (scripts/test.mjs sets FORMLOOM_TEST_TIMINGS) the maps are off, and a failure's
 * stack names the compiled file and line in dist/ (the same path as the source, under dist/); a single file
 * run with `npx ava`, or FORMLOOM_TEST_SOURCE_MAPS=1, keeps them.
 */
if (process.env.FORMLOOM_TEST_TIMINGS && process.env.FORMLOOM_TEST_SOURCE_MAPS !== '1') process.setSourceMapsEnabled(false);
