/*
 * Data sources, drivers and migrations on both databases: one test file, one process, for what were three
 * (issue 35, docs/testing.md "Merged test files"). The parts in migrations/ declare their tests with ava's
 * `test` as they are imported, each test with the databases it makes (`createTestDatabase`).
 */
import './migrations/data-source';
import './migrations/api-key-makers';
import './migrations/drivers';
