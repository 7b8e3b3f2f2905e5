import type { TestFn } from 'ava';
import { createFormloom, type Logger } from '@formloom/core';
import { makeOutboxItem } from '@formloom/core/testing';
import { describeDatabase, openMigratedStorage, runCli } from '../src';
import { scratchDatabase, type DatabaseKind } from './databases';

/*
 * Stuck deliveries (docs/cli.md "Stuck deliveries", docs/operations.md "Outbox"): a mail with no mailer
 * configured is logged at warn by the worker, listed by `formloom outbox list`, and retried or dropped by
 * the operator (a failing webhook receiver goes the same way: the worker's line is the same for every kind).
 */
export function outboxSuite(test: TestFn, kind: DatabaseKind): void {
  test(`outbox: what cannot go out is logged at warn, then listed, retried and dropped with the CLI`, async (t) => {
    const db = await scratchDatabase(kind);
    t.teardown(() => db.drop());
    const cli = async (...argv: string[]) => {
      const r = await runCli(['outbox', ...argv], { FORMLOOM_DATABASE_URL: db.url });
      if (r.code === 0) t.is(r.stderr, `formloom: database ${describeDatabase(db.url)}\n`);
      return { ...r, json: r.code === 0 ? (JSON.parse(r.stdout) as Record<string, any>) : null };
    };

    // An instance with no mailer: its worker tries the due mail once.
    const warnings: Array<[string, Record<string, unknown> | undefined]> = [];
    const logger: Logger = { info: () => {}, error: () => {}, warn: (m, d) => void warnings.push([m, d]) };
    const storage = await openMigratedStorage(db.url);
    const formloom = createFormloom({ storage, logger });
    const mail = makeOutboxItem('mail', { payload: { to: 'ops@example.com', subject: 'Secret link', text: 'token-123' }, next_attempt_at: new Date(Date.now() - 1000).toISOString() });
    const later = makeOutboxItem('uploads_cleanup', { next_attempt_at: new Date(Date.now() + 3_600_000).toISOString() });
    await storage.outbox.enqueue(mail);
    await storage.outbox.enqueue(later);
    await formloom.worker.runOnce();
    await storage.close();

    const [line, details] = warnings.find(([, d]) => d?.id === mail.id) ?? [];
    t.regex(line ?? '', /^formloom outbox: mail obx_\S+ not sent \(attempt 1\); next try at /);
    t.like(details, { kind: 'mail', id: mail.id, attempt: 1 });
    t.true(Date.parse(String(details?.next_attempt_at)) > Date.now(), 'the next retry, in the future');
    t.regex(String(details?.error), /No mailer is configured/);
    t.false(JSON.stringify(warnings).includes('token-123'), 'never the payload');

    const listed = await cli('list');
    t.is(listed.code, 0, listed.stderr);
    t.deepEqual(listed.json!.items.map((i: { id: string }) => i.id), [mail.id], 'only what failed: not the item never tried');
    t.like(listed.json!.items[0], { kind: 'mail', status: 'pending', attempts: 1 });
    t.regex(listed.json!.items[0].last_error, /No mailer is configured/);
    t.false(listed.stdout.includes('token-123'), 'never the payload');
    t.deepEqual((await cli('list', '--kind', 'webhook')).json, { items: [] });

    const before = Date.now();
    const retried = await cli('retry', '--id', mail.id);
    t.deepEqual(retried.json, { requeued: [mail.id] });
    const [row] = await db.query<{ next_attempt_at: string; status: string }>('SELECT status, next_attempt_at FROM outbox WHERE id = $1', [mail.id]);
    t.is(row!.status, 'pending');
    t.true(Date.parse(row!.next_attempt_at) <= Date.now() && Date.parse(row!.next_attempt_at) >= before - 1000, 'due now');
    t.deepEqual((await cli('retry', '--all', '--kind', 'mail')).json, { requeued: [mail.id] });

    const unknown = await cli('retry', '--id', 'obx_nope');
    t.is(unknown.code, 1);
    t.regex(unknown.stderr, /obx_nope: unknown, already delivered, or being sent/);
    t.is((await cli('retry')).code, 2, 'either --id or --all');
    t.is((await cli('retry', '--id', mail.id, '--all')).code, 2);
    t.is((await cli('list', '--limit', '0')).code, 2);
    t.is((await cli('drop')).code, 2);

    t.deepEqual((await cli('drop', '--id', mail.id)).json, { dropped: mail.id });
    t.deepEqual(await db.query('SELECT id FROM outbox WHERE id = $1', [mail.id]), []);
    t.is((await cli('drop', '--id', mail.id)).code, 1, 'already gone');
    t.deepEqual((await cli('list')).json, { items: [] });
    t.is((await db.query('SELECT id FROM outbox WHERE id = $1', [later.id])).length, 1, 'other items untouched');
  });
}
