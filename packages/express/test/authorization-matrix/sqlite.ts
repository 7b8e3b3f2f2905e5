import test from '../helpers/bounded-test';
import { startTestApp } from '../helpers/app';
import { runMatrix } from '../helpers/matrix';

test('authorization matrix on SQLite: every team and form endpoint x every kind of caller', async (t) => {
  t.timeout(120_000);
  const app = await startTestApp('sqlite');
  try {
    await runMatrix(t, app);
  } finally {
    await app.close();
  }
});
