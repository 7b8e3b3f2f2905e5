/*
 * Analytics and the filters the results share (docs/responses-and-webhooks.md, "Analytics" and "Filtering by
 * answer"): answer filters, filtered and per-question summaries, drop-off, empty date bounds. One test file, one
 * process, for what were five: each file paid about 1.5 CPU-seconds before its first request (docs/testing.md,
 * "Merged test files"). The parts in analytics/ that need no app configuration of their own export `register`
 * and share one app per database; the date filters' part keeps its own app (no rate limits).
 */
import test from './helpers/bounded-test';
import { sharedApps } from './helpers/shared-apps';
import * as answerFilters from './analytics/answer-filters';
import * as filteredSummaryCounts from './analytics/filtered-summary-counts';
import * as questionSummaries from './analytics/question-summaries';
import * as dropOff from './analytics/drop-off';
import './analytics/empty-date-filters';

const apps = sharedApps(test);
for (const part of [answerFilters, filteredSummaryCounts, questionSummaries, dropOff]) part.register(apps);
