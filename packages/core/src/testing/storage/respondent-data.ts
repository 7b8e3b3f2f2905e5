import { at, count, makeAttempt, makeDelivery, makeForm, makeResponse, type StorageHarnessInstance, type StorageTest, uid } from './fixtures';
import type { UploadRecord } from '../../domain/types';

async function newForm(db: StorageHarnessInstance) {
  const form = makeForm();
  await db.storage.forms.insert(form);
  return form;
}

const upload = (formId: string, responseId: string | null): UploadRecord => {
  const id = uid('upl');
  return { id, form_id: formId, question_id: uid('q'), key: `uploads/${formId}/${id}/cv.pdf`, size: 10, response_id: responseId, created_at: at(0) };
};

/** A respondent's rights (docs/privacy.md): finding their responses across forms, and what goes with a response. */
export function respondentDataTests(test: StorageTest): void {
  test('responses.findByRespondent: by visitor id or an email inside answers or hidden values, only in the forms given, newest first', async (t, db) => {
    const [a, b, c] = [await newForm(db), await newForm(db), await newForm(db)];
    const email = `Ada_${uid('x')}@Example.com`;
    const byAnswer = makeResponse(a.id, 10, { answers: [{ question_id: 'q1', value: email.toLowerCase() }] });
    const byHidden = makeResponse(b.id, 20, { metadata: { user_agent: null, referrer: null, hidden: { email } } });
    const byVisitor = makeResponse(a.id, 30, { visitor_id: 'visitor-ada' });
    // `_` and `%` are literal: a LIKE wildcard must not match "adaX..." for "ada_...".
    const lookalike = makeResponse(a.id, 40, { answers: [{ question_id: 'q1', value: email.replace('_', 'X') }] });
    const elsewhere = makeResponse(c.id, 50, { answers: [{ question_id: 'q1', value: email }] });
    for (const r of [byAnswer, byHidden, byVisitor, lookalike, elsewhere]) await db.storage.responses.insert(r);

    const ids = async (match: { email?: string; visitor_id?: string }, limit = 100) =>
      (await db.storage.responses.findByRespondent([a.id, b.id], match, limit)).map((r) => r.id);
    t.deepEqual(await ids({ email: email.toUpperCase() }), [byHidden.id, byAnswer.id]);
    t.deepEqual(await ids({ visitor_id: 'visitor-ada' }), [byVisitor.id]);
    t.deepEqual(await ids({ email, visitor_id: 'visitor-ada' }), [byVisitor.id, byHidden.id, byAnswer.id]);
    t.deepEqual(await ids({ email, visitor_id: 'visitor-ada' }, 2), [byVisitor.id, byHidden.id], 'limit');
    t.deepEqual(await ids({}), [], 'no match asked, nothing found');
    t.deepEqual(await db.storage.responses.findByRespondent([], { email }, 10), []);
    const found = await db.storage.responses.findByRespondent([a.id], { visitor_id: 'visitor-ada' }, 10);
    t.deepEqual(found, [byVisitor], 'whole records');
    const everywhere = (await db.storage.responses.findByRespondent(null, { email }, 100)).map((r) => r.id);
    t.deepEqual(everywhere.filter((id) => [byAnswer.id, byHidden.id, elsewhere.id].includes(id)), [elsewhere.id, byHidden.id, byAnswer.id], 'null: every form');
  });

  test('uploads.takeByResponses and deliveries.deleteByResponses remove what a response left, only of the form and responses given', async (t, db) => {
    const [form, other] = [await newForm(db), await newForm(db)];
    const [gone, kept] = [makeResponse(form.id, 1), makeResponse(form.id, 2)];
    for (const r of [gone, kept]) await db.storage.responses.insert(r);
    const mine = upload(form.id, gone.id);
    const theirs = upload(form.id, kept.id);
    const sameIdOtherForm = upload(other.id, gone.id);
    // No unattached upload here: the uploads tests sweep those from the shared database.
    for (const u of [mine, theirs, sameIdOtherForm]) await db.storage.uploads.insert(u);
    t.deepEqual(await db.storage.uploads.takeByResponses(form.id, [gone.id, gone.id]), [mine]);
    t.deepEqual(await db.storage.uploads.takeByResponses(form.id, [gone.id]), [], 'taken once');
    t.deepEqual(await db.storage.uploads.takeByResponses(form.id, []), []);
    t.is(await count(db.probes.uploads({ form_id: form.id })), 1);
    t.is(await count(db.probes.uploads({ form_id: other.id })), 1);

    const d1 = makeDelivery(form.id, { response_id: gone.id });
    const d2 = makeDelivery(form.id, { response_id: kept.id });
    for (const d of [d1, d2]) await db.storage.deliveries.insert(d);
    await db.storage.deliveries.insertAttempt(makeAttempt(d1.id, 1));
    t.is(await db.storage.deliveries.deleteByResponses(form.id, [gone.id]), 1);
    t.is(await db.storage.deliveries.findById(d1.id), null);
    t.deepEqual(await db.storage.deliveries.listAttempts(d1.id), [], 'its attempts went with it');
    t.truthy(await db.storage.deliveries.findById(d2.id));
    t.is(await db.storage.deliveries.deleteByResponses(other.id, [kept.id]), 0, 'another form\'s id list removes nothing');
  });

  test('forms.listWithRetention and responses.pastRetention: the forms with a policy, the responses past it', async (t, db) => {
    const kept = makeForm({ options: { response_retention: { keep_newest: 2 } } });
    const none = makeForm({ options: { response_retention: null } });
    const plain = makeForm();
    for (const f of [kept, none, plain]) await db.storage.forms.insert(f);
    const listed = (await db.storage.forms.listWithRetention(null, 1000)).map((f) => f.id);
    t.true(listed.includes(kept.id));
    t.false(listed.includes(none.id));
    t.false(listed.includes(plain.id));
    const after = (await db.storage.forms.listWithRetention(kept.id, 1000)).map((f) => f.id);
    t.false(after.includes(kept.id), 'paged by id');

    const rs = [10, 20, 30, 40].map((s) => makeResponse(kept.id, s));
    for (const r of rs) await db.storage.responses.insert(r);
    await db.storage.responses.insert(makeResponse(plain.id, 1));
    const past = (policy: { before?: string; keep_newest?: number }, limit = 100) => db.storage.responses.pastRetention(kept.id, policy, limit);
    t.deepEqual((await past({ keep_newest: 2 })).sort(), [rs[0]!.id, rs[1]!.id].sort());
    t.deepEqual(await past({ before: at(25) }), [rs[0]!.id, rs[1]!.id], 'oldest first');
    t.deepEqual((await past({ before: at(15), keep_newest: 1 })).sort(), [rs[0]!.id, rs[1]!.id, rs[2]!.id].sort(), 'either rule');
    t.deepEqual(await past({ keep_newest: 10 }), []);
    t.deepEqual(await past({}), [], 'no rule, nothing past it');
    t.is((await past({ keep_newest: 1 }, 2)).length, 2, 'limit');
  });
}
