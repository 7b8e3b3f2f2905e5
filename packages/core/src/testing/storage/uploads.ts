import { at, count, makeForm, rejectsWithConflict, type StorageHarnessInstance, type StorageTest, uid } from './fixtures';
import type { UploadRecord } from '../../domain/types';

async function newForm(db: StorageHarnessInstance) {
  const form = makeForm();
  await db.storage.forms.insert(form);
  return form;
}

const makeUpload = (formId: string, over: Partial<UploadRecord> = {}): UploadRecord => {
  const id = uid('upl');
  return { id, form_id: formId, question_id: uid('q'), key: `uploads/${formId}/${id}/a.txt`, size: 10, response_id: null, created_at: at(0), ...over };
};

/** uploads: the per-form total, sizes set later, attaching to a response, taking unattached ones, the cascade of forms.delete. */
export function uploadTests(test: StorageTest): void {
  test('uploads: total per form, attach by key, take only old unattached ones, cascade with the form', async (t, db) => {
    const [form, other] = [await newForm(db), await newForm(db)];
    const response = uid('rsp');
    const old = makeUpload(form.id, { size: 100, created_at: at(10) });
    const answered = makeUpload(form.id, { size: 200, created_at: at(10) });
    const recent = makeUpload(form.id, { size: 300, created_at: at(500) });
    const elsewhere = makeUpload(other.id, { size: 1000, created_at: at(10) });
    for (const u of [old, answered, recent, elsewhere]) await db.storage.uploads.insert(u);
    await rejectsWithConflict(t, db.storage.uploads.insert(old), 'same id');
    t.is(await db.storage.uploads.totalSize(form.id), 600);
    t.is(await db.storage.uploads.totalSize(uid('frm')), 0);

    t.is(await db.storage.uploads.attach(form.id, [answered.key, answered.key, elsewhere.key, 'uploads/x/y/z'], response), 1, 'only the form\'s own');
    t.is(await db.storage.uploads.attach(form.id, [answered.key], uid('rsp')), 0, 'an attached upload stays with its response');
    t.is(await db.storage.uploads.attach(form.id, [], response), 0);

    const taken = await db.storage.uploads.takeUnattached(at(100), 100);
    t.deepEqual(taken.map((u) => u.id).sort(), [old.id, elsewhere.id].sort());
    t.deepEqual(taken.find((u) => u.id === old.id), old);
    t.deepEqual(await db.storage.uploads.takeUnattached(at(100), 100), [], 'taken once');
    t.is(await db.storage.uploads.totalSize(form.id), 500);
    const [row] = await db.probes.uploads({ id: answered.id });
    t.is(row.response_id, response);

    await db.storage.uploads.setSize(recent.id, 50);
    await db.storage.uploads.setSize(uid('upl'), 7);
    t.is(await db.storage.uploads.totalSize(form.id), 250, 'setSize changes that upload only');
    await db.storage.uploads.delete(recent.id);
    t.is(await db.storage.uploads.totalSize(form.id), 200);
    await db.storage.forms.delete(form.id);
    t.is(await count(db.probes.uploads({ form_id: form.id })), 0);
  });
}
