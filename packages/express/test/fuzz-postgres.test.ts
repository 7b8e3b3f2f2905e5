import test from 'ava';
import { FUZZ_REQUESTS, runFuzz } from './helpers/fuzz-run';

/** Fixed, so a failure replays; `FUZZ_SEED=<n>` explores others; `npm run test:deep` sends the full budget (fuzz-sqlite.test.ts runs the same on SQLite). */
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);

test('fuzz [postgres]: hostile input on every documented operation and page gets a 4xx in the documented shape, never a 5xx, a hang or a write', async (t) => {
  // Generous for a busy machine: the schema-valid phase does real work (speech synthesis, PDFs).
  t.timeout(300_000);
  await runFuzz(t, 'postgres', { seed: SEED, requests: FUZZ_REQUESTS });
});
