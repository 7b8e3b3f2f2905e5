import type { ExecutionContext, TestFn } from 'ava';
import { AccountProfileService, createFormloom } from '@formloom/core';
import { describeDatabase, openMigratedStorage, runCli } from '../src';
import { scratchDatabase, type DatabaseKind, type ScratchDatabase } from './databases';

/**
 * The instance's admin from the command line (docs/cli.md, docs/accounts.md): the first account of an empty
 * instance is its admin whichever way it is made, and `user admin` grants and revokes the role. Each test has
 * a database of its own: "the first account" is about an empty one.
 */
export function adminSuite(test: TestFn, kind: DatabaseKind): void {
  async function fresh(t: ExecutionContext) {
    const db = await scratchDatabase(kind);
    t.teardown(() => db.drop());
    return db;
  }

  async function run(db: ScratchDatabase, argv: string[]) {
    const r = await runCli(argv, { FORMLOOM_DATABASE_URL: db.url });
    if (r.code !== 0) throw new Error(`formloom ${argv.join(' ')} failed (${r.code}): ${r.stderr}`);
    if (r.stderr !== `formloom: database ${describeDatabase(db.url)}\n`) throw new Error(`unexpected stderr: ${r.stderr}`);
    const lines = r.stdout.split('\n');
    if (lines.length !== 2 || lines[1] !== '') throw new Error(`expected one JSON line, got ${JSON.stringify(r.stdout)}`);
    return JSON.parse(lines[0]!) as Record<string, unknown>;
  }

  const admins = async (db: ScratchDatabase) =>
    ((await run(db, ['user', 'list'])).users as Array<{ email: string; is_admin: boolean }>).filter((u) => u.is_admin).map((u) => u.email);

  /** What `GET /api/v1/account` says of the user (`is_admin`), read through the account service the API uses. */
  async function accountSays(db: ScratchDatabase, userId: string): Promise<boolean> {
    const storage = await openMigratedStorage(db.url);
    try {
      const account = await createFormloom({ storage }).service(AccountProfileService).get({ user_id: userId, key_id: null, scope: 'forms' });
      return account.is_admin;
    } finally {
      await storage.close();
    }
  }

  test('the first account made with the CLI on an empty instance is its admin; later ones are not', async (t) => {
    const db = await fresh(t);
    const ada = await run(db, ['user', 'create', '--email', 'ada@example.com']);
    const bob = await run(db, ['user', 'create', '--email', 'bob@example.com']);
    t.deepEqual(await admins(db), ['ada@example.com']);
    t.true(await accountSays(db, String(ada.user_id)), 'GET /account says is_admin: true');
    t.false(await accountSays(db, String(bob.user_id)));
  });

  test('user admin grants the role (it passes from whoever held it) and --revoke takes it back', async (t) => {
    const db = await fresh(t);
    const ada = await run(db, ['user', 'create', '--email', 'ada@example.com']);
    const bob = await run(db, ['user', 'create', '--email', 'bob@example.com']);
    t.deepEqual(await run(db, ['user', 'admin', '--email', 'BOB@example.com']), { user_id: bob.user_id, email: 'bob@example.com', is_admin: true });
    t.deepEqual(await admins(db), ['bob@example.com'], 'one admin: the role passed from ada');
    t.true(await accountSays(db, String(bob.user_id)));
    t.deepEqual(await run(db, ['user', 'admin', '--email', 'bob@example.com']), { user_id: bob.user_id, email: 'bob@example.com', is_admin: true }, 'granting twice is the same');
    t.deepEqual(await run(db, ['user', 'admin', '--email', 'ada@example.com', '--revoke']), { user_id: ada.user_id, email: 'ada@example.com', is_admin: false }, 'revoking a non-admin changes nothing');
    t.deepEqual(await admins(db), ['bob@example.com']);
    t.deepEqual(await run(db, ['user', 'admin', '--email', String(bob.user_id), '--revoke']), { user_id: bob.user_id, email: 'bob@example.com', is_admin: false }, 'by user id too');
    t.deepEqual(await admins(db), []);
    t.false(await accountSays(db, String(bob.user_id)));
    t.deepEqual(await run(db, ['user', 'admin', '--email', 'ada@example.com']), { user_id: ada.user_id, email: 'ada@example.com', is_admin: true });
    t.deepEqual(await admins(db), ['ada@example.com']);
  });

  test('user admin refuses an unknown user and a missing --email, printing one error line', async (t) => {
    const db = await fresh(t);
    await run(db, ['user', 'create', '--email', 'ada@example.com']);
    const unknown = await runCli(['user', 'admin', '--email', 'ghost@example.com'], { FORMLOOM_DATABASE_URL: db.url });
    t.is(unknown.code, 1);
    t.is(unknown.stdout, '');
    t.regex(unknown.stderr, /\nformloom: User not found\n$/);
    const missing = await runCli(['user', 'admin', '--revoke'], { FORMLOOM_DATABASE_URL: db.url });
    t.is(missing.code, 2);
    t.regex(missing.stderr, /--email/);
    t.deepEqual(await admins(db), ['ada@example.com']);
  });

  test('of concurrent first accounts on an empty instance exactly one becomes admin', async (t) => {
    const db = await fresh(t);
    const storage = await openMigratedStorage(db.url);
    try {
      const accounts = createFormloom({ storage }).accounts;
      const made = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => accounts.createUser({ email: `racer${i}@example.com` })));
      const users = made.filter((m) => m.status === 'fulfilled').map((m) => (m as PromiseFulfilledResult<{ id: string }>).value.id);
      t.true(users.length >= 1);
      const admin = await accounts.adminId();
      t.truthy(admin);
      t.true(users.includes(admin!));
    } finally {
      await storage.close();
    }
  });
}
