/*
 * One self-hosted instance in the test's process: its configuration (file, HTTP, host), integrations, the
 * operator's commands and the signing seal. One test file, one process, for what were six
 * (issue 35, docs/testing.md "Merged test files"); the parts in instance/ declare their tests with ava's `test`
 * as they are imported, each starting the instances it needs with `startSelfHosted` (ports 0, no process-wide
 * state). Files that start the server as a child and kill it, or that read the process's module cache
 * (lazy-modules, lazy-voice), keep their own, and so does shutdown.test.ts: in this file its close() with
 * 30 requests in flight once hung for over ten minutes (a clean-clone run of 24a8d0d7, not yet traced; alone it
 * has always passed).
 */
import './instance/config';
import './instance/host';
import './instance/http-config';
import './instance/integrations';
import './instance/operations';
import './instance/signing-seal';
