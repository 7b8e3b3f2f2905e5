import test from 'ava';
import { at, makeUser, uid } from '@formloom/core/testing';
import { formloomMigrations, runMigrations } from '../../src';
import { FormloomApiKeyMakers1741000000000 } from '../../src/migrations/1741000000000-api-key-makers';
import { createTestDatabase, type TestDatabaseKind } from '../../src/testing';

/*
 * Migration 1741000000000 (docs/security.md "An address claimed before its owner"): keys stored before it get
 * their maker from what could have made them. An unverified account without a password or a passkey never
 * had a session of its own, so its keys are the operator's; every other key counts as the owner's.
 */
/** Later migrations are undone too, so the database is as it was before this one; runMigrations then runs it and those. */
const since = formloomMigrations.slice(formloomMigrations.indexOf(FormloomApiKeyMakers1741000000000));
const namesSince = since.map((M) => new M().name);
async function undoSince(ds: { undoLastMigration(): Promise<void> }) {
  for (let i = 0; i < since.length; i++) await ds.undoLastMigration();
}

for (const kind of ['sqlite', 'postgres'] as TestDatabaseKind[]) {
  test(`${kind}: the API key makers migration tells the operator's keys from the owner's, and reverts`, async (t) => {
    const db = await createTestDatabase(kind);
    t.teardown(() => db.close());
    const p = db.placeholder;
    await undoSince(db.dataSource);
    const cliMade = makeUser();
    const withPassword = makeUser();
    const withPasskey = makeUser();
    const verified = makeUser({ email_verified: true });
    for (const u of [cliMade, withPassword, withPasskey, verified]) await db.storage.users.insert(u);
    await db.storage.credentials.setPassword({ user_id: withPassword.id, password_hash: 'scrypt$aa$bb', updated_at: at(0) });
    await db.storage.passkeys.insert({
      id: uid('pk'),
      user_id: withPasskey.id,
      credential_id: uid('cred'),
      public_key: 'pk',
      counter: 0,
      transports: [],
      name: 'Laptop',
      created_at: at(0),
      last_used_at: null,
    });
    const keyOf = new Map<string, string>();
    for (const u of [cliMade, withPassword, withPasskey, verified]) {
      const id = uid('key');
      keyOf.set(u.id, id);
      // The columns the table had before the migration: the storage's insert already names made_by.
      await db.raw(`INSERT INTO api_keys (id, user_id, secret_hash, scope, created_at) VALUES (${p(1)}, ${p(2)}, ${p(3)}, 'forms', ${p(4)})`, [id, u.id, 'ab'.repeat(32), at(0)]);
    }
    t.deepEqual(await runMigrations(db.dataSource), namesSince);
    const makerOf = async (userId: string) => (await db.storage.apiKeys.findById(keyOf.get(userId)!))!.made_by;
    t.is(await makerOf(cliMade.id), 'operator', 'unverified, never had a password or passkey: made by the operator');
    t.is(await makerOf(withPassword.id), 'owner');
    t.is(await makerOf(withPasskey.id), 'owner');
    t.is(await makerOf(verified.id), 'owner', 'a verified account is never asked; the default stands');

    await undoSince(db.dataSource);
    const columns =
      kind === 'sqlite'
        ? (await db.raw(`PRAGMA table_info(api_keys)`)).map((c: { name: string }) => c.name)
        : (await db.raw(`SELECT column_name AS name FROM information_schema.columns WHERE table_name = 'api_keys' AND table_schema = ${p(1)}`, [db.schema])).map((c: { name: string }) => c.name);
    t.false(columns.includes('made_by'));
    t.deepEqual(await runMigrations(db.dataSource), namesSince);
  });
}
