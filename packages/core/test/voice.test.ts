/*
 * Voice in the core: sentences, preview text, the voice catalogue's quality, the script's text and cast, and
 * the speech engine conformance suite on a fake engine. One test file, one process, for what were six (issue
 * 35, docs/testing.md "Merged test files"); the parts in voice/ declare their tests with ava's `test` as they
 * are imported, and none needs a database, a server or process-wide state.
 */
import './voice/sentences';
import './voice/speech-engine-conformance';
import './voice/voice-preview-text';
import './voice/voice-quality';
import './voice/voice-script-cast';
import './voice/voice-script-text';
