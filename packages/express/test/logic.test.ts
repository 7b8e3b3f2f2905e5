/*
 * What a form does with its answers (docs/logic.md): validation, jumps, recall, the steps the server runs,
 * Fuse and composite forms. One test file, one process, for what were six: each file paid about
 * 1.5 CPU-seconds before its first request (docs/testing.md, "Merged test files"). The parts in logic/ that
 * need no app configuration of their own export `register` and share one app per database; the steps and
 * Fuse parts (a worker, a receiving server) declare their tests with ava's `test` as they are imported.
 */
import test from './helpers/bounded-test';
import { sharedApps } from './helpers/shared-apps';
import * as validation from './logic/validation';
import * as jumps from './logic/jumps';
import * as recall from './logic/recall';
import * as compositeForms from './logic/composite-forms';
import './logic/steps';
import './logic/fuse-steps';

const apps = sharedApps(test);
for (const part of [validation, jumps, recall, compositeForms]) part.register(apps);
