import type { Team } from '../../domain/types';
import {
  at,
  count,
  makeAuditEvent,
  makeBranding,
  makeForm,
  makeInvitation,
  makeMember,
  makeTeam,
  makeUser,
  rejectsWithConflict,
  type StorageHarnessInstance,
  type StorageTest,
  uid,
} from './fixtures';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const fromJsonColumn = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);
const DAY = 86_400;

async function newTeam(db: StorageHarnessInstance, over: Partial<Team> = {}) {
  const team = makeTeam(over);
  await db.storage.teams.insert(team);
  return team;
}

/**
 * The team administration part of teams (update, delete, SSO token, listings, member changes, lock),
 * invitations, branding and the audit log, with probes of the stored invitations, branding and audit events.
 */
export function teamAdminTests(test: StorageTest): void {
  test('teams: insert stores the SSO token beside the team; a taken slug is a CONFLICT', async (t, db) => {
    const teams = db.storage.teams;
    const team = makeTeam();
    await teams.insert(team, { sso_domain_verify_token: 'formloom-verify=abc123' });
    t.deepEqual(await teams.findById(team.id), team, 'the token is no part of the team');
    t.is(await teams.ssoDomainVerifyToken(team.id), 'formloom-verify=abc123');
    const [row] = await db.probes.teamSso({ team_id: team.id });
    t.is(row.sso_domain_verify_token, 'formloom-verify=abc123');

    const plain = await newTeam(db);
    t.is(await teams.ssoDomainVerifyToken(plain.id), null);
    const explicitNull = makeTeam();
    await teams.insert(explicitNull, { sso_domain_verify_token: null });
    t.is(await teams.ssoDomainVerifyToken(explicitNull.id), null);
    t.is(await teams.ssoDomainVerifyToken(uid('team')), null);

    const sameSlug = makeTeam({ slug: team.slug });
    await rejectsWithConflict(t, teams.insert(sameSlug, { sso_domain_verify_token: 'other' }), 'taken slug');
    await rejectsWithConflict(t, teams.insert(makeTeam({ id: team.id }), { sso_domain_verify_token: 'other' }), 'taken id');
    t.is(await teams.findById(sameSlug.id), null);
    t.is(await count(db.probes.teams({ slug: team.slug })), 1);
    t.is(await count(db.probes.teamSso({ team_id: sameSlug.id })), 0);
    t.is(await teams.ssoDomainVerifyToken(team.id), 'formloom-verify=abc123', 'the first team keeps its token');

    const rolledBack = makeTeam();
    await t.throwsAsync(
      db.storage.transaction(async (tx) => {
        await tx.teams.insert(rolledBack, { sso_domain_verify_token: 'gone' });
        throw new Error('roll back');
      }),
    );
    t.is(await teams.findById(rolledBack.id), null);
    t.is(await teams.ssoDomainVerifyToken(rolledBack.id), null);
  });

  test('teams: update applies name, slug and updated_at only; a taken slug is a CONFLICT', async (t, db) => {
    const teams = db.storage.teams;
    const team = makeTeam();
    await teams.insert(team, { sso_domain_verify_token: 'tok' });
    const other = await newTeam(db);

    const renamed = await teams.update(team.id, { name: 'Renamed', updated_at: at(60) });
    t.deepEqual(renamed, { ...team, name: 'Renamed', updated_at: at(60) });
    const [row] = await db.probes.teams({ id: team.id });
    t.deepEqual({ name: row.name, updated_at: row.updated_at }, { name: 'Renamed', updated_at: at(60) });
    t.deepEqual(await teams.update(team.id, {}), renamed, 'an empty patch changes nothing');
    const sneaky = { owner_id: uid('usr'), created_at: at(999) } as unknown as Parameters<typeof teams.update>[1];
    t.deepEqual(await teams.update(team.id, sneaky), renamed, 'other fields are not patched');
    t.is(await teams.update(uid('team'), { name: 'Nobody' }), null);

    const newSlug = `m-${team.id}`;
    t.is((await teams.update(team.id, { slug: newSlug }))?.slug, newSlug);
    await rejectsWithConflict(t, teams.update(team.id, { slug: other.slug }), 'slug of another team');
    t.is((await teams.findById(team.id))?.slug, newSlug);
    t.is(await teams.ssoDomainVerifyToken(team.id), 'tok', 'the token stays');
  });

  test('teams: listForUser gives the user\'s teams with role and member count, by name then id', async (t, db) => {
    const teams = db.storage.teams;
    const user = uid('usr');
    const tag = uid('Name');
    const base = uid('team');
    const b = await newTeam(db, { name: `${tag} B` });
    const a2 = await newTeam(db, { id: `${base}b`, slug: `s-${base}b`, name: `${tag} A` });
    const a1 = await newTeam(db, { id: `${base}a`, slug: `s-${base}a`, name: `${tag} A` });
    const notMine = await newTeam(db, { name: `${tag} 0` });
    await teams.insertMember(makeMember(b.id, user, { role: 'viewer' }));
    await teams.insertMember(makeMember(b.id, uid('usr')));
    await teams.insertMember(makeMember(b.id, uid('usr')));
    await teams.insertMember(makeMember(a2.id, user, { role: 'owner' }));
    await teams.insertMember(makeMember(a1.id, user, { role: 'admin' }));
    await teams.insertMember(makeMember(a1.id, uid('usr')));
    await teams.insertMember(makeMember(notMine.id, uid('usr')));

    t.deepEqual(await teams.listForUser(user), [
      { team: a1, role: 'admin', member_count: 2 },
      { team: a2, role: 'owner', member_count: 1 },
      { team: b, role: 'viewer', member_count: 3 },
    ]);
    t.deepEqual(await teams.listForUser(uid('usr')), []);
  });

  test('teams: members with their profiles by joined_at then id; find, change role, delete within the team', async (t, db) => {
    const teams = db.storage.teams;
    const [team, other] = [await newTeam(db), await newTeam(db)];
    const owner = makeUser({ first_name: 'Ada', last_name: 'Lovelace' });
    const [u2, u3] = [makeUser({ first_name: null }), makeUser({ last_name: 'Hopper' })];
    for (const u of [owner, u2, u3]) await db.storage.users.insert(u);
    const base = uid('mem');
    const mOwner = makeMember(team.id, owner.id, { role: 'owner', joined_at: at(1) });
    const m2 = makeMember(team.id, u2.id, { id: `${base}b`, joined_at: at(5) });
    const m3 = makeMember(team.id, u3.id, { id: `${base}a`, role: 'viewer', joined_at: at(5) });
    const elsewhere = makeMember(other.id, u2.id);
    for (const m of [m2, elsewhere, m3, mOwner]) await teams.insertMember(m);

    const profile = (m: typeof m2, u: typeof owner) => ({ ...m, email: u.email, first_name: u.first_name, last_name: u.last_name });
    t.deepEqual(await teams.listMembers(team.id), [profile(mOwner, owner), profile(m3, u3), profile(m2, u2)]);
    t.deepEqual(await teams.listMembers(uid('team')), []);
    t.is(await teams.memberCount(team.id), 3);
    t.is(await teams.memberCount(uid('team')), 0);

    t.deepEqual(await teams.findMemberById(team.id, m2.id), m2);
    t.is(await teams.findMemberById(other.id, m2.id), null, 'another team\'s id');
    t.is(await teams.findMemberById(team.id, uid('mem')), null);

    t.deepEqual(await teams.updateMemberRole(team.id, m2.id, 'admin'), { ...m2, role: 'admin' });
    t.is(await teams.updateMemberRole(other.id, m2.id, 'viewer'), null, 'not a member of that team');
    t.is(await teams.updateMemberRole(team.id, uid('mem'), 'viewer'), null);
    const [row] = await db.probes.teamMembers({ id: m2.id });
    t.is(row.role, 'admin');

    t.false(await teams.deleteMember(other.id, m2.id));
    t.true(await teams.deleteMember(team.id, m2.id));
    t.false(await teams.deleteMember(team.id, m2.id));
    t.is(await teams.memberCount(team.id), 2);
    t.deepEqual((await teams.listMembers(team.id)).map((m) => m.id), [mOwner.id, m3.id]);
    t.deepEqual(await teams.findMember(other.id, u2.id), elsewhere, 'the membership elsewhere stays');
  });

  test('teams: delete takes memberships, invitations and branding; forms and audit events stay', async (t, db) => {
    const teams = db.storage.teams;
    const [team, other] = [makeTeam(), makeTeam()];
    for (const x of [team, other]) {
      await teams.insert(x, { sso_domain_verify_token: `formloom-verify=${x.id}` });
      await teams.insertMember(makeMember(x.id, x.owner_id, { role: 'owner' }));
      await teams.insertMember(makeMember(x.id, uid('usr')));
      await db.storage.invitations.insert(makeInvitation(x.id));
      await db.storage.invitations.insert(makeInvitation(x.id, 5, { status: 'accepted' }));
      await db.storage.branding.put(x.id, makeBranding());
    }
    const form = makeForm({ owner_id: team.owner_id, team_id: team.id });
    await db.storage.forms.insert(form);
    await db.storage.auditLogs.insert(makeAuditEvent(team.id, 1, { action: 'team.deleted' }));

    t.true(await teams.delete(team.id));
    t.false(await teams.delete(team.id), 'already deleted');
    t.false(await teams.delete(uid('team')));
    t.is(await teams.findById(team.id), null);

    const stored = {
      teams: (teamId: string) => db.probes.teams({ id: teamId }),
      teamMembers: (teamId: string) => db.probes.teamMembers({ team_id: teamId }),
      invitations: (teamId: string) => db.probes.invitations({ team_id: teamId }),
      branding: (teamId: string) => db.probes.branding({ team_id: teamId }),
      teamSso: (teamId: string) => db.probes.teamSso({ team_id: teamId }),
      forms: (teamId: string) => db.probes.forms({ team_id: teamId }),
      auditLogs: (teamId: string) => db.probes.auditLogs({ team_id: teamId }),
    };
    const n = async (what: keyof typeof stored, teamId: string) => count(stored[what](teamId));
    const tables = ['teams', 'teamMembers', 'invitations', 'branding', 'teamSso'] as const;
    for (const table of tables) t.is(await n(table, team.id), 0, `${table} of the deleted team`);
    const kept = await Promise.all(tables.map((table) => n(table, other.id)));
    t.deepEqual(kept, [1, 2, 2, 1, 1], 'the other team keeps everything');
    t.is(await teams.ssoDomainVerifyToken(other.id), `formloom-verify=${other.id}`);
    t.is(await n('forms', team.id), 1, 'the team\'s form stays');
    t.deepEqual(await db.storage.forms.findById(form.id), form);
    t.is(await n('auditLogs', team.id), 1, 'the audit events stay');
    t.is(await db.storage.branding.get(team.id), null);
  });

  test('invitations: insert, find by id within the team and by token hash; a taken id or token is a CONFLICT', async (t, db) => {
    const invitations = db.storage.invitations;
    const [team, other] = [await newTeam(db), await newTeam(db)];
    const inv = makeInvitation(team.id, 0, { role: 'admin', language: 'de' });
    await invitations.insert(inv);
    t.deepEqual(await invitations.findById(team.id, inv.id), inv);
    t.is(await invitations.findById(other.id, inv.id), null, 'another team\'s id');
    t.is(await invitations.findById(team.id, uid('inv')), null);
    t.deepEqual(await invitations.findByTokenHash(inv.token_hash), inv);
    t.is(await invitations.findByTokenHash('0'.repeat(64)), null);

    const [row] = await db.probes.invitations({ id: inv.id });
    t.like(row, {
      team_id: team.id, email: inv.email, role: 'admin', invited_by: inv.invited_by, token_hash: inv.token_hash,
      token_sealed: inv.token_sealed, status: 'pending', language: 'de', expires_at: inv.expires_at, created_at: at(0),
    });

    await rejectsWithConflict(t, invitations.insert(makeInvitation(team.id, 0, { id: inv.id })), 'same id');
    await rejectsWithConflict(t, invitations.insert(makeInvitation(other.id, 0, { token_hash: inv.token_hash })), 'same token');
    t.is(await count(db.probes.invitations({ token_hash: inv.token_hash })), 1);

    t.true(await invitations.settle(inv.id, 'accepted', at(10)));
    t.deepEqual(await invitations.findByTokenHash(inv.token_hash), { ...inv, status: 'accepted', updated_at: at(10) }, 'whatever its state');
  });

  test('invitations: pending ones are listed newest first, counted and found by email only while unexpired', async (t, db) => {
    const invitations = db.storage.invitations;
    const [team, other] = [await newTeam(db), await newTeam(db)];
    const base = uid('inv');
    const p1 = makeInvitation(team.id, 10);
    const pA = makeInvitation(team.id, 20, { id: `${base}a` });
    const pB = makeInvitation(team.id, 20, { id: `${base}b` });
    const expired = makeInvitation(team.id, 0, { expires_at: at(999) });
    const expiresNow = makeInvitation(team.id, 0, { expires_at: at(1000) });
    const accepted = makeInvitation(team.id, 30, { status: 'accepted' });
    const cancelled = makeInvitation(team.id, 40, { status: 'cancelled' });
    const elsewhere = makeInvitation(other.id, 50);
    for (const i of [pA, expired, accepted, p1, expiresNow, cancelled, elsewhere, pB]) await invitations.insert(i);
    const now = at(1000);

    t.deepEqual(await invitations.listPending(team.id, now), [pB, pA, p1]);
    t.is(await invitations.countPending(team.id, now), 3);
    t.is(await invitations.countPending(team.id, at(15 + 7 * DAY)), 2, 'p1 expired, pA and pB not yet');
    t.deepEqual(await invitations.listPending(team.id, at(20 + 7 * DAY)), [], 'expires_at equal to now is expired');
    t.is(await invitations.countPending(team.id, at(20 + 7 * DAY)), 0);
    t.deepEqual(await invitations.listPending(uid('team'), now), []);
    t.is(await invitations.countPending(uid('team'), now), 0);

    t.deepEqual(await invitations.findPendingByEmail(team.id, p1.email, now), p1);
    t.is(await invitations.findPendingByEmail(team.id, p1.email, at(10 + 7 * DAY)), null, 'expired by then');
    for (const gone of [expired, expiresNow, accepted, cancelled]) {
      t.is(await invitations.findPendingByEmail(team.id, gone.email, now), null, gone.status);
    }
    t.is(await invitations.findPendingByEmail(team.id, elsewhere.email, now), null, 'another team\'s invitation');
    t.deepEqual(await invitations.findPendingByEmail(other.id, elsewhere.email, now), elsewhere);
  });

  test('invitations: settle moves a pending invitation once; cancelForEmail cancels the address\'s pending ones', async (t, db) => {
    const invitations = db.storage.invitations;
    const [team, other] = [await newTeam(db), await newTeam(db)];
    const inv = makeInvitation(team.id);
    await invitations.insert(inv);
    t.true(await invitations.settle(inv.id, 'accepted', at(100)));
    t.false(await invitations.settle(inv.id, 'cancelled', at(101)), 'no longer pending');
    t.false(await invitations.settle(inv.id, 'accepted', at(102)));
    t.false(await invitations.settle(uid('inv'), 'accepted', at(100)));
    t.deepEqual(await invitations.findById(team.id, inv.id), { ...inv, status: 'accepted', updated_at: at(100) });
    const [row] = await db.probes.invitations({ id: inv.id });
    t.deepEqual({ status: row.status, updated_at: row.updated_at }, { status: 'accepted', updated_at: at(100) });

    const email = `${uid('someone')}@example.com`;
    const pending = makeInvitation(team.id, 0, { email });
    const pendingExpired = makeInvitation(team.id, 0, { email, expires_at: at(1) });
    const done = makeInvitation(team.id, 0, { email, status: 'accepted' });
    const otherTeam = makeInvitation(other.id, 0, { email });
    const otherEmail = makeInvitation(team.id, 0);
    for (const i of [pending, pendingExpired, done, otherTeam, otherEmail]) await invitations.insert(i);
    t.is(await invitations.cancelForEmail(team.id, email, at(200)), 2, 'expired pending ones too');
    t.is(await invitations.cancelForEmail(team.id, email, at(300)), 0);
    const status = async (id: string, teamId = team.id) => (await invitations.findById(teamId, id))?.status;
    t.deepEqual(await invitations.findById(team.id, pending.id), { ...pending, status: 'cancelled', updated_at: at(200) });
    t.is(await status(pendingExpired.id), 'cancelled');
    t.is(await status(done.id), 'accepted');
    t.is(await status(otherTeam.id, other.id), 'pending');
    t.is(await status(otherEmail.id), 'pending');
  });

  test('concurrency: 10 settles of one invitation at once, exactly one wins', async (t, db) => {
    const team = await newTeam(db);
    const inv = makeInvitation(team.id);
    await db.storage.invitations.insert(inv);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        i % 2 === 0
          ? db.storage.invitations.settle(inv.id, 'accepted', at(i))
          : db.storage.transaction((tx) => tx.invitations.settle(inv.id, 'accepted', at(i))),
      ),
    );
    t.is(results.filter(Boolean).length, 1);
    const [row] = await db.probes.invitations({ id: inv.id });
    t.is(row.status, 'accepted');
  });

  test('concurrency: lock makes a count-then-insert atomic, 10 transactions hold exactly 3 seats', async (t, db) => {
    const team = await newTeam(db);
    await t.notThrowsAsync(db.storage.teams.lock(team.id), 'outside a transaction it is harmless');
    await t.notThrowsAsync(db.storage.teams.lock(uid('team')), 'so is an unknown team');
    const now = at(0);
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        db.storage.transaction(async (tx) => {
          await tx.teams.lock(team.id);
          const pending = await tx.invitations.countPending(team.id, now);
          await sleep(5); // a check without the lock loses the race in this window
          if (pending >= 3) return false;
          await tx.invitations.insert(makeInvitation(team.id, 1));
          return true;
        }),
      ),
    );
    t.is(results.filter(Boolean).length, 3);
    t.is(await count(db.probes.invitations({ team_id: team.id })), 3);
  });

  test('branding: get, put replaces the whole branding, delete', async (t, db) => {
    const branding = db.storage.branding;
    const [team, other] = [await newTeam(db), await newTeam(db)];
    t.is(await branding.get(team.id), null);
    const first = makeBranding();
    await branding.put(team.id, first);
    await branding.put(other.id, makeBranding({ primary_color: '#abcdef' }));
    t.deepEqual(await branding.get(team.id), first);
    const [row] = await db.probes.branding({ team_id: team.id });
    t.like(row, { logo_url: first.logo_url, primary_color: '#112233', text_color: null, footer_text: 'Made with care' });

    const second = makeBranding({ logo_url: null, primary_color: '#000000', text_color: '#333333', footer_text: null });
    await branding.put(team.id, second);
    t.deepEqual(await branding.get(team.id), second, 'nulls overwrite too');
    t.is(await count(db.probes.branding({ team_id: team.id })), 1);

    t.true(await branding.delete(team.id));
    t.false(await branding.delete(team.id));
    t.is(await branding.get(team.id), null);
    t.is((await branding.get(other.id))?.primary_color, '#abcdef', 'another team keeps its branding');
  });

  test('concurrency: 10 puts of one team\'s branding at once all succeed, one row stays', async (t, db) => {
    const team = await newTeam(db);
    const colors = Array.from({ length: 10 }, (_, i) => `#00000${i}`);
    await Promise.all(
      colors.map((primary_color, i) =>
        i % 2 === 0
          ? db.storage.branding.put(team.id, makeBranding({ primary_color }))
          : db.storage.transaction((tx) => tx.branding.put(team.id, makeBranding({ primary_color }))),
      ),
    );
    t.true(colors.includes((await db.storage.branding.get(team.id))?.primary_color ?? ''));
    t.is(await count(db.probes.branding({ team_id: team.id })), 1);
  });

  test('auditLogs: list newest first (ties by id), filters, inclusive window, pages with the total', async (t, db) => {
    const audit = db.storage.auditLogs;
    const team = uid('team'); // no team row: events do not depend on one
    const [u1, u2] = [uid('usr'), uid('usr')];
    const base = uid('aud');
    const e1 = makeAuditEvent(team, 10, { action: 'team.created', user_id: u1, user_email: 'a@example.com', details: { name: 'X', nested: { list: [1, 'two', null] } } });
    const e2 = makeAuditEvent(team, 20, { action: 'member.invited', user_id: u1 });
    const e3a = makeAuditEvent(team, 30, { id: `${base}a`, action: 'member.invited', user_id: u2 });
    const e3b = makeAuditEvent(team, 30, { id: `${base}b`, action: 'member.invited', user_id: u2 });
    const e4 = makeAuditEvent(team, 40, { action: 'team.renamed', user_id: u2 });
    const e5 = makeAuditEvent(team, 50, { action: 'team.deleted', user_id: null, user_email: null, ip_address: null, details: {} });
    const elsewhere = makeAuditEvent(uid('team'), 35, { user_id: u1 });
    for (const e of [e3a, e1, e5, elsewhere, e2, e4, e3b]) await audit.insert(e);
    await rejectsWithConflict(t, audit.insert(makeAuditEvent(team, 60, { id: e1.id })), 'same id');

    const list = (q: Partial<Parameters<typeof audit.list>[0]> = {}) => audit.list({ teamId: team, offset: 0, limit: 50, ...q });
    t.deepEqual(await list(), { items: [e5, e4, e3b, e3a, e2, e1], total: 6 });
    t.deepEqual(await list({ action: 'member.invited' }), { items: [e3b, e3a, e2], total: 3 });
    t.deepEqual(await list({ userId: u2 }), { items: [e4, e3b, e3a], total: 3 });
    t.deepEqual(await list({ since: at(20), until: at(30) }), { items: [e3b, e3a, e2], total: 3 }, 'both bounds inclusive');
    t.deepEqual(await list({ since: at(45) }), { items: [e5], total: 1 });
    t.deepEqual(await list({ until: at(10) }), { items: [e1], total: 1 });
    t.deepEqual(await list({ action: 'member.invited', userId: u1, since: at(15) }), { items: [e2], total: 1 });
    t.deepEqual(await list({ offset: 1, limit: 2 }), { items: [e4, e3b], total: 6 });
    t.deepEqual(await list({ offset: 6, limit: 2 }), { items: [], total: 6 });
    t.deepEqual(await list({ limit: 0 }), { items: [], total: 6 });
    t.deepEqual(await list({ teamId: uid('team') }), { items: [], total: 0 });

    const [row] = await db.probes.auditLogs({ id: e1.id });
    t.like(row, { team_id: team, action: 'team.created', user_id: u1, user_email: 'a@example.com', ip_address: e1.ip_address, timestamp: at(10) });
    t.deepEqual(fromJsonColumn(row.details), e1.details);
  });
}
