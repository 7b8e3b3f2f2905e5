/*
 * Rate limits (docs/security.md): the limits of each route and their headers, hits written in batches far below
 * a limit, wrong credentials counting as failed authentications, one budget across instances. One process for
 * what were four files: each paid about 1.5 CPU-seconds before its first request (docs/testing.md, "Merged test
 * files"). The limits count per client address and every request here comes from 127.0.0.1, so each test starts
 * apps of its own: each part declares its tests when it is imported.
 */
import './rate-limits/limits';
import './rate-limits/batching';
import './rate-limits/credentials';
import './rate-limits/multi-instance';
