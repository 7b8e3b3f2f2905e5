import { AsyncLocalStorage } from 'node:async_hooks';
import type { Storage } from '@formloom/core';
import type { DataSource } from 'typeorm';
import { SqlApiKeyRepository, SqlUserRepository } from './repositories/accounts';
import { SqlAuditLogRepository } from './repositories/audit-logs';
import { SqlBrandingRepository } from './repositories/branding';
import { SqlCreditRepository } from './repositories/credits';
import { SqlQuestionRepository, SqlVersionRepository } from './repositories/form-content';
import { SqlFormRepository } from './repositories/forms';
import { SqlIdempotencyRepository } from './repositories/idempotency';
import { SqlInvitationRepository } from './repositories/invitations';
import { SqlOutboxRepository } from './repositories/outbox';
import { SqlRateLimitRepository } from './repositories/rate-limits';
import { SqlUploadRepository } from './repositories/uploads';
import { SqlVoiceGenerationRepository } from './repositories/voice';
import { SqlResponseRepository } from './repositories/responses';
import { type IndexerOptions, ResponseIndexer } from './repositories/background-indexer';
import { SqlTeamRepository } from './repositories/teams';
import { SqlSigningRepository } from './repositories/signing';
import { SqlCredentialRepository, SqlOneTimeTokenRepository, SqlPasskeyRepository, SqlSignInSessionRepository } from './repositories/sign-in';
import { SqlCacheRevisionRepository } from './repositories/cache-revision';
import { SqlPaymentRepository } from './repositories/payments';
import { SqlBookingRepository } from './repositories/bookings';
import { SqlBookingCallRepository } from './repositories/booking-calls';
import { SqlDeliveryRepository, SqlWebhookRepository } from './repositories/webhooks';
import { SqlIntegrationRepository } from './repositories/integrations';
import { BeforeCommit, type Scope, statementCache } from './scope';
import { retryDeadlocks } from './sql/deadlocks';
import { type Db, guardedDb, lockedDb, pooledDb, type Prepared, queryRunnerDb, type Row, sqliteDb } from './sql/db';
import { type Dialect, dialectOf } from './sql/dialect';
import { ReadWriteLock } from './sql/rw-lock';
import { pgOutboxListener } from './sql/pg-listen';
import { openSqliteReader, type SqliteReader, withReader } from './sql/sqlite-reader';
import { openSqliteCheckpointer, type SqliteCheckpointer, WRITER_AUTOCHECKPOINT, WRITER_CACHE_SIZE } from './sql/sqlite-checkpointer';

export type TypeormStorage = Storage & {
  /** Waits for running calls and transactions, refuses new ones, then destroys the data source. */
  close(): Promise<void>;
};

/** The storage plus what the package's test helpers need; not exported from the package index. */
export interface StorageInternals {
  storage: TypeormStorage;
  /** Runs SQL as a root storage call: under the same lock, or in the ambient transaction. */
  raw(sql: string, params?: unknown[]): Promise<Row[]>;
  dialect: Dialect;
  /** The storage's analytics indexer (started by the storage's first call, stopped by `close()`). */
  indexer: ResponseIndexer;
}

type RunInTransaction = <T>(work: (db: Db) => Promise<T>) => Promise<T>;

/** A running transaction, as the code in its async context sees it. */
interface TxContext {
  readonly db: Db;
  readonly storage: Storage;
  /** False once the callback has settled: work it left running goes back to the root's own calls. */
  active: boolean;
  /**
   * Until the transaction has committed or rolled back, what work it left running waits for before its
   * root calls: they then see what it committed, never a state from before it.
   */
  readonly ending: TxEnd;
}

/** The end of a transaction: settled once it has committed or rolled back (whichever attempt ran last). */
interface TxEnd {
  readonly promise: Promise<void>;
  done: boolean;
}

/**
 * A Storage on a DataSource the host owns (sqlite or postgres, migrated with `runMigrations`).
 * Nothing runs until the first call; the data source may still be initializing when this is called.
 *
 * A call on the root storage made in the async context of `transaction(work)` (from `work` or anything it
 * awaits, such as a service reading storage inside a transaction) joins that transaction, on SQLite and
 * PostgreSQL alike: it sees the transaction's writes and commits or rolls back with it, and on SQLite it
 * cannot wait for the transaction it runs in (`storage.transaction` there joins too, like `tx.transaction`).
 * Work still running after the callback settled is back on the root. Another storage never joins.
 * Other code should not use the same SQLite DataSource while
 * the storage runs: it shares the one connection outside our lock.
 */
export function createTypeormStorage(dataSource: DataSource): TypeormStorage {
  return openStorage(dataSource).storage;
}

export function openStorage(dataSource: DataSource, options: { indexer?: IndexerOptions } = {}): StorageInternals {
  const d = dialectOf(dataSource);
  const st = statementCache(d);
  // On SQLite: transactions exclusive, other calls shared. On PostgreSQL everything is shared and the
  // lock only lets close() wait for what is running.
  const lock = new ReadWriteLock();
  let closed = false;
  const isOpen = () => !closed;

  let ownDb: Db;
  let runInTransaction: RunInTransaction;
  let releaseStatements: () => Promise<void> = async () => undefined;
  let reader: SqliteReader | null = null;
  let checkpointer: SqliteCheckpointer | null = null;
  if (d.kind === 'sqlite') {
    const conn = sqliteDb(dataSource);
    const busyTimeout = (dataSource.options as { busyTimeout?: number }).busyTimeout ?? 5000;
    reader = openSqliteReader(dataSource, busyTimeout);
    // WAL checkpoints on a connection of their own, not inside our commits (sql/sqlite-checkpointer.ts).
    checkpointer = openSqliteCheckpointer(dataSource, busyTimeout);
    let tuned = !checkpointer;
    releaseStatements = conn.releaseAll;
    // Plain SELECTs outside transactions go to a read-only connection: they need not wait for the write
    // transaction under way on this one (sql/sqlite-reader.ts).
    ownDb = guardedDb(withReader(lockedDb(conn, lock), reader), isOpen, 'The storage (closed)');
    // BEGIN IMMEDIATE takes SQLite's write lock at once, so another process's writer makes us wait for
    // busy_timeout instead of failing at our first write; our own callers wait on the adapter's lock.
    runInTransaction = (work) =>
      lock.exclusive(async () => {
        let active = true;
        if (!tuned) {
          // Set at the first transaction: the data source may still be initializing when the storage is made.
          tuned = true;
          await conn.run(`PRAGMA wal_autocheckpoint = ${WRITER_AUTOCHECKPOINT}`);
          await conn.run(`PRAGMA cache_size = ${WRITER_CACHE_SIZE}`);
        }
        await conn.run('BEGIN IMMEDIATE');
        try {
          const result = await work(guardedDb(conn, () => active, 'A finished transaction'));
          await conn.run('COMMIT');
          checkpointer?.committed();
          return result;
        } catch (err) {
          await conn.run('ROLLBACK').catch(() => undefined);
          throw err;
        } finally {
          active = false;
        }
      });
  } else {
    ownDb = guardedDb(lockedDb(pooledDb(dataSource), lock), isOpen, 'The storage (closed)');
    runInTransaction = (work) =>
      retryDeadlocks(() =>
        lock.shared(() =>
          dataSource.transaction(async (manager) => {
            let active = true;
            try {
              return await work(guardedDb(queryRunnerDb(manager.queryRunner!), () => active, 'A finished transaction'));
            } finally {
              active = false;
            }
          }),
        ),
      );
  }

  // The transaction whose async context the caller runs in: per storage, so another storage (another
  // database) used inside a transaction never joins it.
  const context = new AsyncLocalStorage<TxContext>();
  // Transactions not yet ended. While there is none the context is disabled: an enabled AsyncLocalStorage
  // keeps Node's async hooks on, which tag every promise the process makes (about 3 kB and several µs of
  // CPU per cached GET: docs/benchmarks.md, "CPU per cached GET"). A context of an ended transaction
  // behaves as none (`rootNow`), so turning the context off then changes no call's place.
  let unended = 0;
  /**
   * Where a root call made in `ctx` runs now: the ambient transaction, else the root; `null` while the
   * transaction it was made in is still ending (the call then waits for `ctx.ending`, then runs on the root).
   */
  const rootNow = (ctx: TxContext | undefined): Db | null => (!ctx ? ownDb : ctx.active ? ctx.db : ctx.ending.done ? ownDb : null);
  // The analytics indexer runs its batches in transactions of its own, outside whatever context woke it.
  // It waits while submissions commit; on SQLite it also sees who holds or waits for the one writer.
  const writerBusy = d.kind === 'sqlite' ? () => lock.state.writer || lock.state.waiting > 0 : undefined;
  const indexer = new ResponseIndexer(
    { db: ownDb, d, transaction: (work) => context.exit(() => withTransaction((ctx) => work(ctx.db))), writerBusy },
    options.indexer,
  );
  // Started by the first call rather than here: the data source may still be initializing or migrating now.
  let indexing = false;
  const onRoot = <R>(call: (db: Db) => Promise<R>): Promise<R> => {
    if (!indexing) {
      indexing = true;
      indexer.start();
    }
    const ctx = context.getStore();
    const db = rootNow(ctx);
    return db ? call(db) : ctx!.ending.promise.then(() => call(ownDb));
  };

  /** Joins the ambient transaction, or opens one whose callback runs in its own async context. */
  const withTransaction = <T>(work: (ctx: TxContext) => Promise<T>): Promise<T> => {
    const ctx = context.getStore();
    if (ctx?.active) return work(ctx);
    if (ctx && !ctx.ending.done) return ctx.ending.promise.then(() => withTransaction(work));
    if (closed) return Promise.reject(new Error('The storage (closed) is no longer usable'));
    let end!: () => void;
    const ending: TxEnd = {
      promise: new Promise<void>((resolve) => {
        end = () => {
          ending.done = true;
          if (--unended === 0) context.disable();
          resolve();
        };
      }),
      done: false,
    };
    unended++;
    return runInTransaction(async (db) => {
      const beforeCommit = new BeforeCommit();
      const ctx: TxContext = {
        db,
        storage: makeStorage(d, st, db, (inner) => inner(db), null, beforeCommit, (count) => void ending.promise.then(() => indexer.queued(count))),
        active: true,
        ending,
      };
      const result = await context.run(ctx, async () => {
        try {
          return await work(ctx);
        } finally {
          ctx.active = false;
        }
      });
      await beforeCommit.run(db);
      return result;
    }).finally(end);
  };

  // Root calls run on the ambient transaction when there is one, else each on its own.
  const rootDb: Db = {
    all: (sql, params) => onRoot((db) => db.all(sql, params)),
    run: (sql, params) => onRoot((db) => db.run(sql, params)),
    prepare: (sql) => {
      const ctx = context.getStore();
      const db = rootNow(ctx);
      return db ? db.prepare(sql) : preparedAfter(ctx!.ending.promise, () => ownDb.prepare(sql));
    },
    // Only outside any transaction: a copy runs on a connection of its own, which would not see it.
    get copyOut() {
      const ctx = context.getStore();
      return !ctx || ctx.ending.done ? ownDb.copyOut : undefined;
    },
  };
  const root = makeStorage(
    d,
    st,
    rootDb,
    (work) => withTransaction((ctx) => work(ctx.db)),
    (work) => withTransaction((ctx) => work(ctx.storage)),
    null,
    (count) => {
      // Called after a write that may have joined the caller's transaction: the indexer then waits for its end.
      const ctx = context.getStore();
      if (ctx && !ctx.ending.done) void ctx.ending.promise.then(() => indexer.queued(count));
      else indexer.queued(count);
    },
  );
  const storage: TypeormStorage = Object.assign(root, {
    async close() {
      if (closed) return;
      await indexer.stop();
      closed = true;
      await lock.exclusive(async () => undefined);
      await checkpointer?.close();
      await reader?.close();
      await releaseStatements();
      if (dataSource.isInitialized) await dataSource.destroy();
    },
  });
  // Other instances' new outbox items wake this one's worker (migration 1739500000000's NOTIFY trigger).
  if (d.kind === 'postgres') Object.assign(root.outbox, { listen: pgOutboxListener(dataSource) });
  return { storage, raw: (sql, params) => rootDb.all(sql, params), dialect: d, indexer };
}

/**
 * A Storage over `db`. `atomic` runs repository work that must be one transaction; `transaction` is the
 * root's (opening one) or `null` inside a transaction, where nested calls join the current one.
 */
function makeStorage(
  d: Dialect,
  st: Scope['statements'],
  db: Db,
  atomic: RunInTransaction,
  transaction: (<T>(work: (tx: Storage) => Promise<T>) => Promise<T>) | null,
  beforeCommit: BeforeCommit | null,
  queued: (count: number) => void,
): Storage {
  const scope: Scope = { db, d, statements: st, atomic, beforeCommit, queued };
  const storage: Storage = {
    users: new SqlUserRepository(scope),
    apiKeys: new SqlApiKeyRepository(scope),
    forms: new SqlFormRepository(scope),
    questions: new SqlQuestionRepository(scope),
    versions: new SqlVersionRepository(scope),
    teams: new SqlTeamRepository(scope),
    credits: new SqlCreditRepository(scope),
    idempotency: new SqlIdempotencyRepository(scope),
    outbox: new SqlOutboxRepository(scope),
    uploads: new SqlUploadRepository(scope),
    voiceGenerations: new SqlVoiceGenerationRepository(scope),
    responses: new SqlResponseRepository(scope),
    webhooks: new SqlWebhookRepository(scope),
    deliveries: new SqlDeliveryRepository(scope),
    invitations: new SqlInvitationRepository(scope),
    branding: new SqlBrandingRepository(scope),
    auditLogs: new SqlAuditLogRepository(scope),
    rateLimits: new SqlRateLimitRepository(scope),
    signing: new SqlSigningRepository(scope),
    credentials: new SqlCredentialRepository(scope),
    signInSessions: new SqlSignInSessionRepository(scope),
    oneTimeTokens: new SqlOneTimeTokenRepository(scope),
    passkeys: new SqlPasskeyRepository(scope),
    cacheRevision: new SqlCacheRevisionRepository(scope),
    integrations: new SqlIntegrationRepository(scope),
    payments: new SqlPaymentRepository(scope),
    bookings: new SqlBookingRepository(scope),
    bookingCalls: new SqlBookingCallRepository(scope),
    transaction: transaction ?? ((work) => work(storage)),
  };
  return storage;
}

/** A statement prepared on the root once `ending` has settled (for work a transaction left running). */
function preparedAfter<T>(ending: Promise<void>, prepare: () => Prepared<T>): Prepared<T> {
  const ready = ending.then(prepare);
  return {
    all: (params) => ready.then((p) => p.all(params)),
    close: () => ready.then((p) => p.close()),
  };
}
