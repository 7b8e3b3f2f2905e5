/*
 * Sign-in, sessions and keys (docs/accounts.md): one test file, one process, for what were eleven. Each file
 * paid about 1.5 CPU-seconds before its first request (docs/testing.md, "What it costs"); the parts in auth/
 * declare their tests with ava's `test` as they are imported, each with the apps it needs.
 */
import './auth/api-keys';
import './auth/operator-keys';
import './auth/sessions';
import './auth/expiry';
import './auth/multi-instance';
import './auth/links';
import './auth/passkeys';
import './auth/input';
import './auth/loopback-origins';
import './auth/signup-modes';
import './auth/address-claims';
import './auth/password-cost';
