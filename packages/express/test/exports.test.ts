/*
 * The responses' exports (docs/responses-and-webhooks.md, "Export formats"): CSV lines and formulas, XLSX and
 * JSON, the words of each language. One test file, one process, for what were five: each file paid about 1.5
 * CPU-seconds before its first request (docs/testing.md, "Merged test files"). Every part exports `register`
 * and shares one app per database (the words part also checks the renderer's language packs, with no app).
 */
import test from './helpers/bounded-test';
import { sharedApps } from './helpers/shared-apps';
import * as formats from './exports/formats';
import * as languages from './exports/languages';
import * as words from './exports/words';
import * as csvFormulas from './exports/csv-formulas';
import * as csvLines from './exports/csv-lines';

const apps = sharedApps(test);
for (const part of [formats, languages, words, csvFormulas, csvLines]) part.register(apps);
