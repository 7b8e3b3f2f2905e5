import { at, makeApiKey, makeForm, makeMember, makeQuestion, makeTeam, makeUser, type StorageTest, uid } from './fixtures';

/**
 * cacheRevision: changes with every committed change to what instances keep in memory, and not with
 * response counts (docs/decisions.md, "Caches checked against a revision"). Tests run concurrently, so
 * "changes" is checked as "went up" and "stays" is only checked through the counts it reads.
 */
export function cacheRevisionTests(test: StorageTest): void {
  test('cacheRevision: goes up with new forms, form edits, questions, deletions, key revocations, memberships, global webhooks, integrations and plans', async (t, db) => {
    const s = db.storage;
    const rev = async () => (await s.cacheRevision.read([])).revision;
    const user = makeUser();
    await s.users.insert(user);
    const key = makeApiKey(user.id);
    await s.apiKeys.insert(key);
    const form = makeForm({ owner_id: user.id });
    const integration = {
      id: uid('int'), form_id: form.id, type: 'rest-hooks', name: 'Hooks', status: 'active' as const, paused_reason: null, config: {},
      secrets: null, fields: null, created_by: user.id, created_at: at(1), updated_at: at(1),
    };
    const steps: Array<[string, () => Promise<unknown>]> = [
      ['form created', () => s.forms.insert(form)],
      ['form update', () => s.forms.update(form.id, { title: 'Changed' })],
      ['questions replaced', () => s.questions.replaceForForm(form.id, [makeQuestion(0)])],
      ['integration added', () => s.integrations.insert(integration)],
      ['integration paused', () => s.integrations.update(integration.id, { status: 'paused', paused_reason: 'gone' })],
      ['integration removed', () => s.integrations.delete(integration.id)],
      ['key revoked', () => s.apiKeys.revoke(key.id, new Date().toISOString())],
      ['member added', async () => {
        const team = makeTeam({ owner_id: user.id });
        await s.teams.insert(team);
        await s.teams.insertMember(makeMember(team.id, user.id));
      }],
      ['global webhooks replaced', () => s.webhooks.replaceGlobal(user.id, [{ url: 'https://hooks.example.com/a', enabled: true }])],
      ['global webhook disabled', () => s.webhooks.replaceGlobal(user.id, [{ url: 'https://hooks.example.com/a', enabled: false }])],
      ['global webhooks removed', () => s.webhooks.replaceGlobal(user.id, [])],
      ['plan changed', () => s.users.update(user.id, { plan: user.plan === 'pro' ? 'free' : 'pro' })],
      ['form deleted', () => s.forms.delete(form.id)],
    ];
    for (const [what, step] of steps) {
      const before = await rev();
      await step();
      t.true((await rev()) > before, what);
    }
  });

  test('cacheRevision: reads the response counts of the asked forms, current after each submission', async (t, db) => {
    const s = db.storage;
    const user = makeUser();
    await s.users.insert(user);
    const [a, b] = [makeForm({ owner_id: user.id }), makeForm({ owner_id: user.id })];
    await s.forms.insert(a);
    await s.forms.insert(b);
    await s.forms.addResponseCount(a.id, 3);
    await s.transaction(async (tx) => tx.forms.claimResponseSlot(b.id, 10));
    const read = await s.cacheRevision.read([a.id, b.id, 'frm_missing']);
    t.deepEqual([...read.responseCounts.entries()].sort(), [[a.id, 3], [b.id, 1]]);
    t.is((await s.cacheRevision.read([a.id])).responseCounts.get(a.id), 3, 'one form');
    t.true(Number.isInteger(read.revision));
  });
}
