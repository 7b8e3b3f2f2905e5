/*
 * Signing through the API (docs/signing.md): sessions, signers, evidence, mail, expiry and races. One test
 * file, one process, for what were eleven: each file paid about 1.5 CPU-seconds before its first request
 * (docs/testing.md, "What it costs"), and each loaded the sealing certificate again. The parts in signing/
 * declare their tests with ava's `test` as they are imported, each with the apps it needs. The parts whose
 * tests run one at a time are in signing-pages.test.ts: here they would hold back every concurrent test.
 */
import './signing/sessions';
import './signing/signer';
import './signing/signer-side';
import './signing/conformance';
import './signing/evidence';
import './signing/lifecycle';
import './signing/mail';
import './signing/races';
import './signing/multi-instance';
import './signing/openapi';
import './signing/audit-script';
