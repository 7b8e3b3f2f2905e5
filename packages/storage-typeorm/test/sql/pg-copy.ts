import { createRequire } from 'node:module';
import test from 'ava';
import { type CopyPool, copyOut, copyPacked, pgLiteral } from '../../src/sql/pg-copy';
import { postgresTestUrl } from '../../src/testing';

/*
 * Reading rows through PostgreSQL's binary COPY (src/sql/pg-copy.ts): the parser against streams cut at
 * every byte, and the real server's bytes, literals and connections.
 */

type Row = Array<string | null>;

/** The part of pg's Pool these tests use (pg ships no types; the adapter loads it as the host's driver). */
interface Pool extends CopyPool {
  query(sql: string): Promise<{ rows: Array<Record<string, unknown>> }>;
  end(): Promise<void>;
}
const { Pool } = createRequire(__filename)('pg') as { Pool: new (config: { connectionString: string; max: number }) => Pool };

/** The bytes PostgreSQL writes for `rows` in binary COPY format (with a header extension of `extension` bytes). */
function binaryCopy(rows: Row[], extension = 0): Buffer {
  const parts: Buffer[] = [Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1')];
  const head = Buffer.alloc(8 + extension);
  head.writeUInt32BE(extension, 4);
  parts.push(head);
  for (const row of rows) {
    const count = Buffer.alloc(2);
    count.writeInt16BE(row.length);
    parts.push(count);
    for (const field of row) {
      const bytes = field === null ? Buffer.alloc(0) : Buffer.from(field, 'utf8');
      const length = Buffer.alloc(4);
      length.writeInt32BE(field === null ? -1 : bytes.length);
      parts.push(length, bytes);
    }
  }
  parts.push(Buffer.from([0xff, 0xff]));
  return Buffer.concat(parts);
}

const packed = (rows: Row[]) => rows.map((r) => r.map((f) => f ?? '').join('\u001f') + '\u001e').join('');

async function* chunksOf(bytes: Buffer, cuts: number[]) {
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    if (cut > from) yield bytes.subarray(from, cut);
    from = Math.max(from, cut);
  }
}

/** Every page as text with its count, copied out before the next is asked for (the buffer is reused). */
async function pagesOf(chunks: AsyncIterable<Buffer>, per: number) {
  const out: Array<[number, string]> = [];
  for await (const page of copyPacked(chunks, per)) out.push([page.count, page.bytes.toString('utf8')]);
  return out;
}

const ROWS: Row[] = [
  ['rsp_1', '2026-01-01T00:00:00.000Z', '2026-01-01T00:01:00.000Z', '', '[{"question_id":"q","value":"Zoë, \\"hi\\""}]'],
  ['rsp_2', '2026-01-02T00:00:00.000Z', null, null, '[]'],
  ['rsp_3', '2026-01-03T00:00:00.000Z', '', '{"utm":"x"}', '[{"question_id":"q","value":"😀"}]'],
];

test('copyPacked packs each row as fields separated by US and ended by RS, per rows to a page, wherever the chunks are cut', async (t) => {
  const bytes = binaryCopy(ROWS);
  const expected: Array<[number, string]> = [
    [2, packed(ROWS.slice(0, 2))],
    [1, packed(ROWS.slice(2))],
  ];
  t.deepEqual(await pagesOf(chunksOf(bytes, []), 2), expected, 'one chunk');
  for (let cut = 1; cut < bytes.length; cut++) t.deepEqual(await pagesOf(chunksOf(bytes, [cut]), 2), expected, `cut at ${cut}`);
  const everyByte = Array.from({ length: bytes.length }, (_, i) => i);
  t.deepEqual(await pagesOf(chunksOf(bytes, everyByte), 2), expected, 'one byte per chunk');
  t.deepEqual(await pagesOf(chunksOf(bytes, []), 3), [[3, packed(ROWS)]], 'a last full page is followed by no empty one');
  t.deepEqual(await pagesOf(chunksOf(binaryCopy(ROWS, 5), [20]), 10), [[3, packed(ROWS)]], 'a header extension is skipped');
  t.deepEqual(await pagesOf(chunksOf(binaryCopy([]), []), 10), [], 'no rows, no page');
});

/** Pages of `copyPacked` with `lines`: [count, lines?, text]. */
async function linePagesOf(chunks: AsyncIterable<Buffer>, per: number) {
  const out: Array<[number, boolean, string]> = [];
  for await (const page of copyPacked(chunks, per, { lines: true })) {
    out.push([page.count, page.lines !== undefined, page.lines ?? page.bytes.toString('utf8')]);
  }
  return out;
}

test('copyPacked with lines gives a row\'s first field as its line, packs a row without one from the rest, and never mixes them in a page', async (t) => {
  const line = (id: string) => `${id},"a \u001e\u001f ""b""\r\nc",😀\r\n`;
  const rows: Row[] = [
    [line('rsp_1'), 'rsp_1', '2026-01-01T00:00:00.000Z', '2026-01-01T00:01:00.000Z', null, null],
    [line('rsp_2'), 'rsp_2', '2026-01-02T00:00:00.000Z', null, null, null],
    [null, 'rsp_3', '2026-01-03T00:00:00.000Z', '', '{"utm":"x"}', '[]'],
    [null, 'rsp_4', '2026-01-04T00:00:00.000Z', null, '', '[{"question_id":"q","value":1}]'],
    [null, 'rsp_5', '2026-01-05T00:00:00.000Z', null, '', '[]'],
    [line('rsp_6'), 'rsp_6', '2026-01-06T00:00:00.000Z', null, null, null],
  ];
  const expected: Array<[number, boolean, string]> = [
    [2, true, line('rsp_1') + line('rsp_2')],
    [2, false, packed(rows.slice(2, 4).map((r) => r.slice(1)))],
    [1, false, packed(rows.slice(4, 5).map((r) => r.slice(1)))],
    [1, true, line('rsp_6')],
  ];
  const bytes = binaryCopy(rows);
  t.deepEqual(await linePagesOf(chunksOf(bytes, []), 2), expected, 'one chunk');
  for (let cut = 1; cut < bytes.length; cut++) t.deepEqual(await linePagesOf(chunksOf(bytes, [cut]), 2), expected, `cut at ${cut}`);
  const everyByte = Array.from({ length: bytes.length }, (_, i) => i);
  t.deepEqual(await linePagesOf(chunksOf(bytes, everyByte), 2), expected, 'one byte per chunk');
});

test('copyPacked refuses what is not a whole binary COPY', async (t) => {
  const bytes = binaryCopy(ROWS);
  await t.throwsAsync(pagesOf(chunksOf(Buffer.from('id,name,email\r\n1,Ada,ada@example.com\r\n'), []), 2), { message: /not a binary COPY stream/ });
  await t.throwsAsync(pagesOf(chunksOf(bytes.subarray(0, bytes.length - 2), []), 2), { message: /ended in the middle of a row/ });
  await t.throwsAsync(pagesOf(chunksOf(bytes.subarray(0, bytes.length - 9), []), 2), { message: /ended in the middle of a row/ });
  await t.throwsAsync(pagesOf(chunksOf(Buffer.concat([bytes, Buffer.from('x')]), []), 2), { message: /after the end/ });
  await t.throwsAsync(pagesOf(chunksOf(Buffer.concat([bytes, Buffer.from('x')]), [bytes.length]), 2), { message: /after the end/ });
});

test('on PostgreSQL: literals read back as written, and copyOut streams what copyPacked reads', async (t) => {
  const pool = new Pool({ connectionString: await postgresTestUrl(), max: 1 });
  t.teardown(() => pool.end());
  const tricky = ["O'Brien", 'back\\slash', "\\'", "E'x'", "''", 'Zoë 😀', '', 'a\nb\tc'];
  for (const s of tricky) {
    const { rows } = await pool.query(`SELECT ${pgLiteral(s)}::text AS v`);
    t.is(rows[0].v, s, JSON.stringify(s));
  }
  const select = `SELECT ${pgLiteral('rsp_1')}::text, NULL::text, ${pgLiteral('Zoë')}::text UNION ALL SELECT 'rsp_2', '', 'x'`;
  t.deepEqual(await pagesOf(copyOut(pool, select), 5), [[2, packed([['rsp_1', null, 'Zoë'], ['rsp_2', '', 'x']])]]);

  // A copy left in the middle ends its connection; the pool (of one) still serves the next query.
  const many = 'SELECT g::text FROM generate_series(1, 200000) g';
  for await (const page of copyPacked(copyOut(pool, many), 10)) {
    t.is(page.count, 10);
    break;
  }
  const { rows } = await pool.query('SELECT 1 AS one');
  t.is(rows[0].one, 1);
  await t.throwsAsync(pagesOf(copyOut(pool, 'SELECT no_such_column'), 5), { message: /no_such_column/ });
  t.is((await pool.query('SELECT 2 AS two')).rows[0].two, 2, 'a failed copy leaves the pool usable');
});
