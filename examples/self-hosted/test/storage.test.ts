/*
 * What the instance stores: backup and restore (SQLite files and folders, PostgreSQL with pg_dump), uploads to S3,
 * and several instances on one database. One test file, one process, for what were four (issue 35,
 * docs/testing.md "Merged test files"); the parts in storage/ declare their tests with ava's `test` as they are
 * imported, each with the instances, databases and servers it needs.
 */
import './storage/backup';
import './storage/backup-postgres';
import './storage/s3-uploads';
import './storage/scale-out';
