/*
 * Starting the server: configuration checks, plugins from the configuration, and the accounts quick start of
 * docs/accounts.md run as written. One test file, one process, for what were three (issue 35,
 * docs/testing.md "Merged test files"); the parts in startup/ declare their tests as they are imported; the
 * children they start exit by themselves (no crash or kill -9: those files keep their own). Migrations in a
 * child process (migrations-in-child.test.ts) keep their own file: they check that the test's process loaded
 * no migration, which any other part's test database would.
 */
import './startup/accounts-doc';
import './startup/config-check';
import './startup/plugin-config';
