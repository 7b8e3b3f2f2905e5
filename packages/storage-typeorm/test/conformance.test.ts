/*
 * The core's storage conformance suite on SQLite and on PostgreSQL, and its plans suite over stored plans:
 * one test file, one process, for what were three (issue 35, docs/testing.md "Merged test files"). Each
 * suite's titles start with its harness's name, and each keeps its harness in its own closure (no context).
 * The adapter's behaviour around transactions (adapter-behaviour.test.ts) has a serial test and keeps its
 * own file.
 */
import './conformance/sqlite';
import './conformance/postgres';
import './conformance/stored-plans';
