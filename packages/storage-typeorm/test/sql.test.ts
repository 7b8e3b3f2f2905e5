/*
 * The SQL helpers: PostgreSQL's binary COPY, the read-write lock, the PostgreSQL blob store and multi-row writes.
 * One test file, one process (issue 35, docs/testing.md "Merged test files"); the parts in sql/ declare their tests
 * as they are imported.
 */
import './sql/pg-copy';
import './sql/rw-lock';
import './sql/postgres-blob-store';
import './sql/insert-rows';
