import {
  at,
  count,
  makeAttempt,
  makeDelivery,
  makeForm,
  makeQuestion,
  makeResponse,
  makeVersion,
  rejectsWithConflict,
  type StorageHarnessInstance,
  type StorageTest,
  truthy,
  uid,
} from './fixtures';

async function newForm(db: StorageHarnessInstance) {
  const form = makeForm();
  await db.storage.forms.insert(form);
  return form;
}

/** webhooks (global hooks, secrets), deliveries and attempts, and the cascade of forms.delete. */
export function webhookTests(test: StorageTest): void {
  test('webhooks: replaceGlobal replaces the account\'s hooks, listGlobal keeps their order', async (t, db) => {
    const [user, other] = [uid('usr'), uid('usr')];
    t.deepEqual(await db.storage.webhooks.listGlobal(user), []);
    const hooks = [
      { url: 'https://b.example.com/hook', enabled: true },
      { url: 'https://a.example.com/hook', enabled: false },
      { url: 'https://c.example.com/hook?x=1', enabled: true },
    ];
    await db.storage.webhooks.replaceGlobal(user, hooks);
    await db.storage.webhooks.replaceGlobal(other, [{ url: 'https://other.example.com', enabled: true }]);
    t.deepEqual(await db.storage.webhooks.listGlobal(user), hooks);
    const rows = await db.probes.globalWebhooks({ user_id: user });
    t.is(rows.length, 3);
    t.false(truthy(rows.find((r) => r.url === hooks[1].url)?.enabled));

    await db.storage.webhooks.replaceGlobal(user, [hooks[2], hooks[0]]);
    t.deepEqual(await db.storage.webhooks.listGlobal(user), [hooks[2], hooks[0]]);
    await db.storage.webhooks.replaceGlobal(user, []);
    t.deepEqual(await db.storage.webhooks.listGlobal(user), []);
    t.is((await db.storage.webhooks.listGlobal(other)).length, 1, 'another account keeps its hooks');
  });

  test('webhooks: secrets are created once, read, and replaced', async (t, db) => {
    const user = uid('usr');
    t.is(await db.storage.webhooks.getSecret(user), null);
    t.is(await db.storage.webhooks.createSecretIfAbsent(user, 'enc:first'), 'enc:first');
    t.is(await db.storage.webhooks.createSecretIfAbsent(user, 'enc:second'), 'enc:first', 'the secret in force');
    t.is(await db.storage.webhooks.getSecret(user), 'enc:first');
    await db.storage.webhooks.setSecret(user, 'enc:rotated');
    t.is(await db.storage.webhooks.getSecret(user), 'enc:rotated');
    const fresh = uid('usr');
    await db.storage.webhooks.setSecret(fresh, 'enc:set');
    t.is(await db.storage.webhooks.getSecret(fresh), 'enc:set', 'setSecret also creates');
    const [row] = await db.probes.webhookSecrets({ user_id: user });
    t.is(row.secret, 'enc:rotated');
  });

  test('concurrency: 10 createSecretIfAbsent of one account all return the one secret stored', async (t, db) => {
    const user = uid('usr');
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        i % 2 === 0
          ? db.storage.webhooks.createSecretIfAbsent(user, `enc:${i}`)
          : db.storage.transaction((tx) => tx.webhooks.createSecretIfAbsent(user, `enc:${i}`)),
      ),
    );
    t.is(new Set(results).size, 1);
    t.is(await db.storage.webhooks.getSecret(user), results[0]);
    t.is(await count(db.probes.webhookSecrets({ user_id: user })), 1);
  });

  test('deliveries: insert, find, update, list newest first with the total', async (t, db) => {
    const [form, other] = [await newForm(db), await newForm(db)];
    const deliveries = [1, 3, 2].map((s) => makeDelivery(form.id, { created_at: at(s), updated_at: at(s), response_id: uid('rsp') }));
    for (const d of [...deliveries, makeDelivery(other.id, { created_at: at(9) })]) await db.storage.deliveries.insert(d);
    t.deepEqual(await db.storage.deliveries.findById(deliveries[0].id), deliveries[0]);
    t.is(await db.storage.deliveries.findById(uid('dlv')), null);
    await rejectsWithConflict(t, db.storage.deliveries.insert(deliveries[0]), 'same id');

    const page = await db.storage.deliveries.listByForm(form.id, 0, 10);
    t.deepEqual(page.items.map((d) => d.created_at), [at(3), at(2), at(1)]);
    t.is(page.total, 3);
    const second = await db.storage.deliveries.listByForm(form.id, 1, 1);
    t.deepEqual(second.items, [deliveries[2]]);
    t.is(second.total, 3);
    t.deepEqual(await db.storage.deliveries.listByForm(uid('frm'), 0, 10), { items: [], total: 0 });

    const patch = {
      status: 'delivered' as const,
      attempts: 2,
      last_status_code: 200,
      last_duration_ms: 35,
      last_error: null,
      last_response_excerpt: '{"ok":true,"note":"ünïcode"}',
      next_attempt_at: null,
      updated_at: at(20),
    };
    await db.storage.deliveries.update(deliveries[0].id, patch);
    t.deepEqual(await db.storage.deliveries.findById(deliveries[0].id), { ...deliveries[0], ...patch });
    await db.storage.deliveries.update(deliveries[0].id, {});
    await db.storage.deliveries.update(uid('dlv'), { status: 'failed' });
    t.deepEqual(await db.storage.deliveries.findById(deliveries[1].id), deliveries[1], 'other deliveries untouched');
    const [row] = await db.probes.deliveries({ id: deliveries[0].id });
    t.deepEqual([row.status, Number(row.last_status_code), Number(row.attempts)], ['delivered', 200, 2]);
  });

  test('deliveries: attempts list oldest first', async (t, db) => {
    const form = await newForm(db);
    const [delivery, other] = [makeDelivery(form.id), makeDelivery(form.id)];
    await db.storage.deliveries.insert(delivery);
    await db.storage.deliveries.insert(other);
    const attempts = [
      makeAttempt(delivery.id, 2, { status_code: null, error: 'ECONNRESET' }),
      makeAttempt(delivery.id, 1),
      makeAttempt(delivery.id, 3, { status_code: 204, duration_ms: 80 }),
    ];
    for (const a of [...attempts, makeAttempt(other.id, 1)]) await db.storage.deliveries.insertAttempt(a);
    t.deepEqual(await db.storage.deliveries.listAttempts(delivery.id), [attempts[1], attempts[0], attempts[2]]);
    await rejectsWithConflict(t, db.storage.deliveries.insertAttempt(attempts[0]), 'same id');
    t.deepEqual(await db.storage.deliveries.listAttempts(uid('dlv')), []);
    const [row] = await db.probes.deliveryAttempts({ id: attempts[0].id });
    t.deepEqual([row.error, row.status_code], ['ECONNRESET', null]);
    const answered = makeAttempt(delivery.id, 4, { status_code: 500, response_excerpt: 'upstream down: ünïcode' });
    await db.storage.deliveries.insertAttempt(answered);
    t.deepEqual((await db.storage.deliveries.listAttempts(delivery.id)).at(-1), answered, 'the response excerpt is kept');
  });

  test('forms: delete takes the responses, deliveries and their attempts with it', async (t, db) => {
    const [form, keep] = [makeForm(), makeForm()];
    const deliveryIds: Record<string, string[]> = {};
    for (const f of [form, keep]) {
      await db.storage.forms.insert(f);
      await db.storage.questions.replaceForForm(f.id, [makeQuestion(0)]);
      await db.storage.versions.insert(makeVersion(f.id, 1));
      for (let i = 0; i < 3; i++) await db.storage.responses.insert(makeResponse(f.id, i));
      deliveryIds[f.id] = [];
      for (let i = 0; i < 2; i++) {
        const delivery = makeDelivery(f.id);
        await db.storage.deliveries.insert(delivery);
        await db.storage.deliveries.insertAttempt(makeAttempt(delivery.id, 1));
        deliveryIds[f.id].push(delivery.id);
      }
    }
    t.true(await db.storage.forms.delete(form.id));
    const counts = async (formId: string) => [
      await count(db.probes.responses({ form_id: formId })),
      await count(db.probes.deliveries({ form_id: formId })),
      (await Promise.all(deliveryIds[formId].map((id) => count(db.probes.deliveryAttempts({ delivery_id: id }))))).reduce(
        (a, b) => a + b,
        0,
      ),
    ];
    t.deepEqual(await counts(form.id), [0, 0, 0]);
    t.deepEqual(await counts(keep.id), [3, 2, 2], 'another form keeps its own');
  });
}
