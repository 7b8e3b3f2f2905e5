import type { ResponseRecord } from '../../domain/types';
import type { CsvLine, CsvLineSource } from '../../ports/storage/responses';
import { at, makeForm, makeResponse, type StorageHarnessInstance, type StorageTest, uid } from './fixtures';

async function newForm(db: StorageHarnessInstance) {
  const form = makeForm();
  await db.storage.forms.insert(form);
  return form;
}

/** A partial response (not completed) submitted `seconds` after the fixed instant. */
const partial = (formId: string, seconds: number, over: Partial<ResponseRecord> = {}) =>
  makeResponse(formId, seconds, { completed_at: null, completion_seconds: null, resume_token_hash: 'ab'.repeat(32), ...over });

/** The responses of a packed export page (see PackedResponses), with their answers parsed. */
function unpack(bytes: Uint8Array) {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  if (text.length && !text.endsWith('\u001e')) throw new Error('a packed page must end with a record separator');
  return text
    .split('\u001e')
    .slice(0, -1)
    .map((record) => {
      const [id, submitted_at, completed_at, hidden, answers, ...rest] = record.split('\u001f');
      if (answers === undefined || rest.length) throw new Error(`a packed response has ${record.split('\u001f').length} fields, not 5`);
      return { id, submitted_at, completed_at, hidden: hidden ? JSON.parse(hidden) : null, answers: JSON.parse(answers) };
    });
}

/** responses: the CSV export's packed pages (`exportPages`). */
export function responseExportTests(test: StorageTest): void {
  test('responses: exportPages packs every response once, in (submitted_at, id) order, in pages of at most pageSize', async (t, db) => {
    const form = await newForm(db);
    const base = uid('rsp');
    // Ten distinct instants for thirty responses: ties inside and across pages; inserted out of order.
    const rows = Array.from({ length: 30 }, (_, i) => makeResponse(form.id, (i * 7) % 10, { id: `${base}_${String(i).padStart(2, '0')}` }));
    rows[3] = partial(form.id, 3, { id: rows[3]!.id });
    rows[5] = makeResponse(form.id, 5, {
      id: rows[5]!.id,
      answers: [
        { question_id: 'q1', value: 'Zoë said "hi",\nthen left\u001e\u001f' },
        { question_id: 'q2', value: ['a', 'b'] },
        { question_id: 'q3', value: { first_name: 'Ada', nested: [1, null, true] } },
      ],
    });
    await db.storage.transaction(async (tx) => {
      for (const r of rows) await tx.responses.insert(r);
    });
    await db.storage.responses.insert(makeResponse((await newForm(db)).id, 1)); // another form's
    const expected = [...rows].sort((a, b) => (a.submitted_at < b.submitted_at ? -1 : a.submitted_at > b.submitted_at ? 1 : a.id < b.id ? -1 : 1));

    const counts: number[] = [];
    const seen: unknown[] = [];
    for await (const page of db.storage.responses.exportPages(form.id, 7)) {
      counts.push(page.count);
      const unpacked = unpack(page.bytes);
      t.is(unpacked.length, page.count, 'count is the number of packed responses');
      seen.push(...unpacked);
    }
    t.deepEqual(counts, [7, 7, 7, 7, 2]);
    t.deepEqual(
      seen,
      expected.map((r) => ({ id: r.id, submitted_at: r.submitted_at, completed_at: r.completed_at ?? '', hidden: null, answers: r.answers })),
    );

    const exact: number[] = [];
    for await (const page of db.storage.responses.exportPages(form.id, 10)) exact.push(page.count);
    t.deepEqual(exact, [10, 10, 10], 'a last full page is followed by no empty one');

    const none: number[] = [];
    for await (const page of db.storage.responses.exportPages(uid('frm'), 10)) none.push(page.count);
    t.deepEqual(none, [], 'a form without responses has no page');
  });

  test('responses: exportPages packs hidden field values only when asked', async (t, db) => {
    const form = await newForm(db);
    const hidden = { utm_source: 'news, "letter"', ref: '=1+2', 'x-y': 'Zoë\n😀' };
    const rows = [
      makeResponse(form.id, 1, { metadata: { user_agent: 'ua', referrer: null, hidden } }),
      makeResponse(form.id, 2),
      makeResponse(form.id, 3, { metadata: { user_agent: null, referrer: 'https://example.com', hidden: { ref: 'r' } } }),
    ];
    await db.storage.transaction(async (tx) => {
      for (const r of rows) await tx.responses.insert(r);
    });
    const read = async (options?: { hidden?: boolean }) => {
      const out: Array<ReturnType<typeof unpack>[number]> = [];
      for await (const page of db.storage.responses.exportPages(form.id, 2, options)) out.push(...unpack(page.bytes));
      return out;
    };
    t.deepEqual((await read({ hidden: true })).map((r) => [r.id, r.hidden]), [[rows[0]!.id, hidden], [rows[1]!.id, null], [rows[2]!.id, { ref: 'r' }]]);
    t.deepEqual((await read()).map((r) => r.hidden), [null, null, null], 'not asked: the field is empty');
    t.deepEqual((await read({ hidden: true })).map((r) => r.answers), rows.map((r) => r.answers));
  });

  test('responses: exportPages packs each response\'s language and version after its answers only when asked', async (t, db) => {
    const form = await newForm(db);
    const rows = [makeResponse(form.id, 1, { language: 'de', version_id: 'ver_a' }), makeResponse(form.id, 2), makeResponse(form.id, 3, { language: 'pt-BR' })];
    await db.storage.transaction(async (tx) => {
      for (const r of rows) await tx.responses.insert(r);
    });
    const fields = async (options: { language?: boolean; filter?: { completed: boolean } }) => {
      const out: string[][] = [];
      for await (const page of db.storage.responses.exportPages(form.id, 2, options)) {
        const text = Buffer.from(page.bytes.buffer, page.bytes.byteOffset, page.bytes.byteLength).toString('utf8');
        out.push(...text.split('\u001e').slice(0, -1).map((r) => r.split('\u001f')));
      }
      return out;
    };
    const spoken = await fields({ language: true });
    t.deepEqual(spoken.map((f) => [f[0], f.length, f[5], f[6]]), [[rows[0]!.id, 7, 'de', 'ver_a'], [rows[1]!.id, 7, '', ''], [rows[2]!.id, 7, 'pt-BR', '']]);
    t.deepEqual(spoken.map((f) => JSON.parse(f[4]!)), rows.map((r) => r.answers));
    t.deepEqual((await fields({ language: true, filter: { completed: true } })).map((f) => f[5]), ['de', '', 'pt-BR'], 'with a filter too');
    t.deepEqual((await fields({})).map((f) => f.length), [5, 5, 5], 'not asked: five fields, as the CSV reads them');
  });

  test('responses: exportPages abandoned after one page releases what it held', async (t, db) => {
    const form = await newForm(db);
    await db.storage.transaction(async (tx) => {
      for (let i = 0; i < 12; i++) await tx.responses.insert(makeResponse(form.id, i));
    });
    for await (const page of db.storage.responses.exportPages(form.id, 5)) {
      t.is(page.count, 5);
      break;
    }
    // The storage stays fully usable: reads, a write transaction and a new export.
    await db.storage.transaction(async (tx) => tx.responses.insert(makeResponse(form.id, 99)));
    let total = 0;
    for await (const page of db.storage.responses.exportPages(form.id, 5)) total += page.count;
    t.is(total, 13);
  });

  test('responses: exportPages with `lines` gives the stored lines of pages written for those columns, and packs the others', async (t, db) => {
    const form = await newForm(db);
    const base = uid('rsp');
    // Lines are opaque to the storage: separators, quotes and line breaks inside one go through untouched.
    const lineOf = (id: string, layout: string): CsvLine => ({ layout, line: `${id},"x\u001e\u001f ""q""\r\n",Zoë\r\n` });
    const rows = Array.from({ length: 18 }, (_, i) => makeResponse(form.id, i, { id: `${base}_${String(i).padStart(2, '0')}` }));
    // Page 2 holds a line for other columns; page 5 a response stored without a line.
    const layoutOf = (i: number) => (i === 5 ? 'k2' : i === 17 ? null : 'k1');
    await db.storage.transaction(async (tx) => {
      for (const [i, r] of rows.entries()) {
        const layout = layoutOf(i);
        await tx.responses.insert(r, layout ? lineOf(r.id, layout) : null);
      }
    });
    // Pages are walked against the responses in order: a page of lines must be exactly the next responses'
    // lines, each written for these columns; a packed page exactly the next responses. An adapter may end a
    // page early where the kind changes.
    let next = 0;
    const asLines = new Set<number>();
    for await (const page of db.storage.responses.exportPages(form.id, 4, { lines: 'k1' })) {
      t.true(page.count >= 1 && page.count <= 4);
      const these = rows.slice(next, next + page.count).map((r, k) => ({ id: r.id, i: next + k }));
      if (page.lines !== undefined) {
        for (const { i } of these) {
          t.is(layoutOf(i), 'k1', `response ${i} comes as a line only with a line for these columns`);
          asLines.add(i);
        }
        t.is(page.lines, these.map(({ id }) => lineOf(id, 'k1').line).join(''));
      } else t.deepEqual(unpack(page.bytes).map((r) => r.id), these.map(({ id }) => id));
      next += page.count;
    }
    t.is(next, rows.length, 'every response once');
    // After a page without, an adapter may read one more page packed before it tries lines again.
    for (const i of [0, 1, 2, 3, 12, 13, 14, 15]) t.true(asLines.has(i), `response ${i}, in a page of lines for these columns, comes as its line`);

    const other: Array<[boolean, number]> = [];
    for await (const page of db.storage.responses.exportPages(form.id, 4, { lines: 'k3' })) other.push([page.lines !== undefined, page.count]);
    t.deepEqual(other, [[false, 4], [false, 4], [false, 4], [false, 4], [false, 2]], 'no line for these columns: every page packed');
    const plain: Array<[boolean, number]> = [];
    for await (const page of db.storage.responses.exportPages(form.id, 4)) plain.push([page.lines !== undefined, page.count]);
    t.deepEqual(plain, [[false, 4], [false, 4], [false, 4], [false, 4], [false, 2]], 'lines only when asked for');
  });

  test('responses: updatePartial replaces the stored line, and a filtered export gives the lines of what it keeps', async (t, db) => {
    const form = await newForm(db);
    const done = makeResponse(form.id, 1);
    const open = partial(form.id, 2);
    const line = (id: string, tag: string): CsvLine => ({ layout: 'k1', line: `${id},${tag}\r\n` });
    await db.storage.responses.insert(done, line(done.id, 'done'));
    await db.storage.responses.insert(open, line(open.id, 'partial'));
    const exported = async (options: { completed?: boolean } = {}) => {
      let text = '';
      for await (const page of db.storage.responses.exportPages(form.id, 10, { lines: 'k1', filter: options })) {
        t.not(page.lines, undefined, 'every response has its line');
        text += page.lines ?? '';
      }
      return text;
    };
    t.is(await exported(), `${done.id},done\r\n${open.id},partial\r\n`);
    const completedAt = new Date(Date.parse(open.submitted_at) + 5000).toISOString();
    const patch = { answers: open.answers, completed_at: completedAt, completion_seconds: 5, quiz_results: null, unique_visitor: null, submitted_at: open.submitted_at };
    t.true(await db.storage.responses.updatePartial(form.id, open.id, patch, line(open.id, 'completed')));
    t.is(await exported(), `${done.id},done\r\n${open.id},completed\r\n`);
    t.is(await exported({ completed: true }), `${done.id},done\r\n${open.id},completed\r\n`);
    t.is(await exported({ completed: false }), '');

    const again = partial(form.id, 3);
    await db.storage.responses.insert(again, line(again.id, 'partial'));
    t.true(await db.storage.responses.updatePartial(form.id, again.id, { ...patch, completed_at: null, completion_seconds: null, submitted_at: again.submitted_at }));
    const packed: string[] = [];
    for await (const page of db.storage.responses.exportPages(form.id, 10, { lines: 'k1', filter: { completed: false } })) {
      t.is(page.lines, undefined, 'an update without a line leaves the response none');
      packed.push(...unpack(page.bytes).map((r) => r.id!));
    }
    t.deepEqual(packed, [again.id]);
  });

  test('responses: writeCsvLines writes a line for each response without one for those columns, from its stored fields', async (t, db) => {
    const form = await newForm(db);
    const hidden = { utm: 'x, "y"' };
    const rows = [
      makeResponse(form.id, 1, { metadata: { user_agent: 'ua', referrer: null, hidden } }),
      partial(form.id, 2),
      makeResponse(form.id, 3),
      makeResponse(form.id, 4),
    ];
    await db.storage.responses.insert(rows[0]!);
    await db.storage.responses.insert(rows[1]!, { layout: 'k1', line: 'old\r\n' });
    await db.storage.responses.insert(rows[2]!, { layout: 'k2', line: `${rows[2]!.id},already\r\n` });
    await db.storage.responses.insert(rows[3]!, { layout: 'k1', line: 'old\r\n' });
    await db.storage.responses.insert(makeResponse((await newForm(db)).id, 1)); // another form's
    const seen: string[] = [];
    const line = (r: CsvLineSource) => {
      seen.push(r.id);
      return `${r.id},${r.completed_at ?? ''},${JSON.stringify(r.answers).length},${JSON.stringify(r.metadata.hidden ?? null)}\r\n`;
    };
    t.is(await db.storage.responses.writeCsvLines(form.id, 'k2', line), 3);
    t.deepEqual(seen, [rows[0]!.id, rows[1]!.id, rows[3]!.id], 'only responses without a line for these columns, in key order');
    let text = '';
    for await (const page of db.storage.responses.exportPages(form.id, 10, { lines: 'k2' })) {
      t.not(page.lines, undefined);
      text += page.lines ?? '';
    }
    const expect = (r: ResponseRecord) => line(r);
    t.is(text, [expect(rows[0]!), expect(rows[1]!), `${rows[2]!.id},already\r\n`, expect(rows[3]!)].join(''));
    t.is(await db.storage.responses.writeCsvLines(form.id, 'k2', line), 0, 'nothing left to write');
    t.is(await db.storage.responses.writeCsvLines(uid('frm'), 'k2', line), 0, 'an unknown form has none');
  });

  test('responses: hasFuseLinks and fuseLinks read the Fuse links of a form\'s responses only', async (t, db) => {
    const form = await newForm(db);
    const other = await newForm(db);
    const plain = makeResponse(form.id, 1);
    await db.storage.responses.insert(plain);
    t.false(await db.storage.responses.hasFuseLinks(form.id), 'no link yet');
    const from = { form_id: other.id, response_id: uid('rsp') };
    const to = { form_id: other.id, response_id: uid('rsp') };
    const started = makeResponse(form.id, 2, { metadata: { user_agent: null, referrer: null, fused_from: from } });
    const both = makeResponse(form.id, 3, { metadata: { user_agent: null, referrer: null, fused_from: from, fused_to: to } });
    const elsewhere = makeResponse(other.id, 4, { metadata: { user_agent: null, referrer: null, fused_to: to } });
    for (const r of [started, both, elsewhere]) await db.storage.responses.insert(r);
    t.true(await db.storage.responses.hasFuseLinks(form.id));
    const links = await db.storage.responses.fuseLinks(form.id, [plain.id, started.id, both.id, elsewhere.id, uid('rsp')]);
    t.deepEqual(
      links.sort((a, b) => a.id.localeCompare(b.id)),
      [{ id: started.id, fused_from: from, fused_to: null }, { id: both.id, fused_from: from, fused_to: to }].sort((a, b) => a.id.localeCompare(b.id)),
      'only the form\'s responses with a link',
    );
    t.deepEqual(await db.storage.responses.fuseLinks(form.id, []), []);
  });

  test('responses: writeCsvLines leaves the line a completion wrote while it ran', async (t, db) => {
    const form = await newForm(db);
    const open = partial(form.id, 1);
    const other = makeResponse(form.id, 2);
    await db.storage.responses.insert(open);
    await db.storage.responses.insert(other);
    const done = { ...open, answers: [{ question_id: 'q1', value: 'finished' }], completed_at: at(5), completion_seconds: 4, quiz_results: null, unique_visitor: null };
    let completion: Promise<boolean> | null = null;
    await db.storage.responses.writeCsvLines(form.id, 'k1', (r) => {
      // The completion starts between the read of the response and the write of its line.
      if (r.id === open.id) completion ??= db.storage.responses.updatePartial(form.id, open.id, done, { layout: 'k1', line: `${open.id},completed\r\n` });
      return `${r.id},${r.completed_at ?? 'partial'}\r\n`;
    });
    t.true(await completion!);
    let text = '';
    for await (const page of db.storage.responses.exportPages(form.id, 10, { lines: 'k1' })) text += page.lines ?? '';
    t.is(text, `${open.id},completed\r\n${other.id},${other.completed_at}\r\n`, 'the completion\'s line, not the one made from the partial answers');
  });
}
