import type { IntegrationDeliveryRecord, IntegrationRecord } from '../../ports/storage/integrations';
import { at, makeForm, rejectsWithConflict, type StorageTest, uid } from './fixtures';

const makeIntegration = (formId: string, seconds: number, over: Partial<IntegrationRecord> = {}): IntegrationRecord => ({
  id: uid('int'),
  form_id: formId,
  type: 'slack',
  name: 'Sales channel',
  status: 'active',
  paused_reason: null,
  config: { service: 'slack', compact: true },
  secrets: 'v1.sealed',
  fields: [{ question_id: 'q_1', name: 'Name' }],
  created_by: uid('usr'),
  created_at: at(seconds),
  updated_at: at(seconds),
  ...over,
});

const makeIntegrationDelivery = (i: IntegrationRecord, seconds: number): IntegrationDeliveryRecord => ({
  id: uid('ind'),
  integration_id: i.id,
  form_id: i.form_id,
  response_id: uid('rsp'),
  event: 'response.submitted',
  status: 'pending',
  attempts: 0,
  last_status_code: null,
  last_duration_ms: null,
  last_error: null,
  last_response_excerpt: null,
  next_attempt_at: at(seconds),
  created_at: at(seconds),
  updated_at: at(seconds),
});

/** integrations: records round-trip, patches, the delivery log's order, and the cascades. */
export function integrationTests(test: StorageTest): void {
  test('integrations: insert, read back, list by form, update, delete with its deliveries', async (t, db) => {
    const form = makeForm();
    await db.storage.forms.insert(form);
    const a = makeIntegration(form.id, 1);
    const b = makeIntegration(form.id, 2, { type: 'rest-hooks', fields: null, secrets: null, config: {} });
    await db.storage.integrations.insert(a);
    await db.storage.integrations.insert(b);
    await rejectsWithConflict(t, db.storage.integrations.insert(a), 'a taken id');
    t.deepEqual(await db.storage.integrations.findById(a.id), a);
    t.deepEqual((await db.storage.integrations.listByForm(form.id)).map((i) => i.id), [a.id, b.id]);
    const updated = await db.storage.integrations.update(a.id, { status: 'paused', paused_reason: 'gone', config: { service: 'discord' }, fields: null, updated_at: at(5) });
    t.deepEqual(updated, { ...a, status: 'paused', paused_reason: 'gone', config: { service: 'discord' }, fields: null, updated_at: at(5) });
    t.is(await db.storage.integrations.update(uid('int'), { name: 'x' }), null);

    const d1 = makeIntegrationDelivery(a, 10);
    const d2 = makeIntegrationDelivery(a, 20);
    await db.storage.integrations.insertDelivery(d1);
    await db.storage.integrations.insertDelivery(d2);
    await rejectsWithConflict(t, db.storage.integrations.insertDelivery(d1), 'a taken delivery id');
    await db.storage.integrations.updateDelivery(d1.id, { status: 'failed', attempts: 2, last_status_code: 500, last_error: 'HTTP 500', next_attempt_at: null });
    t.deepEqual(await db.storage.integrations.findDelivery(d1.id), { ...d1, status: 'failed', attempts: 2, last_status_code: 500, last_error: 'HTTP 500', next_attempt_at: null });
    t.deepEqual((await db.storage.integrations.listDeliveries(a.id, 10)).map((d) => d.id), [d2.id, d1.id], 'newest first');
    t.deepEqual((await db.storage.integrations.listDeliveries(a.id, 1)).map((d) => d.id), [d2.id]);

    // Settled deliveries older than a bound leave; pending ones and newer ones stay.
    const old = makeIntegrationDelivery(b, 1);
    const oldPending = makeIntegrationDelivery(b, 2);
    await db.storage.integrations.insertDelivery({ ...old, status: 'delivered' });
    await db.storage.integrations.insertDelivery(oldPending);
    t.is(await db.storage.integrations.deleteSettledBefore(at(15), 100), 2, 'the old delivered one and d1 (failed, at 10)');
    t.deepEqual((await db.storage.integrations.listDeliveries(b.id, 10)).map((d) => d.id), [oldPending.id]);
    t.deepEqual((await db.storage.integrations.listDeliveries(a.id, 10)).map((d) => d.id), [d2.id]);

    t.true(await db.storage.integrations.delete(a.id));
    t.false(await db.storage.integrations.delete(a.id));
    t.is(await db.storage.integrations.findDelivery(d2.id), null, 'its deliveries go with it');
    await db.storage.forms.delete(form.id);
    t.is(await db.storage.integrations.findById(b.id), null, 'a deleted form takes its integrations');
  });
}
