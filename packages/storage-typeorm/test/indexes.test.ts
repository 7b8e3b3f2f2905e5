/*
 * The counters the storage keeps beside the responses (answer pairs, the response indexer, the analytics
 * rollup) on both databases, and on PostgreSQL the lock order of the responses and their queue and of a form's
 * delete: one test file, one process, for what were three (issue 35, docs/testing.md "Merged test files"). The
 * parts in indexes/ declare their tests as they are imported, each test with its own databases.
 */
import './indexes/answer-pairs';
import './indexes/response-indexer';
import './indexes/indexer-schedule';
import './indexes/rollup-instances';
import './indexes/lock-order';
import './indexes/form-delete-races';
