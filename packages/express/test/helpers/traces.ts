import type { TestApp } from './app';

/**
 * Rows of every table of the app's database that still hold what `pattern` matches (each row read as JSON text),
 * by table: an erasure's "no trace left" (docs/privacy.md), whatever index or rollup a submission wrote.
 */
export async function tracesOf(app: TestApp, pattern: RegExp): Promise<Record<string, string[]>> {
  const tables: { name: string }[] = await app.raw(
    app.kind === 'sqlite'
      ? "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
      : 'SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()',
  );
  const found: Record<string, string[]> = {};
  for (const { name } of tables) {
    const rows = (await app.raw(`SELECT * FROM "${name}"`)).map((r) => JSON.stringify(r, (_k, v) => (v?.type === 'Buffer' && Array.isArray(v.data) ? Buffer.from(v.data).toString('utf8') : v)));
    const hits = rows.filter((r) => pattern.test(r));
    if (hits.length) found[name] = hits;
  }
  return found;
}
