import test from 'ava';
import { IdleSweep } from '../../src/cache/idle-sweep';
import { RevisionCache } from '../../src/cache/revision-cache';
import { waitFor } from '../../src/testing';

/*
 * Kept values that go unused go (docs/decisions.md, "Caches checked against a revision"): a value used during a
 * period of the sweep is kept through the next; one unused through a whole period is dropped, so a burst of reads
 * does not leave its forms in memory for good.
 */

const loaded = (value: string) => async () => value;

test('a value used since the last sweep is kept; one unused through a whole period goes', async (t) => {
  const idle = new IdleSweep(3_600_000);
  const cache = new RevisionCache<string, string>(10, idle);
  await cache.get('a', 1, loaded('A'));
  await cache.get('b', 1, loaded('B'));
  idle.sweep();
  t.is(cache.peek('a'), 'A', 'stored during the period just ended');
  t.is(cache.peek('b'), 'B');
  t.is(cache.at('a', 1), 'A');
  t.deepEqual(await cache.get('a', 1, async () => t.fail('a kept value is not loaded again') as never), { value: 'A', fresh: false });
  idle.sweep();
  t.is(cache.peek('a'), 'A', 'used during the last period');
  t.is(cache.peek('b'), undefined, 'unused through the last period');
  idle.sweep();
  t.is(cache.peek('a'), undefined);
  t.deepEqual(await cache.get('a', 1, loaded('A2')), { value: 'A2', fresh: true }, 'loaded again once dropped');
});

test('a hit for another revision is no use: the stale value goes at the sweep', async (t) => {
  const idle = new IdleSweep(3_600_000);
  const cache = new RevisionCache<string, string>(10, idle);
  await cache.get('a', 1, loaded('A'));
  idle.sweep();
  t.is(cache.at('a', 2), undefined);
  idle.sweep();
  t.is(cache.peek('a'), undefined);
});

test('the caches sharing a sweep are swept together, and its timer empties them without being asked', async (t) => {
  const idle = new IdleSweep(20);
  const forms = new RevisionCache<string, string>(10, idle);
  const keys = new RevisionCache<string, number>(10, idle);
  await forms.get('frm', 1, loaded('form'));
  await keys.get('key', 1, async () => 7);
  await waitFor(() => forms.peek('frm') === undefined && keys.peek('key') === undefined, { timeoutMs: 30_000, what: 'the idle values to go' });
  t.pass();
});

test('past its bound the value stored first goes, whatever the sweep', async (t) => {
  const cache = new RevisionCache<string, string>(2, new IdleSweep(3_600_000));
  for (const k of ['a', 'b', 'c']) await cache.get(k, 1, loaded(k.toUpperCase()));
  t.deepEqual(['a', 'b', 'c'].map((k) => cache.peek(k)), [undefined, 'B', 'C']);
});
