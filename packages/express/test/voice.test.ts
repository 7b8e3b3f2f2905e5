/*
 * The voice API (docs/voice.md), one process for all its parts: each part in voice/ declares its tests when it is
 * imported and keeps the app its configuration needs (engines, clocks, limits); they share the process, its loaded
 * modules and the database templates (docs/testing.md, "What it costs": every test file pays about 1.5 CPU-seconds
 * before its first request).
 */
import './voice/catalog';
import './voice/conformance';
import './voice/credits';
import './voice/speak';
import './voice/stream';
import './voice/rendering';
import './voice/previews';
import './voice/rate-limits';
import './voice/idempotency';
import './voice/reuse';
import './voice/retakes';
import './voice/script';
import './voice/script-limits';
import './voice/script-retakes';
import './voice/engine-crash';
import './voice/engine-isolation';
