import { loadDriver } from '@formloom/storage-typeorm';

/** The few calls of the `sqlite3` driver this package makes. */
interface Sqlite3Module {
  OPEN_READONLY: number;
  OPEN_READWRITE: number;
  Database: new (file: string, mode: number, callback: (err: Error | null) => void) => Sqlite3Database;
}
interface Sqlite3Database {
  configure(option: 'busyTimeout', value: number): void;
  run(sql: string, params: unknown[], callback: (err: Error | null) => void): void;
  all(sql: string, params: unknown[], callback: (err: Error | null, rows: Record<string, unknown>[]) => void): void;
  close(callback: (err: Error | null) => void): void;
}

/** A SQLite file opened on its own connection, apart from the server's (which may be running). */
export class SqliteFile {
  private constructor(private readonly db: Sqlite3Database) {}

  static async open(file: string, mode: 'read' | 'write'): Promise<SqliteFile> {
    const sqlite3 = loadDriver('sqlite3') as Sqlite3Module;
    const db = await new Promise<Sqlite3Database>((resolve, reject) => {
      const d = new sqlite3.Database(file, mode === 'read' ? sqlite3.OPEN_READONLY : sqlite3.OPEN_READWRITE, (err) => (err ? reject(err) : resolve(d)));
    });
    // A server's group commit holds the write lock for a moment at a time: wait for it rather than fail.
    db.configure('busyTimeout', 600_000);
    return new SqliteFile(db);
  }

  run(sql: string, params: unknown[] = []): Promise<void> {
    return new Promise((resolve, reject) => this.db.run(sql, params, (err) => (err ? reject(err) : resolve())));
  }

  all(sql: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
    return new Promise((resolve, reject) => this.db.all(sql, params, (err, rows) => (err ? reject(err) : resolve(rows))));
  }

  close(): Promise<void> {
    return new Promise((resolve, reject) => this.db.close((err) => (err ? reject(err) : resolve())));
  }

  /** Formloom's tables, by name (SQLite's own and the FTS shadow tables aside). */
  async tables(): Promise<string[]> {
    const rows = await this.all("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name");
    return rows.map((r) => String(r.name));
  }

  /** Rows per table. */
  async counts(): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const t of await this.tables()) {
      const [row] = await this.all(`SELECT COUNT(*) AS n FROM "${t.replaceAll('"', '""')}"`);
      out[t] = Number(row?.n ?? 0);
    }
    return out;
  }

  /** The migrations recorded in the file, oldest first; none when it was never migrated. */
  async migrations(): Promise<string[]> {
    const has = await this.all("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'formloom_migrations'");
    if (!has.length) return [];
    return (await this.all('SELECT name FROM formloom_migrations ORDER BY timestamp, id')).map((r) => String(r.name));
  }
}

/**
 * Writes a consistent copy of a live SQLite database to `target` with `VACUUM INTO`: it reads inside one
 * transaction, so a server writing meanwhile (WAL mode) neither waits for it nor appears half in the copy.
 */
export async function snapshotSqlite(source: string, target: string): Promise<void> {
  const db = await SqliteFile.open(source, 'read');
  try {
    await db.run('VACUUM INTO ?', [target]);
  } finally {
    await db.close();
  }
}
