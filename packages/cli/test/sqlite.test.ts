/*
 * The instance admin and stuck deliveries on SQLite: one process for what were two files (issue 35,
 * docs/testing.md "Merged test files"). The CLI suite on SQLite (cli-sqlite.test.ts) runs its tests one at a
 * time and keeps its own file, as does the data rights suite (data-rights-sqlite.test.ts): a serial file
 * merged here would hold these concurrent tests back.
 */
import test from 'ava';
import { adminSuite } from './admin-suite';
import { outboxSuite } from './outbox-suite';

adminSuite(test, 'sqlite');
outboxSuite(test, 'sqlite');
