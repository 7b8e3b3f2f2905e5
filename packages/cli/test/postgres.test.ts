/*
 * The CLI's commands, the instance admin and stuck deliveries on PostgreSQL: one process for what were three
 * files (issue 35, docs/testing.md "Merged test files"). The suites are shared with SQLite (cli-suite.ts,
 * admin-suite.ts, outbox-suite.ts). The CLI suite's before hook holds its database in the test context, so the
 * data rights suite, which keeps its own context, stays in a file of its own.
 */
import test from 'ava';
import { adminSuite } from './admin-suite';
import { cliSuite } from './cli-suite';
import { outboxSuite } from './outbox-suite';

cliSuite(test, 'postgres');
adminSuite(test, 'postgres');
outboxSuite(test, 'postgres');
