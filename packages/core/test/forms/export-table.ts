import test from 'ava';
import { answerLabel, csvLayout, exportColumns, exportJson, exportRows, yesNoWords, type Question } from '../../src';

/* The XLSX and JSON exports' rows (docs/responses-and-webhooks.md, "Export formats"), from packed pages. */

const q = (id: string, type: string, title: string, properties: Record<string, unknown> = {}) => ({ id, type, title, properties }) as unknown as Question;
const QUESTIONS = [
  q('q1', 'yes_no', 'Ok?'),
  q('q2', 'multiple_choice', 'Colours', { choices: [{ label: 'Red' }, { label: 'Blue' }], allow_multiple: true }),
  q('q3', 'question_group', 'Group', { questions: [{ id: 's1', type: 'number', title: 'Age' }] }),
  q('q4', 'file_upload', 'CV'),
];

/** A packed page (see PackedResponses): fields ended by 0x1F, responses by 0x1E. */
const packed = (records: string[][]) => {
  const bytes = new TextEncoder().encode(records.map((r) => r.join('\u001f') + '\u001e').join(''));
  return { count: records.length, bytes };
};

test("yesNoWords: the owner's page words, else English; blank words are ignored", (t) => {
  t.deepEqual(yesNoWords({}), { yes: 'Yes', no: 'No' });
  t.deepEqual(yesNoWords({ strings: { yes: 'Ja', no: 'Nein' } }), { yes: 'Ja', no: 'Nein' });
  t.deepEqual(yesNoWords({ strings: { yes: '  ', no: 3 } }), { yes: 'Yes', no: 'No' });
});

test('answerLabel: yes/no as words, choices joined, files as their URL, other objects as JSON, the rest as is', (t) => {
  const words = { yes: 'Sí', no: 'No' };
  t.is(answerLabel(true, words), 'Sí');
  t.is(answerLabel(false, words), 'No');
  t.is(answerLabel(['Red', 'Blue'], words), 'Red, Blue');
  t.is(answerLabel({ url: 'https://x.test/f.pdf', name: 'f.pdf' }, words), 'https://x.test/f.pdf');
  t.is(answerLabel({ a: 1 }, words), '{"a":1}');
  t.is(answerLabel(7, words), 7);
  t.is(answerLabel(null, words), null);
});

test('exportRows and exportJson: the CSV columns with labels and raw values; sub-fields and hidden fields placed; deleted questions left out', async (t) => {
  const layout = csvLayout(QUESTIONS, ['utm']);
  const columns = exportColumns(layout, QUESTIONS);
  t.deepEqual(columns.map((c) => [c.title, c.kind, c.type ?? null]), [
    ['responseId', 'response', null],
    ['submittedAt', 'response', null],
    ['completedAt', 'response', null],
    ['Ok?', 'answer', 'yes_no'],
    ['Colours', 'answer', 'multiple_choice'],
    ['Group - Age', 'answer', 'number'],
    ['CV', 'answer', 'file_upload'],
    ['utm', 'hidden', null],
  ]);
  const answers = JSON.stringify([
    { question_id: 'q1', value: false },
    { question_id: 'q2', value: ['Blue'] },
    { question_id: 'q3', value: { s1: 30 } },
    { question_id: 'gone', value: 'deleted question' },
  ]);
  const page = packed([
    ['rsp_1', '2026-01-02T03:04:05.000Z', '2026-01-02T03:05:00.000Z', '{"utm":"mail"}', answers],
    ['rsp_2', '2026-01-03T00:00:00.000Z', '', '', '[]'],
  ]);
  const rows = exportRows(page, layout, { yes: 'Yes', no: 'No' });
  t.deepEqual(rows[0]!.labels.slice(3), ['No', 'Blue', 30, null, 'mail']);
  t.deepEqual(rows[0]!.values.slice(3), [false, ['Blue'], 30, null, 'mail']);
  t.is(rows[1]!.completed_at, null);

  async function* once() {
    yield rows;
  }
  let text = '';
  for await (const chunk of exportJson(columns, once())) text += chunk;
  t.deepEqual(JSON.parse(text), [
    {
      id: 'rsp_1',
      submitted_at: '2026-01-02T03:04:05.000Z',
      completed_at: '2026-01-02T03:05:00.000Z',
      answers: [
        { question_id: 'q1', title: 'Ok?', label: 'No', value: false },
        { question_id: 'q2', title: 'Colours', label: 'Blue', value: ['Blue'] },
        { question_id: 'q3', sub_field: 's1', title: 'Group - Age', label: 30, value: 30 },
      ],
      hidden_fields: { utm: 'mail' },
    },
    { id: 'rsp_2', submitted_at: '2026-01-03T00:00:00.000Z', completed_at: null, answers: [], hidden_fields: {} },
  ]);

  async function* none() {}
  let empty = '';
  for await (const chunk of exportJson(columns, none())) empty += chunk;
  t.deepEqual(JSON.parse(empty), []);
});
