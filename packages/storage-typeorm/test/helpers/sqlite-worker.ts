/*
 * A second process on a test's SQLite file (run by adapter-behaviour.test.ts): spends credits and claims
 * outbox items concurrently with the test process, then prints what it got as JSON.
 * argv: <database url> <user id> <outbox kind> <worker id>
 */
import { at } from '@formloom/core/testing';
import { createDataSource, createTypeormStorage } from '../../src';

async function main(): Promise<void> {
  const [url, userId, kind, workerId] = process.argv.slice(2);
  const storage = createTypeormStorage(await createDataSource(url).initialize());
  // Start together with the test process: it says go once it has seen this line.
  process.stdout.write('ready\n');
  await new Promise((resolve) => process.stdin.once('data', resolve));
  const spends = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      i % 2 === 0 ? storage.credits.spend(userId, 1) : storage.transaction((tx) => tx.credits.spend(userId, 1)),
    ),
  );
  const claimed: string[] = [];
  for (;;) {
    const batch = await storage.outbox.claim({ workerId, now: at(10), leaseUntil: at(99), limit: 3, kinds: [kind] });
    if (batch.length === 0) break;
    claimed.push(...batch.map((b) => b.id));
  }
  await storage.close();
  process.stdout.write(`${JSON.stringify({ spent: spends.filter((s) => s !== null).length, claimed })}\n`);
  process.stdin.destroy();
}

main().catch((err) => {
  process.stderr.write(String(err?.stack ?? err));
  process.exit(1);
});
