import test from '../helpers/bounded-test';
import { startTestApp } from '../helpers/app';
import { runMatrix } from '../helpers/matrix';

test('authorization matrix on PostgreSQL: every team and form endpoint x every kind of caller', async (t) => {
  t.timeout(120_000);
  const app = await startTestApp('postgres');
  try {
    await runMatrix(t, app);
  } finally {
    await app.close();
  }
});
