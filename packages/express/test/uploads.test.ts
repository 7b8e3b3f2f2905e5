/*
 * File uploads (docs/security.md, "Uploads"): storing, streaming, access links and the limits. One test file,
 * one process, for what were five: each file paid about 1.5 CPU-seconds before its first request
 * (docs/testing.md, "Merged test files"). The parts in uploads/ declare their tests with ava's `test` as they
 * are imported; the memory measures (streaming, buffered-store) are serial tests, which ava runs before any
 * concurrent test of the file. hardening needs no app configuration of its own: it uses the file's shared apps.
 */
import test from './helpers/bounded-test';
import { sharedApps } from './helpers/shared-apps';
import * as hardening from './uploads/hardening';
import './uploads/streaming';
import './uploads/buffered-store';
import './uploads/uploads';
import './uploads/access';

hardening.register(sharedApps(test));
