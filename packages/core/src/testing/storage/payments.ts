import type { PaymentRecord } from '../../ports/storage';
import { at, rejectsWithConflict, type StorageTest, uid } from './fixtures';

const payment = (over: Partial<PaymentRecord> = {}): PaymentRecord => ({
  id: uid('pay'),
  form_id: uid('frm'),
  response_id: uid('rsp'),
  question_id: uid('q'),
  provider: 'standard',
  processor_payment_id: uid('pi'),
  destination: null,
  amount: 1500,
  currency: 'eur',
  status: 'requires_payment',
  amount_refunded: 0,
  created_at: at(1),
  updated_at: at(1),
  ...over,
});

/** payments (docs/payments.md): events applied once under concurrency, payments, checkouts, connected accounts. */
export function paymentTests(test: StorageTest): void {
  test('payments: claimEvent is true once per (processor, event id), also from 10 concurrent transactions', async (t, db) => {
    const event_id = uid('evt');
    const claim = { processor: 'stripe', event_id, type: 'checkout.session.completed', received_at: at(2) };
    t.true(await db.storage.payments.claimEvent(claim));
    t.false(await db.storage.payments.claimEvent(claim));
    t.true(await db.storage.payments.claimEvent({ ...claim, processor: 'other' }));
    const racing = { ...claim, event_id: uid('evt') };
    const wins = await Promise.all(Array.from({ length: 10 }, () => db.storage.transaction((tx) => tx.payments.claimEvent(racing))));
    t.is(wins.filter(Boolean).length, 1);
  });

  test('payments: a claim rolled back with its transaction is claimable again (a crash before the commit)', async (t, db) => {
    const claim = { processor: 'stripe', event_id: uid('evt'), type: 'payment_intent.succeeded', received_at: at(2) };
    await t.throwsAsync(
      db.storage.transaction(async (tx) => {
        t.true(await tx.payments.claimEvent(claim));
        throw new Error('crash before commit');
      }),
    );
    t.true(await db.storage.payments.claimEvent(claim));
  });

  test('payments: insert, find by id, processor id and question; a second payment of one question is a CONFLICT; update', async (t, db) => {
    const p = payment();
    await db.storage.payments.insert(p);
    t.deepEqual(await db.storage.payments.findById(p.id), p);
    t.deepEqual(await db.storage.payments.findByProcessorId(p.processor_payment_id), p);
    t.deepEqual(await db.storage.payments.findFor(p.response_id, p.question_id), p);
    await rejectsWithConflict(t, db.storage.payments.insert(payment({ response_id: p.response_id, question_id: p.question_id })), 'same question');
    await rejectsWithConflict(t, db.storage.payments.insert(payment({ processor_payment_id: p.processor_payment_id })), 'same processor id');
    const moved = { processor_payment_id: uid('pi'), amount: 2500, currency: 'eur', destination: null, updated_at: at(2) };
    t.true(await db.storage.payments.replacePending(p.id, moved));
    t.like(await db.storage.payments.findById(p.id), { ...moved, status: 'requires_payment' });
    t.is(await db.storage.payments.findByProcessorId(p.processor_payment_id), null);
    p.processor_payment_id = moved.processor_payment_id;
    t.true(await db.storage.payments.update(p.id, { status: 'succeeded', amount_refunded: 0, updated_at: at(2) }));
    t.false(await db.storage.payments.replacePending(p.id, { ...moved, processor_payment_id: uid('pi') }), 'a succeeded payment is never replaced');
    t.true(await db.storage.payments.update(p.id, { status: 'partially_refunded', amount_refunded: 500, updated_at: at(3) }));
    t.like(await db.storage.payments.findById(p.id), { status: 'partially_refunded', amount_refunded: 500, updated_at: at(3) });
    t.false(await db.storage.payments.update(uid('pay'), { status: 'succeeded', amount_refunded: 0, updated_at: at(3) }));
    const other = payment();
    await db.storage.payments.insert(other);
    const found = await db.storage.payments.forResponses([p.response_id, other.response_id, uid('rsp')]);
    t.deepEqual(found.map((x) => x.id).sort(), [p.id, other.id].sort());
    t.deepEqual(await db.storage.payments.forResponses([]), []);
  });

  test('payments: a checkout completes exactly once under 10 concurrent completions', async (t, db) => {
    const user = uid('usr');
    const c = { id: uid('cs'), user_id: user, credits: 500, amount: 500, currency: 'eur', status: 'open' as const, created_at: at(1), completed_at: null };
    await db.storage.payments.insertCheckout(c);
    await rejectsWithConflict(t, db.storage.payments.insertCheckout(c), 'same checkout');
    t.deepEqual(await db.storage.payments.findCheckout(c.id), c);
    const wins = await Promise.all(Array.from({ length: 10 }, () => db.storage.transaction((tx) => tx.payments.completeCheckout(c.id, at(5)))));
    t.is(wins.filter(Boolean).length, 1);
    t.like(await db.storage.payments.findCheckout(c.id), { status: 'completed', completed_at: at(5) });
    t.false(await db.storage.payments.completeCheckout(uid('cs'), at(5)));
    const later = { ...c, id: uid('cs'), created_at: at(9), status: 'open' as const };
    await db.storage.payments.insertCheckout(later);
    t.deepEqual((await db.storage.payments.checkoutsOf(user, 10)).map((x) => x.id), [later.id, c.id]);
  });

  test('payments: a connected account per user, replaced in place, found by its id', async (t, db) => {
    const user = uid('usr');
    const acct = uid('acct');
    t.is(await db.storage.payments.accountOf(user), null);
    await db.storage.payments.putAccount({ user_id: user, account_id: acct, charges_enabled: false, created_at: at(1), updated_at: at(1) });
    await db.storage.payments.putAccount({ user_id: user, account_id: acct, charges_enabled: true, created_at: at(1), updated_at: at(2) });
    t.deepEqual(await db.storage.payments.accountOf(user), { user_id: user, account_id: acct, charges_enabled: true, created_at: at(1), updated_at: at(2) });
    t.like(await db.storage.payments.accountById(acct), { user_id: user });
  });
}
