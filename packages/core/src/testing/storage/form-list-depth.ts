import { at, makeForm, makeUser, type StorageTest } from './fixtures';

/** forms.list: every page of a long list, deep ones included (read from either end), in the list's order. */
export function formListDepthTests(test: StorageTest): void {
  test('forms.list: every page of 420 forms, first to last, is the list order sliced (deep pages too)', async (t, db) => {
    const s = db.storage;
    const user = makeUser();
    await s.users.insert(user);
    // Three forms share each updated_at, so the id breaks ties; published alternates for a filtered run.
    const forms = Array.from({ length: 420 }, (_, i) => makeForm({ owner_id: user.id, updated_at: at(Math.floor(i / 3)), published: i % 2 === 0 }));
    for (let i = 0; i < forms.length; i += 60) await Promise.all(forms.slice(i, i + 60).map((f) => s.forms.insert(f)));
    const order = (list: typeof forms) =>
      [...list].sort((a, b) => (a.updated_at === b.updated_at ? (a.id < b.id ? -1 : 1) : a.updated_at < b.updated_at ? 1 : -1)).map((f) => f.id);
    for (const [label, expected, published] of [
      ['all', order(forms), undefined],
      ['published', order(forms.filter((f) => f.published)), true],
    ] as const) {
      for (const limit of [50, 7]) {
        for (let offset = 0; offset <= expected.length + limit; offset += limit) {
          const page = await s.forms.list({ ownerId: user.id, teamIds: [], offset, limit, ...(published !== undefined ? { published } : {}) });
          t.is(page.total, expected.length);
          t.deepEqual(page.items.map((f) => f.id), expected.slice(offset, offset + limit), `${label}, ${limit} from ${offset}`);
          // The same page when the caller already knows the total (kept under the cache revision).
          const told = await s.forms.list({ ownerId: user.id, teamIds: [], offset, limit, total: expected.length, ...(published !== undefined ? { published } : {}) });
          t.is(told.total, expected.length);
          t.deepEqual(told.items.map((f) => f.id), expected.slice(offset, offset + limit), `${label}, ${limit} from ${offset}, total given`);
        }
      }
    }
  });

  test('forms.list: a given total is returned as is, not counted again', async (t, db) => {
    const s = db.storage;
    const user = makeUser();
    await s.users.insert(user);
    for (let i = 0; i < 3; i++) await s.forms.insert(makeForm({ owner_id: user.id }));
    const page = await s.forms.list({ ownerId: user.id, teamIds: [], offset: 0, limit: 10, total: 7 });
    t.is(page.total, 7);
    t.is(page.items.length, 3);
    t.is((await s.forms.list({ ownerId: user.id, teamIds: [], offset: 0, limit: 10 })).total, 3);
  });
}
