import type { DataSource } from 'typeorm';

/** The channel the outbox trigger notifies (migrations/1739500000000-cache-revision.ts). */
export const OUTBOX_CHANNEL = 'formloom_outbox';

interface PgClient {
  connect(): Promise<void>;
  query(sql: string): Promise<unknown>;
  end(): Promise<void>;
  on(event: 'notification', listener: (msg: { channel: string }) => void): void;
  on(event: 'error', listener: (err: Error) => void): void;
}

/**
 * `outbox.listen` on PostgreSQL: a connection of its own (outside the pool, which it would otherwise hold
 * for ever) that LISTENs to the outbox channel and calls `wake` on each notification. A dropped connection
 * is opened again after a pause; meanwhile the worker's poll alone finds new items.
 */
export function pgOutboxListener(dataSource: DataSource) {
  return async (wake: () => void): Promise<() => Promise<void>> => {
    const driver = dataSource.driver as unknown as { postgres: { Client: new (config: object) => PgClient } };
    const options = dataSource.options as { url?: string; extra?: { options?: string } };
    let client: PgClient | null = null;
    let stopped = false;
    let retry: NodeJS.Timeout | null = null;
    const open = async () => {
      if (stopped) return;
      const c = new driver.postgres.Client({ connectionString: options.url, ...(options.extra?.options ? { options: options.extra.options } : {}) });
      c.on('notification', (msg) => {
        if (msg.channel === OUTBOX_CHANNEL) wake();
      });
      c.on('error', () => reopen(c));
      try {
        await c.connect();
        await c.query(`LISTEN ${OUTBOX_CHANNEL}`);
        client = c;
        if (stopped) await close();
      } catch {
        reopen(c);
      }
    };
    const reopen = (c: PgClient) => {
      if (client === c) client = null;
      void c.end().catch(() => undefined);
      if (!stopped && !retry) retry = setTimeout(() => ((retry = null), void open()), 1000);
      retry?.unref();
    };
    const close = async () => {
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    };
    await open();
    return async () => {
      stopped = true;
      if (retry) clearTimeout(retry);
      await close();
    };
  };
}
