import type { GenerationSpend } from '../../ports/storage/credits';
import type { VoiceGeneration } from '../../ports/storage/voice-generations';
import { at, type StorageTest, uid } from './fixtures';

const spendOf = (user: string, amount: number, extra: Partial<GenerationSpend> = {}): GenerationSpend => ({
  id: uid('cre'),
  user_id: user,
  key_id: null,
  generation_id: uid('gen'),
  amount,
  created_at: at(1),
  ...extra,
});

const ledgerSum = (rows: Array<Record<string, any>>) => rows.reduce((sum, r) => sum + Number(r.amount), 0);

export const makeGeneration = (over: Partial<VoiceGeneration> = {}): VoiceGeneration => ({
  id: uid('gen'),
  user_id: uid('usr'),
  key_id: null,
  status: 'ready',
  mode: 'speak',
  source: 'api',
  voice_id: 'nv_x',
  voice_name: 'X',
  language: 'English',
  text: 'Hello.',
  speed: 1,
  quality: 'standard',
  format: 'mp3',
  characters: 5,
  credits_estimated: 2,
  credits_charged: 2,
  sample_rate: 24000,
  duration_seconds: 0.5,
  title: null,
  save: false,
  retained_until: at(100),
  error: null,
  created_at: at(0),
  updated_at: at(0),
  ...over,
});

/** The credit ledger (purchases, generation spends, credit-backs) and voice generations. */
export function creditLedgerTests(test: StorageTest): void {
  test('credit ledger: the balance is the sum of the entries, written with each change', async (t, db) => {
    const credits = db.storage.credits;
    const user = uid('usr');
    const key = uid('key');
    t.is(await credits.add(user, 100, { id: uid('cre'), created_at: at(0) }), 100);
    const spend = spendOf(user, 30, { key_id: key });
    t.deepEqual(await credits.spendFor(spend), { ok: true, balance: 70 });
    t.is(await credits.keySpent(key, at(0)), 30);
    t.is(await credits.creditBack(spend.generation_id, { id: uid('cre'), created_at: at(2) }), 100);
    t.is(await credits.creditBack(spend.generation_id, { id: uid('cre'), created_at: at(3) }), null, 'only once');
    t.is(await credits.creditBack(uid('gen'), { id: uid('cre'), created_at: at(3) }), null, 'no spend, nothing back');
    t.is(await credits.keySpent(key, at(0)), 0);
    const rows = await db.probes.creditEntries({ user_id: user });
    t.deepEqual(rows.map((r) => r.kind).sort(), ['credit_back', 'purchase', 'spend']);
    t.is(ledgerSum(rows), 100);
    const [balance] = await db.probes.creditBalances({ user_id: user });
    t.is(Number(balance.balance), 100);
    t.deepEqual((await credits.entries(user)).map((e) => e.amount), [100, -30, 30]);
  });

  test('credit ledger: refused spends write nothing (balance, key limit, same generation twice)', async (t, db) => {
    const credits = db.storage.credits;
    const user = uid('usr');
    const key = uid('key');
    t.deepEqual(await credits.spendFor(spendOf(user, 1)), { ok: false, reason: 'insufficient', balance: 0 });
    await credits.add(user, 50);
    t.deepEqual(await credits.spendFor(spendOf(user, 51)), { ok: false, reason: 'insufficient', balance: 50 });
    const limit = { limit: 20, since: at(0) };
    t.true((await credits.spendFor(spendOf(user, 15, { key_id: key, key_limit: limit }))).ok);
    t.deepEqual(await credits.spendFor(spendOf(user, 6, { key_id: key, key_limit: limit })), { ok: false, reason: 'key_limit', balance: 35 });
    const once = spendOf(user, 5, { key_id: key, key_limit: limit });
    t.deepEqual(await credits.spendFor(once), { ok: true, balance: 30 });
    t.deepEqual(await credits.spendFor({ ...once, id: uid('cre') }), { ok: false, reason: 'duplicate', balance: 30 });
    const rows = await db.probes.creditEntries({ user_id: user });
    t.is(rows.length, 3, 'a purchase and two spends');
    t.is(ledgerSum(rows), 30);
  });

  test('credit ledger: concurrent spends never overdraw and charge each generation once', async (t, db) => {
    const credits = db.storage.credits;
    const user = uid('usr');
    await credits.add(user, 20);
    const shared = uid('gen');
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => credits.spendFor(spendOf(user, 1, i < 10 ? { generation_id: shared } : {}))),
    );
    const ok = results.filter((r) => r.ok);
    t.is(results.filter((r) => !r.ok && r.reason === 'duplicate').length, 9, 'the shared generation is charged once');
    t.is(ok.length, 20);
    t.is(await credits.balance(user), 0);
    t.is((await db.probes.creditEntries({ generation_id: shared })).length, 1);
    const rows = await db.probes.creditEntries({ user_id: user });
    t.is(ledgerSum(rows), 0);
  });

  test('credit ledger: a partial credit-back gives back only its part, once, never more than the spend', async (t, db) => {
    const credits = db.storage.credits;
    const user = uid('usr');
    const key = uid('key');
    await credits.add(user, 100);
    const spend = spendOf(user, 30, { key_id: key });
    t.true((await credits.spendFor(spend)).ok);
    const backs = await Promise.all([12, 12, 12].map((amount) => credits.creditBack(spend.generation_id, { id: uid('cre'), created_at: at(2), amount })));
    t.deepEqual(backs.filter((b) => b !== null), [82], 'one of concurrent credit-backs wins');
    t.is(await credits.creditBack(spend.generation_id, { id: uid('cre'), created_at: at(3) }), null, 'the rest is not given back later');
    t.is(await credits.keySpent(key, at(0)), 18);
    const big = spendOf(user, 5);
    t.true((await credits.spendFor(big)).ok);
    t.is(await credits.creditBack(big.generation_id, { id: uid('cre'), created_at: at(3), amount: 50 }), 82, 'capped at the spend');
    const rows = await db.probes.creditEntries({ user_id: user });
    t.is(ledgerSum(rows), 82);
    const [balance] = await db.probes.creditBalances({ user_id: user });
    t.is(Number(balance.balance), 82);
  });

  test('credit ledger: entryPage pages one user\'s entries newest first, with the total', async (t, db) => {
    const credits = db.storage.credits;
    const user = uid('usr');
    await credits.add(user, 50, { id: uid('cre'), created_at: at(10) });
    const spend = spendOf(user, 20, { created_at: at(20) });
    await credits.spendFor(spend);
    await credits.creditBack(spend.generation_id, { id: uid('cre'), created_at: at(30), amount: 5 });
    await credits.add(uid('usr'), 7, { id: uid('cre'), created_at: at(25) });
    const first = await credits.entryPage(user, { limit: 2, offset: 0 });
    t.is(first.total, 3);
    t.deepEqual(first.items.map((e) => [e.kind, e.amount, e.generation_id]), [['credit_back', 5, spend.generation_id], ['spend', -20, spend.generation_id]]);
    const second = await credits.entryPage(user, { limit: 2, offset: 2 });
    t.deepEqual(second.items.map((e) => [e.kind, e.amount, e.created_at]), [['purchase', 50, at(10)]]);
    t.is(second.total, 3);
    t.deepEqual(await credits.entryPage(uid('usr'), { limit: 10, offset: 0 }), { items: [], total: 0 });
    const all = await credits.entries(user);
    t.deepEqual([...first.items, ...second.items].reverse(), all, 'the same entries as the whole ledger');
  });

  test('voice generations: the library search matches title, words or voice name, ignoring case', async (t, db) => {
    const repo = db.storage.voiceGenerations;
    const user = uid('usr');
    const a = makeGeneration({ user_id: user, created_at: at(1), title: 'Welcome Message', text: 'Hello there.' });
    const b = makeGeneration({ user_id: user, created_at: at(2), title: null, text: 'The WELCOME desk opens at nine.' });
    const c = makeGeneration({ user_id: user, created_at: at(3), title: 'Outro', text: 'Goodbye.', voice_name: 'Flite SLT (welcome)' });
    const d = makeGeneration({ user_id: user, created_at: at(4), title: '100% sure', text: 'Bye_now.' });
    const other = makeGeneration({ user_id: uid('usr'), created_at: at(5), title: 'Welcome' });
    for (const g of [a, b, c, d, other]) await repo.insert(g);
    const found = await repo.listByUser(user, { limit: 10, offset: 0 }, { search: 'welcome' });
    t.deepEqual(found.items.map((g) => g.id), [c.id, b.id, a.id]);
    t.is(found.total, 3);
    const paged = await repo.listByUser(user, { limit: 1, offset: 1 }, { search: 'WeLcOmE' });
    t.deepEqual(paged.items.map((g) => g.id), [b.id]);
    t.is(paged.total, 3);
    t.deepEqual((await repo.listByUser(user, { limit: 10, offset: 0 }, { search: '%' })).items.map((g) => g.id), [d.id], 'wildcards are literal');
    t.deepEqual((await repo.listByUser(user, { limit: 10, offset: 0 }, { search: '_' })).items.map((g) => g.id), [d.id]);
    t.deepEqual(await repo.listByUser(user, { limit: 10, offset: 0 }, { search: 'nothing like it' }), { items: [], total: 0 });
    t.is((await repo.listByUser(user, { limit: 10, offset: 0 }, {})).total, 4, 'no search: every generation');
  });

  test('voice generations: insert, patch, list newest first, delete', async (t, db) => {
    const repo = db.storage.voiceGenerations;
    const user = uid('usr');
    const a = makeGeneration({ user_id: user, created_at: at(1) });
    const b = makeGeneration({ user_id: user, created_at: at(2) });
    await repo.insert(a);
    await repo.insert(b);
    await t.throwsAsync(repo.insert(a), { message: /exists/ });
    t.deepEqual(await repo.findById(a.id), a);
    t.true(await repo.update(a.id, { status: 'failed', credits_charged: 0 }));
    t.is((await repo.findById(a.id))!.status, 'failed');
    t.false(await repo.update(uid('gen'), { status: 'failed' }));
    const page = await repo.listByUser(user, { limit: 1, offset: 0 });
    t.is(page.total, 2);
    t.deepEqual(page.items.map((g) => g.id), [b.id]);
    t.is((await db.probes.voiceGenerations({ user_id: user })).length, 2);
    t.true(await repo.delete(a.id));
    t.false(await repo.delete(a.id));
    t.deepEqual(await db.probes.voiceGenerations({ id: a.id }), []);
  });
}
