import test from 'ava';
import { EntitySchema } from 'typeorm';
import { dialectOf } from '../../src/sql/dialect';
import { insertRows } from '../../src/sql/statements';
import { createTestDatabase, type TestDatabaseKind } from '../../src/testing';

/*
 * `insertRows` (sql/statements.ts): the multi-row writes of the answers index and the counters, their rows one JSON
 * text read by `jsonb_each` (SQLite) or `jsonb_array_elements`, each value cast to its column's type in the entity
 * (PostgreSQL). Every value must come back as it went in, and an upsert's increments must add up.
 */

const Probe = new EntitySchema<{ k: string; s: string | null; n: number | null; b: boolean | null; i: number | null; c: number }>({
  name: 'RowsProbe',
  tableName: 'fl_rows_probe',
  columns: {
    k: { type: 'varchar', primary: true },
    s: { type: 'varchar', nullable: true },
    n: { type: 'double precision', nullable: true },
    b: { type: 'boolean', nullable: true },
    i: { type: 'integer', nullable: true },
    c: { type: 'bigint', default: 0 },
  },
});

const TEXTS = ['plain', 'with "quotes" and \\ backslash', 'line\nbreak\ttab', 'Zoë, 東京, 🙂', '', 'x'.repeat(5000), '\u0001\u001f'];
const NUMBERS = [0, -1, 42, 2 ** 53 - 1, -(2 ** 53 - 1), 0.1 + 0.2, 1e-7, -2.5e300];

for (const kind of ['sqlite', 'postgres'] as TestDatabaseKind[]) {
  test(`${kind}: insertRows writes every value as given, and its upsert adds increments`, async (t) => {
    const db = await createTestDatabase(kind);
    t.teardown(() => db.close());
    const d = dialectOf(db.dataSource);
    await db.raw('CREATE TABLE fl_rows_probe (k varchar PRIMARY KEY, s varchar, n double precision, b boolean, i integer, c bigint NOT NULL DEFAULT 0)');
    type Row = [string, string | null, number | null, boolean | null, number | null, number];
    const rows: Row[] = TEXTS.flatMap((s, i) => NUMBERS.map((n, j): Row => [`k${i}_${j}`, s, n, (i + j) % 2 === 0, i * 1000 - j, 1]));
    rows.push(['null', null, null, null, null, 1]);
    const upsert = 'ON CONFLICT (k) DO UPDATE SET c = fl_rows_probe.c + excluded.c';
    const write = async () => {
      const { sql, values } = insertRows(d, Probe, ['k', 's', 'n', 'b', 'i', 'c'], rows, upsert);
      await db.raw(sql, values);
    };
    await write();
    await write();
    const back = await db.raw('SELECT k, s, n, b, i, c FROM fl_rows_probe ORDER BY k');
    const byKey = new Map(back.map((r) => [r.k as string, r]));
    t.is(back.length, rows.length);
    for (const [k, s, n, b, i] of rows) {
      const r = byKey.get(k as string)!;
      t.is(r.s, s, `${k}: text`);
      t.is(r.n === null ? null : Number(r.n), n, `${k}: number`);
      t.is(r.b === null ? null : Boolean(r.b), b, `${k}: boolean`);
      t.is(r.i === null ? null : Number(r.i), i, `${k}: integer`);
      t.is(Number(r.c), 2, `${k}: the second write added its increment`);
    }
  });
}
