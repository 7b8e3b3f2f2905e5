import { randomBytes } from 'node:crypto';
import type { OneTimeToken, PasskeyRecord, SignInSession } from '../../domain/sign-in';
import { at, makeAuditEvent, makeInvitation, makeTeam, makeUser, rejectsWithConflict, type StorageTest, uid } from './fixtures';

const hash = () => randomBytes(32).toString('hex');

const makeSession = (userId: string, seconds = 0, over: Partial<SignInSession> = {}): SignInSession => ({
  id: uid('ses'),
  user_id: userId,
  token_hash: hash(),
  created_at: at(seconds),
  last_seen_at: at(seconds),
  expires_at: at(seconds + 14 * 86_400),
  user_agent: 'Test/1.0',
  ip_address: '127.0.0.1',
  ...over,
});

const makeToken = (over: Partial<OneTimeToken> = {}): OneTimeToken => ({
  id: uid('ott'),
  token_hash: hash(),
  purpose: 'signin_link',
  user_id: uid('usr'),
  data: 'someone@example.com',
  created_at: at(0),
  expires_at: at(900),
  used_at: null,
  ...over,
});

const makePasskey = (userId: string, over: Partial<PasskeyRecord> = {}): PasskeyRecord => ({
  id: uid('pk'),
  user_id: userId,
  credential_id: randomBytes(16).toString('base64url'),
  public_key: randomBytes(77).toString('base64url'),
  counter: 0,
  transports: ['internal', 'hybrid'],
  name: 'Laptop',
  created_at: at(0),
  last_used_at: null,
  ...over,
});

/** credentials, signInSessions, oneTimeTokens, passkeys (docs/accounts.md), with their concurrency guarantees. */
export function signInTests(test: StorageTest): void {
  test('credentials: a password is set, replaced and read back; none is null', async (t, db) => {
    const userId = uid('usr');
    t.is(await db.storage.credentials.findPassword(userId), null);
    await db.storage.credentials.setPassword({ user_id: userId, password_hash: 'scrypt$aa$bb', updated_at: at(0) });
    await db.storage.credentials.setPassword({ user_id: userId, password_hash: 'scrypt$cc$dd', updated_at: at(5) });
    t.deepEqual(await db.storage.credentials.findPassword(userId), { user_id: userId, password_hash: 'scrypt$cc$dd', updated_at: at(5) });
    t.true(await db.storage.credentials.deletePassword(userId));
    t.is(await db.storage.credentials.findPassword(userId), null);
    t.false(await db.storage.credentials.deletePassword(userId), 'none left');
  });

  test('credentials: of concurrent admin claims exactly one wins, and the slot stays its', async (t, db) => {
    const users = Array.from({ length: 6 }, () => uid('usr'));
    const before = await db.storage.credentials.adminId();
    const won = await Promise.all(users.map((u) => db.storage.credentials.claimAdmin(u, at(0))));
    // Another test file may share the database: the slot may be taken already, then nobody wins.
    t.is(won.filter(Boolean).length, before ? 0 : 1);
    const admin = await db.storage.credentials.adminId();
    t.is(admin, before ?? users[won.indexOf(true)]);
    t.false(await db.storage.credentials.claimAdmin(uid('usr'), at(1)));
    t.is(await db.storage.credentials.adminId(), admin);
    // The operator passes the slot on and takes it back; a revoke of someone who does not hold it changes nothing.
    const next = uid('usr');
    await db.storage.credentials.grantAdmin(next, at(2));
    t.is(await db.storage.credentials.adminId(), next);
    t.false(await db.storage.credentials.revokeAdmin(admin!));
    t.is(await db.storage.credentials.adminId(), next);
    t.true(await db.storage.credentials.revokeAdmin(next));
    t.is(await db.storage.credentials.adminId(), null);
    t.true(await db.storage.credentials.claimAdmin(admin!, at(3)), 'a free slot can be claimed again');
    t.is(await db.storage.credentials.adminId(), admin);
  });

  test('signInSessions: insert, find by token hash, touch, list live ones newest first, delete one or all', async (t, db) => {
    const userId = uid('usr');
    const a = makeSession(userId, 0);
    const b = makeSession(userId, 10);
    const dead = makeSession(userId, 20, { expires_at: at(30) });
    for (const s of [a, b, dead]) await db.storage.signInSessions.insert(s);
    await rejectsWithConflict(t, db.storage.signInSessions.insert(makeSession(userId, 0, { token_hash: a.token_hash })), 'same token hash');
    t.deepEqual(await db.storage.signInSessions.findByTokenHash(a.token_hash), a);
    t.is(await db.storage.signInSessions.findByTokenHash(hash()), null);
    t.true(await db.storage.signInSessions.touch(a.id, at(100), at(100 + 14 * 86_400)));
    t.like(await db.storage.signInSessions.findByTokenHash(a.token_hash), { last_seen_at: at(100), expires_at: at(100 + 14 * 86_400) });
    t.false(await db.storage.signInSessions.touch(uid('ses'), at(1), at(2)));
    t.deepEqual((await db.storage.signInSessions.listByUser(userId, at(40))).map((s) => s.id), [b.id, a.id], 'the expired one is not listed');
    t.false(await db.storage.signInSessions.delete(uid('usr'), a.id), "another user's id deletes nothing");
    t.true(await db.storage.signInSessions.delete(userId, a.id));
    t.is(await db.storage.signInSessions.findByTokenHash(a.token_hash), null);
    const c = makeSession(userId, 50);
    await db.storage.signInSessions.insert(c);
    t.is(await db.storage.signInSessions.deleteForUser(userId, c.id), 2, 'all but the spared one');
    t.deepEqual((await db.storage.signInSessions.listByUser(userId, at(60))).map((s) => s.id), [c.id]);
    t.is(await db.storage.signInSessions.deleteForUser(userId, null), 1);
  });

  test('signInSessions: prune deletes what expired', async (t, db) => {
    const userId = uid('usr');
    const old = makeSession(userId, 0, { expires_at: at(-1_000_000) });
    const live = makeSession(userId, 0);
    await db.storage.signInSessions.insert(old);
    await db.storage.signInSessions.insert(live);
    t.true((await db.storage.signInSessions.prune(at(-999_000))) >= 1);
    t.is(await db.storage.signInSessions.findByTokenHash(old.token_hash), null);
    t.truthy(await db.storage.signInSessions.findByTokenHash(live.token_hash));
  });

  test('oneTimeTokens: consumed once, only for its purpose and before it expires', async (t, db) => {
    const token = makeToken();
    await db.storage.oneTimeTokens.insert(token);
    await rejectsWithConflict(t, db.storage.oneTimeTokens.insert(makeToken({ token_hash: token.token_hash })), 'same hash');
    t.is(await db.storage.oneTimeTokens.consume(token.token_hash, 'password_reset', at(1)), null, 'another purpose');
    t.is(await db.storage.oneTimeTokens.consume(token.token_hash, 'signin_link', at(900)), null, 'expired at now');
    t.deepEqual(await db.storage.oneTimeTokens.consume(token.token_hash, 'signin_link', at(1)), { ...token, used_at: at(1) });
    t.is(await db.storage.oneTimeTokens.consume(token.token_hash, 'signin_link', at(2)), null, 'used');
  });

  test('oneTimeTokens: of concurrent consumers of one token exactly one gets it', async (t, db) => {
    const token = makeToken({ purpose: 'password_reset' });
    await db.storage.oneTimeTokens.insert(token);
    const got = await Promise.all(Array.from({ length: 12 }, () => db.storage.oneTimeTokens.consume(token.token_hash, 'password_reset', at(10))));
    t.is(got.filter(Boolean).length, 1);
  });

  test("oneTimeTokens: revokeForUser ends the user's unused tokens of one purpose; prune deletes expired ones", async (t, db) => {
    const userId = uid('usr');
    const a = makeToken({ user_id: userId, purpose: 'password_reset' });
    const b = makeToken({ user_id: userId, purpose: 'password_reset' });
    const other = makeToken({ user_id: userId, purpose: 'email_verification' });
    for (const x of [a, b, other]) await db.storage.oneTimeTokens.insert(x);
    t.is(await db.storage.oneTimeTokens.revokeForUser(userId, 'password_reset', at(5)), 2);
    t.is(await db.storage.oneTimeTokens.consume(a.token_hash, 'password_reset', at(6)), null);
    t.truthy(await db.storage.oneTimeTokens.consume(other.token_hash, 'email_verification', at(6)));
    const old = makeToken({ expires_at: at(-2_000_000), created_at: at(-2_000_100) });
    await db.storage.oneTimeTokens.insert(old);
    t.true((await db.storage.oneTimeTokens.prune(at(-1_999_000))) >= 1);
    await t.notThrowsAsync(db.storage.oneTimeTokens.insert(makeToken({ id: uid('ott'), token_hash: old.token_hash })), 'its hash is free again');
  });

  test('passkeys: insert, find by credential id, list, record uses only while the counter grows, delete', async (t, db) => {
    const userId = uid('usr');
    const p = makePasskey(userId, { counter: 3 });
    const q = makePasskey(userId, { created_at: at(10) });
    await db.storage.passkeys.insert(p);
    await db.storage.passkeys.insert(q);
    await rejectsWithConflict(t, db.storage.passkeys.insert(makePasskey(uid('usr'), { credential_id: p.credential_id })), 'same credential');
    t.deepEqual(await db.storage.passkeys.findByCredentialId(p.credential_id), p);
    t.deepEqual((await db.storage.passkeys.listByUser(userId)).map((x) => x.id), [p.id, q.id]);
    t.false(await db.storage.passkeys.recordUse(p.id, 3, at(20)), 'the counter did not grow');
    t.true(await db.storage.passkeys.recordUse(p.id, 4, at(20)));
    t.like(await db.storage.passkeys.findByCredentialId(p.credential_id), { counter: 4, last_used_at: at(20) });
    t.true(await db.storage.passkeys.recordUse(q.id, 0, at(21)), 'authenticators without a counter stay at 0');
    const raced = await Promise.all(Array.from({ length: 5 }, () => db.storage.passkeys.recordUse(p.id, 5, at(22))));
    t.is(raced.filter(Boolean).length, 1, 'one assertion is used once');
    t.false(await db.storage.passkeys.delete(uid('usr'), p.id));
    t.true(await db.storage.passkeys.delete(userId, p.id));
    t.is(await db.storage.passkeys.findByCredentialId(p.credential_id), null);
    const other = makePasskey(uid('usr'));
    await db.storage.passkeys.insert(other);
    await db.storage.passkeys.insert(makePasskey(userId));
    t.is(await db.storage.passkeys.deleteForUser(userId), 2, 'every passkey of the user');
    t.deepEqual(await db.storage.passkeys.listByUser(userId), []);
    t.deepEqual((await db.storage.passkeys.listByUser(other.user_id)).map((x) => x.id), [other.id], "another user's stays");
  });

  test('users.deleteAccount: rows naming the address go too (invitations, tokens without a user); audit entries keep the id, not the address', async (t, db) => {
    const user = makeUser();
    const other = makeUser();
    for (const u of [user, other]) await db.storage.users.insert(u);
    const team = makeTeam({ owner_id: other.id });
    await db.storage.teams.insert(team);
    const invited = makeInvitation(team.id, 0, { email: user.email.toUpperCase() });
    const kept = makeInvitation(team.id, 0, { email: other.email });
    for (const i of [invited, kept]) await db.storage.invitations.insert(i);
    // A finished sign-up's token has no user and holds the address (and the password's hash) as JSON; a link's, the address.
    const signup = makeToken({ purpose: 'signup', user_id: null, data: JSON.stringify({ email: user.email, password_hash: 'scrypt$x$y' }) });
    const link = makeToken({ user_id: null, data: user.email });
    const others = makeToken({ purpose: 'signup', user_id: null, data: JSON.stringify({ email: other.email }) });
    for (const tk of [signup, link, others]) await db.storage.oneTimeTokens.insert(tk);
    const entry = makeAuditEvent(team.id, 1, { user_id: user.id, user_email: user.email });
    const theirs = makeAuditEvent(team.id, 2, { user_id: other.id, user_email: other.email });
    for (const e of [entry, theirs]) await db.storage.auditLogs.insert(e);

    t.like(await db.storage.users.deleteAccount(user.id), { deleted: true });
    t.deepEqual(await db.probes.users({ id: user.id }), []);
    t.deepEqual((await db.probes.invitations({ team_id: team.id })).map((i) => i.id), [kept.id]);
    t.is(await db.storage.oneTimeTokens.consume(signup.token_hash, 'signup', at(1)), null);
    t.is(await db.storage.oneTimeTokens.consume(link.token_hash, 'signin_link', at(1)), null);
    t.truthy(await db.storage.oneTimeTokens.consume(others.token_hash, 'signup', at(1)), "another person's stays");
    const audit = await db.probes.auditLogs({ team_id: team.id });
    t.like(audit.find((e) => e.id === entry.id), { user_id: user.id, user_email: null });
    t.like(audit.find((e) => e.id === theirs.id), { user_id: other.id, user_email: other.email });
  });

  test('invitations: hasPendingForEmail sees unexpired pending invitations of any team, in any case', async (t, db) => {
    const team = makeTeam();
    await db.storage.teams.insert(team);
    const inv = makeInvitation(team.id, 0);
    await db.storage.invitations.insert(inv);
    t.true(await db.storage.invitations.hasPendingForEmail(inv.email.toUpperCase(), at(1)));
    t.false(await db.storage.invitations.hasPendingForEmail(inv.email, at(8 * 86_400)), 'expired');
    t.false(await db.storage.invitations.hasPendingForEmail(`${uid('nobody')}@example.com`, at(1)));
    await db.storage.invitations.settle(inv.id, 'accepted', at(2));
    t.false(await db.storage.invitations.hasPendingForEmail(inv.email, at(3)), 'accepted');
  });
}
