/*
 * The CLI itself: its bin script, configuration, help, and `formloom signing verify`. One test file, one
 * process, for what were four (issue 35, docs/testing.md "Merged test files"); the parts in commands/ declare
 * their tests with ava's `test` as they are imported, each with the databases it needs.
 */
import './commands/bin';
import './commands/config';
import './commands/help';
import './commands/signing-verify';
