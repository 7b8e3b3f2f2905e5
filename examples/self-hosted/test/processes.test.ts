/*
 * The server as operators start it, each in a child process stopped with SIGTERM: the launcher and its V8
 * flags, `main`, and `npm start`. One test file, one process, for what were three (issue 35, docs/testing.md
 * "Merged test files"); the parts in processes/ declare their tests as they are imported, and each child is
 * its test's own (SIGKILL only in a teardown, when a test failed before its SIGTERM). The crash files (a child
 * killed with -9 on purpose) keep their own, and so do the Docker image's files (docker-files.test.ts): its
 * runtime check builds the files with a synchronous child, which would stall the other parts' children.
 */
import './processes/launcher';
import './processes/main';
import './processes/npm-start';
