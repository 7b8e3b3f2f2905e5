import test from 'ava';
import { waitFor } from '../../src/testing';

test('waitFor resolves with the first value that is not false, undefined or null, polling until then', async (t) => {
  let calls = 0;
  t.is(await waitFor(() => (++calls >= 3 ? 'ready' : calls === 1 ? false : undefined), { intervalMs: 1 }), 'ready');
  t.is(calls, 3);
  t.is(await waitFor(async () => 0), 0, '0 is a value');
});

test('waitFor rejects past its deadline, naming what it waited for and the last error the check threw', async (t) => {
  await t.throwsAsync(waitFor(() => false, { timeoutMs: 30, intervalMs: 5, what: 'the mail' }), { message: 'the mail did not hold within 30 ms' });
  await t.throwsAsync(
    waitFor(
      () => {
        throw new Error('not yet');
      },
      { timeoutMs: 30, intervalMs: 5 },
    ),
    { message: 'the condition did not hold within 30 ms: not yet' },
  );
});
