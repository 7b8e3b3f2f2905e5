/*
 * The voice API (docs/voice.md), one process for all its parts (docs/testing.md, "What it costs": every test
 * file pays about 1.5 CPU-seconds before its first request). The parts that need only the voice engines
 * (conformance, speak, stream, script, credits, idempotency) export `register` and share one app per database
 * (`sharedVoiceApps`); the others declare their tests as they are imported and keep the app their clock,
 * limits or engines need. All share the process's eSpeak engine and audio codecs (`sharedVoiceEngines`).
 * Parts whose tests share a module's state run them one at a time among themselves but beside the rest of
 * the file (`oneAtATime`, voice/part-helpers.ts), not as ava's serial tests, which run before all others.
 */
import test from './helpers/bounded-test';
import { closeSharedVoiceEngines, sharedVoiceApps } from './helpers/voice';
import * as conformance from './voice/conformance';
import * as credits from './voice/credits';
import * as speak from './voice/speak';
import * as stream from './voice/stream';
import * as idempotency from './voice/idempotency';
import * as script from './voice/script';
import './voice/catalog';
import './voice/rendering';
import './voice/previews';
import './voice/rate-limits';
import './voice/reuse';
import './voice/retakes';
import './voice/script-limits';
import './voice/script-retakes';
import './voice/engine-crash';
import './voice/engine-isolation';

sharedVoiceApps(test, [conformance, speak, stream, script, credits, idempotency]);
// After every app has closed (ava runs after.always hooks in order of declaration; the apps' come first).
test.after.always(() => closeSharedVoiceEngines());
