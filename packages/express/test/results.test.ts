/*
 * Responses through the API (docs/responses-and-webhooks.md): submitting, the answers' values, the list, its
 * pages and its search by cursor, a respondent's rights and retention (docs/privacy.md). One test file, one
 * process, for what were six: each file paid about 1.5 CPU-seconds before its first request (docs/testing.md,
 * "Merged test files"). The parts in results/ that need no app configuration of their own export `register` and
 * share one app per database; the rights and retention parts run the app's worker or its housekeeping, so they
 * declare their tests with ava's `test` as they are imported, with apps of their own.
 */
import test from './helpers/bounded-test';
import { sharedApps } from './helpers/shared-apps';
import * as responses from './results/responses';
import * as answerValues from './results/answer-values';
import * as pages from './results/pages';
import * as searchCursor from './results/search-cursor';
import './results/respondent-rights';
import './results/retention';

const apps = sharedApps(test);
for (const part of [responses, answerValues, pages, searchCursor]) part.register(apps);
