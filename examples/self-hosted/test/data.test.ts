/*
 * The instance's data: backup and restore (SQLite files and folders, PostgreSQL with pg_dump), uploads to S3,
 * and several instances on one database. One test file, one process, for what were four (issue 35,
 * docs/testing.md "Merged test files"); the parts in data/ declare their tests with ava's `test` as they are
 * imported, each with the instances, databases and servers it needs.
 */
import './data/backup';
import './data/backup-postgres';
import './data/s3-uploads';
import './data/scale-out';
