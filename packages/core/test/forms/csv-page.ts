import test from 'ava';
import { type Answer, type CsvResponse, CsvPageWriter, csvLayout, type Question } from '../../src/index';

const question = (id: string, type: string, properties: Record<string, unknown> = {}): Question => ({
  id,
  type,
  title: `Title of ${id}`,
  description: null,
  required: false,
  order: 0,
  properties,
  logic_jumps: [],
  validations: {},
});

const QUESTIONS = [
  question('q_text', 'short_text'),
  question('q_choice', 'multiple_choice'),
  question('q_rating', 'rating'),
  question('q_number', 'number'),
  question('q_yes', 'yes_no'),
  question('q_file', 'file_upload'),
  question('q_contact', 'contact_info', { fields: ['first_name', 'email', 'phone'] }),
  question('q_group', 'question_group', { questions: [{ id: 'sub_a', title: 'A' }, { id: 'sub_b', title: 'B' }] }),
  question('q_long', 'long_text'),
];

/** Packs responses as the storage does (PackedResponses), with `answersJson` writing each answers array. */
function pack(rows: CsvResponse[], answersJson: (answers: Answer[]) => string = (a) => JSON.stringify(a)): Buffer {
  return Buffer.from(
    rows
      .map((r) => `${r.id}\u001f${r.submitted_at}\u001f${r.completed_at ?? ''}\u001f${r.hidden ? JSON.stringify(r.hidden) : ''}\u001f${answersJson(r.answers)}\u001e`)
      .join(''),
    'utf8',
  );
}

/** What the page writer must produce: the reference formatter, one response at a time. */
function reference(rows: CsvResponse[]): string {
  const layout = csvLayout(QUESTIONS);
  return rows.map((r) => layout.row(r)).join('');
}

let seq = 0;
const response = (answers: Answer[], over: Partial<CsvResponse> = {}): CsvResponse => ({
  id: `rsp_${String(seq++).padStart(6, '0')}`,
  submitted_at: '2026-11-21T10:00:00.000Z',
  completed_at: '2026-11-21T10:01:00.000Z',
  answers,
  ...over,
});

const TRICKY: CsvResponse[] = [
  response([
    { question_id: 'q_text', value: 'Ada' },
    { question_id: 'q_choice', value: ['Red', 'Blue'] },
    { question_id: 'q_rating', value: 4 },
    { question_id: 'q_number', value: -12.5 },
    { question_id: 'q_yes', value: true },
    { question_id: 'q_file', value: { url: 'https://files.example/a.pdf', name: 'a.pdf' } },
    { question_id: 'q_contact', value: { first_name: '=cmd', email: 'a@example.com', phone: '+44 1' } },
    { question_id: 'q_group', value: { sub_a: 'x, y', sub_b: 3 } },
    { question_id: 'q_long', value: 'Smith, "Jo"\nJr\r\n' },
  ]),
  response([{ question_id: 'q_text', value: '=1+2' }, { question_id: 'q_long', value: '-minus' }, { question_id: 'q_number', value: 1e21 }], { completed_at: null }),
  response([{ question_id: 'q_text', value: '@at' }, { question_id: 'q_long', value: '+plus, comma' }, { question_id: 'q_yes', value: false }]),
  response([{ question_id: 'q_text', value: '\tTab' }, { question_id: 'q_long', value: '\rCR' }, { question_id: 'q_rating', value: null }]),
  response([{ question_id: 'q_text', value: 'Zoë 😀 日本 \u2028 \u001e\u001f \\ back' }, { question_id: 'q_long', value: '' }]),
  response([{ question_id: 'q_gone', value: 'answer to a deleted question' }, { question_id: 'q_text', value: 'kept' }]),
  response([{ question_id: 'q_text', value: 'first' }, { question_id: 'q_text', value: 'second wins' }]),
  response([{ question_id: 'q_contact', value: 'not an object' }, { question_id: 'q_group', value: ['array', 'value'] }]),
  response([{ question_id: 'q_choice', value: [1, { a: '"quoted"' }, null, 'x'] }, { question_id: 'q_text', value: { other: 'object' } }]),
  response([{ question_id: 'q_long', value: '"'.repeat(5000) }, { question_id: 'q_choice', value: Array(300).fill('","') }]),
  response([]),
  response([{ question_id: 'q_text', value: 'odd ids are quoted too' }], { id: 'rsp_a,b' }),
  response([{ question_id: 'q_text', value: 'and decoded' }], { id: '-rsp_"c"\nd' }),
  response([{ question_id: 'q_long', value: 'reversed order' }, { question_id: 'q_text', value: 'and back' }, { question_id: 'q_rating', value: 0 }]),
];

test('writes exactly what the reference formatter writes, cell for cell', (t) => {
  const page = new CsvPageWriter(csvLayout(QUESTIONS)).write(pack(TRICKY));
  t.is(page.csv.toString('utf8'), reference(TRICKY));
  t.is(page.count, TRICKY.length);
});

test('answers JSON in any spacing, key order or with extra keys reads the same', (t) => {
  const expected = reference(TRICKY);
  const writer = new CsvPageWriter(csvLayout(QUESTIONS));
  t.is(writer.write(pack(TRICKY, (a) => JSON.stringify(a, null, 2))).csv.toString('utf8'), expected, 'indented');
  const reordered = (a: Answer[]) => JSON.stringify(a.map((x) => ({ extra: [1, '}'], value: x.value, question_id: x.question_id })));
  t.is(writer.write(pack(TRICKY, reordered)).csv.toString('utf8'), expected, 'value before question_id, an extra key');
  const escapedIds = (a: Answer[]) => JSON.stringify(a).replace(/"q_text"/g, '"q\\u005ftext"');
  t.is(writer.write(pack(TRICKY, escapedIds)).csv.toString('utf8'), expected, 'an escaped question id');
});

test('formula text is neutralised in every cell shape: choice lists, file URLs, sub-fields; numbers stay bare', (t) => {
  const rows = [
    response([
      { question_id: 'q_choice', value: ["=cmd|' /C calc'!A0", 'Red'] },
      { question_id: 'q_file', value: { url: '=HYPERLINK("https://evil.example","x")', name: 'a.pdf' } },
      { question_id: 'q_contact', value: { first_name: '@SUM(1)', email: '+1' } },
      { question_id: 'q_group', value: { sub_a: '-2+3' } },
      { question_id: 'q_number', value: -5 },
      { question_id: 'q_text', value: { url: '\tsep' } },
    ]),
  ];
  const expectedCells = [
    `"'=cmd|' /C calc'!A0, Red"`,
    `"'=HYPERLINK(""https://evil.example"",""x"")"`,
    "'@SUM(1)",
    "'+1",
    "'-2+3",
    '-5',
  ];
  const viaReference = reference(rows);
  const viaPage = new CsvPageWriter(csvLayout(QUESTIONS)).write(pack(rows)).csv.toString('utf8');
  t.is(viaPage, viaReference);
  for (const cell of expectedCells) t.true(viaReference.includes(cell), `${cell} in ${viaReference}`);
  for (const raw of ["=cmd", '=HYPERLINK', '@SUM', '-2+3']) {
    t.false(new RegExp(`(^|,|")${raw.replace(/[|+()]/g, '\\$&')}`).test(viaReference), `${raw} is never at a cell start`);
  }
});

test('hidden fields: one column each after the questions, headed by the name, filled from the packed values', (t) => {
  const layout = csvLayout(QUESTIONS, ['utm_source', 'ref', 'utm_source']);
  t.true(layout.header.endsWith(',Title of q_long,utm_source,ref\r\n'), layout.header);
  const rows = [
    response([{ question_id: 'q_text', value: 'a' }], { hidden: { utm_source: 'news, "letter"', ref: '=1+2' } }),
    response([{ question_id: 'q_text', value: 'b' }], { hidden: { ref: 'only ref', undeclared: 'dropped' } }),
    response([{ question_id: 'q_text', value: 'c' }]),
    response([{ question_id: 'q_text', value: 'd' }], { hidden: { utm_source: 'Zoë 😀\n' } }),
  ];
  const lines = rows.map((r) => layout.row(r));
  t.true(lines[0]!.endsWith(`,"news, ""letter""",'=1+2\r\n`), lines[0]);
  t.true(lines[1]!.endsWith(',,only ref\r\n'), lines[1]);
  t.false(lines[1]!.includes('dropped'));
  t.true(lines[2]!.endsWith(',,\r\n'), lines[2]);
  const writer = new CsvPageWriter(layout);
  t.is(writer.write(pack(rows)).csv.toString('utf8'), lines.join(''));
  // Answers the fast path cannot read (indented) are decoded whole: the hidden values still land.
  t.is(writer.write(pack(rows, (a) => JSON.stringify(a, null, 1))).csv.toString('utf8'), lines.join(''));
  // A layout without hidden fields ignores packed values.
  t.is(new CsvPageWriter(csvLayout(QUESTIONS)).write(pack(rows)).csv.toString('utf8'), reference(rows.map((r) => ({ ...r, hidden: null }))));
});

test('an empty page writes nothing', (t) => {
  t.deepEqual(new CsvPageWriter(csvLayout(QUESTIONS)).write(Buffer.alloc(0)), { csv: Buffer.alloc(0), count: 0 });
});

test('answers that are not JSON fail the export as JSON.parse does', (t) => {
  const bad = Buffer.from('rsp_1\u001f2026-11-21T10:00:00.000Z\u001f\u001f\u001f[{"question_id":"q_text","value":"x"\u001e');
  t.throws(() => new CsvPageWriter(csvLayout(QUESTIONS)).write(bad), { instanceOf: SyntaxError });
  t.throws(() => new CsvPageWriter(csvLayout(QUESTIONS)).write(Buffer.from('truncated')), { message: /Malformed export page/ });
});

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

test('random answers: the same bytes as the reference for 3,000 responses', (t) => {
  const rnd = random(20261121);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const ALPHABET = ['a', 'Z', ' ', ',', '"', '\n', '\r', '\t', '=', '+', '-', '@', '\\', '/', 'é', '😀', '\u0000', '\u001e', "'", '}', ']', '{'];
  const text = () => Array.from({ length: Math.floor(rnd() * 12) }, () => pick(ALPHABET)).join('');
  const scalar = (): unknown => pick([() => text(), () => Math.round((rnd() - 0.5) * 1e6) / 100, () => rnd() < 0.5, () => null])();
  const value = (): unknown =>
    pick([scalar, scalar, scalar, () => [text(), scalar()], () => ({ url: text(), name: text() }), () => ({ first_name: text(), email: scalar(), sub_a: text() })])();
  const ids = [...QUESTIONS.map((q) => q.id), 'q_unknown'];
  const rows = Array.from({ length: 3000 }, (_, i) =>
    response(
      Array.from({ length: Math.floor(rnd() * 12) }, () => ({ question_id: pick(ids), value: value() })),
      { completed_at: i % 7 ? '2026-11-21T10:01:00.000Z' : null },
    ),
  );
  const writer = new CsvPageWriter(csvLayout(QUESTIONS));
  // Pages of 500 through one writer, as an export reuses it.
  let out = '';
  for (let i = 0; i < rows.length; i += 500) out += writer.write(pack(rows.slice(i, i + 500))).csv.toString('utf8');
  t.is(out, reference(rows));
});
