import type { FormRecord } from '../../domain/types';
import {
  at,
  count,
  makeForm,
  makeQuestion,
  makeVersion,
  rejectsWithConflict,
  type StorageTest,
  truthy,
  uid,
} from './fixtures';

const ids = (forms: { id: string }[]) => forms.map((f) => f.id);

/** forms, questions, versions. */
export function formTests(test: StorageTest): void {
  test('forms: insert, find by id and slug, real booleans and JSON', async (t, db) => {
    const form = makeForm({
      description: 'Tell us',
      published: true,
      has_unpublished_changes: true,
      theme_color: '#112233',
      options: { welcome_screen: { title: 'Hi' }, limit_one_response: true, tags: ['a', 'b'] },
    });
    await db.storage.forms.insert(form);
    const found = await db.storage.forms.findById(form.id);
    t.deepEqual(found, form);
    t.is(typeof found?.published, 'boolean');
    t.deepEqual(await db.storage.forms.findBySlug(form.slug), form);
    t.is(await db.storage.forms.findById(uid('frm')), null);
    t.is(await db.storage.forms.findBySlug(uid('slug')), null);

    const [row] = await db.probes.forms({ id: form.id });
    t.is(row.title, form.title);
    t.true(truthy(row.published));
    t.deepEqual(typeof row.options === 'string' ? JSON.parse(row.options) : row.options, form.options);
  });

  test('forms: a taken id or slug is a CONFLICT', async (t, db) => {
    const form = makeForm();
    await db.storage.forms.insert(form);
    await rejectsWithConflict(t, db.storage.forms.insert(makeForm({ slug: form.slug })), 'same slug');
    await rejectsWithConflict(t, db.storage.forms.insert(makeForm({ id: form.id })), 'same id');
    t.is(await count(db.probes.forms({ slug: form.slug })), 1);
  });

  test('forms: list gives personal and team forms, newest first, ties by id', async (t, db) => {
    const owner = uid('usr');
    const [teamA, teamB] = [uid('team'), uid('team')];
    const mine = [makeForm({ owner_id: owner, updated_at: at(30) }), makeForm({ owner_id: owner, updated_at: at(10) })];
    const teamForms = [makeForm({ team_id: teamA, updated_at: at(20) }), makeForm({ team_id: teamA, updated_at: at(20) })];
    const hidden = [makeForm({ team_id: teamB }), makeForm({ owner_id: owner, team_id: teamB }), makeForm()];
    for (const f of [...mine, ...teamForms, ...hidden]) await db.storage.forms.insert(f);

    const page = await db.storage.forms.list({ ownerId: owner, teamIds: [teamA], offset: 0, limit: 10 });
    const tied = ids(teamForms).sort();
    t.deepEqual(ids(page.items), [mine[0].id, ...tied, mine[1].id]);
    t.is(page.total, 4);
    t.deepEqual(page.items[0], mine[0]);

    const personal = await db.storage.forms.list({ ownerId: owner, teamIds: [], offset: 0, limit: 10 });
    t.deepEqual(ids(personal.items), ids(mine));
  });

  test('forms: list searches titles case-insensitively, wildcards literal', async (t, db) => {
    const owner = uid('usr');
    const titles = ['Customer Survey', 'customer FEEDBACK', 'Other', '100% sure', 'snake_case', 'ÜBER uns'];
    const forms = titles.map((title, i) => makeForm({ owner_id: owner, title, updated_at: at(i) }));
    for (const f of forms) await db.storage.forms.insert(f);
    const search = async (s: string) =>
      (await db.storage.forms.list({ ownerId: owner, teamIds: [], search: s, offset: 0, limit: 10 })).items.map(
        (f) => f.title,
      );
    t.deepEqual(await search('CUSTOMER'), ['customer FEEDBACK', 'Customer Survey']);
    t.deepEqual(await search('stom'), ['customer FEEDBACK', 'Customer Survey']);
    t.deepEqual(await search('%'), ['100% sure']);
    t.deepEqual(await search('_'), ['snake_case']);
    t.deepEqual(await search('über'), ['ÜBER uns']);
    t.deepEqual(await search('nothing like it'), []);
  });

  test('forms: list filters by team and published, pages with the total', async (t, db) => {
    const owner = uid('usr');
    const team = uid('team');
    const forms: FormRecord[] = [];
    for (let i = 0; i < 5; i++) forms.push(makeForm({ owner_id: owner, published: i % 2 === 0, updated_at: at(100 - i) }));
    for (let i = 0; i < 3; i++) forms.push(makeForm({ team_id: team, published: i === 0, updated_at: at(50 - i) }));
    for (const f of forms) await db.storage.forms.insert(f);
    const list = (q: object) => db.storage.forms.list({ ownerId: owner, teamIds: [team], offset: 0, limit: 20, ...q });

    t.deepEqual(ids((await list({ teamId: team })).items), ids(forms.slice(5)));
    const published = await list({ published: true });
    t.deepEqual(ids(published.items), [forms[0].id, forms[2].id, forms[4].id, forms[5].id]);
    t.is((await list({ published: false, teamId: team })).total, 2);
    t.is((await list({ teamId: uid('team') })).total, 0, 'a team the caller is not in shows nothing');

    const page = await list({ offset: 2, limit: 3 });
    t.deepEqual(ids(page.items), ids(forms.slice(2, 5)));
    t.is(page.total, 8);
    const beyond = await list({ offset: 50, limit: 3 });
    t.deepEqual(beyond.items, []);
    t.is(beyond.total, 8);
  });

  test('forms: update applies the patch, keeps the slug unique', async (t, db) => {
    const form = makeForm();
    await db.storage.forms.insert(form);
    const patch = { title: 'Renamed', published: true, options: { a: { b: [1, 2] } }, theme_color: '#fff', updated_at: at(9) };
    const updated = await db.storage.forms.update(form.id, patch);
    t.deepEqual(updated, { ...form, ...patch });
    t.deepEqual(await db.storage.forms.findById(form.id), updated);
    const [row] = await db.probes.forms({ id: form.id });
    t.is(row.title, 'Renamed');
    t.true(truthy(row.published));
    t.deepEqual(await db.storage.forms.update(form.id, {}), updated);
    t.is(await db.storage.forms.update(uid('frm'), { title: 'x' }), null);

    const other = makeForm();
    await db.storage.forms.insert(other);
    await rejectsWithConflict(t, db.storage.forms.update(form.id, { slug: other.slug }), 'slug taken');
    t.is((await db.storage.forms.findById(form.id))?.slug, form.slug);
  });

  test('forms: addResponseCount is atomic', async (t, db) => {
    const form = makeForm();
    await db.storage.forms.insert(form);
    t.is(await db.storage.forms.addResponseCount(form.id, 2), 2);
    t.is(await db.storage.forms.addResponseCount(form.id, -1), 1);
    await Promise.all(Array.from({ length: 20 }, () => db.storage.forms.addResponseCount(form.id, 1)));
    t.is((await db.storage.forms.findById(form.id))?.response_count, 21);
    t.is(await db.storage.forms.addResponseCount(uid('frm'), 1), null);
  });

  test('forms: claimResponseSlot admits exactly up to the limit under concurrency, and a rollback gives the slot back', async (t, db) => {
    const form = makeForm();
    await db.storage.forms.insert(form);
    t.is(await db.storage.forms.claimResponseSlot(form.id, 5), 1);
    const claims = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        db.storage.transaction(async (tx) => {
          const n = await tx.forms.claimResponseSlot(form.id, 5);
          if (i % 4 === 0 && n !== null) throw new Error('rolled back');
          return n;
        }).catch(() => 'rolled back' as const),
      ),
    );
    const rolledBack = claims.filter((c) => c === 'rolled back').length;
    t.is(claims.filter((c) => typeof c === 'number').length, 4, `4 slots were left (${rolledBack} claims rolled back)`);
    t.is((await db.storage.forms.findById(form.id))?.response_count, 5);
    t.is(await db.storage.forms.claimResponseSlot(form.id, 5), null, 'at the limit');
    t.is((await db.storage.forms.findById(form.id))?.response_count, 5, 'a refused claim writes nothing');
    t.is(await db.storage.forms.claimResponseSlot(uid('frm'), 5), null);
  });

  test('forms: delete takes the questions and versions with it', async (t, db) => {
    const form = makeForm();
    const keep = makeForm();
    for (const f of [form, keep]) {
      await db.storage.forms.insert(f);
      await db.storage.questions.replaceForForm(f.id, [makeQuestion(0), makeQuestion(1)]);
      await db.storage.versions.insert(makeVersion(f.id, 1));
    }
    t.true(await db.storage.forms.delete(form.id));
    t.false(await db.storage.forms.delete(form.id));
    t.is(await count(db.probes.forms({ id: form.id })), 0);
    t.is(await count(db.probes.questions({ form_id: form.id })), 0);
    t.is(await count(db.probes.versions({ form_id: form.id })), 0);
    t.is(await count(db.probes.questions({ form_id: keep.id })), 2);
    t.is((await db.storage.versions.listByForm(keep.id)).length, 1);
  });

  test('questions: replaceForForm updates, inserts and deletes, listByForm orders', async (t, db) => {
    const form = makeForm();
    const other = makeForm();
    await db.storage.forms.insert(form);
    await db.storage.forms.insert(other);
    const [q1, q2, q3] = [
      makeQuestion(0, { required: true, properties: { choices: [{ id: 'c1', label: 'A' }] } }),
      makeQuestion(1),
      makeQuestion(2, { logic_jumps: [{ if: 'x', to: 'end' }], validations: { max_length: 20 }, description: 'd' }),
    ];
    await db.storage.questions.replaceForForm(form.id, [q3, q1, q2]);
    await db.storage.questions.replaceForForm(other.id, [makeQuestion(0)]);
    t.deepEqual(await db.storage.questions.listByForm(form.id), [q1, q2, q3]);

    const q4 = makeQuestion(1, { type: 'email' });
    const next = [{ ...q3, title: 'Now first', order: 0 }, { ...q1, order: 2 }, q4];
    await db.storage.questions.replaceForForm(form.id, next);
    t.deepEqual(await db.storage.questions.listByForm(form.id), [next[0], q4, next[1]]);
    const rows = await db.probes.questions({ form_id: form.id });
    t.deepEqual(rows.map((r) => r.id).sort(), [q1.id, q3.id, q4.id].sort());
    t.is(rows.find((r) => r.id === q3.id)?.title, 'Now first');
    t.is((await db.storage.questions.listByForm(other.id)).length, 1);

    await db.storage.questions.replaceForForm(form.id, []);
    t.deepEqual(await db.storage.questions.listByForm(form.id), []);
    t.deepEqual(await db.storage.questions.listByForm(uid('frm')), []);
  });

  test('versions: insert, list highest first, latest, find', async (t, db) => {
    const form = makeForm();
    await db.storage.forms.insert(form);
    const versions = [1, 3, 2].map((n) => makeVersion(form.id, n, { published_by_name: n === 3 ? 'Ada' : null }));
    for (const v of versions) await db.storage.versions.insert(v);
    t.deepEqual(
      (await db.storage.versions.listByForm(form.id)).map((v) => v.version),
      [3, 2, 1],
    );
    t.deepEqual(await db.storage.versions.latest(form.id), versions[1]);
    t.deepEqual(await db.storage.versions.findById(versions[2].id), versions[2]);
    t.is(await db.storage.versions.findById(uid('ver')), null);
    t.is(await db.storage.versions.latest(uid('frm')), null);
    await t.throwsAsync(db.storage.versions.insert(makeVersion(form.id, 2)), undefined, 'version numbers are unique per form');
    t.is(await count(db.probes.versions({ form_id: form.id })), 3);
  });
}
